"""Find the submissions of a class: the paths given, a class folder's children, or the files of
an LMS export grouped into one submission per student, each with a name unique in every output.

A class folder holds one submission per child (a folder, an archive or a lone source file).
LMS exports are recognised by their file names and grouped by student:

- Canvas `submissions.zip`: `smithjohn[_LATE]_<user id>_<attachment id>_<File>` (a resubmitted
  file gets `-1`, `-2` before its extension);
- Moodle "Download all submissions": `<Full Name>_<participant id>_assignsubmission_file_<File>`,
  or one folder per student named `<Full Name>_<participant id>_assignsubmission_file_`;
- Blackboard: `<Assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<File>` (the latest
  attempt is graded; its `.txt` receipt is not a source).

Grouped files are copied under their real names (`Main.java`) into a staging folder, never
following a link; each renaming is an intake line of the report, never a deduction.
"""
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from harness.building import intake
from harness.loading.spec import Spec
from harness.loading import paths

class Layout(StrEnum):
    """How a submission was found: a child of a class folder, or an LMS export's files grouped."""
    FOLDER = "folder"
    FILE = "file"
    ARCHIVE = "archive"
    MISSING = "missing"
    CANVAS = "Canvas"
    MOODLE = "Moodle"
    BLACKBOARD = "Blackboard"


FOLDER, FILE, ARCHIVE, MISSING = Layout.FOLDER, Layout.FILE, Layout.ARCHIVE, Layout.MISSING
CANVAS, MOODLE, BLACKBOARD = Layout.CANVAS, Layout.MOODLE, Layout.BLACKBOARD
SOURCE_SUFFIXES = (".java", ".py", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh")
# Names a report folder may not take: the class-level files beside the reports.
RESERVED_NAMES = frozenset({"gradebook.csv", "index.html", "similarity.html", "summary.json"})
NAME_CHARS = 80
SEARCH_DEPTH = 8  # how deep a child is searched for the spec's files when telling a class from a project
SEARCH_ENTRIES = 2000

_CANVAS = re.compile(r"^(?P<student>[A-Za-z0-9-]+)(?P<late>_LATE)?_(?P<id>\d+)_(?P<attachment>\d+)_(?P<file>.+)$")
_MOODLE = re.compile(r"^(?P<student>.+?)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<file>.*)$")
_MOODLE_FOLDER = re.compile(r"^(?P<student>.+?)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_?$")
_BLACKBOARD = re.compile(r"^(?P<assignment>.+)_(?P<student>[^_]+)_attempt_(?P<stamp>\d{4}(?:-\d{2}){5})(?:_(?P<file>.+)|\.txt)?$")
_RESUBMITTED = re.compile(r"^(?P<stem>.+)-\d+(?P<suffix>\.[^.]+)$")


@dataclass
class Member:
    """One file of an LMS export: where it is, and the name its student gave it."""
    source: Path
    name: str
    attempt: str = ""  # Blackboard: the attempt's time stamp


@dataclass
class Entry:
    """One submission of the class, as found."""
    label: str  # the student or the folder's name, before it is made unique
    shown: str  # what the report says was graded
    layout: Layout
    path: Path | None = None  # what intake opens (for grouped files: the staging folder, once staged)
    members: list[Member] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # intake lines: how the export was read
    parent: str = ""  # the folder it was found in, to tell apart two children of the same name
    name: str = ""  # unique among the entries of one grading: the report folder's name
    original: str = ""  # the folder or file name as found (an LMS export's: the student's part of it)
    lms_id: str = ""  # the LMS's id of the student where the export names one (Canvas user, Moodle participant)
    attempt: str = ""  # Blackboard: the graded attempt's time stamp (YYYY-MM-DD-HH-MM-SS)
    canvas_late: bool = False  # Canvas named a file of it _LATE
    late: object = None  # its lateness.Lateness, when a deadline is set


@dataclass
class Found:
    entries: list[Entry]
    notes: list[str]  # what the class folders held besides submissions, and how they were read


def wanted_names(spec: Spec) -> set[str]:
    """The spec's file names, in lower case: what marks a folder as one student's project."""
    return {Path(name).name.lower() for target in spec.targets.values()
            for language in target.languages.values() for name in language.files}


def find(paths: list[Path], spec: Spec, exclude: list[Path] = ()) -> Found:
    """Every submission the paths stand for, in the order given (a class folder's children by
    name); `exclude` (the report folder) is never one, even inside a class folder."""
    wanted, entries, notes = wanted_names(spec), [], []
    skip = {os.path.realpath(path) for path in exclude}
    for path in paths:
        if not os.path.lexists(path):
            entries.append(Entry(path.name or str(path), str(path), MISSING, path=path, original=path.name or str(path)))
        elif path.is_dir() and not path.is_symlink() and is_class_folder(path, wanted):
            found = children(path, skip)
            entries += found.entries
            notes += found.notes
            notes.append(f"{path}: a class folder of {len(found.entries)} submission"
                         f"{'s' if len(found.entries) != 1 else ''}{_layouts(found.entries)}")
        else:
            entries.append(_plain(path, path.parent.name))
    unique_names(entries)
    return Found(entries, notes)


def _layouts(entries: list[Entry]) -> str:
    exports = sorted({e.layout for e in entries if e.layout in (CANVAS, MOODLE, BLACKBOARD)})
    return f" ({', '.join(exports)} export)" if exports else ""


def _plain(path: Path, parent: str) -> Entry:
    if path.is_dir():
        return Entry(path.name, str(path), FOLDER, path=path, parent=parent, original=path.name)
    if intake.is_archive(path):
        name = path.name
        for suffix in sorted(intake.ARCHIVE_SUFFIXES, key=len, reverse=True):
            if name.lower().endswith(suffix):
                name = name[: -len(suffix)]
                break
        return Entry(name or path.name, str(path), ARCHIVE, path=path, parent=parent, original=path.name)
    return Entry(path.stem or path.name, str(path), FILE, path=path, parent=parent, original=path.name)


def _visible_children(folder: Path) -> list[os.DirEntry]:
    with os.scandir(folder) as scan:
        return sorted((e for e in scan if not intake.junk(e.name)), key=lambda e: (e.name.lower(), e.name))


def is_class_folder(folder: Path, wanted: set[str]) -> bool:
    """A class folder rather than one student's project: it holds LMS export names, or it has
    none of the spec's files at its top and at least two children that are submissions (an
    archive, or a folder with one of the spec's files inside); a child `src` marks a project."""
    try:
        entries = _visible_children(folder)
    except OSError:
        return False
    if any(_lms(e.name, e.is_dir(follow_symlinks=False)) for e in entries):
        return True
    if any(e.name.lower() in wanted and e.is_file(follow_symlinks=False) for e in entries):
        return False
    if any(e.name.lower() == "src" for e in entries):
        return False
    submissions = sum(1 for e in entries if (e.is_file(follow_symlinks=False) and intake.is_archive(Path(e.name)))
                      or (e.is_dir(follow_symlinks=False) and _holds(Path(e.path), wanted)))
    return submissions >= 2


def _holds(folder: Path, wanted: set[str]) -> bool:
    """One of the spec's files (or an archive) somewhere under `folder`, links not followed, bounded."""
    pending, seen = [(folder, 0)], 0
    while pending:
        current, depth = pending.pop()
        try:
            scan = list(os.scandir(current))
        except OSError:
            continue
        for entry in scan:
            seen += 1
            if seen > SEARCH_ENTRIES:
                return False
            if entry.is_file(follow_symlinks=False) and (entry.name.lower() in wanted or intake.is_archive(Path(entry.name))):
                return True
            if entry.is_dir(follow_symlinks=False) and depth < SEARCH_DEPTH and not intake.junk(entry.name):
                pending.append((Path(entry.path), depth + 1))
    return False


def _lms(name: str, is_dir: bool):
    """(layout, match) when `name` is an LMS export's file or folder name, else None."""
    if is_dir:
        match = _MOODLE_FOLDER.match(name)
        return (MOODLE, match) if match else None
    for layout, pattern in ((MOODLE, _MOODLE), (BLACKBOARD, _BLACKBOARD), (CANVAS, _CANVAS)):
        match = pattern.match(name)
        if match:
            return layout, match
    return None


def children(folder: Path, exclude: set[str] = frozenset()) -> Found:
    """A class folder's submissions: LMS files grouped by student, other children one each."""
    entries, notes, groups = [], [], {}
    skipped, receipts, other_plugins = [], 0, []
    for child in _visible_children(folder):
        path = Path(child.path)
        if os.path.realpath(path) in exclude:
            notes.append(f"{path}: the report folder, not a submission")
            continue
        kind = child.stat(follow_symlinks=False).st_mode
        if not (stat.S_ISDIR(kind) or stat.S_ISREG(kind)):
            skipped.append(f"{child.name} (not a file or folder: not followed)")
            continue
        found = _lms(child.name, stat.S_ISDIR(kind))
        if found is None:
            if stat.S_ISDIR(kind) or intake.is_archive(path) or child.name.lower().endswith(SOURCE_SUFFIXES):
                entries.append(_plain(path, folder.name))
            else:
                skipped.append(child.name)
            continue
        layout, match = found
        if layout == MOODLE and match["plugin"] != "file":
            other_plugins.append(child.name)
            continue
        if layout == BLACKBOARD and not match["file"]:
            receipts += 1
            continue
        student = match["student"] if layout == BLACKBOARD else f"{match['student']}_{match['id']}"
        group = groups.setdefault((layout, student), Entry(
            student, "", layout, parent=folder.name, original=match["student"],
            lms_id=match["student"] if layout == BLACKBOARD else match["id"]))
        if stat.S_ISDIR(kind):
            group.path = path
            group.shown = str(path)
            group.notes.append(f"{layout} export: the folder {child.name} is {student}'s submission")
        else:
            group.members.append(Member(path, match["file"], match["stamp"] if layout == BLACKBOARD else ""))
            group.canvas_late = group.canvas_late or (layout == CANVAS and bool(match["late"]))
    for group in groups.values():
        _settle(group, folder)
        entries.append(group)
    entries.sort(key=lambda e: (e.label.lower(), e.label))
    if skipped:
        notes.append(f"{folder}: not submissions, left out: {', '.join(skipped)}")
    if receipts:
        notes.append(f"{folder}: {receipts} Blackboard receipt{'s' if receipts != 1 else ''} (.txt) left out")
    if other_plugins:
        notes.append(f"{folder}: Moodle entries other than files left out: {', '.join(other_plugins)}")
    return Found(entries, notes)


def _settle(group: Entry, folder: Path) -> None:
    """A grouped student's files under their real names: the latest Blackboard attempt only,
    Canvas's resubmission suffix (`Main-1.java`) dropped where no other file has that name."""
    if group.layout == BLACKBOARD and group.members:
        latest = max(m.attempt for m in group.members)
        dropped = [m for m in group.members if m.attempt != latest]
        group.members = [m for m in group.members if m.attempt == latest]
        group.attempt = latest
        if dropped:
            group.notes.append(f"Blackboard export: attempt {latest} graded; {len(dropped)} file"
                               f"{'s' if len(dropped) != 1 else ''} of earlier attempts left out")
    if group.layout == CANVAS:
        names = {m.name for m in group.members}
        for member in group.members:
            plain = _RESUBMITTED.match(member.name)
            if plain and plain["stem"] + plain["suffix"] not in names:
                member.name = plain["stem"] + plain["suffix"]
                group.notes.append(f"Canvas export: {member.source.name} is read as {member.name} "
                                   "(Canvas numbers a resubmitted file)")
    for member in group.members:
        if not any(member.source.name in note for note in group.notes):
            group.notes.append(f"{group.layout} export: {member.source.name} is {group.label}'s {member.name}")
    if group.members and group.path is None:
        shown = ", ".join(m.source.name for m in group.members[:3])
        more = f" and {len(group.members) - 3} more" if len(group.members) > 3 else ""
        group.shown = f"{folder}/ ({group.layout} export: {shown}{more})"


def unique_names(entries: list[Entry]) -> None:
    """A report folder name per entry, unique (letter case aside), safe, never a class-level file:
    a name taken twice takes its folder's name in front (`section1_Project`), then a number."""
    bases = [_safe(entry.label) for entry in entries]
    counts: dict[str, int] = {}
    for base in bases:
        counts[base.lower()] = counts.get(base.lower(), 0) + 1
    seen: set[str] = set()
    for entry, base in zip(entries, bases):
        if counts[base.lower()] > 1 and entry.parent and _safe(entry.parent) != "submission":
            base = _safe(f"{entry.parent}_{entry.label}")
        name, n = base, 1
        while name.lower() in seen:
            n += 1
            name = f"{base}-{n}"
        seen.add(name.lower())
        entry.name = name


def _safe(label: str) -> str:
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", label)[:NAME_CHARS].strip("._-") or "submission"
    return f"submission-{base}" if base.lower() in RESERVED_NAMES else base


class Staging:
    """A temporary folder where grouped export files get their real names; removed on exit."""

    def __init__(self):
        self.root: Path | None = None

    def __enter__(self) -> "Staging":
        return self

    def __exit__(self, *exc) -> None:
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def stage(self, entry: Entry) -> None:
        """Copy the entry's files (regular files only, links never followed) under their real names."""
        if not entry.members or entry.path is not None:
            return
        if self.root is None:
            self.root = Path(tempfile.mkdtemp(prefix=paths.temporary("class")))
        folder = self.root / entry.name
        folder.mkdir()
        budget = intake.MAX_BYTES
        for member in entry.members:
            name = Path(member.name).name or "file"
            target = folder / name
            if target.exists():
                entry.notes.append(f"{member.source.name}: a second file named {name}, left out")
                continue
            try:
                budget -= _copy(member.source, target, budget)
            except (OSError, intake.IntakeProblem) as problem:
                entry.notes.append(f"{member.source.name}: not taken in ({getattr(problem, 'strerror', None) or problem})")
        entry.path = folder


def _copy(source: Path, target: Path, budget: int) -> int:
    """Copy one regular file without following a link; at most `budget` bytes."""
    descriptor = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(descriptor, "rb") as reader:
        if not stat.S_ISREG(os.fstat(reader.fileno()).st_mode):
            return 0
        data = reader.read(max(budget, 0) + 1)
    if len(data) > budget:
        raise intake.IntakeProblem(f"{source.name}: the student's files are over {intake.MAX_BYTES // 2**20} MB")
    target.write_bytes(data)
    return len(data)
