"""`harness serve`: the games and the roster loaded, the store opened, the worker and the
HTTP server (uvicorn) started; a kill at any moment loses nothing acknowledged. The service
runs under the HARNESS_* settings its command read once as it started (`config.load()` in the
command line's `main`): the games' folder, the sandbox, the case workers, the JVM archive."""
import errno
import logging
import os
import socket
import sys
from pathlib import Path

import python_multipart  # noqa: F401 (the form parser Starlette uses: missing means the extra is)
import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from harness.errors import InputError
from harness.loading import cases as caseload
from harness.loading import config
from harness.loading import spec as specs
from harness.running import environment, sandbox
from harness.building import reference
from harness.serve import app, guard, lifeline, own, tokens
from harness.serve.queue import Game, Worker
from harness.serve.store import Store

# connections and requests at once; beyond it uvicorn answers 503 at once (one address cannot
# fill it: guard caps each address and closes a connection whose request head is late)
MAX_CONNECTIONS = 1000
PROXY = "127.0.0.1"  # the one address whose X-Forwarded-For is believed: a proxy there is not capped


def games(names: list[str], settings: config.Settings) -> dict[str, Game]:
    loaded = {}
    for name in dict.fromkeys(names):
        spec, milestone = specs.parse_game(name, settings.root)
        spec = reference.prepared(spec, settings=settings)
        found = caseload.load_all(spec, milestone)
        if not found:
            raise InputError(f"no cases for {name} in cases/{spec.game}/")
        caseload.require_expectations(found)
        loaded[name] = Game(spec, milestone, found)
    return loaded


def listening(host: str, port: int) -> socket.socket:
    """The service's socket, bound before anything is said or loaded: a port in use (or an
    address this machine does not have) is one line and exit 2, not an address printed and then
    uvicorn's error."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as problem:
        raise InputError(f"--host {host}: not an address of this machine ({problem}) — give one with --host, "
                         "e.g. 127.0.0.1") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a restart reuses its port
        sock.bind(address)
    except OSError as problem:
        sock.close()
        if problem.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} on {host} is in use — choose another with --port") from None
        if problem.errno == errno.EACCES:
            raise InputError(f"port {port} on {host} needs more privileges than this user has — choose one "
                             "above 1023 with --port") from None
        raise InputError(f"cannot listen on {host} port {port} ({problem.strerror or problem}) — choose another "
                         "--host or --port") from None
    return sock


def run(names: list[str], roster_file: Path, host: str, port: int, data: Path, instructor: str | None,
        rate: int, no_sandbox: bool, jobs: int | None = None, cluster_address: str | None = None,
        sock: socket.socket | None = None, *, settings: config.Settings, policy: own.Policy = own.Policy()) -> int:
    """The service, until it is stopped; `settings`: the command's HARNESS_* settings; `policy`:
    the students' own games (--counterexamples, --counterexample-turns)."""
    sock = sock or listening(host, port)
    pool = None
    if cluster_address is None:
        sandbox.require(no_sandbox, settings.sandbox)
        _helpers_die_with_the_service()
    else:  # as `harness grade --cluster`: each worker checks its own sandbox
        if policy.on:  # the own games' runs are this machine's
            sandbox.require(no_sandbox, settings.sandbox)
        from harness.classes import cluster
        pool = cluster.connect(cluster_address, no_sandbox or settings.sandbox == "off", settings)
    service = app.Settings(games(names, settings), tokens.load(roster_file, instructor), Store(data), rate=rate,
                           counterexamples=policy)
    service.worker = Worker(service.store, service.games, jobs, pool, settings, policy)
    queued = sum(1 for row in service.store.everything() if row.state != "done")
    print(f"harness serve: {', '.join(service.games)} for {len(service.roster.students)} students on "
          f"http://{host}:{port}/ (data in {data}; {queued} waiting to be graded)", file=sys.stderr, flush=True)
    logging.getLogger("uvicorn.access").disabled = False  # paths only: tokens never travel in a URL
    door = guard.guarded(AutoHTTPProtocol, guard.Limits(exempt=frozenset({PROXY})))
    server = _Server(uvicorn.Config(app.make(service), host=host, port=port, log_level="info", http=door, ws="none",
                                    server_header=False, proxy_headers=True, forwarded_allow_ips=PROXY,
                                    limit_concurrency=MAX_CONNECTIONS, timeout_keep_alive=5))
    try:
        server.run(sockets=[sock])  # the socket bound above: nothing can take the port in between
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    if not server.started:
        raise InputError("the service did not start: see the message above")
    return 0


class _Server(uvicorn.Server):
    """uvicorn, on the socket bound beforehand, saying where it listens as it does on its own."""

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if self.started and sockets:  # uvicorn says so only of a socket it bound itself
            self._log_started_message(sockets)


def _helpers_die_with_the_service() -> None:
    """The fork server started now, from the main thread (which lives as long as the service:
    PR_SET_PDEATHSIG follows the thread that started a process), with lifeline preloaded, so it
    and its case workers end when the service does, even by `kill -9`."""
    import multiprocessing.forkserver

    os.environ[lifeline.SERVICE] = str(os.getpid())
    multiprocessing.forkserver.set_forkserver_preload(["harness.serve.lifeline"])
    environment.fork_server()
