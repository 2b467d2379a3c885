"""One anonymous address against the self-check service: a thousand connections that send
nothing or half a request head, held while a student checks their program with the real client
(`harness check --server`), on the service as the README starts it and behind the nginx
configuration the manual gives (written from the manual's own blocks, run by the real nginx as a
child process with a prefix folder of its own). The floods aim only at 127.0.0.1, are bounded in
count, and end with their test; every wait is for a condition (a line said, an answer, an end)."""
import grp
import os
import pwd
import re
import selectors
import shutil
import socket
import ssl
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from harness.serve import guard
from tests.helpers import FIXTURE, ROOT, SAMPLES, free_port
from tests.test_serve import DEADLINE, Server

pytestmark = pytest.mark.slow  # a service started and a sample graded under each flood

FLOOD = 1000  # connections the flood opens
FLOOD_FROM = "127.0.0.2"  # its one address (a loopback address other than the student's 127.0.0.1)
HALF_HEAD = b"POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"  # every other one sends this, no more
ANSWER_SECONDS = 60  # a wait's bound: far past every deadline the service and the documented proxy set
MANUAL = ROOT / "docs" / "self-check-service.md"
RESET, CLOSED, ANSWERED = "reset", "closed", "answered"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("flood")).start()
    yield running
    running.stop()


@contextmanager
def flood(port: int, wrap: ssl.SSLContext | None = None):
    """FLOOD connections from FLOOD_FROM to 127.0.0.1:`port`, every other one sending HALF_HEAD
    (over TLS when `wrap` is given; the others send nothing, not even a TLS hello); yields {socket: RESET} for those refused while being opened (the
    rest are open, or ended unseen), and closes them all when the block ends."""
    sockets: list[socket.socket] = []
    refused: dict[socket.socket, str] = {}
    try:
        for n in range(FLOOD):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.settimeout(ANSWER_SECONDS)
            sock.bind((FLOOD_FROM, 0))
            sock.connect(("127.0.0.1", port))
            if not n % 2:
                continue
            try:
                if wrap is not None:
                    sock = wrap.wrap_socket(sock, server_hostname="127.0.0.1")
                    sockets[-1] = sock
                sock.sendall(HALF_HEAD)
            except OSError:  # reset (or closed) by the other end already
                refused[sock] = RESET
        yield sockets, refused
    finally:
        for sock in sockets:
            sock.close()


def ends(sockets: list[socket.socket], known: dict[socket.socket, str]) -> dict[socket.socket, str]:
    """How each of `sockets` ended (RESET, CLOSED, or ANSWERED when bytes came first), waiting for
    each at most ANSWER_SECONDS (select() would not take a thousand sockets: a selector does)."""
    seen = dict(known)
    with selectors.DefaultSelector() as waiting:
        for sock in sockets:
            if sock not in seen:
                sock.setblocking(False)
                waiting.register(sock, selectors.EVENT_READ)
        while waiting.get_map():
            ready = waiting.select(ANSWER_SECONDS)
            assert ready, f"{len(waiting.get_map())} connections still open after {ANSWER_SECONDS} s"
            for key, _ in ready:
                sock = key.fileobj
                try:
                    data = sock.recv(4096)
                except ssl.SSLWantReadError:  # a TLS record not yet whole
                    continue
                except (ConnectionResetError, ssl.SSLError):
                    data = None
                seen[sock] = RESET if data is None else CLOSED if data == b"" else ANSWERED
                waiting.unregister(sock)
    return seen


def check(url: str, token: str, output: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """The student's one command, on the correct sample."""
    return subprocess.run(
        [sys.executable, "-m", "harness", "check", "tally", str(SAMPLES / "correct"), "--server", url,
         "--token", token, "-o", str(output)],
        cwd=ROOT, env={**os.environ, "HARNESS_ROOT": str(FIXTURE), **(env or {})}, capture_output=True, text=True,
        timeout=DEADLINE)


def checked(done: subprocess.CompletedProcess) -> bool:
    """The upload was taken and its result shown (exit 0, or 1 if a case failed on a loaded machine:
    the verdicts are the grading's business, not the door's; 2 is a refusal, such as a 503)."""
    return done.returncode in (0, 1) and "cases passed" in done.stdout and "full report" in done.stdout


def test_a_student_checks_while_one_address_holds_a_thousand_connections(server, tmp_path):
    """The bare service once answered every request 503 while the flood held its 1,000
    connections: now the connections past the cap are reset as they come, those admitted are
    closed once their request head is late, and the student's check goes through."""
    with flood(server.port) as (sockets, refused):
        done = check(server.url, server.tokens["student0"], tmp_path)
        assert checked(done), done.stdout + done.stderr + server.logged()[-3000:]
        seen = ends(sockets, refused)
    kinds = list(seen.values())
    assert kinds.count(RESET) == FLOOD - guard.PER_ADDRESS, kinds  # refused at the door
    assert kinds.count(CLOSED) == guard.PER_ADDRESS, kinds  # admitted, then their heads late


def test_a_connection_owing_a_request_head_is_closed(server):
    """Nothing sent, half a head, and a request answered then left owing the next one: each is
    closed without an answer it did not ask for (the proxy's address, 127.0.0.1, is not capped, but
    the deadline holds for it too)."""
    silent, half, answered = (socket.create_connection(("127.0.0.1", server.port), timeout=ANSWER_SECONDS)
                              for _ in range(3))
    try:
        half.sendall(HALF_HEAD)
        answered.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = answered.recv(4096)
            assert chunk, head
            head += chunk
        assert head.startswith(b"HTTP/1.1 200"), head
        answered.sendall(HALF_HEAD)  # the next request, begun and never finished
        length = int(re.search(rb"(?im)^content-length: *(\d+)", head)[1])
        body = head.partition(b"\r\n\r\n")[2]
        while len(body) < length:
            body += answered.recv(4096)
        seen = ends([silent, half, answered], {})
        assert set(seen.values()) == {CLOSED}, seen
    finally:
        for sock in (silent, half, answered):
            sock.close()


# --- behind the proxy the manual recommends ----------------------------------------------------

def documented_nginx() -> tuple[str, str]:
    """The manual's two nginx blocks: what goes in nginx.conf's main context, and the site's file."""
    blocks = re.findall(r"^```nginx\n(.*?)^```", MANUAL.read_text(), re.M | re.S)
    assert len(blocks) == 2, f"{MANUAL}: expected two ```nginx blocks (nginx.conf's part and the site), found {len(blocks)}"
    return blocks[0], blocks[1]


def _one(pattern: str, replacement: str, text: str) -> str:
    changed, count = re.subn(pattern, replacement, text, flags=re.M)
    assert count == 1, f"the manual's nginx site block should have one line matching {pattern!r}: {count}"
    return changed


def nginx_conf(prefix: Path, port: int, upstream: int, cert: Path, key: Path) -> Path:
    """The manual's configuration with this machine's ports on 127.0.0.1, a test certificate, and
    every file nginx writes inside `prefix`."""
    main, site = documented_nginx()
    site = _one(r"^(\s*)listen\s+443\s+ssl;", rf"\1listen 127.0.0.1:{port} ssl;", site)
    site = _one(r"^(\s*)ssl_certificate\s+\S+;", rf"\1ssl_certificate {cert};", site)
    site = _one(r"^(\s*)ssl_certificate_key\s+\S+;", rf"\1ssl_certificate_key {key};", site)
    site = _one(r"http://127\.0\.0\.1:8000;", f"http://127.0.0.1:{upstream};", site)
    user = ""
    if os.geteuid() == 0:  # the workers would otherwise be nobody, who cannot enter the test's folders
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};"
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = prefix / "nginx.conf"
    conf.write_text(f"""{user}
daemon off;
pid {prefix / 'nginx.pid'};
error_log stderr notice;
{main}
http {{
    access_log {prefix / 'access.log'};
{temp}
{site}
}}
""")
    return conf


@contextmanager
def nginx(conf: Path, prefix: Path):
    """nginx in the foreground, its own process group; yields once it has started its workers
    (it says so once it listens); stopped, and its log kept in `prefix`, when the block ends."""
    log_path = prefix / "error.log"
    process = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-p", str(prefix), "-c", str(conf),
                                "-e", "stderr"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    started = threading.Event()

    def copy() -> None:
        with log_path.open("w") as log:
            for line in process.stderr:
                log.write(line)
                log.flush()
                if "start worker process" in line:
                    started.set()
        started.set()

    copier = threading.Thread(target=copy, daemon=True)
    copier.start()
    try:
        assert started.wait(ANSWER_SECONDS) and process.poll() is None, log_path.read_text()
        yield log_path
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
                process.wait()
        try:
            os.killpg(process.pid, 9)  # a worker left behind
        except ProcessLookupError:
            pass
        copier.join(30)


def test_behind_the_documented_nginx_a_student_checks_through_the_flood(server, tmp_path):
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.skip("nginx is not installed (.ci/run installs it with apt-get)")
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make the test's certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True, timeout=60)
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    port = free_port()
    conf = nginx_conf(prefix, port, server.port, cert, key)
    trusting = ssl.create_default_context(cafile=str(cert))
    with nginx(conf, prefix) as log:
        with flood(port, wrap=trusting) as (sockets, refused):
            done = check(f"https://127.0.0.1:{port}", server.tokens["student1"], tmp_path / "out",
                         env={"SSL_CERT_FILE": str(cert)})
            assert checked(done), done.stdout + done.stderr + log.read_text()[-3000:]
            seen = ends(sockets, refused)
    assert ANSWERED not in seen.values(), seen  # nginx closed each unanswered: a head never came whole
