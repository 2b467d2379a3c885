"""An upload's multipart body, parsed from the file it was received into, each of its files
written straight into the staging folder: nothing of an upload is held in memory, and a body
that is not a form the service takes is refused with the reason."""
import os
from dataclasses import dataclass, field
from pathlib import Path

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

MAX_NAME_CHARS = 100
MAX_NAME_BYTES = 255  # what a file system takes as one name (70 emoji are 280 bytes)
MAX_FIELDS = 10  # text fields (game, token, ...)
MAX_FIELD_BYTES = 1024
CHUNK = 64 * 1024


class Refused(Exception):
    """The upload is refused: `status` and the reason the student is shown."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status, self.why = status, why


@dataclass
class Form:
    fields: dict[str, str] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)  # the files written into the folder, in order


def safe_name(raw: str | None) -> str | None:
    """The file's own name (no folder part): printable, not hidden, not `.` or `..`, short
    enough for the file system; else None."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not name or name in (".", "..") or name.startswith(".") or len(name) > MAX_NAME_CHARS:
        return None
    if any(ord(c) < 32 or ord(c) == 127 or c in "\u2028\u2029\u202e" for c in name):
        return None
    try:
        if len(name.encode("utf-8")) > MAX_NAME_BYTES:
            return None
    except UnicodeEncodeError:  # a lone surrogate
        return None
    return name


BAD_NAME = (f"a file name is empty, hidden, has control characters or is over {MAX_NAME_CHARS} characters "
            f"({MAX_NAME_BYTES} bytes in UTF-8); rename it")


def read(body: Path, content_type: str, folder: Path, max_files: int) -> Form:
    """The form in `body`, its files written into `folder` (which the caller removes on a refusal)."""
    kind, options = parse_options_header(content_type)
    boundary = options.get(b"boundary")
    if kind != b"multipart/form-data" or not boundary:
        raise Refused(400, "the upload is not a multipart/form-data form")
    parsed = _Parts(folder, max_files)
    try:
        parser = MultipartParser(boundary, parsed.callbacks())
        with body.open("rb") as source:
            while chunk := source.read(CHUNK):
                parser.write(chunk)
        parser.finalize()
    except (MultipartParseError, ValueError) as problem:
        raise Refused(400, f"the upload is not a readable form: {problem}")
    finally:
        parsed.close()
    if not parsed.ended:
        raise Refused(400, "the upload is not a readable form: it ends before its last part")
    return parsed.form


class _Parts:
    """The parser's callbacks: a part's headers gathered, then its data to a file or a field."""

    def __init__(self, folder: Path, max_files: int):
        self.folder, self.max_files = folder, max_files
        self.form = Form()
        self.ended = False
        self._headers: list[tuple[bytes, bytes]] = []
        self._field, self._value = b"", b""
        self._out = None  # the open file of a file part
        self._text: tuple[str, bytearray] | None = None  # a text field's name and value

    def callbacks(self) -> dict:
        return {"on_part_begin": self._begin, "on_header_field": self._header_field,
                "on_header_value": self._header_value, "on_header_end": self._header_end,
                "on_headers_finished": self._headers_finished, "on_part_data": self._data,
                "on_part_end": self._part_end, "on_end": self._end}

    def _begin(self) -> None:
        self._headers, self._field, self._value = [], b"", b""

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._field += data[start:end]

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        self._value += data[start:end]

    def _header_end(self) -> None:
        self._headers.append((self._field.lower(), self._value))
        self._field, self._value = b"", b""

    def _headers_finished(self) -> None:
        disposition = next((value for name, value in self._headers if name == b"content-disposition"), None)
        if disposition is None:
            raise Refused(400, "the upload is not a readable form: a part has no Content-Disposition")
        _, options = parse_options_header(disposition)
        name = options.get(b"name", b"").decode("latin-1")
        if b"filename" not in options:
            if len(self.form.fields) >= MAX_FIELDS:
                raise Refused(400, f"the form has more than {MAX_FIELDS} fields")
            self._text = (name, bytearray())
            return
        if name != "files":
            raise Refused(400, "only the form's files field may carry files")
        if len(self.form.names) >= self.max_files:
            raise Refused(413, f"more than {self.max_files} files; send them as one zip")
        try:
            raw = options[b"filename"].decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, "a file name is not UTF-8; rename it")
        shown = safe_name(raw)
        if shown is None:
            raise Refused(400, BAD_NAME)
        try:
            fd = os.open(self.folder / shown, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        except FileExistsError:
            raise Refused(400, "two files have the same name; send a zip of your folder instead")
        except OSError as problem:
            raise Refused(400, f"the file name {shown!r} cannot be kept ({problem.strerror}); rename it")
        self._out = os.fdopen(fd, "wb")
        self.form.names.append(shown)

    def _data(self, data: bytes, start: int, end: int) -> None:
        if self._out is not None:
            self._out.write(data[start:end])
        elif self._text is not None:
            value = self._text[1]
            value += data[start:end]
            if len(value) > MAX_FIELD_BYTES:
                raise Refused(400, f"the form's field {self._text[0]!r} is longer than {MAX_FIELD_BYTES} bytes")

    def _part_end(self) -> None:
        if self._out is not None:
            self._out.flush()
            os.fsync(self._out.fileno())
            self._out.close()
            self._out = None
        elif self._text is not None:
            name, value = self._text
            try:
                self.form.fields.setdefault(name, value.decode("utf-8"))
            except UnicodeDecodeError:
                raise Refused(400, f"the form's field {name!r} is not UTF-8")
            self._text = None

    def _end(self) -> None:
        self.ended = True

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
