"""A program's output made harmless to show and bounded in size.

A submission's output reaches the grader's terminal and the reports. Raw, a control character
can clear the screen, move the cursor and print a fake score over the real one; a bidi
override (U+202E) can reverse what a line seems to say; a flood can make a report too big to
open. `visible` shows each such character as a visible mark instead, and `cap` keeps the
start and the end of a long text and says how much was cut.

File and folder names are data of the same kind, and may not even be text: a byte that is not
UTF-8 reaches Python as a lone surrogate (U+DC80-U+DCFF, "surrogateescape"), which no UTF-8
file can hold. `visible` shows such a byte as ⟨0xE9⟩; `writable` does only that, for text a
format escapes itself (JSON, XML, CSV, HTML); `one_line` also shows newlines and tabs, for a
name or a message that must stay on its line.
"""
import re
import unicodedata

_KEPT = frozenset("\n\t")
# Unicode "format" characters that reorder or hide text; shown as ⟨U+XXXX⟩.
_BIDI = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]  # embeddings and overrides
    + [chr(c) for c in range(0x2066, 0x206A)]  # isolates
    + ["\u200e", "\u200f", "\u061c", "\ufeff"]  # marks, byte-order mark
)


_SURROGATE = re.compile("[\ud800-\udfff]")  # one character class: no backtracking


def _shown(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\u27e80x{code - 0xDC00:02X}\u27e9"  # a byte of a name that is not UTF-8: ⟨0xE9⟩
    if code == 0x1B:
        return "\u241b"  # ␛
    if code < 0x20:
        return chr(0x2400 + code)  # control pictures: ␀ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"\u27e8U+{code:04X}\u27e9"


def _harmful(char: str) -> bool:
    if char in _KEPT:
        return False
    code = ord(char)
    if code < 0x20 or 0x7F <= code <= 0x9F or char in _BIDI:
        return True
    # other invisible formatting, line separators, lone surrogates (bytes of a name that is not UTF-8)
    return unicodedata.category(char) in ("Cf", "Zl", "Zp", "Cs")


# the characters worth a look: all but printable ASCII (and newline and tab, for `visible`);
# one character class each, so a scan is linear whatever the text
_SUSPECT = re.compile("[^\x20-\x7e\n\t]")
_SUSPECT_ON_ONE_LINE = re.compile("[^\x20-\x7e]")


def _marked(match: re.Match) -> str:
    char = match.group(0)
    return _shown(char) if _harmful(char) else char


def _marked_on_one_line(match: re.Match) -> str:
    char = match.group(0)
    return _shown(char) if char in _KEPT or _harmful(char) else char


def visible(text: str) -> str:
    """`text` with every control, bidi and format character (except newline and tab) shown as
    a visible mark: ESC as ␛, other C0 characters as their control pictures (␀ ␇ ␍ …), DEL as
    ␡, a byte that is not UTF-8 as ⟨0xE9⟩, the rest as ⟨U+202E⟩."""
    return _SUSPECT.sub(_marked, text)


def one_line(text: str, limit: int | None = None) -> str:
    """`text` as `visible` shows it, newlines and tabs shown too (␊ ␉): a file name or a one-line
    message (an error's too) can never start a line of its own in a terminal or a report. With
    `limit`, its middle cut as `cap` cuts it."""
    shown = _SUSPECT_ON_ONE_LINE.sub(_marked_on_one_line, str(text))
    return shown if limit is None else cap(shown, limit)


def writable(text: str) -> str:
    """`text` with each lone surrogate shown as `visible` shows it, everything else untouched: what
    a UTF-8 file can hold, for a format that escapes the rest itself."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda m: _shown(m.group(0)), text)


def cap(text: str, limit: int) -> str:
    """`text` if it has at most `limit` characters; else its first and last parts, about
    `limit` characters in all, with `… [N characters cut] …` where the middle was."""
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, not {limit}")
    if len(text) <= limit:
        return text
    head = (limit + 1) // 2
    tail = limit - head
    cut = len(text) - head - tail
    return f"{text[:head]}… [{cut:,} characters cut] …{text[len(text) - tail:]}"
