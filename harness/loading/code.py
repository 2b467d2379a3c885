"""The version of the code that grades: one hash of the harness and the references.

Builds reused by content, grades kept by `--force`-less reruns and a cluster's workers all ask
here, so an edit anywhere in the code that grades (a Python module, a schema, a template, the
warm compiler's Java) changes all three alike. A version number would not catch an edited checkout.
"""
import hashlib
from functools import cache

from harness.loading import paths

SUFFIXES = (".py", ".json", ".j2", ".yaml", ".java", ".html", ".css")
PACKAGES = ("harness", "reference")


@cache
def version() -> str:
    """A hash of every code file of the harness and reference packages (names and contents)."""
    digest = hashlib.sha256()
    root = paths.install_root()
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"\0{path.relative_to(root).as_posix()}\0".encode("utf-8", "surrogateescape"))
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
