"""The grader's own folders, replaced in everything a student or instructor reads.

A build happens in a temporary folder (`/tmp/harness-build-game-x1y2/out`), runs start in
others, and the JVM's shared archive is in the user's cache: their paths say nothing to a
student and change on every run. Every temporary folder the harness makes is named by
`paths.temporary(kind)`, so they are told apart from a student's own folders by that name.
This is done once, at the end of a grading, on the machine that graded: only it knows its
temporary folder and its cache (a cluster worker's are not the caller's), and every report,
whichever front door writes it, then holds the same words. `scrub` rewrites the texts the harness wrote into a result
(build logs and reasons, case reasons, notes and commands) so a build folder reads `<build>`,
another of the harness's temporary folders `<tmp>` and the cache `<cache>`: every report,
result.json, Gradescope's output and the terminal read the same words. What the program printed
(the turns) is left as printed: it is compared, and shown as it was.
"""
import dataclasses
import os
import tempfile

from harness.loading import paths
from harness.results import BuildSummary, CaseResult, SubmissionResult

BUILD, TEMP, CACHE = "<build>", "<tmp>", "<cache>"
_PATH_ENDS = frozenset("'\"():,;=<>[]`")
_PATH_CHARS = frozenset("._-/")


def _cache() -> str:
    return str(paths.cache_root())


def _temps() -> list[str]:
    temp = tempfile.gettempdir()
    return list(dict.fromkeys([temp.rstrip("/"), os.path.realpath(temp).rstrip("/")]))


def _shown(rest: str) -> str | None:
    """A path under the temporary folder, from just below it: its shown form, or None when it
    is not the harness's (a student's own folder under /tmp stays as it is)."""
    parts = rest.split("/")
    ours = [index for index, part in enumerate(parts) if part.startswith(paths.TEMP_PREFIX)]
    if ours:
        last = ours[-1]
        label = BUILD if parts[last].startswith(paths.temporary(paths.BUILD_KIND)) else TEMP
        return "/".join([label, *parts[last + 1:]])
    if parts[0].startswith("hs_err"):  # the JVM's crash file, named in every Java run's command
        return "/".join([TEMP, *parts])
    return None


def text(value: str, temps: list[str] | None = None, cache: str | None = None) -> str:
    """`value` with the harness's folders shown as <build>, <tmp> and <cache>. Plain scanning
    (no regular expression), linear in the text's length."""
    if not value:
        return value
    value = value.replace(cache or _cache(), CACHE)
    for temp in temps or _temps():
        prefix, out, pos = temp + "/", [], 0
        while (start := value.find(prefix, pos)) != -1:
            begin = start + len(prefix)
            if start and (value[start - 1].isalnum() or value[start - 1] in _PATH_CHARS):
                out.append(value[pos:begin])  # inside a longer path: not a temporary folder
                pos = begin
                continue
            end = begin
            while end < len(value) and not value[end].isspace() and value[end] not in _PATH_ENDS:
                end += 1
            shown = _shown(value[begin:end])
            out.append(value[pos:start] + (shown if shown is not None else value[start:end]))
            pos = end
        value = "".join(out) + value[pos:]
    return value


def scrub(result: SubmissionResult) -> SubmissionResult:
    """The result with the harness's folders replaced in every text the harness wrote."""
    temps, cache = _temps(), _cache()

    def t(value: str) -> str:
        return text(value, temps, cache)

    def build(b: BuildSummary) -> BuildSummary:
        return dataclasses.replace(b, reason=t(b.reason), log=t(b.log), diagnosis=t(b.diagnosis),
                                   findings=[t(f) for f in b.findings], intake=[t(i) for i in b.intake])

    def case(c: CaseResult) -> CaseResult:
        return dataclasses.replace(c, reason=t(c.reason), detail=t(c.detail), notes=[t(n) for n in c.notes],
                                   command=[t(w) for w in c.command], hint=t(c.hint) if c.hint else c.hint)

    return dataclasses.replace(result, builds={k: build(b) for k, b in result.builds.items()},
                               cases=[case(c) for c in result.cases])
