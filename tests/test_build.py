"""Builds forgive what students hand in (IDE layouts, packages, helper classes, byte-order
marks, letter case, archives, stray copies) and point at the cause when a build fails. Real
javac and g++ builds of small programs made here; each built program is run on a tiny input.
"""
import io
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

import pytest

from harness import build as builder
from harness import source_checks
from harness import spec as specs
from tests.conftest import ROOT

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


def test_functions_target_leaves_out_a_second_main_and_the_students_header(tmp_path):
    sub = _write(tmp_path / "s", {n: (CORRECT_CPP / n).read_text() for n in
                                  ("stringcoin.cpp", "stringcoin-game.cpp", "stringcoin.h")})
    _write(sub, {"extra.cpp": "int extra_helper(int x) { return x + 1; }\n"})
    built = _build(sub, COINS, "functions")
    try:
        assert built.ok, built.reason
        left_out = next(line for line in built.intake if line.startswith("left out:"))
        assert "stringcoin-game.cpp (it defines main" in left_out
        assert "stringcoin.h (the spec's own stringcoin.h is used)" in left_out
        assert "also compiled: extra.cpp" in built.intake
        assert (Path(built.src) / "stringcoin.h").read_text() == (COINS.support_dir / "stringcoin.h").read_text()
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
    started = time.monotonic()
    found = source_checks.findings(checks, {"game.cpp": text})
    assert time.monotonic() - started < source_checks.CHECK_SECONDS + 5
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
