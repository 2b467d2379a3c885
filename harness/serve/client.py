"""`harness check GAME SUBMISSION --server URL --token TOKEN`: the student's side, with the
standard library only (the lean install): the submission zipped as intake takes it in, sent,
waited on with a progress line, and the server's text printed as a local check prints it."""
import io
import json
import sys
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from pathlib import Path

from harness.atomic import write_text
from harness.building import intake
from harness.errors import InputError
from harness.safe_text import visible

FOLLOW_SECONDS = 1.0  # each status request waits this long for a change (the progress line's pace)
WAIT_SECONDS = 3600


class Refused(Exception):
    """The server said no: one line for the student."""


def pack(submission: Path) -> tuple[str, bytes]:
    """The submission as one file to send: an archive as it is, else a zip of what intake takes in."""
    if submission.is_file() and intake.is_archive(submission):
        return submission.name, submission.read_bytes()
    taken = intake.open_submission(submission)
    try:
        if taken.problem:
            raise InputError(f"{submission}: {taken.problem}")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for rel in taken.files:
                if not _utf8(rel):  # a zip cannot carry it; intake would only show it as unreadable
                    print(f"left out {visible(rel)}: its name is not UTF-8 (rename it to send it)", file=sys.stderr)
                    continue
                zf.writestr(rel, intake.read_file(taken.root, rel))
        return "submission.zip", buffer.getvalue()
    except intake.IntakeProblem as problem:
        raise InputError(f"{submission}: {problem}")
    finally:
        intake.close(taken)


def _utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def multipart(fields: dict[str, str], files: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    boundary = uuid.uuid4().hex
    out = io.BytesIO()
    for name, value in fields.items():
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode())
        out.write(value.encode("utf-8") + b"\r\n")
    for filename, data in files:
        safe = filename.encode("utf-8", "replace").decode("utf-8").replace('"', "_").replace("\r", "_").replace("\n", "_")
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{safe}"\r\n'
                  "Content-Type: application/octet-stream\r\n\r\n".encode())
        out.write(data + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", out.getvalue()


class Client:
    def __init__(self, server: str, token: str):
        self.server, self.token = server.rstrip("/"), token

    def call(self, path: str, body: bytes | None = None, content_type: str | None = None, raw: bool = False):
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.server + path, data=body, headers=headers,
                                         method="POST" if body is not None else "GET")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                data = answer.read()
                return data if raw else json.loads(data)
        except urllib.error.HTTPError as problem:
            try:
                why = json.loads(problem.read()).get("error", "")
            except (ValueError, AttributeError):
                why = ""
            if problem.code == 401:
                raise Refused(f"the server at {self.server} refused the token (401): check --token")
            raise Refused(f"the server at {self.server} refused: {why or problem.reason} ({problem.code})")
        except (urllib.error.URLError, OSError) as problem:
            reason = getattr(problem, "reason", problem)
            raise Refused(f"cannot reach the server at {self.server}: {reason}")
        except ValueError:
            raise Refused(f"the server at {self.server} did not answer as a self-check service")


def check(game: str, submission: Path, server: str, token: str, output: Path) -> int:
    if not server.startswith(("http://", "https://")):
        raise InputError(f"--server {server!r} is not a URL; give http://HOST:PORT or https://HOST")
    name, data = pack(submission)
    content_type, body = multipart({"game": game}, [(name, data)])
    client = Client(server, token)
    try:
        accepted = client.call("/api/submissions", body, content_type)
        state = wait(client, accepted["url"])
        print(state["text"], end="")
        if state.get("own_game", {}).get("status") not in (None, "not computed"):
            print(own_text(state["own_game"]), end="")
        try:
            report = client.call(state["report"], raw=True)
            folder = output / f"check-{game.split(':')[0]}"
            folder.mkdir(parents=True, exist_ok=True)
            print(f"  full report: {write_text(folder / 'report.html', report.decode('utf-8', 'replace'))}")
        except (Refused, OSError) as problem:
            print(f"  (the HTML report could not be saved: {problem})", file=sys.stderr)
    except Refused as problem:
        raise InputError(str(problem))
    return 0 if state["result"]["all_passed"] else 1


def own_text(view: dict) -> str:
    """The service's game of the student's own (`own_game`) as a local `check --counterexample` prints it."""
    if view.get("status") == "found":
        return "".join(f"  {visible(line)}\n" for line in str(view.get("text", "")).splitlines())
    if view.get("status") == "none found":
        return ("  no game of your own found where your program and the handout part ways (the search is "
                "bounded: this is not a proof that there is none)\n")
    why = f" ({visible(str(view['why']))})" if view.get("why") else ""
    return f"  game of your own: {visible(str(view.get('status')))}{why}\n"


def wait(client: Client, url: str) -> dict:
    """Follow the submission until graded (long polls: the server answers on a change), saying
    the queue position, then how many of the public cases are done (out of those its result lists),
    then, where the service searches one, until the game of the student's own is searched."""
    said, deadline = "", time.monotonic() + WAIT_SECONDS
    tty = sys.stderr.isatty()
    while True:
        state = client.call(f"{url}?wait={FOLLOW_SECONDS:g}")
        if state["state"] == "done" and state.get("own_game", {}).get("status") != "searching":
            if said and tty:
                print("\r" + " " * len(said) + "\r", end="", file=sys.stderr, flush=True)
            return state
        line = (f"queued: {state.get('position', 0)} ahead of you" if state["state"] == "queued"
                else f"running: {state['cases_done']} of {state['cases_total']} public cases done" if "cases_total" in state
                else "searching for a game of your own where your program and the handout part ways…"
                if state["state"] == "done"
                else "running your program on the public cases…")
        if line != said:
            print(("\r" + line.ljust(len(said))) if tty else line, end="" if tty else "\n", file=sys.stderr, flush=True)
            said = line
        if time.monotonic() > deadline:
            raise Refused(f"no result after {WAIT_SECONDS // 60} minutes; try again later")

