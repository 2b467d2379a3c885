"""A case's accepted alternatives applied to a program's output: in the turn an acceptance names
(or any turn), a line that is exactly the students' version (line ends aside) is read as the
reference's line (or left out, for an accepted extra line) before anything compares or reads
it. The program's own lines stay what reports show."""
from harness.loading.acceptances import Acceptance
from harness.transcript import Transcript


def apply(accepted: tuple[Acceptance, ...], events: Transcript) -> tuple[Transcript, list[Acceptance]]:
    """The events with accepted lines read as the reference's, and the acceptances that applied."""
    if not accepted:
        return events, []
    used: list[Acceptance] = []
    out: Transcript = []
    turn, pending = 0, ""

    def flush() -> None:
        nonlocal pending
        if pending:
            out.append({"out": _replaced(pending, turn, accepted, used)})
            pending = ""

    for event in events:
        if "out" in event:
            pending += event["out"]
            continue
        flush()
        out.append(event)
        if "in" in event:
            turn += 1
    flush()
    return out, list(dict.fromkeys(used))


def _replaced(text: str, turn: int, accepted: tuple[Acceptance, ...], used: list[Acceptance]) -> str:
    kept = []
    for line in text.split("\n"):
        bare = line.rstrip()
        for entry in accepted:
            if (entry.turn is None or entry.turn == turn) and bare and bare == entry.also.rstrip():
                used.append(entry)
                if entry.line is not None:
                    kept.append(entry.line + line[len(bare):])
                break
        else:
            kept.append(line)
    return "\n".join(kept)
