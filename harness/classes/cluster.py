"""Grade a class on a Dask distributed cluster instead of this machine.

The caller finds and stages the class as usual; each submission's files travel with its task
(packed in memory, so the workers need not share the caller's disk), and the spec, its folder
and the cases travel once per worker in a worker plugin that also holds the one `Grader` that
worker reuses for every task of the grading. A worker grades with the same code as a local
grading (the same sandbox and limits), and sends back the typed `SubmissionResult`; the caller
writes every report and the gradebook as for a local result. The caller's settings (its
HARNESS_* variables, read once by its front door) travel to the workers with the grading, but
the number of case workers, which each worker sizes to its own cores: a worker reads none of
its own.

Workers must be able to start the harness's case-worker processes, which a daemonic process
may not: start them with `DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker ADDRESS`
(or `dask worker ADDRESS --no-nanny`). Connecting checks that every worker runs this very
harness (a hash of its code and the references) and can start processes, and names the
worker that cannot.
"""
import asyncio
import concurrent.futures
import io
import itertools
import multiprocessing
import shutil
import sys
import tarfile
import tempfile
import threading
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path

try:  # the cluster extra: only --cluster needs it, and connect() says how to get it
    from distributed import Client, WorkerPlugin, as_completed, get_worker
    from distributed.comm import connect as open_comm
except ImportError:
    Client = as_completed = get_worker = open_comm = None
    WorkerPlugin = object

from harness.building import intake, reference
from harness.classes import classroom, executor
from harness.grading import submission as grading
from harness.running import sandbox
from harness.loading import code, config
from harness.errors import InputError
from harness.results import SubmissionResult
from harness.loading import paths

MAX_BYTES = intake.MAX_BYTES  # of a submission's files sent to a worker: intake's own limit for an archive
CONNECT_SECONDS = 5  # a scheduler answers in well under a second; a wrong address waits this long
WORKER_FIX = "DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker {address} (or dask worker {address} --no-nanny)"
NEEDS_EXTRA = "--cluster needs the cluster extra: pip install 'game-harness[cluster]'"
_PLUGIN = "game-harness-{}"


class TooBig(Exception):
    """A submission whose files are more than a task may carry."""


# --- what both sides must agree on --------------------------------------------------------

@dataclass(frozen=True)
class Probe:
    """What a worker says about itself when the caller connects."""
    version: str
    python: str
    daemonic: bool


def probe() -> Probe:
    """Run on every worker at connection."""
    return Probe(code.version(), sys.version.split()[0], bool(multiprocessing.current_process().daemon))


# --- a submission's files as bytes ----------------------------------------------------------

def pack(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The staged folder or file as a compressed tar, its top entry named as on this disk; links
    are packed as links (intake reports them and never follows them). TooBig past `limit`."""
    total = 0

    def count(member: tarfile.TarInfo) -> tarfile.TarInfo:
        nonlocal total
        total += member.size
        if total > limit:
            raise TooBig(f"its files hold more than {limit // (1024 * 1024)} MB")
        return member

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as tar:
        tar.add(path, arcname=Path(path).name, recursive=True, filter=count)
    return buffer.getvalue()


def unpack(data: bytes, into: Path, label: str = "sent to the worker") -> None:
    """`pack`'s bytes unpacked by intake's reader of packed folders, within the caps of a
    student's archive (TooLarge over them); links recreated as links, never followed."""
    intake.unpack_packed(data, into, label)


# --- the worker's side ----------------------------------------------------------------------

@dataclass
class Setup:
    """What every worker needs for one grading, sent once per worker."""
    spec: object  # harness.loading.spec.Spec
    milestone: str | None
    cases: list
    spec_files: bytes  # the spec's folder (support files, a reference named through {spec})
    version: str  # the caller's code.version()
    allow_unconfined: bool  # --no-sandbox or HARNESS_SANDBOX=off on the caller
    settings: config.Settings  # the caller's HARNESS_* settings (`for_workers`): a worker never reads its own environment for them


class Grading(WorkerPlugin):
    """On one worker, for one grading: the spec folder unpacked once and one Grader (its own
    pool of case workers, its warm compiler) used by every task, closed when the grading ends."""

    idempotent = True

    def __init__(self, setup: Setup):
        self.setup_data = setup

    def setup(self, worker) -> None:
        given = self.setup_data
        self.address = worker.address
        self.folder = Path(tempfile.mkdtemp(prefix=paths.temporary("cluster")))
        specs = self.folder / "specs"
        specs.mkdir()
        try:
            unpack(given.spec_files, specs, f"{Path(given.spec.folder).name} (the spec folder)")
            unpacked = ""
        except intake.IntakeProblem as problem:
            unpacked = f"the cluster worker {self.address} cannot unpack the spec folder: {problem}"
        self.spec = replace(given.spec, folder=specs / Path(given.spec.folder).name)
        self.stop = threading.Event()
        self.grader = executor.StoppableGrader(self.stop, settings=given.settings)
        self.refusal = unpacked or self._refusal()
        if not self.refusal:
            try:  # a reference given as a recipe is built here, from this worker's copy of the spec folder
                self.spec = reference.prepared(self.spec, settings=given.settings)
            except InputError as problem:
                self.refusal = f"the cluster worker {self.address} cannot build the reference: {problem}"

    def _refusal(self) -> str:
        """Why this worker may not grade for this caller ("" when it may)."""
        mine = code.version()
        if mine != self.setup_data.version:
            return (f"the cluster worker {self.address} runs another harness (code {mine}, the caller's "
                    f"{self.setup_data.version}): install the same checkout there and restart the worker")
        if multiprocessing.current_process().daemon:
            return (f"the cluster worker {self.address} is a daemonic process, which cannot start case workers: "
                    f"start it as {WORKER_FIX.format(address='ADDRESS')}")
        if not sandbox.available(self.setup_data.settings.sandbox) and not self.setup_data.allow_unconfined:
            return (f"bubblewrap is not available on the cluster worker {self.address}: install it there "
                    "(apt-get install bubblewrap), or pass --no-sandbox to run submissions unconfined")
        return ""

    def teardown(self, worker) -> None:
        """No new case starts; queued ones are dropped, running ones end within their limits,
        out of the worker's event loop."""
        self.stop.set()
        threading.Thread(target=self._close, name="harness-cluster-close").start()

    def _close(self) -> None:
        self.grader.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def grade(self, entry: classroom.Entry, packed: bytes) -> SubmissionResult:
        given = self.setup_data
        if self.refusal:
            return executor.unfinished(self.spec, given.milestone, entry, self.refusal, sandbox_setting=given.settings.sandbox)
        with tempfile.TemporaryDirectory(prefix=paths.temporary("submission"), dir=self.folder) as temp:
            try:
                unpack(packed, Path(temp), Path(entry.path).name)
            except intake.IntakeProblem as problem:
                reason = (f"the cluster worker {self.address} cannot unpack it ({problem}): grade it on this "
                          "machine (leave out --cluster), or remove what is not part of the program")
                return executor.unfinished(self.spec, given.milestone, entry, reason, sandbox_setting=given.settings.sandbox)
            here = replace(entry, path=Path(temp) / Path(entry.path).name)
            result = executor.grade_entry(self.grader, self.spec, given.milestone, given.cases, here)
        for build in result.builds.values():
            build.intake.append(f"graded on the cluster worker {self.address}")
        return result


def grade_task(plugin: str, entry: classroom.Entry, packed: bytes) -> SubmissionResult:
    """A task: one submission, on whichever worker the scheduler chose."""
    return get_worker().plugins[plugin].grade(entry, packed)


# --- the caller's side ------------------------------------------------------------------------

@dataclass
class Cluster:
    """A connected Dask cluster, used by `batch` as the place where submissions are graded."""
    address: str
    client: object  # distributed.Client
    workers: dict[str, Probe]
    allow_unconfined: bool
    settings: config.Settings = config.DEFAULTS  # the caller's, sent to every worker with the grading
    plugin: str = ""  # the registered Grading's name, once the first submission is sent
    _count: itertools.count = field(default_factory=itertools.count)

    @property
    def capacity(self) -> int:
        """Submissions worth having in flight at once: a few per worker (each grades several side by side)."""
        return 4 * max(1, len(self.workers))

    def submit(self, spec, milestone, cases, entry: classroom.Entry, progress=None):
        """A Dask future of the entry's result; a missing submission (nothing to build or run)
        and one too big to send are settled here, as already finished futures. A worker's cases
        are not followed from here (`progress` is not told)."""
        if entry.layout == classroom.MISSING:
            with grading.Grader(settings=self.settings) as nothing_runs:  # the build finds no files: no program, no pool
                return _settled(lambda: executor.grade_entry(nothing_runs, spec, milestone, cases, entry))
        try:
            packed = pack(entry.path)
        except TooBig as big:
            reason = (f"too big to send to the cluster ({big}): grade it on this machine (leave out --cluster), "
                      "or remove what is not part of the program")
            return _settled(lambda: executor.unfinished(spec, milestone, entry, reason, sandbox_setting=self.settings.sandbox))
        except OSError as problem:
            reason = (f"cannot read it to send it to the cluster ({problem.strerror or problem}): "
                      "grade it on this machine (leave out --cluster)")
            return _settled(lambda: executor.unfinished(spec, milestone, entry, reason, sandbox_setting=self.settings.sandbox))
        if not self.plugin:
            self.plugin = self._register(spec, milestone, cases)
        return self.client.submit(grade_task, self.plugin, entry, packed, pure=False, retries=0,
                                  key=f"{self.plugin}-{next(self._count)}")

    def _register(self, spec, milestone, cases) -> str:
        name = _PLUGIN.format(uuid.uuid4().hex[:12])
        try:
            files = pack(Path(spec.folder))
        except (TooBig, OSError) as problem:
            raise InputError(f"{spec.folder}: cannot send the spec's folder to the workers ({problem}); keep only "
                             "spec.yaml, its README and support files there") from None
        setup = Setup(spec, milestone, list(cases), files, code.version(), self.allow_unconfined, for_workers(self.settings))
        self.client.register_plugin(Grading(setup), name=name)
        return name

    def completed(self, pending):
        """The futures as they finish: those settled here first, then the cluster's."""
        settled = [f for f in pending if isinstance(f, concurrent.futures.Future)]
        remote = [f for f in pending if not isinstance(f, concurrent.futures.Future)]
        yield from settled
        if remote:
            yield from as_completed(remote, loop=self.client.loop)

    def interrupt(self, pending) -> None:
        """Ctrl-C: queued tasks are cancelled; on each worker no new case starts and the running
        ones end within their limits."""
        remote = [f for f in pending if not isinstance(f, concurrent.futures.Future)]
        if remote:
            self.client.cancel(remote, force=True)

    def close(self) -> None:
        """The workers' graders closed (their plugin removed), then the connection; twice is harmless."""
        if self.client is None:
            return
        try:
            if self.plugin:
                self.client.unregister_worker_plugin(self.plugin)
        except Exception:  # a scheduler already gone: nothing is left to remove
            pass
        finally:
            client, self.client, self.plugin = self.client, None, ""
            client.close()


def _settled(make) -> concurrent.futures.Future:
    future = concurrent.futures.Future()
    try:
        future.set_result(make())
    except Exception as problem:  # reported as any submission the harness failed on
        future.set_exception(problem)
    return future


def for_workers(settings: config.Settings) -> config.Settings:
    """The caller's settings as they travel to the workers: the sandbox and the JVM archive as
    the caller set them, but not the number of case workers (each worker sizes its pool to its
    own cores) nor the project root (a path on the caller's disk; the spec travels instead)."""
    return replace(settings, jobs=None, root=None)


def connect(address: str, allow_unconfined: bool, settings: config.Settings = config.DEFAULTS) -> Cluster:
    """A client of the scheduler at `address` whose every worker runs this harness and may
    start processes; anything else is one InputError naming the address or the worker.
    `settings` (the caller's) go to every worker with the grading."""
    if Client is None:
        raise InputError(NEEDS_EXTRA)
    try:
        asyncio.run(_reach(address))  # first, so that a wrong address leaves no half-made client behind
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except Exception as problem:
        detail = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
        raise InputError(f"--cluster {address}: no Dask scheduler answered ({detail}); start one with "
                         "`dask scheduler` and give the address it prints (tcp://HOST:8786), or leave out "
                         "--cluster to grade on this machine") from None
    try:
        workers = _check(address, client)
    except BaseException:
        client.close()
        raise
    return Cluster(address, client, workers, allow_unconfined, settings)


async def _reach(address: str) -> None:
    """A scheduler (or anything speaking Dask's protocol) answers at `address`."""
    comm = await open_comm(address, timeout=CONNECT_SECONDS)
    await comm.close()


def _check(address: str, client) -> dict[str, Probe]:
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except Exception:
        raise InputError(f"--cluster {address}: the scheduler has no workers; start some with "
                         f"{WORKER_FIX.format(address=address)}") from None
    answers = client.run(probe, on_error="return")
    mine = code.version()
    for worker, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            raise InputError(f"--cluster {address}: the worker {worker} cannot run the harness "
                             f"({type(answer).__name__}: {answer}); install this checkout there "
                             "(pip install -e .) and restart it")
        if answer.version != mine:
            raise InputError(f"--cluster {address}: the worker {worker} runs another harness (code {answer.version}, "
                             f"here {mine}); install this checkout there and restart it")
        if answer.python.split(".")[:2] != sys.version.split()[0].split(".")[:2]:
            raise InputError(f"--cluster {address}: the worker {worker} runs Python {answer.python}, here "
                             f"{sys.version.split()[0]}; give it the same Python")
        if answer.daemonic:
            raise InputError(f"--cluster {address}: the worker {worker} is a daemonic process, which cannot start "
                             f"the harness's case workers; start it as {WORKER_FIX.format(address=address)}")
    return answers
