"""A regraded class keeps what it replaced, and holds back what students see until the
instructor publishes it.

Before a regrade rewrites a report, its folder is copied into `history/<n>-<time>/` under the
class's report folder, with the gradebook, the class page and the delta; a report whose grade
did not move is not kept there. `harness restore -o REPORTS` puts the newest kept state back
(what it replaces becomes a history entry of its own, so a restore can be undone the same way).

A report's student-facing files (`STUDENT_FILES`: the Gradescope results.json and the student
copy of the report) are published when a submission is first graded. When a regrade moves a
grade, the new ones wait in `<report>/pending/` and the published ones stay until `harness
publish -o REPORTS` moves every pending file into place."""
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from harness import atomic

HISTORY = "history"
PENDING = "pending"
STUDENT_FILES = ("results.json", "report-student.html")
CLASS_FILES = ("gradebook.csv", "index.html", "delta.csv")


@dataclass
class Entry:
    """One history entry being filled while a class is graded again."""
    folder: Path
    kept: set[str]

    def save(self, report: Path) -> None:
        """Copy a report folder before it is rewritten (links copied as links)."""
        if report.is_dir() and report.name not in self.kept:
            shutil.copytree(report, self.folder / report.name, symlinks=True,
                            ignore=shutil.ignore_patterns(PENDING))
            self.kept.add(report.name)

    def forget(self, name: str) -> None:
        """A report whose grade did not move: nothing to restore."""
        if name in self.kept:
            shutil.rmtree(self.folder / name, ignore_errors=True)
            self.kept.discard(name)


def begin(out: Path) -> Entry:
    """A new history entry under `out/history/`, numbered after the last."""
    root = out / HISTORY
    root.mkdir(parents=True, exist_ok=True)
    numbers = [int(p.name.split("-", 1)[0]) for p in root.iterdir() if p.name.split("-", 1)[0].isdigit()]
    folder = root / f"{max(numbers, default=0) + 1}-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    folder.mkdir()
    for name in CLASS_FILES:  # as they were before this run rewrites them
        if (out / name).is_file():
            shutil.copy2(out / name, folder / name)
    return Entry(folder, set())


def finish(entry: Entry, changed: bool) -> Path | None:
    """Keep the entry when a grade moved, else remove it (and an empty history folder)."""
    if changed:
        return entry.folder
    shutil.rmtree(entry.folder, ignore_errors=True)
    try:
        entry.folder.parent.rmdir()
    except OSError:
        pass
    return None


def hold_back(report: Path, saved: Path) -> bool:
    """The new student-facing files of `report` wait in `report/pending/`; the published ones
    (from `saved`, its copy before the regrade) are put back. True when anything waits."""
    waiting = False
    for name in STUDENT_FILES:
        new = report / name
        if not new.is_file():
            continue
        (report / PENDING).mkdir(exist_ok=True)
        os.replace(new, report / PENDING / name)
        waiting = True
        if (saved / name).is_file():
            shutil.copy2(saved / name, new)
    return waiting


def pending(out: Path) -> list[str]:
    """The reports whose new student-facing files wait to be published."""
    try:
        return sorted(p.name for p in out.iterdir() if (p / PENDING).is_dir() and p.name != HISTORY)
    except OSError:
        return []


def publish(out: Path) -> list[str]:
    """Move every pending student-facing file into place, and say so on the class page; returns
    the reports published."""
    done = []
    for name in pending(out):
        waiting = out / name / PENDING
        for item in waiting.iterdir():
            os.replace(item, out / name / item.name)
        waiting.rmdir()
        done.append(name)
    if done:
        mark_published(out / "index.html", len(done))
    return done


WAITING_START, WAITING_END = '<span id="waiting">', "</span><!--/waiting-->"


def mark_published(page: Path, count: int) -> None:
    """The class page's "Not published to students yet" (the span the page wrote between its
    markers) becomes what `harness publish` did, so the page never says a grade waits once it is
    out; a page without the span is left as it is."""
    try:
        text = page.read_text(encoding="utf-8")
    except OSError:
        return
    start = text.find(WAITING_START)
    end = text.find(WAITING_END, start)
    if start < 0 or end < 0:
        return
    said = (f'<span id="published"><strong>Published to students:</strong> the student files of {count} '
            f"report{'s' if count != 1 else ''} (<code>harness publish</code>).")
    atomic.write_text(page, text[:start] + said + text[end:])


def entries(out: Path) -> list[Path]:
    root = out / HISTORY
    if not root.is_dir():
        return []
    found = [p for p in root.iterdir() if p.is_dir() and p.name.split("-", 1)[0].isdigit()]
    return sorted(found, key=lambda p: int(p.name.split("-", 1)[0]))


def restore(out: Path) -> tuple[Path, list[str]]:
    """Put the newest history entry back; what it replaces becomes a new entry. Returns the
    entry restored and the names of the reports put back."""
    found = entries(out)
    if not found:
        raise FileNotFoundError(out / HISTORY)
    newest = found[-1]
    reports = sorted(p.name for p in newest.iterdir() if p.is_dir())
    undo = begin(out)
    for name in reports:
        if (out / name).is_dir():
            shutil.move(str(out / name), str(undo.folder / name))
        shutil.move(str(newest / name), str(out / name))
    for name in CLASS_FILES:
        if (newest / name).is_file():
            shutil.copy2(newest / name, out / name)
        elif name == "delta.csv" and (out / name).is_file():
            (out / name).unlink()
    shutil.rmtree(newest)
    return newest, reports
