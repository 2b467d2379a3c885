"""What a student may see of a result: its public cases, each item scored on them alone (as a
self-check scores them), and how many hidden cases the grade counts and what they are worth,
never which they are. The self-check service's student view and the student's copy of a report
(`report-student.html`, beside the instructor's `report.html`) are both made from `public`."""
import dataclasses
import math
from dataclasses import dataclass

from harness.grading import scoring
from harness.loading.spec import RubricItem
from harness.reporting import html
from harness.results import SubmissionResult, Visibility

STUDENT_COPY = "report-student.html"

def hidden_count(result: SubmissionResult) -> int:
    return sum(1 for case in result.cases if case.visibility == Visibility.HIDDEN)


# Words about how the grader works, not about the student's program: left out of what they see.
GRADER_WORDS = (" (the warm compiler)",)


def _compiler_only(log: str) -> str:
    """A build log's command lines (`$ ...`, with the grader's folders and flags) cut to the
    compiler's name: what the compiler said stays whole."""
    lines = []
    for line in log.split("\n"):
        if line.startswith("$ ") and line[2:].split():
            line = "$ " + line[2:].split()[0].rsplit("/", 1)[-1] + " ..."
        lines.append(line)
    return "\n".join(lines)


def _own_notes(build):
    """A build as its student sees it: never whether the build cache had it (`reused`: it would say
    another student uploaded the same sources first; what one sees must not depend on what others
    uploaded), and the grader's own words and folders left out."""
    intake = list(build.intake)
    for words in GRADER_WORDS:
        intake = [line.replace(words, "") for line in intake]
    return dataclasses.replace(build, intake=intake, log=_compiler_only(build.log), reused=False)


def _rubric(result: SubmissionResult, spec) -> list[RubricItem]:
    """The rubric the public cases are scored on: the spec's for the result's milestone, else
    the items the result itself was scored on (a report written without its spec at hand)."""
    if spec is not None:
        return spec.items(result.milestone)
    return [RubricItem(item.id, item.title, item.weight, result.milestone, item.graded) for item in result.items]


def public(result: SubmissionResult, spec=None) -> SubmissionResult:
    """The result with every hidden case removed and the public ones scored alone (nothing the
    hidden cases did shows in an item's score), and no note that tells of other students' uploads."""
    # the command line a case ran (the JVM's flags, the grader's folders) is the instructor's
    cases = [dataclasses.replace(case, command=[]) for case in result.cases if case.visibility != Visibility.HIDDEN]
    shown = dataclasses.replace(result, builds={target: _own_notes(build) for target, build in result.builds.items()})
    if not shown.published or not shown.items:
        return dataclasses.replace(shown, cases=cases, items=[], earned=0.0, possible=0.0)
    return scoring.scored(shown, scoring.score(spec, _rubric(result, spec), cases))


@dataclass(frozen=True)
class Hidden:
    """What a student's copy says of the hidden cases: how many, and the points of the grade they
    carry as the rubric weighs them (`scoring.nominal`: nothing their runs did changes it), as
    shown to a person."""
    count: int
    points: str
    total: str


def hidden(result: SubmissionResult) -> Hidden:
    worth = scoring.nominal(result.items, result.cases)
    total = math.fsum(item.weight for item in result.items if item.graded)
    carried = math.fsum(value for case, value in zip(result.cases, worth) if case.visibility == Visibility.HIDDEN)
    return Hidden(hidden_count(result), scoring.points(carried), scoring.points(total))


def page(result: SubmissionResult, notes: list[str] = ()) -> str:
    """The student's copy of a report: the public cases in full, scored alone, and the hidden
    cases' count and points on top; nothing else of a hidden case is in it."""
    return html.render(public(result), notes, student=hidden(result))
