"""`harness audit --suggest`: each exposing input written as a case file to review, which
`harness regen` then fills with the reference's transcript."""
import re
from pathlib import Path

from harness.errors import InputError
from harness.loading import yamlfile
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.suite.audit_results import Audit, Finding


def suggest(report: Audit, spec: Spec, cases: list[Case], folder: Path) -> list[Path]:
    """Each exposing input as a case file to review in `folder` (no expected transcript:
    `harness regen` fills it), named after the mutant; an existing file is left as it is."""
    written = []
    for result in report.verdicts(Finding.EXPOSED):
        search, mutant = result.search, result.mutant
        base = next((c for c in cases if c.name == search.case), None)
        name = re.sub(r"[^a-z0-9]+", "-", f"audit {mutant.function or 'module'} {mutant.line} {mutant.operator}".lower())
        path = folder / f"{name.strip('-')}.yaml"
        if path.exists():
            continue
        case = {"description": f"Found by the audit: {mutant.description} in {mutant.function or 'module level'} "
                               f"({mutant.id}) passes every case; review, then `harness regen`"}
        if search.milestone:
            case["milestone"] = search.milestone
        if base is not None and base.target != next(iter(spec.targets)):
            case["target"] = base.target
        case.update({"rubric": search.items[0], "points": 1, "visibility": "public"})
        if base is not None and base.args:
            case["args"] = list(base.args)
        if search.seed is not None and (base is None or base.data.get("seed") is not None or search.seed != base.seed):
            case["seed"] = search.seed
        case["inputs"] = list(search.inputs)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(yamlfile.dump(case), encoding="utf-8")
        except OSError as problem:
            raise InputError(f"cannot write {path} ({problem.strerror or problem}); choose another --suggest folder")
        written.append(path)
    return written
