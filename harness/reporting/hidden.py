"""What a student may see of the failed hidden cases at the stage that applies now (the spec's
`hidden_stages:`, loading/stages.py): made from the instructor's result on the server, so
nothing beyond the stage is ever sent, not even hidden in a page."""
from dataclasses import dataclass, field

from markupsafe import escape

from harness.judging.differences import moment
from harness.loading import stages
from harness.results import PASSED, SubmissionResult, Visibility
from harness.safe_text import cap, visible

TEXT_CHARS = 4000


@dataclass
class HiddenTurn:
    index: int
    typed: str | None
    expected: str | None
    actual: str | None


@dataclass
class HiddenCase:
    """A failed hidden case as a stage shows it: its name and description from `names` on, the
    turn where it first differs from `turn` on, every turn at `transcript`."""
    name: str
    description: str
    turn: int | None = None
    turns: list[HiddenTurn] = field(default_factory=list)


@dataclass
class HiddenView:
    stage: str
    said: str  # which stage applies and when the next begins
    hidden: int  # hidden cases in all
    failed: int | None  # of those, failed (None: not run yet, or not told at the `count` stage)
    cases: list[HiddenCase] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"stage": self.stage, "said": self.said, "hidden": self.hidden, "failed": self.failed,
                "cases": [{"name": c.name, "description": c.description, "turn": c.turn,
                           "turns": [t.__dict__ for t in c.turns]} for c in self.cases]}


def _text(value: str | None) -> str | None:
    return None if value is None else visible(cap(value, TEXT_CHARS))


def view(result: SubmissionResult | None, hidden: int, now: stages.Now) -> HiddenView:
    """The failed hidden cases of `result` (None: not run yet) as the stage `now` shows them."""
    if result is None:
        return HiddenView(now.show, now.describe(), hidden, None)
    failed = [c for c in result.cases if c.visibility == Visibility.HIDDEN and c.status != PASSED]
    shown = []
    if now.show == stages.COUNT:  # how many hidden cases there are, not how they did
        return HiddenView(now.show, now.describe(), hidden, None)
    if now.show != stages.COUNT:
        for case in failed:
            item = HiddenCase(case.name, case.description)
            if now.show in (stages.TURN, stages.TRANSCRIPT) and case.first_divergence is not None and case.turns:
                item.turn = case.turns[min(case.first_divergence, len(case.turns) - 1)].index
            if now.show == stages.TRANSCRIPT:
                item.turns = [HiddenTurn(t.index, _text(t.typed), _text(t.expected), _text(t.actual))
                              for t in case.turns]
            shown.append(item)
    return HiddenView(now.show, now.describe(), hidden, len(failed), shown)


def text(view: HiddenView) -> str:
    """The same for a terminal (`harness check --server`)."""
    lines = [f"  {view.said}"]
    if view.failed is not None and view.hidden:
        lines.append(f"  {view.failed} of {view.hidden} hidden case{'s' if view.hidden != 1 else ''} failed.")
    for case in view.cases:
        lines.append(f"  hidden case {case.name}: {case.description}"
                     + (f" (your output first differs {moment(case.turn)})" if case.turn is not None else ""))
        for turn in case.turns:
            lines.append(f"    {moment(turn.index, turn.typed)}")
            lines += [f"      expected: {line}" for line in (turn.expected or "").split("\n")]
            lines += [f"      yours:    {line}" for line in (turn.actual or "").split("\n")]
    return "\n".join(lines) + "\n"


def html_section(view: HiddenView) -> str:
    """The student page's section on the hidden cases (every text escaped)."""
    parts = [f'<section id="hidden-cases"><h2>Hidden cases</h2><p class="stage">{escape(view.said)}</p>',
             f"<p>{view.failed} of {view.hidden} hidden case{'s' if view.hidden != 1 else ''} failed.</p>"
             if view.hidden and view.failed is not None else ""]
    for case in view.cases:
        parts.append(f"<div class=\"hidden-case\"><h3>{escape(case.name)}</h3><p>{escape(case.description)}</p>")
        if case.turn is not None and not case.turns:
            parts.append(f"<p>Your program's output first differs {moment(case.turn)}.</p>")
        if case.turns:
            parts.append("<table><tr><th>inputs typed</th><th>last typed</th><th>expected</th><th>your program</th></tr>")
            for turn in case.turns:
                parts.append("<tr>" + "".join(f"<td><pre>{escape(x) if x is not None else ''}</pre></td>"
                                              for x in (str(turn.index), turn.typed, turn.expected, turn.actual))
                             + "</tr>")
            parts.append("</table>")
        parts.append("</div>")
    parts.append("</section>")
    return "".join(parts)
