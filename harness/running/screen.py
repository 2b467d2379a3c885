"""What a person at the terminal sees of a program's output, turn by turn.

A program may clear the screen before each board, colour its pieces, move the cursor or redraw a
line after a carriage return; a person reads what the terminal shows, not the bytes. pyte's parser
interprets the control sequences (ECMA-48, as a VT terminal does) and `Page` below keeps the text
they leave: a turn's text is the rows that turn wrote, as they stand when it ends. What a turn
wrote before it cleared the screen stays in its text (the person saw it go by), so a clear never
hides a message; the rows of earlier turns are not repeated unless the turn writes over them.

The page is as wide as a line is long (no wrap) and as tall as the terminal the program is given
(`ROWS` of the launcher), so cursor moves are clamped as a terminal clamps them. Output without a
control character (the usual program) passes as it is, with CRLF read as LF: one scan. Everything
here is linear in the output: pyte's numeric parameters are capped at 9999 and every cursor move
is clamped to the page, so no sequence makes the harness allocate more than the text it read.
"""
import re
from dataclasses import dataclass, field

import pyte

# A control character a terminal acts on or hides (tab and line feed are read as text).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_HIDDEN = {code: None for code in (*range(0x00, 0x09), *range(0x0b, 0x20), *range(0x7f, 0xa0))}
# A CSI's digits are capped before pyte reads them: int() of a huge digit string is refused.
_LONG_NUMBER = re.compile(r"\d{5,}")
_CSI_PARAMETERS = re.compile(r"(?:\x1b\[|\x9b)[0-9;?]{12,}")
MOVE_COLUMNS = 1000  # the furthest right a cursor move reaches (the launcher's terminal width)


def plain(text: str) -> bool:
    """True when the text shows as it is: no control character but CRLF line ends."""
    match = _CONTROL.search(text)
    if match is None:
        return True
    return _CONTROL.search(text.replace("\r\n", "\n")) is None


@dataclass
class _Row:
    cells: list[str] = field(default_factory=list)
    touched: bool = False  # written, erased or ended in this turn
    ended: bool = False  # a line feed left it in this turn

    def text(self) -> str:
        return "".join(self.cells)


class Page:
    """The rows since the last clear, the cursor, and what this turn wrote: pyte's listener.

    pyte calls one method per control sequence it parses (its Screen's interface); those a
    reading of text does not need (colours, modes, titles, reports) do nothing."""

    def __init__(self, height: int):
        self.height = height
        self.rows = [_Row()]
        self.y = self.x = 0
        self.saved = (0, 0)
        self.shown: list[str] = []  # this turn's text from pages it cleared

    # --- the turn --------------------------------------------------------------------
    def take_turn(self) -> str:
        """This turn's text; the next turn starts on a fresh row, as after the user's Enter."""
        text = "".join(self.shown) + self._page_text()
        self.shown = []
        for row in self.rows:
            row.touched = row.ended = False
        keep = max(0, len(self.rows) - self.height)  # rows scrolled off the terminal stay off it
        if keep:
            del self.rows[:keep]
            self.y -= keep
        return text

    def typed(self, line: str) -> None:
        """The line typed shows where the cursor is (the terminal's echo); Enter starts a row."""
        self._write(line.translate(_HIDDEN), touch=False)
        self._new_line(end=False)

    def _page_text(self) -> str:
        touched = [row for row in self.rows if row.touched]
        if not touched:
            return ""
        return "\n".join(row.text() for row in touched) + ("\n" if touched[-1].ended else "")

    def _page_break(self) -> None:
        """The screen cleared: what this turn wrote so far was seen, and the page starts again."""
        text = self._page_text()
        if text:
            self.shown.append(text if text.endswith("\n") else text + "\n")
        self.rows, self.y = [_Row()], 0

    # --- writing ---------------------------------------------------------------------
    @property
    def _top(self) -> int:
        return max(0, len(self.rows) - self.height)

    def _row(self) -> _Row:
        while self.y >= len(self.rows):
            self.rows.append(_Row())
        return self.rows[self.y]

    def _write(self, text: str, touch: bool = True) -> None:
        row = self._row()
        if self.x > len(row.cells):
            row.cells.extend(" " * (self.x - len(row.cells)))
        row.cells[self.x:self.x + len(text)] = text
        self.x += len(text)
        row.touched = row.touched or touch

    def _new_line(self, end: bool = True) -> None:
        row = self._row()
        if end:
            row.touched = row.ended = True
        self.y += 1
        self.x = 0
        self._row()

    def draw(self, text: str) -> None:
        self._write(text.translate(_HIDDEN))

    def tab(self) -> None:
        self._write("\t")

    def linefeed(self) -> None:  # the pty leaves \n as it is (no ONLCR): it ends the line
        self._new_line()

    index = linefeed

    def carriage_return(self) -> None:
        self.x = 0

    def backspace(self) -> None:
        self.x = max(0, self.x - 1)

    def reverse_index(self) -> None:
        self.y = max(self._top, self.y - 1)

    # --- cursor ----------------------------------------------------------------------
    def _move_to(self, y: int, x: int) -> None:
        top = self._top
        self.y = min(max(y, top), top + self.height - 1)
        self.x = min(max(x, 0), MOVE_COLUMNS)
        self._row()

    def cursor_position(self, line=None, column=None, *_, **__) -> None:
        self._move_to(self._top + (line or 1) - 1, (column or 1) - 1)

    def cursor_to_line(self, line=None, *_, **__) -> None:
        self._move_to(self._top + (line or 1) - 1, self.x)

    def cursor_to_column(self, column=None, *_, **__) -> None:
        self._move_to(self.y, (column or 1) - 1)

    def cursor_up(self, count=None, *_, **__) -> None:
        self._move_to(self.y - (count or 1), self.x)

    def cursor_down(self, count=None, *_, **__) -> None:
        self._move_to(self.y + (count or 1), self.x)

    def cursor_up1(self, count=None, *_, **__) -> None:
        self._move_to(self.y - (count or 1), 0)

    def cursor_down1(self, count=None, *_, **__) -> None:
        self._move_to(self.y + (count or 1), 0)

    def cursor_forward(self, count=None, *_, **__) -> None:
        self._move_to(self.y, self.x + (count or 1))

    def cursor_back(self, count=None, *_, **__) -> None:
        self._move_to(self.y, self.x - (count or 1))

    def save_cursor(self, *_, **__) -> None:
        self.saved = (self.y - self._top, self.x)

    def restore_cursor(self, *_, **__) -> None:
        self._move_to(self._top + self.saved[0], self.saved[1])

    # --- erasing ---------------------------------------------------------------------
    def erase_in_display(self, how=0, *_, **__) -> None:
        if how in (2, 3) or (how == 0 and self.y == self._top and self.x == 0):
            self._page_break()
        elif how == 0:
            self.erase_in_line(0)
            for row in self.rows[self.y + 1:]:
                row.cells.clear()
                row.touched = True
        elif how == 1:
            for row in self.rows[self._top:self.y]:
                row.cells.clear()
                row.touched = True
            self.erase_in_line(1)

    def erase_in_line(self, how=0, *_, **__) -> None:
        row = self._row()
        if how == 0:
            del row.cells[self.x:]
        elif how == 1:
            row.cells[:self.x + 1] = " " * min(self.x + 1, len(row.cells))
        else:
            row.cells.clear()
        row.touched = True

    def erase_characters(self, count=None, *_, **__) -> None:
        row = self._row()
        end = min(self.x + (count or 1), len(row.cells))
        row.cells[self.x:end] = " " * max(0, end - self.x)
        row.touched = True

    def delete_characters(self, count=None, *_, **__) -> None:
        row = self._row()
        del row.cells[self.x:self.x + (count or 1)]
        row.touched = True

    def insert_characters(self, count=None, *_, **__) -> None:
        row = self._row()
        if self.x < len(row.cells):
            row.cells[self.x:self.x] = " " * min(count or 1, MOVE_COLUMNS)
            row.touched = True

    def insert_lines(self, count=None, *_, **__) -> None:
        room = self._top + self.height - self.y
        self.rows[self.y:self.y] = [_Row(touched=True) for _ in range(min(count or 1, room))]
        del self.rows[self._top + self.height:]

    def delete_lines(self, count=None, *_, **__) -> None:
        del self.rows[self.y:self.y + (count or 1)]
        self._row().touched = True

    def reset(self, *_, **__) -> None:
        self._page_break()
        self.x = 0

    # --- what changes nothing a person reads -----------------------------------------
    def _nothing(self, *_, **__) -> None:
        pass

    bell = shift_in = shift_out = set_tab_stop = clear_tab_stop = set_margins = _nothing
    set_mode = reset_mode = select_graphic_rendition = define_charset = _nothing
    report_device_attributes = report_device_status = alignment_display = _nothing
    set_title = set_icon_name = debug = _nothing


def _capped(text: str) -> str:
    """The text with every CSI's run of parameters cut to what a terminal reads (pyte caps a
    number at 9999; int() of a longer digit string is refused by Python)."""
    if "\x1b[" not in text and "\x9b" not in text:
        return text
    return _CSI_PARAMETERS.sub(lambda m: _LONG_NUMBER.sub("9999", m.group()), text)


class ScreenReading:
    """A run's output read as a person at its terminal reads it, one turn at a time.

    Until the program prints a control character the reading is its text (CRLF read as LF);
    from the first one on, the whole run so far is replayed into a `Page` once and every later
    turn is read through it."""

    def __init__(self, height: int):
        self.height = height
        self.page: Page | None = None
        self.stream: pyte.Stream | None = None
        self.history: list[tuple[str, str | None]] = []  # (a turn's text, the line typed after it)
        self.current = ""  # this turn's text so far while plain

    @property
    def interpreted(self) -> bool:
        """Whether the output had control sequences to interpret (what is read differs from it)."""
        return self.page is not None

    def feed(self, text: str) -> None:
        if self.page is None and plain(text):
            self.current += text
            return
        if self.page is None:
            self._start()
        self._feed(text)

    def _start(self) -> None:
        self.page = Page(self.height)
        self.stream = pyte.Stream(self.page)
        for text, line in self.history:
            self._feed(text)
            self.page.take_turn()
            if line is not None:
                self.page.typed(line)
        self.history = []
        self._feed(self.current)
        self.current = ""

    def _feed(self, text: str) -> None:
        self.stream.feed(_capped(text))

    def take_turn(self) -> str:
        """What this turn shows."""
        if self.page is None:
            text, self.current = self.current, ""
            self.history.append((text, None))
            return text.replace("\r\n", "\n")
        return self.page.take_turn()

    def typed(self, line: str) -> None:
        if self.page is None:
            text, _ = self.history[-1] if self.history else ("", None)
            if self.history:
                self.history[-1] = (text, line)
            else:
                self.history.append(("", line))
            return
        self.page.typed(line)
