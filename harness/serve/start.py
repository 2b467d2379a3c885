"""`harness serve`: the games and the roster loaded, the store opened, the worker and the
HTTP server (uvicorn) started; a kill at any moment loses nothing acknowledged."""
import logging
import os
import sys
from pathlib import Path

import python_multipart  # noqa: F401 (the form parser Starlette uses: missing means the extra is)
import uvicorn

from harness.errors import InputError
from harness.loading import cases as caseload
from harness.loading import config
from harness.loading import spec as specs
from harness.running import environment, sandbox
from harness.building import reference
from harness.serve import app, lifeline, tokens
from harness.serve.queue import Game, Worker
from harness.serve.store import Store

# connections and requests at once; beyond it uvicorn answers 503 at once (a proxy in front
# should still bound connections per address: see the threat model in the manual)
MAX_CONNECTIONS = 1000


def games(names: list[str]) -> dict[str, Game]:
    loaded = {}
    for name in dict.fromkeys(names):
        spec, milestone = specs.parse_game(name)
        spec = reference.prepared(spec)
        found = caseload.load_all(spec, milestone)
        if not found:
            raise InputError(f"no cases for {name} in cases/{spec.game}/")
        caseload.require_expectations(found)
        loaded[name] = Game(spec, milestone, found)
    return loaded


def run(names: list[str], roster_file: Path, host: str, port: int, data: Path, instructor: str | None,
        rate: int, no_sandbox: bool, jobs: int | None = None, cluster_address: str | None = None) -> int:
    pool = None
    if cluster_address is None:
        sandbox.require(no_sandbox)
        _helpers_die_with_the_service()
    else:  # as `harness grade --cluster`: each worker checks its own sandbox
        from harness.classes import cluster
        pool = cluster.connect(cluster_address, no_sandbox or config.load().sandbox == "off")
    settings = app.Settings(games(names), tokens.load(roster_file, instructor), Store(data), rate=rate)
    settings.worker = Worker(settings.store, settings.games, jobs, pool)
    queued = sum(1 for row in settings.store.everything() if row.state != "done")
    print(f"harness serve: {', '.join(settings.games)} for {len(settings.roster.students)} students on "
          f"http://{host}:{port}/ (data in {data}; {queued} waiting to be graded)", file=sys.stderr, flush=True)
    logging.getLogger("uvicorn.access").disabled = False  # paths only: tokens never travel in a URL
    uvicorn.run(app.make(settings), host=host, port=port, log_level="info", server_header=False,
                proxy_headers=True, forwarded_allow_ips="127.0.0.1", limit_concurrency=MAX_CONNECTIONS,
                timeout_keep_alive=5)
    return 0


def _helpers_die_with_the_service() -> None:
    """The fork server started now, from the main thread (which lives as long as the service:
    PR_SET_PDEATHSIG follows the thread that started a process), with lifeline preloaded, so it
    and its case workers end when the service does, even by `kill -9`."""
    import multiprocessing.forkserver

    os.environ[lifeline.SERVICE] = str(os.getpid())
    multiprocessing.forkserver.set_forkserver_preload(["harness.serve.lifeline"])
    environment.fork_server()
