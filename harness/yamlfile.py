"""YAML in and out: line numbers for error messages, and case files a person can read.

Loading keeps the node tree beside the data so that a schema error can point at its line.
Dumping writes multi-line strings as literal blocks (`|`), which PyYAML refuses to do when a
line ends in a space; every block is checked to parse back to the same bytes, and falls back
to a quoted string when it would not.
"""
import json
from pathlib import Path

import yaml

from harness.errors import InputError


class Document:
    """Parsed YAML plus a way to find the line of any value in it."""

    def __init__(self, path: Path, data, root_node):
        self.path = path
        self.data = data
        self._root = root_node

    def line_of(self, keys) -> int | None:
        """1-based line of the value at `keys` (dict keys / list indexes), or of its nearest parent."""
        node, line = self._root, 1
        for key in keys:
            if node is None:
                break
            line = node.start_mark.line + 1
            child = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == str(key):
                        child = v
                        line = k.start_mark.line + 1
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
                child = node.value[key]
            if child is None:
                return line
            if isinstance(node, yaml.MappingNode):
                node = child
                continue
            node, line = child, child.start_mark.line + 1
        return line


def load(path: Path) -> Document:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as problem:
        raise InputError(f"cannot read the file ({problem})", path)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as problem:
        mark = problem.problem_mark or problem.context_mark
        line = mark.line + 1 if mark else None
        raise InputError(f"not valid YAML: {problem.problem or problem}; fix the syntax", path, line)
    return Document(Path(path), data, node)


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
    if isinstance(value, str):
        block = _block(value, indent)
        if block is not None:
            try:
                if yaml.safe_load(f"{indent}x: {block}\n")["x"] == value:
                    return block
            except yaml.YAMLError:
                pass
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1 << 20).strip().removesuffix("...").strip()


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
    return json.dumps(value, ensure_ascii=False)


def dump(data: dict) -> str:
    """A case (or any mapping) as readable YAML that loads back to exactly `data`."""
    text = "\n".join(_emit(data, "")) + "\n"
    if yaml.safe_load(text) != data:  # never write a file that does not round-trip
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1 << 20)
    return text
