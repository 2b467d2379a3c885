"""How a run ended: one type, and its wording in one place.

A run ends with an exit status, a signal, `waiting` (the inputs ran out while the program
reads), `timeout` (a turn or the whole run over its limit) or `output-limit`. Cases store it
as a plain value (`0`, `"waiting"`, `"signal SIGSEGV"`); everything else uses `End`.
"""
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """The kinds of a run's end (the strings are a case file's and result.json's)."""
    EXIT = "exit"
    SIGNAL = "signal"
    WAITING = "waiting"
    TIMEOUT = "timeout"
    OUTPUT_LIMIT = "output-limit"


KINDS = tuple(Kind)


@dataclass(frozen=True)
class End:
    """How a run ended (exit status, signal, waiting, timeout, output limit), compared with a case's."""
    kind: Kind
    status: int | None = None  # the exit status, for kind "exit"
    signal: str | None = None  # the signal's name (SIGSEGV), for kind "signal"

    def __post_init__(self):
        object.__setattr__(self, "kind", Kind(self.kind))  # a plain string given is checked and typed here

    @classmethod
    def exited(cls, status: int) -> "End":
        return cls(Kind.EXIT, status=status)

    @classmethod
    def killed(cls, name: str) -> "End":
        return cls(Kind.SIGNAL, signal=name)

    @classmethod
    def parse(cls, value) -> "End":
        """From a case file's `exit:` value (already checked by the case schema)."""
        if isinstance(value, End):
            return value
        if isinstance(value, bool):
            raise ValueError(f"not a run end: {value!r}")
        if isinstance(value, int):
            return cls.exited(value)
        if isinstance(value, str) and value.startswith("signal "):
            return cls.killed(value.split(" ", 1)[1])
        if value in (Kind.WAITING, Kind.TIMEOUT, Kind.OUTPUT_LIMIT):
            return cls(Kind(value))
        raise ValueError(f"not a run end: {value!r}")

    @property
    def value(self) -> int | str:
        """The plain value a case file and result.json hold."""
        if self.kind == Kind.EXIT:
            return self.status
        if self.kind == Kind.SIGNAL:
            return f"signal {self.signal}"
        return str(self.kind)

    @property
    def finished(self) -> bool:
        """The program ended by itself (an exit or a crash), not stopped by the harness."""
        return self.kind in (Kind.EXIT, Kind.SIGNAL)

    @property
    def stopped(self) -> bool:
        """The harness stopped the program: a limit was reached."""
        return self.kind in (Kind.TIMEOUT, Kind.OUTPUT_LIMIT)

    def label(self) -> str:
        """As a noun phrase: "exit status 1", "still waiting for input"."""
        return {
            Kind.EXIT: f"exit status {self.status}",
            Kind.SIGNAL: f"killed by {self.signal}",
            Kind.WAITING: "still waiting for input",
            Kind.TIMEOUT: "timed out",
            Kind.OUTPUT_LIMIT: "stopped at the output limit",
        }[self.kind]

    def describe(self) -> str:
        """As the end of a sentence about the program: "exited with status 1"."""
        return {
            Kind.EXIT: "ended normally (exit status 0)" if self.status == 0 else f"ended with exit status {self.status}",
            Kind.SIGNAL: f"crashed (killed by {self.signal})",
            Kind.WAITING: "was still waiting for input",
            Kind.TIMEOUT: "ran past its time limit",
            Kind.OUTPUT_LIMIT: "printed more than the output limit",
        }[self.kind]

    def expectation(self) -> str:
        """As what a case expects, after "expected": "the program to end normally (exit status 0)"."""
        return {
            Kind.EXIT: ("the program to end normally (exit status 0)" if self.status == 0
                     else f"the program to end with exit status {self.status}"),
            Kind.SIGNAL: f"the program to be killed by {self.signal}",
            Kind.WAITING: "the program to ask for more input",
            Kind.TIMEOUT: "the program to run past its time limit",
            Kind.OUTPUT_LIMIT: "the program to print more than the output limit",
        }[self.kind]

    def differs_from(self, other: "End", subject: str = "it") -> str:
        """How a program's end (self) differs from the expected one (`other`), for a person, the
        program called `subject`; "" when they are the same: an end as expected is not worth a word."""
        if self == other:
            return ""
        return f"expected {other.expectation()}, but {subject} {self.describe()}"

    def __str__(self) -> str:
        return str(self.value)
