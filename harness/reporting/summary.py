"""The class page `index.html` beside the gradebook: how the class did, what went wrong most
often, and a link to every report.

Where a deadline is set, the score shown (the list, the mean, the histogram) is the final,
late-adjusted one, the raw one beside it: the page says what the gradebook's final columns say.
A score histogram and each rubric item's spread as inline SVG (no network, no script), each
case's pass rate, failures grouped by the first line where a program's output differs from
the expected (case + that expected/actual pair) with one representative side-by-side view and
the students in each group (in a small class where one submission owns most of the groups,
each submission's own failures gathered on one card instead), failed builds and missing files
with their reason. Everything a
submission printed goes through `visible`/`cap` and the template's HTML escaping.
"""
from dataclasses import dataclass, field
from pathlib import Path

from harness import atomic
from harness.judging.differences import first_differing_line, place
from harness.reporting import templates
from harness.results import FAILED, HARNESS_ERROR, PASSED, SubmissionResult, Verdict
from harness.safe_text import cap, visible, writable

BINS = 10
LINE_CHARS = 300  # of one output line shown
TEXT_CHARS = 600  # of a reason shown
CONTEXT_BEFORE, CONTEXT_AFTER = 3, 6  # lines around the first differing line in a group's view
EPSILON = 1e-6
# Failure groups seen in one submission each are folded under one line only in a class this
# large, when some group is shared and they are this many: in a small class nearly every
# failure is one student's, and folding them would hide the whole section.
SMALL_CLASS = 10
MANY_ALONE = 8
# In a class too small to fold, the failures seen in one submission each are gathered on one card
# per submission when one submission owns most of the groups and they are at least this many: a
# broken program's cards would otherwise bury everyone else's.
GATHER_FROM = 6


@dataclass
class Report:
    """A finished submission and the link to its report (relative to the page)."""
    result: SubmissionResult
    link: str
    reused: bool = False
    original: str = ""  # its name in the class folder, when the report's name is not that
    late: str = ""  # how it stands against the deadline, on one line (when a deadline is set)
    final: float | None = None  # the late-adjusted percent, when a deadline is set and a score is published


@dataclass
class Row:
    name: str
    link: str
    status: str
    percent: float
    earned: float
    possible: float
    passed: int
    total: int
    reason: str
    reused: bool
    original: str = ""  # the name in the class folder, shown when the report's name differs
    note: str = ""  # the handout's language not used
    late: str = ""  # how it stands against the deadline (docs/late-work.md)
    final: float | None = None  # the late-adjusted percent (None: no deadline, or no score)

    @property
    def score(self) -> float:
        """The score the class page shows where a score is: the final one when a deadline is set
        (a late penalty taken off), else the raw one."""
        return self.percent if self.final is None else self.final

    @property
    def adjusted(self) -> bool:
        """A late penalty moved this score: the raw one is shown beside it."""
        return self.final is not None and abs(self.final - self.percent) >= EPSILON


@dataclass
class Bin:
    low: int
    high: int
    graded: int  # submissions that built and ran
    other: int  # build failed, files missing, harness error


@dataclass
class ItemSpread:
    id: str
    title: str
    weight: float
    full: int
    partial: int
    zero: int
    not_counted: int
    mean: float | None  # over the submissions where the item counted


@dataclass
class CaseRate:
    name: str
    rubric: str
    passed: int
    ran: int  # submissions whose program ran this case (built)

    @property
    def percent(self) -> float:
        return 100.0 * self.passed / self.ran if self.ran else 0.0


@dataclass
class DiffLine:
    number: int  # 1-based line of the turn
    expected: str | None
    actual: str | None
    differs: bool


@dataclass
class FailureGroup:
    case: str
    rubric: str
    where: str  # "after input 3 ('d'), line 2", or the reason when no turn differs
    expected: str | None
    actual: str | None
    students: list[tuple[str, str]] = field(default_factory=list)  # (name, report link)
    view: list[DiffLine] = field(default_factory=list)  # the first student's turn, around the line
    replayed: bool = False  # the expected run is the reference replayed on the first student's own (random) start

    @property
    def shared(self) -> bool:
        """More than one submission failed this way (see `ClassPage.fold_alone`)."""
        return len(self.students) > 1

    @property
    def expected_words(self) -> str:
        """What the expected side is, in words a person reads."""
        if self.replayed and self.students:
            return f"the reference replayed on {self.students[0][0]}'s own start"
        return "what the reference printed for the case's inputs"


@dataclass
class Gathered:
    """One submission's failures seen in it alone, on one card: the groups, each a case."""
    name: str
    link: str
    groups: list[FailureGroup]


@dataclass
class Problem:
    name: str
    link: str
    status: str
    reason: str


@dataclass
class Since:
    """A class graded again: the grades that moved (classes.regrade.Change), the reports whose
    new student files wait for `harness publish`, and the history entry holding the old grades."""
    changes: list
    waiting: list[str]
    kept_in: str


@dataclass
class ClassPage:
    title: str
    milestone: str | None
    rows: list[Row]
    not_graded: list[str]
    bins: list[Bin]
    items: list[ItemSpread]
    cases: list[CaseRate]
    groups: list[FailureGroup]
    problems: list[Problem]
    order: list[str] | None = None  # the submissions' names in class order
    suspects: list = field(default_factory=list)  # reporting.suspects.Suspect
    since: Since | None = None
    similarity: object = None  # classes.similarity.Outcome: the link to similarity.html and its count

    @property
    def listing(self) -> list:
        """The table of every submission: a Row, or the name of one not graded (a stopped run), in
        class order when it is known."""
        listing = [*self.rows, *self.not_graded]
        if self.order is not None:
            place = {name: index for index, name in enumerate(self.order)}
            listing.sort(key=lambda row: place.get(row if isinstance(row, str) else row.name, len(place)))
        return listing

    @property
    def fold_alone(self) -> bool:
        """Fold the failures seen in one submission each under one line: only in a class of at
        least SMALL_CLASS submissions where some failure is shared and MANY_ALONE or more are
        not. Otherwise every group is shown open, the shared ones first."""
        alone = sum(not g.shared for g in self.groups)
        return len(self.rows) >= SMALL_CLASS and alone >= MANY_ALONE and any(g.shared for g in self.groups)

    @property
    def gathered(self) -> list[Gathered]:
        """The failures seen in one submission each, one card per submission, when the page is
        small enough not to fold them (`fold_alone`) and one submission owns most of the groups
        (at least GATHER_FROM of them); else empty, and every group is its own card."""
        if self.fold_alone:
            return []
        alone = [g for g in self.groups if not g.shared]
        owners: dict[str, Gathered] = {}
        for g in alone:
            name, link = g.students[0]
            owners.setdefault(name, Gathered(name, link, [])).groups.append(g)
        most = max((len(owner.groups) for owner in owners.values()), default=0)
        if most < GATHER_FROM or 2 * most <= len(self.groups):
            return []
        return sorted(owners.values(), key=lambda owner: (-len(owner.groups), owner.name))

    @property
    def tallest(self) -> int:
        return max([b.graded + b.other for b in self.bins] + [1])


def _shown(text: str | None, limit: int = LINE_CHARS) -> str | None:
    return None if text is None else visible(cap(text, limit))


def _histogram(rows: list[Row]) -> list[Bin]:
    """The scores as the page shows them (late-adjusted where a deadline is set)."""
    bins = [Bin(i * 100 // BINS, (i + 1) * 100 // BINS, 0, 0) for i in range(BINS)]
    for result in rows:
        index = min(int(result.score * BINS // 100), BINS - 1)
        if result.status == Verdict.GRADED:
            bins[index].graded += 1
        else:
            bins[index].other += 1
    return bins


def _items(results: list[SubmissionResult]) -> list[ItemSpread]:
    spreads: dict[str, ItemSpread] = {}
    sums: dict[str, list[float]] = {}
    for result in results:
        for item in result.items:
            if not item.graded:
                continue
            spread = spreads.setdefault(item.id, ItemSpread(item.id, item.title, item.weight, 0, 0, 0, 0, None))
            if not item.counted:
                spread.not_counted += 1
                continue
            sums.setdefault(item.id, []).append(item.earned)
            if item.earned >= item.weight - EPSILON:
                spread.full += 1
            elif item.earned <= EPSILON:
                spread.zero += 1
            else:
                spread.partial += 1
    for item_id, values in sums.items():
        spreads[item_id].mean = sum(values) / len(values)
    return list(spreads.values())


def _cases(results: list[SubmissionResult]) -> list[CaseRate]:
    rates: dict[str, CaseRate] = {}
    for result in results:
        for case in result.cases:
            rate = rates.setdefault(case.name, CaseRate(case.name, case.rubric, 0, 0))
            if not case.ran:
                continue
            rate.ran += 1
            rate.passed += case.status == PASSED
    return sorted(rates.values(), key=lambda r: (r.percent if r.ran else 101.0, r.name))


def _view(expected: str | None, actual: str | None, line: int) -> list[DiffLine]:
    mine = expected.split("\n") if expected is not None else []
    theirs = actual.split("\n") if actual is not None else []
    start, end = max(0, line - CONTEXT_BEFORE), min(max(len(mine), len(theirs)), line + CONTEXT_AFTER + 1)
    rows = []
    for index in range(start, end):
        a = mine[index] if index < len(mine) else None
        b = theirs[index] if index < len(theirs) else None
        rows.append(DiffLine(index + 1, _shown(a), _shown(b), a != b))
    return rows


def _groups(reports: list[Report]) -> list[FailureGroup]:
    groups: dict[tuple, FailureGroup] = {}
    for report in reports:
        for case in report.result.cases:
            if case.status != FAILED or not case.ran:
                continue
            turn = case.turns[case.first_divergence] if case.first_divergence is not None and case.turns else None
            if turn is not None and turn.expected != turn.actual:
                line, expected, actual = first_differing_line(turn.expected, turn.actual)
                where = f"{place(turn.index, turn.typed)}, line {line + 1}"
                key = (case.name, expected, actual)
            else:
                line, expected, actual = 0, None, None
                where = _shown(case.reason.split(";")[0], TEXT_CHARS) or "failed"
                key = (case.name, where)
            group = groups.get(key)
            if group is None:
                group = groups[key] = FailureGroup(case.name, case.rubric, where, _shown(expected), _shown(actual),
                                                   replayed=bool(case.starts))
                if turn is not None and turn.expected != turn.actual:
                    group.view = _view(turn.expected, turn.actual, line)
            group.students.append((report.result.name, report.link))
    return sorted(groups.values(), key=lambda g: (-len(g.students), g.case))


def _reason(result: SubmissionResult) -> str:
    reasons = [f"{t}: {b.reason}" + (f" — {b.further.splitlines()[0]}" if b.further else "")
               for t, b in result.builds.items() if not b.ok]
    if not reasons and result.status == Verdict.HARNESS_ERROR:
        reasons = [c.reason for c in result.cases if c.status == HARNESS_ERROR][:1]
    return _shown("; ".join(reasons), TEXT_CHARS) or ""


def summarise(reports: list[Report], not_graded: list[str], title: str, milestone: str | None,
              order: list[str] | None = None, suspects: list = (), since: Since | None = None) -> ClassPage:
    results = [r.result for r in reports]
    rows = [Row(r.result.name, r.link, r.result.status, r.result.percent, r.result.earned, r.result.possible,
                r.result.passed, r.result.total, _reason(r.result), r.reused,
                visible(r.original) if r.original and r.original != r.result.name else "",
                visible("; ".join(r.result.off_language)), visible(r.late), r.final) for r in reports]
    problems = [Problem(row.name, row.link, row.status, row.reason) for row in rows if row.status != Verdict.GRADED]
    return ClassPage(title, milestone, rows, list(not_graded), _histogram(rows), _items(results), _cases(results),
                     _groups(reports), problems, order,
                     list(suspects), since)


def render(page: ClassPage) -> str:
    return templates.environment().get_template("index.html.j2").render(p=page, bins=BINS)


def write(spec, milestone: str | None, reports: list[Report], not_graded: list[str], path: Path,
          order: list[str] | None = None, since: Since | None = None, suspects: list = (), similarity=None) -> Path:
    """Write the class page atomically; returns its path. `suspects`: reporting.suspects.find's."""
    page = summarise(reports, not_graded, spec.title, milestone, order, suspects, since)
    page.similarity = similarity
    return atomic.write_text(path, writable(render(page)))
