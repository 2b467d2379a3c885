"""`python bench/serve.py --abuse`: twenty well-behaved students against a real `harness serve`,
calm, then while a hostile student and an anonymous client attack it (see bench/serve.py's
docstring). Every loop here is bounded in count and time; every connection is to loopback."""
import io
import json
import multiprocessing
import os
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from harness.serve.client import multipart  # noqa: E402

FIXTURE = ROOT / "tests" / "fixture"
SAMPLES = ["correct", "bug-add", "bug-illegal", "bug-end", "variant-wording", "bug-crash"]
STUDENTS = 20
ANONYMOUS = 400  # slow anonymous uploads open at once
FLOODERS = 10  # clients of one student sending the refused archive
POLLS = 60  # long polls of another student
RUN_LIMIT = 600.0  # seconds: no run goes on longer, whatever happens
CALM_EXTRA_MB = 150  # the abuse run's peak memory may pass the calm run's by at most this


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _call(url: str, token: str | None, path: str, body: bytes | None = None, content_type: str | None = None,
          timeout: float = 60) -> tuple[int, bytes, dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(url + path, data=body, headers=headers, method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as problem:
        return problem.code, problem.read(), dict(problem.headers)
    except OSError:  # reset: an answer sent before the body was read
        return 0, b"", {}


def _tree_rss(pid: int) -> int:
    """RSS in bytes of the process and every process below it."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(stat[1]), []).append(int(entry.name))
        rss[int(entry.name)] = int(stat[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        total += rss.get(current, 0)
        todo.extend(children.get(current, []))
    return total


class Service:
    def __init__(self, work: Path, tokens: dict[str, str]):
        (work / "roster.csv").write_text("student,token\n" + "".join(f"{s},{t}\n" for s, t in tokens.items()))
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "harness.cli", "serve", "tally", "--roster", str(work / "roster.csv"), "--port",
             str(self.port), "--data", str(work / "data")], cwd=ROOT,
            env=dict(os.environ, HARNESS_ROOT=str(FIXTURE)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 60
        while _call(self.url, None, "/health", timeout=2)[0] != 200:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        self.peak = 0
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._sample, daemon=True)
        self._watch.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            self.peak = max(self.peak, _tree_rss(self.process.pid))

    def stop(self) -> None:
        self._stop.set()
        self._watch.join()
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        try:
            os.killpg(self.process.pid, 9)
        except ProcessLookupError:
            pass


def _behave(url: str, token: str, sources: list[bytes], times: list[float], turnaround: list[float],
            end: float) -> None:
    """A well-behaved student: each upload, then its listing, then its result followed (long polls)."""
    for source in sources:
        if time.monotonic() > end:
            return
        content_type, body = multipart({"game": "tally"}, [("tally.py", source)])
        sent = time.monotonic()
        status, answer, _ = _call(url, token, "/api/submissions", body, content_type)
        times.append(time.monotonic() - sent)
        if status != 202:
            raise SystemExit(f"a well-behaved upload was refused: {status} {answer[:200]!r}")
        ident = json.loads(answer)["id"]
        asked = time.monotonic()
        status, _, _ = _call(url, token, "/api/submissions")
        times.append(time.monotonic() - asked)
        while time.monotonic() < end:
            status, answer, _ = _call(url, token, f"/api/submissions/{ident}?wait=30")
            if status == 200 and json.loads(answer)["state"] == "done":
                break
        turnaround.append(time.monotonic() - sent)


def _anonymous(port: int, stop: threading.Event, answers: dict) -> None:
    """ANONYMOUS connections each sending a 5 MB upload, 1 KB every half second; one answered is
    opened again (at most 3 times each), until `stop`."""
    head = (f"POST /api/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
            f"boundary=x\r\nContent-Length: {5 * 1024 * 1024}\r\n\r\n").encode()
    opened: dict[socket.socket, int] = {}

    def open_one(generation: int) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(head + b"-" * 1024)
            sock.setblocking(False)
            opened[sock] = generation
        except OSError:
            answers["refused to connect"] = answers.get("refused to connect", 0) + 1

    for _ in range(ANONYMOUS):
        open_one(0)
    while not stop.is_set() and opened:
        ready = select.select(list(opened), [], [], 0.5)[0]
        for sock in ready:
            try:
                data = sock.recv(64)
            except OSError:
                data = b""
            status = data.split(b" ", 2)[1].decode() if data.count(b" ") >= 2 else "closed"
            answers[status] = answers.get(status, 0) + 1
            generation = opened.pop(sock)
            sock.close()
            if generation < 3:
                open_one(generation + 1)
        for sock in list(opened):
            try:
                sock.send(b"-" * 1024)
            except (BlockingIOError, OSError):
                pass
    for sock in opened:
        sock.close()


def _many_members() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("tally.py", (FIXTURE / "examples" / "tally" / "correct" / "tally.py").read_text())
        for n in range(2000):
            zf.writestr(f"d/{n}.txt", b"")
    return buffer.getvalue()


def _flood(url: str, token: str, stop: threading.Event, answers: dict) -> None:
    """One client of the student sending the refused archive again and again (at most 300 times)."""
    content_type, body = multipart({"game": "tally"}, [("many.zip", _many_members())])
    for _ in range(300):
        if stop.is_set():
            return
        status = _call(url, token, "/api/submissions", body, content_type)[0]
        answers[status] = answers.get(status, 0) + 1
        stop.wait(0.1)  # this machine's two cores are the bench's clients' too


def _keep_one_running(url: str, token: str, current: list, stop) -> None:
    """The polling student always has a submission in flight (a hanging program: it takes long),
    sending another when one is done (at most 50)."""
    hang = (FIXTURE / "examples" / "tally" / "bug-hang" / "tally.py").read_bytes()
    for n in range(50):
        content_type, body = multipart({"game": "tally"}, [("tally.py", hang + f"\n# {n}\n".encode())])
        status, answer, _ = _call(url, token, "/api/submissions", body, content_type)
        if status != 202:
            return
        current[0] = json.loads(answer)["id"]
        while not stop.is_set():
            status, answer, _ = _call(url, token, f"/api/submissions/{current[0]}?wait=30", timeout=40)
            if status == 200 and json.loads(answer)["state"] == "done":
                break
            if status != 200:
                stop.wait(1)
        if stop.is_set():
            return


def _poll(url: str, token: str, current: list, stop, answers: dict) -> None:
    """One of the long polls on the student's submission in flight: asked again when answered
    (after Retry-After when refused, after a second when the submission was done)."""
    for _ in range(1000):
        if stop.is_set():
            return
        status, answer, headers = _call(url, token, f"/api/submissions/{current[0]}?wait=30", timeout=40)
        answers[status] = answers.get(status, 0) + 1
        if status != 200:
            stop.wait(float(headers.get("Retry-After", 1)))
        elif json.loads(answer)["state"] == "done":
            stop.wait(1)


def attack(url: str, port: int, tokens: dict, stop, out: str) -> None:
    """The attackers, in a process of their own (their threads never slow the well-behaved
    students' clients): until `stop`, then what they were answered written to `out` (JSON)."""
    answers = {"anonymous": {}, "flood": {}, "polls": {}}
    current = [0]
    keeper = threading.Thread(target=_keep_one_running, args=(url, tokens["poller"], current, stop))
    keeper.start()
    while not current[0] and keeper.is_alive():
        stop.wait(0.05)
    threads = [threading.Thread(target=_anonymous, args=(port, stop, answers["anonymous"]))]
    threads += [threading.Thread(target=_flood, args=(url, tokens["flooder"], stop, answers["flood"]))
                for _ in range(FLOODERS)]
    threads += [threading.Thread(target=_poll, args=(url, tokens["poller"], current, stop, answers["polls"]))
                for _ in range(POLLS)]
    for thread in threads:
        thread.start()
    for thread in threads + [keeper]:
        thread.join()
    Path(out).write_text(json.dumps({kind: {str(k): v for k, v in seen.items()} for kind, seen in answers.items()}))


def _run(work: Path, rounds: int, abuse: bool) -> dict:
    tokens = {f"student{n:02d}": f"bench-token-{n:02d}-{os.urandom(8).hex()}" for n in range(STUDENTS)}
    tokens |= {"flooder": "bench-token-flood-" + os.urandom(8).hex(), "poller": "bench-token-poll-" + os.urandom(8).hex()}
    service = Service(work, tokens)
    context = multiprocessing.get_context("spawn")
    stop, attacker, answers = context.Event(), None, {}
    try:
        end = time.monotonic() + RUN_LIMIT
        if abuse:
            attacker = context.Process(target=attack, args=(service.url, service.port, tokens, stop,
                                                            str(work / "answers.json")))
            attacker.start()
        times: list[float] = []
        turnaround: list[float] = []
        students = []
        for n in range(STUDENTS):
            sample = (FIXTURE / "examples" / "tally" / SAMPLES[n % len(SAMPLES)] / "tally.py").read_text()
            sources = [(sample + f"\n# student {n} upload {k}\n").encode() for k in range(rounds)]
            students.append(threading.Thread(target=_behave, args=(service.url, tokens[f"student{n:02d}"], sources,
                                                                   times, turnaround, end)))
        for thread in students:
            thread.start()
        for thread in students:
            thread.join()
    finally:
        stop.set()
        if attacker is not None:
            attacker.join(90)
            if attacker.is_alive():
                attacker.kill()
            if (work / "answers.json").exists():
                answers = json.loads((work / "answers.json").read_text())
        service.stop()
    return {"times": times, "turnaround": turnaround, "peak": service.peak, "answers": answers}


def _quantiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0], values[0]) if values else (0.0, 0.0)
    return statistics.median(values), statistics.quantiles(values, n=20)[18]


def main(rounds: int) -> int:
    work = Path(tempfile.mkdtemp(prefix="bench-serve-abuse-"))
    try:
        (work / "calm").mkdir()
        (work / "abuse").mkdir()
        calm = _run(work / "calm", rounds, abuse=False)
        attacked = _run(work / "abuse", rounds, abuse=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ok = True
    for label, run in (("calm", calm), ("abuse", attacked)):
        p50, p95 = _quantiles(run["times"])
        t50, t95 = _quantiles(run["turnaround"])
        print(f"{label:5}: {len(run['times'])} requests of {STUDENTS} well-behaved students: p50 {p50 * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms; upload to result p50 {t50:.1f} s, p95 {t95:.1f} s; "
              f"service peak memory {run['peak'] / 2**20:.0f} MB")
    for kind, seen in attacked["answers"].items():
        print(f"attack {kind}: answered " + ", ".join(f"{status}: {count}" for status, count in sorted(seen.items(), key=str)))
    calm50, calm95 = _quantiles(calm["times"])
    hit50, hit95 = _quantiles(attacked["times"])
    within = hit50 - calm50 <= 1.0 and hit95 - calm95 <= 1.0
    memory = attacked["peak"] - calm["peak"] <= CALM_EXTRA_MB * 2**20
    print(f"p50 {(hit50 - calm50) * 1000:+.0f} ms, p95 {(hit95 - calm95) * 1000:+.0f} ms under attack "
          f"(target: within 1 s): {'yes' if within else 'NO'}; peak memory {(attacked['peak'] - calm['peak']) / 2**20:+.0f} MB "
          f"(target: within {CALM_EXTRA_MB} MB): {'yes' if memory else 'NO'}")
    ok = within and memory
    return 0 if ok else 1
