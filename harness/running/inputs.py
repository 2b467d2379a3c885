"""Where typed lines come from besides a case's own list: a person at the terminal."""
import sys


class TerminalInputs:
    """A person types each line (harness record)."""

    def next_line(self, output_so_far: str) -> str | None:
        sys.stdout.flush()
        line = sys.stdin.readline()
        return line.rstrip("\n") if line else None
