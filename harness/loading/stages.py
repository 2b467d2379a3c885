"""The spec's `hidden_stages:`: what a student is shown of a failed hidden case, from given
dates on. Before the first date a student sees how many hidden cases there are; each stage
shows more:

| show         | a failed hidden case shows                                             |
|--------------|------------------------------------------------------------------------|
| `count`      | nothing but the count (the default, and what stays before any stage)   |
| `names`      | its name and description                                               |
| `turn`       | and the turn where the program's output first differs (the expected    |
|              | text and the hidden inputs withheld)                                   |
| `transcript` | the whole case, as a public one: inputs, expected and actual           |

Stages come in time order and never show less than the one before."""
from dataclasses import dataclass
from datetime import datetime, timezone

from harness.errors import InputError

COUNT, NAMES, TURN, TRANSCRIPT = "count", "names", "turn", "transcript"
LEVELS = (COUNT, NAMES, TURN, TRANSCRIPT)


@dataclass(frozen=True)
class Stage:
    start: datetime  # with its time zone
    show: str  # one of LEVELS


@dataclass(frozen=True)
class Now:
    """The stage that applies at a moment, and the one that comes next (None: the last)."""
    show: str
    since: datetime | None
    next: Stage | None

    def describe(self) -> str:
        what = {COUNT: "how many hidden cases there are", NAMES: "the name and description of each failed hidden case",
                TURN: "each failed hidden case's name and the turn where your output first differs",
                TRANSCRIPT: "each failed hidden case in full"}
        said = f"Hidden cases: you are shown {what[self.show]}"
        said += f" (since {self.since.isoformat()})." if self.since else "."
        if self.next is not None:
            said += f" From {self.next.start.isoformat()} on: {what[self.next.show]}."
        return said


def at(stages: tuple[Stage, ...], moment: datetime | None = None) -> Now:
    moment = moment or datetime.now(timezone.utc)
    current, since = COUNT, None
    for index, stage in enumerate(stages):
        if stage.start <= moment:
            current, since = stage.show, stage.start
        else:
            return Now(current, since, stage)
    return Now(current, since, None)


def parse(doc, when) -> tuple[Stage, ...]:
    """The spec's `hidden_stages:` (schema-checked: a list of {from, show}); `when(keys, value)`
    reads a date with its zone (the spec's own date reader, which names the line)."""
    entries = doc.data.get("hidden_stages") or []
    stages = []
    for index, entry in enumerate(entries):
        start = when(["hidden_stages", index, "from"], entry["from"])
        stage = Stage(start, entry["show"])
        if stages and stage.start <= stages[-1].start:
            raise InputError(f"hidden_stages[{index}] starts at or before the stage above it; list the stages "
                             "in time order", doc.path, doc.line_of(["hidden_stages", index]))
        if stages and LEVELS.index(stage.show) < LEVELS.index(stages[-1].show):
            raise InputError(f"hidden_stages[{index}] shows less ({stage.show}) than the stage before it "
                             f"({stages[-1].show}); a stage may only show more", doc.path,
                             doc.line_of(["hidden_stages", index, "show"]))
        stages.append(stage)
    return tuple(stages)
