"""The HTML report: rubric, build output, and every case turn by turn, side by side.

Every text a program printed is bounded (first and last part kept, the cut marked) and its
control and direction-changing characters are shown as visible symbols, so a report stays
readable and small whatever the program did.
"""
import difflib
import functools
import re

from jinja2 import Environment
from markupsafe import Markup, escape

from harness.grading import scoring
from harness.reporting import templates
from harness.reporting.terminal import HIDDEN
from harness.results import MARKS, SubmissionResult, Visibility
from harness.safe_text import cap, visible

FOLD_LINES = 12  # equal turns longer than this are folded
TURN_CHARS = 6000  # a turn's text shown at most
TEXT_CHARS = 1000  # a reason, note or name shown at most
ALIGNED_LINES = 400  # lines of a turn difflib aligns to mark the differing ones; beyond, line by line


def _differing_lines(text: str, other: str | None) -> set[int]:
    """Indexes of the lines of `text` that have no equal partner in `other` (difflib alignment)."""
    if other is None or text == other:
        return set()
    mine, theirs = text.split("\n"), other.split("\n")
    if len(mine) > ALIGNED_LINES or len(theirs) > ALIGNED_LINES:  # difflib grows as the square and more
        return {i for i, line in enumerate(mine) if i >= len(theirs) or theirs[i] != line}
    same = set()
    for block in difflib.SequenceMatcher(None, mine, theirs, autojunk=False).get_matching_blocks():
        same.update(range(block.a, block.a + block.size))
    return set(range(len(mine))) - same


def whitespace(text: str | None, other: str | None = None) -> Markup:
    """Escape, then make invisible characters visible: trailing spaces, tabs, CR, a missing final newline.
    Given the other side's text, lines that differ from it are marked."""
    if text is None:
        return Markup('<span class="absent">(no such turn)</span>')
    text = cap(text, TURN_CHARS)
    other = cap(other, TURN_CHARS) if other is not None else None
    marked = _differing_lines(text, other)
    out = []
    for index, line in enumerate(re.split(r"(?<=\n)", text)):
        body, newline = (line[:-1], "\n") if line.endswith("\n") else (line, "")
        body, cr = (body[:-1], True) if body.endswith("\r") else (body, False)
        stripped = body.rstrip(" ")
        trail = len(body) - len(stripped)
        piece = str(escape(visible(stripped))).replace("\t", '<span class="ws">→</span>')
        piece += '<span class="ws">·</span>' * trail
        piece += '<span class="ws">␍</span>' if cr else ""
        piece += '<span class="ws">↵</span>' if newline else ""
        out.append((f'<span class="bad">{piece}</span>' if index in marked else piece) + newline)
    return Markup("".join(out))


def ticks(text: str) -> Markup:
    """Scoring's sentences (they quote item ids in backticks) escaped, each quoted id as code."""
    return Markup(re.sub(r"`([^`<>]+)`", r"<code>\1</code>", str(escape(text))))


def safe_text(text, limit: int = TEXT_CHARS) -> str:
    return visible(cap(str(text), limit))


@functools.cache
def _environment() -> Environment:
    """The pages' one environment, with the report's filters (added once, before the report's
    template is first loaded)."""
    env = templates.environment()
    env.filters["ws"] = whitespace
    env.filters["safe_text"] = safe_text
    env.filters["lines"] = lambda text: (text or "").count("\n")
    env.filters["points"] = scoring.points
    env.filters["ticks"] = ticks
    return env


def render(result: SubmissionResult, notes: list[str] = (), student=None, student_copy: str | None = None,
           own_game: dict | None = None) -> str:
    """The report page. `student` (a reporting.student.Hidden) makes it a student's copy: a
    result of public cases only, with the count and points of the hidden ones on top;
    `student_copy` is the file name of that copy, beside this report, for the instructor's;
    `own_game`: a counterexample (`Counterexample.to_dict()`), its panel in the failing case it
    was judged as (at the top when the report does not show that case)."""
    explained = scoring.explain(result)
    return _environment().get_template("report.html.j2").render(
        r=result, fold=FOLD_LINES, marks=MARKS, notes=list(notes), student=student, student_copy=student_copy,
        own_game=own_game, own_game_case=own_game and own_game.get("case") in {c.name for c in result.cases},
        hidden=sum(1 for case in result.cases if case.visibility == Visibility.HIDDEN), hidden_mark=HIDDEN,
        worth=lambda case: explained.worth(case).text(), account=lambda item: explained.account(item).text())
