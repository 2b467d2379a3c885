"""A reference given as a build recipe (`reference: {language, files, main}` in the spec), built
once and run like the program it grades.

An instructor's solution in Java or C++ is the reference as it is: compiled the way a target's
recipe compiles a submission (same defaults, same steps), kept in the build cache by content
(`build_cache`: the same sources, recipe, compiler and harness give the same program), and run
from the cache entry itself, so a grading that re-runs the reference many times pays one
compilation, and the next grading none. The reference is the course's own code: it is not run
in the sandbox, as a command reference is not.

Every front door prepares the spec where it loads it (`prepared`); the spec's workers get the
prepared spec, so no worker builds. A spec that reaches `Spec.reference_command` unprepared
is prepared there (found in the cache after the first time).
"""
import dataclasses
import shutil
import tempfile
import threading
from pathlib import Path

from harness.building import build as builder
from harness.building import build_cache, diagnose
from harness.building import jvm as jvm_archive
from harness.errors import InputError
from harness.loading import config
from harness.loading.spec import BuiltReference, Language, Spec
from harness.running import sandbox
from harness.running.environment import child_env
from harness.loading import paths

ERROR_LINES = 5  # of the compiler's output, in the message of a reference that does not compile

_lock = threading.Lock()
_built: dict[str, BuiltReference] = {}  # build key -> the build, for this process
_kept: list[tempfile.TemporaryDirectory] = []  # builds the cache would not keep, for this process


def prepared(spec: Spec, sources: Path | None = None, settings: config.Settings = config.DEFAULTS) -> Spec:
    """The spec whose `reference_command` runs its built reference (compiled from the recipe's
    files in `sources`, default the spec folder, once and cached by content); a command
    reference, or a spec already prepared from these sources, is returned as it is. A reference
    that does not compile is an InputError at spec.yaml's `reference` line. `settings` (the
    front door's): whether the compiler runs in the sandbox, and whether a Java reference
    uses the JDK's class-data archive."""
    if isinstance(spec.reference, str):
        return spec
    folder = Path(sources or spec.folder)
    if spec.built is not None and spec.built.sources == str(folder):
        return spec
    with _lock:  # builder threads of one grading share one build
        return dataclasses.replace(spec, built=_build(spec, spec.reference, folder, settings))


def _build(spec: Spec, recipe: Language, folder: Path, settings: config.Settings) -> BuiltReference:
    steps = recipe.build if recipe.build is not None else builder.RECIPES[recipe.name]["build"]
    if not steps:  # an interpreted reference runs from its own folder
        values = {"src": str(folder), "out": str(folder), "python": builder.SUBMISSION_PYTHON,
                  "main": recipe.main or recipe.files[0], "jvm": builder.JVM_FLAGS}
        return BuiltReference(tuple(builder.run_command(recipe, values)), str(folder))
    staging = Path(tempfile.mkdtemp(prefix=paths.temporary("reference")))
    try:
        out = staging / "out"
        out.mkdir()
        staged = builder.Staged(staging)
        for name in recipe.files:
            try:
                text = (folder / name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as problem:
                raise _refused(spec, f"cannot read the reference's source {name} in {folder} ({problem})")
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_text(text, encoding="utf-8", newline="")
            staged.student[name] = text  # where java_main finds the main class's package
        exts = builder.RECIPES[recipe.name]["exts"]
        staged.required = recipe.compile or [name for name in recipe.files if name.endswith(exts)]
        key = build_cache.key(recipe.name, steps, staged.sources, staging, out)
        if key in _built:  # built in this process already (maybe from an identical copy elsewhere)
            return dataclasses.replace(_built[key], sources=str(folder))
        values = {"src": str(staging), "out": str(out), "python": builder.SUBMISSION_PYTHON,
                  "main": recipe.main or "", "jvm": []}
        log = builder.Build("reference", recipe.name, False, sandboxed=sandbox.available(settings.sandbox),
                            sandbox_setting=settings.sandbox)
        compiled = builder.compile_cached(recipe, staged, values, log)
        if not compiled.ok:
            shown = diagnose.first_error(compiled.log) or compiled.reason
            lines = [line for line in compiled.log.splitlines() if line.strip() and not line.startswith("$ ")]
            raise _refused(spec, f"the reference does not compile ({shown}); the compiler said: "
                                 + " | ".join(lines[:ERROR_LINES] or [compiled.reason]))
        home = _home(key, out)
        jvm = builder.JVM_FLAGS + (jvm_archive.archive_flags(child_env(str(staging)), settings.no_cds) if recipe.name == "java" else [])
        values.update(out=str(home), jvm=jvm)
        if recipe.name == "java" and recipe.main:
            values["main"] = builder.java_main(home, recipe.main, staged)
        built = BuiltReference(tuple(builder.run_command(recipe, values)), str(folder))
        if key:
            _built[key] = built
        return built
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _home(key: str | None, out: Path) -> Path:
    """Where the built reference lives from now on: its cache entry, or (when the cache would not
    keep it) a folder of this process's own."""
    if key:
        entry = build_cache.folder() / key / "out"
        if entry.is_dir():
            return entry
    kept = tempfile.TemporaryDirectory(prefix=paths.temporary("reference-built"))
    _kept.append(kept)
    home = Path(kept.name) / "out"
    shutil.copytree(out, home, symlinks=True)
    return home


def _refused(spec: Spec, why: str) -> InputError:
    document = spec.document
    path = document.path if document is not None else spec.folder / "spec.yaml"
    line = document.line_of(["reference"]) if document is not None else None
    return InputError(f"reference: {why}; fix the reference's sources or its recipe", path, line)
