"""Console I/O as the handouts' Java programs do it: a `java.util.Scanner` over stdin.

The references read through `Scanner` so that they split tokens, skip blank lines and
reject non-integers exactly like the students' `Scanner(System.in)` would. Every read
flushes stdout first, so a prompt is on the terminal before the program waits.
"""
import re
import sys

_INT = re.compile(r"[+-]?[0-9]+\Z")
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


class EndOfInput(Exception):
    """stdin is closed: Java's Scanner would throw NoSuchElementException."""


def setup_stdout() -> None:
    """UTF-8 output with plain `\\n` line ends, whatever the locale."""
    sys.stdout.reconfigure(encoding="utf-8", newline="\n")


def write(text: str) -> None:
    sys.stdout.write(text)


def println(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def is_java_int(token: str) -> bool:
    return bool(_INT.match(token)) and _INT_MIN <= int(token) <= _INT_MAX


class Scanner:
    """Token reader with the semantics of `new Scanner(System.in)`."""

    def __init__(self, stream=None):
        self._stream = stream if stream is not None else sys.stdin
        self._line = ""  # the unread rest of the current line, without its newline
        self._has_line = False

    def _fill(self) -> bool:
        """Read lines until a token is available; False at end of input."""
        while not self._line.strip():
            sys.stdout.flush()
            raw = self._stream.readline()
            if raw == "":
                return False
            self._line = raw[:-1] if raw.endswith("\n") else raw
            self._has_line = True
        return True

    def has_next(self) -> bool:
        return self._fill()

    def _peek(self) -> str:
        if not self._fill():
            raise EndOfInput()
        return self._line.split()[0]

    def next(self) -> str:
        token = self._peek()
        stripped = self._line.lstrip()
        self._line = stripped[len(token):]
        return token

    def has_next_int(self) -> bool:
        return self.has_next() and is_java_int(self._peek())

    def next_int(self) -> int:
        token = self._peek()
        if not is_java_int(token):
            raise ValueError(f"InputMismatchException: {token!r}")
        self.next()
        return int(token)

    def next_line(self) -> str:
        """The rest of the current line (reads a new line if none is pending)."""
        if not self._has_line:
            sys.stdout.flush()
            raw = self._stream.readline()
            if raw == "":
                raise EndOfInput()
            self._line = raw[:-1] if raw.endswith("\n") else raw
        rest, self._line, self._has_line = self._line, "", False
        return rest
