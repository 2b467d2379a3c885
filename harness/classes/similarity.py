"""Similar submissions across a class (`harness grade --similarity`): every pair of submissions
compared by copydetect, the pairs at or above the threshold ranked on `similarity.html` beside
the class page, each opened side by side with the matching fragments marked.

copydetect (the `similarity` extra) does the detection: each source file is tokenized by
Pygments, names, strings and comments are taken out (a renamed variable, a changed comment or
new whitespace changes nothing), and the k-grams of what is left are fingerprinted. What the
spec provides is subtracted before any pair is compared: its support and optional files
(`specs/GAME/support/`) and the reference's own sources, so code the handout gives every
student never counts as a match.

A submission is one document per language (its source files of that language, in name order);
a pair's share for each side is the part of that side's fingerprinted code found in the other,
and the pair's score is the larger share, so a program copied into a larger one still shows.
With a window of 1 (copydetect's guarantee threshold equal to its noise threshold) every
k-gram is kept: the scores do not depend on the process's string hashes.
"""
import bisect
import importlib.util
import io
import itertools
import shlex
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from harness.building import intake
from harness.classes import classroom
from harness.reporting import similarity as page
from harness.safe_text import cap, one_line, visible

INSTALL = "pip install 'game-harness[similarity]'"
DEFAULT_THRESHOLD = 50.0  # percent of either submission's code found in the other
NOISE = 25  # copydetect's noise threshold: the shortest match that counts, in filtered characters
SHOWN_PAIRS = 100  # pairs opened side by side on the page (the rest stay in the ranking)
BELOW_SHOWN = 10  # the closest pairs under the threshold, listed to judge it
WHY_CHARS = 300  # of the reason a submission is not compared
# The Pygments lexer of each language intake names (intake.SOURCE_SUFFIXES).
LEXERS = {"java": "java", "python": "python", "cpp": "cpp", "c": "c", "c#": "csharp", "javascript": "javascript",
          "kotlin": "kotlin"}


@dataclass
class Outcome:
    """What the step did: its one line for the terminal, and the page (None when there is none)."""
    line: str
    page: Path | None = None
    pairs: int = 0  # at or above the threshold
    threshold: float = DEFAULT_THRESHOLD
    seconds: float = 0.0

    @property
    def link(self) -> str:
        return self.page.name if self.page is not None else ""


@dataclass
class Document:
    """One submission's source files of one language, joined, and where each file starts."""
    language: str
    text: str
    files: list[tuple[str, int, int]] = field(default_factory=list)  # (path, start, end) in text
    fingerprint: object = None


def available() -> bool:
    """copydetect can be imported (the `similarity` extra is installed and works)."""
    try:
        import copydetect  # noqa: F401
    except ImportError:
        return False
    return True


def step(spec, entries: list[classroom.Entry], out: Path, threshold: float, links: dict[str, str]) -> Outcome:
    """Compare every pair of the class's submissions and write `out/similarity.html`.
    `links`: each submission's report, relative to `out`. Without copydetect: the line that says
    how to add it, and no page."""
    if len(entries) < 2:
        return Outcome("similarity: one submission, nothing to compare it with", threshold=threshold)
    started = time.monotonic()  # loading copydetect included
    if not available():
        return Outcome(f"similarity: not checked, copydetect is not installed; add it with {INSTALL}",
                       threshold=threshold)
    result = compare(spec, entries, threshold, links)
    path = page.write(result, out / page.FILE)
    seconds = time.monotonic() - started
    above = len(result.pairs)
    return Outcome(f"similarity: {above} pair{'s' if above != 1 else ''} at or above {threshold:g} % among "
                   f"{result.submissions} submissions ({result.compared} pair{'s' if result.compared != 1 else ''} compared) in {seconds:.1f} s: {path}",
                   path, above, threshold, seconds)


def compare(spec, entries: list[classroom.Entry], threshold: float, links: dict[str, str]) -> "page.Page":
    """The class's pairs ranked (the page's content), without writing it."""
    from copydetect import CodeFingerprint, __version__

    provided, boilerplate_files = _boilerplate(spec, CodeFingerprint)
    documents: dict[str, dict[str, Document]] = {}
    skipped = []
    for entry in entries:
        docs, why = _documents(entry)
        if not docs:
            skipped.append((visible(entry.name), one_line(cap(why, WHY_CHARS))))
            continue
        for doc in docs.values():
            doc.fingerprint = _fingerprint(CodeFingerprint, doc, provided)
        documents[entry.name] = docs
    scored = []
    for a, b in itertools.combinations(documents, 2):
        pair = _pair(a, documents[a], b, documents[b])
        if pair is not None:
            scored.append(pair)
    scored.sort(key=lambda p: (-p.score, -min(p.a.percent, p.b.percent), p.a.name, p.b.name))
    listed = [p.score >= threshold and p.score > 0 for p in scored]  # 0 %: nothing in common, never listed
    above = [p for p, shown in zip(scored, listed) if shown]
    below = [p for p, shown in zip(scored, listed) if not shown][:BELOW_SHOWN]
    for rank, pair in enumerate(above, 1):
        pair.rank = rank
        pair.a.link, pair.b.link = links.get(pair.a.name, ""), links.get(pair.b.name, "")
        if rank <= SHOWN_PAIRS:
            page.open_side_by_side(pair, documents[pair.a.name], documents[pair.b.name])
    by_name = {e.name: e for e in entries}
    for pair in above + below:
        for side in (pair.a, pair.b):
            side.original = visible(_original(by_name.get(side.name)))
            side.name = visible(side.name)
    return page.Page(spec.title, threshold, above, below, len(documents), len(scored), skipped, boilerplate_files,
                     f"copydetect {__version__}", NOISE, SHOWN_PAIRS)


def _original(entry: classroom.Entry | None) -> str:
    return entry.original if entry is not None and entry.original and entry.original != entry.name else ""


def _documents(entry: classroom.Entry) -> tuple[dict[str, Document], str]:
    """The entry's source files, one document per language; else why there are none."""
    if entry.path is None:
        return {}, "no files handed in"
    sub = intake.open_submission(entry.path)
    try:
        if sub.problem:
            return {}, sub.problem
        docs: dict[str, Document] = {}
        for rel in sub.files:
            language = intake.language_of(rel)
            if language not in LEXERS:
                continue
            try:
                text = _normal(intake.read_file(sub.root, rel))
            except (OSError, intake.IntakeProblem):
                continue
            doc = docs.setdefault(language, Document(language, ""))
            if doc.text:
                doc.text += "\n"
            start = len(doc.text)
            doc.text += text
            doc.files.append((rel, start, len(doc.text)))
        return docs, "" if docs else "no source files"
    finally:
        intake.close(sub)


def _normal(data: bytes) -> str:
    """A file's text as it is compared and shown: UTF-8 (a stray byte replaced), no BOM, \\n lines."""
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _boilerplate(spec, CodeFingerprint) -> tuple[set, list[str]]:
    """The fingerprints of what the spec provides (support and optional files, the reference's
    sources), and those files' names for the page."""
    files: list[Path] = []
    for target in spec.targets.values():
        for language in target.languages.values():
            files += [spec.support_dir / name for name in language.support + language.optional]
    files += _reference_files(spec)
    hashes: set = set()
    shown = []
    for path in dict.fromkeys(files):
        language = intake.language_of(path.name)
        if language not in LEXERS or not path.is_file():
            continue
        try:
            text = _normal(path.read_bytes())
        except OSError:
            continue
        fingerprint = CodeFingerprint(path.name, NOISE, 1, language=LEXERS[language], fp=io.StringIO(text))
        hashes |= set(fingerprint.hashes)
        shown.append(_shown_path(spec, path))
    return hashes, shown


def _shown_path(spec, path: Path) -> str:
    for base in (spec.folder.parent.parent, spec.folder):
        try:
            return path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
    return path.name


def _reference_files(spec) -> list[Path]:
    """The reference's sources: a built reference's files, or the files and `-m` module its command names."""
    if spec.built_reference:
        return [spec.folder / name for name in spec.reference.files]
    words = [word.replace("{spec}", str(spec.folder)) for word in shlex.split(spec.reference)]
    found = [Path(word) for word in words if word.endswith(tuple(intake.SOURCE_SUFFIXES)) and Path(word).is_file()]
    for flag, module in zip(words, words[1:]):
        if flag == "-m":
            try:
                origin = importlib.util.find_spec(module)
            except (ImportError, ValueError):
                origin = None
            if origin is not None and origin.origin:
                found.append(Path(origin.origin))
    return found


def _fingerprint(CodeFingerprint, doc: Document, provided: set):
    """copydetect's fingerprint of a document, with what the spec provides and the k-grams that
    span two files taken out, and its map back to the text made exact (see `_offsets`)."""
    from copydetect.utils import get_token_coverage

    lexer = LEXERS[doc.language]
    fingerprint = CodeFingerprint(f"submission.{lexer}", NOISE, 1, language=lexer, fp=io.StringIO(doc.text))
    offsets, seams = _offsets(doc.text, lexer, [start for _, start, _ in doc.files[1:]])
    if len(offsets) == len(fingerprint.offsets) and (offsets[:, 0] == fingerprint.offsets[:, 0]).all():
        fingerprint.offsets = offsets  # the same filter: only the offsets after a class name differ
    # Every occurrence of a provided k-gram is taken out here (copydetect 0.5 keeps some of a
    # repeated one), and so is a k-gram across two files: two students who hand in the same
    # provided files, in the same order, would otherwise share the k-grams at their seams.
    index = {}
    for h, at in fingerprint.hash_idx.items():
        if h in provided:
            continue
        kept = [p for p in at if not _across(p, seams)]
        if kept:
            index[h] = kept
    fingerprint.hash_idx = index
    fingerprint.hashes = set(index)
    fingerprint.token_coverage = get_token_coverage(index, NOISE, len(fingerprint.filtered_code))
    return fingerprint


def _across(position: int, seams: list[int]) -> bool:
    """The k-gram at `position` of the filtered code spans the start of a file."""
    at = bisect.bisect_right(seams, position)
    return at < len(seams) and seams[at] < position + NOISE


def _offsets(text: str, lexer: str, starts: list[int]):
    """copydetect's map from the filtered code back to the text, computed as its filter_code does
    but with the right offset after a class name (0.5.0 records the name's length there, so a
    match after `class Name` was marked hundreds of characters early), and where in the filtered
    code each of `starts` (a file's first character) falls. If this copydetect filters
    differently, the map it made is kept (see `_fingerprint`)."""
    import numpy
    from pygments import lexers, token

    variables = {token.Name, token.Name.Variable, token.Name.Attribute}
    length, offset, offsets = 0, 0, [[0, 0]]
    raw, pending, seams = 0, list(starts), []
    for kind, value in lexers.get_lexer_by_name(lexer).get_tokens(text):
        while pending and pending[0] <= raw:
            seams.append(length)
            pending.pop(0)
        raw += len(value)
        if (kind in variables or kind in token.Name.Function or kind in token.Name.Class
                or kind == token.Comment.Preproc or kind == token.Comment.Hashbang):
            length += 1
            offsets.append([length - 1, offset])
            offset += len(value) - 1
        elif kind in token.Text or kind in token.Comment:
            offsets.append([length - 1, offset])
            offset += len(value)
        elif kind in token.Literal.String:
            length += 1
            if value not in ("'", '"'):
                offsets.append([length - 1, offset])
                offset += len(value) - 1
        else:
            length += len(value)
    seams += [length] * len(pending)
    return numpy.array(offsets), seams


def _pair(a: str, docs_a: dict[str, Document], b: str, docs_b: dict[str, Document]) -> "page.Pair | None":
    """Two submissions compared over the languages they share (None: no language in common)."""
    from copydetect import compare_files

    shared = [language for language in docs_a if language in docs_b]
    if not shared:
        return None
    found_a = found_b = 0.0
    slices = {}
    for language in shared:
        fa, fb = docs_a[language].fingerprint, docs_b[language].fingerprint
        _, (share_a, share_b), (slices_a, slices_b) = compare_files(fa, fb)
        found_a += float(share_a) * float(fa.token_coverage)
        found_b += float(share_b) * float(fb.token_coverage)
        if len(slices_a) and len(slices_a[0]):
            slices[language] = (slices_a, slices_b, _partners(fa, fb))
    whole_a = sum(float(d.fingerprint.token_coverage) for d in docs_a.values())
    whole_b = sum(float(d.fingerprint.token_coverage) for d in docs_b.values())
    percent_a = 100.0 * found_a / whole_a if whole_a else 0.0
    percent_b = 100.0 * found_b / whole_b if whole_b else 0.0
    pair = page.Pair(page.Side(a, percent_a), page.Side(b, percent_b), "/".join(shared))
    pair.slices = slices
    return pair


def _partners(fa, fb) -> list[int]:
    """For each matching fragment of the second document, the fragment of the first it shares
    the most fingerprints with (its number on the page), or -1."""
    import numpy
    from copydetect.utils import find_fingerprint_overlap, get_copied_slices

    ia, ib = find_fingerprint_overlap(fa.hashes, fb.hashes, fa.hash_idx, fb.hash_idx)
    starts_a = get_copied_slices(ia, fa.k)[0]
    starts_b = get_copied_slices(ib, fb.k)[0]
    votes: Counter = Counter()
    for h in fa.hashes & fb.hashes:
        in_a = numpy.searchsorted(starts_a, fa.hash_idx[h], side="right") - 1
        in_b = numpy.searchsorted(starts_b, fb.hash_idx[h], side="right") - 1
        for i in set(in_a.tolist()):
            for j in set(in_b.tolist()):
                votes[i, j] += 1
    best: dict[int, tuple[int, int]] = {}
    for (i, j), count in votes.items():
        if j not in best or (count, -i) > (best[j][0], -best[j][1]):
            best[j] = (count, i)
    return [best[j][1] if j in best else -1 for j in range(len(starts_b))]
