"""Cells of the CSV files the harness writes, safe to open in a spreadsheet, and read back as written.

A name, a file name or a note in a gradebook may come from a student (a Moodle full name
`=1+41`, a Blackboard file `=HYPERLINK(...)`): a spreadsheet would run a text cell starting with
`=`, `+`, `-`, `@`, a tab or a carriage return as a formula (OWASP, CSV injection). Such a text
cell is written with a single quote in front, which a spreadsheet shows as text, and `restored`
takes that quote off again, so the harness reads its own CSVs to the values it wrote.

A number the harness formatted itself (`Figure`: a delta of `-2.50`, a score) is a number, not
text: it is written as it is, so a spreadsheet can still add it up. Only text cells are neutralised.
"""
import csv
import re
from typing import IO, Iterable

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula
QUOTE = "'"
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


class Figure(str):
    """A number the harness formatted itself (`Figure(-2.5, "+.2f")` is `-2.50`): written unquoted."""

    def __new__(cls, value: float, spec: str = "") -> "Figure":
        return super().__new__(cls, format(value, spec))


def _formula_like(text: str) -> bool:
    """Starts with a trigger, after any single quotes (so that neutralising is undone exactly)."""
    return text.lstrip(QUOTE).startswith(TRIGGERS)


def neutral(text: str) -> str:
    """A text cell a spreadsheet shows as the text it is: a quote in front when it could be a formula."""
    return QUOTE + text if _formula_like(text) else text


def restored(cell: str) -> str:
    """The value `neutral` was given: its quote taken off again (any other cell as it is)."""
    return cell[1:] if cell.startswith(QUOTE) and _formula_like(cell[1:]) else cell


def cell(value) -> str:
    """One cell as written: a number as it is (a `Figure`, an int or a float), text neutralised."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = Figure(value)
    if isinstance(value, Figure) and _NUMBER.fullmatch(value):
        return str(value)
    return neutral(str(value))


class Writer:
    """`csv.writer` whose every cell goes through `cell`: the one way the harness writes a CSV row."""

    def __init__(self, stream: IO[str], **options):
        self._writer = csv.writer(stream, **options)

    def writerow(self, row: Iterable) -> None:
        self._writer.writerow([cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable]) -> None:
        for row in rows:
            self.writerow(row)


class Reader:
    """`csv.reader` whose every cell is `restored` (`line_num` as csv.reader's)."""

    def __init__(self, stream: IO[str], **options):
        self._reader = csv.reader(stream, **options)

    def __iter__(self) -> "Reader":
        return self

    def __next__(self) -> list[str]:
        return [restored(value) for value in next(self._reader)]

    @property
    def line_num(self) -> int:
        return self._reader.line_num


class DictReader(csv.DictReader):
    """`csv.DictReader` whose header and cells are `restored`."""

    @property
    def fieldnames(self):
        names = csv.DictReader.fieldnames.fget(self)
        return None if names is None else [restored(name) for name in names]

    @fieldnames.setter
    def fieldnames(self, value):
        csv.DictReader.fieldnames.fset(self, value)

    def __next__(self) -> dict:
        row = super().__next__()
        return {key: restored(value) if isinstance(value, str) else value for key, value in row.items()}
