"""The typed results every report reads: a case's result, an item's score, a submission's.

Grading fills the case results, scoring fills every number (once), and the renderers
(terminal, HTML, result.json, Gradescope, JUnit, the gradebook) only read them. A result
round-trips through JSON (`to_json` / `from_json`); `result.json` carries FORMAT_VERSION and
validates against harness/loading/schemas/result.schema.json.
"""
from dataclasses import dataclass, field, fields
from enum import StrEnum

from harness import languages
from harness.outcome import End
from harness.transcript import Transcript

FORMAT_VERSION = 1


class Status(StrEnum):
    """A case's verdict (the strings are result.json's)."""
    PASSED = "passed"
    FAILED = "failed"
    UNGRADABLE = "ungradable"  # not counted (or charged to another item): no start it could be graded on
    HARNESS_ERROR = "harness-error"  # the harness failed on it: no total is published


PASSED, FAILED, UNGRADABLE, HARNESS_ERROR = Status.PASSED, Status.FAILED, Status.UNGRADABLE, Status.HARNESS_ERROR
STATUSES = tuple(Status)
MARKS = {PASSED: "PASS", FAILED: "FAIL", UNGRADABLE: "NOT GRADABLE", HARNESS_ERROR: "HARNESS ERROR"}


class Visibility(StrEnum):
    """Who sees a case: everyone, or the instructor only until the grades are out (the strings
    are a case file's and result.json's)."""
    PUBLIC = "public"
    HIDDEN = "hidden"


class Cause(StrEnum):
    """Why the harness, not a comparison, decided a case; decisions read this, never a message."""
    NOT_BUILT = "not-built"  # not run: its target did not build
    OUT_OF_TIME = "out-of-time"  # not run: the submission's time budget was spent before it
    NOT_REACHED = "not-reached"  # not run: the grading ended before it (a service's hidden run that failed)
    BUDGET_SPENT = "budget-spent"  # run, and stopped when the submission's time budget ran out
    WORKER_DIED = "worker-died"  # the process running it died (a harness error)


NOT_RUN = (Cause.NOT_BUILT, Cause.OUT_OF_TIME, Cause.NOT_REACHED)


class Origin(StrEnum):
    """What a case result is of: a case file, or a check the grading adds beside the cases (the
    law of the random starts). A regrade keeps or re-runs every check by this, never by a name."""
    CASE = "case"
    LAW_CHECK = "law-check"


# The name the law check's result goes by in every report; a case file may not take it (cases.py).
LAW_CHECK_NAME = "start-distribution"


class Verdict(StrEnum):
    """A submission's status (the strings are result.json's and the gradebook's)."""
    GRADED = "graded"
    BUILD_FAILED = "build-failed"
    MISSING_FILES = "missing-files"
    HARNESS_ERROR = "harness-error"
    NOT_GRADED = "not-graded"  # a class run stopped before it (gradebook and class page only)


@dataclass
class Turn:
    """One turn as shown side by side: the output between two typed lines."""
    index: int
    typed: str | None  # the line typed before this turn (None for turn 0)
    expected: str | None  # None: the expected run has no such turn
    actual: str | None
    equal: bool
    read: str | None = None  # how the program's turn was read (its board as the reference draws it, or its facts)
    expected_read: str | None = None  # the same for the expected turn, when the facts were compared


@dataclass
class CaseResult:
    """How a submission did on one case: the verdict, its reason and the transcripts behind it."""
    name: str
    description: str
    rubric: str
    points: float
    visibility: Visibility
    status: Status = FAILED
    reason: str = ""  # one line for a person
    hint: str | None = None  # "would pass if trailing whitespace were ignored"
    typed: list[str] = field(default_factory=list)
    expected: Transcript = field(default_factory=list)
    expected_end: End | None = None
    actual: Transcript = field(default_factory=list)  # as a person at the terminal reads it
    actual_end: End | None = None
    printed: Transcript | None = None  # as printed, where the terminal's reading differs (clears, colours, redraws)
    detail: str = ""  # how the run ended, for a person
    policy: str = ""  # the comparison policy, described
    turns: list[Turn] = field(default_factory=list)
    first_divergence: int | None = None  # index into turns of the first unequal turn
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    command: list[str] = field(default_factory=list)
    runs: int = 0
    charged_to: str | None = None  # the rubric item it counts against: an ungradable case's, or a failure at another item's turn
    own_passed: bool = False  # charged to another item, and every other turn matched: it passes in its own item too
    starts: list[str] = field(default_factory=list)  # the random starts the program drew on its runs
    against_rules: list[str] = field(default_factory=list)  # of those, the starts the rules forbid
    value: float = 0.0  # the points of the total this case carries (set by scoring)
    earned: float = 0.0  # of `value`, earned (set by scoring)
    cause: Cause | None = None  # set when the harness decided the case without comparing it
    accepted: list[str] = field(default_factory=list)  # the case's accepted alternatives it passed only through
    origin: Origin = Origin.CASE  # a case file's run, or a check the grading added

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def ran(self) -> bool:
        return self.cause not in NOT_RUN

    @property
    def unbuilt(self) -> bool:
        """Not run because its target did not build: the build's error is told once, above."""
        return self.cause == Cause.NOT_BUILT


@dataclass
class ItemScore:
    """A rubric item's points for one submission."""
    id: str
    title: str
    weight: float
    graded: bool  # False: graded by a person, listed but not counted
    counted: bool  # False: no case of the item could be graded on this run (left out of the total)
    earned: float
    cases_passed: int
    cases_gradable: int
    cases_ungradable: int
    charges: int  # ungradable cases of any item charged to this one (starts against the rules)
    charged_failures: int = 0  # other items' cases that failed at a turn of this item's (one mistake, one deduction)




REUSED_BUILD = "compiled output reused from an identical earlier build (same sources, recipe and compiler)"


@dataclass
class BuildSummary:
    """What a report says about building one target."""
    target: str
    language: str | None
    ok: bool
    reason: str = ""
    log: str = ""
    diagnosis: str = ""
    findings: list[str] = field(default_factory=list)
    intake: list[str] = field(default_factory=list)
    seconds: float = 0.0
    handout_language: str | None = None  # the language the handout asks for, when this build used another
    # The compiled output was the build cache's (identical sources built before): the instructor's
    # to know, never a student's (it tells that someone uploaded the same sources). A kind of its
    # own, not a line of `intake`, so every student-facing output leaves it out by type.
    reused: bool = False

    @property
    def instructor_intake(self) -> list[str]:
        """`intake`, and the build cache's note when the build was reused: the instructor's reports only."""
        return [*self.intake, *([REUSED_BUILD] if self.reused else [])]

    @property
    def off_language(self) -> str:
        """What the instructor must know when the handout's language was not used, else ""."""
        if not self.handout_language or not self.language:
            return ""
        return (f"written in {languages.title(self.language)}, though the handout asks for "
                f"{languages.title(self.handout_language)}: graded on its merits")

    @property
    def further(self) -> str:
        """The diagnosis without the lines the reason already says (its first error), so a
        report says each thing once."""
        return "\n".join(line for line in self.diagnosis.strip().splitlines()
                         if line.strip() and line.strip() not in self.reason)


@dataclass
class SubmissionResult:
    """Everything one grading found about one submission: every report is written from this."""
    submission: str  # the path graded
    name: str  # unique among the submissions of one grading: the report folder's name
    game: str
    title: str
    milestone: str | None
    sandbox: str  # how submissions were confined ("bubblewrap" or "none")
    status: Verdict
    builds: dict[str, BuildSummary]
    cases: list[CaseResult]
    items: list[ItemScore]
    earned: float
    possible: float
    version: int = FORMAT_VERSION

    @property
    def published(self) -> bool:
        """False when the harness itself failed on a case: the total would leave that case out,
        so none is given (gradebook, Gradescope, reports) until the submission is regraded."""
        return self.status != Verdict.HARNESS_ERROR

    @property
    def percent(self) -> float:
        return round(100.0 * self.earned / self.possible, 2) if self.possible else 0.0

    @property
    def passed(self) -> int:
        return sum(1 for case in self.cases if case.passed)

    @property
    def total(self) -> int:
        return len(self.cases)

    @property
    def all_passed(self) -> bool:
        return self.passed == self.total

    @property
    def off_language(self) -> list[str]:
        """Each target built in a language the handout does not ask for, said for the instructor."""
        return [f"{target}: {build.off_language}" for target, build in self.builds.items() if build.off_language]

    def to_json(self) -> dict:
        data = _plain(self)
        data.update(percent=self.percent, passed=self.passed, total=self.total)
        return data

    @classmethod
    def from_json(cls, data: dict) -> "SubmissionResult":
        data = {k: v for k, v in data.items() if k not in ("percent", "passed", "total")}
        data["builds"] = {t: BuildSummary(**b) for t, b in data["builds"].items()}
        data["items"] = [ItemScore(**i) for i in data["items"]]
        data["cases"] = [_case_from_json(c) for c in data["cases"]]
        data["status"] = Verdict(data["status"])
        return cls(**data)


def _case_from_json(data: dict) -> CaseResult:
    data = dict(data)
    data["turns"] = [Turn(**t) for t in data["turns"]]
    for key in ("expected_end", "actual_end"):
        data[key] = End.parse(data[key]) if data[key] is not None else None
    data["status"] = Status(data["status"])
    data["visibility"] = Visibility(data["visibility"])
    data["cause"] = Cause(data["cause"]) if data.get("cause") else None
    data["origin"] = Origin(data.get("origin", Origin.CASE))
    return CaseResult(**data)


def _plain(value):
    """Dataclasses as dicts (fields in order), an End as its plain value."""
    if isinstance(value, End):
        return value.value
    if isinstance(value, StrEnum):
        return str(value)
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
