"""What a second run may keep: a content hash beside each report says what it was graded from.

The key of a submission's grade covers everything the grade depends on: the submission's
files, the selected cases (with their expected transcripts), the spec folder (rubric, support
files), the references, the harness's own code and the result format, the milestone and
whether the sandbox was used. A report whose stored key matches is reused as it is (its
result.json loads back); any change regrades. The key is written after every report file, so
an interrupted write never leaves a report that looks finished.
"""
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from harness import atomic
from harness.loading import code, tree_hash
from harness.loading.cases import Case
from harness.results import FORMAT_VERSION, SubmissionResult
from harness.loading.spec import Spec

HASH_FILE = ".harness-hash"
MAX_FILES = 5000  # of one submission hashed file by file; past that, names and sizes only
MAX_BYTES = 200 * 1024 * 1024


@dataclass(frozen=True)
class Inputs:
    """The part of every key that is the same for the whole class: all of it (`digest`), and
    its parts a regrade tells apart: everything but the cases (`base`) and each case's file
    without its acceptances (`cases`, name -> digest) and its acceptances (`accepted`)."""
    digest: str
    base: str = ""
    cases: dict[str, str] = field(default_factory=dict)
    accepted: dict[str, list[dict]] = field(default_factory=dict)


@dataclass(frozen=True)
class Stored:
    """What a report folder says it was graded from (its `.harness-hash`)."""
    key: str
    base: str = ""
    submission: str = ""
    cases: dict[str, str] = field(default_factory=dict)
    accepted: dict[str, list[dict]] = field(default_factory=dict)


def inputs(spec: Spec, milestone: str | None, cases: list[Case], sandboxed: bool) -> Inputs:
    """What every submission's grade depends on besides its own files."""
    digest = hashlib.sha256()
    digest.update(json.dumps({"format": FORMAT_VERSION, "game": spec.game, "milestone": milestone,
                              "sandboxed": sandboxed, "cases": [c.name for c in cases]}).encode())
    for case in cases:
        digest.update(f"\0case {case.name}\0".encode())
        tree_hash.update_file(digest, Path(case.path))
    base = hashlib.sha256(json.dumps({"format": FORMAT_VERSION, "game": spec.game, "milestone": milestone,
                                      "sandboxed": sandboxed}).encode())
    for part in (digest, base):
        part.update(b"\0spec\0")
        tree_hash.update(part, Path(spec.folder), max_files=MAX_FILES, max_bytes=MAX_BYTES)
        part.update(f"\0code {code.version()}\0".encode())
    return Inputs(digest.hexdigest(), base.hexdigest(), {c.name: case_digest(c) for c in cases},
                  {c.name: [entry.to_data() for entry in c.accept] for c in cases})


def case_digest(case: Case) -> str:
    """A case's file as data, its acceptances left out (an acceptance alone touches only the
    submissions that failed the case: batch's regrade tells the two apart)."""
    data = {k: v for k, v in case.data.items() if k != "accept"}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def submission_digest(submission: Path | None) -> str:
    """A submission's own files, as a digest."""
    digest = hashlib.sha256()
    _update_submission(digest, submission)
    return digest.hexdigest()


def key(common: Inputs, submission: Path | None) -> str:
    """The key of one submission's grade: the class-wide inputs and the submission's own files."""
    digest = hashlib.sha256(common.digest.encode())
    _update_submission(digest, submission)
    return digest.hexdigest()


def _update_submission(digest, submission: Path | None) -> None:
    if submission is None or not os.path.lexists(submission):
        digest.update(b"\0missing\0")
    elif submission.is_dir() and not submission.is_symlink():
        digest.update(b"\0folder\0")
        tree_hash.update(digest, submission, max_files=MAX_FILES, max_bytes=MAX_BYTES)
    else:
        digest.update(f"\0file {submission.name}\0".encode("utf-8", "surrogateescape"))
        tree_hash.update_file(digest, submission)


def stored(folder: Path) -> Stored | None:
    """What `folder`'s report was graded from, or None (no key, or an old or damaged one)."""
    try:
        text = (folder / HASH_FILE).read_text(encoding="utf-8").strip()
        if not text.startswith("{"):
            return Stored(text)  # a key alone: reusable as a whole, never in part
        data = json.loads(text)
        return Stored(str(data["key"]), str(data["base"]), str(data["submission"]),
                      {str(k): str(v) for k, v in data["cases"].items()},
                      {str(k): list(v) for k, v in data.get("accepted", {}).items()})
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def stored_result(folder: Path) -> SubmissionResult | None:
    """The result a report folder holds (its result.json), or None."""
    try:
        result = SubmissionResult.from_json(json.loads((folder / "result.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None  # an old or damaged report: graded again
    return result if result.version == FORMAT_VERSION else None


def reusable(folder: Path, wanted: str) -> SubmissionResult | None:
    """The stored result of `folder` when it was graded from exactly these inputs, else None."""
    record = stored(folder)
    if record is None or record.key != wanted:
        return None
    return stored_result(folder)


def forget(folder: Path) -> None:
    """Before a report is rewritten: it is not reusable until every file is written again."""
    try:
        (folder / HASH_FILE).unlink()
    except FileNotFoundError:
        pass


def record(common: Inputs, key: str, submission: str) -> str:
    """The `.harness-hash` of a report graded from `common` and a submission of digest `submission`."""
    return json.dumps({"key": key, "base": common.base, "submission": submission, "cases": common.cases,
                       "accepted": common.accepted}, sort_keys=True)


def remember(folder: Path, value: str) -> None:
    """After every report file of `folder` is written: its grade may be reused by a later run
    (`value`: `record`'s, or a key alone)."""
    atomic.write_text(folder / HASH_FILE, value + "\n")
