"""How a run ended: one type, and its wording in one place.

A run ends with an exit status, a signal, `waiting` (the inputs ran out while the program
reads), `timeout` (a turn or the whole run over its limit) or `output-limit`. Cases store it
as a plain value (`0`, `"waiting"`, `"signal SIGSEGV"`); everything else uses `End`.
"""
from dataclasses import dataclass

KINDS = ("exit", "signal", "waiting", "timeout", "output-limit")


@dataclass(frozen=True)
class End:
    """How a run ended (exit status, signal, waiting, timeout, output limit), compared with a case's."""
    kind: str  # one of KINDS
    status: int | None = None  # the exit status, for kind "exit"
    signal: str | None = None  # the signal's name (SIGSEGV), for kind "signal"

    @classmethod
    def exited(cls, status: int) -> "End":
        return cls("exit", status=status)

    @classmethod
    def killed(cls, name: str) -> "End":
        return cls("signal", signal=name)

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
        if value in ("waiting", "timeout", "output-limit"):
            return cls(value)
        raise ValueError(f"not a run end: {value!r}")

    @property
    def value(self) -> int | str:
        """The plain value a case file and result.json hold."""
        if self.kind == "exit":
            return self.status
        if self.kind == "signal":
            return f"signal {self.signal}"
        return self.kind

    @property
    def finished(self) -> bool:
        """The program ended by itself (an exit or a crash), not stopped by the harness."""
        return self.kind in ("exit", "signal")

    @property
    def stopped(self) -> bool:
        """The harness stopped the program: a limit was reached."""
        return self.kind in ("timeout", "output-limit")

    def label(self) -> str:
        """As a noun phrase: "exit status 1", "still waiting for input"."""
        return {
            "exit": f"exit status {self.status}",
            "signal": f"killed by {self.signal}",
            "waiting": "still waiting for input",
            "timeout": "timed out",
            "output-limit": "stopped at the output limit",
        }[self.kind]

    def describe(self) -> str:
        """As the end of a sentence about the program: "exited with status 1"."""
        return {
            "exit": "ended normally (exit status 0)" if self.status == 0 else f"ended with exit status {self.status}",
            "signal": f"crashed (killed by {self.signal})",
            "waiting": "was still waiting for input",
            "timeout": "ran past its time limit",
            "output-limit": "printed more than the output limit",
        }[self.kind]

    def expectation(self) -> str:
        """As what a case expects, after "expected": "the program to end normally (exit status 0)"."""
        return {
            "exit": ("the program to end normally (exit status 0)" if self.status == 0
                     else f"the program to end with exit status {self.status}"),
            "signal": f"the program to be killed by {self.signal}",
            "waiting": "the program to ask for more input",
            "timeout": "the program to run past its time limit",
            "output-limit": "the program to print more than the output limit",
        }[self.kind]

    def differs_from(self, other: "End") -> str:
        """How a program's end (self) differs from the expected one (`other`), for a person;
        "" when they are the same: an end that is as expected is not worth a word."""
        if self == other:
            return ""
        return f"expected {other.expectation()}, but it {self.describe()}"

    def __str__(self) -> str:
        return str(self.value)
