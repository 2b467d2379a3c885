"""Reading the game instead of the glyphs: a turn's output as the facts a person reads in it.

A spec's state reader (`state: {read: module:function, carry: [kinds]}`, a function of the game's
reference module) turns a turn's output into (kind, value) facts, whatever the drawing and the
wording: the board drawn, the player asked to move or named the winner. An item whose policy
says `facts:` compares those facts instead of the text:
- `shown`: every fact of a carried kind (the board) in the order drawn, then the last fact of
  each other kind in the turn: "is the right board shown at the right moments";
- `state`: the state at the end of each turn: the last value of each carried kind, drawn in this
  turn or before, then the last value of each other kind in the turn: "is the game where the
  reference's is after every input" (a refused move leaves the board as it was and the same
  player is asked again, whatever the words around it).

Two kinds of fact need more than equality ("free words, required meaning"):
- a `presence` kind (a message in the program's own words) must be in a turn where the expected
  turn has one, and may be anywhere else: no message where the handout asks for one fails, a
  chattier program does not;
- a `single` kind (the winner) must say one thing in a turn: two different values ("Player 1
  wins! Player 2 wins!") read as an ambiguous answer that matches nothing.

A message is recognised by what the turn expects, never by the first pattern a line fits: a
reader function with `expects = True` is also given the facts of the reference's turn for the
same inputs (`read(text, expected=[(kind, value), ...])`) when it reads the program's turn. A
line that fits several readings (a winner line that names the game, which is also a welcome's
words) is read, with `choose`, as the one of its readings the turn expects; a line is never read
as a kind it cannot be read as, so the expected facts choose among a line's readings and never
add one. The same board the reference drew is what such a reader may learn a drawing from
(judging/drawing.py): a known state.
"""
from dataclasses import dataclass, field
from typing import Callable, Sequence, TypeVar

Reading = TypeVar("Reading")

MODES = ("off", "shown", "state")


@dataclass(frozen=True)
class StateReader:
    """Reads the game's state (the facts) from a turn's text, so a drawing of the board is compared by what it shows."""
    read: Callable[[str], list[tuple[str, str]]]
    carry: tuple[str, ...] = ()
    presence: tuple[str, ...] = ()  # kinds whose presence, not value, counts, and only where expected
    single: tuple[str, ...] = ()  # kinds of which a turn must say one thing
    _read_before: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def expects(self) -> bool:
        """The reader reads a program's turn knowing what the reference's turn shows."""
        return getattr(self.read, "expects", False) is True

    def facts(self, text: str, expected: tuple[tuple[str, str], ...] | None = None) -> list[tuple[str, str]]:
        """The facts of a turn's text (`expected`: the reference's facts of that turn, for a
        reader that `expects` them); a text read before with the same expectation (the same turn
        in the expected and the program's transcript, as in every turn a program gets right) is
        not read again."""
        expected = expected if self.expects else None
        found = self._read_before.get((text, expected))
        if found is None:
            read = self.read(text) if expected is None else self.read(text, expected=list(expected))
            found = self._read_before[(text, expected)] = list(read)
        return found


def choose(readings: Sequence[Reading], kind: Callable[[Reading], str], expected: Sequence[tuple[str, str]] | None,
           value: Callable[[Reading], str] | None = None) -> Reading:
    """The reading of one line the turn expects: the first of its `readings` (every way the line
    can be read, the likeliest first) whose kind the expected turn shows, else the likeliest.
    With `value`, a reading whose very fact (kind and value) the turn shows comes first: a prompt
    whose words name neither of two questions is read as the question the turn asks."""
    if value is not None:
        shown = set(expected or ())
        found = next((reading for reading in readings if (kind(reading), value(reading)) in shown), None)
        if found is not None:
            return found
    kinds = {found for found, _ in expected or ()}
    return next((reading for reading in readings if kind(reading) in kinds), readings[0])


def fact_turns(turns: list[str], reader: StateReader, mode: str, expected: list[str] | None = None) -> list[str]:
    """Each turn's text replaced by its facts, one `kind: value` line each; `expected`: the
    reference's turns (the printed text), when `turns` are the program's."""
    carried: dict[str, str] = {}
    out = []
    for index, text in enumerate(turns):
        lines, last, said = [], {}, {}
        known = None
        if expected is not None and reader.expects:
            known = tuple(reader.facts(expected[index])) if index < len(expected) else ()
        for kind, value in reader.facts(text, known):
            if kind in reader.carry:
                carried[kind] = value
                if mode == "shown":
                    lines.append(f"{kind}: {value}")
            else:
                said.setdefault(kind, set()).add(value)
                last[kind] = value
        for kind in reader.single:
            if len(said.get(kind, ())) > 1:
                last[kind] = " and ".join(sorted(said[kind])) + " (two different answers)"
        if mode == "state":
            lines += [f"{kind}: {carried[kind]}" for kind in reader.carry if kind in carried]
        lines += [f"{kind}: {value}" for kind, value in last.items()]
        out.append("\n".join(lines))
    return out


def describe(mode: str) -> str:
    return {"shown": "the game's states as drawn (any drawing, any wording)",
            "state": "the game's state after each input (any drawing, any wording)"}.get(mode, "")


def required_only(expected: list[str], actual: list[str], reader: StateReader) -> list[str]:
    """The program's fact turns with each `presence` kind kept only where the expected turn has
    it: a message the handout asks for must be there, one it does not ask for costs nothing."""
    if not reader.presence:
        return actual
    out = []
    for index, turn in enumerate(actual):
        wanted = expected[index] if index < len(expected) else ""
        drop = [kind for kind in reader.presence if not _has_kind(wanted, kind)]
        out.append("\n".join(line for line in turn.split("\n") if not any(line.startswith(f"{kind}: ") for kind in drop))
                   if drop else turn)
    return out


def _has_kind(turn: str, kind: str) -> bool:
    return turn.startswith(f"{kind}: ") or f"\n{kind}: " in turn
