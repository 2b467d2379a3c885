"""One line per case, then the rubric and the total: what a person reads in the shell.

Everything a program printed is shown with its control characters made visible, so no
submission can clear the grader's screen or fake a score line.
"""
import sys

from harness.grading import scoring
from harness.judging.differences import moment
from harness.results import MARKS, Status, SubmissionResult, Verdict, Visibility
from harness.safe_text import cap, one_line, visible

# One palette for every status word the shell shows: a case's, a submission's, and a tone.
COLOURS = {Status.PASSED: "32", Status.FAILED: "31", Status.UNGRADABLE: "33", Status.HARNESS_ERROR: "35",
           Verdict.GRADED: "32", Verdict.BUILD_FAILED: "31", Verdict.MISSING_FILES: "31", Verdict.NOT_GRADED: "33",
           "failing": "33", "bold": "1", "dim": "2"}
REASON_CHARS = 600
HIDDEN = "hidden: not shown to students"  # the mark of a case a student's copy leaves out


def paint(text: str, colour: str, on: bool) -> str:
    """`text` in the colour of a status word (or a tone), when colour is on."""
    code = COLOURS.get(colour)
    return f"\x1b[{code}m{text}\x1b[0m" if on and code else text


def _safe(text: str, limit: int = REASON_CHARS) -> str:
    return visible(cap(text, limit))


def render(result: SubmissionResult, stream=None, colour: bool | None = None, public: bool = False) -> None:
    """The result in the shell. `public`: a self-check's result of the public cases alone, whose
    total is the public part, never shown as a grade (no pass colour: the hidden cases count too)."""
    stream = stream or sys.stdout
    on = stream.isatty() if colour is None else colour
    say = lambda text="": print(text, file=stream)  # noqa: E731
    milestone = f" {result.milestone}" if result.milestone else ""
    say(paint(f"{result.title}{milestone} — {one_line(cap(result.submission, REASON_CHARS))}", "bold", on))
    if result.sandbox == "none" and any(not case.unbuilt for case in result.cases):  # only when a program ran
        say(paint("  note: submissions ran without the sandbox (bubblewrap)", "ungradable", on))
    failed = {}  # the same failure of several targets is said once, naming them all
    for target, build in result.builds.items():
        if not build.ok:
            failed.setdefault((build.language, build.reason), []).append(target)
    for target, build in result.builds.items():
        if build.off_language:
            say(paint(f"  note ({target}): {build.off_language}", "ungradable", on))
        for line in build.instructor_intake:
            say(paint(f"  intake ({target}): {one_line(cap(line, REASON_CHARS))}", "dim", on))
        same = failed.get((build.language, build.reason), [target])
        if not build.ok and same[0] == target:
            reason = one_line(cap(build.reason, REASON_CHARS))
            language = f" ({build.language})" if build.language else ""  # none: nothing of its languages was found
            say(paint(f"  build of {', '.join(same)}{language}: {reason}", "failed", on))
            shown = build.further if build.diagnosis else "\n".join(
                line for line in build.log.strip().splitlines()[-15:] if line.strip() not in build.reason)
            if shown.strip():
                say("    " + "\n    ".join(_safe(shown, 3000).splitlines()))
        for finding in build.findings:
            say(paint(f"  source check: {_safe(finding)}", "ungradable", on))
    unbuilt = [case for case in result.cases if case.unbuilt]
    if unbuilt:
        say(f"  {paint(MARKS[unbuilt[0].status], unbuilt[0].status, on)} {len(unbuilt)} case"
            f"{'s' if len(unbuilt) != 1 else ''} not run: "
            f"{'nothing was built' if result.status == Verdict.MISSING_FILES else 'the build failed'} (above)")
    explained = scoring.explain(result)
    for case in result.cases:
        if case.unbuilt:
            continue
        mark = paint(MARKS[case.status], case.status, on)
        hidden = paint(f" ({HIDDEN})", "bold", on) if case.visibility == Visibility.HIDDEN else ""
        say(f"  {mark} {case.name} [{case.rubric}]{hidden} {case.seconds:.2f}s, {explained.worth(case).text()}")
        if not case.passed:
            say(f"       {_safe(case.reason)}")
            if case.hint:
                say(paint(f"       hint: {case.hint}", "dim", on))
    say()
    for item in result.items:
        how = explained.account(item).text()
        if not item.graded or not item.counted:
            say(f"  {'—':>7}  {item.title} [{item.id}] ({how})")
            continue
        say(f"  {scoring.points(item.earned):>6}/{item.weight:<4g} {item.title} [{item.id}]: {how}")
    colour_name = "passed" if result.all_passed else "failed"
    if not result.published:
        say(paint(f"  {result.passed}/{result.total} cases passed — no score: the harness failed on a case, "
                   "so this submission must be regraded", "failed", on))
        return
    if public:
        say(paint(f"  {result.passed}/{result.total} cases passed — the public part: "
                  f"{result.earned:.1f}/{result.possible:g} = {result.percent:.1f} % on the public cases (not your "
                  "grade: the hidden cases count too)", "bold", on))
        return
    say(paint(f"  {result.passed}/{result.total} cases passed — score {result.earned:.1f}/{result.possible:g} "
               f"= {result.percent:.1f} %", colour_name, on))


TYPED_SHOWN = 100  # inputs of a case listed at most


def typed_inputs(typed: list[str]) -> str:
    """A case's inputs, in order, each quoted (an empty line shows as '')."""
    shown = " ".join(repr(visible(cap(line, 80))) for line in typed[-TYPED_SHOWN:])
    return (f"… ({len(typed) - TYPED_SHOWN} before) " if len(typed) > TYPED_SHOWN else "") + shown


def shown_lines(text: str | None) -> list[str]:
    """A turn's text as lines a person can see: a blank line is `(blank line)`, a space that
    ends a line is `·`, the newline that ends the text makes no line of its own."""
    if text is None:
        return ["(nothing)"]
    if text == "":
        return ["(nothing printed)"]
    lines = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
    return ["(blank line)" if line == "" else line + "·" if line.endswith(" ") else line for line in lines]


def explain_failures(result: SubmissionResult, stream=None, every: bool = False) -> None:
    """The first divergent turn of a failing case, expected above actual."""
    stream = stream or sys.stdout
    for case in result.cases:
        if case.status != Status.FAILED or case.first_divergence is None:
            continue
        turn = case.turns[case.first_divergence]
        where = moment(turn.index, visible(turn.typed) if turn.typed is not None else None)
        print(f"\n  {case.name}: first difference {where}", file=stream)
        if case.typed and turn.index:
            print(f"  typed up to there: {typed_inputs(case.typed[:turn.index])}", file=stream)
        for label, text in (("expected", turn.expected), ("got", turn.actual)):
            print(f"  --- {label}:", file=stream)
            for line in shown_lines(_safe(text, 4000) if text is not None else None):
                print(f"    {line}", file=stream)
        if not every:
            return
