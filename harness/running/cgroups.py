"""Limits that hold for a whole process tree: a control group per build step and per run.

A per-process rlimit does not bound a tree (forked children each get their own 2 GB) and
RLIMIT_NPROC does not bind root, so where the machine lets the harness create control
groups, every build step and every run gets its own: `memory` (all its processes together,
page cache and tmpfs included) and `pids` (processes and threads). Killing the group kills
everything in it, however it forked, changed session or hid its parent: with cgroup v2 one
write to `cgroup.kill` does it; with v1 only, the group is emptied by SIGKILL until no process
is left (the pids limit keeps a fork bomb from outrunning that).

Groups are made under the harness's own group in each hierarchy (cgroup v2 with its memory
and pids controllers delegated, or v1's `memory` and `pids` hierarchies; a v2 hierarchy
without controllers still gives `cgroup.kill`). The child process joins its group itself,
before it executes the program (`enter`), and the parent removes it afterwards (`finish`), so
a group's name is all the two sides share: `harness-<pid of the child>`.

Where no group can be made (not root, a read-only /sys/fs/cgroup), `mechanism()` says
"rlimits" and callers fall back on per-process limits.
"""
import os
import signal
import time
from dataclasses import dataclass
from functools import cache

_ROOT_MOUNTS = "/proc/self/mountinfo"
_PREFIX = "harness-"
_EMPTY_WAIT = 10.0  # seconds a killed group may take to empty (the kernel frees memory first)


@dataclass(frozen=True)
class TreeLimits:
    """What a whole process tree may use at once."""
    memory_bytes: int
    tasks: int  # processes and threads together


@dataclass(frozen=True)
class Place:
    """One hierarchy in which the harness makes groups: its folder for the harness's own group."""
    version: int  # 1 or 2
    folder: str
    controllers: frozenset[str]  # the ones a group made here gets: memory, pids

    def group(self, name: str) -> str:
        return os.path.join(self.folder, name)


@dataclass
class Usage:
    """What a group ran into before it was removed."""
    memory_kills: int = 0  # processes the kernel killed at the memory limit
    task_refusals: int = 0  # forks refused at the tasks limit
    leftover: int = 0  # processes still there after the kill (should be 0)

    def describe(self, limits: TreeLimits) -> str:
        """For a person, e.g. "the memory limit (1 GiB for all its processes) was reached"."""
        said = []
        if self.memory_kills:
            said.append(f"the memory limit ({_size(limits.memory_bytes)} for all its processes together) was reached "
                        f"and the kernel killed {self.memory_kills} of them")
        if self.task_refusals:
            said.append(f"the limit of {limits.tasks} processes and threads was reached "
                        f"({self.task_refusals} fork{'s' if self.task_refusals > 1 else ''} refused)")
        return "; ".join(said)


def _size(count: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if count >= 1 << shift and count % (1 << shift) == 0:
            return f"{count >> shift} {unit}"
    return f"{count} bytes"


def _write(path: str, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _own_groups() -> dict[str, str]:
    """Controller list (or "" for v2) -> this process's group path, from /proc/self/cgroup."""
    groups = {}
    for line in _read("/proc/self/cgroup").splitlines():
        number, controllers, path = line.split(":", 2)
        groups["" if number == "0" else controllers] = path
    return groups


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(mount point, mount root, type, options) of every cgroup mount."""
    found = []
    for line in _read(_ROOT_MOUNTS).splitlines():
        head, _, tail = line.partition(" - ")
        fields, extra = head.split(), tail.split()
        if len(fields) < 5 or len(extra) < 3 or extra[0] not in ("cgroup", "cgroup2"):
            continue
        found.append((fields[4], fields[3], extra[0], set(extra[2].split(","))))
    return found


def _folder(point: str, root: str, path: str) -> str:
    inside = os.path.relpath(path, root) if path.startswith(root) else "."
    return os.path.normpath(os.path.join(point, inside))


def _candidates() -> list[Place]:
    own = _own_groups()
    places = []
    for point, root, kind, options in _mounts():
        if kind == "cgroup2":
            if "" not in own:
                continue
            folder = _folder(point, root, own[""])
            available = set(_read(os.path.join(folder, "cgroup.controllers")).split())
            enabled = set(_read(os.path.join(folder, "cgroup.subtree_control")).split())
            wanted = {"memory", "pids"} & available
            if wanted - enabled:
                try:  # only works where this group holds no process itself (a delegated subtree)
                    _write(os.path.join(folder, "cgroup.subtree_control"), " ".join(f"+{c}" for c in wanted - enabled))
                    enabled |= wanted
                except OSError:
                    pass
            places.append(Place(2, folder, frozenset(wanted & enabled)))
        else:
            wanted = {"memory", "pids"} & options
            key = next((k for k in own if k and set(k.split(",")) & wanted), None)
            if wanted and key is not None:
                places.append(Place(1, _folder(point, root, own[key]), frozenset(wanted)))
    return places


def _works(place: Place) -> bool:
    probe = place.group(f"{_PREFIX}probe-{os.getpid()}")
    try:
        os.makedirs(probe, exist_ok=True)
        try:
            _set_limits(place, probe, TreeLimits(64 << 20, 8))
            return os.path.exists(os.path.join(probe, "cgroup.procs"))
        finally:
            os.rmdir(probe)
    except OSError:
        return False


@cache
def places() -> tuple[Place, ...]:
    """The hierarchies where this process can make limited groups, or () if memory and pids
    cannot both be limited."""
    usable = [p for p in _candidates() if _works(p)]
    limited = set().union(*(p.controllers for p in usable)) if usable else set()
    if not {"memory", "pids"} <= limited:
        return ()
    chosen, covered = [], set()
    for place in sorted(usable, key=lambda p: -p.version):  # v2 first: it has cgroup.kill
        if place.controllers - covered or (place.version == 2 and not any(c.version == 2 for c in chosen)):
            chosen.append(place)
            covered |= place.controllers
    return tuple(chosen)


def mechanism() -> str:
    """"cgroup v2", "cgroup v1" (v1 controllers, perhaps with v2's cgroup.kill) or "rlimits"."""
    found = places()
    if not found:
        return "rlimits"
    versions = {p.version for p in found if p.controllers}
    return "cgroup v2" if versions == {2} else "cgroup v1"


def name_for(pid: int) -> str:
    return f"{_PREFIX}{pid}"


def _set_limits(place: Place, folder: str, limits: TreeLimits) -> None:
    files = {}
    if "memory" in place.controllers:
        if place.version == 2:
            files = {"memory.max": limits.memory_bytes, "memory.swap.max": 0, "memory.oom.group": 1}
        else:
            files = {"memory.limit_in_bytes": limits.memory_bytes, "memory.memsw.limit_in_bytes": limits.memory_bytes}
    if "pids" in place.controllers:
        files["pids.max"] = limits.tasks
    for name, value in files.items():
        path = os.path.join(folder, name)
        if name in ("memory.swap.max", "memory.memsw.limit_in_bytes", "memory.oom.group") and not os.path.exists(path):
            continue  # no swap accounting, or an older kernel: the memory limit still holds
        _write(path, str(value))


def join(name: str, limits: TreeLimits | None = None) -> bool:
    """Make group `name` and move the calling process into it (call it in the child, before
    exec); with `limits`, they are set before the process enters. Without them, the first step
    of a process made ahead of its run (`limit` follows before it executes anything). False if
    there is no usable hierarchy."""
    found = places()
    if not found:
        return False
    for place in found:
        folder = place.group(name)
        os.makedirs(folder, exist_ok=True)
        if limits is not None:
            _set_limits(place, folder, limits)
        _write(os.path.join(folder, "cgroup.procs"), str(os.getpid()))
    return True


def limit(name: str, limits: TreeLimits) -> None:
    """Set the limits of group `name`, which the calling process has joined."""
    for place in places():
        _set_limits(place, place.group(name), limits)


def leave(name: str) -> None:
    """Move the calling process back to the harness's own group and remove group `name`
    (a process made ahead of a run that will never come)."""
    for place in places():
        try:
            _write(os.path.join(place.folder, "cgroup.procs"), str(os.getpid()))
            os.rmdir(place.group(name))
        except OSError:
            pass


def sweep() -> int:
    """Remove the empty groups left by runs whose process is gone (a grading killed with
    SIGKILL cannot remove its own); a group still holding a process stays. How many went."""
    removed = 0
    for place in places():
        try:
            names = [n for n in os.listdir(place.folder) if n.startswith(_PREFIX) and n[len(_PREFIX):].isdigit()]
        except OSError:
            continue
        for name in names:
            if os.path.exists(f"/proc/{name[len(_PREFIX):]}"):
                continue  # its process is alive: a run or a process made ahead, someone's to remove
            try:
                os.rmdir(place.group(name))
                removed += 1
            except OSError:  # not empty: what it holds is ended by whoever finishes it
                pass
    return removed


def threads(name: str) -> list[int] | None:
    """Every task (thread) in group `name`, from one file; None where it cannot be read."""
    for place in places():
        listing = "cgroup.threads" if place.version == 2 else "tasks"
        try:
            with open(os.path.join(place.group(name), listing), "rb", buffering=0) as f:
                return [int(tid) for tid in f.read().split()]
        except (OSError, ValueError):
            continue
    return None


def members(name: str) -> set[int]:
    """The processes in group `name`, in any hierarchy."""
    found = set()
    for place in places():
        found |= {int(p) for p in _read(os.path.join(place.group(name), "cgroup.procs")).split()}
    return found


def _count(text: str, key: str) -> int:
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == key:
            return int(words[1])
    return 0


def _usage(name: str) -> Usage:
    usage = Usage()
    for place in places():
        folder = place.group(name)
        if "memory" in place.controllers:
            events = "memory.events" if place.version == 2 else "memory.oom_control"
            usage.memory_kills += _count(_read(os.path.join(folder, events)), "oom_kill")
        if "pids" in place.controllers:
            usage.task_refusals += _count(_read(os.path.join(folder, "pids.events")), "max")
    return usage


def _kill_all(name: str) -> None:
    for place in places():
        kill = os.path.join(place.group(name), "cgroup.kill")
        if place.version == 2 and os.path.exists(kill):
            try:
                _write(kill, "1")
                return
            except OSError:
                pass
    for pid in members(name):  # v1: no atomic kill; the pids limit bounds what can appear
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def finish(name: str) -> Usage | None:
    """Kill everything in group `name`, wait until it is empty, say what it ran into and
    remove it. None if there is no such group."""
    found = [p for p in places() if os.path.isdir(p.group(name))]
    if not found:
        return None
    deadline = time.monotonic() + _EMPTY_WAIT
    while True:
        _kill_all(name)
        left = members(name)
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.002)  # the kernel is tearing the processes down (zombies are not listed)
    usage = _usage(name)
    usage.leftover = len(members(name))
    for place in found:
        try:
            os.rmdir(place.group(name))
        except OSError:
            pass
    return usage

