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

Code most of the class holds is not evidence that two students shared it: on a small game every
correct program writes the same loops over the board and the same runs of print calls, and two
programs written apart share them. A k-gram held by more than half of the class's submissions
of a language, and by at least COMMON_LEAST of them, is set aside like the spec's files before
any pair is scored (as MOSS's `-m` and Dolos's fingerprint percentage do); a copy shares far more
than that, so it stays on top. A class of fewer than COMMON_LEAST submissions of a language has
no such code to tell: its pairs are scored on everything.
"""
import bisect
import importlib.util
import io
import itertools
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness import languages
from harness.building import intake
from harness.classes import classroom
from harness.reporting import similarity as page
from harness.safe_text import cap, one_line, visible

INSTALL = "pip install 'game-harness[similarity]'"
DEFAULT_THRESHOLD = 50.0  # percent of either submission's code found in the other
NOISE = 25  # copydetect's noise threshold: the shortest match that counts, in filtered characters
SHOWN_PAIRS = 100  # pairs opened side by side on the page (the rest stay in the ranking)
BELOW_SHOWN = 10  # the closest pairs under the threshold, listed to judge it
COMMON_LEAST = 3  # submissions that must hold a k-gram (and more than half the class) for it to be the class's own
WHY_CHARS = 300  # of the reason a submission is not compared
# The Pygments lexer of each language intake names.
LEXERS = {language.name: language.lexer for language in languages.ALL}


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
    above, compared = len(result.pairs), result.compared
    return Outcome(f"similarity: {above} pair{'s' if above != 1 else ''} at or above {threshold:g} % among "
                   f"{result.submissions} submissions ({compared} pair{'s' if compared != 1 else ''} compared) "
                   f"in {seconds:.1f} s: {path}", path, above, threshold, seconds)


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
    common = _common(documents)
    for docs in documents.values():
        for doc in docs.values():
            _set_aside(doc.fingerprint, common.get(doc.language, set()))
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
            docs_a, docs_b = documents[pair.a.name], documents[pair.b.name]
            page.open_side_by_side(pair, docs_a, docs_b, *_marks(docs_a, docs_b))
    by_name = {e.name: e for e in entries}
    for pair in above + below:
        for side in (pair.a, pair.b):
            side.original = visible(_original(by_name.get(side.name)))
            side.name = visible(side.name)
    return page.Page(spec.title, threshold, above, below, len(documents), len(scored), skipped, boilerplate_files,
                     f"copydetect {__version__}", NOISE, SHOWN_PAIRS, _common_said(common, documents))


def _common(documents: dict[str, dict[str, Document]]) -> dict[str, set]:
    """By language, the k-grams more than half of the submissions of that language hold, and at
    least COMMON_LEAST of them: what the class writes alike, not what two students shared."""
    held: dict[str, dict] = {}
    counts: dict[str, int] = {}
    for docs in documents.values():
        for language, doc in docs.items():
            counts[language] = counts.get(language, 0) + 1
            tally = held.setdefault(language, {})
            for h in doc.fingerprint.hashes:
                tally[h] = tally.get(h, 0) + 1
    return {language: {h for h, n in tally.items() if n >= COMMON_LEAST and 2 * n > counts[language]}
            for language, tally in held.items()}


def _set_aside(fingerprint, common: set) -> None:
    """Take the class's common k-grams out of a fingerprint, as `_fingerprint` takes out the spec's."""
    from copydetect.utils import get_token_coverage

    if not common or not fingerprint.hashes & common:
        return
    fingerprint.hash_idx = {h: at for h, at in fingerprint.hash_idx.items() if h not in common}
    fingerprint.hashes = set(fingerprint.hash_idx)
    fingerprint.token_coverage = get_token_coverage(fingerprint.hash_idx, NOISE, len(fingerprint.filtered_code))


def _common_said(common: dict[str, set], documents: dict[str, dict[str, Document]]) -> str:
    """One line for the page: how much code was the class's own, by language."""
    counts: dict[str, int] = {}
    for docs in documents.values():
        for language in docs:
            counts[language] = counts.get(language, 0) + 1
    said = [f"{len(found):,} of {language}'s k-grams (held by more than half of its {counts[language]} submissions)"
            for language, found in sorted(common.items()) if found]
    return "; ".join(said)


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
    found = [Path(word) for word in words if languages.by_suffix(word) is not None and Path(word).is_file()]
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
    for language in shared:
        fa, fb = docs_a[language].fingerprint, docs_b[language].fingerprint
        _, (share_a, share_b), _ = compare_files(fa, fb)
        found_a += float(share_a) * float(fa.token_coverage)
        found_b += float(share_b) * float(fb.token_coverage)
    whole_a = sum(float(d.fingerprint.token_coverage) for d in docs_a.values())
    whole_b = sum(float(d.fingerprint.token_coverage) for d in docs_b.values())
    percent_a = 100.0 * found_a / whole_a if whole_a else 0.0
    percent_b = 100.0 * found_b / whole_b if whole_b else 0.0
    return page.Pair(page.Side(a, percent_a), page.Side(b, percent_b), "/".join(shared))


def _marks(docs_a: dict[str, Document], docs_b: dict[str, Document]) -> tuple[dict, dict, int]:
    """Each side's marks by language, (start, end, number) in its text (number 0: matched, but
    by code that recurs, so with no one partner), and how many numbered fragments there are."""
    marks_a, marks_b, count = {}, {}, 0
    for language, doc in docs_a.items():
        if language not in docs_b:
            continue
        fa, fb = doc.fingerprint, docs_b[language].fingerprint
        labels_a, labels_b, runs = _fragments(fa, fb)
        labels_a[labels_a > 0] += count
        labels_b[labels_b > 0] += count
        marks_a[language], marks_b[language] = _spans(labels_a, fa.offsets), _spans(labels_b, fb.offsets)
        count += runs
    return marks_a, marks_b, count


def _fragments(fa, fb):
    """Label each character of both filtered codes: 0 not matched, -1 matched, n > 0 in the n-th
    fragment. A fragment is a run of k-grams found once on each side, one after the other on
    both (the same distance apart, the same code between), so code moved about is as many
    fragments as it has pieces, each numbered alike on both sides."""
    import numpy

    k = fa.k
    labels_a = numpy.zeros(len(fa.filtered_code), dtype=numpy.int64)
    labels_b = numpy.zeros(len(fb.filtered_code), dtype=numpy.int64)
    shared = fa.hashes & fb.hashes
    for h in shared:
        for p in fa.hash_idx[h]:
            labels_a[p:p + k] = -1
        for q in fb.hash_idx[h]:
            labels_b[q:q + k] = -1
    pairs = sorted((fa.hash_idx[h][0], fb.hash_idx[h][0]) for h in shared
                   if len(fa.hash_idx[h]) == 1 and len(fb.hash_idx[h]) == 1)
    runs: list[list[int]] = []
    code_a, code_b = fa.filtered_code, fb.filtered_code
    for a, b in pairs:
        if runs:
            last_a, last_b = runs[-1][1], runs[-1][3]
            # on from the last one, the same distance on both sides, with the same code between
            # (a k-gram that recurs can stand there: it is matched, but has no one partner)
            if 0 < a - last_a == b - last_b and (a - last_a <= k or code_a[last_a:a] == code_b[last_b:b]):
                runs[-1][1], runs[-1][3] = a, b
                continue
        runs.append([a, a, b, b])
    for number, (a0, a1, b0, b1) in enumerate(runs, 1):
        labels_a[a0:a1 + k] = number
        labels_b[b0:b1 + k] = number
    return labels_a, labels_b, len(runs)


def _spans(labels, offsets) -> list[tuple[int, int, int]]:
    """The labelled stretches of a filtered code as (start, end, number) in its text."""
    import numpy

    def raw(position: int) -> int:  # as copydetect maps a slice back to the text
        if not len(offsets):
            return position
        return position + int(offsets[min(int(numpy.searchsorted(offsets[:, 0], position)), len(offsets) - 1), 1])

    bounds = [0, *(numpy.flatnonzero(numpy.diff(labels)) + 1).tolist(), len(labels)]
    return [(raw(s), raw(e), max(int(labels[s]), 0)) for s, e in zip(bounds, bounds[1:]) if s < e and labels[s]]
