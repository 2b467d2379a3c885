"""What one pytest run over a game's cases holds, and what it says about a case.

The spec and the cases are loaded and checked before collection, so a malformed one stops
the run with its file and line, as every harness command does. The submission is built at
most once per process, when the first case that needs a target runs (under pytest-xdist each
worker builds its own; the build cache makes the second one a copy), and removed when pytest
ends. A case runs exactly as `harness run` runs it: `grading.run_job` in this process, its runs
counted against the submission's time budget (one per pytest process, made with the first case).
"""
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from harness.building import build as builder
from harness.loading import cases as caseload
from harness.loading import config
from harness.grading import submission as grading
from harness.loading import paths
from harness.running import runner
from harness.running import sandbox
from harness.loading import spec as specs
from harness.running.budget import Budget
from harness.loading.cases import Case
from harness.errors import InputError
from harness.reporting import terminal
from harness.results import FAILED, HARNESS_ERROR, MARKS, PASSED, CaseResult
from harness.safe_text import cap, visible
from harness.loading.spec import Spec

TEXT_CHARS = 3000  # of a reason, a note or a compiler's error in a failure's text


@dataclass
class Verdict:
    """A case's outcome for pytest: passed, failed or harness-error, and what a person reads."""
    status: str
    text: str = ""
    result: CaseResult | None = None


@dataclass
class GameRun:
    spec: Spec
    milestone: str | None
    cases: dict[Path, Case]  # by resolved file path, in the order the harness loads them
    submission: Path
    builds: dict[str, builder.Build] = field(default_factory=dict)
    made: list[builder.Build] = field(default_factory=list)  # the builds this run must remove
    adopted: bool = False  # this process adopts a program's orphans (as `harness run` does)
    budget: Budget | None = None  # the submission's time budget in this process, made with its first case

    @property
    def folder(self) -> Path:
        """The game's case folder: what pytest collects."""
        return paths.cases_dir(self.spec.folder, self.spec.game).resolve()

    def node_path(self, path: Path) -> str:
        """A case file's node id where pytest's rootdir does not hold it: as the project names
        it (cases/GAME/NAME.yaml), the same from whatever folder pytest runs."""
        return path.resolve().relative_to(paths.root_of(self.spec.folder).resolve()).as_posix()

    def build_for(self, target: str) -> builder.Build:
        if target not in self.builds:
            built = grading._build(self.submission, self.spec, target)
            self.builds[target] = built
            self.made.append(built)
        return self.builds[target]

    def run(self, case: Case) -> Verdict:
        build = self.build_for(case.target)
        if not build.ok:
            return Verdict(FAILED, build_failure_text(build))
        if not self.adopted:
            runner.become_subreaper()  # escaped descendants come back to this process and are killed
            self.adopted = True
        if self.budget is None:
            self.budget = Budget.create(self.spec.submission_seconds)
        result = grading.run_job(grading.Job(self.spec, case, build, self.budget))
        return Verdict(result.status if result.status in (PASSED, HARNESS_ERROR) else FAILED,
                       "" if result.passed else failure_text(result), result)

    def close(self) -> None:
        if self.budget is not None:
            self.budget.remove()
        while self.made:
            try:
                builder.cleanup(self.made.pop())
            except OSError:
                pass  # a folder the program made undeletable must not fail the run


def open_run(game: str, submission: str, public_only: bool = False, allow_unconfined: bool = False) -> GameRun:
    """The spec, its checked cases and the submission; any problem is an InputError."""
    config.load()  # a bad HARNESS_* setting stops the run before anything is collected
    spec, milestone = specs.parse_game(game)
    path = Path(submission).expanduser()
    if not path.exists():
        raise InputError(f"--submission: no such file or folder: {submission}")
    path = path.resolve()
    found = caseload.load_all(spec, milestone, public_only=public_only)
    builds = {}
    if path.is_file() and os.access(path, os.X_OK) and not path.suffix:
        # a ready program stands for the first target and runs as it is (as in `harness run`)
        target = next(iter(spec.targets))
        found = [case for case in found if case.target == target]
        builds = {target: builder.Build(target, "program", True, run=[str(path), "{args}"])}
    if not found:
        where = f"{spec.game}{':' + milestone if milestone else ''}"
        raise InputError(f"--game {game}: no {'public ' if public_only else ''}cases for {where} "
                         f"in cases/{spec.game}/")
    caseload.require_expectations(found)
    if not public_only:  # a student's self-check runs like `harness check`; grading needs the sandbox
        sandbox.require(allow_unconfined)
    return GameRun(spec, milestone, {case.path.resolve(): case for case in found}, path, builds)


def collection_args(folder: Path, given: list[str], explicit: bool, base: Path) -> list[str]:
    """What pytest collects: the paths given when each is inside the game's case folder (so a
    node id a run printed can be run again), else the whole case folder."""
    def inside(arg: str) -> bool:
        where = (base / arg.split("::")[0]).resolve()
        return where == folder or folder in where.parents
    if explicit and given and all(inside(arg) for arg in given):
        return list(given)
    return [str(folder)]


def _safe(text: str) -> str:
    return visible(cap(text, TEXT_CHARS))


def failure_text(result: CaseResult) -> str:
    """The harness's own account of a case that did not pass: verdict, reason, hint, notes and
    the first divergent turn as `harness run -v` shows it."""
    lines = [f"{MARKS[result.status]} {result.name} [{result.rubric}]: {_safe(result.reason)}"]
    if result.charged_to:
        lines.append(f"  counted against {result.charged_to}")
    if result.hint:
        lines.append(f"  hint: {_safe(result.hint)}")
    lines += [f"  note: {_safe(note)}" for note in result.notes]
    turn = io.StringIO()
    terminal.explain_failures(SimpleNamespace(cases=[result]), turn, every=True)
    return "\n".join(lines) + turn.getvalue()


def build_failure_text(build: builder.Build) -> str:
    """Why no case of this target could run: the build's reason and the compiler's first error."""
    language = f" ({build.language})" if build.language else ""
    lines = [f"not run: the submission's build of {build.target}{language} failed: {_safe(build.reason)}"]
    shown = build.diagnosis or "\n".join(build.log.strip().splitlines()[-15:])
    if shown.strip():
        lines += ["    " + line for line in _safe(shown).splitlines()]
    return "\n".join(lines)


def header(run: GameRun) -> str:
    milestone = f" {run.milestone}" if run.milestone else ""
    return (f"game-harness: {run.spec.title}{milestone}, {len(run.cases)} cases, submission {visible(str(run.submission))}; "
            f"{sandbox.describe()}")
