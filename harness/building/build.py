"""Build a submission for one target, in small steps with one job each:
choose the language -> stage the files -> compile -> make the run command.

A build happens once per submission and target; every case then runs the built program.
All of the student's sources of the language are compiled (helper classes too), the spec's
support files win over a student's file of the same name, and every adaptation (a file found
under another letter case, a package, a byte-order mark, a candidate left out) is an intake
line for the report, never a deduction. A missing file or a failed build is a result (with
the compiler's first error and a hint), not a crash.

Names are data: a student's file name never becomes an option. A source whose name could read
as one (`-J-XX:...=x.java`, `--foo=bar.cpp`, `@args`) is passed as `./name`; Java sources are
compiled only under names that are Java class names (see `java_name_problem`); what a build
says is made writable text (`safe_text`), its one-line notes kept on one line.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from harness.building import build_cache
from harness.building import diagnose
from harness.building import intake
from harness import safe_text
from harness.running import sandbox
from harness.building import source_checks
from harness.building import jvm as jvm_archive
from harness.loading import config, paths
from harness.running.environment import child_env
from harness.building.intake import Choice, IntakeProblem, Submission
from harness.loading.spec import Language, Spec, Target
from harness import languages

JVM_FLAGS = [
    "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:-UsePerfData", "-Xshare:auto", "-Xmx256m",
    "-XX:ErrorFile=/tmp/hs_err_%p.log", "-Dfile.encoding=UTF-8",
]
# Each graded language's default recipe (harness.languages): the files it compiles, the ones it
# includes, its build steps and its run command.
RECIPES = {language.name: {"exts": language.sources, "headers": language.headers, "build": list(language.build),
                           "run": language.run} for language in languages.GRADED}
# A submission's Python is the real interpreter, not a virtual environment's link to it: the
# environment may sit in a folder the sandbox hides, and -S needs no site-packages anyway.
SUBMISSION_PYTHON = os.path.realpath(sys.executable)
BUILD_SECONDS = 120
MAX_LOG_CHARS = 200_000
_MAIN_FUNCTION = re.compile(r"\b(?:int|void|auto|signed)\s+main\s*\(")
_PACKAGE = re.compile(r"^[ \t]*package\s+([\w.]+)\s*;", re.M)
OPTION_MARKS = ("-", "@")  # how a compiler's option or argument file starts (javac and g++ alike)
# What a compiler's output says when it did not judge the sources: it crashed or could not start.
NOT_A_VERDICT = ("Could not create the Java Virtual Machine", "OutOfMemoryError", "The system is out of resources",
                 "An exception has occurred in the compiler", "A fatal error has been detected by the Java Runtime",
                 "internal compiler error", "Killed signal terminated program")


@dataclass
class Build:
    """A target built from a submission (or why it could not be): where it is and how to run it."""
    target: str
    language: str | None
    ok: bool
    src: str = ""  # folder holding the sources (and the build's working folder)
    out: str = ""  # folder holding what the build produced
    run: list[str] = field(default_factory=list)  # run command; the word "{args}" stands for the arguments
    log: str = ""  # compiler output
    reason: str = ""  # why it cannot run, for a person: one line
    findings: list[str] = field(default_factory=list)  # source checks that matched
    seconds: float = 0.0
    hidden: list[str] = field(default_factory=list)  # folders the sandbox hides from the program
    sandboxed: bool = False  # built, and run, in bubblewrap
    sandbox_setting: str = "auto"  # HARNESS_SANDBOX as the front door read it: travels to the case workers
    intake: list[str] = field(default_factory=list)  # what was found, used and how it was built
    diagnosis: str = ""  # the compiler's first error and hints on non-portable code
    missing_files: bool = False  # not built because required files are missing (not a compiler error)
    reused: bool = False  # the compiled output is the build cache's: said to the instructor only (BuildSummary.reused)

    def command(self, args: list[str]) -> list[str]:
        words = []
        for word in self.run:
            words += [str(a) for a in args] if word == "{args}" else [word]
        return words


@dataclass
class Staged:
    """The build folder's sources, each under the name it is built with."""
    folder: Path
    student: dict[str, str] = field(default_factory=dict)  # staged name -> text, the student's files
    required: list[str] = field(default_factory=list)  # the spec's files (and support) to compile
    extras: list[str] = field(default_factory=list)  # the student's other files to compile
    notes: list[str] = field(default_factory=list)

    @property
    def sources(self) -> list[str]:
        return self.required + self.extras


def expand(template: str, **values) -> list[str]:
    """Split a command template; a list value fills one `{name}` token with several words."""
    words = []
    for token in shlex.split(template):
        name = token[1:-1] if token.startswith("{") and token.endswith("}") else None
        if name in values and isinstance(values[name], list):
            words += [str(v) for v in values[name]]
        else:
            words.append(token.format(**{k: v for k, v in values.items() if not isinstance(v, list)}) if "{" in token else token)
    return words


# --- step 1: the language ------------------------------------------------------------

def choose_language(sub: Submission, target: Target) -> tuple[Language, dict[str, Choice], list[str]]:
    """The first language whose required files are all there; else the closest, with what is
    missing: the one with most of its files there, then most files written in it, then fewest
    missing. An optional file left out has no choice (its support copy stands in)."""
    ranked = []
    for order, lang in enumerate(target.languages.values()):
        choices = {name: intake.choose(sub.files, name) for name in lang.files + lang.optional}
        for name in lang.files:  # a lone source under another name (judy.java holding the handout's class)
            if choices[name].path is None:
                taken = {path for choice in choices.values() for path in [choice.path, *choice.ignored] if path}
                choices[name] = intake.renamed(sub, name, taken) or choices[name]
        missing = [name for name in lang.files if choices[name].path is None]
        if not missing:
            return lang, choices, []
        written = sum(intake.language_of(name) == lang.name for name in sub.files)
        ranked.append(((len(missing) - len(lang.files), -written, len(missing), order), lang, choices, missing))
    _, lang, choices, missing = min(ranked, key=lambda entry: entry[0])
    return lang, choices, missing


def _language_name(language: str) -> str:
    return languages.title(language)


def expected(target: Target) -> str:
    """What a target takes, the handout's language first: `Java: Main.java, Board.java
    (or Python: game.py)`."""
    languages = sorted(target.languages.values(), key=lambda lang: lang.name != target.handout_language)
    told = [f"{_language_name(lang.name)}: {', '.join(lang.files)}" for lang in languages]
    return told[0] + (f" (or {', or '.join(told[1:])})" if told[1:] else "")


def _missing(sub: Submission, target: Target, lang: Language, choices: dict[str, Choice],
             missing: list[str]) -> tuple[str | None, str]:
    """The language a submission that lacks files is taken to be in (None: nothing of any of
    the target's languages is there) and why it cannot be built: what was found, what is expected."""
    present = [name for name in lang.files if choices[name].path]
    written = [name for name in sub.files if intake.language_of(name) == lang.name]
    if present or written:
        return lang.name, (f"missing file{'s' if len(missing) > 1 else ''} {', '.join(missing)}: {intake.found(sub.files)}; "
                           f"a {_language_name(lang.name)} submission needs {', '.join(lang.files)}")
    others = sorted({_language_name(language) for name in sub.files
                     if (language := intake.language_of(name)) and language not in target.languages})
    kind = (f"{' and '.join(others)}, which this assignment does not take" if others else
            "no source file" if sub.files else "")
    return None, f"{intake.found(sub.files)}{f' ({kind})' if kind else ''}; this assignment expects {expected(target)}"

# --- step 2: staging -------------------------------------------------------------------

def _clean(data: bytes, name: str, notes: list[str]) -> str:
    """The source as UTF-8 text: a byte-order mark dropped, Windows-1252 text converted."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        notes.append(f"{name}: a UTF-8 byte-order mark was removed")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        notes.append(f"{name}: not UTF-8, read as Windows-1252")
        return data.decode("cp1252", errors="replace")


def _put(staged: Staged, name: str, text: str) -> None:
    path = staged.folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
    staged.student[name] = text


def stage(sub: Submission, spec: Spec, lang: Language, choices: dict[str, Choice], folder: Path) -> Staged:
    """Copy the chosen files under their spec names, the support files, and the student's
    other sources of the language (one per name) beside them."""
    recipe = RECIPES[lang.name]
    staged = Staged(folder)
    support = list(lang.support) + [name for name in lang.optional if choices[name].path is None]
    for name in support:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(spec.support_dir / name, folder / name)
        if name in lang.optional:
            staged.notes.append(f"{name}: not handed in; the provided copy is used")
    used, found = set(), []
    for name, choice in choices.items():
        if choice.path is None:
            continue
        _put(staged, name, _clean(intake.read_file(sub.root, choice.path), name, staged.notes))
        used.update([choice.path, *choice.ignored])
        found.append(name if choice.path == name else f"{name} (from {choice.path})")
        if choice.note:
            staged.notes.append(choice.note)
    staged.notes.insert(0, f"used: {', '.join(found)}")
    compiled = [n for n in [*lang.files, *lang.optional, *lang.support] if n.endswith(recipe["exts"])]
    staged.required = lang.compile or compiled
    if lang.compile is None:
        _stage_extras(sub, lang, choices, support, used, staged)
    if lang.name == "java":
        _unpackage_for_support(lang, staged)
    return staged


def _stage_extras(sub: Submission, lang: Language, choices: dict[str, Choice], support: list[str],
                  used: set[str], staged: Staged) -> None:
    """The student's other files of the language. Rules: one file per name (chosen as a
    required file is); a name the spec's support files have is left out; a C++ source that
    defines `main` is added only when no listed or support source does."""
    recipe = RECIPES[lang.name]
    exts = recipe["exts"] + recipe["headers"]
    taken = {PurePosixPath(n).name.lower() for n in [*choices, *support]}
    by_name: dict[str, list[str]] = {}
    for path in sub.files:
        if path not in used and path.lower().endswith(exts):
            by_name.setdefault(PurePosixPath(path).name.lower(), []).append(path)
    first = choices[lang.files[0]]
    anchor = PurePosixPath(first.path).parent if first.path else PurePosixPath()
    staged_anchor = PurePosixPath(lang.files[0]).parent
    main_given = lang.name == "cpp" and any(
        _MAIN_FUNCTION.search(diagnose.strip_comments((staged.folder / n).read_text(errors="replace")))
        for n in staged.required if (staged.folder / n).is_file())
    left_out = []
    for lower, paths in sorted(by_name.items()):
        choice = intake.choose(paths, PurePosixPath(paths[0]).name)
        if lower in taken:
            left_out.append(f"{', '.join(paths)} (the spec's own {PurePosixPath(paths[0]).name} is used)")
            continue
        if lang.name == "java" and (why := java_name_problem(PurePosixPath(choice.path).name)):
            left_out.append(f"{', '.join(paths)} ({why})")
            continue
        if choice.ignored:
            left_out.append(f"{', '.join(choice.ignored)} (another copy of {choice.path})")
        try:
            text = _clean(intake.read_file(sub.root, choice.path), choice.path, staged.notes)
        except IntakeProblem as problem:
            left_out.append(f"{choice.path} ({problem})")
            continue
        rel = PurePosixPath(choice.path)
        name = str(staged_anchor / rel.relative_to(anchor)) if rel.is_relative_to(anchor) else str(rel)
        if lang.name == "java":
            name = _plain_folders(name)
        if (staged.folder / name).exists():
            left_out.append(f"{choice.path} (its place {name} is taken)")
            continue
        is_unit = name.endswith(recipe["exts"])
        if is_unit and main_given and _MAIN_FUNCTION.search(diagnose.strip_comments(text)):
            left_out.append(f"{choice.path} (it defines main, and this target's program has its own)")
            continue
        _put(staged, name, text)
        if is_unit:
            staged.extras.append(name)
    if staged.extras:
        staged.notes.append(f"also compiled: {', '.join(staged.extras)}")
    if left_out:
        staged.notes.append(f"left out: {'; '.join(left_out)}")


def java_name_problem(file_name: str) -> str:
    """Why a student's Java source is not compiled, or "". Only a file named after a Java class
    (`Name.java`) is: a public class must live in a file of its name, so any other name
    (`Game (1).java`, `-J-XX:OnOutOfMemoryError=sh x.java`, `@args.java`, a name that is
    not UTF-8) can hold no public class; what it holds is most often a stray copy, and it
    never reaches javac, where such a name could be read as an option."""
    stem = file_name[:-len(".java")] if file_name.lower().endswith(".java") else file_name
    if stem.replace("$", "_").isidentifier():
        return ""
    return "not a Java class name, so it can hold no public class: not compiled"


def _plain_folders(name: str) -> str:
    """A Java source's staged path with each folder name made plain text (javac finds classes
    by their package, not by folder, and cannot open a path that is not UTF-8)."""
    parts = name.split("/")
    return "/".join([safe_text.one_line(part) for part in parts[:-1]] + parts[-1:])


def command_path(name: str) -> str:
    """A staged file's name as a compiler's command line gets it: never as an option or an
    argument file (`-x.cpp`, `@x` become `./-x.cpp`, `./@x`); other names as they are, so the
    compiler's messages name them as the student does."""
    return f"./{name}" if name.startswith(OPTION_MARKS) else name


def _unpackage_for_support(lang: Language, staged: Staged) -> None:
    """The course's support classes live in the default package; a student's files all in one
    package cannot be seen from there, so their package line is blanked (lines are kept)."""
    if not any(name.endswith(".java") for name in lang.support):
        return
    packages = {m[1] for text in staged.student.values() for m in _PACKAGE.finditer(diagnose.strip_comments(text))}
    if len(packages) != 1:
        return
    for name, text in staged.student.items():
        _put(staged, name, _PACKAGE.sub(lambda m: " " * len(m.group(0)), text, count=1))
    staged.notes.append(f"package {packages.pop()} removed so the course's classes (default package) see the student's")


# --- step 3: compiling -------------------------------------------------------------------

class Step(subprocess.CompletedProcess):
    """A build command's run, and the limit of its tree it ran into ("" when none)."""

    def __init__(self, args, returncode, stdout, limits_hit: str = ""):
        super().__init__(args, returncode, stdout)
        self.limits_hit = limits_hit


def run_step(command: list[str], *, cwd: str, env: dict, timeout: float) -> Step:
    """Run one build command with its whole tree bounded (memory and processes, see
    harness.running.limits); at the time limit everything it started is killed, the compiler's own
    children too. A limit it ran into is said at the end of its output, and in `limits_hit`."""
    from harness.running import limits
    done = limits.run_contained(command, cwd=cwd, env=env, seconds=timeout, tree=limits.BUILD_TREE)
    if done.timed_out:
        raise subprocess.TimeoutExpired(command, timeout, output=done.output.encode())
    said = f"\n[harness: {done.limits_hit}]\n" if done.limits_hit else ""
    return Step(command, done.status, (done.output + said).encode(), done.limits_hit or "")


@dataclass
class Compiled:
    """What the compile steps of one build did, for the report and the build cache."""
    ok: bool
    log: str
    reason: str = ""
    failed_command: list[str] = field(default_factory=list)
    warm: bool = False  # the warm compiler answered a step
    status: int | None = None  # the failed step's exit status
    commands: list[list[str]] = field(default_factory=list)  # every command line that ran
    limited: bool = False  # a step ran into a limit of its tree: the machine, not the sources, decided it


def _step(command: list[str], values: dict, result: Build, compiler) -> tuple[subprocess.CompletedProcess, bool]:
    """One build command: a javac command goes to the warm compiler when there is one that
    can answer it, anything else (and javac when it cannot) runs in the sandbox when the build is
    sandboxed."""
    reply = compiler.compile(command, values["src"], BUILD_SECONDS) if compiler is not None else None
    if reply is not None:
        if reply.status is None:
            raise subprocess.TimeoutExpired(command, BUILD_SECONDS)
        return subprocess.CompletedProcess(command, reply.status, reply.output.encode()), True
    # without bubblewrap the compiler is the run's unprivileged uid (as the program is): a
    # source's `#include "/path"` is read with no more rights than the program has
    confined = sandbox.wrap(command, writable=[values["src"]], readable=[], hidden=result.hidden, cwd=values["src"]) \
        if result.sandboxed else sandbox.unprivileged(command, [values["src"]], [], result.sandbox_setting)
    return run_step(confined, cwd=values["src"], env=child_env(values["src"]), timeout=BUILD_SECONDS), False


def compile_sources(steps: list[str], values: dict, result: Build, compiler=None) -> Compiled:
    """Run the build steps in order; the first failing one ends the build."""
    log, warm, commands = [], False, []
    for step in steps:
        command = expand(step, **values)
        commands.append(command)
        try:
            done, answered = _step(command, values, result, compiler)
            warm = warm or answered
        except subprocess.TimeoutExpired:  # the command line goes to the compiler output, not the one-line reason
            log.append(f"$ {_shown(command)}\n(stopped after {BUILD_SECONDS} s)\n")
            return Compiled(False, "".join(log), f"compiling took longer than {BUILD_SECONDS} s", command,
                            commands=commands)
        except OSError as problem:
            return Compiled(False, "".join(log), f"cannot run the build command {command[0]!r}: {problem}", command,
                            commands=commands)
        log.append(f"$ {_shown(command)}\n{done.stdout.decode('utf-8', 'replace')}"[:MAX_LOG_CHARS])
        if done.returncode != 0:
            return Compiled(False, "".join(log), f"the build failed (exit status {done.returncode})", command, warm,
                            done.returncode, commands, limited=bool(getattr(done, "limits_hit", "")))
    return Compiled(True, "".join(log), warm=warm, commands=commands)


def _shown(command: list[str]) -> str:
    """A command line for the log: each word quoted as a shell would, and on one line."""
    return shlex.join([safe_text.one_line(word) for word in command])


def compile_cached(lang: Language, staged: Staged, values: dict, result: Build, compiler=None) -> Compiled:
    """Reuse the build of identical sources if the cache has it; else compile and keep the result
    (unless the machine rather than the sources decided it: a time or tree limit)."""
    steps = lang.build if lang.build is not None else RECIPES[lang.name]["build"]
    out = Path(values["out"])
    key = build_cache.key(lang.name, steps, staged.sources, staged.folder, out) if steps else None
    entry = build_cache.load(key, out, values["src"]) if key else None
    if entry is not None:
        for name in entry.removed:
            (staged.folder / name).unlink(missing_ok=True)
        staged.extras = entry.extras
        staged.notes += entry.notes
        result.reused = True  # not an intake line: no student may learn that another uploaded the same sources
        return Compiled(entry.ok, entry.log, entry.reason, entry.failed_command)
    before, notes = list(staged.extras), len(staged.notes)
    compiled = compile_with_fallback(lang, staged, values, result, compiler)
    if key and keepable(compiled, lang.name, out, staged):
        removed = [name for name in before if name not in staged.extras]
        build_cache.store(key, out, build_cache.CachedBuild(compiled.ok, compiled.log, compiled.reason, compiled.failed_command,
                                                      list(staged.extras), removed, staged.notes[notes:], values["src"]))
    return compiled


def keepable(compiled: Compiled, language: str, out: Path, staged: Staged) -> bool:
    """Whether a build may be kept in the cache. The rule: its outcome was decided by the sources
    alone (it succeeded, or the compiler refused them in its ordinary way: exit status 1, no
    limit hit, no crash or failed start of the compiler in its output), no command line that ran
    gave a student's file name a place an option could take, and out/ holds only what the
    compiler makes (class files for javac, the program for g++)."""
    log = compiled.log
    if not compiled.ok and (compiled.status != 1 or compiled.limited or any(m in log for m in NOT_A_VERDICT)):
        return False
    words = [word for command in compiled.commands for word in command]
    if any(word in staged.student and word.startswith(OPTION_MARKS) for word in words):
        return False
    return _only_compiler_output(language, out)


def _only_compiler_output(language: str, out: Path) -> bool:
    """out/ holds nothing a compiler would not make there: else something else ran."""
    made = [path for path in out.rglob("*") if not path.is_dir() or path.is_symlink()]
    if language == "java":
        return all(path.suffix == ".class" and path.is_file() and not path.is_symlink() for path in made)
    if language == "cpp":
        return all(path == out / "program" and path.is_file() and not path.is_symlink() for path in made)
    return True


def compile_with_fallback(lang: Language, staged: Staged, values: dict, result: Build, compiler=None) -> Compiled:
    """Compile everything; if every error is in extra files (a stray test, an old copy), compile
    again without those files and say so. Otherwise the first build's failure stands."""
    steps = lang.build if lang.build is not None else RECIPES[lang.name]["build"]
    sources = [command_path(name) for name in staged.sources]
    compiled = compile_sources(steps, {**values, "sources": sources}, result, compiler)
    in_error = {name.removeprefix("./") for name in diagnose.files_in_error(compiled.log)}
    if compiled.ok or not in_error or not in_error <= set(staged.extras):
        return compiled
    kept = [name for name in staged.extras if name not in in_error]
    shutil.rmtree(values["out"], ignore_errors=True)
    Path(values["out"]).mkdir()
    for name in in_error:
        (staged.folder / name).unlink()
    again = compile_sources(steps, {**values, "sources": [command_path(n) for n in staged.required + kept]}, result,
                            compiler)
    if not again.ok:
        compiled.commands += again.commands
        return compiled
    staged.extras = kept
    staged.notes.append(f"built without {', '.join(sorted(in_error))}: "
                        f"the errors were there only ({diagnose.first_error(compiled.log)})")
    return Compiled(True, compiled.log + again.log, warm=compiled.warm or again.warm,
                    commands=compiled.commands + again.commands)


# --- step 4: the run command ---------------------------------------------------------------

def java_main(out: Path, main: str, staged: Staged) -> str:
    """The main class as `java` names it: qualified by its source's package, else found in out/."""
    for name, text in staged.student.items():
        if PurePosixPath(name).stem == main:
            package = _PACKAGE.search(diagnose.strip_comments(text))
            qualified = f"{package[1]}.{main}" if package else main
            if (out / (qualified.replace(".", "/") + ".class")).is_file():
                return qualified
    if (out / f"{main}.class").is_file():
        return main
    found = sorted(out.rglob("*.class"), key=lambda p: (len(p.parts), str(p)))
    for path in found:
        if path.stem.lower() == main.lower():
            return ".".join(path.relative_to(out).with_suffix("").parts)
    return main


def run_command(lang: Language, values: dict) -> list[str]:
    return expand(lang.run or RECIPES[lang.name]["run"], **values, args=["{args}"])


# --- the whole build -----------------------------------------------------------------------------

def build(submission: Path, spec: Spec, target_id: str, compiler=None,
          settings: config.Settings = config.DEFAULTS) -> Build:
    """Build one target; `compiler` (a harness.building.javac_server.WarmJavac) compiles Java when given.
    `settings` (the front door's): whether it is sandboxed, and whether Java runs use the JDK's
    class-data archive."""
    started = time.monotonic()
    sub = intake.open_submission(submission)
    result = Build(target_id, None, False, intake=list(sub.notes), sandbox_setting=settings.sandbox)
    folder = None
    try:
        if sub.problem:
            result.reason = sub.problem
            return result
        lang, choices, missing = choose_language(sub, spec.targets[target_id])
        result.language = lang.name
        if missing:
            result.missing_files = True
            result.language, result.reason = _missing(sub, spec.targets[target_id], lang, choices, missing)
            return result
        warm = compiler if lang.name == "java" else None
        folder = Path(tempfile.mkdtemp(prefix=paths.temporary(f"{paths.BUILD_KIND}-{target_id}"),
                                       dir=warm.workspace() if warm is not None else None))
        out = folder / "out"
        out.mkdir()
        staged = stage(sub, spec, lang, choices, folder)
        result.src, result.out = str(folder), str(out)
        result.hidden = [str(paths.root_of(spec.folder)), str(Path(os.path.abspath(submission)).parent)]
        result.sandboxed = sandbox.available(settings.sandbox)
        checked = {n: t for n, t in staged.student.items() if n not in lang.support}
        result.findings = source_checks.findings(lang.source_checks, checked)
        jvm = JVM_FLAGS + (jvm_archive.archive_flags(child_env(str(folder)), settings.no_cds) if lang.name == "java" else [])
        values = {"src": str(folder), "out": str(out), "python": SUBMISSION_PYTHON, "main": lang.main or "",
                  "jvm": jvm}
        compiled = compile_cached(lang, staged, values, result, warm)
        result.intake += staged.notes
        result.log = compiled.log
        result.diagnosis = diagnose.diagnose(lang.name, compiled.log, staged.student, not compiled.ok)
        if not compiled.ok:
            first = diagnose.first_error(compiled.log)
            result.reason = compiled.reason + (f": {first}" if first else "")
            return result
        if lang.name == "java" and lang.main:
            values["main"] = java_main(out, lang.main, staged)
            if values["main"] != lang.main:
                result.intake.append(f"main class: {values['main']}")
        result.run = run_command(lang, values)
        steps = lang.build if lang.build is not None else RECIPES[lang.name]["build"]
        result.intake.append(f"built with {shlex.split(steps[0])[0]}{' (the warm compiler)' if compiled.warm else ''}: "
                             f"{', '.join(staged.sources)}" if steps else f"run as {lang.name}, no build step: {lang.main}")
        result.ok = True
        return result
    except (IntakeProblem, OSError) as problem:
        result.reason = str(problem) if isinstance(problem, IntakeProblem) else f"cannot stage the submission: {problem}"
        return result
    finally:
        intake.close(sub)
        if folder is not None and not result.ok:
            shutil.rmtree(folder, ignore_errors=True)
            result.src = result.out = ""
        _as_text(result)
        result.seconds = time.monotonic() - started


def _as_text(result: Build) -> None:
    """What the build says, as text every report can hold: the names it quotes may be any bytes
    (shown as ⟨0xE9⟩), and a one-line note or reason stays on its line whatever a name holds."""
    result.intake = [safe_text.one_line(line) for line in result.intake]
    result.findings = [safe_text.one_line(line) for line in result.findings]
    result.reason = safe_text.one_line(result.reason)
    result.log, result.diagnosis = safe_text.writable(result.log), safe_text.writable(result.diagnosis)


def cleanup(result: Build) -> None:
    if result.src:
        shutil.rmtree(result.src, ignore_errors=True)
