"""One game run and judged as grading judges a case: the reference's transcript for its inputs,
then the program's run through `grading.submission.run_case` (its random start drawn, its output
read through the spec's readings, compared under the case's item's policy). A run the harness
stopped for time (a turn over its limit, the budget spent) is never a difference: a pause or a
starved machine must not make a counterexample."""
import json
from pathlib import Path

from harness.building import build as builder
from harness.counterexample.game import Context, Trial
from harness.grading import shown_paths, submission
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.outcome import Kind
from harness.results import FAILED, Visibility
from harness.running import runner
from harness.running.environment import Workdir
from harness.starts.drawing import reference_seed_args

NAME = "your-own-game"


def _case(spec: Spec, context: Context, inputs: tuple[str, ...], expect: dict | None) -> Case:
    """The game as a case of its context (in memory: no file is written)."""
    return Case(name=NAME, path=Path(spec.folder) / NAME, description="a game of your own",
                milestone=context.milestone, target=context.target, rubric=context.rubric, points=1,
                visibility=Visibility.PUBLIC, args=list(context.args), seed=context.seed, repeat=1,
                inputs=list(inputs), compare=json.loads(context.compare), limits=json.loads(context.limits),
                expect=expect, data={}, document=None)


class Games:
    """A submission's games, run and judged; the reference's transcripts kept by game, the
    program's runs counted (`runs`) and its judged runs kept unless asked `fresh`."""

    def __init__(self, spec: Spec, build: builder.Build):
        self.spec, self.build = spec, build
        self.runs = 0
        self._expected: dict[tuple, dict | None] = {}
        self._judged: dict[tuple, Trial] = {}

    def expected(self, context: Context, inputs: tuple[str, ...]) -> dict | None:
        """The reference's transcript of the game; None when it does not finish it by itself
        (no game the handout describes)."""
        key = (context, inputs)
        if key not in self._expected:
            case = _case(self.spec, context, inputs, None)
            with Workdir() as home:
                run = submission.run_reference(self.spec, case, reference_seed_args(self.spec, case),
                                               runner.FixedInputs(inputs), home)
            usable = not (run.end.stopped or run.end.kind == Kind.SIGNAL)
            self._expected[key] = {"exit": run.end.value, "transcript": run.events} if usable else None
        return self._expected[key]

    def trial(self, context: Context, inputs: tuple[str, ...], fresh: bool = False) -> Trial:
        """The game run once and judged (a kept judgement unless `fresh`)."""
        key = (context, inputs)
        if not fresh and key in self._judged:
            return self._judged[key]
        expect = self.expected(context, inputs)
        if expect is None:
            judged = Trial(inputs, False, reason="the reference does not finish this game")
        else:
            self.runs += 1
            judged = judge(inputs, submission.run_case(self.spec, _case(self.spec, context, inputs, expect),
                                                       self.build))
        self._judged[key] = judged
        return judged


def judge(inputs: tuple[str, ...], result) -> Trial:
    """A case result read as a trial: a difference only where both transcripts were compared and
    the program was not stopped for time."""
    stopped = result.actual_end is not None and result.actual_end.kind == Kind.TIMEOUT
    if result.status != FAILED or result.cause is not None or stopped or not result.turns:
        return Trial(inputs, False, reason=result.reason)
    index = result.first_divergence
    if index is None:  # every turn alike, the ends not
        if result.actual_end == result.expected_end:
            return Trial(inputs, False, reason=result.reason)
        index = len(result.turns) - 1
    turn = result.turns[index]

    def shown(text: str | None) -> str | None:  # the harness's folders as <build>, <tmp>
        return None if text is None else shown_paths.text(text)

    return Trial(inputs, True, turn.index, shown(turn.expected), shown(turn.actual),
                 result.expected_end.describe() if result.expected_end else "",
                 result.actual_end.describe() if result.actual_end else "",
                 result.starts[-1] if result.starts else None, shown(result.reason))
