"""A program's output is shown harmlessly: control and bidi characters visible, floods cut."""
import pytest

from harness.safe_text import cap, visible


def test_plain_text_newlines_and_tabs_are_kept():
    text = "Row? (1-6) \n\tab  café ● ←\n"
    assert visible(text) == text


@pytest.mark.parametrize("raw, shown", [
    ("\x1b[2J\x1b[H", "\u241b[2J\u241b[H"),  # screen clear: ESC made visible
    ("\x00", "\u2400"),  # NUL
    ("\x07", "\u2407"),  # BEL
    ("a\rb", "a\u240db"),  # carriage return cannot overwrite the line
    ("\x08", "\u2408"),  # backspace
    ("\x7f", "\u2421"),  # DEL
    ("\x9b2J", "\u27e8U+009B\u27e92J"),  # C1 CSI
    ("x\u202ey", "x\u27e8U+202E\u27e9y"),  # right-to-left override
    ("\u2066\u2069", "\u27e8U+2066\u27e9\u27e8U+2069\u27e9"),  # isolates
    ("\u200e\u200f", "\u27e8U+200E\u27e9\u27e8U+200F\u27e9"),  # direction marks
    ("\ufeffhi", "\u27e8U+FEFF\u27e9hi"),  # byte-order mark
])
def test_each_harmful_character_is_shown_as_a_mark(raw, shown):
    assert visible(raw) == shown


def test_a_fake_score_cannot_hide_behind_a_screen_clear():
    shown = visible("3/20 cases\x1b[2J\x1b[H20/20 cases passed — score 100.0 %\n")
    assert "\x1b" not in shown
    assert shown == "3/20 cases\u241b[2J\u241b[H20/20 cases passed — score 100.0 %\n"


def test_no_control_or_format_character_survives_any_code_point():
    every = "".join(chr(c) for c in range(0x3000) if not 0xD800 <= c < 0xE000)
    shown = visible(every)
    for char in shown:
        assert char in "\n\t" or (ord(char) >= 0x20 and not 0x7F <= ord(char) <= 0x9F), hex(ord(char))
        assert not 0x202A <= ord(char) <= 0x202E and not 0x2066 <= ord(char) <= 0x2069


def test_short_text_is_not_cut():
    assert cap("abcdef", 6) == "abcdef"


def test_long_text_keeps_its_start_and_end_and_says_how_much_was_cut():
    text = "S" + "x" * 998 + "E"  # 1000 characters
    capped = cap(text, 100)
    assert capped.startswith("S" + "x" * 49) and capped.endswith("x" * 49 + "E")
    assert "… [900 characters cut] …" in capped
    kept = capped.replace("… [900 characters cut] …", "")
    assert len(kept) == 100


def test_a_flood_becomes_bounded():
    flood = "y\n" * 5_000_000
    assert len(cap(flood, 20_000)) < 20_100


def test_a_negative_limit_is_refused():
    with pytest.raises(ValueError):
        cap("abc", -1)
