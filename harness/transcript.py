"""A transcript: what a program printed and what was typed into it, in order.

An event is `{"out": text}` (output, as read from the terminal) or `{"in": line}` (a line typed,
without its newline). The same shape is a case file's `transcript:` (cases/*.yaml), a stored
result's `expected` and `actual`, and what a run records, so a transcript goes from YAML to the
comparison to result.json unchanged; these types name it, and the helpers below are the one way
to read its output or its inputs.
"""
from typing import TypedDict

Output = TypedDict("Output", {"out": str})
Input = TypedDict("Input", {"in": str})
Event = Output | Input
Transcript = list[Event]


def output(events: Transcript) -> str:
    """Everything the program printed, joined."""
    return "".join(event.get("out", "") for event in events)


def typed(events: Transcript) -> list[str]:
    """The lines typed into the program, in order."""
    return [event["in"] for event in events if "in" in event]
