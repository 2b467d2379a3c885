"""Builds forgive what students hand in (IDE layouts, packages, helper classes, byte-order
marks, letter case, archives, stray copies) and point at the cause when a build fails. Real
javac and g++ builds of small programs made here; each built program is run on a tiny input.
"""
import io
import os
import subprocess
import tarfile
import tempfile
from pathlib import Path

import pytest

from harness.building import build as builder
from harness.building import source_checks
from harness.loading import spec as specs
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # javac and g++ builds of the course games

SILVER = specs.load("silver-dollar", ROOT)
COINS = specs.load("strings-and-coins", ROOT)
REVERSI = specs.load("reversi", ROOT)
CORRECT_CPP = ROOT / "examples" / "strings-and-coins" / "correct-cpp"


def _java(package: str | None, imports: str = "") -> dict[str, str]:
    """PlayGame asks for the coin count and prints it through CoinStrip and a helper Coin."""
    head = (f"package {package};\n" if package else "") + imports
    return {
        "PlayGame.java": head + "import java.util.Scanner;\npublic class PlayGame {\n"
        "  public static void main(String[] args) {\n    Scanner in = new Scanner(System.in);\n"
        "    System.out.print(\"Enter the number of coins: \");\n"
        "    System.out.println(new CoinStrip(in.nextInt()));\n  }\n}\n",
        "CoinStrip.java": head + "public class CoinStrip {\n  private final int n;\n"
        "  public CoinStrip(int n) { this.n = n; }\n  public String toString() { return Coin.label(n); }\n}\n",
        "Coin.java": head + "public class Coin {\n  public static String label(int n) { return n + \" coins\"; }\n}\n",
    }


def _write(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return root


def _build(submission: Path, spec=SILVER, target="game") -> builder.Build:
    built = builder.build(submission, spec, target)
    return built


def _run(built: builder.Build, typed: str) -> str:
    try:
        done = subprocess.run(built.command([]), input=typed, capture_output=True, text=True, timeout=60)
        return done.stdout
    finally:
        builder.cleanup(built)


def test_ide_layout_with_a_package_a_helper_class_and_an_old_copy(tmp_path):
    files = _java("project1")
    old = files["PlayGame.java"].replace("Enter the number", "OLD COPY: number")
    sub = _write(tmp_path / "Project1", {**{f"src/project1/{n}": t for n, t in files.items()},
                                         "backup/old/PlayGame.java": old})
    _write(sub, {"bin/project1/PlayGame.class": b"\xca\xfe\xba\xbe stale", ".idea/workspace.xml": "<x/>"})
    built = _build(sub)
    assert built.ok, built.reason  # the old copy is not compiled: it would be a duplicate class
    assert "project1.PlayGame" in built.run
    assert "also compiled: Coin.java" in built.intake, built.intake
    assert "main class: project1.PlayGame" in built.intake
    assert ("PlayGame.java: used src/project1/PlayGame.java; ignored backup/old/PlayGame.java (rule: the spec's "
            "path, then the shallowest, then one under a folder named src, then by name)") in built.intake
    assert _run(built, "3\n") == "Enter the number of coins: 3 coins\n"


def test_files_in_several_packages(tmp_path):
    files = _java("app", "import model.CoinStrip;\n")
    model = {n: t.replace("package app;", "package model;") for n, t in files.items() if n != "PlayGame.java"}
    sub = _write(tmp_path / "s", {"src/app/PlayGame.java": files["PlayGame.java"],
                                  **{f"src/model/{n}": t for n, t in model.items()}})
    built = _build(sub)
    assert built.ok, built.reason
    assert _run(built, "4\n") == "Enter the number of coins: 4 coins\n"


def test_byte_order_mark_crlf_and_letter_case(tmp_path):
    files = {n: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode() for n, t in _java(None).items()}
    sub = _write(tmp_path / "s", {"playgame.java": files["PlayGame.java"], "COINSTRIP.JAVA": files["CoinStrip.java"],
                                  "Coin.java": files["Coin.java"]})
    built = _build(sub)
    assert built.ok, built.reason
    assert "PlayGame.java: a UTF-8 byte-order mark was removed" in built.intake
    assert "playgame.java is used as PlayGame.java (the name differs in letter case)" in built.intake
    assert "COINSTRIP.JAVA is used as CoinStrip.java (the name differs in letter case)" in built.intake
    assert _run(built, "5\n") == "Enter the number of coins: 5 coins\n"


def test_a_tar_gz_submission(tmp_path):
    archive = tmp_path / "handin.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, text in _java("project1").items():
            info = tarfile.TarInfo(f"Project1/src/project1/{name}")
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    built = _build(archive)
    assert built.ok, built.reason
    assert "unpacked handin.tar.gz" in built.intake
    assert _run(built, "6\n") == "Enter the number of coins: 6 coins\n"


def test_a_helper_that_does_not_compile_is_left_out_with_a_line(tmp_path):
    test_file = "import org.junit.Test;\npublic class PlayGameTest { @Test public void t() {} }\n"
    sub = _write(tmp_path / "s", {**_java(None), "test/PlayGameTest.java": test_file})
    built = _build(sub)
    assert built.ok, built.reason
    assert any(line.startswith("built without test/PlayGameTest.java: the errors were there only "
                               "(test/PlayGameTest.java:1: error: package org.junit does not exist)")
               for line in built.intake), built.intake
    assert built.intake[-1] == "built with javac: PlayGame.java, CoinStrip.java, Coin.java"
    assert _run(built, "2\n") == "Enter the number of coins: 2 coins\n"


def test_links_are_not_followed_into_the_build(tmp_path):
    secret = tmp_path / "hidden-case.yaml"
    secret.write_text("EXPECTED-TRANSCRIPT-SECRET")
    sub = _write(tmp_path / "s", {"reversi.py": "import helper\nprint('hi')\n"})
    (sub / "helper.py").symlink_to(secret)
    (sub / "environ.py").symlink_to("/proc/self/environ")
    built = _build(sub, REVERSI)
    try:
        assert built.ok, built.reason
        staged = {p.name: p.read_bytes() for p in Path(built.src).rglob("*") if p.is_file()}
        assert set(staged) == {"reversi.py"}
        assert not any(b"SECRET" in data or b"PATH=" in data for data in staged.values())
        assert "helper.py: a symbolic link, not followed or read" in built.intake
        assert "environ.py: a symbolic link, not followed or read" in built.intake
    finally:
        builder.cleanup(built)


def test_functions_target_leaves_out_a_second_main_and_keeps_the_students_header(tmp_path):
    """The handout lets a student add prototypes to stringcoin.h: the functions target compiles
    the student's own header (the driver declares the functions it calls itself)."""
    files = {n: (CORRECT_CPP / n).read_text() for n in ("stringcoin.cpp", "stringcoin-game.cpp", "stringcoin.h")}
    files["stringcoin.h"] += "\nint extra_helper(int x);\n"
    sub = _write(tmp_path / "s", files)
    _write(sub, {"extra.cpp": "int extra_helper(int x) { return x + 1; }\n"})
    built = _build(sub, COINS, "functions")
    try:
        assert built.ok, built.reason
        left_out = next(line for line in built.intake if line.startswith("left out:"))
        assert "stringcoin-game.cpp (it defines main" in left_out
        assert "stringcoin.h" not in left_out
        assert "also compiled: extra.cpp" in built.intake
        assert (Path(built.src) / "stringcoin.h").read_text() == files["stringcoin.h"]
    finally:
        builder.cleanup(built)


def _cpp_with(game_edit=None, functions_edit=None) -> dict[str, str]:
    files = {n: (CORRECT_CPP / n).read_text() for n in ("stringcoin.cpp", "stringcoin-game.cpp", "stringcoin.h")}
    if game_edit:
        files["stringcoin-game.cpp"] = game_edit(files["stringcoin-game.cpp"])
    if functions_edit:
        files["stringcoin.cpp"] = functions_edit(files["stringcoin.cpp"])
    return files


def test_the_first_gpp_error_behind_warnings(tmp_path):
    warnings = "".join(f"int warn{i}() {{ int unused{i} = {i}; return 0; }}\n" for i in range(20))
    broken = warnings + "int broken_here() { return undeclared_name; }\n" + warnings.replace("warn", "late")
    sub = _write(tmp_path / "s", _cpp_with(functions_edit=lambda text: text + broken))
    line = len(_cpp_with()["stringcoin.cpp"].split("\n")) + 20
    built = _build(sub, COINS, "game")
    assert not built.ok
    first = f"stringcoin.cpp:{line}:"
    assert built.diagnosis.startswith(first) and "'undeclared_name' was not declared" in built.diagnosis
    assert built.reason.startswith("the build failed (exit status 1): " + first) and "\n" not in built.reason
    assert built.log.index("warning") < built.log.index("undeclared_name")  # the log itself begins with warnings


def test_void_main_and_a_missing_include_are_diagnosed(tmp_path):
    sub = _write(tmp_path / "s", _cpp_with(game_edit=lambda text: text.replace("int main()", "void main()")))
    built = _build(sub, COINS, "game")
    assert not built.ok
    assert "`void main()` is accepted by Visual C++ only" in built.diagnosis
    assert built.diagnosis.split("\n")[0] == "stringcoin-game.cpp:8:1: error: '::main' must return 'int'"

    setw = "\nvoid print_padded(int x) { std::cout << std::setw(3) << x; }\n"
    sub = _write(tmp_path / "t", _cpp_with(functions_edit=lambda text: text + setw))
    built = _build(sub, COINS, "game")
    assert not built.ok
    assert "add `#include <iomanip>`" in built.diagnosis, built.diagnosis


def test_a_catastrophic_pattern_finishes_quickly_with_a_finding():
    text = "a" * 40 + "\n"
    checks = [{"pattern": r"^(a|aa)+$", "message": "only a's"},  # RE2: linear
              {"pattern": r"^(a+)+\1b", "message": "backtracks"}]  # a backreference: Python's re, bounded
    found = source_checks.findings(checks, {"game.cpp": text})
    assert found[0] == "game.cpp:1: only a's: " + "a" * 40
    assert found[1] == (f"game.cpp: the check \"backtracks\" took longer than {source_checks.CHECK_SECONDS:g} s "
                        "and was stopped (not reported either way)")


def test_a_student_package_meets_the_course_classes_in_the_default_package(tmp_path):
    flip = specs.load("flip", ROOT)
    source = (ROOT / "examples" / "flip" / "correct-bags" / "GameState.java").read_text()
    sub = _write(tmp_path / "s", {"src/flip/GameState.java": "package flip;\n" + source})
    built = _build(sub, flip, "runner")
    try:
        assert built.ok, built.reason
        assert "package flip removed so the course's classes (default package) see the student's" in built.intake
        assert built.run[-2] == "FlipRunner"
    finally:
        builder.cleanup(built)


def test_the_build_folder_is_removed_when_staging_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "scratch"))
    (tmp_path / "scratch").mkdir()
    sub = _write(tmp_path / "s", {"reversi.py": "print('x')\n" * (1024 * 1024 // 11 + 1)})  # over 1 MB
    built = _build(sub, REVERSI)
    assert not built.ok and built.reason == "reversi.py is larger than 1024 KB"
    assert list((tmp_path / "scratch").iterdir()) == []


# --- names are data, never options ----------------------------------------------------------

HOSTILE_JAVA = {
    # a JVM option on a folder: the compiler JVM would write its GC log into out/ (a file no
    # compiler makes, once kept in the build cache with the build)
    "-J-Xlog:gc:file=out/planted.java": "class planted {}\n",
    "-J-XX:OnOutOfMemoryError=sh s.java": "class X {}\n",
    "-Xmx1m.java": "class Y {}\n",
    "--release=8.java": "class Z {}\n",
    "@PlayGame.java": "class W {}\n",  # javac would read PlayGame.java as its options
    "@x/Helper.java": "class Helper { static int one() { return 1; } }\n",
    "s.java": "touch planted-by-a-shell\n",  # what the out-of-memory hook would have run
}


def _only_classes(folder: Path) -> list[str]:
    """Files under `folder` that are not class files."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.suffix != ".class")


@pytest.mark.parametrize("warm", [False, True], ids=["plain-javac", "warm-javac"])
def test_option_like_names_never_reach_javac_as_options(tmp_path, monkeypatch, warm):
    """Every hostile name is either left out (a Java file not named after a class) or passed
    as a path (`./-J-Xlog:gc:file=out/planted.java`): the build is the student's game, out/
    and the build cache hold class files only, nothing was planted."""
    from harness.building.javac_server import START_AFTER, WarmJavac
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    sub = _write(tmp_path / "s", {**_java(None), **HOSTILE_JAVA})
    with WarmJavac() as compiler:
        if warm:
            for _ in range(START_AFTER + 1):
                builder.cleanup(builder.build(_write(tmp_path / "warm-up", _java(None)), SILVER, "game", compiler))
            assert compiler.wait_ready(), "the warm compiler did not start"
        built = builder.build(sub, SILVER, "game", compiler if warm else None)
        try:
            assert built.ok, built.reason
            assert (compiler.answered > 0) == warm  # the build and its rebuild without s.java
            left_out = next(line for line in built.intake if line.startswith("left out:"))
            for name in ("-J-XX:OnOutOfMemoryError=sh s.java", "-Xmx1m.java", "--release=8.java", "@PlayGame.java"):
                assert f"{name} (not a Java class name, so it can hold no public class: not compiled)" in left_out
            assert "./@x/Helper.java ./-J-Xlog:gc:file=out/planted.java" in built.log
            assert any(line.startswith("built without s.java") for line in built.intake), built.intake
            assert _only_classes(Path(built.out)) == []
            assert not any(p.name == "planted-by-a-shell" for p in Path(built.src).rglob("*"))
            assert _run(built, "3\n") == "Enter the number of coins: 3 coins\n"
        finally:
            builder.cleanup(built)
    entries = list((tmp_path / "xdg" / "game-harness" / "builds").iterdir())
    assert entries and all(_only_classes(entry / "out") == [] for entry in entries)


def test_an_option_like_cpp_name_is_compiled_as_a_source(tmp_path):
    """`-o.cpp` would make g++ write the program to `.cpp`: passed as `./-o.cpp`, it is a source."""
    tally = specs.load("tally", ROOT / "tests" / "fixture")
    source = (ROOT / "tests" / "fixture" / "examples" / "tally" / "correct-cpp" / "tally.cpp").read_text()
    sub = _write(tmp_path / "s", {"tally.cpp": source, "-o.cpp": "int helper() { return 1; }\n"})
    built = _build(sub, tally)
    try:
        assert built.ok, built.reason
        assert "also compiled: -o.cpp" in built.intake
        assert sorted(p.name for p in Path(built.out).iterdir()) == ["program"]
        assert not (Path(built.src) / ".cpp").exists()
    finally:
        builder.cleanup(built)


def test_a_name_that_is_not_utf8_or_holds_a_line_break_is_shown_escaped(tmp_path, monkeypatch):
    """A helper in a folder whose name is not UTF-8 is compiled from a plain-text folder name;
    a file whose name is not UTF-8 or holds a newline is left out, its line on one line."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    sub = _write(tmp_path / "s", {n: t for n, t in _java(None).items() if n != "Coin.java"})
    folder = os.fsdecode(b"caf\xe9")  # the name Python gives a folder whose name is not UTF-8
    (sub / folder).mkdir()
    (sub / folder / "Coin.java").write_text(_java(None)["Coin.java"])
    (sub / os.fsdecode(b"Old\xff.java")).write_text("class Old {}\n")
    (sub / "Two\nLines.java").write_text("class Two {}\n")
    built = _build(sub)
    try:
        assert built.ok, built.reason
        assert "also compiled: caf\u27e80xE9\u27e9/Coin.java" in built.intake
        left_out = next(line for line in built.intake if line.startswith("left out:"))
        assert "Old\u27e80xFF\u27e9.java (not a Java class name" in left_out
        assert "Two\u240aLines.java (not a Java class name" in left_out
        for text in [*built.intake, built.reason, built.log]:
            text.encode("utf-8")  # every line can be written to a report
        assert all("\n" not in line for line in built.intake)
        assert _run(built, "4\n") == "Enter the number of coins: 4 coins\n"
    finally:
        builder.cleanup(built)


def test_a_build_is_kept_only_when_its_sources_decided_it(tmp_path):
    """The cache rule, on real folders: a compiler that crashed or did not start, a student's
    name in an option's place, or out/ holding a file no compiler makes: never kept."""
    out = tmp_path / "out"
    (out / "p").mkdir(parents=True)
    (out / "p" / "A.class").write_bytes(b"\xca\xfe")
    staged = builder.Staged(tmp_path, student={"A.java": "", "-J-Xmx1m.java": ""})
    refused = builder.Compiled(False, "A.java:1: error: ';' expected\n", "the build failed (exit status 1)", status=1,
                               commands=[["javac", "-d", str(out), "A.java"]])
    assert builder.keepable(refused, "java", out, staged)
    for log, status in (("Error: Could not create the Java Virtual Machine.\n", 1), ("", 4),
                        ("java.lang.OutOfMemoryError: Java heap space\n", 1)):
        crashed = builder.Compiled(False, log, "the build failed", status=status)
        assert not builder.keepable(crashed, "java", out, staged)
    # a step that ran into a limit of its tree is recorded as such: the machine decided it
    limited = builder.Compiled(False, "[harness: the memory limit]", "the build failed", status=1, limited=True)
    assert not builder.keepable(limited, "java", out, staged)
    # the same words printed by the compiler about a student's source decide nothing
    quoted = builder.Compiled(False, 'A.java:1: error: "[harness: " is not a statement\n', "the build failed",
                              status=1, commands=[["javac", "-d", str(out), "A.java"]])
    assert builder.keepable(quoted, "java", out, staged)
    optioned = builder.Compiled(True, "", commands=[["javac", "-d", str(out), "A.java", "-J-Xmx1m.java"]])
    assert not builder.keepable(optioned, "java", out, staged)
    assert builder.keepable(builder.Compiled(True, "", commands=[["javac", "./-J-Xmx1m.java"]]), "java", out, staged)
    (out / "planted.txt").write_text("x")
    assert not builder.keepable(builder.Compiled(True, ""), "java", out, staged)


def test_the_warm_compiler_gets_paths_never_options(tmp_path):
    """Its request: every source word absolute; an argument file or a word its line protocol
    cannot carry sends the build to plain javac (None)."""
    from harness.building.javac_server import _request
    for name in ("-Xmx1m.java", "--foo=bar.java", "-J-XX:Flags=f.java"):
        (tmp_path / name).write_text("class A {}\n")
    words = _request(["javac", "-d", str(tmp_path / "out"),
                      *[builder.command_path(n) for n in ("-Xmx1m.java", "--foo=bar.java", "-J-XX:Flags=f.java")]],
                     str(tmp_path))
    assert [os.path.normpath(word) for word in words[-3:]] == [
        str(tmp_path / "-Xmx1m.java"), str(tmp_path / "--foo=bar.java"), str(tmp_path / "-J-XX:Flags=f.java")]
    assert _request(["javac", "@args"], str(tmp_path)) is None
    assert _request(["javac", "caf\udce9/A.java"], str(tmp_path)) is None
    assert _request(["javac", "a\nb.java"], str(tmp_path)) is None
