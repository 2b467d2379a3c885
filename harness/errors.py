"""The one error type for bad input: it names the file, the line and the fix, and exits 2."""
import re

MAX_MESSAGE = 600
# Control characters (C0, DEL, C1) and line breaks would let a file name or a value quoted in
# a message move the cursor, recolour the terminal or start a second line.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` as one printable line: control characters escaped, the middle cut if too long."""
    text = _UNSAFE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                       str(text))
    if len(text) > limit:
        text = text[: limit * 2 // 3] + " … " + text[-(limit // 3):]
    return text


class InputError(Exception):
    """A malformed case, spec or command line; nothing is graded on a wrong basis."""

    def __init__(self, message: str, path=None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __reduce__(self):
        """Raised in a worker process, it arrives whole: file and line included."""
        return (type(self), (self.message, self.path, self.line))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        return one_line(where + self.message)
