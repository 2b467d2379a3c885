"""The audit's results: each mutant's status, what the search found for a survivor (and how its
runs ended), each graded item's verdict, and the audit as the reports read it. Statuses and
findings are enums whose values are the reports' words; nothing is decided by reading a text."""
from dataclasses import dataclass, field
from enum import StrEnum

from harness.outcome import End, Kind
from harness.suite import mutants


class MutantStatus(StrEnum):
    """What grading a mutant came to (the value is the reports' word)."""
    KILLED = "killed"  # a case failed on it (or could not grade it)
    SURVIVED = "survived"  # every case that reaches its lines passed
    NOT_REACHED = "not-reached"  # no case executes its lines (before the search)
    ERROR = "error"  # the harness itself failed on a case
    NOT_VIABLE = "not-viable"  # a mutant of a compiled reference that does not compile: in no score
    UNREACHABLE = "unreachable"  # no case and no sequence of the search executes its lines


class Finding(StrEnum):
    """What the search says of a survivor, or of a mutant no case reaches."""
    EXPOSED = "exposed"  # an input a case of some graded item would kill it with
    LIBERTY = "liberty"  # its output differs, but no graded item's comparison sees it
    EQUIVALENT = "equivalent"  # no difference found: probably equivalent
    UNREACHABLE = "unreachable"  # no sequence executes its lines


# how a compiled reference's survivors are shown: their status stays SURVIVED (`Audit.explained`
# is False), these are only the words
NOT_EXPLAINED = "survived (not explained: the search runs Python references only)"


@dataclass(frozen=True)
class SearchEnd:
    """How one of the search's runs ended: as a program's run ends (`End`: an exit status,
    waiting for more input, a timeout, the output limit), or, the module being run in-process,
    by an exception it did not catch (where a process would exit with status 1, the search
    tells the crash and its exception apart)."""
    end: End | None  # None: it crashed
    crash: str | None = None  # the exception's name, for a crash

    @property
    def error_status(self) -> bool:
        """It exited by itself with a status other than 0 (a crash is not an exit)."""
        return self.end is not None and self.end.kind is Kind.EXIT and self.end.status != 0

    def __str__(self) -> str:
        """The reports' words: `exit N`, `crash NAME`, `waiting`, `timeout` or `output-limit`."""
        if self.end is None:
            return f"crash {self.crash}"
        if self.end.kind is Kind.EXIT:
            return f"exit {self.end.status}"
        return str(self.end)


@dataclass
class Search:
    """What the search found for one mutant."""
    verdict: Finding
    tried: int  # sequences run on the mutant (those reaching its lines)
    case: str | None = None  # the case the exposing sequence grew from
    milestone: str | None = None
    target: str | None = None
    inputs: list[str] = field(default_factory=list)
    seed: int | None = None
    expected: str = ""  # the reference's output on it
    actual: str = ""  # the mutant's
    expected_end: SearchEnd | None = None  # how the reference's run ended
    actual_end: SearchEnd | None = None  # the mutant's
    items: list[str] = field(default_factory=list)  # graded items whose comparison the inputs fail

    def says(self) -> str:
        if self.verdict is Finding.EXPOSED:
            return (f"exposed by {len(self.inputs)} input(s) grown from {self.case}: a case of "
                    f"{', '.join(self.items)} with them kills it")
        if self.verdict is Finding.LIBERTY:
            return (f"its output differs on {len(self.inputs)} input(s) grown from {self.case}, but no graded item's "
                    "comparison sees the difference: a liberty the spec leaves (or an item to add)")
        if self.verdict is Finding.UNREACHABLE:
            return f"unreachable: no case and none of {self.tried} searched sequences executes its lines"
        return f"no difference found in {self.tried} sequences: probably equivalent"


@dataclass
class MutantResult:
    mutant: mutants.Mutant
    status: MutantStatus
    ran: list[str] = field(default_factory=list)  # the cases run on it (those reaching its lines)
    killed_by: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # cases the harness itself failed on
    skipped: int = 0  # reaching cases not run: their item had already killed it
    seconds: float = 0.0
    search: Search | None = None  # for a survivor (or a mutant no case reaches): what the search found
    reason: str = ""  # why it is not viable: the compiler's first error
    let_through: list[str] = field(default_factory=list)  # "case: acceptance" it passed only through
    drawn_for: str | None = None  # the graded item it stands for (the item whose code it breaks: see audit_run.own_item)
    lost: list[str] = field(default_factory=list)  # the graded items it loses points in, graded as a submission
    # the items it loses besides its own in its own item's milestone (another milestone is another
    # deliverable, where the same bug costs again): what one mistake costs beyond its one deduction
    collateral: list[str] = field(default_factory=list)


@dataclass
class ItemAudit:
    id: str
    title: str
    cases: list[str]
    killed: int  # mutants killed by at least one of its cases
    total: int  # viable mutants audited (all of a Python reference's)
    exposed: int = 0  # survivors an input was found for that a case of this item would kill
    drawn: int = 0  # mutants drawn for this item (their own item)
    drawn_killed: int = 0  # of those, killed
    recalled: int = 0  # of those killed, the ones that lose this item
    spilled: int = 0  # of those killed, the ones that lose another item too

    @property
    def recall(self) -> float | None:
        """Of the mutants drawn for this item and killed, the share that lose it (None: none killed)."""
        return self.recalled / self.drawn_killed if self.drawn_killed else None

    @property
    def collateral(self) -> float | None:
        """Of the mutants drawn for this item and killed, the share that lose another item."""
        return self.spilled / self.drawn_killed if self.drawn_killed else None

    @property
    def score(self) -> float:
        """Killed out of the mutants this item's cases kill or should: killed / (killed + the
        survivors with an exposing input its comparison sees); 1 when it has neither."""
        judged = self.killed + self.exposed
        return self.killed / judged if judged else 1.0

    @property
    def passed(self) -> bool:
        return self.killed > 0


@dataclass
class Audit:
    game: str
    title: str
    milestones: list[str | None]
    reference: str
    made: int  # mutants the operators made
    sample: int | None
    seed: int
    cases: int
    results: list[MutantResult]
    items: list[ItemAudit]
    seconds: float
    searched: int = 0  # sequences the search grew (0: no search)
    explained: bool = True  # False: the reference is compiled, its survivors are not searched

    @property
    def passed(self) -> bool:
        return all(item.passed for item in self.items)

    @property
    def viable(self) -> int:
        """The mutants audited that are programs (a compiled reference's mutant may not compile)."""
        return len(self.results) - self.count(MutantStatus.NOT_VIABLE)

    @property
    def score(self) -> float:
        """The mutation score: killed out of the viable mutants audited (1 when there are none)."""
        return self.count(MutantStatus.KILLED) / self.viable if self.viable else 1.0

    @property
    def recall(self) -> float | None:
        """The game's recall: every item's drawn and killed mutants together."""
        killed = sum(i.drawn_killed for i in self.items)
        return sum(i.recalled for i in self.items) / killed if killed else None

    @property
    def collateral(self) -> float | None:
        killed = sum(i.drawn_killed for i in self.items)
        return sum(i.spilled for i in self.items) / killed if killed else None

    def spilling(self) -> list[MutantResult]:
        """The killed mutants that lose an item besides their own, the most items first: the
        charging's misses to act on."""
        found = [r for r in self.results if r.status is MutantStatus.KILLED and r.drawn_for and r.collateral]
        return sorted(found, key=lambda r: (-len(r.collateral), r.mutant.id))

    def missing(self) -> list[MutantResult]:
        """The killed mutants that do not lose their own item."""
        return [r for r in self.results if r.status is MutantStatus.KILLED and r.drawn_for
                and r.drawn_for not in r.lost]

    def count(self, status: MutantStatus) -> int:
        return sum(1 for r in self.results if r.status is status)

    def verdicts(self, finding: Finding) -> list[MutantResult]:
        return [r for r in self.results if r.search is not None and r.search.verdict is finding]
