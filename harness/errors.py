"""The one error type for bad input: it names the file, the line and the fix, and exits 2."""
from harness.safe_text import one_line

# A message is one line of at most this many characters: a control character, a line break
# or a bidi override in a file name or a value quoted in it is shown as a visible mark.
MAX_MESSAGE = 600


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
        return one_line(where + self.message, MAX_MESSAGE)
