"""The similarity page `similarity.html` beside the class page: the pairs of submissions whose
code is alike, ranked, each opened side by side with its matching fragments marked and
numbered alike on both sides (a fragment's number links to its match). No network, no script:
the line numbers are CSS counters. Every file's text goes through `visible`/`cap` and the
template's HTML escaping. The comparison itself is `harness.classes.similarity`'s.
"""
from dataclasses import dataclass, field
from pathlib import Path

from harness import atomic
from harness.reporting import templates
from harness.safe_text import cap, visible, writable

FILE = "similarity.html"
SHOWN_CHARS = 200_000  # of one file shown in a pair's view
NAME_CHARS = 200  # of a file's path shown


@dataclass
class Segment:
    text: str
    fragment: int | None = None  # the matching fragment it belongs to
    first: bool = False  # the fragment starts here: its number and anchor are shown
    linked: bool = False  # the other side has a fragment of this number


@dataclass
class ShownFile:
    path: str
    lines: list[list[Segment]]
    cut: int = 0  # characters past SHOWN_CHARS, not shown


@dataclass
class Side:
    name: str
    percent: float  # of its code found in the other submission
    link: str = ""  # its report, relative to the page
    original: str = ""  # its name in the class folder, when the report's differs
    files: list[ShownFile] = field(default_factory=list)


@dataclass
class Pair:
    a: Side
    b: Side
    languages: str
    rank: int = 0
    fragments: int = 0  # matching fragments of the first submission
    opened: bool = False  # its side-by-side view is on the page

    @property
    def score(self) -> float:
        return max(self.a.percent, self.b.percent)


@dataclass
class Page:
    title: str
    threshold: float
    pairs: list[Pair]  # at or above the threshold, ranked
    below: list[Pair]  # the closest under it
    submissions: int  # compared
    compared: int  # pairs
    skipped: list[tuple[str, str]]  # (name, why): nothing to compare
    provided: list[str]  # the files whose code never counts
    detector: str
    noise: int
    shown_pairs: int
    common: str = ""  # the code the class holds alike, set aside (classes/similarity.py), in words


def open_side_by_side(pair: Pair, docs_a: dict, docs_b: dict, marks_a: dict, marks_b: dict, count: int) -> None:
    """Fill both sides' files with their text and its marks: `marks_*` by language, (start, end,
    number) in that language's text, number n > 0 the n-th of `count` matching fragments, the
    same code on both sides; 0 marked with no number."""
    pair.fragments = count
    numbers_a = {n for marks in marks_a.values() for _, _, n in marks if n}
    numbers_b = {n for marks in marks_b.values() for _, _, n in marks if n}
    pair.a.files = _files(docs_a, marks_a, numbers_b)
    pair.b.files = _files(docs_b, marks_b, numbers_a)
    pair.opened = True


def _files(docs: dict, marks: dict, other: set[int]) -> list[ShownFile]:
    shown = []
    seen: set[int] = set()
    for language, doc in docs.items():
        for path, start, end in doc.files:
            limit = min(end, start + SHOWN_CHARS)
            lines = _lines(doc.text, start, limit, marks.get(language, []))
            for line in lines:
                for segment in line:
                    if segment.fragment is not None and segment.fragment not in seen:
                        seen.add(segment.fragment)
                        segment.first = True
                    segment.linked = segment.fragment in other
            shown.append(ShownFile(visible(cap(path, NAME_CHARS)), lines, end - limit))
    return shown


def _lines(text: str, start: int, limit: int, marks: list) -> list[list[Segment]]:
    """text[start:limit] as lines of segments, the parts inside a mark carrying its number."""
    pieces = []
    at = start
    for s, e, number in sorted(marks, key=lambda m: m[0]):
        s, e = max(s, at), min(e, limit)
        if s >= e:
            continue
        if at < s:
            pieces.append((text[at:s], None))
        pieces.append((text[s:e], number))
        at = e
    if at < limit:
        pieces.append((text[at:limit], None))
    lines: list[list[Segment]] = [[]]
    for piece, number in pieces:
        for index, part in enumerate(piece.split("\n")):
            if index:
                lines.append([])
            if part:
                lines[-1].append(Segment(visible(part), number))
    if len(lines) > 1 and not lines[-1]:
        lines.pop()
    return lines


def render(result: Page) -> str:
    return templates.environment().get_template("similarity.html.j2").render(p=result)


def write(result: Page, path: Path) -> Path:
    """Write the page atomically; returns its path."""
    return atomic.write_text(path, writable(render(result)))
