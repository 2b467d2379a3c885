"""Take in a submission as students hand it in: a folder (an IDE project, nested copies, stray
build output), a single source file or an archive, and list its files without trusting it.

Nothing here follows a link or reads a device: a symlink, FIFO, socket or device in a
submission is reported and left out, archives are unpacked member by member with caps on
size (on what they decompress, the members left out included), count and depth, and a tree
too deep or too big is that submission's reason, never a crash. Every adaptation is a note
for the top of the report, never a deduction.

A student archive's member name only places it inside its own submission's folder; its date is never kept
or read: a date in an archive is whatever the student's tool wrote, so each member is written as
a new file (its time is the unpacking's) and nothing downstream can take it for a submission time.

A lone source under another name (`judy.java`, an LMS's resubmitted `Main-1.java`) is taken
under the handout's name when what it holds says it is the handout's program: its public class
is the handout's (Java, where javac requires the file's name to be the class's), or, for other
languages, it is the submission's only source of the language and holds the program's `main`.

The archive modules are imported when an archive is opened: a folder (every case of `harness
run` on a folder) needs none of them.
"""
import importlib
import io
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from harness import languages
from harness.building import diagnose
from harness.loading import paths

MAX_ENTRIES = 2000  # files and folders in a submission or members in an archive
MAX_DEPTH = 40  # folder levels
MAX_BYTES = 50 * 1024 * 1024  # everything an archive unpacks to, members left out included
MAX_SOURCE_BYTES = 1024 * 1024  # one source file
# Tool and build-output folders: never the student's sources.
IGNORED_DIRS = frozenset({"__MACOSX", ".git", ".svn", ".hg", ".idea", ".vscode", ".vs", ".settings",
                          "__pycache__", "bin", "out", "node_modules", "cmake-build-debug", "cmake-build-release"})
IGNORED_SUFFIXES = (".class", ".o", ".obj", ".pyc", ".exe")
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz")
FOUND_NAMES = 3  # files named when what a submission holds is told


class IntakeProblem(Exception):
    """Why this submission cannot be taken in at all (its build reason)."""


class TooLarge(IntakeProblem):
    """The submission is over one of intake's caps (size, files and members, depth)."""


@dataclass
class Submission:
    """What intake made of a folder, archive or file: the files a build may use, and why not, if none."""
    root: Path  # the folder `files` are relative to
    files: list[str]  # regular files, relative POSIX paths, sorted
    notes: list[str] = field(default_factory=list)  # intake lines for the report
    problem: str = ""  # why nothing can be built, or ""
    too_large: bool = False  # the problem is one of intake's caps (a service answers 413, not 422)
    temp: str = ""  # a folder this intake made (an unpacked archive), removed by close()


@dataclass
class Choice:
    """The file intake chose for one name the spec asks for, and the candidates it left out."""
    wanted: str  # the name the spec asks for
    path: str | None  # the file used, relative to the submission root
    ignored: list[str] = field(default_factory=list)  # other candidates, left out
    reason: str = ""  # why a file of another name is the wanted one (a lone renamed source)

    @property
    def note(self) -> str:
        """An intake line when the choice was not plain: another name, another letter case or several candidates."""
        if self.path is None:
            return ""
        parts = []
        if self.reason:
            parts.append(f"{self.path} is used as {self.wanted} ({self.reason})")
        elif PurePosixPath(self.path).name != PurePosixPath(self.wanted).name:
            parts.append(f"{self.path} is used as {self.wanted} (the name differs in letter case)")
        elif self.ignored:
            parts.append(f"{self.wanted}: used {self.path}")
        if self.ignored:
            parts.append(f"ignored {', '.join(self.ignored)} (rule: the spec's path, then the shallowest, "
                         "then one under a folder named src, then by name)")
        return "; ".join(parts)


def language_of(name: str) -> str | None:
    """The language a file's suffix says it is written in (None: not a source file)."""
    found = languages.by_suffix(name)
    return found.name if found else None


def found(files: list[str]) -> str:
    """What a submission holds, for a person: `found notes.md`, `found a.txt, b.txt, c.txt and 2
    more files`, or that it is empty."""
    if not files:
        return "the submission is empty"
    shown = ", ".join(files[:FOUND_NAMES])
    more = len(files) - FOUND_NAMES
    return f"found {shown}" + (f" and {more} more file{'s' if more != 1 else ''}" if more > 0 else "")


def is_archive(path: Path) -> bool:
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


def open_submission(path: Path) -> Submission:
    """The submission's files; an archive (or a folder holding only one) is unpacked first."""
    path = Path(os.path.abspath(path))
    try:
        if not path.exists():
            raise IntakeProblem(f"{path} does not exist")
        if path.is_file() and not is_archive(path):
            return Submission(path.parent, [path.name])
        archive = path if path.is_file() else _lone_archive(path)
        if archive is None:
            files, notes = walk(path)
            return Submission(path, files, notes)
        temp = tempfile.mkdtemp(prefix=paths.temporary("intake"))
        sub = Submission(Path(temp), [], [f"unpacked {archive.name}"], temp=temp)
        try:
            sub.notes += unpack(archive, Path(temp))
            sub.root = _single_top_folder(Path(temp))
            files, notes = walk(sub.root)
        except IntakeProblem as problem:
            sub.problem, sub.too_large = str(problem), isinstance(problem, TooLarge)
            return sub
        sub.files, sub.notes = files, sub.notes + notes
        return sub
    except IntakeProblem as problem:
        return Submission(path, [], problem=str(problem), too_large=isinstance(problem, TooLarge))
    except OSError as problem:
        return Submission(path, [], problem=f"cannot read the submission: {problem.strerror or problem}")


def close(sub: Submission) -> None:
    if sub.temp:
        shutil.rmtree(sub.temp, ignore_errors=True)


def _lone_archive(folder: Path) -> Path | None:
    entries = [e for e in os.scandir(folder) if not junk(e.name)]
    if len(entries) == 1 and entries[0].is_file(follow_symlinks=False) and is_archive(Path(entries[0].name)):
        return Path(entries[0].path)
    return None


def junk(name: str) -> bool:
    return name in IGNORED_DIRS or name == ".DS_Store" or name.startswith("._")


def _single_top_folder(folder: Path) -> Path:
    entries = [e for e in os.scandir(folder) if not junk(e.name)]
    if len(entries) == 1 and entries[0].is_dir(follow_symlinks=False):
        return Path(entries[0].path)
    return folder


def walk(root: Path) -> tuple[list[str], list[str]]:
    """Regular files under `root` (relative paths), without following links; raises
    IntakeProblem past MAX_DEPTH levels or MAX_ENTRIES entries."""
    files, notes, ignored, count = [], [], set(), 0
    pending = [(root, PurePosixPath(), 0)]
    while pending:
        folder, rel, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise TooLarge(f"the submission is nested more than {MAX_DEPTH} folders deep ({rel.parts[0]}/...)")
        with os.scandir(folder) as entries:
            for entry in entries:
                name = rel / entry.name
                if junk(entry.name) or entry.name.endswith(IGNORED_SUFFIXES):
                    ignored.add(entry.name + ("/" if entry.is_dir(follow_symlinks=False) else ""))
                    continue
                count += 1
                if count > MAX_ENTRIES:
                    raise TooLarge(f"the submission holds more than {MAX_ENTRIES} files and folders")
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISDIR(mode):
                    pending.append((Path(entry.path), name, depth + 1))
                elif stat.S_ISREG(mode):
                    files.append(str(name))
                else:
                    notes.append(f"{name}: {_kind(mode)}, not followed or read")
    if ignored:
        notes.append(f"ignored {', '.join(sorted(ignored))} (tool, build-output and compiled files)")
    return sorted(files), sorted(notes)


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def read_file(root: Path, rel: str, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """A regular file's bytes, refusing a link or anything else put in its place."""
    fd = os.open(root / rel, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise IntakeProblem(f"{rel} is not a regular file")
        if info.st_size > limit:
            raise TooLarge(f"{rel} is larger than {limit // 1024} KB")
        return handle.read(limit + 1)[:limit]


def choose(files: list[str], wanted: str) -> Choice:
    """The file to use for the spec's `wanted` name: same name (else same name in another letter
    case) anywhere; among several, the spec's relative path, then the shallowest, then one
    under a folder named src, then the first by path. Never file times: the same folder always
    gives the same choice."""
    name = PurePosixPath(wanted).name
    same = [f for f in files if PurePosixPath(f).name == name]
    candidates = same or [f for f in files if PurePosixPath(f).name.lower() == name.lower()]
    if not candidates:
        return Choice(wanted, None)
    ranked = sorted(candidates, key=lambda f: (f.lower() != wanted.lower(), len(PurePosixPath(f).parts),
                                               "src" not in PurePosixPath(f).parts[:-1], f))
    return Choice(wanted, ranked[0], ranked[1:])


# A top-level type's declaration: `public [final|abstract|sealed|strictfp ...] class Name`.
_PUBLIC_TYPE = r"\bpublic\s+(?:(?:final|abstract|sealed|non-sealed|strictfp)\s+)*(?:class|interface|enum|record)\s+([A-Za-z_$][A-Za-z0-9_$]*)"
_MAIN = r"\b(?:int|void|auto|signed)\s+main\s*\("  # a C or C++ program's main function


def _pattern(text: str):
    """A linear-time pattern (RE2): a student's source is hostile text."""
    import re2

    return re2.compile(text)


def renamed(sub: Submission, wanted: str, taken: set[str]) -> Choice | None:
    """The source to use for the spec's `wanted` when no file has its name: a Java source whose
    public class is the wanted one (the only such source), or the submission's only source of the
    wanted's language when it holds `main` (C, C++) or is a script (Python). `taken`: files
    already chosen for other names. None when nothing says which file it is."""
    language = language_of(wanted)
    if language is None:
        return None
    sources = [f for f in sub.files if language_of(f) == language and f not in taken]
    if language == "java":
        stem, pattern = PurePosixPath(wanted).stem, _pattern(_PUBLIC_TYPE)
        matching = [f for f in sources if any(m.group(1) == stem for m in pattern.finditer(_text(sub.root, f)))]
        reason = f"its public class is {stem}, the handout's; javac takes it only in {PurePosixPath(wanted).name}"
    elif len(sources) == 1 and (language == "python" or _pattern(_MAIN).search(_text(sub.root, sources[0]))):
        matching = sources
        reason = (f"the only {language} source handed in" +
                  (", and it holds main" if language != "python" else "") + f"; taken as the handout's {wanted}")
    else:
        return None
    return Choice(wanted, matching[0], reason=reason) if len(matching) == 1 else None


def _text(root: Path, rel: str) -> str:
    """A source's text without comments and string literals, or "" when it cannot be read."""
    try:
        return diagnose.strip_comments(read_file(root, rel).decode("utf-8", errors="replace"))
    except (IntakeProblem, OSError):
        return ""


# --- archives ------------------------------------------------------------------------

def unpack(archive: Path, dest: Path) -> list[str]:
    """Unpack into `dest` member by member: regular files and folders only, inside `dest`,
    within the caps. Returns intake notes; raises IntakeProblem over a cap or on a bad archive.

    The caps bound what is decompressed, not only what is kept: every member's declared size
    counts toward MAX_BYTES, the members skipped too (an absolute path, `..`, a link, a device,
    a tool folder), and so do the bytes actually read past a declared size. A compressed tar is
    read as one stream that ends at MAX_STREAM_BYTES: reaching the next header means reading
    through a skipped member's data, so that data is counted too."""
    import lzma
    import tarfile
    import zipfile
    import zlib

    name = archive.name.lower()
    try:
        if name.endswith(".zip"):
            return _unpack_zip(archive, dest)
        return _unpack_tar(archive, dest)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, lzma.LZMAError, zlib.error) as problem:
        raise IntakeProblem(f"{archive.name} is not a readable archive: {problem}") from None


# A tar stream is its members' data plus a header block or two for each member and the end
# blocks; anything past this is data no member declared.
_TAR_BLOCK, _TAR_RECORD = 512, 20 * 512  # the tar format's block and record (tarfile.BLOCKSIZE, RECORDSIZE)
MAX_STREAM_BYTES = MAX_BYTES + (MAX_ENTRIES + 2) * 2 * _TAR_BLOCK + _TAR_RECORD
_TAR_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "lzma"))  # the module that opens it
_ZIP_METHODS = (0, 8)  # stored and deflated (zipfile.ZIP_STORED, ZIP_DEFLATED): decompressed a bounded chunk at a time


class _Budget:
    """Counts members and bytes against the caps."""
    def __init__(self, archive: str, max_members: int = MAX_ENTRIES):
        self.archive, self.members, self.bytes, self.max_members = archive, 0, 0, max_members

    def member(self, declared: int) -> None:
        """One more member, skipped or not, and the size its header declares."""
        self.members += 1
        if self.members > self.max_members:
            raise TooLarge(f"the archive {self.archive} holds more than {self.max_members} members")
        self.take(max(declared, 0))

    def take(self, size: int) -> None:
        self.bytes += size
        if self.bytes > MAX_BYTES:
            self.over()

    def over(self) -> None:
        raise TooLarge(f"the archive {self.archive} unpacks to more than {MAX_BYTES // (1024 * 1024)} MB")


class _Bounded(io.RawIOBase):
    """A decompressed stream that ends the intake once more than `limit` bytes came out of it:
    whoever reads (tarfile looking for the next header, too) never gets past the cap."""

    def __init__(self, stream, limit: int, budget: _Budget):
        self.stream, self.left, self.budget = stream, limit, budget

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.stream.read(min(len(buffer), self.left + 1))
        self.left -= len(data)
        if self.left < 0:
            self.budget.over()
        buffer[:len(data)] = data
        return len(data)


def _safe_parts(raw: str) -> tuple[list[str] | None, str]:
    """The member's path parts, or None and why it is refused."""
    text = raw.replace("\\", "/")
    if text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        return None, "an absolute path"
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in parts:
        return None, "a path that leaves the archive's folder"
    if len(parts) > MAX_DEPTH:
        raise TooLarge(f"the archive nests folders more than {MAX_DEPTH} deep")
    return parts, ""


def _write(dest: Path, parts: list[str], open_stream, declared: int, budget: _Budget) -> str:
    """Write one member (a folder when `open_stream` is None); "" or why it was skipped. Its
    declared size is already counted; every byte read past it is counted too."""
    target = dest.joinpath(*parts)
    try:
        if open_stream is None:
            target.mkdir(parents=True, exist_ok=True)
            return ""
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except OSError as problem:
        return f"cannot be unpacked ({problem.strerror}), skipped"
    read = 0
    with os.fdopen(fd, "wb") as out, open_stream() as stream:
        while chunk := stream.read(1 << 16):
            budget.take(max(0, read + len(chunk) - max(read, declared)))
            read += len(chunk)
            out.write(chunk)
    return ""


def _unpack_zip(archive: Path, dest: Path) -> list[str]:
    import zipfile

    notes, budget = [], _Budget(archive.name)
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            budget.member(info.file_size)
            parts, why = _safe_parts(info.filename)
            kind = stat.S_IFMT(info.external_attr >> 16)
            if parts is None:
                notes.append(f"{info.filename}: {why}, skipped")
            elif kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                notes.append(f"{info.filename}: {_kind(kind)}, skipped")
            elif info.flag_bits & 0x1:
                raise IntakeProblem(f"{archive.name} is encrypted; hand in an archive without a password")
            elif parts and not junk(parts[0]):
                if not info.is_dir() and info.compress_type not in _ZIP_METHODS:
                    raise IntakeProblem(f"{archive.name} compresses {info.filename} with a method this grader "
                                        "does not unpack; make the zip with the usual (Deflate) compression")
                why = _write(dest, parts, None if info.is_dir() else (lambda i=info: zf.open(i)), info.file_size,
                             budget)
                if why:
                    notes.append(f"{info.filename}: {why}")
    return notes


def _decompressed(archive: Path):
    """The archive's tar stream: opened through gzip, bz2 or lzma by its first bytes, else as is."""
    with open(archive, "rb") as probe:
        head = probe.read(6)
    module = next((module for magic, module in _TAR_MAGIC if head.startswith(magic)), None)
    return importlib.import_module(module).open(archive, "rb") if module else open(archive, "rb")


def _unpack_tar(archive: Path, dest: Path) -> list[str]:
    import tarfile

    notes, budget = [], _Budget(archive.name)
    with _decompressed(archive) as raw, \
            io.BufferedReader(_Bounded(raw, MAX_STREAM_BYTES, budget), _TAR_RECORD) as stream, \
            tarfile.open(fileobj=stream, mode="r|") as tar:
        for member in tar:
            budget.member(member.size)
            parts, why = _safe_parts(member.name)
            if parts is None:
                notes.append(f"{member.name}: {why}, skipped")
                continue
            if not (member.isreg() or member.isdir()):
                kind = "a link" if member.issym() or member.islnk() else "a device or FIFO"
                notes.append(f"{member.name}: {kind}, skipped")
                continue
            if parts and junk(parts[0]):
                continue
            try:  # the standard library's own verdict on what is safe to unpack
                tarfile.data_filter(member, str(dest))
            except tarfile.FilterError as problem:
                notes.append(f"{member.name}: {problem}, skipped")
                continue
            why = _write(dest, parts, None if member.isdir() else (lambda m=member: tar.extractfile(m)), member.size,
                         budget)
            if why:
                notes.append(f"{member.name}: {why}")
    return notes


# --- a folder the grader packed itself -------------------------------------------------------

# A packed folder is a tar the grader wrote: each member a header, maybe an extended header (a
# long or non-ASCII name) and its data padded to a block; its folder is one member more.
MAX_PACKED_STREAM_BYTES = MAX_BYTES + (MAX_ENTRIES + 3) * 8 * _TAR_BLOCK + _TAR_RECORD


def _packed_member(member, destination: str):
    """Extraction kept inside `destination`: no owners, no device nodes; a link or FIFO is
    recreated as one (intake reports it, as it would have on the sender's disk) only when its
    own name is safe; nothing is written through a link."""
    import tarfile

    if member.ischr() or member.isblk():
        return None
    if member.issym() or member.isfifo():
        safe = tarfile.tar_filter(member, destination)  # a name inside the destination
        return safe.replace(uid=None, gid=None, uname=None, gname=None, deep=False)
    return tarfile.data_filter(member, destination)


def unpack_packed(data: bytes, dest: Path, label: str) -> None:
    """A folder or file the grader packed as a compressed tar (a cluster's worker receiving a
    submission or a spec folder), unpacked into `dest` within a student archive's caps: members
    (the packed folder itself one more), bytes declared and bytes decompressed. TooLarge over
    a cap, naming `label`."""
    import gzip
    import tarfile

    budget = _Budget(label, MAX_ENTRIES + 1)

    def counted(member, destination):
        budget.member(member.size)
        return _packed_member(member, destination)

    with gzip.open(io.BytesIO(data)) as raw, \
            io.BufferedReader(_Bounded(raw, MAX_PACKED_STREAM_BYTES, budget), _TAR_RECORD) as stream, \
            tarfile.open(fileobj=stream, mode="r|") as tar:
        tar.extractall(dest, filter=counted)
