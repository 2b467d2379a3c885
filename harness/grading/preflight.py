"""Before anything is graded on a random start: the reference must take back a start it drew.

A program's own start is handed to the reference (the spec's `random_start.option`, a file). A
spec whose option does not take what the harness passes (a flag that takes the start as text,
say) makes the reference reject every start, and each student's random cases would become
"breaks the rules", charged to their setup item. The reference rejecting a start it drew itself
is the instructor's error: it stops `grade`, `samples`, `regen`, `run` and `check` with exit 2,
naming the reference and the option, before a single student is charged.
"""
from harness.errors import InputError
from harness.grading.submission import run_reference
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.running import runner
from harness.starts import drawing
from harness.starts.reading import find_start, start_file
from harness.outcome import Kind
from harness import transcript


def reference_takes_its_own_starts(spec: Spec, cases: list[Case], read_facts=None) -> None:
    """Re-run the reference from the start in one case's expected transcript per target that
    draws its own; raise InputError when the reference calls it against the rules or unplayable."""
    checked: set[str] = set()
    for case in cases:
        settings = drawing.drawing(spec, case)
        if settings is None or case.target in checked or case.strategy is not None or not case.expect:
            continue
        start = find_start(settings, transcript.output(case.expected_events), read_facts)
        if start is None:
            continue
        checked.add(case.target)
        command = spec.reference_command(case.milestone, case.target, case.args)
        with start_file(start) as path:
            again = run_reference(spec, case, [settings.option, path], runner.FixedInputs(case.prefix))
        if again.end.kind == Kind.EXIT and again.end.status in (settings.rejected_exit, settings.unplayable_exit):
            last = (again.output().strip().splitlines() or ["no reason given"])[-1][:200]
            line = spec.document.line_of(["random_start", "option"]) if spec.document else None
            raise InputError(
                f"the reference ({' '.join(command)}) rejects the start it drew itself in case {case.name} "
                f"({start[:80]!r}) when handed it with {settings.option} FILE: {last} (exit {again.end.status}); "
                f"random_start.option must name the reference's option that reads the start from a file, so no "
                "student's start can be graded until it does",
                spec.document.path if spec.document else None, line)
