"""The counterexample's typed data: the context a game is judged in, a judged run, and what is shown.

A game is a sequence of typed lines played in a context taken from a case (its milestone, target,
arguments, seed and rubric item), so it is judged exactly as that case's item judges a run."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Context:
    """Where a game is played and how it is judged: a case's all but its inputs."""
    case: str  # the case it is taken from (its name, for the report's panel)
    milestone: str | None
    target: str
    rubric: str
    args: tuple[str, ...]
    seed: int | None
    compare: str  # the case's own comparison overrides, as JSON ("null": none)
    limits: str  # the case's own limits, as JSON


@dataclass(frozen=True)
class Trial:
    """One run of a game, judged: whether it differs, and at which turn."""
    inputs: tuple[str, ...]
    differs: bool
    turn: int | None = None  # the first differing turn (turn k follows the k-th typed line)
    expected: str | None = None  # the reference's output at that turn, and nothing after it
    actual: str | None = None  # the program's output at that turn
    expected_end: str = ""
    actual_end: str = ""
    start: str | None = None  # the start the program drew, where it draws one
    reason: str = ""


@dataclass
class Counterexample:
    """A shrunk game that differs three runs of three: the inputs up to the first differing turn
    and both outputs at that turn, never the reference's after it."""
    game: str
    context: Context
    inputs: tuple[str, ...]
    turn: int
    expected: str | None
    actual: str | None
    expected_end: str
    actual_end: str
    start: str | None
    partly_shrunk: bool
    runs: int  # the program's runs, search, shrink and replays together
    seconds: float
    exhaustive: bool  # every game of up to three lines was tried first
    replay: str = ""  # one command that replays it
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The form a report keeps (JSON): what a student may see of it."""
        return {"game": self.game, "case": self.context.case, "rubric": self.context.rubric,
                "inputs": list(self.inputs), "turn": self.turn, "expected": self.expected,
                "actual": self.actual, "expected_end": self.expected_end, "actual_end": self.actual_end,
                "start": self.start, "partly_shrunk": self.partly_shrunk, "runs": self.runs,
                "seconds": round(self.seconds, 2), "exhaustive": self.exhaustive, "replay": self.replay,
                "notes": list(self.notes)}
