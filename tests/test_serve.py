"""The self-check service (`harness serve`, `harness check --server`) against a real uvicorn
server on a free port, with its own --data, grading the fixture game's samples: uploads and
results, the student's exit codes, the answers kept on the server, the tokens, the caps, a
kill -9 mid-queue, and the upload page in a real headless Chromium."""
import base64
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from pathlib import Path

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, SAMPLES, dask_cluster, free_port

HIDDEN = "illegal-word-and-five"  # the fixture's one hidden case
HIDDEN_SECRETS = (HIDDEN, "A word and 5 are refused")
INSTRUCTOR = "instructor-token-0123456789"
STUDENTS = [f"student{n}" for n in range(8)] + ['<script>alert("x")</script>']
DEADLINE = 180


def _env(root: Path = FIXTURE) -> dict:
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"} | {"HARNESS_ROOT": str(root)}


class Server:
    def __init__(self, folder: Path, rate: int = 50, extra: tuple[str, ...] = (), root: Path = FIXTURE):
        self.folder, self.rate, self.extra, self.root = folder, rate, extra, root
        self.data = folder / "data"
        self.roster = folder / "roster.csv"
        if not self.roster.exists():
            tokens = {name: f"token-{n:02d}-{uuid.uuid4().hex}" for n, name in enumerate(STUDENTS)}
            with self.roster.open("w", newline="") as out:
                csv.writer(out).writerows([("student", "token"), *tokens.items()])
        with self.roster.open(newline="") as roster:
            self.tokens = {row["student"]: row["token"] for row in csv.DictReader(roster)}
        self.process = None

    def start(self) -> "Server":
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(self.folder / f"server-{self.port}.log", "w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "harness", "serve", "tally", "--roster", str(self.roster), "--port",
             str(self.port), "--data", str(self.data), "--instructor-token", INSTRUCTOR, "--rate", str(self.rate),
             *self.extra],
            cwd=ROOT, env=_env(self.root), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
        listening = threading.Event()
        self._copier = threading.Thread(target=self._copy_log, args=(listening,), daemon=True)
        self._copier.start()
        assert listening.wait(60), "the server did not answer: " + self.logged()
        assert self.process.poll() is None, self.logged()  # it said it listens, or its output ended
        return self

    def _copy_log(self, listening: threading.Event) -> None:
        """The server's output into its log; `listening` is set once uvicorn says it listens, or
        when the output ends (the server stopped)."""
        for line in self.process.stdout:
            self.log.write(line)
            self.log.flush()
            if "Uvicorn running on" in line:
                listening.set()
        listening.set()

    def logged(self) -> str:
        self.log.flush()
        return (self.folder / f"server-{self.port}.log").read_text()

    def stop(self, sig=signal.SIGTERM) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)  # any worker left behind
            except ProcessLookupError:
                pass
        self._copier.join(30)  # the output ends with the process group
        self.log.close()

    def call(self, path, token=None, body=None, headers=None, method=None, basic=None):
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if basic:
            sent["Authorization"] = "Basic " + base64.b64encode(f"x:{basic}".encode()).decode()
        request = urllib.request.Request(self.url + path, data=body, headers=sent, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as problem:
            return problem.code, problem.read()

    def upload(self, student, files, token=None, headers=None, fields=None):
        """files: [(name, bytes)]; the student's token in the Authorization header (the service
        reads no body before it has checked the token) unless another token is given."""
        boundary = uuid.uuid4().hex
        out = io.BytesIO()
        token = token or (self.tokens[student] if student else None)
        form = {"game": "tally", **(fields or {})}
        for name, value in form.items():
            out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        for name, data in files:
            out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n\r\n'.encode())
            out.write(data + b"\r\n")
        out.write(f"--{boundary}--\r\n".encode())
        return self.call("/api/submissions", token, out.getvalue(),
                         {"Content-Type": f"multipart/form-data; boundary={boundary}", **(headers or {})})

    def wait(self, student, ident, deadline=DEADLINE, whole=False) -> dict:
        """Follow the submission until its student is shown its result (`whole`: and until its
        whole result, the instructor's, is written): each request is answered when its state
        changes (`?wait=`), so nothing here sleeps."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            status, body = self.call(f"/api/submissions/{ident}?wait=10", self.tokens[student])
            assert status == 200, body
            state = json.loads(body)
            if state["state"] == "done":
                if whole:
                    self.graded(ident, end - time.monotonic())
                return state
        raise AssertionError(f"submission {ident} not graded in {deadline} s: " + self.logged()[-3000:])

    def graded(self, ident, deadline=DEADLINE) -> dict:
        """The instructor's view of the submission once its whole result is written (long polls)."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            status, body = self.call(f"/instructor/submissions/{ident}?wait=10", basic=INSTRUCTOR)
            assert status == 200, body
            if json.loads(body)["graded"]:
                return json.loads(body)
        raise AssertionError(f"submission {ident}'s whole result not written in {deadline} s: " + self.logged()[-3000:])


def _sample(name: str) -> list[tuple[str, bytes]]:
    return [("tally.py", (SAMPLES / name / "tally.py").read_bytes())]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("serve")).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def graded(server):
    """A correct and a buggy sample (bug-illegal fails a public and the hidden case), graded."""
    done = {}
    for student, sample in (("student0", "correct"), ("student1", "bug-illegal")):
        status, body = server.upload(student, _sample(sample))
        assert status == 202, body
        done[sample] = (student, server.wait(student, json.loads(body)["id"], whole=True))
    return done


def test_a_correct_and_a_buggy_sample_are_graded_on_their_public_cases(server, graded):
    _, correct = graded["correct"]
    _, buggy = graded["bug-illegal"]
    public = [c for c in caseload.load_all(specs.load("tally", FIXTURE), None) if c.visibility == "public"]
    assert correct["result"]["all_passed"] and correct["result"]["passed"] == correct["result"]["total"] == len(public)
    assert not buggy["result"]["all_passed"]
    assert [c["name"] for c in buggy["result"]["cases"] if c["status"] == "failed"] == ["illegal-out-of-range"]
    for state in (correct, buggy):
        assert state["result"]["hidden_cases"] == 1
        assert "1 hidden case is not shown; it runs after these and counts in the grade." in state["text"]
        assert "not your grade" in state["text"]


def test_hidden_cases_never_appear_in_a_student_response(server, graded):
    student, state = graded["bug-illegal"]
    token = server.tokens[student]
    shown = [json.dumps(state)]
    for path in (f"/api/submissions/{state['id']}", f"/api/submissions/{state['id']}/report", "/api/submissions", "/"):
        status, body = server.call(path, token)
        assert status == 200
        shown.append(body.decode())
    assert "hidden case is not shown" in shown[2]
    for text in shown:
        for secret in HIDDEN_SECRETS:
            assert secret not in text
    # the instructor sees it, in the full report and on the class page
    status, body = server.call(f"/instructor/submissions/{state['id']}/report", basic=INSTRUCTOR)
    assert status == 200 and HIDDEN in body.decode()
    status, body = server.call("/instructor", basic=INSTRUCTOR)
    assert status == 200 and "student1" in body.decode()
    status, body = server.call("/instructor/gradebook.csv", INSTRUCTOR)
    assert status == 200 and body.decode().startswith("submission,original,lms_id,status,percent")
    assert "student0,,,graded,100.00" in body.decode()


def test_a_student_reads_what_their_program_printed_and_what_was_expected(server, graded):
    """The student's view of a failing case says it in words about the program: no fact line,
    no "closest:", no command line (tests/test_student_words.py has the whole list)."""
    from tests.test_student_words import INTERNAL
    student, state = graded["bug-illegal"]
    status, report = server.call(f"/api/submissions/{state['id']}/report", server.tokens[student])
    assert status == 200
    shown = state["text"] + json.dumps(state["result"]) + report.decode()
    assert [phrase for phrase in INTERNAL if phrase in shown] == []
    (case,) = [c for c in state["result"]["cases"] if c["status"] == "failed"]
    assert "the expected output has the line 'Illegal!'; the closest line your program printed is 'Now " in case["reason"]
    assert case["reason"] in state["text"]
    assert "&lt;build&gt;/tally.py</code>" not in report.decode()  # the command line the case ran


def test_tokens_are_checked_and_a_student_reads_only_their_own(server, graded):
    student, state = graded["bug-illegal"]
    ident = state["id"]
    assert server.call(f"/api/submissions/{ident}")[0] == 401
    assert server.call(f"/api/submissions/{ident}", "wrong-token-" + "x" * 20)[0] == 401
    assert server.call(f"/api/submissions/{ident}", server.tokens["student0"])[0] == 404
    assert server.call(f"/api/submissions/{ident}/report", server.tokens["student0"])[0] == 404
    assert server.call("/api/submissions/999999", server.tokens[student])[0] == 404
    assert server.upload(None, _sample("correct"))[0] == 401
    assert server.upload(None, _sample("correct"), fields={"token": "nope" * 8})[0] == 401
    assert server.call("/instructor")[0] == 401
    assert server.call("/instructor", server.tokens[student])[0] == 401
    assert server.call("/instructor/gradebook.csv", basic=server.tokens[student])[0] == 401
    # tokens are never in the log
    log = server.logged()
    assert not any(token in log for token in server.tokens.values()) and INSTRUCTOR not in log


def test_the_openapi_document_describes_the_api(server):
    status, body = server.call("/openapi.json")
    document = json.loads(body)
    assert status == 200 and document["openapi"].startswith("3.")
    assert {"/api/submissions", "/api/submissions/{ident}", "/instructor"} <= set(document["paths"])


def test_odd_names_and_path_traversal_stay_inside_the_upload(server, tmp_path):
    student = "student2"
    for name in ("../../../../tmp/escaped.py", ".hidden", "..", "a\x01b.py", "x" * 300):
        status, body = server.upload(student, [(name, b"print(1)\n")])
        if status == 202:  # a folder part is dropped: only the file's own name is kept
            ident = json.loads(body)["id"]
            assert sorted(os.listdir(server.data / "uploads" / str(ident))) == ["escaped.py"]
            server.wait(student, ident)
        else:
            assert status == 400, (name, body)
    assert not Path("/tmp/escaped.py").exists() or Path("/tmp/escaped.py").read_bytes() != b"print(1)\n"
    # an archive whose members leave its folder: intake skips them when grading
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("../../evil.py", "print('evil')\n")
        zf.writestr("tally.py", (SAMPLES / "correct" / "tally.py").read_text())
    status, body = server.upload(student, [("sub.zip", buffer.getvalue())])
    assert status == 202, body
    state = server.wait(student, json.loads(body)["id"])
    assert state["result"]["all_passed"] and "leaves the archive" in state["text"]
    assert not (server.data / "evil.py").exists() and not (server.data / "uploads" / "evil.py").exists()


def test_oversize_and_bomb_uploads_are_refused(server):
    status, body = server.upload("student3", [("big.py", b"#" * (6 * 1024 * 1024))])
    assert status == 413, body
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("tally.py", (SAMPLES / "correct" / "tally.py").read_text())
        zf.writestr("bomb.txt", b"\0" * (60 * 1024 * 1024))
    assert len(buffer.getvalue()) < 1024 * 1024
    status, body = server.upload("student3", [("bomb.zip", buffer.getvalue())])
    assert status == 413 and b"unpacks to more than" in body, body
    status, body = server.upload("student3", [(f"f{n}.py", b"") for n in range(60)])
    assert status in (400, 413), body
    assert server.call("/api/submissions", server.tokens["student3"])[1].count(b'"id"') == 0  # none was kept


def test_html_in_names_and_output_is_escaped(server):
    evil = STUDENTS[-1]
    program = (SAMPLES / "correct" / "tally.py").read_text().replace("Start:", "<script>alert(1)</script>Start:")
    status, body = server.upload(evil, [("tally.py", program.encode())])
    assert status == 202, body
    state = server.wait(evil, json.loads(body)["id"], whole=True)
    status, report = server.call(f"/api/submissions/{state['id']}/report", server.tokens[evil])
    assert status == 200 and b"<script>" not in report and b"&lt;script&gt;" in report
    status, page = server.call("/instructor", INSTRUCTOR)
    assert status == 200 and b"<script>" not in page and b"&lt;script&gt;" in page


def test_a_post_from_another_origin_is_refused(server):
    status, body = server.upload("student4", _sample("correct"), headers={"Origin": "http://evil.example"})
    assert status == 403, body


def test_one_in_flight_per_student(server):
    status, body = server.upload("student5", _sample("bug-hang"))
    assert status == 202, body
    status, again = server.upload("student5", _sample("correct"))
    assert status == 409 and b"still being checked" in again
    server.wait("student5", json.loads(body)["id"])
    status, body = server.upload("student5", _sample("correct"))
    assert status == 202, body
    server.wait("student5", json.loads(body)["id"])


def _check(server, sample, token, url=None):
    return subprocess.run([sys.executable, "-m", "harness", "check", "tally", os.fsdecode(SAMPLES / sample), "--server",
                           url or server.url, "--token", token, "-o", str(server.folder / "reports")],
                          cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)


def test_check_with_a_server_exit_codes(server):
    done = _check(server, "correct", server.tokens["student6"])
    assert done.returncode == 0, done.stderr
    public = sum(c.visibility == "public" for c in caseload.load_all(specs.load("tally", FIXTURE), None))
    assert f"{public}/{public} cases passed" in done.stdout and "not your grade" in done.stdout
    assert (server.folder / "reports" / "check-tally" / "report.html").is_file()
    done = _check(server, "bug-add", server.tokens["student6"])
    assert done.returncode == 1, done.stderr
    assert "FAIL add-two" in done.stdout and HIDDEN not in done.stdout + done.stderr
    done = _check(server, "correct", "not-a-token-" + "y" * 20)
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1] == (
        f"harness: the server at {server.url} refused the token (401): check --token")
    done = _check(server, "correct", server.tokens["student6"], f"http://127.0.0.1:{free_port()}")
    assert done.returncode == 2 and done.stderr.strip().startswith("harness: cannot reach the server at")
    assert len(done.stderr.strip().splitlines()) == 1


def test_check_with_a_server_leaves_out_a_file_whose_name_is_not_utf8(server, tmp_path):
    """A zip cannot carry a name that is not UTF-8: the file is left out with one line, never a
    traceback, and the rest is checked as usual."""
    folder = tmp_path / "odd"
    shutil.copytree(SAMPLES / "correct", folder)
    (folder / os.fsdecode(b"caf\xe9.txt")).write_text("notes\n")
    (folder / "-x.py").write_text("# a name like an option\n")
    done = _check(server, folder, server.tokens["student7"])
    assert done.returncode == 0, done.stderr
    assert "left out caf⟨0xE9⟩.txt: its name is not UTF-8" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_the_rate_limit(tmp_path):
    server = Server(tmp_path, rate=2).start()
    try:
        for _ in range(2):
            status, body = server.upload("student0", _sample("correct"))
            assert status == 202, body
            server.wait("student0", json.loads(body)["id"])
        status, body = server.upload("student0", _sample("correct"))
        assert status == 429 and b"at most 2 self-checks an hour" in body
        assert server.upload("student1", _sample("correct"))[0] == 202  # another student's own rate
    finally:
        server.stop()


@pytest.mark.slow
def test_kill_9_mid_queue_then_restart_grades_what_was_queued_and_keeps_every_result(tmp_path):
    server = Server(tmp_path).start()
    samples = ["correct", "bug-add", "bug-hang", "bug-illegal", "bug-end", "bug-crash", "correct", "bug-hang"]
    accepted = {}
    try:
        for student, sample in zip(STUDENTS, samples):
            status, body = server.upload(student, _sample(sample))
            assert status == 202, body
            accepted[json.loads(body)["id"]] = (student, sample)
        # once the first (oldest, graded first) is done and others are not, kill -9
        first = min(accepted)
        server.wait(accepted[first][0], first)
        states = {i: json.loads(server.call(f"/api/submissions/{i}", server.tokens[s])[1])["state"]
                  for i, (s, _) in accepted.items()}
        os.killpg(server.process.pid, signal.SIGKILL)  # the service and its grading workers, at once
        server.process.wait()
        before = {i for i, v in states.items() if v == "done"}
        waiting = set(accepted) - before
        assert before and waiting, states
        kept = {i: (server.data / "results" / f"{i}.student.json").read_bytes() for i in before}
        print(f"kill -9: {len(accepted)} accepted, {len(before)} graded before, {len(waiting)} queued or running")
    finally:
        server.stop()
    server = Server(tmp_path).start()
    try:
        results = {i: server.wait(s, i, whole=True) for i, (s, _) in accepted.items()}
        for ident, (student, sample) in accepted.items():
            assert results[ident]["result"]["all_passed"] == (sample == "correct"), (ident, sample)
        for ident, data in kept.items():  # what a student was shown is kept as it was (its hidden cases may be graded again)
            assert (server.data / "results" / f"{ident}.student.json").read_bytes() == data
        print(f"after restart: all {len(results)} graded, {len(kept)} students' results kept unchanged")
    finally:
        server.stop()


def _driver():
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return None
    try:
        from selenium import webdriver
    except ImportError:
        return None
    return webdriver


@pytest.mark.slow
@pytest.mark.skipif(_driver() is None, reason="no chromium, chromium-driver or selenium installed")
def test_the_upload_page_in_a_real_browser(server, tmp_path):
    webdriver = _driver()
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    browser = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    try:
        for sample, expected in (("bug-illegal", "6/7 public cases passed"), ("correct", "7/7 public cases passed")):
            browser.get(server.url + "/")
            browser.find_element(By.ID, "token").send_keys(server.tokens["student7"])
            browser.find_element(By.ID, "files").send_keys(str(SAMPLES / sample / "tally.py"))
            browser.find_element(By.ID, "send").click()
            WebDriverWait(browser, DEADLINE).until(lambda b: b.find_element(By.ID, "verdict").text)
            assert browser.find_element(By.ID, "verdict").text.startswith(expected)
            progress = browser.find_element(By.ID, "progress").text
            assert "not your grade" in progress and "1 hidden case is not shown" in progress
            WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "report").get_attribute("srcdoc"))
            report = browser.find_element(By.ID, "report").get_attribute("srcdoc")
            assert "Tally" in report and HIDDEN not in report and HIDDEN not in browser.page_source
    finally:
        browser.quit()


@pytest.mark.slow  # a Dask scheduler and worker started here, and a second server
def test_on_a_cluster_the_service_gives_the_verdicts_it_gives_here(tmp_path, graded):
    """`harness serve --cluster ADDRESS` grades the uploads on Dask, through the same executor
    interface as `harness grade --cluster`: the same public verdicts as the local service."""
    with dask_cluster(tmp_path, {"one": {}}) as (address, _):
        (tmp_path / "serve").mkdir()
        remote = Server(tmp_path / "serve", extra=("--cluster", address)).start()
        try:
            for sample, (student, local) in graded.items():
                status, body = remote.upload(student, _sample(sample))
                assert status == 202, body
                state = remote.wait(student, json.loads(body)["id"], whole=True)
                verdicts = {c["name"]: c["status"] for c in state["result"]["cases"]}
                assert verdicts == {c["name"]: c["status"] for c in local["result"]["cases"]}, remote.logged()[-3000:]
                assert state["result"]["hidden_cases"] == local["result"]["hidden_cases"]
                status, report = remote.call(f"/instructor/submissions/{state['id']}/report", basic=INSTRUCTOR)
                assert status == 200 and b"graded on the cluster worker" in report  # not on this machine
        finally:
            remote.stop()


@pytest.mark.slow  # a second server, and the check of the random setup's top-up runs
def test_the_progress_counts_to_the_public_cases_the_result_lists(tmp_path):
    """The fixture with a law of its random start on a public case: the student's result lists
    the public cases and that check. Every progress line `harness check --server` prints, and
    every state the service gives while the submission runs, counts out of that many, never
    out of every case; the hidden case is only counted in the result."""
    root = tmp_path / "root"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("__pycache__"))
    spec_file = root / "specs" / "tally" / "spec.yaml"
    spec_file.write_text(spec_file.read_text().replace(
        "  seed: 1", "  seed: 1\n  distribution: {values: {pattern: '(\\d+)'}, uniform: [1, 5], least: 60, "
        "case: setup-start}", 1))
    second = root / "cases" / "tally" / "end-ones.yaml"  # a second hidden case: every count below differs
    second.write_text(second.read_text() + "visibility: hidden\n")
    spec = specs.load("tally", root)
    assert spec.random_start.law is not None and spec.random_start.law.case == "setup-start"
    cases = caseload.load_all(spec, None)
    public = sum(c.visibility != "hidden" for c in cases)
    hidden = len(cases) - public
    assert hidden == 2 and any(c.name == "setup-start" and c.visibility != "hidden" for c in cases)
    listed = public + 1  # the public cases, then the check of their starts
    (tmp_path / "serve").mkdir()
    server = Server(tmp_path / "serve", root=root).start()
    try:
        done = subprocess.run([sys.executable, "-m", "harness", "check", "tally", os.fsdecode(SAMPLES / "correct"),
                               "--server", server.url, "--token", server.tokens["student0"], "-o",
                               str(tmp_path / "reports")], cwd=ROOT, env=_env(root), capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
        lines = [line for line in done.stderr.splitlines() if line.startswith("running: ")]
        # the check's top-up runs last seconds after the last public case: that line is printed then
        assert f"running: {public} of {listed} public cases done" in lines, done.stderr
        for line in lines:
            assert line.endswith(f" of {listed} public cases done"), line
            assert int(line.split()[1]) <= public
        assert f"{listed}/{listed} cases passed" in done.stdout
        assert "2 hidden cases are not shown; they run after these and count in the grade." in done.stdout

        # the service's own answers while a second upload runs, read as the page reads them
        status, body = server.upload("student1", _sample("correct"))
        assert status == 202, body
        ident, seen = json.loads(body)["id"], []
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end and (not seen or seen[-1]["state"] != "done"):
            status, body = server.call(f"/api/submissions/{ident}?wait=1", server.tokens["student1"])
            assert status == 200, body
            seen.append(json.loads(body))
        assert seen[-1]["state"] == "done", server.logged()[-3000:]
        counted = [state for state in seen if "cases_total" in state]
        assert counted and all(s["cases_total"] == listed and s["cases_done"] <= public for s in counted), counted
        result = seen[-1]["result"]
        assert result["total"] == listed and result["hidden_cases"] == hidden and result["all_passed"]
    finally:
        server.stop()
