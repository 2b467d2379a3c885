"""What every platform's front door does before it writes its own format: the game's spec
prepared and its cases loaded (refused with a clear message when there are none or a transcript
is missing), the sandbox required, the submission's folder checked, and one grading, all under
the settings the command read once (`config.load()` in the command line's `main`)."""
from dataclasses import replace
from pathlib import Path

from harness.errors import InputError
from harness.loading import config


def grade_folder(game: str, folder: Path, *, select: str | None, allow_unconfined: bool, name: str,
                 missing: str, settings: config.Settings, budget: float | None = None):
    """(spec, result) of grading `folder` as a submission named `name`; `missing` is the fix
    told when the folder is not there; `budget` caps the submission's time (a platform's timeout);
    `settings`: the command's HARNESS_* settings."""
    import threading

    from harness.building import reference
    from harness.classes import executor
    from harness.loading import cases as caseload
    from harness.loading import spec as specs
    from harness.running import sandbox

    spec, milestone = specs.parse_game(game, settings.root)
    if budget:
        spec = replace(spec, submission_seconds=min(spec.submission_seconds, budget), budget_given=True)
    spec = reference.prepared(spec, settings=settings)
    found = caseload.load_all(spec, milestone, select)
    if not found:
        raise InputError(f"no cases for {game}{' matching ' + repr(select) if select else ''} in cases/{spec.game}/")
    caseload.require_expectations(found)
    sandbox.require(allow_unconfined, settings.sandbox)
    if not folder.is_dir():
        raise InputError(f"no {name} folder {folder}; {missing}")
    # through the machine's gate, as any grading on a machine another harness process may share
    with executor.StoppableGrader(threading.Event(), settings=settings) as grader:
        return spec, grader.grade(spec, milestone, found, folder, name=name)
