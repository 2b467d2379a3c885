"""What one pytest run over a game's cases holds, and what it says about a case.

The spec and the cases are loaded and checked before collection, so a malformed one stops
the run with its file and line, as every harness command does. The submission is graded
once, by `Grader.grade` as `harness grade` grades it (builds, the draws of random starts, the
law of the starts, the settling of setup cases, the time budget), over the cases pytest
selected, when the first item runs; each item then reports its case's verdict, so the plugin
and `harness grade` give the same verdicts. Under pytest-xdist the first worker to get a lock
in a folder the controller made grades, and the others read its result.

The run is this process's front door: `open_run` reads the HARNESS_* settings once
(`config.load()`) and the run hands them to everything it calls.
"""
import contextlib
import fcntl
import io
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from harness import atomic
from harness.building import build as builder
from harness.errors import InputError
from harness.grading import submission as grading
from harness.loading import cases as caseload
from harness.loading import config, paths
from harness.building import reference
from harness.loading import spec as specs
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.reporting import terminal
from harness.starts.law import CHECK_NAME
from harness.results import FAILED, HARNESS_ERROR, MARKS, PASSED, BuildSummary, Cause, CaseResult, Status, SubmissionResult
from harness.running import sandbox
from harness.safe_text import cap, visible

TEXT_CHARS = 3000  # of a reason, a note or a compiler's error in a failure's text


@dataclass
class CaseVerdict:
    """A case's outcome for pytest: passed, failed or harness-error, and what a person reads."""
    status: Status
    text: str = ""
    result: CaseResult | None = None


@dataclass
class GameRun:
    spec: Spec
    milestone: str | None
    cases: dict[Path, Case]  # by resolved file path, in the order the harness loads them
    submission: Path
    settings: config.Settings = config.DEFAULTS  # read once by open_run, for the spec, the sandbox and the grading
    builds: dict[str, builder.Build] | None = None  # given for a ready program; else Grader.grade builds
    selected: list[Case] = field(default_factory=list)  # the cases pytest will run, once collected
    shared: Path | None = None  # under pytest-xdist: the folder where one worker leaves the grading
    graded: SubmissionResult | None = None

    @property
    def folder(self) -> Path:
        """The game's case folder: what pytest collects."""
        return paths.cases_dir(self.spec.folder, self.spec.game).resolve()

    @property
    def law_case(self) -> str | None:
        """The case whose file also holds the check of the law of the starts, if the spec has one."""
        law = self.spec.random_start.law if self.spec.random_start else None
        return law.case if law else None

    def node_path(self, path: Path) -> str:
        """A case file's node id where pytest's rootdir does not hold it: as the project names
        it (cases/GAME/NAME.yaml), the same from whatever folder pytest runs."""
        return path.resolve().relative_to(paths.root_of(self.spec.folder).resolve()).as_posix()

    def select(self, cases: list[Case], law_selected: bool) -> None:
        """The cases of the items pytest kept (-k, --lf, paths); the law's case joins them when
        its check is selected, since the check is made from that case's runs."""
        names = {case.name for case in cases}
        if law_selected and self.law_case not in names:
            names.add(self.law_case)
        self.selected = [case for case in self.cases.values() if case.name in names]

    def result(self) -> SubmissionResult:
        """The submission graded once over the selected cases (under xdist: by one worker)."""
        if self.graded is None:
            self.graded = self._shared_grading() if self.shared is not None else self._grade()
        return self.graded

    def _grade(self) -> SubmissionResult:
        with grading.Grader(settings=self.settings) as grader:
            return grader.grade(self.spec, self.milestone, self.selected, self.submission, self.builds)

    def _shared_grading(self) -> SubmissionResult:
        stored = self.shared / "result.json"
        with open(self.shared / "lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait here while the first grades
            if not stored.exists():
                atomic.write_text(stored, json.dumps(self._grade().to_json()))
        return SubmissionResult.from_json(json.loads(stored.read_text(encoding="utf-8")))

    def verdict(self, name: str) -> "CaseVerdict":
        """A case's (or the law check's) verdict from the one grading."""
        graded = self.result()
        result = next((case for case in graded.cases if case.name == name), None)
        target = self.law_target() if name == CHECK_NAME else next(
            case.target for case in self.cases.values() if case.name == name)
        build = graded.builds.get(target)
        if build is not None and not build.ok and (result is None or result.cause == Cause.NOT_BUILT):
            return CaseVerdict(FAILED, build_failure_text(build), result)
        if result is None:
            return CaseVerdict(HARNESS_ERROR, f"the grading made no result for {name} (not the program's fault)")
        return CaseVerdict(result.status if result.status in (PASSED, HARNESS_ERROR) else FAILED,
                       "" if result.passed else failure_text(result), result)

    def law_target(self) -> str:
        return next(case.target for case in self.cases.values() if case.name == self.law_case)

@contextlib.contextmanager
def shared_folder():
    """A private folder for the workers of one xdist run, removed when the run ends."""
    folder = Path(tempfile.mkdtemp(prefix=paths.temporary("pytest")))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def open_run(game: str, submission: str, public_only: bool = False, allow_unconfined: bool = False) -> GameRun:
    """The spec, its checked cases and the submission; any problem is an InputError."""
    settings = config.load()  # once, here; a bad HARNESS_* setting stops the run before anything is collected
    spec, milestone = specs.parse_game(game, settings.root)
    spec = reference.prepared(spec, settings=settings)
    path = Path(submission).expanduser()
    if not path.exists():
        raise InputError(f"--submission: no such file or folder: {submission}")
    path = path.resolve()
    found = caseload.load_all(spec, milestone, public_only=public_only)
    builds = None
    if path.is_file() and os.access(path, os.X_OK) and not path.suffix:
        # a ready program stands for the first target and runs as it is (as in `harness run`)
        target = next(iter(spec.targets))
        found = [case for case in found if case.target == target]
        builds = {target: builder.Build(target, "program", True, run=[str(path), "{args}"],
                                        sandbox_setting=settings.sandbox)}
    if not found:
        where = f"{spec.game}{':' + milestone if milestone else ''}"
        raise InputError(f"--game {game}: no {'public ' if public_only else ''}cases for {where} "
                         f"in cases/{spec.game}/")
    caseload.require_expectations(found)
    if not public_only:  # a student's self-check runs like `harness check`; grading needs the sandbox
        sandbox.require(allow_unconfined, settings.sandbox)
    return GameRun(spec, milestone, {case.path.resolve(): case for case in found}, path, settings, builds)


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


def build_failure_text(build: BuildSummary) -> str:
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
            f"{sandbox.describe(run.settings.sandbox)}")
