"""What a run writes into memory-backed folders is bounded and counted against its limits
(docs/how-a-run-works.md, "The sandbox"; harness/running/sandbox.py).

Real sandboxed runs of a Python program built as a Tally submission: it fills its folder, /tmp
and /dev/shm (POSIX shared memory), tries /dev itself, and holds memory on top. Each writable
place is a private tmpfs of the sandbox's size, /dev is read-only, and what sits in /dev/shm is
memory of the run's own, charged to its memory limit."""
import dataclasses

import pytest

from harness.building import build as builder
from harness.grading import submission as grading
from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.running import cgroups, sandbox
from tests.helpers import FIXTURE

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sandbox.available(), reason="bubblewrap (bwrap) is not installed")]

MB = 1 << 20

# argv: the folders to fill, then `hold=N` (MB of memory to hold after filling). One line a
# place: `FILL PLACE MB REASON`; `HELD N` once the memory is held.
FILLER = r'''
import os, sys
print("Start: 2", flush=True)
places = [a for a in sys.argv[1:] if not a.startswith("hold=") and not a.startswith("cap=")]
hold = next((int(a[5:]) for a in sys.argv[1:] if a.startswith("hold=")), 0)
cap = next((int(a[4:]) for a in sys.argv[1:] if a.startswith("cap=")), 400)
block = b"x" * (1 << 20)
for where in places:
    written, n, said = 0, 0, "room-left"
    try:
        while written < cap << 20:
            with open(os.path.join(where, f"fill{n}"), "wb") as out:  # 8 MB a file: under the file size limit
                for _ in range(8):
                    if written >= cap << 20:
                        break
                    out.write(block)
                    out.flush()
                    written += len(block)
            n += 1
    except OSError as problem:
        said = problem.strerror.replace(" ", "-")
    print("FILL", where, written >> 20, said, flush=True)
if hold:
    held = bytearray(hold << 20)
    for at in range(0, len(held), 4096):
        held[at] = 1
    print("HELD", hold, flush=True)
'''


@pytest.fixture(scope="module")
def filler(tmp_path_factory):
    folder = tmp_path_factory.mktemp("filler")
    (folder / "tally.py").write_text(FILLER)
    spec, milestone = specs.parse_game("tally", FIXTURE)
    case = caseload.load_all(spec, milestone, "add-two")[0]
    built = builder.build(folder, spec, "game")
    assert built.ok and built.sandboxed
    yield spec, case, built
    builder.cleanup(built)


def _run(filler, args: list[str], memory_bytes: int | None = None) -> list[str]:
    spec, case, built = filler
    limits = {"turn_seconds": 30, "run_seconds": 60, **({"memory_bytes": memory_bytes} if memory_bytes else {})}
    result = grading.run_case(spec, dataclasses.replace(case, args=args, seed=None, limits=limits), built)
    return "".join(event.get("out", "") for event in result.actual).splitlines()


def test_every_place_a_run_may_write_holds_no_more_than_the_sandbox_s_tmpfs(filler):
    """The run's folder, /tmp and /dev/shm each stop at the tmpfs size with ENOSPC; /dev itself
    (a tmpfs bwrap gives no size) takes nothing."""
    size = sandbox._TMPFS_BYTES // MB
    lines = _run(filler, [".", "/tmp", "/dev/shm", "/dev", f"cap={size + 64}"])
    filled = {words[1]: (int(words[2]), words[3]) for words in map(str.split, lines) if words[:1] == ["FILL"]}
    assert set(filled) == {".", "/tmp", "/dev/shm", "/dev"}, lines
    for place in (".", "/tmp", "/dev/shm"):
        assert filled[place] == (size, "No-space-left-on-device"), (place, lines)
    assert filled["/dev"] == (0, "Read-only-file-system"), lines


@pytest.mark.skipif(cgroups.mechanism() == "rlimits", reason="no control group bounds a run's memory here")
def test_what_a_run_keeps_in_dev_shm_counts_against_its_memory_limit(filler):
    """Under a memory limit of 128 MB a run may hold 96 MB of its own, or 48 MB in /dev/shm and
    48 MB of its own; 48 MB in /dev/shm and 96 MB of its own (144 MB) is over the limit: the run
    ends before it says it holds them, so what it put in /dev/shm was counted."""
    limit = 128 * MB
    part = 48
    assert 3 * part * MB > limit > 2 * part * MB + 16 * MB  # room for the interpreter beside two parts
    alone = _run(filler, [f"hold={2 * part}"], limit)
    assert f"HELD {2 * part}" in alone, alone
    shm = _run(filler, ["/dev/shm", f"cap={part}", f"hold={part}"], limit)
    assert f"FILL /dev/shm {part} room-left" in shm and f"HELD {part}" in shm, shm  # 96 MB: under the limit
    over = _run(filler, ["/dev/shm", f"cap={part}", f"hold={2 * part}"], limit)
    assert f"FILL /dev/shm {part} room-left" in over, over  # the shared memory was had ...
    assert f"HELD {2 * part}" not in over, over  # ... and counted: the heap on top went over the limit
