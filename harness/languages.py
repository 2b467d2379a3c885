"""The languages a submission may be written in, one record each: what intake, the build, the
command line, the reports, the similarity check, the audit's mutants, `harness new` and the
sandbox know of a language is read from here, so adding one is this module (and the diagnosis
of its compiler's errors, `building/diagnose.py`, if it has one)."""
from dataclasses import dataclass
from pathlib import PurePosixPath


@dataclass(frozen=True)
class SourceLanguage:
    """One language: the words for it, the files that are its sources, its default recipe."""
    name: str  # the spec's and the command line's word (`java`)
    title: str  # what a person reads (`Java`)
    sources: tuple[str, ...]  # suffixes of the files a build compiles or a run starts
    headers: tuple[str, ...] = ()  # suffixes of the files it includes but does not compile
    build: tuple[str, ...] = ()  # the default recipe's build steps ({out}, {sources}: see build.expand)
    run: str = ""  # the default recipe's run command
    lexer: str = ""  # the Pygments lexer the similarity check reads it with
    tools: tuple[str, ...] = ()  # the programs its build and runs need, seen in the sandbox
    graded: bool = True  # built and run by the harness; the others are only named to their authors
    source_mutants: bool = False  # the audit mutates its source text (Python is mutated as a module)

    @property
    def files(self) -> tuple[str, ...]:
        """Every suffix of the language's files: sources first, then headers."""
        return self.sources + self.headers


JAVA = SourceLanguage(
    "java", "Java", (".java",),
    build=("javac -encoding UTF-8 -proc:none -Xlint:none -d {out} {sources}",),
    run="java {jvm} -cp {out} {main} {args}", lexer="java", tools=("java", "javac"), source_mutants=True)
CPP = SourceLanguage(
    "cpp", "C++", (".cpp", ".cc", ".cxx"), (".h", ".hpp", ".hh", ".hxx", ".inl", ".tpp", ".ipp"),
    build=("g++ -std=c++17 -Wall -Wextra -O2 -o {out}/program {sources}",),
    run="{out}/program {args}", lexer="cpp", tools=("g++", "gcc", "c++"), source_mutants=True)
PYTHON = SourceLanguage("python", "Python", (".py",), run="{python} -S {src}/{main} {args}", lexer="python")
# Languages a student may hand in by mistake: recognised, so intake can say what it found.
C = SourceLanguage("c", "C", (".c",), lexer="c", graded=False)
CSHARP = SourceLanguage("c#", "C#", (".cs",), lexer="csharp", graded=False)
JAVASCRIPT = SourceLanguage("javascript", "JavaScript", (".js",), lexer="javascript", graded=False)
KOTLIN = SourceLanguage("kotlin", "Kotlin", (".kt",), lexer="kotlin", graded=False)

ALL = (JAVA, CPP, PYTHON, C, CSHARP, JAVASCRIPT, KOTLIN)
GRADED = tuple(language for language in ALL if language.graded)
BY_NAME = {language.name: language for language in ALL}
GRADED_NAMES = tuple(language.name for language in GRADED)  # the spec's and the command line's choices


def by_suffix(file_name: str, graded_only: bool = False) -> SourceLanguage | None:
    """The language a file is written in, by its suffix (letter case ignored), or None.
    A header belongs to the one language that names it (`.h` to C++: the C of a C++ course)."""
    suffix = PurePosixPath(file_name).suffix.lower()
    return next((language for language in (GRADED if graded_only else ALL) if suffix in language.files), None)


def title(name: str) -> str:
    """What a person reads for a language's word (the word itself for one not known)."""
    known = BY_NAME.get(name)
    return known.title if known else name
