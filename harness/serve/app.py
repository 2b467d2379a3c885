"""The HTTP service (Starlette): the upload form at /, the students' JSON API under /api, the
instructor's pages under /instructor, and the API's OpenAPI document at /openapi.json.

No cookies: a student's token travels in the form body (an upload) or an Authorization header
(everything else), never in a URL, so it is in no access log and no cross-site page can post
with it; a POST from another origin is refused as well."""
import asyncio
import base64
import binascii
import os
import shutil
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from harness.building import intake
from harness.reporting import html as report_html
from harness.serve import openapi, page, views
from harness.serve.queue import Game, Worker
from harness.serve.store import DONE, QUEUED, Store
from harness.serve.tokens import Roster

MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # one upload's whole request body
MAX_FILES = 50  # files in one upload
MAX_NAME_CHARS = 100
RATE_PER_HOUR = 20
DRAINED = 8  # an upload over the cap is read and dropped up to this many times the cap, to answer 413
LONGEST_WAIT = 30.0  # seconds a status request may be held open waiting for a change

SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                    "X-Frame-Options": "SAMEORIGIN"}
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
               "frame-src 'self' about:; form-action 'self'; base-uri 'none'")
REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'"


@dataclass
class Settings:
    games: dict[str, Game]
    roster: Roster
    store: Store
    worker: Worker | None = None
    max_bytes: int = MAX_UPLOAD_BYTES
    max_files: int = MAX_FILES
    rate: int = RATE_PER_HOUR
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def refuse(status: int, why: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": why}, status_code=status, headers={**SECURITY_HEADERS, **(headers or {})})


def _bearer(request: Request) -> str | None:
    kind, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if kind.lower() == "bearer" and value.strip() else None


def _basic_password(request: Request) -> str | None:
    kind, _, value = request.headers.get("authorization", "").partition(" ")
    if kind.lower() != "basic":
        return None
    try:
        return base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")[2] or None
    except (binascii.Error, UnicodeDecodeError):
        return None


def _same_origin(request: Request) -> bool:
    """A browser's POST says where its page came from: it must be this service."""
    origin = request.headers.get("origin")
    if origin is None:  # not a browser's cross-site request (curl, `harness check --server`)
        return True
    host = request.headers.get("x-forwarded-host") or request.headers.get("host", "")
    return urlsplit(origin).netloc == host


def safe_name(raw: str | None) -> str | None:
    """The file's own name (no folder part): printable, not hidden, not `.` or `..`; else None."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not name or name in (".", "..") or name.startswith(".") or len(name) > MAX_NAME_CHARS:
        return None
    if any(ord(c) < 32 or ord(c) == 127 or c in "\u2028\u2029\u202e" for c in name):
        return None
    return name


class App:
    def __init__(self, settings: Settings):
        self.s = settings

    # --- students ----------------------------------------------------------------

    def _student(self, request: Request, token: str | None = None) -> str:
        student = self.s.roster.student(token or _bearer(request))
        if student is None:
            raise HTTPException(401, "a valid student token is needed (Authorization: Bearer TOKEN)")
        return student

    async def upload(self, request: Request) -> Response:
        if not _same_origin(request):
            return refuse(403, "this form may be posted only from this service's own page")
        too_big = refuse(413, f"the upload is larger than {self.s.max_bytes // 1024} KB")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > DRAINED * self.s.max_bytes:
            return too_big  # not even read: the client sees the connection end
        body, over = bytearray(), False
        async for chunk in request.stream():  # read to its end (not kept), so the client reads the answer
            over = over or len(body) + len(chunk) > self.s.max_bytes
            if over:
                body.clear()
            else:
                body += chunk
        if over:
            return too_big
        sent = bytes(body)

        async def replay():
            return {"type": "http.request", "body": sent, "more_body": False}

        try:
            form = await Request(request.scope, replay).form(max_files=self.s.max_files + 1, max_fields=10)
        except HTTPException as problem:
            return refuse(400, f"the upload is not a readable form: {problem.detail}")
        token = form.get("token")
        student = self.s.roster.student(token if isinstance(token, str) and token else _bearer(request))
        if student is None:
            return refuse(401, "a valid student token is needed (the form's token field)")
        game = form.get("game") or (next(iter(self.s.games)) if len(self.s.games) == 1 else None)
        if game not in self.s.games:
            return refuse(400, f"say which game: one of {', '.join(self.s.games)}")
        files = [f for f in form.getlist("files") if not isinstance(f, str)]
        if not files:
            return refuse(400, "no file was sent (the form's files field: source files or one archive)")
        if len(files) > self.s.max_files:
            return refuse(413, f"more than {self.s.max_files} files; send them as one zip")
        names = [safe_name(f.filename) for f in files]
        if None in names:
            return refuse(400, "a file name is empty, hidden, has control characters or is over "
                               f"{MAX_NAME_CHARS} characters; rename it")
        if len(set(names)) != len(names):
            return refuse(400, "two files have the same name; send a zip of your folder instead")
        contents = [await f.read() for f in files]
        async with self.s.lock:  # the one-in-flight and rate checks and the insert, as one step
            busy = await run_in_threadpool(self.s.store.in_flight, student)
            if busy is not None:
                return refuse(409, f"your submission {busy.id} is still being checked; wait for its result")
            recent = await run_in_threadpool(self.s.store.since, student, time.time() - 3600)
            if len(recent) >= self.s.rate:
                wait = int(recent[-self.s.rate].created + 3600 - time.time()) + 1
                return refuse(429, f"at most {self.s.rate} self-checks an hour; try again in {wait // 60 + 1} minutes",
                              {"Retry-After": str(wait)})
            problem, status, row = await run_in_threadpool(self._store, student, game, names, contents)
        if problem:
            return refuse(status, problem)
        if self.s.worker:
            self.s.worker.poke()
        position = await run_in_threadpool(self.s.store.position, row.id)
        return JSONResponse({"id": row.id, "state": row.state, "position": position,
                             "url": f"/api/submissions/{row.id}"}, status_code=202, headers=SECURITY_HEADERS)

    def _store(self, student: str, game: str, names: list[str], contents: list[bytes]):
        """Write the files, take them in as a grading would (the archive caps), then queue them."""
        staged = self.s.store.staging()
        try:
            for name, data in zip(names, contents):
                fd = os.open(staged / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
            taken = intake.open_submission(staged)
            intake.close(taken)
            if taken.problem:
                over = "more than" in taken.problem  # intake's caps (size, members, depth) say "more than"
                shutil.rmtree(staged, ignore_errors=True)
                return f"the upload was refused: {taken.problem}", 413 if over else 422, None
            return "", 202, self.s.store.add(student, game, staged)
        except BaseException:
            shutil.rmtree(staged, ignore_errors=True)
            raise

    def _own(self, request: Request):
        student = self._student(request)
        try:
            ident = int(request.path_params["ident"])
        except ValueError:
            ident = -1
        row = self.s.store.get(ident)
        if row is None or row.student != student:
            raise HTTPException(404, "no such submission of yours")
        return row

    def _describe(self, row, full: bool = True) -> dict:
        data = {"id": row.id, "game": row.game, "state": row.state, "created": row.created,
                "started": row.started, "finished": row.finished}
        if row.state == QUEUED:
            data["position"] = self.s.store.position(row.id)
        running = self.s.worker.cases.get(row.id) if self.s.worker else None
        if row.state not in (QUEUED, DONE) and running is not None:
            data["cases_done"], data["cases_total"] = running  # hidden ones counted, never named
        if row.state == DONE and full:
            result = self.s.store.result(row.id)
            spec = self.s.games[row.game].spec
            if result is not None:
                data["result"] = views.student_summary(result, spec)
                data["text"] = views.student_text(result, spec)
                data["report"] = f"/api/submissions/{row.id}/report"
        return data

    async def status(self, request: Request) -> Response:
        """The submission's state; with `?wait=SECONDS` (at most LONGEST_WAIT) answered once it
        changes, so a client follows it without polling in a loop of its own."""
        try:
            wait = min(float(request.query_params.get("wait", 0)), LONGEST_WAIT)
        except ValueError:
            return refuse(400, "wait: a number of seconds")
        row = await run_in_threadpool(self._own, request)
        if wait > 0 and row.state != DONE:
            await run_in_threadpool(self.s.store.wait_change, row.id, row.state, wait)
            row = await run_in_threadpool(self._own, request)
        return JSONResponse(await run_in_threadpool(self._describe, row), headers=SECURITY_HEADERS)

    async def mine(self, request: Request) -> Response:
        student = self._student(request)
        rows = await run_in_threadpool(self.s.store.of_student, student)
        return JSONResponse({"student": student, "submissions": [self._describe(r, full=False) for r in rows]},
                            headers=SECURITY_HEADERS)

    async def report(self, request: Request) -> Response:
        row = await run_in_threadpool(self._own, request)
        result = await run_in_threadpool(self.s.store.result, row.id) if row.state == DONE else None
        if result is None:
            return refuse(409, "not graded yet")
        text = await run_in_threadpool(views.student_html, result, self.s.games[row.game].spec)
        return HTMLResponse(text, headers={**SECURITY_HEADERS, "Content-Security-Policy": REPORT_POLICY})

    # --- the instructor ----------------------------------------------------------

    def _instructor(self, request: Request) -> None:
        if not self.s.roster.is_instructor(_bearer(request) or _basic_password(request)):
            raise HTTPException(401, "the instructor token is needed", {"WWW-Authenticate": 'Basic realm="instructor"'})

    def _latest(self, game: str):
        latest = {}
        for row in self.s.store.everything():
            if row.game == game and row.state == DONE:
                latest[row.student] = row
        results = [(row.id, self.s.store.result(row.id)) for row in latest.values()]
        return [(ident, result) for ident, result in results if result is not None]

    def _game(self, request: Request) -> str:
        game = request.query_params.get("game") or next(iter(self.s.games))
        if game not in self.s.games:
            raise HTTPException(404, "no such game on this service")
        return game

    async def instructor(self, request: Request) -> Response:
        self._instructor(request)
        game = self._game(request)
        spec = self.s.games[game].spec
        results = await run_in_threadpool(self._latest, game)
        text = await run_in_threadpool(views.class_page, results, spec.title, self.s.games[game].milestone,
                                       lambda ident: f"/instructor/submissions/{ident}/report")
        return HTMLResponse(text, headers={**SECURITY_HEADERS, "Content-Security-Policy": REPORT_POLICY})

    async def instructor_report(self, request: Request) -> Response:
        self._instructor(request)
        try:
            result = await run_in_threadpool(self.s.store.result, int(request.path_params["ident"]))
        except ValueError:
            result = None
        if result is None:
            raise HTTPException(404, "no such graded submission")
        text = await run_in_threadpool(report_html.render, result)
        return HTMLResponse(text, headers={**SECURITY_HEADERS, "Content-Security-Policy": REPORT_POLICY})

    async def history(self, request: Request) -> Response:
        self._instructor(request)
        student = request.path_params["student"]
        rows = await run_in_threadpool(self.s.store.of_student, student)
        out = []
        for row in rows:
            data = self._describe(row, full=False)
            result = self.s.store.result(row.id) if row.state == DONE else None
            if result is not None:
                data.update(percent=result.percent, passed=result.passed, total=result.total,
                            status=str(result.status), report=f"/instructor/submissions/{row.id}/report")
            out.append(data)
        return JSONResponse({"student": student, "submissions": out}, headers=SECURITY_HEADERS)

    async def gradebook(self, request: Request) -> Response:
        self._instructor(request)
        game = self._game(request)
        results = [result for _, result in await run_in_threadpool(self._latest, game)]
        path = self.s.store.folder / "exports" / f"gradebook-{game}.csv"
        await run_in_threadpool(views.gradebook, results, path)
        return Response(path.read_bytes(), media_type="text/csv; charset=utf-8",
                        headers={**SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="gradebook-{game}.csv"'})

    # --- pages -------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        return HTMLResponse(page.index(list(self.s.games), self.s.max_bytes),
                            headers={**SECURITY_HEADERS, "Content-Security-Policy": PAGE_POLICY})

    async def script(self, request: Request) -> Response:
        return Response(page.SCRIPT, media_type="text/javascript", headers=SECURITY_HEADERS)

    async def openapi_document(self, request: Request) -> Response:
        return JSONResponse(openapi.document(self.s.max_bytes), headers=SECURITY_HEADERS)

    async def health(self, request: Request) -> Response:
        return PlainTextResponse("ok", headers=SECURITY_HEADERS)


async def _http_error(request: Request, problem: HTTPException) -> Response:
    return refuse(problem.status_code, str(problem.detail), dict(problem.headers or {}))


def make(settings: Settings) -> Starlette:
    app = App(settings)
    routes = [Route("/", app.index), Route("/app.js", app.script), Route("/openapi.json", app.openapi_document),
              Route("/health", app.health),
              Route("/api/submissions", app.upload, methods=["POST"]),
              Route("/api/submissions", app.mine, methods=["GET"]),
              Route("/api/submissions/{ident}", app.status),
              Route("/api/submissions/{ident}/report", app.report),
              Route("/instructor", app.instructor),
              Route("/instructor/gradebook.csv", app.gradebook),
              Route("/instructor/students/{student}", app.history),
              Route("/instructor/submissions/{ident}/report", app.instructor_report)]

    def started():
        if settings.worker:
            settings.worker.start()

    def stopped():
        if settings.worker:
            settings.worker.stop()
        settings.store.close()

    import contextlib

    @contextlib.asynccontextmanager
    async def lifespan(_):
        started()
        try:
            yield
        finally:
            stopped()

    return Starlette(routes=routes, exception_handlers={HTTPException: _http_error}, lifespan=lifespan)
