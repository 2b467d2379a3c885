"""Property-based fuzzing of everything a person hands the harness: case files, specs, command
lines and environment settings. Whatever is generated, the harness answers with exit 0, 1 or
2, within seconds, never with a traceback; exit 2 comes with one line that names the file and
line (or starts with `harness:`); and what loads is sane enough to run.

Inputs are mutations of the real cases and specs: keys dropped, renamed or retyped, values
replaced by NaN, infinities, huge numbers, NUL, control characters, dates, deep nesting,
aliases, and the raw text cut, spliced and salted with YAML syntax.
"""
import contextlib
import io
import math
import os
import re
import shutil
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings, strategies as st

from harness.building import build
from harness.loading import cases
from harness import cli
from harness.loading import spec as specs
from harness.errors import InputError
from tests.helpers import ROOT, copy_project

pytestmark = pytest.mark.slow  # property-based fuzzing of cases, specs and the command line

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
FUZZ = settings(max_examples=200, deadline=timedelta(seconds=3), database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])

# the shortest cases of each game: mutations, not sheer size, are what is being tried
CASE_FILES = [path for game in ("reversi", "silver-dollar", "strings-and-coins", "flip")
              for path in sorted((ROOT / "cases" / game).glob("*.yaml"), key=lambda p: p.stat().st_size)[:2]]
SPEC_GAMES = ["reversi", "strings-and-coins", "silver-dollar", "flip"]
CASE_KEYS = ["description", "milestone", "target", "rubric", "points", "visibility", "args", "seed", "repeat",
             "inputs", "compare", "limits", "expect", "exit", "transcript", "out", "in", "turn_seconds",
             "run_seconds", "output_bytes", "quiet_seconds", "strategy", "prefix", "preset", "turns", "from"]
SPEC_KEYS = ["title", "handout", "reference", "milestones", "targets", "languages", "java", "cpp", "python",
             "files", "support", "optional", "compile", "main", "build", "run", "source_checks", "pattern",
             "message", "rubric", "id", "points", "graded", "defaults", "limits", "compare", "random_start",
             "capture", "option", "seed_args", "reference_args"]

ODD_SCALARS = [math.nan, math.inf, -math.inf, 10 ** 30, -(10 ** 30), 2 ** 63, 2 ** 63 - 1, 0, -1, 1e308, 1e-308,
               "", "\x00", "x" * 300, "2020-13-45", "0x1F", ".inf", "~", "*a", "&a x", "{", "[", "\t", "\x1b[31m",
               "a\nb", "../../etc/passwd", "/etc/hostname", "{nosuch}", "{src", "'", "(", "\\", "é○●", "\u2028",
               "100000000000", "3600.0001", True, False, None]
SCALARS = st.one_of(st.sampled_from(ODD_SCALARS), st.integers(), st.floats(), st.text(max_size=30), st.booleans())
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=8)
SNIPPETS = ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\t", "\r", "\n", "---\n", "...\n", "&a ", "*a", "*a\n", "? ",
            ": ", "- ", "!!python/object:os.system ", "!!binary ", "!!timestamp ", "!!int ", "!!float ", "!!bool ",
            "<<: ", "{", "}", "[", "]", "'", '"', "|", ">", "#", "%YAML 1.1\n", "@", "`", "\ufeff", "\udcff",
            "[" * 70, "- " * 70, "[" * 20000, ".nan", ".inf", "-.inf", "1e999", "9" * 5000, "2020-13-45"]


def _paths(value, prefix=()):
    """Every (path) to a value inside nested dicts and lists, the root included."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _at(value, path):
    for key in path:
        value = value[key]
    return value


@st.composite
def mutated_yaml(draw, original: str, keys: list[str]) -> bytes:
    """`original` (a real case or spec) changed in structure, then in text."""
    data = yaml.safe_load(original)
    for _ in range(draw(st.integers(0, 4))):
        path = draw(st.sampled_from(list(_paths(data))))
        if not path:
            continue
        parent, key = _at(data, path[:-1]), path[-1]
        action = draw(st.sampled_from(["drop", "rename", "retype", "nest", "alias"]))
        if action == "drop":
            del parent[key]
        elif action == "rename" and isinstance(parent, dict):
            parent[draw(st.sampled_from(keys) | st.text(max_size=12))] = parent.pop(key)
        elif action == "retype":
            parent[key] = draw(VALUES)
        elif action == "nest":
            for _ in range(draw(st.sampled_from([1, 5, 63, 64]))):
                parent[key] = [parent[key]]
        elif action == "alias":  # the same object twice: the dumper writes an anchor and an alias
            shared = [parent[key]]
            parent[key] = [shared, shared]
    text = yaml.dump(data, Dumper=DUMPER, allow_unicode=True, sort_keys=False) if draw(st.booleans()) else original
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "insert", "cut", "truncate"]))
        if action == "insert":
            text = text[:at] + draw(st.sampled_from(SNIPPETS) | st.text(max_size=8)) + text[at:]
        elif action == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        else:
            text = text[:at]
    raw = text.encode("utf-8", "surrogatepass")
    if draw(st.sampled_from([False] * 19 + [True])):
        raw += draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"]))
    return raw


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    """A copy of the specs and a few cases, to break."""
    root = copy_project(ROOT, tmp_path_factory.mktemp("project"), parts=("specs",))
    for game in SPEC_GAMES + ["connect"]:
        (root / "cases" / game).mkdir(parents=True)
        law = (yaml.safe_load((ROOT / "specs" / game / "spec.yaml").read_text(encoding="utf-8")).get("random_start")
               or {}).get("distribution")
        named = [ROOT / "cases" / game / f"{law['case']}.yaml"] if law else []  # the spec names it
        for path in sorted((ROOT / "cases" / game).glob("*.yaml"))[:3] + named:
            shutil.copy(path, root / "cases" / game / path.name)
    (root / "empty-submission").mkdir()
    (root / "a-file.txt").write_text("not a folder\n")
    return root


def _where(problem: InputError, path: Path) -> None:
    """A file's error names the file and, unless the whole file is at fault, the line."""
    text = str(problem)
    event(f"refused: {re.sub(r'[^a-z ]', '', problem.message.split(':')[0].split(';')[0])[:40]}")
    assert "\n" not in text and "Traceback" not in text
    assert re.match(rf"{re.escape(str(path))}:(\d+: |\s)", text), text
    whole_file = ("not a regular file", "the file is", "cannot read the file")
    assert problem.line is not None or any(w in problem.message for w in whole_file), text
    if problem.line is not None:
        assert 1 <= problem.line <= path.read_bytes().count(b"\n") + 1, text


def _sane(value, upper) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and 0 < value <= upper


@FUZZ
@given(data=st.data())
def test_any_case_file_loads_sanely_or_is_one_line_at_its_line(courses, data):
    source = data.draw(st.sampled_from(CASE_FILES))
    game = source.parent.name
    path = courses / "cases" / game / "fuzzed.yaml"
    path.write_bytes(data.draw(mutated_yaml(source.read_text(), CASE_KEYS)))
    spec = specs.load(game, courses)
    try:
        case = cases.load_case(path, spec)
    except InputError as problem:
        _where(problem, path)
        return
    event("loaded")
    assert _sane(case.points, 1_000_000)
    assert isinstance(case.repeat, int) and 1 <= case.repeat <= 100
    assert all(_sane(v, 3600 if k.endswith("seconds") else 100_000_000) for k, v in case.limits.items())
    assert case.seed is None or -(2 ** 63) <= case.seed < 2 ** 63
    assert all("\n" not in line for line in case.prefix)


@FUZZ
@given(data=st.data())
def test_any_spec_loads_usably_or_is_one_line_at_its_line(tmp_path_factory, data):
    game = data.draw(st.sampled_from(SPEC_GAMES))
    root = tmp_path_factory.mktemp("spec")
    shutil.copytree(ROOT / "specs" / game, root / "specs" / game)
    path = root / "specs" / game / "spec.yaml"
    path.write_bytes(data.draw(mutated_yaml((ROOT / "specs" / game / "spec.yaml").read_text(), SPEC_KEYS)))
    try:
        spec = specs.load(game, root)
    except InputError as problem:
        _where(problem, path)
        return
    finally:
        shutil.rmtree(root)
    event("loaded")
    assert all(_sane(item.points, 1_000_000) or item.points == 0 for item in spec.rubric)
    spec.reference_command(next(iter(spec.milestones), None), next(iter(spec.targets)), [])
    values = {"src": "/s", "out": "/o", "python": "py", "main": "Main", "jvm": ["-X"], "sources": ["A.java"]}
    for target in spec.targets.values():
        for lang in target.languages.values():
            for name in lang.files + lang.support + lang.optional + (lang.compile or []):
                assert name and not name.startswith("/") and ".." not in name.split("/")
            for step in lang.build or []:
                build.expand(step, **values)
            build.expand(lang.run or build.RECIPES[lang.name]["run"], **values, args=["{args}"])
            for check in lang.source_checks:
                re.compile(check["pattern"])


WORDS = ["", "-", "--", "-x", "--bogus", "=", "é", "\x1b[2J", "\x00", "a b", "'", "$HOME", "*", "9" * 400]


@st.composite
def command_lines(draw, courses: Path) -> tuple[list[str], dict]:
    """An argv for `harness` and the HARNESS_* settings to run it with."""
    game = draw(st.sampled_from(["reversi", "reversi:ms1", "reversi:ms9", "reversi:", ":", "nosuch", "REVERSI",
                                 "../specs/reversi", "/etc", "silver-dollar", "strings-and-coins"]) | st.sampled_from(WORDS))
    submission = draw(st.sampled_from([str(courses / "empty-submission"), str(courses / "nowhere"),
                                       str(courses / "a-file.txt"), "", "/dev/null", "/"]) | st.sampled_from(WORDS))
    out = draw(st.sampled_from([str(courses / "reports"), str(courses / "a-file.txt"), "/proc/version", ""]))
    case_out = draw(st.sampled_from([str(courses / "rec" / f"r{draw(st.integers(0, 3))}.yaml"),
                                     str(courses / "a-file.txt"), str(courses / "rec"), str(courses / "x.yaml.txt")]))
    number = draw(st.sampled_from(["1", "0", "-1", "nan", "inf", "1e400", "2.5", "9" * 30, "x", ""]))
    options = draw(st.lists(st.sampled_from([["-o", out], ["-k", draw(st.sampled_from(WORDS + ["capture"]))],
                                             ["-v"], ["--check"], ["--no-sandbox"], ["--points", number],
                                             ["--seed", number], ["--rubric", draw(st.sampled_from(WORDS + ["ms1-board"]))],
                                             ["--target", "functions"], ["--help"], ["--"]]), max_size=3))
    command = draw(st.sampled_from(["grade", "run", "check", "record", "regen", "play", "frobnicate", "", "-h"]))
    if command in ("grade", "run", "check"):
        argv = [command, game, submission]
    elif command == "record":
        argv = [command, game, "-o", case_out]
        options = [o for o in options if o[0] not in ("--help", "-o")]
    elif command == "regen":  # never a whole game: each case runs the reference
        argv = [command, draw(st.sampled_from(["nosuch", str(courses / "nowhere.yaml"), "/dev/null", "x.yml"]))]
    elif command == "play":  # only what stops before the game starts
        argv = [command, draw(st.sampled_from(["nosuch", "../specs/reversi", ""])), "--help"]
        options = []
    else:
        argv = [command, game]
    argv += [word for option in options for word in option]
    environment = {name: draw(st.sampled_from(values)) for name, values in {
        "HARNESS_JOBS": [None] * 12 + ["2", "abc", "0", "-3", "10000", ""],
        "HARNESS_SANDBOX": [None] * 12 + ["off", "auto", "maybe"],
        "HARNESS_NO_CDS": [None] * 12 + ["1", "perhaps"],
    }.items()}
    return argv, environment


@settings(FUZZ, max_examples=120, deadline=timedelta(seconds=10))
@given(data=st.data())
def test_any_command_line_exits_0_1_or_2_with_one_clear_line(courses, data):
    argv, environment = data.draw(command_lines(courses))
    saved = {name: os.environ.get(name) for name in [*environment, "HARNESS_ROOT"]}
    err, out = io.StringIO(), io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    stdin = sys.stdin
    try:
        for name, value in {**environment, "HARNESS_ROOT": str(courses)}.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        sys.stdin = io.StringIO("")  # `record` reads what a person types: here, nothing
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = cli.main(argv)
    finally:
        sys.stdin = stdin
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    said = err.getvalue()
    event(f"exit {code}")
    assert code in (0, 1, 2), (argv, code, said)
    assert "Traceback" not in said
    if code == 2:
        lines = [line for line in said.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("harness: "), (argv, said)
        assert not any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in lines[0]), lines[0]
