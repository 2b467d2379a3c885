"""YAML parsed and written with PyYAML: what a hostile or broken file could use to hang or crash
the harness is refused at its line, and case files are written so a person can read them.

Parsing gives the data and a table of line numbers (`lines_of`) for error messages; reading
the file and remembering parsed files is `yamlfile`'s job, which imports this module only for
a file it has not parsed before (PyYAML's import is most of the cost of a small file).
Dumping writes multi-line strings as literal blocks (`|`), which PyYAML refuses to do when a
line ends in a space; every block is checked to parse back to the same bytes, and falls back
to a quoted string when it would not.
"""
import json
import math
import os
import re
import stat
from pathlib import Path

import yaml

from harness.errors import InputError


# Limits that keep a hostile or broken file from taking the harness down: a case is a few
# kilobytes, a spec a few hundred lines; nothing needs more than a handful of nesting levels.
MAX_DEPTH = 64
MAX_DIGITS = 100
# Characters YAML cannot hold raw (its printable set is tab, newline, CR, and U+0020 onward
# without DEL, the C1 controls except NEL, surrogates and U+FFFE/U+FFFF), and the line breaks
# YAML counts but editors do not (NEL, U+2028, U+2029, a CR alone), which would put every
# line number after them out of step; the harness writes all of these as escapes.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u2028\u2029]|\r(?!\n)")
# The C loader (libyaml) reads a 5 MB case in a fraction of the pure-Python one's time.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_INT = "tag:yaml.org,2002:int"


def _text(raw: bytes, path: Path) -> str:
    """The file's text: UTF-8 without the characters YAML cannot hold raw."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = raw.count(b"\n", 0, problem.start) + 1
        raise InputError(f"not UTF-8 (byte 0x{raw[problem.start]:02x}); save the file as UTF-8", path, line)
    bad = _UNPRINTABLE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        code = ord(bad.group())
        raise InputError(f"{'control ' if code < 0xa0 else ''}character U+{code:04X} in the file; remove it, or write it "
                         f"as an escape (\"\\u{code:04x}\") inside a double-quoted string", path, line)
    return text


_TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep; a case or spec needs only a few; flatten it"


def parse(path: Path, raw: bytes) -> tuple[object, dict]:
    """One YAML document's data and its line table (`lines_of`); anything a person could get
    wrong is an InputError at its line."""
    text = _text(raw, path)
    last = text.count("\n") + 1  # the parser may point just past the end

    def at(mark):
        return min(mark.line + 1, last) if mark else None

    loader = _LOADER(text)
    try:
        root = _compose(loader, path, last)
        data = loader.construct_document(root) if root is not None else None
    except yaml.constructor.ConstructorError as problem:
        mark = problem.problem_mark or problem.context_mark
        raise InputError(f"cannot read this value: {problem.problem}; remove the tag or quote the value",
                         path, at(mark))
    except yaml.MarkedYAMLError as problem:
        mark = problem.problem_mark or problem.context_mark
        if "nesting depth" in str(problem.problem):  # libyaml's own cap, met before ours on some versions
            raise InputError(_TOO_DEEP, path, at(mark)) from None
        message, line = _syntax(problem, text)
        raise InputError(message, path, min(line, last) if line else at(mark))
    except yaml.YAMLError as problem:
        raise InputError(f"not valid YAML: {problem}; fix the syntax", path)
    finally:
        loader.dispose()
    return data, lines_of(root)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _significant(lines: list[str], index: int) -> bool:
    """A line that holds YAML structure (not blank, not a comment)."""
    stripped = lines[index].strip()
    return bool(stripped) and not stripped.startswith("#")


_BLOCK_TEXT = re.compile(r"(?:^|[:\-]\s)[|>][-+0-9]*\s*(?:#.*)?$")  # a `key: |-` or `- >` line: text follows


def _step(lines: list[str]) -> int:
    """The file's usual indentation step (2 when it shows none), text blocks left out."""
    steps: dict[int, int] = {}
    previous = text_above = None
    for index, line in enumerate(lines):
        if not _significant(lines, index):
            continue
        if text_above is not None and _indent(line) > text_above:
            continue  # a line of a text block: indented as the text needs
        text_above = _indent(line) if _BLOCK_TEXT.search(line.strip()) else None
        if previous is not None and _indent(line) > previous:
            steps[_indent(line) - previous] = steps.get(_indent(line) - previous, 0) + 1
        previous = _indent(line)
    return max(steps, key=lambda step: (steps[step], -step)) if steps else 2


def _misaligned(lines: list[str], at: int) -> int:
    """The 0-based line whose indentation is wrong, when libyaml stopped at line `at` because its
    indentation matches no open block. Usually `at` itself; but when the block just above has a
    single line and `at` sits where that line should (one step under their parent, or like the
    lines after it), that single line is the odd one: libyaml only notices at the next line."""
    column = _indent(lines[at])
    parent = next((i for i in range(at - 1, -1, -1) if _significant(lines, i) and _indent(lines[i]) < column), None)
    if parent is None:
        return at
    inside = [i for i in range(parent + 1, at) if _significant(lines, i)]
    if not inside:
        return at
    level = min(_indent(lines[i]) for i in inside)
    firsts = [i for i in inside if _indent(lines[i]) == level]
    if level == column or len(firsts) != 1:
        return at
    after = [i for i in range(at + 1, len(lines)) if _significant(lines, i)]
    like_after = bool(after) and _indent(lines[after[0]]) == column
    if like_after or column - _indent(lines[parent]) == _step(lines):
        return firsts[0]
    return at


def _syntax(problem: "yaml.MarkedYAMLError", text: str) -> tuple[str, int | None]:
    """A YAML syntax error in plain words, at the line a person has to fix (1-based; None: the
    parser's own mark). libyaml names the line where it gave up, which for a slip of
    indentation is often the line after the slip."""
    lines = text.split("\n")
    words = problem.problem or problem.context or str(problem)
    mark, context = problem.problem_mark, problem.context_mark
    if mark is None or mark.line >= len(lines):
        return f"not valid YAML ({words}); fix the syntax", None
    if lines[mark.line][:mark.column + 1].endswith("\t") or "\t" in lines[mark.line][:_indent(lines[mark.line]) + 1]:
        return ("a tab in the indentation; YAML indents with spaces only: replace it with spaces "
                f"(YAML: {words})"), mark.line + 1
    if problem.problem in ("did not find expected key", "did not find expected '-' indicator") and \
            _significant(lines, mark.line):
        line = _misaligned(lines, mark.line)
        return (f"the indentation of line {line + 1} does not match the lines around it; line it up with the "
                f"keys or `-` items it belongs with (YAML: {words})"), line + 1
    if problem.problem == "could not find expected ':'" and context is not None and context.line < len(lines):
        line = context.line
        return (f"line {line + 1} reads as a key with no `:`: its indentation does not match the lines around it "
                "(a line of a text block indented less than the block), or it lacks its `:` "
                f"(YAML: {words})"), line + 1
    if problem.problem == "mapping values are not allowed in this context":
        return (f"line {mark.line + 1} has a `key:` where none can start: its indentation does not match the lines "
                "around it (deeper than the line above, which already has its value), or a value with `: ` "
                f"in it needs quotes (YAML: {words})"), mark.line + 1
    return f"not valid YAML ({words}); fix the syntax", None


def lines_of(root) -> dict:
    """The line of every value, by its path of keys (str) and indexes (int), for `Document.line_of`:
    path -> (kind, line of the value's start, line to name it by: its key's for a mapping's value),
    kind "m" a mapping, "s" a sequence, "x" a scalar. The root's path is ()."""
    table = {}
    if root is None:
        return table
    todo = [((), root, root.start_mark.line + 1)]
    while todo:
        path, node, named = todo.pop()
        kind = "m" if isinstance(node, yaml.MappingNode) else "s" if isinstance(node, yaml.SequenceNode) else "x"
        table[path] = (kind, node.start_mark.line + 1, named)
        if kind == "m":
            todo += [(path + (key.value,), value, key.start_mark.line + 1) for key, value in node.value
                     if isinstance(key, yaml.ScalarNode) and path + (key.value,) not in table]
        elif kind == "s":
            todo += [(path + (index,), child, child.start_mark.line + 1) for index, child in enumerate(node.value)]
    return table


def _compose(loader, path: Path, last: int):
    """The document's node tree, built from the parser's events without recursion.

    Built here rather than by the library so that what YAML allows but a case or spec never
    needs is refused at its line before it can cost anything: aliases (ten lines of them
    expand to billions of nodes), nesting deeper than MAX_DEPTH, duplicate keys (the library
    silently keeps the last), non-finite or absurdly long numbers, and tagged values that
    cannot be read.
    """
    def fail(message, mark):
        raise InputError(message, path, min(mark.line + 1, last))

    loader.get_event()  # stream start
    if loader.check_event(yaml.StreamEndEvent):
        return None
    loader.get_event()  # document start
    stack = []  # open collections: [node, {key: line} for mappings, key waiting for its value]
    root = None
    while root is None:
        event = loader.get_event()
        if isinstance(event, yaml.AliasEvent):
            fail(f"alias *{event.anchor} is not allowed here; write the value out in full", event.start_mark)
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            node = stack.pop()[0]
            node.end_mark = event.end_mark
            if not stack:
                root = node
            continue
        if isinstance(event, yaml.ScalarEvent):
            tag = event.tag if event.tag not in (None, "!") else loader.resolve(yaml.ScalarNode, event.value, event.implicit)
            node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
            key = _scalar_value(loader, node, fail)
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(stack) >= MAX_DEPTH:
                fail(_TOO_DEEP, event.start_mark)
            kind = yaml.SequenceNode if isinstance(event, yaml.SequenceStartEvent) else yaml.MappingNode
            tag = event.tag if event.tag not in (None, "!") else loader.resolve(kind, None, event.implicit)
            node = kind(tag, [], event.start_mark, None, flow_style=event.flow_style)
            key = None
        else:  # the parser only yields the events above inside a document
            fail(f"unexpected {type(event).__name__}; fix the syntax", event.start_mark)
        if stack:
            parent = stack[-1]
            if isinstance(parent[0], yaml.SequenceNode):
                parent[0].value.append(node)
            elif parent[2] is None:
                if key is not None and key in parent[1]:
                    fail(f"key {node.value!r} appears twice (first on line {parent[1][key]}); keep one of them",
                         node.start_mark)
                if key is not None:
                    parent[1][key] = node.start_mark.line + 1
                parent[2] = node
            else:
                parent[0].value.append((parent[2], node))
                parent[2] = None
        if isinstance(node, yaml.ScalarNode):
            if not stack:
                root = node
        else:
            stack.append([node, {}, None])
    loader.get_event()  # document end
    if not loader.check_event(yaml.StreamEndEvent):
        fail("a second document ('---') in the file; a case or spec is one document", loader.peek_event().start_mark)
    return root


def _scalar_value(loader, node, fail):
    """A scalar's value as a mapping key would hold it; numbers, dates and tagged values are
    read now so that one that cannot be read, or is not finite, is reported at its line."""
    if node.tag == "tag:yaml.org,2002:str":
        return node.value
    if node.tag in ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
        return None
    if node.tag == _INT and len(node.value) > MAX_DIGITS:
        fail(f"a number of {len(node.value)} digits; no setting needs more than {MAX_DIGITS}", node.start_mark)
    kind = node.tag.rpartition(":")[2]
    try:
        value = loader.construct_object(node)
    except yaml.YAMLError:
        raise
    except (ValueError, KeyError, AttributeError, TypeError, OverflowError, IndexError):
        fail(f"{node.value!r} cannot be read as {kind}; quote it to make it text", node.start_mark)
    if isinstance(value, float) and not math.isfinite(value):
        fail(f"{node.value} is not a finite number; write an ordinary number", node.start_mark)
    try:
        hash(value)
    except TypeError:
        return None
    return value


def _block(text: str, indent: str) -> str | None:
    """`text` as a literal block scalar at `indent`, or None if a block cannot carry it exactly."""
    if "\n" not in text.rstrip("\n") and not text.endswith("\n"):
        return None
    if any((ord(c) < 32 and c not in "\n\t") or c in "\x7f\x85\u2028\u2029\ufeff" for c in text):
        return None
    if text.endswith("\n\n") or not text.endswith("\n"):
        chomp = "+" if text.endswith("\n") else "-"
    else:
        chomp = ""
    body = text[:-1] if text.endswith("\n") else text
    lines = body.split("\n")
    if chomp == "+":
        lines = text.split("\n")[:-1]
    indicator = "2" if lines and lines[0][:1] in (" ", "\t") or (lines and lines[0] == "" and len(lines) > 1) else ""
    out = [f"|{indicator}{chomp}"]
    inner = indent + "  "
    for line in lines:
        out.append((inner + line) if line else "")
    return "\n".join(out)


def _scalar(value, indent: str) -> str:
    if isinstance(value, str) and not _UNPRINTABLE.search(value):
        block = _block(value, indent)
        if block is not None:
            try:
                if yaml.load(f"{indent}x: {block}\n", Loader=_LOADER)["x"] == value:
                    return block
            except yaml.YAMLError:
                pass
    # a string holding what `load` refuses raw is written double-quoted, where it is escaped
    style = '"' if isinstance(value, str) and _UNPRINTABLE.search(value) else None
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1 << 20,
                          default_style=style).strip().removesuffix("...").strip()


def _emit(value, indent: str) -> list[str]:
    """Block-style YAML lines for `value` at `indent` (mappings keep their key order)."""
    lines = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item and not _flat(item):
                lines.append(f"{indent}{key}:")
                lines += _emit(item, indent + "  ")
            else:
                lines.append(f"{indent}{key}: {_scalar(item, indent) if not isinstance(item, (dict, list)) else _flow(item)}")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and item:
                first, *rest = _emit(item, indent + "  ")
                lines.append(f"{indent}- {first.lstrip()}")
                lines += rest
            elif isinstance(item, list) and item and not _flat(item):
                lines.append(f"{indent}-")
                lines += _emit(item, indent + "  ")
            else:
                lines.append(f"{indent}- {_flow(item) if isinstance(item, (dict, list)) else _scalar(item, indent)}")
    return lines


def _flat(value) -> bool:
    """Short lists of plain scalars read best inline: `inputs: ["4", "e"]`."""
    return isinstance(value, list) and all(
        isinstance(v, (str, int, float, bool)) and "\n" not in str(v) for v in value
    )


def _flow(value) -> str:
    """JSON is YAML; characters `load` refuses raw are escaped, as JSON leaves some of them."""
    return _UNPRINTABLE.sub(lambda m: "\\r" if m.group() == "\r" else f"\\u{ord(m.group()):04x}",
                            json.dumps(value, ensure_ascii=False))


def dump(data: dict) -> str:
    """A case (or any mapping) as readable YAML that loads back to exactly `data`."""
    text = "\n".join(_emit(data, "")) + "\n"
    if yaml.load(text, Loader=_LOADER) != data:  # never write a file that does not round-trip
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1 << 20)
    return text
