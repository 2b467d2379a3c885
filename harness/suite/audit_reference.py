"""The reference the audit mutates: the Python file the spec's reference command runs (or a
recipe's Java or C++ sources), a mutant's copy of it, the command that runs that copy (under the
line tracer too), and the seeds that make a mutant draw what the reference drew."""
import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from harness.building import build as builder
from harness.errors import InputError
from harness.loading import paths
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.suite import mutants, source_mutants

LINETRACE = Path(__file__).with_name("linetrace.py")


@dataclass(frozen=True)
class Reference:
    """The file the spec's reference command runs, and the folder a mutant's copy is made of."""
    path: Path  # the module or script mutated
    module: str | None  # the `-m` name, or None for a script
    root: Path  # copied for each mutant: the top package's folder, or the script's folder
    name: str  # as the report shows it (relative to the folder it was found in)

    def copied(self, where: Path) -> Path:
        """Where the mutated file sits in a copy made under `where`."""
        return where / self.path.relative_to(self.root.parent)


def resolve(spec: Spec) -> Reference:
    """The Python file the spec's `reference:` command runs: `-m MODULE` (found beside the
    harness, where the references' PYTHONPATH points) or a `.py` script."""
    words = spec.reference_command(None, next(iter(spec.targets)), [])
    line = spec.document.line_of(["reference"]) if spec.document else None
    where = spec.document.path if spec.document else spec.folder / "spec.yaml"
    if "-m" in words[:-1]:
        module = words[words.index("-m") + 1]
        parts = module.split(".")
        base = paths.install_root()
        for path in (base.joinpath(*parts).with_suffix(".py"), base.joinpath(*parts, "__main__.py")):
            if path.is_file():
                root = base / parts[0] if len(parts) > 1 or path.name == "__main__.py" else path
                return Reference(path, module, root, str(path.relative_to(base)))
        raise InputError(f"reference: module {module} is not a Python file under {base}; the audit mutates the "
                         "module the reference command runs", where, line)
    for word in words[1:]:
        if word.endswith(".py") and Path(word).is_file():
            path = Path(word).resolve()
            return Reference(path, None, path.parent, path.name)
    raise InputError("reference: the audit needs a command that runs a Python module (-m MODULE) or a .py script, "
                     "to mutate it", where, line)


def copy_command(spec: Spec, reference: Reference, milestone: str | None, target: str, copy: Path) -> list[str]:
    """The spec's reference command, running the copy in `copy` instead of the original."""
    words = spec.reference_command(milestone, target, [])
    search = [str(paths.install_root())]
    if reference.module:
        search.insert(0, str(copy))
    else:
        words = [str(reference.copied(copy)) if w.endswith(".py") and Path(w).resolve() == reference.path else w
                 for w in words]
    # run as the references are (PYTHONPATH, no bytecode written); a ready build's run has no environment of its own
    return ["env", f"PYTHONPATH={os.pathsep.join(search)}", "PYTHONDONTWRITEBYTECODE=1", *words]


def traced_command(command: list[str], reference: Reference, copy: Path, out: Path) -> list[str]:
    """The same command under the line tracer, recording the mutated file's executed lines in `out`."""
    at = next(i for i, w in enumerate(command) if w == "-m" or w.endswith(".py") and "=" not in w)
    return command[:at] + [str(LINETRACE), str(out), str(reference.copied(copy))] + command[at:]


def ready_build(target: str, copy: Path, run: list[str], language: str = "python") -> builder.Build:
    return builder.Build(target, language, True, src=str(copy), run=[*run, "{args}"],
                         intake=["a mutant of the reference, run as it is (trusted code: no sandbox)"])


@dataclass(frozen=True)
class Sources:
    """A reference built from a recipe: the spec folder's files it is built from, and those the
    source operators mutate (the Java or C++ ones)."""
    folder: Path
    files: tuple[str, ...]
    mutated: tuple[str, ...]
    language: str

    @property
    def name(self) -> str:
        return ", ".join(self.mutated)

    def copy(self, where: Path, mutant: mutants.Mutant | None = None) -> Path:
        """The recipe's files copied into `where`, the mutant's file changed."""
        for name in self.files:
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(self.folder / name, where / name)
        if mutant is not None:
            (where / mutant.module).write_text(mutant.source, encoding="utf-8")
        return where


def sources_of(spec: Spec) -> Sources:
    """The recipe's files of a built reference, and which of them the operators read."""
    recipe = spec.reference
    mutated = tuple(name for name in recipe.files if source_mutants.language_of(name))
    if not mutated:
        line = spec.document.line_of(["reference", "files"]) if spec.document else None
        where = spec.document.path if spec.document else spec.folder / "spec.yaml"
        raise InputError("reference.files: the audit mutates Java or C++ sources (.java, .cpp, .cc, .h, .hpp) and "
                         "the recipe names none", where, line)
    return Sources(spec.folder, tuple(recipe.files), mutated, recipe.name)


def made_from(sources: Sources) -> list[mutants.Mutant]:
    """Every source mutant of the recipe's files, file by file in the recipe's order."""
    made = []
    for name in sources.mutated:
        try:
            text = (sources.folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as problem:
            raise InputError(f"reference.files: cannot read {name} in {sources.folder} ({problem})")
        made += source_mutants.generate(text, name, source_mutants.language_of(name))
    return made


def copy_of(reference: Reference, where: Path, source: str | None = None) -> Path:
    """A copy of the reference's package (or script folder) in `where`; `source` replaces the module."""
    target = where / reference.root.name
    if reference.root.is_dir():
        shutil.copytree(reference.root, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    else:
        shutil.copy2(reference.root, target)
    if source is not None:
        reference.copied(where).write_text(source, encoding="utf-8")
    return where


# --- seeds: the mutant draws what the reference drew --------------------------------------

def seeded(spec: Spec, cases: list[Case]) -> tuple[Spec, list[Case]]:
    """The spec and cases as a mutant runs them: each case with the seed the reference was given
    for its expected transcript, passed with the reference's own seed option."""
    if not spec.seed_option:
        return spec, cases
    targets = {tid: replace(t, seed_args=[spec.seed_option, "{seed}"]) for tid, t in spec.targets.items()}
    out = []
    for case in cases:
        fixed = start.seed if (start := spec.random_start_for(case.target)) else None
        seed = case.seed if case.seed is not None else fixed
        # a seeded run is the same every time, so a case's repeats (for programs that draw) add nothing
        out.append(replace(case, seed=seed, repeat=1) if seed is not None else case)
    return replace(spec, targets=targets), out
