"""Suspect cases: a case, and the turn in it, where many submissions that do well elsewhere
diverge from the expected text at the same line — the sign of an unclear handout or of a case
stricter than the handout. Found from the class's results alone; each way the submissions
wrote the line comes with the `harness accept` command that would accept it.

A divergence is suspect when at least `MIN_SUBMISSIONS` submissions, and at least
`MIN_SHARE` of those that ran the case, diverge at the same line of the same turn, and those
submissions pass, on average, at least `DOING_WELL` of their other cases. (The expected line
itself may differ between them: a random start's transcript is the reference's from the start
each program drew.)

A rewording recurs wherever its line does (the same refusal at every illegal try), so when the
case's expected transcript has the line at more than one turn, the command accepts it at any
turn: one command covers every turn where the same substitution happens, not the first alone.

An acceptance is a door: every program that prints the line passes there from then on. Two
students who work together can print the same wrong line and make it look common, so each way
of writing the line says whose failing line the acceptance turns to passing, and, when fewer
than `FEW` submissions print it, that it should be read against the handout first; its command
records the count in the case file (`why`), where `harness audit` shows it beside what the
acceptance lets through. `let_through` finds the same submissions for `harness accept`."""
import shlex
from dataclasses import dataclass, field

from harness.judging.differences import first_differing_line, spacing_aside
from harness.errors import InputError
from harness.loading import cases as caseload
from harness.loading.acceptances import expected_turns
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.results import FAILED, PASSED, SubmissionResult, Turn
from harness.safe_text import cap, visible

MIN_SUBMISSIONS = 2
MIN_SHARE = 0.25
DOING_WELL = 0.8
LINE_CHARS = 300
FEW = 5  # an acceptance fewer submissions than this ask for is read against the handout before it is made


def _norm(line: str | None) -> str | None:
    return None if line is None else spacing_aside(line)


@dataclass
class Variant:
    """One way the submissions wrote the line, and how many did."""
    actual: str | None  # None: the line is missing
    expected: str | None  # the expected line they diverge from
    count: int
    extra: bool  # their line comes before the expected one: an extra line, not a rewording
    command: str  # the `harness accept` that accepts it ("" when none can: a missing line)
    students: list[str] = field(default_factory=list)  # the submissions that print it, whose case it would pass

    @property
    def lets_through(self) -> str:
        """What accepting it does, said for the instructor (the class page's card)."""
        return lets_through_said(self.students)


@dataclass
class Suspect:
    case: str
    rubric: str
    turn: int
    typed: str | None  # the line typed before the turn
    expected: str | None  # the expected line where they diverge
    submissions: int  # that diverge there
    ran: int  # that ran the case
    elsewhere: float  # the share of their other cases they pass (0..1)
    variants: list[Variant] = field(default_factory=list)
    students: list[tuple[str, str]] = field(default_factory=list)  # (name, report link)

    @property
    def share(self) -> float:
        return self.submissions / self.ran if self.ran else 0.0


def _elsewhere(result: SubmissionResult, case: str) -> float | None:
    others = [c for c in result.cases if c.name != case and c.ran]
    return sum(c.status == PASSED for c in others) / len(others) if others else None


def command(game: str, case: str, turn: int | None, expected: str | None, actual: str, extra: bool,
            why: str = "") -> str:
    """The `harness accept` that accepts `actual` (for `expected`, or as an extra line) at
    `turn`; at any turn when `turn` is None; `why` is recorded with it in the case file."""
    words = ["harness", "accept", game, case] + ([f"--turn={turn}"] if turn is not None else [])
    if not extra and expected is not None:
        words.append(f"--line={expected}")  # joined to its option: a line may start with '-'
    words.append(f"--also={actual}")
    if why:
        words.append(f"--why={why}")
    return " ".join(shlex.quote(w) for w in words)


def asked_by(count: int, ran: int) -> str:
    """The `why` a suggested acceptance records: how many submissions asked for it (and, when
    they are few, that it was to be read against the handout: the audit shows it so)."""
    if count < FEW:
        return f"suggested by the class page: only {count} of {ran} submissions print it; read it against the handout"
    return f"suggested by the class page: {count} of {ran} submissions print it"


def lets_through_said(students: list[str]) -> str:
    """Whose failing line an acceptance turns to passing, and a warning when they are few."""
    if not students:
        return "Accepting it turns no graded submission's line from failing to passing."
    count = len(students)
    said = (f"Accepting it turns the line of {count} submission{'s' if count != 1 else ''} from failing to passing "
            f"({', '.join(students)}), and lets through any program that prints it there from now on.")
    if count < FEW:
        said += (f" Only {count} submission{'s' if count != 1 else ''} print{'s' if count == 1 else ''} it: read it "
                 "against the handout before accepting it, since students who work together can make a wrong line "
                 "look common.")
    return said


def _divergence(case) -> tuple[Turn, int, str, str | None, bool] | None:
    """Where a failed case's first divergent turn first differs: (the turn, line index, expected
    line, the program's line or None, whether its line is an extra one before the expected)."""
    if case.status != FAILED or case.first_divergence is None or not case.turns:
        return None
    turn = case.turns[min(case.first_divergence, len(case.turns) - 1)]
    if turn.expected is None or turn.actual is None or turn.expected == turn.actual:
        return None
    index, expected, actual = first_differing_line(turn.expected, turn.actual)
    if expected is None:
        return None
    later = turn.actual.split("\n")[index + 1:index + 2]
    extra = actual is not None and bool(later) and _norm(later[0]) == _norm(expected)
    return turn, index, expected, actual, extra


def let_through(results: list[SubmissionResult], case: str, line: str | None, also: str,
                turn: int | None) -> list[str]:
    """The submissions (by name) that failed `case` first at a line the acceptance (`also` for
    `line`, or as an extra line; at `turn`, or any) covers: those it turns from failing to passing there."""
    names = []
    for result in results:
        for ran in result.cases:
            found = _divergence(ran) if ran.name == case and ran.ran else None
            if found is None or (turn is not None and found[0].index != turn):
                continue
            _, _, expected, actual, extra = found
            covered = extra if line is None else not extra and _norm(expected) == _norm(line)
            if covered and _norm(actual) == _norm(also):
                names.append(result.name)
    return sorted(set(names))


def recurring(case: Case | None, expected: str | None) -> bool:
    """The expected line is at more than one turn of the case's expected transcript: a
    substitution of it recurs, and its acceptance is for any turn."""
    events = (case.expect or {}).get("transcript") if case is not None else None
    if not events or expected is None:
        return False
    line = expected.rstrip()
    return sum(line in lines for lines in expected_turns(events)) > 1


def _case(spec: Spec | None, name: str) -> Case | None:
    """A suspect's case as its file says now (None without a spec, or if it cannot be read)."""
    if spec is None:
        return None
    path = next((p for p in caseload.case_files(spec) if p.stem == name), None)
    try:
        return None if path is None else caseload.load_case(path, spec)
    except (InputError, OSError):  # a case edited since the grading: the command falls back on the one turn
        return None


def find(game: str, reports: list[tuple[SubmissionResult, str]], spec: Spec | None = None) -> list[Suspect]:
    """The suspect divergences of a class, most submissions first. `reports`: each finished
    submission's (slim) result and the link to its report; `spec`: where a suspect's case is read,
    for the turns its line recurs at."""
    ran: dict[str, int] = {}
    spots: dict[tuple, dict] = {}
    for result, link in reports:
        for case in result.cases:
            if not case.ran:
                continue
            ran[case.name] = ran.get(case.name, 0) + 1
            found = _divergence(case)
            if found is None:
                continue
            turn, index, expected, actual, extra = found
            key = (case.name, turn.index, index)
            spot = spots.setdefault(key, {"rubric": case.rubric, "typed": turn.typed, "members": [], "variants": {}})
            spot["members"].append((result, link))
            spot["variants"].setdefault((actual, expected, extra), []).append(result.name)
    found = []
    for (case, turn, _), spot in spots.items():
        members = spot["members"]
        if len(members) < MIN_SUBMISSIONS or len(members) < MIN_SHARE * ran[case]:
            continue
        scores = [s for s in (_elsewhere(result, case) for result, _ in members) if s is not None]
        if not scores or sum(scores) / len(scores) < DOING_WELL:
            continue
        read = _case(spec, case)
        variants = [Variant(_shown(actual), _shown(expected), len(names), extra,
                            command(game, case, None if not extra and recurring(read, expected) else turn,
                                    expected, actual, extra, asked_by(len(names), ran[case]))
                            if _typeable(actual, expected) else "", sorted(names))
                    for (actual, expected, extra), names in sorted(spot["variants"].items(), key=lambda kv: -len(kv[1]))]
        extras = {(v.actual, v.extra) for v in variants}
        if len(extras) == 1 and variants[0].extra:  # one extra line, before whatever start each drew: one command
            variants = [Variant(variants[0].actual, None, len(members), True,
                                command(game, case, turn, None, _raw(spot, variants[0]), True,
                                        asked_by(len(members), ran[case]))
                                if variants[0].command else "", sorted(result.name for result, _ in members))]
        expecteds = {v.expected for v in variants}
        found.append(Suspect(case, spot["rubric"], turn, _shown(spot["typed"]),
                             expecteds.pop() if len(expecteds) == 1 else None, len(members),
                             ran[case], sum(scores) / len(scores), variants,
                             [(result.name, link) for result, link in members]))
    return sorted(found, key=lambda s: (-s.submissions, s.case, s.turn))


def _raw(spot: dict, variant: Variant) -> str:
    """The variant's line as the programs printed it (not as shown)."""
    return next(actual for actual, _, extra in spot["variants"] if extra and actual is not None)


def _typeable(actual: str | None, expected: str) -> bool:
    """A line an instructor can accept with a command as it is shown: printable, not blank, short."""
    return all(text is not None and text.strip() and text.isprintable() and len(text) <= LINE_CHARS
               for text in (actual, expected))


def _shown(text: str | None) -> str | None:
    return None if text is None else visible(cap(text, LINE_CHARS))
