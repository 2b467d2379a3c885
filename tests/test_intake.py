"""Intake takes a submission as students hand it in and never trusts it: links are not
followed, archives unpack only inside their folder and within the caps, a tree too deep or too
big is a clear reason. Real folders and archives, made here."""
import bz2
import gzip
import io
import lzma
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from harness.building import intake


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


# --- choosing among candidates ------------------------------------------------------------

def test_several_candidates_choose_by_the_stated_rule(tmp_path):
    _write(tmp_path, {"old/Reversi.java": "old", "Reversi.java": "new", "zz/src/Game.java": "a",
                      "aa/backup/Game.java": "b", "bin/Game.java": "compiled copy", "Game.class": "x"})
    files, notes = intake.walk(tmp_path)
    assert "bin/Game.java" not in files and "Game.class" not in files
    assert any("bin/" in note and "Game.class" in note for note in notes)
    choice = intake.choose(files, "Reversi.java")
    assert (choice.path, choice.ignored) == ("Reversi.java", ["old/Reversi.java"])
    assert "old/Reversi.java" in choice.note
    # same depth: the one under a folder named src wins over the lexicographically first
    game = intake.choose(files, "Game.java")
    assert (game.path, game.ignored) == ("zz/src/Game.java", ["aa/backup/Game.java"])


def test_the_spec_path_wins_and_letter_case_is_forgiven():
    files = ["ConnectGame.java", "src/ConnectGame.java", "reversi.java"]
    assert intake.choose(files, "src/ConnectGame.java").path == "src/ConnectGame.java"
    choice = intake.choose(files, "Reversi.java")
    assert choice.path == "reversi.java" and "letter case" in choice.note
    assert intake.choose(files, "Missing.java").path is None


# --- links and special files --------------------------------------------------------------

def test_links_fifos_are_reported_and_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    folder = _write(tmp_path / "sub", {"stringcoin.cpp": "int x;"})
    (folder / "stringcoin.h").symlink_to(secret)
    (folder / "env.h").symlink_to("/proc/self/environ")
    (folder / "linked").symlink_to(tmp_path, target_is_directory=True)
    os.mkfifo(folder / "pipe.cpp")
    sub = intake.open_submission(folder)
    assert sub.files == ["stringcoin.cpp"] and not sub.problem
    for name in ("stringcoin.h", "env.h", "linked"):
        assert f"{name}: a symbolic link, not followed or read" in sub.notes
    assert "pipe.cpp: a FIFO, not followed or read" in sub.notes
    # reading through the name of a link is refused too
    try:
        intake.read_file(folder, "stringcoin.h")
        raise AssertionError("a link was read")
    except OSError:
        pass


def test_a_tree_too_deep_is_a_reason_not_a_crash(tmp_path):
    deep = tmp_path / "deep"
    deep.mkdir()
    fds = [os.open(deep, os.O_RDONLY)]
    for _ in range(1500):  # made level by level: os.makedirs and rmtree recurse once per level
        os.mkdir("d", dir_fd=fds[-1])
        fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
    os.close(os.open("Reversi.java", os.O_WRONLY | os.O_CREAT, dir_fd=fds[-1]))
    sub = intake.open_submission(deep)
    assert sub.problem == f"the submission is nested more than {intake.MAX_DEPTH} folders deep (d/...)"
    os.unlink("Reversi.java", dir_fd=fds[-1])
    for parent, child in zip(reversed(fds[:-1]), reversed(fds[1:])):
        os.close(child)
        os.rmdir("d", dir_fd=parent)
    os.close(fds[0])


def test_too_many_files_is_a_reason(tmp_path):
    for index in range(intake.MAX_ENTRIES + 1):
        (tmp_path / f"f{index}.txt").touch()
    sub = intake.open_submission(tmp_path)
    assert sub.problem == f"the submission holds more than {intake.MAX_ENTRIES} files and folders"


# --- archives -----------------------------------------------------------------------------

def _zip(path: Path, members: list[tuple[str, bytes, int]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data, mode in members:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            zf.writestr(info, data)
    return path


def test_zip_with_one_top_folder_and_a_folder_holding_only_an_archive(tmp_path):
    folder = tmp_path / "handin"
    folder.mkdir()
    _zip(folder / "Project.zip", [("Project/src/Reversi.java", b"class Reversi {}", 0o100644),
                                  ("__MACOSX/Project/._Reversi.java", b"junk", 0o100644)])
    sub = intake.open_submission(folder)
    try:
        assert not sub.problem and sub.files == ["src/Reversi.java"]
        assert sub.root.name == "Project" and "unpacked Project.zip" in sub.notes
    finally:
        intake.close(sub)
    assert not Path(sub.temp).exists()


def test_malicious_zip_members_are_skipped(tmp_path):
    archive = _zip(tmp_path / "evil.zip", [
        ("../escaped.txt", b"out", 0o100644),
        ("/tmp/absolute.txt", b"abs", 0o100644),
        ("link.h", b"/etc/passwd", 0o120777),
        ("ok/Reversi.java", b"class Reversi {}", 0o100644),
    ])
    sub = intake.open_submission(archive)
    try:
        assert not sub.problem and sub.files == ["Reversi.java"]  # ok/ is the single top folder
        assert "../escaped.txt: a path that leaves the archive's folder, skipped" in sub.notes
        assert "/tmp/absolute.txt: an absolute path, skipped" in sub.notes
        assert "link.h: a symbolic link, skipped" in sub.notes
        assert not (tmp_path / "escaped.txt").exists() and not Path("/tmp/absolute.txt").exists()
    finally:
        intake.close(sub)


def test_malicious_tar_members_are_skipped(tmp_path):
    archive = tmp_path / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        def add(name, kind=tarfile.REGTYPE, data=b"", link=""):
            info = tarfile.TarInfo(name)
            info.type, info.size, info.linkname, info.mode = kind, len(data), link, 0o644
            tar.addfile(info, io.BytesIO(data) if data else None)
        add("Reversi.java", data=b"class Reversi {}")
        add("../up.txt", data=b"x")
        add("/abs.txt", data=b"x")
        add("env.h", tarfile.SYMTYPE, link="/proc/self/environ")
        add("hard.h", tarfile.LNKTYPE, link="Reversi.java")
        add("tty", tarfile.CHRTYPE)
    sub = intake.open_submission(archive)
    try:
        assert not sub.problem and sub.files == ["Reversi.java"]
        assert "../up.txt: a path that leaves the archive's folder, skipped" in sub.notes
        assert "/abs.txt: an absolute path, skipped" in sub.notes
        assert {"env.h: a link, skipped", "hard.h: a link, skipped", "tty: a device or FIFO, skipped"} <= set(sub.notes)
        assert not (tmp_path / "up.txt").exists()
    finally:
        intake.close(sub)


def test_archive_caps_are_reasons(tmp_path):
    big = tmp_path / "big.zip"
    with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as zf:  # compresses to a few tens of KB
        zf.writestr("zeros.bin", b"\0" * (intake.MAX_BYTES + 1))
    sub = intake.open_submission(big)
    intake.close(sub)
    assert sub.problem == "the archive big.zip unpacks to more than 50 MB"
    assert not Path(sub.temp).exists()

    many = _zip(tmp_path / "many.zip", [(f"f{i}.txt", b"", 0o100644) for i in range(intake.MAX_ENTRIES + 1)])
    sub = intake.open_submission(many)
    intake.close(sub)
    assert sub.problem == f"the archive many.zip holds more than {intake.MAX_ENTRIES} members"

    deep = _zip(tmp_path / "deep.zip", [("/".join(["d"] * (intake.MAX_DEPTH + 1)) + "/x.java", b"", 0o100644)])
    sub = intake.open_submission(deep)
    intake.close(sub)
    assert sub.problem == f"the archive nests folders more than {intake.MAX_DEPTH} deep"

    broken = tmp_path / "broken.tgz"
    broken.write_bytes(b"not a tar at all")
    sub = intake.open_submission(broken)
    intake.close(sub)
    assert sub.problem.startswith("broken.tgz is not a readable archive")


def test_members_adding_up_past_the_cap(tmp_path):
    members = [(f"part{i}.bin", b"\0" * (intake.MAX_BYTES // 4), 0o100644) for i in range(5)]
    sub = intake.open_submission(_zip(tmp_path / "parts.zip", members))
    intake.close(sub)
    assert sub.problem == "the archive parts.zip unpacks to more than 50 MB"


# --- what archives decompress ---------------------------------------------------------------

_COMPRESSORS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}


def _tar_bomb(path: Path, compress, headers: list[tuple[tarfile.TarInfo, int]], tail: bytes = b"") -> Path:
    """A compressed tar whose members hold zeros: one small compressed stream per header and per
    MiB of zeros, concatenated (gzip, bzip2 and xz readers read on across streams), so a GiB of
    zeros costs the test a few kilobytes and no compressing time."""
    mib = compress(b"\0" * (1 << 20))
    with path.open("wb") as out:
        for info, zeros in headers:
            out.write(compress(info.tobuf(format=tarfile.GNU_FORMAT)))
            for _ in range(zeros >> 20):
                out.write(mib)
        out.write(compress(tail + b"\0" * (2 * tarfile.BLOCKSIZE)))
    return path


def _member(name: str, size: int, kind: bytes = tarfile.REGTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.type = size, kind
    return info


def _counting(monkeypatch) -> list[int]:
    """Bytes that came out of the decompressor into tarfile, counted as intake reads them."""
    seen = [0]

    class Counting(intake._Bounded):
        def readinto(self, buffer) -> int:
            got = super().readinto(buffer)
            seen[0] += got
            return got

    monkeypatch.setattr(intake, "_Bounded", Counting)
    return seen


@pytest.mark.parametrize("kind", sorted(_COMPRESSORS))
def test_skipped_members_of_a_compressed_tar_count_and_decompression_stops(tmp_path, monkeypatch, kind):
    """Members skipped for their absolute path, a GiB of zeros each: refused at the first one's
    header, before its data is decompressed."""
    seen = _counting(monkeypatch)
    body = b"x = 1\n"
    tail = _member("tally.py", len(body)).tobuf(format=tarfile.GNU_FORMAT) + body.ljust(tarfile.BLOCKSIZE, b"\0")
    bomb = _tar_bomb(tmp_path / f"bomb.tar.{kind}", _COMPRESSORS[kind],
                     [(_member(f"/abs/zeros{i}", 1 << 30), 1 << 30) for i in range(2)], tail)
    assert bomb.stat().st_size < 4 << 20
    sub = intake.open_submission(bomb)
    intake.close(sub)
    assert sub.problem == f"the archive bomb.tar.{kind} unpacks to more than 50 MB"
    assert seen[0] <= tarfile.RECORDSIZE * 2


def test_skipped_members_adding_up_past_the_cap(tmp_path, monkeypatch):
    """Members of 13 MB each, every one skipped (an absolute path, a tool folder, `..`, a
    compiled file): their sizes add up past the cap all the same, at the fourth."""
    seen = _counting(monkeypatch)
    size = 13 << 20
    members = [_member("/abs.bin", size), _member("__MACOSX/junk.bin", size), _member("../up.bin", size),
               _member("a.class", size)]
    bomb = _tar_bomb(tmp_path / "skipped.tar.bz2", bz2.compress, [(m, size) for m in members])
    sub = intake.open_submission(bomb)
    intake.close(sub)
    assert sub.problem == "the archive skipped.tar.bz2 unpacks to more than 50 MB"
    assert seen[0] <= 3 * size + tarfile.RECORDSIZE * 2  # the fourth header tips it over


def test_a_header_hiding_a_gib_ends_at_the_stream_cap(tmp_path, monkeypatch):
    """A pax header is no member, so no declared member size counts it; reading its GiB of data
    stops at the stream's cap all the same."""
    seen = _counting(monkeypatch)
    bomb = _tar_bomb(tmp_path / "pax.tar.xz", lzma.compress, [(_member("././@PaxHeader", 1 << 30, tarfile.XHDTYPE),
                                                               1 << 30)])
    sub = intake.open_submission(bomb)
    intake.close(sub)
    assert sub.problem == "the archive pax.tar.xz unpacks to more than 50 MB"
    assert seen[0] <= intake.MAX_STREAM_BYTES + 1


def _lie_about_sizes(archive: Path, size: int) -> None:
    """Set every member's uncompressed size, in its local header and the central directory."""
    data = bytearray(archive.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.find(signature)
        while at >= 0:
            data[at + offset:at + offset + 4] = size.to_bytes(4, "little")
            at = data.find(signature, at + 4)
    archive.write_bytes(bytes(data))


def test_a_zip_whose_declared_sizes_lie(tmp_path):
    """Declared small, each member inflates to 30 MB: never more than declared is read (the
    check of the data then fails), so nothing near the 90 MB is written. Declared huge: the
    declared sizes alone are over the cap."""
    small = tmp_path / "small.zip"
    with zipfile.ZipFile(small, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(3):
            zf.writestr(f"zeros{i}.bin", b"\0" * (30 << 20))
    _lie_about_sizes(small, 100)
    sub = intake.open_submission(small)
    try:
        assert sub.problem.startswith("small.zip is not a readable archive"), sub.problem
        assert sum(p.stat().st_size for p in Path(sub.temp).rglob("*") if p.is_file()) <= 100
    finally:
        intake.close(sub)
    huge = _zip(tmp_path / "huge.zip", [("Reversi.java", b"class Reversi {}", 0o100644),
                                        ("__MACOSX/._Reversi.java", b"x", 0o100644)])
    _lie_about_sizes(huge, 40 << 20)
    sub = intake.open_submission(huge)
    intake.close(sub)
    assert sub.problem == "the archive huge.zip unpacks to more than 50 MB"


def test_a_zip_member_compressed_with_bzip2_is_a_reason(tmp_path):
    """zipfile inflates a bzip2 or LZMA member without a bound on one read: such a member is
    refused with a reason, never unpacked."""
    archive = tmp_path / "bz.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_BZIP2) as zf:
        zf.writestr("Reversi.java", "class Reversi {}")
    sub = intake.open_submission(archive)
    intake.close(sub)
    assert sub.problem == ("bz.zip compresses Reversi.java with a method this grader does not unpack; "
                           "make the zip with the usual (Deflate) compression")


def test_comments_are_stripped_from_hostile_source_in_one_pass():
    """A student's source is read for hints (a `main`, a package line, `system("pause")`): an
    unclosed `/*` run of a megabyte and quotes that never close are read once, as the C rules
    say (the regular expression this replaced took 4 s for 20,000 `/* ` and grew as the square)."""
    from harness.building.diagnose import strip_comments
    source = '/* a */ int x; // b\nchar *s = "/* not a comment */"; /* c\nd */ int main() {}\n'
    assert strip_comments(source) == ("        int x;     \nchar *s =                      ;     \n"
                                      "     int main() {}\n")
    assert strip_comments(source, strings=False).count('"/* not a comment */"') == 1
    hostile = "/* " * 300_000 + '"' + "a" * 100_000
    assert strip_comments(hostile) == hostile  # nothing closes: nothing is a comment or a string


# --- a folder packed for a cluster's worker: intake's caps, links never followed ----------------

def _packed_tar(add) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as tar:
        add(tar)
    return buffer.getvalue()


def test_a_cluster_worker_refuses_a_packed_submission_over_the_size_cap(tmp_path):
    """What a worker unpacks goes through intake's caps: a member declaring more than a
    student's archive may unpack to is refused before anything of it is written."""
    from harness.classes import cluster

    def add(tar):
        info = tarfile.TarInfo("sub/huge.bin")
        info.size = intake.MAX_BYTES + 1
        tar.addfile(info, io.BytesIO(bytes(info.size)))

    with pytest.raises(intake.TooLarge, match=f"unpacks to more than {intake.MAX_BYTES // (1024 * 1024)} MB"):
        cluster.unpack(_packed_tar(add), tmp_path / "into", "sub")
    assert not (tmp_path / "into" / "sub" / "huge.bin").exists()


def test_a_cluster_worker_refuses_a_packed_submission_over_the_file_count_cap(tmp_path):
    """The packed folder is one member more than the submission's entries: one past that is refused."""
    from harness.classes import cluster

    def add(tar):
        folder = tarfile.TarInfo("sub")
        folder.type = tarfile.DIRTYPE
        tar.addfile(folder)
        for index in range(intake.MAX_ENTRIES + 1):
            tar.addfile(tarfile.TarInfo(f"sub/{index}.txt"), io.BytesIO(b""))

    with pytest.raises(intake.TooLarge, match=f"more than {intake.MAX_ENTRIES + 1} members"):
        cluster.unpack(_packed_tar(add), tmp_path / "into", "sub")


def test_a_packed_folder_at_the_caps_comes_back_with_its_links_as_links(tmp_path):
    """`pack` then `unpack`: the files as they were, a link recreated as a link (intake on the
    worker reports it) and never followed, so nothing is written outside the folder."""
    from harness.classes import cluster

    sub = _write(tmp_path / "sub", {"Main.java": "class Main {}\n", "src/Helper.java": "class Helper {}\n"})
    for index in range(intake.MAX_ENTRIES - 4):
        (sub / f"{index}.txt").write_text("")
    outside = tmp_path / "outside"
    outside.mkdir()
    (sub / "escape").symlink_to(outside)
    into = tmp_path / "into"
    into.mkdir()
    cluster.unpack(cluster.pack(sub), into, "sub")
    assert (into / "sub" / "src" / "Helper.java").read_text() == "class Helper {}\n"
    assert os.readlink(into / "sub" / "escape") == str(outside)
    assert len(list((into / "sub").rglob("*"))) == len(list(sub.rglob("*")))
