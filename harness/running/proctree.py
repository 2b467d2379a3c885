"""The process tree below a process, read from /proc: children, descendants, who is alive,
and adopting orphans so that nothing a program forks can escape the tree."""
import ctypes
import os

_PR_SET_CHILD_SUBREAPER = 36


def read(path: str) -> str | None:
    """A small /proc file (a few KB at most), or None once the task is gone."""
    try:
        with open(path, "rb", buffering=0) as f:
            return f.read(4096).decode("ascii", "replace")
    except OSError:
        return None


def children(pid: int | str) -> set[int]:
    """The processes whose parent is `pid` (or "self"), over all its threads."""
    found: set[int] = set()
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        listed = read(f"/proc/{pid}/task/{tid}/children")
        if listed:
            found.update(int(p) for p in listed.split())
    return found


def tasks(root_pid: int):
    """Every (pid, tid) in the process tree under root_pid, root included."""
    stack, seen = [root_pid], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            yield pid, int(tid)
            listed = read(f"/proc/{pid}/task/{tid}/children")
            if listed:
                stack.extend(int(c) for c in listed.split())


def tree(root_pid: int) -> list[int]:
    """The pids of the tree under root_pid, root included."""
    return sorted({pid for pid, _ in tasks(root_pid)})


def descendants() -> list[int]:
    """Every live process below this one (threads excluded)."""
    me = os.getpid()
    return [pid for pid in tree(me) if pid != me]


def alive(pids: list[int]) -> list[int]:
    """Those of `pids` that still run (neither gone nor a zombie)."""
    left = []
    for pid in pids:
        stat = read(f"/proc/{pid}/stat")
        try:
            state = stat.rpartition(")")[2].split()[0] if stat else None
        except IndexError:
            state = None
        if state not in (None, "Z", "X"):
            left.append(pid)
    return left


def adopt_orphans() -> None:
    """Orphans of our descendants (a double-fork escape) are re-parented to us, so we can kill them."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass
