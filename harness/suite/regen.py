"""Expected transcripts, regenerated from the reference: what changed, and --check for CI."""
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from harness.judging import compare
from harness.loading import yamlfile
from harness.loading.cases import Case
from harness.running.environment import Workdir, fork_server
from harness.errors import InputError
from harness.grading.submission import make_inputs, run_reference
from harness.starts.drawing import reference_seed_args
from harness.outcome import End
from harness.loading.spec import Spec


@dataclass
class Regenerated:
    case: Case
    expect: dict
    changed: bool
    summary: str  # what changed, for a person


def expected_for(spec: Spec, case: Case) -> dict:
    with Workdir() as home:
        try:
            run = run_reference(spec, case, reference_seed_args(spec, case), make_inputs(spec, case, home), home)
        except RuntimeError as problem:  # the reference could not plan the case's strategy
            line = case.document.line_of(["inputs"]) if case.document else 1
            raise InputError(f"{problem}; fix the strategy in inputs", case.path, line)
    if run.end.stopped or run.end.kind == "signal":
        raise InputError(f"the reference did not finish this case ({run.end.label()}: {run.detail}); fix the inputs",
                         case.path, 1)
    return {"exit": run.end.value, "transcript": run.events}


def regenerate(spec: Spec, case: Case) -> Regenerated:
    new = expected_for(spec, case)
    old = case.expect
    if old == new:
        return Regenerated(case, new, False, "unchanged")
    if old is None:
        return Regenerated(case, new, True, "new expected transcript")
    result = compare.compare(old["transcript"], End.parse(old["exit"]), new["transcript"], End.parse(new["exit"]),
                             compare.View(compare.policy("exact")))
    parts = []
    if result.first_divergence is not None:
        parts.append(result.difference)
    parts += result.problems
    return Regenerated(case, new, True, "; ".join(parts) or "transcript events regrouped")


def _regenerate_job(job: tuple[Spec, Case]) -> tuple[dict, bool, str]:
    outcome = regenerate(*job)
    return outcome.expect, outcome.changed, outcome.summary


def regenerate_all(selected: list[tuple[Spec, Case]], jobs: int) -> list[Regenerated]:
    """Every case regenerated, in order, references run side by side in worker processes (each
    run kills what it started, so runs must not share a process)."""
    if len(selected) < 2 or jobs < 2:
        return [regenerate(spec, case) for spec, case in selected]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=fork_server()) as pool:
        done = list(pool.map(_regenerate_job, selected))
    return [Regenerated(case, expect, changed, summary) for (_, case), (expect, changed, summary) in zip(selected, done)]


def write(regenerated: Regenerated) -> None:
    """Rewrite the case's `expect:`; the rest of the file (comments included) stays as written."""
    case = regenerated.case
    text = case.path.read_text(encoding="utf-8")
    data = dict(case.data)
    keys = list(data)
    data["expect"] = regenerated.expect
    if keys and keys[-1] == "expect" or "expect" not in keys:
        line = case.document.line_of(["expect"]) if "expect" in keys else None
        head = text.splitlines(keepends=True)[: line - 1] if line else text.splitlines(keepends=True)
        head_text = "".join(head)
        if head_text and not head_text.endswith("\n"):
            head_text += "\n"
        case.path.write_text(head_text + yamlfile.dump({"expect": regenerated.expect}), encoding="utf-8")
    else:
        case.path.write_text(yamlfile.dump(data), encoding="utf-8")
