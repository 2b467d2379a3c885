"""The case results a random start's decisions make (`harness.starts.drawing` decides, this
module builds): the run a case's draws kept, the setup cases settled by more runs, and the check
of the law of the starts as one case of the setup item."""
import dataclasses
from typing import Callable

from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.results import FAILED, PASSED, UNGRADABLE, CaseResult, Origin, Visibility
from harness.starts import drawing, law
from harness.starts.drawing import Drawn, LawCheck, RunCases

LAW_TITLE = "The random setup is drawn as the handout says"


def kept(drawn: Drawn) -> CaseResult:
    """The case's result from its draws: the run kept, with the status they decided and every start they showed."""
    result = drawn.result
    changes = {"starts": drawn.starts, "against_rules": drawn.against_rules,
               "notes": result.notes + ([drawn.note] if drawn.note else [])}
    if drawn.status is not None:
        changes.update(status=drawn.status, charged_to=drawn.charged_to)
    return dataclasses.replace(result, **changes)


def complete(spec: Spec, cases: list[Case], results: list[CaseResult], built: Callable[[str], bool],
             run_cases: RunCases, budget=None) -> list[CaseResult]:
    """The submission's case results with what its starts add: the check of their law, then the
    setup cases settled. `built(target)` says whether a target's build can run; `run_cases` runs
    more cases the way the first ones ran (same builds, same budget)."""
    check = drawing.law_check(spec, cases, results, built, run_cases, budget)
    results = results + ([law_result(check)] if check is not None else [])
    return settle(spec, cases, results, built, run_cases)


def settle(spec: Spec, cases: list[Case], results: list[CaseResult], built: Callable[[str], bool],
           run_cases: RunCases) -> list[CaseResult]:
    """The results with each setup case that `drawing.settle` ran again replaced by the run that stands."""
    settled = list(results)
    for again in drawing.settle(spec, cases, results, built, run_cases):
        settled[again.index] = dataclasses.replace(
            again.result, runs=again.runs, starts=again.starts, against_rules=again.against_rules,
            notes=again.result.notes + [again.note])
    return settled


def law_result(check: LawCheck) -> CaseResult:
    """The check as one case of the setup item: failed when the law is broken, not counted
    when too few starts could be seen (the program's other cases say why), failed when the
    submission's time budget left it without them."""
    rule, verdict = check.rule, check.verdict
    status = PASSED if verdict.passed else FAILED if verdict.passed is False else UNGRADABLE
    reason = "" if verdict.passed else verdict.reason
    if check.cut_short is not None:
        status, reason = FAILED, f"not run in full: {check.cut_short}; {reason}"
    return CaseResult(law.CHECK_NAME, LAW_TITLE, rule.rubric or "", rule.points, Visibility.PUBLIC, status,
                      reason=reason, notes=law.notes(rule, verdict), runs=verdict.starts,
                      against_rules=check.against_rules, origin=Origin.LAW_CHECK)
