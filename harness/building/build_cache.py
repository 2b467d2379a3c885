"""Builds reused by content: the same staged sources, support files and build recipe, built by
the same harness and the same compiler, give the same program, so it is compiled once.

The key hashes everything a build reads: every file of the staged build folder (the
student's files after intake, the spec's support files), the recipe's steps, the sources
compiled in order, the compiler found on PATH (its real path, size and time) and the
version of the code that grades (`harness.loading.code`). An entry is the compiled `out/` folder and what the build said (its
log, the compiler's verdict, files left out); it lives in the user's cache
(`$XDG_CACHE_HOME/game-harness/builds/`), is written to a private folder first and then
renamed into place, so a reader never sees half of one and two graders building the same
sources at once simply both build (one copy is kept). Builds the machine rather than the
sources decided (over the time limit, a tree limit hit, a compiler that could not start) are
never kept. The cache is outside every sandbox: no program sees it.
"""
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from harness.loading import code, paths, tree_hash

MAX_BYTES = 32 << 20  # a compiled program larger than this is not kept


@dataclass
class CachedBuild:
    """What a build said, besides the files it made."""
    ok: bool
    log: str
    reason: str
    failed_command: list[str]
    extras: list[str]  # the student's extra sources compiled in the end
    removed: list[str] = field(default_factory=list)  # staged files the build left out
    notes: list[str] = field(default_factory=list)  # intake lines the build added
    src: str = ""  # the build folder it was made in (its log names it)


def folder() -> Path:
    return paths.cache_root() / "builds"


def _tool(word: str) -> str:
    found = shutil.which(word)
    if not found:
        return word
    real = os.path.realpath(found)
    status = os.stat(real)
    return f"{real}:{status.st_size}:{status.st_mtime_ns}"


def key(language: str, steps: list[str], sources: list[str], staged_folder: Path, out: Path) -> str | None:
    """The content hash of one build, or None when it cannot be taken (then nothing is cached)."""
    digest = hashlib.sha256()

    def put(*parts: str | bytes) -> None:
        for part in parts:
            data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
            digest.update(len(data).to_bytes(8, "big") + data)

    try:
        put(code.version(), language, *steps, "\0sources", *sources)
        put("\0tools", *[_tool(step.split()[0]) for step in steps if step.split()])
        if not tree_hash.update(digest, staged_folder, leave_out=[out]):
            return None  # a link, a special file or an unreadable one: no key
    except OSError:
        return None
    return digest.hexdigest()


def load(build_key: str, out: Path, src: str) -> CachedBuild | None:
    """The entry for `build_key` with its files copied into `out`; None if there is none."""
    entry_folder = folder() / build_key
    try:
        data = json.loads((entry_folder / "entry.json").read_text(encoding="utf-8"))
        entry = CachedBuild(**data)
        shutil.copytree(entry_folder / "out", out, symlinks=True, dirs_exist_ok=True)
    except (OSError, ValueError, TypeError):
        return None
    if entry.src:
        entry.log = entry.log.replace(entry.src, src)
    entry.src = src
    return entry


def store(build_key: str, out: Path, entry: CachedBuild) -> None:
    """Keep `out` and `entry` under `build_key`; any problem just means no entry."""
    try:
        if sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) > MAX_BYTES:
            return
        base = folder()
        base.mkdir(parents=True, exist_ok=True)
        if (base / build_key).exists():
            return
        partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=base))
        try:
            shutil.copytree(out, partial / "out", symlinks=True)
            (partial / "entry.json").write_text(json.dumps(entry.__dict__), encoding="utf-8")
            os.rename(partial, base / build_key)  # atomic; fails if another grader was first
        finally:
            shutil.rmtree(partial, ignore_errors=True)
    except OSError:
        pass
