"""Find the submissions of a class: the paths given, a class folder's children, or the files of
an LMS export grouped into one submission per student, each with a name unique in every output.

A class folder holds one submission per child (a folder, an archive or a lone source file).
LMS exports are recognised by their file names and grouped by student. Each name is read by its
platform's own scheme from where the platform writes it: the prefix the platform puts in front of
the student's file name, matched once at the start of the name, with the student part as that
platform forms it; what follows the prefix is the student's file name, data and nothing more (a
file named `bob_attempt_2099-12-31-23-59-59_Main.java` is the uploader's file of that name):

- Canvas `submissions.zip`: `<sortable name, word characters, lower case>[_LATE]_<user id>_<file
  id>_<File>`, or `[LATE_]anon_<anonymous id>_<file id>_<File>` when grading is anonymous (a
  resubmitted file gets `-1`, `-2` before its extension);
- Moodle "Download all submissions": `<Full Name>_<participant id>_assignsubmission_file_<File>`
  (Moodle writes the name's own underscores as spaces), or one folder per student named
  `<Full Name>_<participant id>_assignsubmission_file_`;
- Blackboard: `<Assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<File>`, and for each
  attempt its receipt `<Assignment>_<username>_attempt_<stamp>.txt`, Blackboard's own record of
  it ("Name: Full Name (username)", "Date Submitted: ..."): the latest attempt is graded, its
  receipt counted (an attempt of text alone is an attempt with no files), and the receipt names the
  user and the time when it is there.

Grouped files are copied under their real names (`Main.java`) into a staging folder, never
following a link; each renaming is an intake line of the report, never a deduction.

An export is graded as the instructor downloads it, too: an archive given on the command line
whose members are an export's names (Canvas's `submissions.zip`) is unpacked with intake's caps
and read as the class folder it holds; any other archive stays one student's submission.
"""
import atexit
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from harness import languages
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
SOURCE_SUFFIXES = tuple(suffix for language in languages.ALL for suffix in language.files)
# Names a report folder may not take: the class-level files beside the reports.
RESERVED_NAMES = frozenset({"gradebook.csv", "index.html", "similarity.html", "summary.json", "late-policy.json"})
NAME_CHARS = 80
SEARCH_DEPTH = 8  # how deep a child is searched for the spec's files when telling a class from a project
SEARCH_ENTRIES = 2000

# Each platform's prefix, anchored at the start of the name; the student's own file name follows it.
# Canvas: the sortable name made word characters and lower case (so `_LATE` is only ever Canvas's).
_CANVAS = re.compile(r"^(?P<student>\w*?)(?P<late>_LATE)?_(?P<id>\d+)_(?P<attachment>\d+)_(?P<file>.+)$")
_CANVAS_ANONYMOUS = re.compile(r"^(?P<late>LATE_)?(?P<student>anon)_(?P<id>[A-Za-z0-9]+)_(?P<attachment>\d+)_(?P<file>.+)$")
# Moodle: the full name with its underscores written as spaces, so the first `_` ends it.
_MOODLE = re.compile(r"^(?P<student>[^_]*)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<file>.*)$")
_MOODLE_FOLDER = re.compile(r"^(?P<student>[^_]*)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_?$")
# Blackboard: the first `_attempt_<stamp>` ends its prefix (an assignment's name is the instructor's).
_ATTEMPT = "_attempt_"
_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}")
_STAMP_CHARS = 19
RECEIPT_BYTES = 64 * 1024  # a Blackboard receipt read, at most
_RESUBMITTED = re.compile(r"^(?P<stem>.+)-\d+(?P<suffix>\.[^.]+)$")


@dataclass
class Member:
    """One file of an LMS export: where it is, and the name its student gave it."""
    source: Path
    name: str
    attempt: str = ""  # Blackboard: the attempt's time stamp


@dataclass(frozen=True)
class LmsName:
    """An export's file or folder name read by its platform's scheme: whose it is (`key`: the
    platform's own id of the student), the student part as the platform wrote it, and the
    student's own file name after the platform's prefix."""
    layout: "Layout"
    key: str  # groups one student's files: the name and Canvas's user or Moodle's participant id;
    # Blackboard's `<Assignment>_<username>`
    student: str  # the student part of the name (Blackboard: a first reading, a receipt may settle it)
    lms_id: str
    file: str  # the student's file name; "" for a folder or a Blackboard receipt
    prefix_end: int  # where the platform's prefix ends in the name
    late: bool = False  # Canvas flagged it late
    attempt: str = ""  # Blackboard's attempt stamp
    receipt: bool = False  # Blackboard's receipt of the attempt
    plugin: str = "file"  # Moodle's submission plugin


@dataclass(frozen=True)
class Receipt:
    """What a Blackboard receipt's header says: the username in its Name line (read against the
    file names) and its Date Submitted, as written ("" where it says none)."""
    name_line: str = ""
    submitted: str = ""


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
    receipt_time: str = ""  # Blackboard: the graded attempt's receipt's Date Submitted, as written
    receipts: dict[str, Path] = field(default_factory=dict)  # Blackboard: each attempt's receipt, by stamp
    canvas_late: bool = False  # Canvas named a file of it _LATE
    late: object = None  # its lateness.Lateness, when a deadline is set
    unpacked: Path | None = None  # the export archive's unpacked folder its files are in (removed with Staging)


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
        elif path.is_file() and not path.is_symlink() and intake.is_archive(path) \
                and (export := unpacked_export(path, skip)) is not None:
            entries += export.entries
            notes += export.notes
        else:
            entries.append(_plain(path, path.parent.name))
    unique_names(entries)
    return Found(entries, notes)


def unpacked_export(archive: Path, exclude: set[str] = frozenset()) -> Found | None:
    """The class an LMS export's archive holds (unpacked within intake's caps into a folder of
    its own, removed when its entries' Staging ends or the process does); None, and nothing
    kept, when its members are not an export's names or it cannot be unpacked: it is then one
    student's archive, and its own intake says what is wrong with it."""
    folder = Path(tempfile.mkdtemp(prefix=paths.temporary("export")))
    atexit.register(shutil.rmtree, folder, True)
    try:
        unpack_notes = intake.unpack(archive, folder)
        inside = [e for e in os.scandir(folder) if not intake.junk(e.name)]
        root = Path(inside[0].path) if len(inside) == 1 and inside[0].is_dir(follow_symlinks=False) \
            and _lms(inside[0].name, True) is None else folder
        if not any(_lms(e.name, e.is_dir(follow_symlinks=False)) for e in _visible_children(root)):
            raise intake.IntakeProblem("not an export")
    except (intake.IntakeProblem, OSError):
        shutil.rmtree(folder, ignore_errors=True)
        return None
    found = children(root, exclude)
    shown, stem = str(archive), _plain(archive, "").label
    for entry in found.entries:
        entry.unpacked, entry.parent = folder, stem
        entry.shown = entry.shown.replace(str(root), shown, 1)
    notes = [note.replace(str(root), shown, 1) for note in found.notes]
    notes += [f"{archive}: {note}" for note in unpack_notes]
    notes.append(f"{archive}: an export of {len(found.entries)} submission"
                 f"{'s' if len(found.entries) != 1 else ''}{_layouts(found.entries)}, unpacked and graded "
                 "as a class folder")
    return Found(found.entries, notes)


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


def _lms(name: str, is_dir: bool) -> LmsName | None:
    """The name read by the scheme of the platform that wrote it, else None. Each platform's prefix
    is matched at the start; where a name fits two (a Canvas file the student named like a
    Blackboard export), the platform whose prefix comes first owns it: the rest is the student's."""
    if is_dir:
        match = _MOODLE_FOLDER.match(name)
        return None if match is None else LmsName(
            MOODLE, f"{match['student']}_{match['id']}", match["student"], match["id"], "", len(name),
            plugin=match["plugin"])
    match = _MOODLE.match(name)
    if match:
        return LmsName(MOODLE, f"{match['student']}_{match['id']}", match["student"], match["id"], match["file"],
                       match.start("file"), plugin=match["plugin"])
    canvas, blackboard = _canvas(name), blackboard_name(name)
    if canvas and blackboard:
        return canvas if canvas.prefix_end <= blackboard.prefix_end else blackboard
    return canvas or blackboard


def _canvas(name: str) -> LmsName | None:
    match = _CANVAS_ANONYMOUS.match(name) or _CANVAS.match(name)
    if match is None:
        return None
    return LmsName(CANVAS, f"{match['student']}_{match['id']}", match["student"], match["id"], match["file"],
                   match.start("file"), late=bool(match["late"]))


def blackboard_name(name: str) -> LmsName | None:
    """A Blackboard export name, split where Blackboard's prefix ends: the first `_attempt_`
    followed by a time stamp; a later one is part of the student's file name."""
    start = 0
    while (at := name.find(_ATTEMPT, start)) != -1:
        stamp_at = at + len(_ATTEMPT)
        stamp = name[stamp_at:stamp_at + _STAMP_CHARS]
        if _STAMP.fullmatch(stamp):
            head, rest = name[:at], name[stamp_at + _STAMP_CHARS:]
            assignment, _, user = head.rpartition("_")
            if not assignment or not user:
                return None
            if rest.lower() == ".txt":
                return LmsName(BLACKBOARD, head, user, user, "", at, attempt=stamp, receipt=True)
            if rest.startswith("_") and len(rest) > 1:
                return LmsName(BLACKBOARD, head, user, user, rest[1:], at, attempt=stamp)
            return None
        start = at + 1
    return None


def read_receipt(path: Path) -> Receipt:
    """A Blackboard receipt's header (the lines before its first blank line: Name, Assignment,
    Date Submitted...); what follows it (the student's text and comments) is never read as it."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(descriptor, "rb") as reader:
            if not stat.S_ISREG(os.fstat(reader.fileno()).st_mode):
                return Receipt()
            data = reader.read(RECEIPT_BYTES)
    except OSError:
        return Receipt()
    header: list[str] = []
    # lines end where Blackboard ends them, at "\n": a profile name holding another line break
    # (U+2028, a lone CR, ...) stays inside its Name line, and of the Date Submitted lines the
    # one Blackboard writes after the Name line is the last
    for line in data.decode("utf-8-sig", errors="replace").split("\n"):
        if not line.strip():
            if header:
                break
            continue
        header.append(line.strip())
    name = next((line for line in header if line.startswith("Name:")), "")
    dates = [line[len("Date Submitted:"):].strip() for line in header if line.startswith("Date Submitted:")]
    return Receipt(name, dates[-1] if dates else "")


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
        if found.layout == MOODLE and found.plugin != "file":
            other_plugins.append(child.name)
            continue
        group = groups.setdefault((found.layout, found.key), Entry(
            found.key if found.layout != BLACKBOARD else found.student, "", found.layout, parent=folder.name,
            original=found.student, lms_id=found.lms_id))
        if stat.S_ISDIR(kind):
            group.path = path
            group.shown = str(path)
            group.notes.append(f"{found.layout} export: the folder {child.name} is {group.label}'s submission")
        elif found.receipt:
            receipts += 1
            group.receipts[found.attempt] = path
        else:
            group.members.append(Member(path, found.file, found.attempt))
            group.canvas_late = group.canvas_late or found.late
    _blackboard_users({head: group for (layout, head), group in groups.items() if layout == BLACKBOARD})
    for group in groups.values():
        _settle(group, folder)
        entries.append(group)
    entries.sort(key=lambda e: (e.label.lower(), e.label))
    if skipped:
        notes.append(f"{folder}: not submissions, left out: {', '.join(skipped)}")
    if receipts:
        notes.append(f"{folder}: {receipts} Blackboard receipt{'s' if receipts != 1 else ''} (.txt) read as "
                     "Blackboard's record of each attempt, not as sources")
    if other_plugins:
        notes.append(f"{folder}: Moodle entries other than files left out: {', '.join(other_plugins)}")
    return Found(entries, notes)


def _blackboard_users(groups: dict[str, Entry]) -> None:
    """Each Blackboard student's graded attempt and username, by `<Assignment>_<username>`: the
    latest attempt, receipts counted; its receipt's Name line settles where the assignment's name
    ends and the username begins (a username may hold `_`), and an assignment learnt so serves the
    students with no receipt."""
    assignments: set[str] = set()
    for head, group in groups.items():
        group.attempt = max([m.attempt for m in group.members] + list(group.receipts))
        receipt = group.receipts.get(group.attempt)
        if receipt is None:
            continue
        record = read_receipt(receipt)
        group.receipt_time = record.submitted
        user = _named_user(head, record.name_line)
        if user:
            _rename(group, user)
            assignments.add(head[: -len(user) - 1])
    for head, group in groups.items():
        known = [a for a in assignments if head.startswith(a + "_") and len(head) > len(a) + 1]
        if known and group.attempt not in group.receipts:
            _rename(group, head[len(max(known, key=len)) + 1:])


def _named_user(head: str, name_line: str) -> str:
    """The longest tail of `<Assignment>_<username>` that the receipt's Name line gives in
    parentheses at its end ("" when it names none of them)."""
    for at, char in enumerate(head):
        if char == "_" and at > 0 and name_line.endswith(f"({head[at + 1:]})"):
            return head[at + 1:]
    return ""


def _rename(group: Entry, user: str) -> None:
    group.label = group.original = group.lms_id = user


def _settle(group: Entry, folder: Path) -> None:
    """A grouped student's files under their real names: the latest Blackboard attempt only,
    Canvas's resubmission suffix (`Main-1.java`) dropped where no other file has that name."""
    if group.layout == BLACKBOARD:
        latest = group.attempt
        dropped = [m for m in group.members if m.attempt != latest]
        group.members = [m for m in group.members if m.attempt == latest]
        if dropped:
            group.notes.append(f"Blackboard export: attempt {latest} graded; {len(dropped)} file"
                               f"{'s' if len(dropped) != 1 else ''} of earlier attempts left out")
        if not group.members:
            group.notes.append(f"Blackboard export: attempt {latest} graded, and it holds no file")
        if latest in group.receipts:
            group.notes.append(f"Blackboard export: {group.receipts[latest].name} is the record of attempt {latest}")
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
    if group.path is None:
        sources = [m.source.name for m in group.members] or [p.name for p in group.receipts.values()]
        shown = ", ".join(sources[:3])
        more = f" and {len(sources) - 3} more" if len(sources) > 3 else ""
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
        self.unpacked: set[Path] = set()  # export archives' folders the staged entries are in

    def __enter__(self) -> "Staging":
        return self

    def __exit__(self, *exc) -> None:
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None
        for folder in self.unpacked:
            shutil.rmtree(folder, ignore_errors=True)
        self.unpacked.clear()

    def stage(self, entry: Entry) -> None:
        """Copy the entry's files (regular files only, links never followed) under their real names."""
        if entry.unpacked is not None:
            self.unpacked.add(entry.unpacked)
        if entry.path is not None or entry.layout not in (CANVAS, MOODLE, BLACKBOARD):
            return  # a folder, an archive or a file of its own; or a Moodle folder, graded where it is
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
