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
"""
from dataclasses import dataclass, field
from typing import Callable

MODES = ("off", "shown", "state")


@dataclass(frozen=True)
class StateReader:
    """Reads the game's state (the facts) from a turn's text, so a drawing of the board is compared by what it shows."""
    read: Callable[[str], list[tuple[str, str]]]
    carry: tuple[str, ...] = ()
    _read_before: dict = field(default_factory=dict, compare=False, repr=False)

    def facts(self, text: str) -> list[tuple[str, str]]:
        """The facts of a turn's text; a text read before (the same turn in the expected and
        the program's transcript, as in every turn a program gets right) is not read again."""
        found = self._read_before.get(text)
        if found is None:
            found = self._read_before[text] = list(self.read(text))
        return found


def fact_turns(turns: list[str], reader: StateReader, mode: str) -> list[str]:
    """Each turn's text replaced by its facts, one `kind: value` line each."""
    carried: dict[str, str] = {}
    out = []
    for text in turns:
        lines, last = [], {}
        for kind, value in reader.facts(text):
            if kind in reader.carry:
                carried[kind] = value
                if mode == "shown":
                    lines.append(f"{kind}: {value}")
            else:
                last[kind] = value
        if mode == "state":
            lines += [f"{kind}: {carried[kind]}" for kind in reader.carry if kind in carried]
        lines += [f"{kind}: {value}" for kind, value in last.items()]
        out.append("\n".join(lines))
    return out


def describe(mode: str) -> str:
    return {"shown": "the game's states as drawn (any drawing, any wording)",
            "state": "the game's state after each input (any drawing, any wording)"}.get(mode, "")
