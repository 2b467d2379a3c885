"""What the whole machine shares carries nothing from a hidden run to one a student sees
(docs/how-a-run-works.md, "Counters the whole machine shares").

Two defences, each tested with real programs: inside the sandbox the machine-wide counters of
/proc read as constants and the calls that add to a kernel-wide count (AIO, io_uring) or probe
the page cache are refused; and on one machine no hidden run goes on while a public one does,
whichever submissions they belong to (the gate of `executor.Local`).
"""
import ctypes
import dataclasses
import hashlib
import os
import threading

import pytest

from harness.building import build as builder
from harness.classes import classroom, executor, gate
from harness.grading import submission as grading
from harness.loading import cases as caseload
from harness.loading import config
from harness.loading import spec as specs
from harness.results import Visibility
from harness.running import counters, sandbox
from tests.helpers import FIXTURE

pytestmark = pytest.mark.slow

needs_sandbox = pytest.mark.skipif(not sandbox.available(), reason="bubblewrap (bwrap) is not installed")

# The attacker: each channel tried from inside the sandbox, one line each, as `CHANNEL RESULT`.
PROBE = r'''
import ctypes, errno, mmap, os, sys
print("Start: 2")
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

def call(number, *args):
    done = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    return "refused " + errno.errorcode.get(ctypes.get_errno(), "?") if done < 0 else "allowed"

context = ctypes.c_ulong(0)
print("io_setup", call(206, 64, ctypes.addressof(context)))              # 64 AIO events: aio-nr grows
params = ctypes.create_string_buffer(120)
print("io_uring_setup", call(425, 8, ctypes.addressof(params)))
shared = open(os.__file__, "rb")                                         # a file every run sees
pages = mmap.mmap(shared.fileno(), 0, access=mmap.ACCESS_COPY)
vector = ctypes.create_string_buffer(64)
print("mincore", call(27, ctypes.addressof(ctypes.c_char.from_buffer(pages)), 4096, ctypes.addressof(vector)))
print("cachestat", call(451, shared.fileno(), 0, ctypes.addressof(vector), 0))
print("fadvise64", call(221, shared.fileno(), 0, 0, 4))                  # POSIX_FADV_DONTNEED: out of the cache
import hashlib
for name in sys.argv[1:]:                                                # +NAME: the whole text
    try:
        with open("/proc/" + name.lstrip("+"), "rb") as counter:
            text = counter.read()
        print("FILE", name.lstrip("+"), text.hex() if name.startswith("+") else hashlib.sha256(text).hexdigest())
    except OSError as problem:
        print("FILE", name, "unreadable", problem.errno)
'''

WATCHED = ["meminfo", "loadavg", "stat", "vmstat", "uptime", "sys/fs/aio-nr", "sys/fs/file-nr",
           "sys/fs/inode-nr", "sys/fs/dentry-state", "pressure/memory", "zoneinfo", "diskstats"]


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    """The probe built as a Tally submission (Python), and a case to run it under."""
    folder = tmp_path_factory.mktemp("probe")
    (folder / "tally.py").write_text(PROBE)
    spec, milestone = specs.parse_game("tally", FIXTURE)
    case = caseload.load_all(spec, milestone, "add-two")[0]
    built = builder.build(folder, spec, "game")
    assert built.ok and built.sandboxed
    yield spec, case, built
    builder.cleanup(built)


def _seen(probe, names: list[str]) -> dict[str, str]:
    """What the probe printed, run as a case of a grading: {channel or FILE name: result}."""
    spec, case, built = probe
    result = grading.run_case(spec, dataclasses.replace(case, args=names, seed=None), built)
    output = "".join(event.get("out", "") for event in result.actual)
    seen = {}
    for line in output.splitlines():
        words = line.split()
        if words and words[0] == "FILE":
            seen[words[1]] = words[2] if len(words) > 2 else ""
        elif len(words) >= 2:
            seen[words[0]] = " ".join(words[1:])
    return seen


def _host_aio_contexts(count: int) -> list[int]:
    """AIO contexts held by this process (outside the sandbox), 64 events each: the host's
    /proc/sys/fs/aio-nr grows by 64 apiece while they are held."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    held = []
    for _ in range(count):
        context = ctypes.c_ulong(0)
        if libc.syscall(ctypes.c_long(206), ctypes.c_long(64), ctypes.c_long(ctypes.addressof(context))) != 0:
            pytest.skip(f"io_setup is refused here: {os.strerror(ctypes.get_errno())}")
        held.append(context.value)
    return held


def _release(held: list[int]) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for context in held:
        libc.syscall(ctypes.c_long(207), ctypes.c_ulong(context))  # io_destroy


@needs_sandbox
@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the probe calls x86-64 system call numbers")
def test_the_calls_that_count_machine_wide_are_refused(probe):
    seen = _seen(probe, [])
    for call in ("io_setup", "io_uring_setup", "mincore", "cachestat", "fadvise64"):
        assert seen[call] == "refused ENOSYS", seen


@needs_sandbox
def test_the_machine_wide_counters_read_the_same_whatever_the_machine_does(probe):
    """The probe reads the counters twice; between the two, this process (outside the sandbox)
    holds AIO contexts, 100 MB of touched memory and open files, as a hidden run would. Every
    counter reads the same both times, aio-nr reads 0 while the machine's is not, and each reads
    the constant file the harness made for it."""
    watched = [name for name in WATCHED if os.access(f"/proc/{name}", os.R_OK)]
    before = _seen(probe, watched)
    held = _host_aio_contexts(4)
    memory = bytearray(100 << 20)
    memory[::4096] = b"x" * len(memory[::4096])
    files = [open(os.devnull) for _ in range(200)]
    try:
        with open("/proc/sys/fs/aio-nr") as host:
            assert int(host.read()) >= 4 * 64
        after = _seen(probe, watched)
    finally:
        _release(held)
        for file in files:
            file.close()
        del memory
    assert set(after) >= set(watched)
    for name in watched:
        assert after[name] == before[name], name
        with open(f"/proc/{name}") as host:
            constant = counters.MAKERS[name](host.read())
        assert after[name] == hashlib.sha256(constant.encode()).hexdigest(), name
    assert after["sys/fs/aio-nr"] == hashlib.sha256(b"0\n").hexdigest()


@needs_sandbox
def test_the_constant_meminfo_is_one_the_jvm_and_glibc_can_read(probe):
    """The total and the processors are the machine's (what a program sizes itself by), free
    memory a fixed part of it."""
    seen = _seen(probe, ["+meminfo", "+stat"])
    meminfo = bytes.fromhex(seen["meminfo"]).decode()
    fields = {line.split(":")[0]: int(line.split()[1]) for line in meminfo.splitlines()}
    with open("/proc/meminfo") as host:
        total = int(host.readline().split()[1])
    assert fields["MemTotal"] == total and fields["MemAvailable"] == total * 3 // 4
    stat = bytes.fromhex(seen["stat"]).decode()
    with open("/proc/stat") as host:
        cpus = sum(line.startswith("cpu") for line in host)
    assert sum(line.startswith("cpu") for line in stat.splitlines()) == cpus


# The scheduling side: every run notes when it starts and ends in a log outside (the sandbox is
# off: the order of runs does not depend on it). A hidden run goes on until a public run starts
# after it (up to 3 s), so without the gate the two would surely overlap.
TIMED = r'''
import os, sys, time
LOG = {log!r}
tag = sys.argv[1]

def note(what):
    now = time.monotonic()
    with open(LOG, "a") as log:
        log.write(f"{{tag}} {{os.getpid()}} {{what}} {{now:.6f}}\n")
    return now

def public_since(moment):
    with open(LOG) as log:
        return any(line.startswith("public") and " start " in line and float(line.split()[-1]) > moment
                   for line in log)

started = note("start")
if tag.startswith("hidden"):
    while time.monotonic() < started + 3 and not public_since(started):
        time.sleep(0.02)  # the program under test lingers, looking for a public run; the test waits on no clock
note("end")
print("Start: 2")
'''


def _intervals(log) -> dict[tuple[str, str], tuple[float, float]]:
    """Each run's (start, end), by (its case's tag, its pid): a case may run more than once."""
    times: dict[tuple[str, str], dict[str, float]] = {}
    for line in log.read_text().splitlines():
        tag, pid, what, when = line.split()
        times.setdefault((tag, pid), {})[what] = float(when)
    return {run: (seen["start"], seen["end"]) for run, seen in times.items()}


def test_no_hidden_run_overlaps_a_public_one_of_another_submission(tmp_path):
    """Student A's submission is graded; the moment its public results are out (as the
    self-check service publishes them), student B's upload is submitted, while A's hidden
    cases start. B's public runs wait for A's hidden ones, and B's hidden ones run after."""
    log = tmp_path / "runs.log"
    spec, milestone, entries, cases = _timed_students(tmp_path, log)
    settings = config.Settings(root=FIXTURE, sandbox="off", jobs=3, no_cds=True)
    pool = executor.Local(jobs=3, settings=settings)
    second: list = []
    try:
        first = pool.submit(spec, milestone, cases["a"], entries["a"], public_done=lambda _result: second.append(
            pool.submit(spec, milestone, cases["b"], entries["b"])))
        results = [first.result(timeout=120)]
        results.append(second[0].result(timeout=120))
    finally:
        pool.close()
    assert [len(result.cases) for result in results] == [4, 4]
    _no_overlap(log)
    runs = _intervals(log)
    public = {run: span for run, span in runs.items() if run[0].startswith("public")}
    hidden = {run: span for run, span in runs.items() if run[0].startswith("hidden")}
    # each submission's own order too: its public runs all end before its hidden ones start
    for student in ("a", "b"):
        assert max(end for (tag, _), (_, end) in public.items() if tag.endswith(student + tag[-1])) <= \
            min(start for (tag, _), (start, _) in hidden.items() if tag.endswith(student + tag[-1]))


def test_the_gate_lets_one_kind_at_a_time_and_each_kind_its_turn():
    """Many phases of both kinds at once: never a mix, and a kind that waits gets in even while
    the other keeps coming (each phase notes the kinds inside while it holds the gate)."""
    shared = gate.Gate()
    inside: dict[gate.Kind, int] = {gate.Kind.PUBLIC: 0, gate.Kind.HIDDEN: 0}
    lock, mixes, order = threading.Lock(), [], []

    def phase(kind: gate.Kind) -> None:
        with shared.held(kind):
            with lock:
                inside[kind] += 1
                order.append(kind)
                if inside[gate.Kind.PUBLIC] and inside[gate.Kind.HIDDEN]:
                    mixes.append(dict(inside))
            with lock:
                inside[kind] -= 1

    holder = threading.Event()
    release = threading.Event()

    def first_public() -> None:
        with shared.held(gate.Kind.PUBLIC):
            holder.set()
            release.wait(30)

    opened = threading.Thread(target=first_public)
    opened.start()
    assert holder.wait(30)
    waiting_hidden = threading.Thread(target=phase, args=(gate.Kind.HIDDEN,))
    waiting_hidden.start()
    while shared._waiting[gate.Kind.HIDDEN] == 0:  # the hidden phase is queued behind the public one
        threading.Event().wait(0.01)
    later_public = threading.Thread(target=phase, args=(gate.Kind.PUBLIC,))
    later_public.start()
    while shared._waiting[gate.Kind.PUBLIC] == 0:
        threading.Event().wait(0.01)
    release.set()
    for thread in (opened, waiting_hidden, later_public):
        thread.join(30)
    # the public phase that came while a hidden one waited went after it, not before
    assert order == [gate.Kind.HIDDEN, gate.Kind.PUBLIC]
    threads = [threading.Thread(target=phase, args=(kind,)) for _ in range(40)
               for kind in (gate.Kind.PUBLIC, gate.Kind.HIDDEN)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert mixes == [] and len(order) == 82


def _timed_students(tmp_path, log):
    """Students a and b, each with the timed program and two public and two hidden cases."""
    spec, milestone = specs.parse_game("tally", FIXTURE)
    case = caseload.load_all(spec, milestone, "add-two")[0]
    entries, cases = {}, {}
    for student in ("a", "b"):
        folder = tmp_path / student
        folder.mkdir()
        (folder / "tally.py").write_text(TIMED.format(log=str(log)))
        entries[student] = classroom.Entry(label=student, shown=student, layout="folder", path=folder, name=student)
        cases[student] = [dataclasses.replace(case, name=f"{kind}-{n}", visibility=Visibility(kind), seed=None,
                                              args=[f"{kind}-{student}{n}"])
                          for kind in ("public", "hidden") for n in (1, 2)]
    return spec, milestone, entries, cases


def _no_overlap(log) -> None:
    """Every run of every case noted, and no hidden run overlapping a public one in time."""
    runs = _intervals(log)
    public = {run: span for run, span in runs.items() if run[0].startswith("public")}
    hidden = {run: span for run, span in runs.items() if run[0].startswith("hidden")}
    assert {tag for tag, _ in public} == {f"public-{s}{n}" for s in "ab" for n in (1, 2)}, runs
    assert {tag for tag, _ in hidden} == {f"hidden-{s}{n}" for s in "ab" for n in (1, 2)}, runs
    for shown, (start, end) in public.items():
        for secret, (hidden_start, hidden_end) in hidden.items():
            assert end <= hidden_start or hidden_end <= start, (shown, secret, runs)


def test_on_a_cluster_no_hidden_grading_overlaps_a_public_one(tmp_path):
    """The service on a Dask cluster of two workers: student b's upload is sent the moment
    a's public results are shown, while a's hidden grading would start on the other worker.
    The service's gate for the cluster keeps them apart."""
    from harness.classes import cluster
    from harness.serve import queue
    from tests.helpers import dask_cluster

    log = tmp_path / "runs.log"
    spec, milestone, entries, cases = _timed_students(tmp_path, log)
    settings = config.Settings(root=FIXTURE, sandbox="off", jobs=2, no_cds=True)
    games = {"a": queue.Game(spec, milestone, cases["a"]), "b": queue.Game(spec, milestone, cases["b"])}
    with dask_cluster(tmp_path, {"one": {}, "two": {}}) as (address, _):
        pool = cluster.connect(address, allow_unconfined=True, settings=settings)
        phases = queue._Phases(pool, games)
        second: list = []
        try:
            first = phases.submit("a", entries["a"], lambda _shown: second.append(phases.submit("b", entries["b"], None)))
            results = [first.result(timeout=300)]
            results.append(second[0].result(timeout=300))
        finally:
            phases.close()
            pool.close()
    assert [len(result.cases) for result in results] == [4, 4]
    _no_overlap(log)


# What is left between two public runs at once (both seen by students, so nothing hidden is in
# them, but two students can talk through the CPU they share): measured, for the threat model.
# From a moment both agree on (the monotonic clock, the same inside the sandbox), the sender
# loads every core for each 1 of its bits and sleeps for each 0, one slot a bit; the receiver
# counts the turns of a loop in each slot. A slow slot is a 1.
CONTENDED = r'''
import os, sys, time
role, begin, slot, bits = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
print("Start: 2", flush=True)
while time.monotonic() < begin:
    time.sleep(0.001)
if role == "send":
    children = []
    for _ in range(os.cpu_count() or 1):
        pid = os.fork()
        if pid == 0:
            for index, bit in enumerate(bits):
                end = begin + (index + 1) * slot
                if bit == "1":
                    while time.monotonic() < end:
                        pass
                else:
                    time.sleep(max(0.0, end - time.monotonic()))
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
else:
    counts = []
    for index in range(len(bits)):
        end, turns = begin + (index + 1) * slot, 0
        while time.monotonic() < end:
            turns += 1
        counts.append(turns)
    print("COUNTS", *counts, flush=True)
'''


def _entropy(p: float) -> float:
    import math
    return 0.0 if p in (0.0, 1.0) else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


@needs_sandbox
def test_cpu_contention_between_two_public_runs_is_measured(tmp_path, record_property):
    """Two sandboxed runs at once, as two students' public runs may be: the sender's bits read
    back by the receiver from its own speed. The rate (bits a second, less the errors) is
    recorded for docs/self-check-service.md; what is asserted is only that the receiver counted
    every slot (the measurement happened)."""
    import random
    from harness.running.environment import Workdir

    folder = tmp_path / "contended"
    folder.mkdir()
    (folder / "tally.py").write_text(CONTENDED)
    spec, milestone = specs.parse_game("tally", FIXTURE)
    case = dataclasses.replace(caseload.load_all(spec, milestone, "add-two")[0], seed=None,
                               limits={"turn_seconds": 15, "run_seconds": 30})
    built = builder.build(folder, spec, "game")
    assert built.ok and built.sandboxed
    drawn = random.Random(7)
    bits = "".join(drawn.choice("01") for _ in range(48))
    slot = 0.1
    outputs: dict = {}
    try:
        begin = f"{__import__('time').monotonic() + 5:.3f}"  # both runs started by then

        def run(role: str) -> None:
            with Workdir() as home:
                _, ran = grading._run_program(spec, dataclasses.replace(case, args=[role, begin, str(slot), bits]),
                                              built, home, _NoInput())
            outputs[role] = ran.output()

        sides = [threading.Thread(target=run, args=(role,)) for role in ("send", "receive")]
        for side in sides:
            side.start()
        for side in sides:
            side.join(60)
    finally:
        builder.cleanup(built)
    line = next(line for line in outputs["receive"].splitlines() if line.startswith("COUNTS"))
    counts = [int(word) for word in line.split()[1:]]
    assert len(counts) == len(bits)
    middle = sorted(counts)[len(counts) // 2]
    read = "".join("1" if count < middle else "0" for count in counts)
    errors = sum(a != b for a, b in zip(read, bits)) / len(bits)
    errors = min(errors, 1 - errors)
    rate = (1 - _entropy(errors)) / slot
    record_property("cpu_contention_bits_per_second", round(rate, 1))
    print(f"CPU contention between two public runs: {len(bits)} bits of {slot * 1000:.0f} ms, "
          f"{errors:.0%} read wrong: about {rate:.1f} bits/s")


class _NoInput:
    """Inputs for a run that reads none: it ends on its own."""

    def next_line(self, _output: str) -> str | None:
        return None


# The channel the gate leaves (docs/self-check-service.md, "Channels between runs"): a later
# upload's public runs wait for the hidden runs under way, so when they start says how long those
# lasted. The sender's hidden case lasts SLOT seconds per unit of its secret symbol (0 to 3: two
# bits, as a hidden input a program reads could say); its second upload (the receiver) is sent
# the moment its public results are out, and its public run notes when it starts.
WAITED = r'''
import os, sys, time
LOG = {log!r}
role, symbol = sys.argv[1], int(sys.argv[2])
if role == "receive":
    with open(LOG, "a") as log:
        log.write(f"{{time.monotonic():.6f}}\n")
elif role == "hide":
    time.sleep({slot} * symbol)
print("Start: 2")
'''


def test_the_wait_for_hidden_runs_is_measured_as_a_channel(tmp_path, record_property):
    """Eight uploads each carry a random symbol of two bits from a hidden run to the public
    start of the next upload. The rate (bits an upload, less the errors) is recorded for
    docs/self-check-service.md; what is asserted is only that every symbol was sent and read."""
    import math
    import random
    import time

    slot, symbols = 0.5, 4
    log = tmp_path / "starts.log"
    spec, milestone = specs.parse_game("tally", FIXTURE)
    case = caseload.load_all(spec, milestone, "add-two")[0]
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "tally.py").write_text(WAITED.format(log=str(log), slot=slot))
    entry = classroom.Entry(label="s", shown="s", layout="folder", path=folder, name="s")
    settings = config.Settings(root=FIXTURE, sandbox="off", jobs=2, no_cds=True, gate_dir=tmp_path / "gate")
    pool = executor.Local(jobs=2, settings=settings)
    drawn = random.Random(7)
    sent = [drawn.randrange(symbols) for _ in range(8)]
    delays = []
    try:
        for symbol in sent:
            public = dataclasses.replace(case, name="public", visibility=Visibility.PUBLIC, seed=None, args=["show", "0"])
            hidden = dataclasses.replace(case, name="hidden", visibility=Visibility.HIDDEN, seed=None,
                                         args=["hide", str(symbol)])
            receiver = dataclasses.replace(case, name="public", visibility=Visibility.PUBLIC, seed=None,
                                           args=["receive", "0"])
            told: list = []

            def published(_result, told=told) -> None:  # the sender's public results are out
                told.append(time.monotonic())
                told.append(pool.submit(spec, milestone, [receiver], entry))

            first = pool.submit(spec, milestone, [public, hidden], entry, public_done=published)
            first.result(timeout=120)
            told[1].result(timeout=120)
            started = float(log.read_text().split()[-1])
            delays.append(started - told[0])
    finally:
        pool.close()
    base = min(delays)  # what the wait costs with nothing hidden to wait for
    read = [min(symbols - 1, max(0, round((delay - base) / slot))) for delay in delays]
    errors = sum(a != b for a, b in zip(read, sent)) / len(sent)
    wrong = 0.0 if errors in (0.0, 1.0) else errors * math.log2(symbols - 1) - (
        errors * math.log2(errors) + (1 - errors) * math.log2(1 - errors))
    bits = max(0.0, math.log2(symbols) - wrong)
    record_property("hidden_wait_bits_per_upload", round(bits, 2))
    print(f"the wait for hidden runs: {len(sent)} uploads of {math.log2(symbols):.0f} bits, slots of {slot} s, "
          f"{errors:.0%} read wrong: about {bits:.2f} bits an upload (delays {[round(d, 2) for d in delays]})")
    assert len(delays) == len(sent)
