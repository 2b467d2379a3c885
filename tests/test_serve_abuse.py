"""A hostile student, or an anonymous client, against the real self-check service (started as
tests/test_serve.py starts it): bodies sent to be held in memory, slow senders, a flood of
refused archives and of long polls meant to stall the others, the build cache as a channel
between students, a file name the file system cannot take, and a `kill -9` meant to leave the
service's workers behind. Each test checks what the victim sees (or what is left running), by
the order things happen in, never by how long they took."""
import io
import json
import os
import re
import select
import signal
import socket
import uuid
import zipfile
from pathlib import Path

import pytest

from harness.serve import app as service
from tests.helpers import SAMPLES
from tests.test_serve import Server, _sample

pytestmark = pytest.mark.slow  # three services started, a C++ sample built twice

ANSWER_SECONDS = 60  # a socket read's bound: far past any answer the service owes at once


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("abuse")).start()
    yield running
    running.stop()


def _connect(server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=ANSWER_SECONDS)
    return sock


def _head(path: str, method: str = "GET", headers: dict | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in (headers or {}).items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


RESET = 0  # the status read when the service answered and closed before reading what was sent


def _status(sock: socket.socket) -> int:
    """The status of the answer on `sock` (waiting for it at most ANSWER_SECONDS); RESET when the
    connection was reset (a refusal sent at once, the body left unread, may reach the client so)."""
    data = b""
    while b"\r\n" not in data:
        try:
            chunk = sock.recv(4096)
        except ConnectionResetError:
            return RESET
        if not chunk:
            raise AssertionError(f"the connection ended without an answer: {data!r}")
        data += chunk
    return int(data.split(b" ", 2)[1])


def _answered(sockets: list[socket.socket]) -> list[socket.socket]:
    """Those of `sockets` with an answer (or an end) waiting to be read now."""
    return select.select(sockets, [], [], 0)[0] if sockets else []


def _form(files: list[tuple[str, bytes]], boundary: str) -> bytes:
    out = io.BytesIO()
    out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="game"\r\n\r\ntally\r\n'.encode())
    for name, data in files:
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n\r\n'.encode())
        out.write(data + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue()


def _upload_head(length: int, boundary: str, token: str | None = None) -> bytes:
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Content-Length": str(length)}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return _head("/api/submissions", "POST", headers)


def _many_members() -> bytes:
    """A zip of 2,001 empty members: past intake's 2,000, so refused (413), after work to find it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("tally.py", (SAMPLES / "correct" / "tally.py").read_text())
        for n in range(2000):
            zf.writestr(f"d/{n}.txt", b"")
    return buffer.getvalue()


def test_an_anonymous_upload_is_answered_before_its_body_is_sent(server):
    """400 such connections once held 5 MB each in the service's memory: now none is read."""
    boundary = uuid.uuid4().hex
    declared = 5 * 1024 * 1024 - 1024
    sockets = []
    try:
        for token in (None, "not-a-token-" + "z" * 20, None, None, "x"):
            sock = _connect(server)
            sock.sendall(_upload_head(declared, boundary, token) + b"-" * 1024)  # the body's first KB, no more
            sockets.append(sock)
        for sock in sockets:
            assert _status(sock) == 401  # answered while 5 MB less 1 KB of the body are still owed
    finally:
        for sock in sockets:
            sock.close()


def test_a_slow_sender_is_cut_off_and_may_send_again(server):
    boundary = uuid.uuid4().hex
    body = _form(_sample("correct"), boundary)
    sock = _connect(server)
    try:
        sock.sendall(_upload_head(len(body), boundary, server.tokens["student5"]) + body[:100])  # then nothing
        assert _status(sock) == 408
    finally:
        sock.close()
    status, answer = server.upload("student5", _sample("correct"))
    assert status == 202, answer
    server.wait("student5", json.loads(answer)["id"])


def test_a_flood_of_refused_archives_holds_up_no_other_student(server):
    """Ten clients of one student send an archive refused after work (2,001 members); another
    student's upload, sent after them, is answered before any of theirs is refused."""
    boundary = uuid.uuid4().hex
    flood = _form([("many.zip", _many_members())], boundary)
    sockets = []
    try:
        for _ in range(10):
            sock = _connect(server)
            sock.sendall(_upload_head(len(flood), boundary, server.tokens["student3"]) + flood)
            sockets.append(sock)
        status, answer = server.upload("student4", _sample("correct"))
        assert status == 202, answer
        early = {sock: _status(sock) for sock in _answered(sockets)}
        assert 413 not in early.values(), "another student's refused archive was answered first"
        statuses = [early.get(sock) or _status(sock) for sock in sockets]
        assert 413 in statuses and set(statuses) <= {409, 413, 429, RESET}, statuses
        server.wait("student4", json.loads(answer)["id"])
    finally:
        for sock in sockets:
            sock.close()


def test_refused_uploads_count_against_the_rate(tmp_path):
    server = Server(tmp_path, rate=2).start()
    try:
        many = _many_members()
        for _ in range(2):
            status, answer = server.upload("student0", [("many.zip", many)])
            assert status == 413, answer
        status, answer = server.upload("student0", _sample("correct"))
        assert status == 429 and b"refused uploads count" in answer, answer
        assert server.upload("student1", _sample("correct"))[0] == 202  # another student's own rate
    finally:
        server.stop()


def _descendants(pid: int) -> list[int]:
    """Every process below `pid` now (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _signal(pids: list[int], sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:  # it ended meanwhile
            pass


def test_long_polls_of_one_student_hold_up_no_other(server):
    """Sixty `?wait=30` polls of one student on a submission that cannot change (the service's
    workers stopped): a few are held, the rest refused at once, and another student's listing is
    answered while the held ones still wait."""
    status, answer = server.upload("student2", _sample("correct"))  # the case workers started
    assert status == 202, answer
    server.wait("student2", json.loads(answer)["id"])
    helpers = _descendants(server.process.pid)
    assert helpers, "no worker process below the service"
    sockets = []
    _signal(helpers, signal.SIGSTOP)
    try:
        status, answer = server.upload("student1", _sample("correct"))
        assert status == 202, answer
        ident = json.loads(answer)["id"]
        while json.loads(server.call(f"/api/submissions/{ident}?wait=10", server.tokens["student1"])[1])["state"] == "queued":
            pass  # until it runs, on the stopped workers: then it stays running
        for _ in range(60):
            sock = _connect(server)
            sock.sendall(_head(f"/api/submissions/{ident}?wait=30",
                               headers={"Authorization": f"Bearer {server.tokens['student1']}"}))
            sockets.append(sock)
        status, listing = server.call("/api/submissions", server.tokens["student2"])
        assert status == 200 and json.loads(listing)["student"] == "student2"
        held = list(sockets)
        while len(held) > getattr(service, "MAX_WAITS", 3):  # the rest are refused at once
            ready = select.select(held, [], [], ANSWER_SECONDS)[0]
            assert ready, f"{len(held)} polls neither held nor refused"
            for sock in ready:
                assert _status(sock) == 429, "a poll was answered though its submission did not change"
                held.remove(sock)
        assert not _answered(held), "a held poll was answered though its submission did not change"
        _signal(helpers, signal.SIGCONT)
        for sock in held:
            assert _status(sock) == 200  # answered once the submission changes
    finally:
        _signal(helpers, signal.SIGCONT)
        for sock in sockets:
            sock.close()
    server.wait("student1", ident)


def test_the_build_cache_tells_no_student_of_another(server):
    """Two students send the same C++ bytes: the second's view is the first's (no note that
    the build was reused from someone's earlier one)."""
    source = (SAMPLES / "correct-cpp" / "tally.cpp").read_bytes() + f"\n// {uuid.uuid4().hex}\n".encode()
    seen = []
    for student in ("student7", "student0"):
        status, answer = server.upload(student, [("tally.cpp", source)])
        assert status == 202, answer
        state = server.wait(student, json.loads(answer)["id"], whole=True)
        status, report = server.call(f"/api/submissions/{state['id']}/report", server.tokens[student])
        assert status == 200
        text = state["text"].replace(f"{student} (self-check #{state['id']})", "N")
        seen.append((state["result"], re.sub(r"\d+\.\d+s\b", "N s", text), report))  # times differ run to run
    first, second = seen
    assert first[0] == second[0]
    for result, text, report in seen:
        assert "identical earlier build" not in text and b"identical earlier build" not in report
    assert first[1] == second[1]
    # the instructor's full report still says so
    status, report = server.call(f"/instructor/submissions/{json.loads(answer)['id']}/report", "instructor-token-0123456789")
    assert status == 200 and b"identical earlier build" in report


def test_a_name_too_long_for_the_file_system_is_refused_with_the_reason(server):
    status, answer = server.upload("student6", [("\U0001F600" * 70, b"print(1)\n")])  # 70 characters, 280 bytes
    assert status == 400 and b"bytes in UTF-8" in answer, answer


def test_kill_9_of_the_service_ends_its_fork_server_and_workers(tmp_path):
    server = Server(tmp_path).start()
    try:
        status, answer = server.upload("student0", _sample("correct"))
        assert status == 202, answer
        server.wait("student0", json.loads(answer)["id"])
        helpers = _descendants(server.process.pid)
        assert len(helpers) >= 2, helpers  # the fork server and its case workers
        handles = []
        for pid in helpers:
            try:
                handles.append((pid, os.pidfd_open(pid)))
            except ProcessLookupError:
                pass
        os.kill(server.process.pid, signal.SIGKILL)  # the service alone, not its process group
        server.process.wait()
        running = dict(handles)
        while running:  # a pidfd is readable once its process has ended
            ended = select.select(list(running.values()), [], [], ANSWER_SECONDS)[0]
            if not ended:
                break
            for pid in [pid for pid, handle in running.items() if handle in ended]:
                os.close(running.pop(pid))
        for handle in running.values():
            os.close(handle)
        assert not running, f"left running after the service's kill -9: {sorted(running)}"
    finally:
        server.stop()
