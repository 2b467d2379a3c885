"""Late work: when each submission of a class was handed in, the deadline that applies to it
(an extension included), how late it is and the penalty that follows, in one place.

A submission's time comes from, in this order of trust: Blackboard's own record of the attempt
(its receipt's Date Submitted, else the stamp Blackboard put in the attempt's file names), a
times CSV (`--times`), Canvas's `_LATE` flag (Canvas says late but not when), for a folder, archive
or file of a class folder the newest modification time of its files, or nowhere (`unknown`).
Nothing a student names or sets is a time: a file name's tail, an archive member's date (intake
never reads one), and an LMS export's file times (the export zip's member dates, not the
platform's record) are never read as one. The penalty is a
percentage of the earned score per day or part of a day past the deadline, once past the
grace period, never more than the cap (docs/late-work.md gives the arithmetic).

The arithmetic (`days_counted`, `penalty`, `assess`, `final`) is pure; reading the CSVs and the
file times is here too, so the command line, the gradebook and the class page read one result.
"""
import csv
import math
import os
import stat
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from harness import csv_cells
from harness.building import intake
from harness.classes import classroom
from harness.errors import InputError

DAY = 86400.0
MAX_PERCENT = 100.0
MAX_GRACE_MINUTES = 7 * 24 * 60.0  # a week
MAX_EXTENSION_DAYS = 365.0
FILE_SEARCH_ENTRIES = 2000  # files looked at for a folder's newest time

# Where a submission's time came from: the gradebook's `submitted_from`.
BLACKBOARD = "Blackboard attempt"
BLACKBOARD_RECEIPT = "Blackboard receipt"
TIMES_CSV = "times CSV"
CANVAS_FLAG = "Canvas LATE flag"
CANVAS_ON_TIME = "Canvas (no LATE flag)"
FILE_TIMES = "file times"
NO_LMS_TIME = "export (no time)"  # a Moodle export: Moodle writes no time into it
UNKNOWN = "unknown"

# How a submission stands against its deadline: the gradebook's `lateness`.
ON_TIME = "on time"
IN_GRACE = "within grace"
LATE = "late"
FLAGGED = "late (Canvas flag), time unknown"
NOT_KNOWN = "time unknown"

EXAMPLE_TIME = "2026-03-02T23:59:00-05:00"


@dataclass(frozen=True)
class Policy:
    """The deadline and what lateness costs: `penalty_per_day` percent of the earned score per
    day or part of a day late, at most `cap` percent in all; `grace_minutes` late count as on time."""
    deadline: datetime
    penalty_per_day: float = 0.0
    cap: float = MAX_PERCENT
    grace_minutes: float = 0.0


@dataclass(frozen=True)
class Submitted:
    """When a submission was handed in (None: not known) and where that was read."""
    time: datetime | None
    source: str
    flagged_late: bool = False  # Canvas marked it late, without saying when


@dataclass(frozen=True)
class Extension:
    """One student's extension: a deadline of their own, or days added to the class's."""
    deadline: datetime | None = None
    days: float = 0.0

    def applied(self, deadline: datetime) -> datetime:
        return self.deadline if self.deadline is not None else deadline + timedelta(days=self.days)

    @property
    def text(self) -> str:
        if self.deadline is not None:
            return "extension to this deadline"
        return f"extension of {self.days:g} day{'s' if self.days != 1 else ''}"


@dataclass(frozen=True)
class Lateness:
    """One submission against its deadline: how late, the days counted and the penalty."""
    submitted: Submitted
    deadline: datetime  # the one that applies: the student's extension included
    extension: str  # "" or what extended it
    late_seconds: float | None  # past the deadline (0 when on time); None when the time is not known
    days: int  # days counted late (0 on time or within the grace period)
    penalty: float  # percent of the earned score taken off
    standing: str  # ON_TIME | IN_GRACE | LATE | FLAGGED | NOT_KNOWN

    def final(self, raw: float) -> float:
        return final(raw, self.penalty)

    @property
    def hours(self) -> float | None:
        return None if self.late_seconds is None else self.late_seconds / 3600

    def line(self, raw: float | None = None) -> str:
        """One line for a person: how it stands, what it cost (and the final percentage, from
        the `raw` one), when it was handed in and the deadline."""
        if self.submitted.time:
            when = f"submitted {stamp(self.submitted.time)} ({self.submitted.source})"
        elif self.standing == FLAGGED:
            when = "no penalty until a times CSV gives its time"
        elif self.submitted.source == CANVAS_ON_TIME:
            when = "Canvas did not flag it late"
        elif self.submitted.source == NO_LMS_TIME:
            when = "no penalty: the export gives no time; give it in a times CSV"
        else:
            when = "no penalty: no LMS time, times CSV row or file time found"
        if self.standing == LATE:
            head = f"late {self.hours:.1f} h, {self.days} day{'s' if self.days != 1 else ''} counted: −{self.penalty:g} %"
            if raw is not None:
                head += f" → {self.final(raw):.1f} %"
        else:
            head = self.standing
        extended = f" ({self.extension})" if self.extension else ""
        return f"{head}; {when}; deadline {stamp(self.deadline)}{extended}"


@dataclass
class Settings:
    """What a class's grading knows of late work: the policy, and the CSVs' rows by student."""
    policy: Policy
    times: dict[str, datetime] = field(default_factory=dict)
    extensions: dict[str, Extension] = field(default_factory=dict)
    times_file: Path | None = None
    extensions_file: Path | None = None


# --- the arithmetic --------------------------------------------------------------------------

def days_counted(late_seconds: float, grace_minutes: float) -> int:
    """Days late as counted: 0 up to the grace period, else every day or part of a day since
    the deadline (the grace period forgives a little lateness; it does not move the deadline)."""
    if late_seconds <= grace_minutes * 60:
        return 0
    return math.ceil(late_seconds / DAY)


def penalty(days: int, policy: Policy) -> float:
    """Percent of the earned score taken off for `days` counted late: per day, at most the cap."""
    return min(days * policy.penalty_per_day, policy.cap, MAX_PERCENT)


def final(raw: float, penalty_percent: float) -> float:
    """The score after the penalty: a percentage of the earned score is taken off."""
    return raw * (1 - penalty_percent / 100)


def assess(policy: Policy, submitted: Submitted, extension: Extension | None = None) -> Lateness:
    """A submission against the policy's deadline (or its student's extended one)."""
    deadline = extension.applied(policy.deadline) if extension else policy.deadline
    extended = extension.text if extension else ""
    if submitted.time is None:
        standing = FLAGGED if submitted.flagged_late else NOT_KNOWN
        if submitted.source == CANVAS_ON_TIME:
            standing = ON_TIME
        return Lateness(submitted, deadline, extended, None if standing != ON_TIME else 0.0, 0, 0.0, standing)
    late = max((submitted.time - deadline).total_seconds(), 0.0)
    days = days_counted(late, policy.grace_minutes)
    standing = ON_TIME if late == 0 else IN_GRACE if days == 0 else LATE
    return Lateness(submitted, deadline, extended, late, days, penalty(days, policy), standing)


# --- reading times ---------------------------------------------------------------------------

def stamp(when: datetime | None) -> str:
    """A time as the gradebook writes it: ISO 8601 to the second, with its UTC offset."""
    return when.isoformat(timespec="seconds") if when else ""


def parse_time(text: str) -> datetime:
    """An ISO 8601 time with its time zone (ValueError, saying what to write, otherwise)."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO 8601 time; write e.g. {EXAMPLE_TIME}") from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError(f"{text!r} has no time zone; add it, e.g. {EXAMPLE_TIME} (or Z for UTC)")
    return when


def blackboard_time(attempt: str, zone_of: datetime) -> datetime:
    """Blackboard's attempt stamp (YYYY-MM-DD-HH-MM-SS, no zone), read in the deadline's zone."""
    return datetime.strptime(attempt, "%Y-%m-%d-%H-%M-%S").replace(tzinfo=zone_of.tzinfo)


# A receipt's Date Submitted as Blackboard writes it in English: "Monday, March 2, 2026 9:09:00 PM EST"
# (United States) or "Monday, 2 March 2026 21:09:00 o'clock GMT" (elsewhere).
RECEIPT_FORMATS = ("%A, %B %d, %Y %I:%M:%S %p", "%A, %d %B %Y %H:%M:%S", "%A, %B %d, %Y %H:%M:%S",
                   "%A, %d %B %Y %I:%M:%S %p")
# The zone abbreviations a receipt may end with, as offsets from UTC in hours (North America,
# the UK and Europe, Australia); another is read in the deadline's zone, as the stamp is.
RECEIPT_ZONES = {"UTC": 0, "GMT": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6,
                 "PST": -8, "PDT": -7, "AKST": -9, "AKDT": -8, "HST": -10, "AST": -4, "ADT": -3, "NST": -3.5,
                 "NDT": -2.5, "BST": 1, "IST": 1, "WET": 0, "WEST": 1, "CET": 1, "CEST": 2, "EET": 2, "EEST": 3,
                 "AWST": 8, "ACST": 9.5, "ACDT": 10.5, "AEST": 10, "AEDT": 11}


def receipt_time(text: str, zone_of: datetime) -> datetime | None:
    """A Blackboard receipt's Date Submitted (None when it is in none of RECEIPT_FORMATS)."""
    words = text.replace("o'clock", " ").split()
    zone = zone_of.tzinfo
    if words and words[-1].isalpha() and words[-1].isupper() and words[-1] not in ("AM", "PM"):
        offset = RECEIPT_ZONES.get(words.pop())
        if offset is not None:
            zone = timezone(timedelta(hours=offset))
    core = " ".join(words)
    for layout in RECEIPT_FORMATS:
        try:
            return datetime.strptime(core, layout).replace(tzinfo=zone)
        except ValueError:
            continue
    return None


def file_time(entry: classroom.Entry, zone_of: datetime) -> datetime | None:
    """The newest modification time of a class folder child's source files (of any file when it
    has no source file), links never followed; an archive's own time, never its members'. None
    when there is none, and for an LMS export (its files' times are the export zip's)."""
    if entry.path is None or entry.layout not in (classroom.FOLDER, classroom.FILE, classroom.ARCHIVE):
        return None
    elif entry.layout in (classroom.FILE, classroom.ARCHIVE):
        paths = [entry.path]
    else:
        paths = list(_files(entry.path))
    times = {True: [], False: []}
    for path in paths:
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            times[str(path).lower().endswith(classroom.SOURCE_SUFFIXES)].append(info.st_mtime)
    newest = max(times[True] or times[False], default=None)
    return None if newest is None else datetime.fromtimestamp(newest, zone_of.tzinfo)


def _files(folder: Path):
    seen = 0
    for top, folders, names in os.walk(folder, followlinks=False):
        folders[:] = [name for name in folders if not intake.junk(name)]
        for name in names:
            seen += 1
            if seen > FILE_SEARCH_ENTRIES:
                return
            if not intake.junk(name):
                yield Path(top) / name


def submitted(entry: classroom.Entry, settings: Settings, key: str | None) -> Submitted:
    """When the entry was handed in, from the most trusted source that says so: an LMS export's
    own record, never its files' times (the export zip's member dates)."""
    zone = settings.policy.deadline
    if entry.layout == classroom.BLACKBOARD and entry.attempt:
        recorded = receipt_time(entry.receipt_time, zone) if entry.receipt_time else None
        if recorded is not None:
            return Submitted(recorded, BLACKBOARD_RECEIPT)
        return Submitted(blackboard_time(entry.attempt, zone), BLACKBOARD)
    if key is not None and key in settings.times:
        return Submitted(settings.times[key], TIMES_CSV)
    if entry.layout == classroom.CANVAS:
        return Submitted(None, CANVAS_FLAG, True) if entry.canvas_late else Submitted(None, CANVAS_ON_TIME)
    if entry.layout in (classroom.MOODLE, classroom.BLACKBOARD):
        return Submitted(None, NO_LMS_TIME)
    when = file_time(entry, zone)
    return Submitted(when, FILE_TIMES) if when else Submitted(None, UNKNOWN)


def names_of(entry: classroom.Entry) -> list[str]:
    """What a CSV's `student` may say to mean this entry: its report name, its name in the
    class folder, its LMS id or its student's name (letter case aside)."""
    return [n.casefold() for n in (entry.name, entry.original, entry.lms_id, entry.label) if n]


def attach(settings: Settings | None, entries: list[classroom.Entry]) -> list[str]:
    """Set each entry's `late` (its Lateness); returns lines to show: CSV rows that match no
    submission. Runs before grouped files are staged (their times are read from the export)."""
    if settings is None:
        return []
    used_times, used_extensions, by_files = set(), set(), []
    for entry in entries:
        names = names_of(entry)
        time_key = next((n for n in names if n in settings.times), None)
        extension_key = next((n for n in names if n in settings.extensions), None)
        used_times.add(time_key)
        used_extensions.add(extension_key)
        entry.late = assess(settings.policy, submitted(entry, settings, time_key),
                            settings.extensions.get(extension_key))
        if settings.times_file is not None and entry.late.submitted.source == FILE_TIMES:
            by_files.append(entry.name)
    notes = []
    if by_files:  # a times CSV was given, and it leaves these to their files' times: said once
        notes.append(f"{settings.times_file}: no row for {len(by_files)} submission{'s' if len(by_files) != 1 else ''} "
                     f"({', '.join(by_files[:10])}{' and more' if len(by_files) > 10 else ''}): "
                     f"{'their times are' if len(by_files) != 1 else 'its time is'} the newest modification time of "
                     "the files; add a row (student,submitted) for each to give the time handed in")
    for path, rows, used in ((settings.times_file, settings.times, used_times),
                             (settings.extensions_file, settings.extensions, used_extensions)):
        unmatched = [name for name in rows if name not in used]
        if unmatched:
            notes.append(f"{path}: no submission for {', '.join(unmatched[:10])}"
                         f"{' and more' if len(unmatched) > 10 else ''} (left out)")
    return notes


# --- the policy and the CSVs, from the spec and the command line ----------------------------

def settings(rule, deadline: datetime | None = None, penalty_per_day: float | None = None,
             cap: float | None = None, grace: float | None = None, times: Path | None = None,
             extensions: Path | None = None) -> Settings | None:
    """The class's late-work settings: the spec's `late:` rule (its milestone's) overridden by
    the command line; None when no deadline is set anywhere (and nothing asks for one)."""
    deadline = deadline if deadline is not None else getattr(rule, "deadline", None)
    if deadline is None:
        asked = [option for option, value in (("--late-penalty", penalty_per_day), ("--late-cap", cap),
                                              ("--grace", grace), ("--times", times), ("--extensions", extensions))
                 if value is not None]
        if asked:
            raise InputError(f"{', '.join(asked)} need{'s' if len(asked) == 1 else ''} a deadline; give --deadline "
                             f"{EXAMPLE_TIME} or set late: deadline in the spec")
        return None

    def pick(given, key, default):
        value = given if given is not None else getattr(rule, key, None)
        return float(default if value is None else value)

    policy = Policy(deadline, pick(penalty_per_day, "penalty_per_day", 0.0), pick(cap, "cap", MAX_PERCENT),
                    pick(grace, "grace", 0.0))
    return Settings(policy, read_times(times) if times else {}, read_extensions(extensions) if extensions else {},
                    times, extensions)


def _rows(path: Path, columns: tuple[str, ...], example: str):
    """(line, row) of a CSV whose header holds `student` and one of `columns`; exit 2 otherwise."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            reader = csv_cells.Reader(f)  # a name copied from the gradebook reads as the student's
            header = [h.strip().lower() for h in next(reader, [])]
            if "student" not in header or not any(c in header for c in columns):
                raise InputError(f"the header must name the columns student,{' or student,'.join(columns)}; "
                                 f"write e.g. {example}", path, 1)
            for row in reader:
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) != len(header):
                    raise InputError(f"{len(row)} values on a line of {len(header)} columns "
                                     f"({','.join(header)}); quote a value that holds a comma", path, reader.line_num)
                yield reader.line_num, dict(zip(header, (cell.strip() for cell in row)))
    except OSError as problem:
        raise InputError(f"cannot read it ({problem.strerror or problem}); give a CSV file", path) from None
    except (UnicodeDecodeError, csv.Error) as problem:
        raise InputError(f"not a CSV file in UTF-8 ({problem}); save it as CSV (UTF-8)", path) from None


def _student(path: Path, line: int, row: dict, seen: dict[str, int]) -> str:
    name = row["student"].casefold()
    if not name:
        raise InputError("no student on this line; give the submission's name, its name in the class "
                         "folder or the LMS id", path, line)
    if name in seen:
        raise InputError(f"{row['student']!r} is given twice (first on line {seen[name]}); keep one line per "
                         "student", path, line)
    seen[name] = line
    return name


def read_times(path: Path) -> dict[str, datetime]:
    """A times CSV: `student,submitted`, the time ISO 8601 with its time zone."""
    found, seen = {}, {}
    for line, row in _rows(path, ("submitted",), f"student,submitted / alice,{EXAMPLE_TIME}"):
        name = _student(path, line, row, seen)
        try:
            found[name] = parse_time(row.get("submitted", ""))
        except ValueError as problem:
            raise InputError(f"submitted: {problem}", path, line) from None
    return found


def read_extensions(path: Path) -> dict[str, Extension]:
    """An extensions CSV: `student,deadline` (ISO 8601 with its time zone) or `student,days`
    (days added to the class's deadline); a file may hold both columns, one filled per line."""
    found, seen = {}, {}
    example = f"student,days / alice,2 (or student,deadline / alice,{EXAMPLE_TIME})"
    for line, row in _rows(path, ("deadline", "days"), example):
        name = _student(path, line, row, seen)
        deadline, days = row.get("deadline", ""), row.get("days", "")
        if bool(deadline) == bool(days):
            raise InputError("give either a deadline or days on each line, not both or neither", path, line)
        if deadline:
            try:
                found[name] = Extension(deadline=parse_time(deadline))
            except ValueError as problem:
                raise InputError(f"deadline: {problem}", path, line) from None
            continue
        try:
            value = float(days)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and 0 < value <= MAX_EXTENSION_DAYS):
            raise InputError(f"days: {days!r} is not a number of days; give a number above 0 and at most "
                             f"{MAX_EXTENSION_DAYS:g} (e.g. 2 or 0.5)", path, line)
        found[name] = Extension(days=value)
    return found
