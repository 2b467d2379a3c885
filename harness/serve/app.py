"""The HTTP service (Starlette): the upload form at /, the students' JSON API under /api, the
instructor's pages under /instructor, and the API's OpenAPI document at /openapi.json.

No cookies: a student's token travels in an Authorization header (an upload's too: it is
checked before the body is read), never in a URL or a body, so it is in no access log and no
cross-site page can post with it; a POST from another origin is refused as well.

What one client does never makes another wait: an anonymous request is answered before its body
is read, a student has one upload received at a time and a few long polls held at once (each an
await, no thread), bodies go to disk among a bounded few, and the slow work of an upload (its
archive taken in) runs on a few threads of its own under no shared lock."""
import asyncio
import base64
import binascii
import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from harness.building import intake
from harness.loading import stages
from harness.reporting import hidden
from harness.reporting import html as report_html
from harness.serve import form, openapi, own, page, views
from harness.serve.queue import Game, Worker
from harness.serve.store import DONE, QUEUED, Store
from harness.serve.tokens import Roster

MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # one upload's whole request body
MAX_FILES = 50  # files in one upload
RATE_PER_HOUR = 20
DRAINED = 8  # an upload over the cap is read and dropped up to this many times the cap, to answer 413
LONGEST_WAIT = 30.0  # seconds a status request may be held open waiting for a change
MAX_WAITS = 3  # long polls one student may have held at once (more: 429 at once)
MAX_BODIES = 8  # upload bodies received at once, by the whole service (each on disk, never in memory)
TAKERS = 4  # uploads taken in (parsed, archives inspected) at once, on threads of their own
QUEUE_SECONDS = 20.0  # an upload waits this long for a turn among them, then 503
BODY_SECONDS = 60.0  # an upload's whole body must arrive within this
PAUSE_SECONDS = 10.0  # and never pause longer than this (a slow sender is answered 408)

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
    counterexamples: own.Policy = field(default_factory=own.Policy)  # the students' own games (--counterexamples)
    bodies: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(MAX_BODIES))
    takers: ThreadPoolExecutor = field(  # not the pool quick requests use: they never wait behind an archive
        default_factory=lambda: ThreadPoolExecutor(max_workers=TAKERS, thread_name_prefix="intake"))
    receiving: set[str] = field(default_factory=set)  # students with an upload being received or taken in
    refused: dict[str, list[float]] = field(default_factory=dict)  # student -> when their uploads were refused
    waits: dict[str, int] = field(default_factory=dict)  # student -> long polls held now
    changes: "Changes" = field(default_factory=lambda: Changes())  # a submission's state (the students' polls)
    graded: "Changes" = field(default_factory=lambda: Changes())  # a whole result written (the instructor's)


class Changes:
    """Wakes the long polls when a submission's state changes: the store's threads call notify(),
    which sets, on the event loop, the event every waiting poll awaits (then a fresh one)."""

    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.event = asyncio.Event()

    def notify(self) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._fire)

    def _fire(self) -> None:
        self.event.set()
        self.event = asyncio.Event()


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
        """The token first (the header: nothing of an anonymous body is read), then the student's
        own bounds (one upload at a time, one in flight, the rate), then the body: streamed to a
        file within a deadline, among at most MAX_BODIES at once; then the form's files staged,
        taken in and queued on a thread of this upload's own, under no lock another student waits on."""
        if not _same_origin(request):
            return refuse(403, "this form may be posted only from this service's own page")
        student = self.s.roster.student(_bearer(request))
        if student is None:
            return refuse(401, "a valid student token is needed (Authorization: Bearer TOKEN)")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > DRAINED * self.s.max_bytes:
            return self._refused(student, 413, self._too_big())  # not even read: the client sees the connection end
        if student in self.s.receiving:
            return refuse(409, "an upload of yours is being received; wait for its answer")
        self.s.receiving.add(student)
        try:
            busy = await run_in_threadpool(self.s.store.in_flight, student)
            if busy is not None:
                return refuse(409, f"your submission {busy.id} is still being checked; wait for its result")
            tried = self._tried(student, await run_in_threadpool(self.s.store.since, student, time.time() - 3600))
            if len(tried) >= self.s.rate:
                wait = int(tried[-self.s.rate] + 3600 - time.time()) + 1
                return refuse(429, f"at most {self.s.rate} self-checks an hour (refused uploads count); "
                                   f"try again in {wait // 60 + 1} minutes", {"Retry-After": str(wait)})
            body = self.s.store.folder / "staging" / (os.urandom(8).hex() + ".body")
            try:
                status, problem = await self._receive(request, body)
                if status == 503:  # the service's load, not the student's doing: not counted
                    return refuse(503, problem, {"Retry-After": str(int(QUEUE_SECONDS))})
                if problem:
                    return self._refused(student, status, problem)
                status, problem, row = await asyncio.get_running_loop().run_in_executor(
                    self.s.takers, self._take, student, body, request.headers.get("content-type", ""))
            finally:
                body.unlink(missing_ok=True)
            if problem:
                return self._refused(student, status, problem)
        finally:
            self.s.receiving.discard(student)
        if self.s.worker:
            self.s.worker.poke()
        position = await run_in_threadpool(self.s.store.position, row.id)
        return JSONResponse({"id": row.id, "state": row.state, "position": position,
                             "url": f"/api/submissions/{row.id}"}, status_code=202, headers=SECURITY_HEADERS)

    def _too_big(self) -> str:
        return f"the upload is larger than {self.s.max_bytes // 1024} KB"

    def _tried(self, student: str, kept: list) -> list[float]:
        """When the student's uploads of the last hour came: those kept (rows) and those refused."""
        hour_ago = time.time() - 3600
        refused = self.s.refused.setdefault(student, [])
        refused[:] = [moment for moment in refused if moment >= hour_ago]
        return sorted([row.created for row in kept] + refused)

    def _refused(self, student: str, status: int, why: str) -> JSONResponse:
        """A refusal that cost the service work counts against the student's rate, as an upload."""
        self.s.refused.setdefault(student, []).append(time.time())
        return refuse(status, why)

    async def _receive(self, request: Request, path) -> tuple[int, str]:
        """The body into `path`, at most max_bytes of it (the rest read and dropped, up to DRAINED
        times that, so the client reads the answer); (status, problem) when it is refused."""
        try:
            async with asyncio.timeout(QUEUE_SECONDS):
                await self.s.bodies.acquire()
        except TimeoutError:
            return 503, "the service is receiving many uploads; try again in a minute"
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + BODY_SECONDS
            size, stream = 0, request.stream().__aiter__()
            with open(path, "wb") as out:
                while True:
                    try:
                        async with asyncio.timeout(max(0.0, min(PAUSE_SECONDS, deadline - loop.time()))):
                            chunk = await anext(stream)
                    except StopAsyncIteration:
                        break
                    except TimeoutError:
                        return 408, (f"the upload did not arrive within {BODY_SECONDS:.0f} s "
                                     f"(or paused over {PAUSE_SECONDS:.0f} s); send it again")
                    size += len(chunk)
                    if size > DRAINED * self.s.max_bytes:
                        return 413, self._too_big()
                    if size <= self.s.max_bytes:
                        out.write(chunk)
            if size > self.s.max_bytes:
                return 413, self._too_big()
            return 202, ""
        except ClientDisconnect:
            return 400, "the upload ended before its body did"
        finally:
            self.s.bodies.release()

    def _take(self, student: str, body, content_type: str):
        """The form's files staged, taken in as a grading would (the archive caps), then queued:
        (status, problem, row)."""
        staged = self.s.store.staging()
        try:
            try:
                sent = form.read(body, content_type, staged, self.s.max_files)
            except form.Refused as refused:
                shutil.rmtree(staged, ignore_errors=True)
                return refused.status, refused.why, None
            game = sent.fields.get("game") or (next(iter(self.s.games)) if len(self.s.games) == 1 else None)
            if game not in self.s.games:
                shutil.rmtree(staged, ignore_errors=True)
                return 400, f"say which game: one of {', '.join(self.s.games)}", None
            if not sent.names:
                shutil.rmtree(staged, ignore_errors=True)
                return 400, "no file was sent (the form's files field: source files or one archive)", None
            taken = intake.open_submission(staged)
            intake.close(taken)
            if taken.problem:
                shutil.rmtree(staged, ignore_errors=True)
                return 413 if taken.too_large else 422, f"the upload was refused: {taken.problem}", None
            return 202, "", self.s.store.add(student, game, staged)
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
            data["cases_done"], data["cases_total"] = running  # public cases only, of as many as the result lists
        if row.state == DONE and full:
            shown = self._shown(row)
            if shown is not None:
                staged = self._staged(row, shown)
                data["result"] = views.student_summary(shown, staged)
                data["text"] = views.student_text(shown, staged)
                data["report"] = f"/api/submissions/{row.id}/report"
                data["own_game"] = own.student_view(self.s.store.own(row.id), self.s.counterexamples)
        return data

    def _moment(self, row) -> tuple:
        """What a student's long poll waits on: the state, and once done whether its own game is
        still being searched (the poll is answered when the search ends)."""
        record = self.s.store.own(row.id) if row.state == DONE else None
        return row.state, record is not None and record["status"] == own.SEARCHING

    def _staged(self, row, shown: views.Shown) -> "hidden.HiddenView | None":
        """What the game's `hidden_stages:` show the student now of the failed hidden cases (None:
        the game has no stages, so the count alone, as ever). Made from the instructor's result,
        here, at each request: nothing beyond the stage is sent."""
        spec = self.s.games[row.game].spec
        if not spec.hidden_stages or not shown.hidden:
            return None
        now = stages.at(spec.hidden_stages)
        return hidden.view(self.s.store.result(row.id) if now.show != stages.COUNT else None, shown.hidden, now)

    def _shown(self, row) -> views.Shown | None:
        """What the student was shown when the public cases were done (kept as it was then);
        for a submission graded before that was kept apart, made from its whole result."""
        kept = self.s.store.shown(row.id)
        if kept is not None:
            return views.Shown.from_json(kept)
        result = self.s.store.result(row.id)
        return None if result is None else views.shown(result, self.s.games[row.game].spec)

    async def status(self, request: Request) -> Response:
        """The submission's state; with `?wait=SECONDS` (at most LONGEST_WAIT) answered once it
        changes, so a client follows it without polling in a loop of its own. A held poll is an
        await on the store's change event, no thread; a student holds at most MAX_WAITS at once."""
        try:
            wait = min(float(request.query_params.get("wait", 0)), LONGEST_WAIT)
        except ValueError:
            return refuse(400, "wait: a number of seconds")
        if wait != wait:  # NaN
            return refuse(400, "wait: a number of seconds")
        student = self._student(request)
        if wait <= 0:
            row = await run_in_threadpool(self._own, request)
            return JSONResponse(await run_in_threadpool(self._describe, row), headers=SECURITY_HEADERS)
        if self.s.waits.get(student, 0) >= MAX_WAITS:  # refused before any other work
            return refuse(429, f"at most {MAX_WAITS} waiting requests at once; wait for one's answer",
                          {"Retry-After": "1"})
        self.s.waits[student] = self.s.waits.get(student, 0) + 1  # taken with the check: no await between
        try:
            row = await run_in_threadpool(self._own, request)
            if await run_in_threadpool(self._moment, row) != (DONE, False):
                row = await self._changed(request, row, wait)
        finally:
            self.s.waits[student] -= 1
        return JSONResponse(await run_in_threadpool(self._describe, row), headers=SECURITY_HEADERS)

    async def _changed(self, request: Request, row, wait: float):
        """The row once its state is no longer the one it had, after `wait` seconds, or as it is
        when the client goes away (its poll no longer counts then)."""
        loop = asyncio.get_running_loop()
        end, state = loop.time() + wait, await run_in_threadpool(self._moment, row)
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            while loop.time() < end and not gone.done():
                event = self.s.changes.event  # taken before the row is read: a change after it sets this one
                row = await run_in_threadpool(self._own, request)
                if await run_in_threadpool(self._moment, row) != state:
                    break
                changed = asyncio.ensure_future(event.wait())
                try:
                    done, _ = await asyncio.wait({changed, gone}, timeout=max(0.0, end - loop.time()),
                                                 return_when=asyncio.FIRST_COMPLETED)
                finally:
                    changed.cancel()
                if changed not in done:  # the time is up, or the client is gone
                    break
        finally:
            gone.cancel()
        return row

    async def mine(self, request: Request) -> Response:
        student = self._student(request)
        rows = await run_in_threadpool(self.s.store.of_student, student)
        described = await run_in_threadpool(lambda: [self._describe(r, full=False) for r in rows])
        return JSONResponse({"student": student, "submissions": described}, headers=SECURITY_HEADERS)

    async def report(self, request: Request) -> Response:
        row = await run_in_threadpool(self._own, request)
        shown = await run_in_threadpool(self._shown, row) if row.state == DONE else None
        if shown is None:
            return refuse(409, "not graded yet")
        staged = await run_in_threadpool(self._staged, row, shown)
        text = await run_in_threadpool(views.student_html, shown, staged)
        return HTMLResponse(text, headers={**SECURITY_HEADERS, "Content-Security-Policy": REPORT_POLICY})

    # --- the instructor ----------------------------------------------------------

    def _instructor(self, request: Request) -> None:
        if not self.s.roster.is_instructor(_bearer(request) or _basic_password(request)):
            raise HTTPException(401, "the instructor token is needed", {"WWW-Authenticate": 'Basic realm="instructor"'})

    def _latest(self, game: str):
        """Each student's latest submission whose whole result is written (hidden cases included)."""
        latest = {}
        for row in self.s.store.everything():
            if row.game == game and row.state == DONE and self.s.store.result_path(row.id).exists():
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
        policy = self.s.counterexamples
        if policy.on:
            text = views.with_own_games(text, await run_in_threadpool(self.s.store.own_counts, game), policy)
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

    async def graded(self, request: Request) -> Response:
        """A submission as the instructor sees it: `graded` once its whole result is written
        (its hidden cases run after its student is shown the public ones); with `?wait=SECONDS`
        (at most LONGEST_WAIT) answered once it is."""
        self._instructor(request)
        try:
            ident = int(request.path_params["ident"])
            wait = min(float(request.query_params.get("wait", 0)), LONGEST_WAIT)
        except ValueError:
            return refuse(400, "a submission number, and wait: a number of seconds")
        loop = asyncio.get_running_loop()
        end = loop.time() + (wait if wait == wait else 0.0)
        while True:
            event = self.s.graded.event  # taken before the file is looked at: a result written after it sets this one
            row = await run_in_threadpool(self.s.store.get, ident)
            if row is None:
                raise HTTPException(404, "no such submission")
            graded = await run_in_threadpool(self.s.store.result_path(ident).exists)
            if graded or loop.time() >= end:
                break
            try:
                async with asyncio.timeout(max(0.0, end - loop.time())):
                    await event.wait()
            except TimeoutError:
                pass
        data = {"id": row.id, "student": row.student, "game": row.game, "state": row.state, "graded": graded}
        if graded:
            data["report"] = f"/instructor/submissions/{row.id}/report"
        return JSONResponse(data, headers=SECURITY_HEADERS)

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
            record = self.s.store.own(row.id)
            if record is not None:
                data["own_game"] = record
            out.append(data)
        return JSONResponse({"student": student, "submissions": out}, headers=SECURITY_HEADERS)

    async def own_games(self, request: Request) -> Response:
        """Per game: the own games shown, how many next submissions no longer differ on theirs,
        the reference's turns shown, and the limits."""
        self._instructor(request)
        game = self._game(request)
        counts = await run_in_threadpool(self.s.store.own_counts, game)
        policy = self.s.counterexamples
        return JSONResponse({"game": game, "per_day": policy.per_day, "turns_per_day": policy.turns, **counts},
                            headers=SECURITY_HEADERS)

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


async def _disconnected(request: Request) -> None:
    """Returns when the client of a request without a body closes its connection."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


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
              Route("/instructor/counterexamples", app.own_games),
              Route("/instructor/students/{student}", app.history),
              Route("/instructor/submissions/{ident}", app.graded),
              Route("/instructor/submissions/{ident}/report", app.instructor_report)]

    def started():
        settings.changes.loop = asyncio.get_running_loop()
        settings.store.listeners.append(settings.changes.notify)
        settings.graded.loop = asyncio.get_running_loop()
        settings.store.graded.append(settings.graded.notify)
        if settings.worker:
            settings.worker.start()

    def stopped():
        settings.takers.shutdown(wait=True)
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
