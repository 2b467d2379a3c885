"""The one error type for bad input: it names the file, the line and the fix, and exits 2."""


class InputError(Exception):
    """A malformed case, spec or command line; nothing is graded on a wrong basis."""

    def __init__(self, message: str, path=None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        return where + self.message
