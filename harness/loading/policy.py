"""The comparison policy a spec, an item and a case declare: flags and presets, what a case
looks at (its view keys), the message classes and the RE2 patterns they use.

Loading builds these once from the spec; judging (`harness.judging.compare`) applies them.
Every pattern is RE2, which matches in time linear in a line, so no spec and no program output
can make a comparison backtrack.
"""
import functools
import re
import dataclasses
from dataclasses import dataclass, fields

import re2

FLAGS = ("crlf", "trailing_space", "trailing_blank_lines", "ignore_blank_lines", "ignore_case",
         "collapse_whitespace", "ignore_extra_lines", "ignore_exit")
# Keys that say *what* a case looks at, not how strictly: a later preset keeps them.
VIEW_KEYS = {"turns": "all", "from": None, "messages": False, "keep_lines": None, "drop_lines": None, "rewrite": True,
             "facts": "off"}
TURNS = ("all", "first", "last")
_DEFAULT = {"crlf": True, "trailing_space": True, "trailing_blank_lines": True}
PRESETS = {
    "exact": {},
    "default": _DEFAULT,
    "whitespace": {**_DEFAULT, "collapse_whitespace": True},
    "lenient": {**_DEFAULT, "collapse_whitespace": True, "ignore_case": True, "ignore_extra_lines": True},
}

# --- patterns: RE2, linear in the text --------------------------------------------------------

class PatternError(ValueError):
    """A spec's pattern RE2 cannot run; the message says why and what to write instead."""


_NOT_IN_RE2 = re.compile(r"\(\?<?[=!]|\\[1-9]|\\Z")


@functools.lru_cache(maxsize=512)
def pattern(text: str):
    """`text` compiled with RE2, which matches in time linear in the line (no backtracking), so
    no pattern and no output can stall a comparison."""
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(text, options)
    except re2.error as problem:
        why = problem.args[0].decode(errors="replace") if isinstance(problem.args[0], bytes) else str(problem)
        hint = ("; RE2 has no lookarounds ((?=, (?!, (?<=, (?<!), backreferences (\\1) or \\Z (write \\z)"
                if _NOT_IN_RE2.search(text) else "")
        raise PatternError(f"{why}{hint}") from None


def _patterns(value) -> tuple:
    """One pattern or several (text, RE2 or Python patterns) as RE2 patterns."""
    if value is None:
        return ()
    if isinstance(value, (str, re.Pattern)) or hasattr(value, "search"):
        value = [value]
    return tuple(pattern(p if isinstance(p, str) else p.pattern) if isinstance(p, (str, re.Pattern)) else p
                 for p in value)


_GROUP_REF = re.compile(r"\\(?:([1-9][0-9]?)|g<([0-9]+)>|(\\))")


def _expand(template: str, groups: list) -> str:
    """The template with \\1 (or \\g<1>) replaced by group 1, as `re.Match.expand` does; a
    group that took no part in the match is empty."""
    def value(ref):
        if ref.group(3):
            return "\\"
        index = int(ref.group(1) or ref.group(2)) - 1
        return (groups[index] or "") if 0 <= index < len(groups) else ""
    return _GROUP_REF.sub(value, template)


@dataclass(frozen=True, eq=False)  # equal only to itself: hashed on every line read
class MessageClass:
    """Lines that count as the same message: the handout's example text and its variants.
    A line is this message when every `accept` pattern is found in it and no `unless` one is
    (several patterns say "all of these words, in any order" without lookarounds)."""
    id: str
    text: str  # the canonical line; may use the groups of `accept` (\\1), numbered across its patterns
    accept: tuple  # RE2 patterns (a single pattern or text is accepted too)
    unless: tuple = ()

    def __post_init__(self):
        if "\n" in self.text:
            raise ValueError(f"message class {self.id}: its text must be one line")
        object.__setattr__(self, "accept", _patterns(self.accept))
        object.__setattr__(self, "unless", _patterns(self.unless))

    @property
    def groups(self) -> int:
        return sum(p.groups for p in self.accept)

    def read(self, line: str) -> str | None:
        """The canonical text if this line is this message, else None."""
        groups = []
        for accept in self.accept:
            match = accept.search(line)
            if match is None:
                return None
            groups += match.groups()
        if any(p.search(line) for p in self.unless):
            return None
        return _expand(self.text, groups)


@dataclass(frozen=True)
class Policy:
    """A case's comparison policy, merged from the spec's defaults, its item's and its own:
    the normalisations (FLAGS) and what the case looks at (VIEW_KEYS; `from` is `from_`)."""
    crlf: bool = False
    trailing_space: bool = False
    trailing_blank_lines: bool = False
    ignore_blank_lines: bool = False
    ignore_case: bool = False
    collapse_whitespace: bool = False
    ignore_extra_lines: bool = False
    ignore_exit: bool = False
    turns: str = "all"  # all | first | last
    from_: str | None = None  # with turns: the turn from this marker on
    messages: bool = False  # the spec's message classes apply
    keep_lines: str | None = None  # RE2: only the lines matching it count
    drop_lines: str | None = None  # RE2: the lines matching it are left out
    rewrite: bool = True  # the program's output read through the spec's rewrite
    facts: str = "off"  # off | shown | state: compare the game's facts, not its glyphs

    @classmethod
    def of(cls, flags: dict) -> "Policy":
        return cls(**{_field(key): value for key, value in flags.items()})

    def layer(self) -> dict:
        """The policy as a layer of another (the keys a spec writes)."""
        return {("from" if f.name == "from_" else f.name): getattr(self, f.name) for f in fields(self)}

    def replace(self, change: dict) -> "Policy":
        """This policy with some keys (as a spec writes them) changed."""
        return dataclasses.replace(self, **{_field(key): value for key, value in change.items()})


def _field(key: str) -> str:
    return "from_" if key == "from" else key


def policy(*layers) -> Policy:
    """Merge policy layers (preset names, mappings with an optional `preset`, or policies), later ones winning."""
    flags = {name: False for name in FLAGS} | dict(VIEW_KEYS)
    for layer in layers:
        if not layer:
            continue
        if isinstance(layer, Policy):
            layer = layer.layer()
        elif isinstance(layer, str):
            layer = {"preset": layer}
        if "preset" in layer:
            flags = {name: False for name in FLAGS} | {k: flags[k] for k in VIEW_KEYS} | PRESETS[layer["preset"]]
        flags.update({k: v for k, v in layer.items() if k != "preset"})
    return Policy.of(flags)
