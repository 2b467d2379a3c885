"""Content hashes of folders: the names and bytes of their files, in a fixed order, links never followed.

A grade kept for a rerun (`classes.resume`), a build reused by content (`building.build_cache`)
and the version of the code that grades (`loading.code`) all hash a folder this one way: a
file is its path (relative to the folder) and size, then its bytes; a link or a special file
is its path alone; `__pycache__` folders are left out.
"""
import os
import stat
from pathlib import Path

LEFT_OUT = frozenset({"__pycache__"})  # folders no hash looks into


def files(root: Path, suffixes: tuple[str, ...] | None = None, leave_out=()) -> list[tuple[str, Path, os.stat_result]]:
    """Every entry under `root` that is not a folder (a regular file, a link to a file or a
    folder, a special file), as (its path relative to `root`, POSIX style; its path; its lstat),
    folder by folder in name order. Links are never followed; `__pycache__` folders and the
    folders in `leave_out` are not entered; with `suffixes`, only names ending so are listed."""
    root = Path(root)
    skipped = {Path(folder) for folder in leave_out}
    found = []
    for folder, dirs, names in os.walk(root, followlinks=False):
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        dirs[:] = sorted(d for d in dirs if d not in LEFT_OUT and d not in links and Path(folder, d) not in skipped)
        for name in sorted(names + links):
            if suffixes and not name.endswith(suffixes):
                continue
            path = Path(folder, name)
            try:
                info = path.lstat()
            except OSError:
                continue
            found.append((path.relative_to(root).as_posix(), path, info))
    return found


def update(digest, root: Path, suffixes: tuple[str, ...] | None = None, leave_out=(),
           max_files: int | None = None, max_bytes: int | None = None) -> bool:
    """Add the files under `root` (see `files`) to `digest` (a hashlib object). Past `max_files`
    regular files, or `max_bytes` read in all, a file adds its name and size only. True when
    every file was regular and read whole (False: a link, a special file, an unreadable one,
    or one past a cap was met)."""
    whole, count, budget = True, 0, max_bytes
    for rel, path, info in files(root, suffixes, leave_out):
        if not stat.S_ISREG(info.st_mode):
            digest.update(f"\0link-or-special {rel}\0".encode("utf-8", "surrogateescape"))
            whole = False
            continue
        count += 1
        digest.update(f"\0file {rel} {info.st_size}\0".encode("utf-8", "surrogateescape"))
        if (max_files is not None and count > max_files) or (budget is not None and info.st_size > budget):
            whole = False
            continue
        if budget is not None:
            budget -= info.st_size
        whole = update_file(digest, path) and whole
    return whole


def update_file(digest, path: Path) -> bool:
    """Add the bytes of the regular file `path` to `digest`, the link itself never followed;
    False (and why, for an unreadable one) when it could not be read."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as problem:
        digest.update(f"\0unreadable {problem.errno}\0".encode())
        return False
    with os.fdopen(descriptor, "rb") as reader:
        if not stat.S_ISREG(os.fstat(reader.fileno()).st_mode):
            return False
        for block in iter(lambda: reader.read(1 << 20), b""):
            digest.update(block)
    return True
