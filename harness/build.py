"""Find a submission's files, copy them with the spec's support files, and build them.

A build happens once per submission and target; every case then runs the built program.
A missing file or a failed build is a result (with the compiler's words), not a crash.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from harness import jvm as jvm_archive
from harness import sandbox
from harness.environment import child_env
from harness.spec import Language, Spec, Target

JVM_FLAGS = [
    "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto", "-Xmx256m",
    "-XX:ErrorFile=/tmp/hs_err_%p.log", "-Dfile.encoding=UTF-8",
]
RECIPES = {
    "java": {"exts": (".java",), "build": ["javac -encoding UTF-8 -proc:none -Xlint:none -d {out} {sources}"],
             "run": "java {jvm} -cp {out} {main} {args}"},
    "cpp": {"exts": (".cpp", ".cc", ".cxx"), "build": ["g++ -std=c++17 -Wall -Wextra -O2 -o {out}/program {sources}"],
            "run": "{out}/program {args}"},
    "python": {"exts": (".py",), "build": [], "run": "{python} -S {src}/{main} {args}"},
}
# A submission's Python is the real interpreter, not a virtual environment's link to it: the
# environment may sit in a folder the sandbox hides, and -S needs no site-packages anyway.
SUBMISSION_PYTHON = os.path.realpath(sys.executable)
BUILD_SECONDS = 120


@dataclass
class Build:
    target: str
    language: str | None
    ok: bool
    src: str = ""  # folder holding the sources (and the build's working folder)
    out: str = ""  # folder holding what the build produced
    run: list[str] = field(default_factory=list)  # run command; the word "{args}" stands for the arguments
    log: str = ""  # compiler output
    reason: str = ""  # why it cannot run, for a person
    findings: list[str] = field(default_factory=list)  # source checks that matched
    seconds: float = 0.0
    hidden: list[str] = field(default_factory=list)  # folders the sandbox hides from the program
    sandboxed: bool = False

    def command(self, args: list[str]) -> list[str]:
        words = []
        for word in self.run:
            words += [str(a) for a in args] if word == "{args}" else [word]
        return words


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


def _find(submission: Path, wanted: str) -> Path | None:
    if submission.is_file():
        return submission if submission.name == Path(wanted).name else None
    exact = submission / wanted
    if exact.is_file():
        return exact
    matches = sorted(p for p in submission.rglob(Path(wanted).name) if p.is_file())
    return matches[0] if matches else None


def choose_language(submission: Path, target: Target, support: Path) -> tuple[Language, dict[str, Path], list[str]]:
    """The first language whose files are all there; else the closest, with what is missing.
    An optional file the student left out is taken from the spec's support folder."""
    best = None
    for lang in target.languages.values():
        found = {name: _find(submission, name) for name in lang.files + lang.optional}
        for name in lang.optional:
            if found[name] is None:
                found[name] = support / name
        missing = [name for name, path in found.items() if path is None]
        if not missing:
            return lang, found, []
        if best is None or len(missing) < len(best[2]):
            best = (lang, found, missing)
    return best


def _strip_comments(text: str) -> str:
    """C-like comments and string literals blanked out, line numbers kept."""
    def blank(match):
        return re.sub(r"[^\n]", " ", match.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', blank, text, flags=re.S)


def source_findings(lang: Language, files: dict[str, Path]) -> list[str]:
    findings = []
    for check in lang.source_checks:
        for name in check.get("files") or list(files):
            path = files.get(name)
            if path is None:
                continue
            text = _strip_comments(path.read_text(encoding="utf-8", errors="replace"))
            for match in re.finditer(check["pattern"], text, flags=re.M):
                line = text.count("\n", 0, match.start()) + 1
                snippet = path.read_text(encoding="utf-8", errors="replace").split("\n")[line - 1].strip()
                findings.append(f"{name}:{line}: {check['message']}: {snippet}")
    return findings


def build(submission: Path, spec: Spec, target_id: str) -> Build:
    import time
    started = time.monotonic()
    target = spec.targets[target_id]
    lang, found, missing = choose_language(submission, target, spec.support_dir)
    result = Build(target_id, lang.name, False)
    if missing:
        result.reason = (f"missing file{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                         f"(a {lang.name} submission for target {target_id} needs {', '.join(lang.files)})")
        return result
    recipe = RECIPES[lang.name]
    src = Path(tempfile.mkdtemp(prefix=f"harness-build-{target_id}-"))
    out = src / "out"
    out.mkdir()
    for name, path in found.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, src / name)
    for name in lang.support:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(spec.support_dir / name, src / name)
    sources = lang.compile or [n for n in [*lang.files, *lang.optional, *lang.support] if n.endswith(recipe["exts"])]
    jvm = JVM_FLAGS + (jvm_archive.archive_flags(child_env(str(src))) if lang.name == "java" else [])
    values = {"src": str(src), "out": str(out), "python": SUBMISSION_PYTHON, "main": lang.main or "",
              "jvm": jvm, "sources": sources}
    result.src, result.out = str(src), str(out)
    result.hidden = [str(spec.folder.parent.parent), str(submission.resolve().parent)]
    result.sandboxed = sandbox.available()
    result.findings = source_findings(lang, found)
    log = []
    for step in lang.build if lang.build is not None else recipe["build"]:
        command = expand(step, **values)
        try:
            confined = sandbox.wrap(command, writable=[str(src)], readable=[], hidden=result.hidden, cwd=str(src))
            done = subprocess.run(confined, cwd=src, env=child_env(str(src)), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=BUILD_SECONDS)
        except subprocess.TimeoutExpired:
            result.reason = f"the build took longer than {BUILD_SECONDS} s: {shlex.join(command)}"
            break
        except OSError as problem:
            result.reason = f"cannot run the build command {command[0]!r}: {problem}"
            break
        log.append(f"$ {shlex.join(command)}\n{done.stdout.decode('utf-8', 'replace')}")
        if done.returncode != 0:
            result.reason = f"the build failed (exit status {done.returncode}): {shlex.join(command)}"
            break
    else:
        result.ok = True
    result.log = "".join(log)
    template = lang.run or recipe["run"]
    result.run = expand(template, **values, args=["{args}"])
    result.seconds = time.monotonic() - started
    return result


def cleanup(result: Build) -> None:
    if result.src:
        shutil.rmtree(result.src, ignore_errors=True)
