"""YAML files in: the data, line numbers for error messages, and files read once.

A spec or case is read as bytes (refusing what is not a regular file or is too big before
reading it) and parsed by `yamlparse`, which refuses at its line what a hostile or broken file
could use to hang or crash the harness. What a file parsed to (its data and line table) is
remembered in the user's cache under a hash of its bytes and of the harness's code, so a
one-case `harness run` reads its spec and case without importing or running the parser; an
edit to the file or to the harness parses it again. Only files that parsed are remembered:
a broken one is parsed, and refused, every time.
"""
import hashlib
import marshal
import os
import stat
from pathlib import Path

from harness import atomic
from harness.errors import InputError
from harness.loading import code, paths

# Limits that keep a hostile or broken file from taking the harness down: a case is a few
# kilobytes, a spec a few hundred lines (the parser's own limits are in yamlparse).
MAX_BYTES = 20 * 1024 * 1024


class Document:
    """Parsed YAML plus a way to find the line of any value in it."""

    def __init__(self, path: Path, data, lines: dict):
        self.path = path
        self.data = data
        self._lines = lines  # yamlparse.lines_of: path of keys -> (kind, start line, line to name it by)

    def line_of(self, keys) -> int | None:
        """1-based line of the value at `keys` (dict keys / list indexes), or of its nearest parent."""
        at, line = (), 1
        for key in keys:
            entry = self._lines.get(at)
            if entry is None:
                break
            kind, start, _ = entry
            child = (at + (str(key),) if kind == "m" else
                     at + (key,) if kind == "s" and isinstance(key, int) and not isinstance(key, bool) else None)
            if child is None or child not in self._lines:
                return start
            at, line = child, self._lines[child][2]
        return line


def _read(path: Path) -> bytes:
    """The file's bytes, refusing what is not a regular file or is too big before reading it."""
    try:  # non-blocking, so that a FIFO named like a case cannot hang the harness
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise InputError("not a regular file; give a YAML file", path)
            if info.st_size > MAX_BYTES:
                raise InputError(f"the file is {info.st_size / 2**20:.1f} MB, over the {MAX_BYTES // 2**20} MB "
                                 "limit; split it or shorten its inputs", path)
            raw = handle.read(MAX_BYTES + 1)
    except OSError as problem:
        raise InputError(f"cannot read the file ({problem.strerror or problem})", path)
    if len(raw) > MAX_BYTES:
        raise InputError(f"the file is over the {MAX_BYTES // 2**20} MB limit; split it or shorten its inputs", path)
    return raw


def _remembered(raw: bytes) -> Path:
    folder = paths.cache_root() / "yaml"
    return folder / hashlib.sha256(code.version().encode() + b"\0" + raw).hexdigest()


def load(path: Path) -> Document:
    """Read one YAML document; anything a person could get wrong is an InputError at its line."""
    path = Path(path)
    raw = _read(path)
    kept = _remembered(raw)
    try:
        data, lines = marshal.loads(kept.read_bytes())
        return Document(path, data, lines)
    except (OSError, ValueError, EOFError, TypeError):  # not remembered (or a damaged copy): parse it
        pass
    from harness.loading import yamlparse  # only here: most runs never parse

    data, lines = yamlparse.parse(path, raw)
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(kept, marshal.dumps((data, lines)))
    except (OSError, ValueError):  # an unwritable cache, or data marshal cannot hold: parsed again next time
        pass
    return Document(path, data, lines)


def dump(data: dict) -> str:
    """A case (or any mapping) as readable YAML that loads back to exactly `data`."""
    from harness.loading import yamlparse

    return yamlparse.dump(data)
