"""A case's accepted alternatives (`accept:`): a line the students wrote their own way that the
instructor accepted as also correct, recorded in the case as data a person reviews.

Each entry names a line of the expected transcript (`line`), the students' version (`also`),
optionally the turn it applies to (0 is the output before anything is typed) and why it was
accepted. An entry without `line` accepts `also` as an extra line (a welcome banner): it is
left out before the comparison. The entries are checked against the case's expected transcript when it is loaded:
an acceptance whose line the transcript no longer has (after a `regen`) is an error naming it,
never silently dropped."""
from dataclasses import dataclass

from harness.errors import InputError
from harness.transcript import Transcript


@dataclass(frozen=True)
class Acceptance:
    line: str | None  # the reference's line; None: `also` is accepted as an extra line
    also: str  # the students' version, read as `line`
    turn: int | None = None  # None: any turn
    why: str = ""

    def describe(self) -> str:
        where = f"turn {self.turn}" if self.turn is not None else "any turn"
        what = f"accepted for {self.line!r}" if self.line is not None else "accepted as an extra line"
        return f"{where}: {self.also!r} {what}" + (f" ({self.why})" if self.why else "")

    def to_data(self) -> dict:
        data: dict = {}
        if self.turn is not None:
            data["turn"] = self.turn
        if self.line is not None:
            data["line"] = self.line
        data["also"] = self.also
        if self.why:
            data["why"] = self.why
        return data


def parse(entries: list[dict] | None) -> tuple[Acceptance, ...]:
    return tuple(Acceptance(str(e["line"]) if "line" in e else None, str(e["also"]), e.get("turn"),
                            str(e.get("why", ""))) for e in entries or ())


def expected_turns(transcript: Transcript) -> list[list[str]]:
    """The expected transcript's output lines, turn by turn (a turn ends where a line is typed)."""
    turns: list[str] = [""]
    for event in transcript:
        if "in" in event:
            turns.append("")
        else:
            turns[-1] += event.get("out", "")
    return [[line.rstrip() for line in text.split("\n")] for text in turns]


def check(accepted: tuple[Acceptance, ...], transcript: Transcript | None, path, line_of) -> None:
    """Each acceptance names a line its turn of the expected transcript has (when the case has
    a transcript of its own: a random start's is the reference's at grading time)."""
    if not accepted or transcript is None:
        return
    turns = expected_turns(transcript)
    for index, entry in enumerate(accepted):
        where = line_of(["accept", index])
        if not entry.also.strip():
            raise InputError(f"accept[{index}]: `also` is blank; give the students' line", path, where)
        if entry.line is not None and entry.line.rstrip() == entry.also.rstrip():
            raise InputError(f"accept[{index}]: `also` is the same line as `line`; give the students' version",
                             path, where)
        if entry.turn is not None and entry.turn >= len(turns):
            raise InputError(f"accept[{index}]: turn {entry.turn} is past the expected transcript's last turn "
                             f"({len(turns) - 1}); fix the turn or remove the entry", path, where)
        looked = [turns[entry.turn]] if entry.turn is not None else turns
        if entry.line is not None and not any(entry.line.rstrip() in lines for lines in looked):
            at = f"turn {entry.turn} of " if entry.turn is not None else ""
            raise InputError(f"accept[{index}]: {entry.line!r} is not a line of {at}the expected transcript "
                             "(did `regen` change it?); fix `line` to the reference's text or remove the entry",
                             path, where)
