"""Files written whole or not at all: a report, a gradebook or a shared result is written to a
`.partial` beside it and renamed over it, so a reader (or a Ctrl-C) never sees half a file."""
import contextlib
import os
import tempfile
from pathlib import Path


@contextlib.contextmanager
def replacing(path: Path, newline: str | None = None):
    """An open text file (UTF-8) that becomes `path` when the block ends without an exception."""
    partial = path.with_name(path.name + ".partial")
    try:
        with partial.open("w", encoding="utf-8", newline=newline) as file:
            yield file
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()


def write_text(path: Path, text: str) -> Path:
    with replacing(path) as file:
        file.write(text)
    return path


def write_bytes(path: Path, data: bytes) -> Path:
    """`data` as `path`, through a temporary file of its own beside it: processes writing the
    same cache entry at once each rename a whole file, never one they wrote into together."""
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
    return path
