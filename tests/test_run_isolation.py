"""No run of a submission can tell another anything: a hidden case's inputs never reach a public
run's output (docs/how-a-run-works.md, "Channels between runs").

Each test runs the real harness on a hostile program twice at once, as two cases would run
side by side: one run ("hidden") publishes what it was typed through a channel, waits until the
other ("public") has run to its end, then ends. The public run prints what it saw; it must see
nothing. Without the sandbox there is nothing to test (every run is the grader's own user).
The order of a grading (every public case done before a hidden one starts) is tested too.
"""
import dataclasses
import threading

import pytest

from harness.building import build as builder
from harness.grading import submission as grading
from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.running import launcher, sandbox
from harness.running.environment import Workdir
from tests.helpers import ROOT

pytestmark = [pytest.mark.skipif(not sandbox.available(), reason="bubblewrap (bwrap) is not installed"),
              pytest.mark.slow]

# One program for both sides: its first line says the channel and the side, the second what the
# hidden side publishes (a number below 64). A side that could not use its channel says so.
ATTACKER = r'''
import ctypes, fcntl, os, socket, struct, sys
channel, side = input().split()
secret = int(input()) if side == "hide" else None
me = os.path.abspath(__file__)              # a file of the build folder
shared = os.__file__                        # a file of the system every run sees
libc = ctypes.CDLL(None, use_errno=True)
LOCK = "hhqqi"                              # struct flock on 64-bit Linux (type, whence, start, len, pid)

def seen(what):
    print("SEEN", what, flush=True)

def lock_at(path, cmd):
    fd = os.open(path, os.O_RDONLY)
    fcntl.fcntl(fd, cmd, struct.pack(LOCK, fcntl.F_RDLCK, 0, secret, 1, 0))
    return fd

def peek_locks(path, cmd):
    fd = os.open(path, os.O_RDONLY)
    for offset in range(64):
        kind = struct.unpack(LOCK, fcntl.fcntl(fd, cmd, struct.pack(LOCK, fcntl.F_WRLCK, 0, offset, 1, 0)))[0]
        if kind != fcntl.F_UNLCK:
            seen(offset)

keep = []
try:
    if channel in ("fcntl", "fcntl-system", "ofd"):
        path = shared if channel == "fcntl-system" else me
        cmd = {"ofd": (37, 36)}.get(channel, (fcntl.F_SETLK, fcntl.F_GETLK))
        if side == "hide":
            keep.append(lock_at(path, cmd[0]))
        else:
            peek_locks(path, cmd[1])
    elif channel in ("flock", "flock-system"):
        path = shared if channel == "flock-system" else me
        fd = os.open(path, os.O_RDONLY)
        if side == "hide":
            fcntl.flock(fd, fcntl.LOCK_SH)
            keep.append(fd)
        else:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                seen("a lock")
    elif channel == "inotify":  # the public side watches first; the hidden side opens files
        if side == "hide":
            for path in (me, shared)[:secret % 2 + 1]:
                os.close(os.open(path, os.O_RDONLY))
        else:
            fd = libc.inotify_init1(os.O_NONBLOCK)
            if fd < 0:
                raise OSError(ctypes.get_errno(), "inotify_init1")
            for path in (me, shared):
                libc.inotify_add_watch(fd, path.encode(), 0x20 | 0x1)  # IN_OPEN | IN_ACCESS
            print("watching", flush=True)
            input()
            try:
                if os.read(fd, 4096):
                    seen("an open")
            except BlockingIOError:
                pass
    elif channel == "files":
        places = ["/tmp", "/dev/shm", "."]
        if side == "hide":
            for place in places:
                try:
                    with open(os.path.join(place, f"secret-{secret}"), "w") as out:
                        out.write("x")
                except OSError:
                    pass
        else:
            for place in places:
                if os.path.isdir(place):
                    for name in os.listdir(place):
                        if name.startswith("secret-"):
                            seen(f"{place}/{name}")
    elif channel == "socket":
        name = b"\0harness-secret"
        if side == "hide":
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(name + bytes([secret]))
            server.listen()
            keep.append(server)
        else:
            for value in range(64):
                try:
                    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).connect(name + bytes([value]))
                    seen(value)
                except OSError:
                    pass
    elif channel == "sysv":
        libc.shmget.restype = ctypes.c_int
        if side == "hide":
            libc.shmget(0x5EC0 + secret, 4096, 0o1666)  # IPC_CREAT | 0666
        else:
            for value in range(64):
                if libc.shmget(0x5EC0 + value, 0, 0o666) >= 0:
                    seen(value)
    elif channel == "processes":  # signals and /proc: the hidden side signals everyone it can
        if side == "hide":
            if os.getpid() < 100:  # only in a pid namespace of its own: never the grader's whole machine
                os.kill(-1, 10)
        else:
            import signal
            signal.signal(signal.SIGUSR1, lambda *_: seen("a signal"))
            others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid())]  # 1: its own bwrap
            print("watching", flush=True)
            input()
            for pid in others:  # its own sandbox's init is there; another run of this program must not be
                try:
                    if b"reversi.py" in open(f"/proc/{pid}/cmdline", "rb").read():
                        seen(f"process {pid}")
                except OSError:
                    pass
except OSError as problem:
    print("refused:", problem, flush=True)
print("ready", flush=True)
input()
print("end")
'''


class _Held:
    """Inputs for the side that must wait for the other: its lines, then (at the wait that
    follows them) it tells `reached` and blocks until `release`."""

    def __init__(self, lines: list[str], reached: threading.Event, release: threading.Event):
        self.lines, self.reached, self.release = list(lines), reached, release

    def next_line(self, _output: str) -> str | None:
        if self.lines:
            return self.lines.pop(0)
        self.reached.set()
        if not self.release.wait(60):
            return None
        return "go"


class _Lines:
    def __init__(self, lines: list[str]):
        self.lines = list(lines)

    def next_line(self, _output: str) -> str | None:
        return self.lines.pop(0) if self.lines else "go"


@pytest.fixture(scope="module")
def attacker(tmp_path_factory):
    """The attacking program built as a Reversi submission, and a case to run it under."""
    folder = tmp_path_factory.mktemp("attacker")
    (folder / "reversi.py").write_text(ATTACKER)
    spec, milestone = specs.parse_game("reversi:ms1", ROOT)
    case = caseload.load_all(spec, milestone, "ms1-prompts")[0]
    case.args = []
    built = builder.build(folder, spec, "game")
    assert built.ok and built.sandboxed
    yield spec, case, built
    builder.cleanup(built)


def _run(spec, case, built, inputs, outputs: dict, side: str) -> None:
    with Workdir() as home:
        _, run = grading._run_program(spec, case, built, home, inputs)
    outputs[side] = run.output()


def _both(attacker, channel: str, secret: int, first: str) -> dict:
    """Both runs at once: the `first` side runs until it waits after its lines, the other runs to
    its end, then the first ends. What each printed, by side."""
    spec, case, built = attacker
    lines = {"hide": [f"{channel} hide", str(secret)], "show": [f"{channel} show"]}
    second = "show" if first == "hide" else "hide"
    reached, release = threading.Event(), threading.Event()
    outputs: dict = {}
    waiting = threading.Thread(target=_run, args=(spec, case, built, _Held(lines[first], reached, release),
                                                  outputs, first))
    waiting.start()
    try:
        assert reached.wait(60), "the first run never reached its wait"
        _run(spec, case, built, _Lines(lines[second]), outputs, second)
    finally:
        release.set()
        waiting.join(60)
    return outputs


CHANNELS = ["fcntl", "ofd", "fcntl-system", "flock", "flock-system", "files", "socket", "sysv"]


@pytest.mark.parametrize("channel", CHANNELS)
def test_what_a_hidden_run_publishes_no_public_run_sees(attacker, channel):
    outputs = _both(attacker, channel, 42, first="hide")
    assert "ready" in outputs["hide"], outputs
    assert "ready" in outputs["show"], outputs
    assert "SEEN" not in outputs["show"], outputs["show"]


@pytest.mark.parametrize("channel", ["inotify", "processes"])
def test_a_watching_public_run_sees_no_hidden_run(attacker, channel):
    """The public run watches first (files opened, signals, other processes), the hidden one
    acts, then the public one looks at what came."""
    outputs = _both(attacker, channel, 43, first="show")
    assert "ready" in outputs["hide"] and "ready" in outputs["show"], outputs
    assert "SEEN" not in outputs["show"], outputs["show"]


@pytest.mark.parametrize("channel", ["fcntl", "flock", "inotify"])
def test_the_probes_see_a_shared_build_folder(attacker, channel, monkeypatch):
    """The probes are real: run unconfined and without the seccomp filter, where both runs share
    the build folder, the public run sees the hidden one (so no `SEEN` above is the isolation,
    not a probe that sees nothing)."""
    spec, case, built = attacker
    monkeypatch.setattr(launcher, "_FILTER", None)
    launcher.for_this_process().close()  # the spare made before was forked with the filter
    try:
        shared = (spec, case, dataclasses.replace(built, sandboxed=False))
        outputs = _both(shared, channel, 44, first="show" if channel == "inotify" else "hide")
    finally:
        launcher.for_this_process().close()  # nor may a spare without it outlive this test
    assert "SEEN" in outputs["show"], outputs


class _Recording(grading.Grader):
    """A grader that notes each batch of cases it runs, when it starts and when it is done."""

    def __init__(self):
        super().__init__(jobs=2)
        self.log: list[tuple] = []

    def run_cases(self, jobs, progress=None):
        self.log.append(("start", sorted({job.case.visibility for job in jobs})))
        results = super().run_cases(jobs, progress)
        self.log.append(("done", sorted({job.case.visibility for job in jobs})))
        return results


def test_every_public_case_is_done_before_a_hidden_one_starts(attacker, tmp_path):
    """The hidden case publishes its input as a lock; the public one looks for it. The grading
    runs the public cases to their end, hands their results over, and only then runs the hidden
    ones: the public results are final before any hidden run could do anything."""
    spec, case, _ = attacker
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "reversi.py").write_text(ATTACKER)

    def made(name, visibility, lines):
        return dataclasses.replace(case, name=name, visibility=visibility, inputs=lines)

    cases = [made("h1", "hidden", ["fcntl hide", "42", "go"]), made("p1", "public", ["fcntl show", "go"]),
             made("h2", "hidden", ["flock hide", "7", "go"]), made("p2", "public", ["flock show", "go"])]
    told, progress = [], []
    with _Recording() as grader:
        final = grader.grade(spec, "ms1", cases, folder, public_done=lambda result: (
            told.append(result), grader.log.append(("public_done", []))),
            progress=lambda done, total: progress.append((done, total)))
    assert grader.log == [("start", ["public"]), ("done", ["public"]), ("public_done", []),
                          ("start", ["hidden"]), ("done", ["hidden"])]
    assert [c.name for c in final.cases] == ["h1", "p1", "h2", "p2"]
    early = {c.name: c for c in told[0].cases}
    assert early["h1"].reason == grading.NOT_RUN_YET and early["h2"].reason == grading.NOT_RUN_YET
    for name in ("p1", "p2"):
        shown = "".join(e.get("out", "") for e in early[name].actual)
        assert "ready" in shown and "SEEN" not in shown
        assert early[name].actual == next(c for c in final.cases if c.name == name).actual
    assert progress[-1] == (4, 4) and [d for d, _ in progress] == sorted(d for d, _ in progress)
