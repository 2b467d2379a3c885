"""The roster: students and their tokens (a CSV `student,token`), made and read; a token is
compared in constant time with every entry and never written to a log or an error."""
import hmac
import io
import secrets
from dataclasses import dataclass
from pathlib import Path

from harness import csv_cells
from harness.errors import InputError

MIN_TOKEN_CHARS = 16
MAX_NAME_CHARS = 100


@dataclass(frozen=True)
class Roster:
    students: tuple[tuple[str, str], ...]  # (student, token)
    instructor: str | None = None

    def student(self, token: str | None) -> str | None:
        """The student whose token this is, or None. Every entry is compared (hmac.compare_digest),
        so the time taken says nothing about which entry, or how much of one, matched."""
        if not token:
            return None
        given = token.encode("utf-8", "surrogateescape")
        found = None
        for name, known in self.students:
            if hmac.compare_digest(given, known.encode("utf-8")):
                found = name
        return found

    def is_instructor(self, token: str | None) -> bool:
        if not token or not self.instructor:
            return False
        return hmac.compare_digest(token.encode("utf-8", "surrogateescape"), self.instructor.encode("utf-8"))

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.students]


def load(path: Path, instructor: str | None = None) -> Roster:
    """Read `student,token` rows; a bad roster is one line saying where (never the token)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as problem:
        raise InputError(f"cannot read the roster {path}: {problem.strerror or problem}")
    except UnicodeDecodeError:
        raise InputError(f"the roster {path} is not UTF-8 text")
    rows = csv_cells.DictReader(io.StringIO(text))  # read back to the names and tokens `make` wrote
    if not rows.fieldnames or not {"student", "token"} <= set(rows.fieldnames):
        raise InputError(f"{path}: the roster needs the columns student,token (a header line)")
    students, names, tokens = [], set(), set()
    for number, row in enumerate(rows, start=2):
        name, token = (row.get("student") or "").strip(), (row.get("token") or "").strip()
        if not name or len(name) > MAX_NAME_CHARS:
            raise InputError(f"{path}:{number}: a student's name must be 1 to {MAX_NAME_CHARS} characters")
        if len(token) < MIN_TOKEN_CHARS:
            raise InputError(f"{path}:{number}: {name}'s token is shorter than {MIN_TOKEN_CHARS} characters")
        if name in names:
            raise InputError(f"{path}:{number}: {name} is listed twice")
        if token in tokens or (instructor and hmac.compare_digest(token, instructor)):
            raise InputError(f"{path}:{number}: {name}'s token is also another entry's; each must be unique")
        names.add(name)
        tokens.add(token)
        students.append((name, token))
    if not students:
        raise InputError(f"{path}: the roster lists no student")
    if instructor is not None and len(instructor) < MIN_TOKEN_CHARS:
        raise InputError(f"--instructor-token must be at least {MIN_TOKEN_CHARS} characters")
    return Roster(tuple(students), instructor)


def new_token() -> str:
    """A random token that starts with a letter or digit: a roster never shows it with a quote in front."""
    while (token := secrets.token_urlsafe(24))[0] in csv_cells.TRIGGERS:
        pass
    return token


def make(names_file: Path) -> str:
    """A roster (CSV text) with a fresh random token for each name of a file (one a line)."""
    try:
        names = [line.strip() for line in names_file.read_text(encoding="utf-8").splitlines()]
    except (OSError, UnicodeDecodeError) as problem:
        raise InputError(f"cannot read the names in {names_file}: {getattr(problem, 'strerror', None) or problem}")
    names = [n for n in dict.fromkeys(names) if n]
    if not names:
        raise InputError(f"{names_file} holds no name (one a line)")
    out = io.StringIO()
    writer = csv_cells.Writer(out, lineterminator="\n")  # a name (or a token starting with -) is never a formula
    writer.writerow(["student", "token"])
    for name in names:
        writer.writerow([name, new_token()])
    return out.getvalue()
