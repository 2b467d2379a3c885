"""The pipeline's order holds in the code: a module of `harness/` imports only from its own stage
and the stages before it, never a later one, not even inside a function. The order is
docs/internals.md's, and that page's table of packages names exactly these stages."""
import ast
import re
from pathlib import Path

from tests.helpers import ROOT

# The stages, earliest first: the shared vocabulary at the top, the pipeline, then the front doors.
ORDER = ["top", "loading", "running", "building", "judging", "starts", "grading", "counterexample", "reporting", "classes",
         "platforms", "serve", "suite", "plugin", "cli"]
FRONT_MODULES = {"cli", "entry", "__main__", "arguments"}  # harness/*.py that are the command line


def stage(module: str) -> str | None:
    """The stage of a harness module (None: not the harness's)."""
    parts = module.split(".")
    if parts[0] != "harness":
        return None
    if len(parts) == 1:
        return "top"
    if parts[1] in ORDER:
        return parts[1]
    return "cli" if parts[1] in FRONT_MODULES else "top"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, package: str | None = None) -> list[tuple[str, int]]:
    """Every module a file imports, at any depth of its code (functions included), with its line;
    `package`: the file's package, for its relative imports (default: from its path in the project)."""
    found = []
    if package is None:
        package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else module_name(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against the file's package
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append((base, node.lineno))
            found += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return found


def upward() -> list[str]:
    wrong = []
    for path in sorted((ROOT / "harness").rglob("*.py")):
        here = stage(module_name(path))
        for target, line in imports(path):
            there = stage(target)
            if there is not None and ORDER.index(there) > ORDER.index(here):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {here} imports {target} ({there}, a later stage)")
    return sorted(set(wrong))


def test_no_module_imports_a_later_stage_not_even_inside_a_function():
    assert upward() == []


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    """The reader finds what the test must fail on: an import in a function body, relative too."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from harness.reporting import exports\n    from . import later\n")
    names = {name for name, _ in imports(sample, "harness.loading")}
    assert "harness.reporting.exports" in names and stage("harness.reporting.exports") == "reporting"
    assert "harness.loading.later" in names  # `from . import later`, resolved against its package


def test_every_package_of_the_harness_has_its_stage_and_the_manual_lists_them_in_order():
    packages = sorted(p.name for p in (ROOT / "harness").iterdir()
                      if p.is_dir() and (p / "__init__.py").is_file())
    assert set(packages) <= set(ORDER), set(packages) - set(ORDER)
    page = (ROOT / "docs" / "internals.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(\w+)/` \|", page, re.MULTILINE)
    assert listed == [p for p in ORDER if p in packages], listed


def test_the_manual_names_every_module_in_its_packages_row():
    """docs/internals.md says what each module owns: a module it does not name has no owner a
    newcomer can find (the row of its package, or the top row for `harness/*.py`)."""
    page = (ROOT / "docs" / "internals.md").read_text(encoding="utf-8")
    rows = {m[2] or "(top)": m[3] for m in re.finditer(r"^\| (`(\w+)/`|\(top\)) \|([^\n]*)$", page, re.MULTILINE)}
    missing = []
    for path in sorted((ROOT / "harness").rglob("*.py")):
        relative = path.relative_to(ROOT / "harness")
        if path.name == "__init__.py" or len(relative.parts) > 2:
            continue
        row = rows.get(relative.parts[0] if len(relative.parts) == 2 else "(top)", "")
        if f"`{path.name}`" not in row:
            missing.append(str(relative))
    assert not missing, missing
