"""The version of the code that grades: one hash of the harness and the references.

Builds reused by content, grades kept by `--force`-less reruns and a cluster's workers all ask
here, so an edit anywhere in the code that grades (a Python module, a schema, a template, the
warm compiler's Java) changes all three alike. A version number would not catch an edited checkout.

Hashing every file costs a one-case `harness run` a noticeable part of its time, so the hash
is remembered in the user's cache under the files' names, sizes and modification times (what
Python itself trusts to reuse bytecode): any edit is seen, and the hash is of the contents.
"""
import hashlib
import json
import os
from functools import cache
from pathlib import Path

from harness import atomic
from harness.loading import paths, tree_hash

SUFFIXES = (".py", ".json", ".j2", ".yaml", ".java", ".html", ".css")
PACKAGES = ("harness", "reference")


def _files(root: Path) -> list[tuple[str, os.stat_result]]:
    """The code files, as paths relative to `root`, each with its stat (links not followed)."""
    return [(f"{package}/{rel}", info) for package in PACKAGES
            for rel, _, info in tree_hash.files(root / package, SUFFIXES)]


def _remembered_file() -> Path:
    return paths.cache_root() / "code-version.json"


@cache
def version() -> str:
    """A hash of every code file of the harness and reference packages (names and contents)."""
    root = paths.install_root()
    stamp = hashlib.sha256()
    for name, info in _files(root):
        stamp.update(f"\0{name}\0{info.st_size}\0{info.st_mtime_ns}".encode("utf-8", "surrogateescape"))
    stamp.update(f"\0{root}".encode("utf-8", "surrogateescape"))
    try:
        known = json.loads(_remembered_file().read_text(encoding="utf-8"))
        if isinstance(known, dict) and known.get("stamp") == stamp.hexdigest() and isinstance(known.get("version"), str):
            return known["version"]
    except (OSError, ValueError):
        pass
    digest = hashlib.sha256()
    for package in PACKAGES:
        digest.update(f"\0{package}\0".encode())
        tree_hash.update(digest, root / package, SUFFIXES)
    found = digest.hexdigest()[:16]
    try:
        _remembered_file().parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(_remembered_file(), json.dumps({"stamp": stamp.hexdigest(), "version": found}).encode())
    except OSError:  # an unwritable cache: hashed again next time
        pass
    return found
