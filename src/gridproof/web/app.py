"""The FastAPI app: the player page, its static ES modules, and a JSON API that only
translates for the service layer (`service`, `play`, `bank`).

Any `GridproofError` and any malformed request is HTTP 400 `{"error": message}`; a board
that cannot be generated in time is 503 with the generator's health record. Every solver
call runs under a deadline, off the event loop: generation in a worker process killed
when the client disconnects, hints and checks in a thread whose deadline is cancelled then.
The OpenAPI schema is at `/openapi.json`; no documentation page that would load a CDN.

Settings come from the environment (read at start-up):
`GRIDPROOF_DB` (the bank file, see `gridproof.bank`), `GRIDPROOF_FILL` (`0` turns the
background filler off), `GRIDPROOF_FILL_TARGET` (boards per key, default 3),
`GRIDPROOF_FILL_MAX_SIDE` (largest side stocked, default 10), `GRIDPROOF_WORKERS`
(generation processes at once, default up to 4), `GRIDPROOF_GENERATE_S` (the longest
on-demand generation deadline, default 60).
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from gridproof import bank, play, service, workshop
from gridproof.core import registry
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, GridproofError, quote
from gridproof.version import __version__
from gridproof.web import workers
from gridproof.web.guard import Guard

MAX_SOURCE_CHARS = 100_000
WEB_MAX_SIDE = 100
"""The largest side of a board the web plays, counts or edits: every solver call on it fits
its deadline and the memory of one request (the command line reads up to
`Genre.largest`; the web converts and validates those too)."""
MAX_DEADLINE_S = 10.0
MAX_LIMIT = 100
MAX_GRID_ROWS = 1000
ANSWER_S = 5.0
"""The budget for counting a puzzle's solutions when the bank does not know them."""
HINT_S = 3.0
"""The budget for finding the next deduction."""
VERDICT_S = 4.0
"""The default budget of the workshop's live verdict (at most `MAX_DEADLINE_S`)."""
REPAIR_S = 8.0
UNIQUE_S = 20.0
MAX_REPAIR_S = 30.0
"""The workshop's suggestions and "Make unique" may take longer than a count."""
KILL_GRACE_S = 2.0
"""How long a generation worker may outlive its own deadline before it is killed (what a
worker needs to notice an expired deadline, say so and end)."""

log = logging.getLogger("gridproof.web")

Source = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_SOURCE_CHARS,
        description="a puzzle code, a puzz.link URL, a JSON puzzle, a Pattern game ID or "
        ".non text (no file paths); the largest boards read: "
        f"{service.largest_boards()}",
    ),
]
Rows = Annotated[
    list[Annotated[str, Field(max_length=MAX_GRID_ROWS)]],
    Field(min_length=1, max_length=MAX_GRID_ROWS),
]


@dataclass
class Settings:
    db: str
    fill: bool = True
    fill_target: int = 3
    fill_max_side: int = 10
    workers: int = 4
    generate_s: float = 60.0

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            db=str(bank.default_path()),
            fill=env.get("GRIDPROOF_FILL", "1").strip() not in ("0", "no", "false", "off"),
            fill_target=int(env.get("GRIDPROOF_FILL_TARGET", "3")),
            fill_max_side=int(env.get("GRIDPROOF_FILL_MAX_SIDE", "10")),
            workers=int(env.get("GRIDPROOF_WORKERS", str(min(4, os.cpu_count() or 1)))),
            generate_s=float(env.get("GRIDPROOF_GENERATE_S", "60")),
        )


@dataclass
class Context:
    """What the app holds while it runs."""

    settings: Settings
    bank: bank.Bank
    answers: play.Answers
    processes: workers.Processes
    filler: workers.Filler | None = None

    @classmethod
    def start(cls, settings: Settings) -> Context:
        store = bank.Bank(settings.db)
        workers.warm()
        context = cls(settings, store, play.Answers(store), workers.Processes(settings.workers))
        if settings.fill:
            plan = bank.fill_plan(settings.fill_max_side)
            context.filler = workers.Filler(
                settings.db, plan, settings.fill_target, bank.GENERATE_SECONDS
            )
            context.filler.start()
        return context

    def stop(self) -> None:
        self.processes.kill_all()
        if self.filler is not None:
            self.filler.stop()


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    outer = getattr(app.state, "context", None)  # an app served twice at once (tests)
    context = Context.start(Settings.from_env())
    app.state.context = context
    try:
        yield
    finally:
        context.stop()
        app.state.context = outer


app = FastAPI(
    title="gridproof",
    version=__version__,
    description="Pencil puzzles proven to have exactly one solution, and a player for them.",
    docs_url=None,
    redoc_url=None,
    lifespan=_lifespan,
)
app.mount("/static", StaticFiles(packages=[("gridproof.web", "static")]), name="static")
app.add_middleware(Guard)


def _context(request: Request) -> Context:
    context: Context | None = getattr(request.app.state, "context", None)
    if context is None:  # used without its lifespan (a bare ASGI call): start lazily
        context = Context.start(Settings.from_env())
        request.app.state.context = context
    return context


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        """One error for unknown keys, however many (pydantic would make one per key)."""
        if isinstance(data, dict):
            unknown = [key for key in data if key not in cls.model_fields]
            if unknown:
                more = f" and {len(unknown) - 1} more" if len(unknown) > 1 else ""
                known = ", ".join(cls.model_fields)
                raise ValueError(f"unknown key {quote(str(unknown[0]))}{more}; keys: {known}")
        return data


class CountRequest(_Body):
    source: Source
    limit: int = Field(2, ge=2, le=MAX_LIMIT, description="stop after this many solutions")
    deadline_s: float = Field(
        5.0, gt=0, allow_inf_nan=False, description=f"seconds; at most {MAX_DEADLINE_S:g}"
    )


class ConvertRequest(_Body):
    source: Source
    to: str = Field(
        min_length=1,
        max_length=40,
        description="code, url, json, or a genre's own format (pzprv3; Nonogram: non, tatham)",
    )


class ValidateRequest(_Body):
    source: Source
    grid: Rows = Field(description="rows of text, '#' shaded ('+' and '.' are not)")


class NewRequest(_Body):
    genre: str = Field(min_length=1, max_length=40, description="a genre name, see /api/catalog")
    size: str = Field(
        min_length=1, max_length=20, description="WIDTHxHEIGHT, like 5x5 (see /api/catalog)"
    )
    difficulty: str | None = Field(
        None, max_length=40, description="one of the genre's difficulties; default easy"
    )
    exclude: list[Annotated[str, Field(max_length=MAX_SOURCE_CHARS)]] = Field(
        default_factory=list,
        max_length=100,
        description="codes not to give (the puzzle being replaced by New game)",
    )
    seed: int | None = Field(
        None, ge=0, lt=2**31, description="generate exactly this seed (skips the bank)"
    )
    options: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=40)]] = (
        Field(
            default_factory=dict,
            max_length=8,
            description="the genre's generator settings with choices (see /api/catalog); "
            "a board with other than the defaults is generated now, not taken from the bank",
        )
    )
    deadline_s: float = Field(
        30.0,
        gt=0,
        allow_inf_nan=False,
        description="seconds for generating when the bank has none (capped by the server)",
    )


class PlayRequest(_Body):
    code: Source
    marks: Rows = Field(description=play.MARKS_HELP)
    version: int = Field(0, ge=0, le=2**53, description="the client's state version, echoed back")
    reveal: bool = Field(False, description="also list the cells whose marks are wrong")


class WorkshopRequest(_Body):
    source: Source
    keep: Rows | None = Field(
        None, description="the solution the setter pins, as rows ('#' shaded; default: none)"
    )
    deadline_s: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description=f"seconds (verdict at most {MAX_DEADLINE_S:g}, the rest {MAX_REPAIR_S:g})",
    )
    limit: int = Field(6, ge=1, le=20, description="how many edits to list (repair)")
    version: int = Field(0, ge=0, le=2**53, description="the editor's board version, echoed")


class KeepRequest(_Body):
    source: Source


# --- errors ------------------------------------------------------------------------------


def _error(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status)


@app.exception_handler(GenerationError)
async def _generation_error(request: Request, error: GenerationError) -> JSONResponse:
    return _error(503, str(error), health=error.health)


@app.exception_handler(GridproofError)
async def _gridproof_error(request: Request, error: GridproofError) -> JSONResponse:
    return _error(400, str(error))


@app.exception_handler(workers.WorkerFailed)
async def _worker_failed(request: Request, error: workers.WorkerFailed) -> JSONResponse:
    log.error("generation worker failed: %s", error)
    return _error(503, f"the generator failed: {error}")


@app.exception_handler(workers.Gone)
async def _gone(request: Request, error: workers.Gone) -> JSONResponse:
    return _error(503, "the request was abandoned by the client")


@app.exception_handler(RequestValidationError)
async def _invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    problems = [_describe(problem) for problem in error.errors()]
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return _error(400, "invalid request: " + "; ".join(problems[:3]) + more)


@app.exception_handler(HTTPException)
async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    return _error(error.status_code, str(error.detail))


def _describe(problem: Any) -> str:
    """`limit: Input should be greater than or equal to 2` from a pydantic error record."""
    loc = tuple(problem.get("loc", ()))
    if problem.get("type") == "json_invalid":
        at = f" at character {loc[1]}" if len(loc) > 1 else ""
        return f"the body is not valid JSON{at} ({problem.get('ctx', {}).get('error', 'syntax')})"
    where = ".".join(_key(part) for part in loc if part not in ("body", "query"))
    message = " ".join(str(problem.get("msg", "is invalid")).split())
    if where:
        return f"{where}: {message}"
    if problem.get("type") == "value_error":
        return message.removeprefix("Value error, ")
    if problem.get("type") == "missing":
        return "the body is missing: send a JSON object"
    return "the body must be a JSON object sent as application/json"


def _key(part: object) -> str:
    """A key of the request as an error message names it: quoted unless it is a plain name
    (a key the client made up may hold line breaks or anything else)."""
    text = str(part)
    return text if text.isidentifier() or text.isdigit() else quote(text)


@app.exception_handler(MemoryError)
async def _out_of_memory(request: Request, error: MemoryError) -> JSONResponse:
    log.error("a request ran out of memory: %s %s", request.method, request.url.path)
    return _error(503, "this board needs more memory than the server gives one request")


@app.exception_handler(sqlite3.Error)
async def _bank_error(request: Request, error: sqlite3.Error) -> JSONResponse:
    log.error("the puzzle bank failed: %s", error)
    return _error(503, f"the puzzle bank cannot be read: {' '.join(str(error).split())}")


# --- the page ----------------------------------------------------------------------------


@cache
def _page() -> str:
    return resources.files("gridproof.web").joinpath("static/index.html").read_text("utf-8")


@app.get("/", response_class=HTMLResponse, include_in_schema=False)
def index() -> HTMLResponse:
    return HTMLResponse(_page())  # the security headers come with every response (Guard)


# --- the API: puzzles ----------------------------------------------------------------------


@app.get("/api/genres")
def genres() -> list[dict[str, Any]]:
    """Every registered genre: name, title and the rungs of its ladder."""
    return [entry.to_json() for entry in service.genre_list()]


@app.get("/api/catalog")
def catalog() -> list[dict[str, Any]]:
    """Every genre as the player offers it: title, onboarding lessons (in layers), sizes,
    difficulties and the default difficulty."""
    return [offer.to_json() for offer in play.catalog()]


@app.post("/api/new")
async def new_puzzle(body: NewRequest, request: Request) -> dict[str, Any]:
    """A puzzle of `genre`, `size` and `difficulty` that is not in `exclude`: from the bank
    when it has one (instant), else generated now under a deadline in a worker process
    (killed if the client disconnects) and kept in the bank. Never the solution.
    503 with the generator's health when no board is proven in time."""
    context = _context(request)
    key = bank.check_key(body.genre, body.size, body.difficulty)
    options = _options(key.genre, body.options)
    if body.seed is None and not options:
        record = await run_in_threadpool(context.bank.pick, key, body.exclude)
        if record is not None:
            return _view_of(record, "bank")
    deadline = Deadline(min(body.deadline_s, context.settings.generate_s))
    for attempt in range(3):
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31 - 1) + 1

        def budget(seed: int = seed) -> tuple[Any, ...]:
            # what is left of the request's own deadline once a worker is free (the pool's
            # limit also holds the grace before a worker is killed: not the generator's)
            return (key, seed, time.monotonic() + max(0.0, deadline.remaining()), options or None)

        record = await context.processes.run(
            workers.record_until,
            budget,
            max(0.0, deadline.remaining()) + KILL_GRACE_S,
            request.is_disconnected,
        )
        if not options:  # the bank's keys hold no options: such a board is not served again
            await run_in_threadpool(context.bank.add, record)
        if record.code not in body.exclude or body.seed is not None or attempt == 2:
            return _view_of(record, "generated")
    raise AssertionError("unreachable")  # pragma: no cover


def _options(genre_name: str, asked: dict[str, str]) -> dict[str, str]:
    """The player's choices among the genre's options, without those at their default;
    `CodeError` naming what the genre offers otherwise."""
    offered = {o.name: o for o in registry.genre(genre_name).options if o.choices}
    chosen = {}
    for name, value in asked.items():
        option = offered.get(name)
        if option is None:
            names = ", ".join(offered) or "none"
            raise CodeError(f"{genre_name} has no option {quote(name)} to choose; options: {names}")
        if value not in (option.choices or ()):
            choices = ", ".join(map(str, option.choices or ()))
            raise CodeError(f"option {name} is {quote(value)}, not one of {choices}")
        if value != option.default:
            chosen[name] = value
    return chosen


@app.get("/api/boards")
def boards(
    request: Request,
    genre: Annotated[str, Query(max_length=40)],
    size: Annotated[str, Query(max_length=20)],
    difficulty: Annotated[str, Query(max_length=40)],
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """The bank's boards of one genre, size and difficulty that new games serve, in the
    order they were banked (codes, grade and score; never a seed or a solution)."""
    key = bank.check_key(genre, size, difficulty)
    total, records = _context(request).bank.listed(
        key.genre, key.width, key.height, key.difficulty, offset, limit
    )
    listed = [
        {
            "code": r.code,
            "genre": r.genre,
            "size": r.key.size,
            "difficulty": r.difficulty,
            "score": r.score,
        }
        for r in records
    ]
    return {"total": total, "offset": offset, "boards": listed}


DAILY = ((10, 10), "medium")
"""The puzzle of the day: a board of this size and grade per genre (where offered)."""


@app.get("/api/daily")
def daily(request: Request) -> dict[str, Any]:
    """One board per genre for today's date (UTC), the same for everyone all day: chosen
    from the bank by a hash of the date (genres with no board banked there are left out)."""
    today = time.strftime("%Y-%m-%d", time.gmtime())
    store = _context(request).bank
    chosen = []
    for name, genre in sorted(registry.genres().items()):
        (width, height), grade = DAILY
        if grade not in genre.offered(width, height):
            grade = bank.default_difficulty(genre, width, height)
        total, _ = store.listed(name, width, height, grade, 0, 1)
        if not total:
            continue
        digest = hashlib.blake2b(f"{today}/{name}".encode(), digest_size=8).digest()
        _, (record,) = store.listed(name, width, height, grade, int.from_bytes(digest) % total, 1)
        chosen.append(
            {"genre": name, "code": record.code, "size": record.key.size, "difficulty": grade}
        )
    return {"date": today, "boards": chosen}


@app.get("/api/puzzle")
async def puzzle(
    request: Request,
    code: Annotated[
        str,
        Query(
            min_length=1,
            max_length=MAX_SOURCE_CHARS,
            description="a puzzle code, a puzz.link URL or a Pattern game ID "
            "(a share link's `code`)",
        ),
    ],
) -> dict[str, Any]:
    """The puzzle of `code` (or of a puzz.link URL, to import it), ready to play: its
    data, canonical code, and how it was verified (the bank's record, or a count now)."""
    context = _context(request)
    item = _first(code)
    genre, value = item.genre, item.puzzle
    record = await run_in_threadpool(context.bank.find, genre.format_code(value))
    if record is not None:
        return _view_of(record, "bank")

    def count(deadline: Deadline) -> dict[str, Any]:
        answer = context.answers.get(genre, value, deadline)
        return play.view(genre, value, "code", answer=answer).to_json()

    return await workers.in_thread(count, ANSWER_S, request.is_disconnected)


def _view_of(record: bank.Record, origin: str) -> dict[str, Any]:
    genre = registry.genre(record.genre)
    return play.view(genre, genre.parse_code(record.code), origin, record=record).to_json()


@app.get("/api/bank")
def bank_summary(request: Request) -> dict[str, Any]:
    """How many boards the bank holds and how many failed, per genre, size and difficulty;
    whether the background filler is still working."""
    context = _context(request)
    return {
        "keys": context.bank.summary(),
        "filling": context.filler is not None and context.filler.running,
    }


# --- the API: playing ----------------------------------------------------------------------


@app.post("/api/hint")
async def hint(body: PlayRequest, request: Request) -> dict[str, Any]:
    """The next step from the player's marks. `status` is `mistakes` (how many marks
    contradict the solution; which only with `reveal`), `step` (a deduction: its `rule`,
    `title`, `text`, the `cells` to highlight and the cells it decides), `solved`,
    `reveal` (no rule applies: one solution cell), `contradiction`, `timeout` or `stuck`.
    `version` echoes the request's so the client can drop answers to older states."""
    return await _play(body, request, _hint_work)


@app.post("/api/check")
async def check(body: PlayRequest, request: Request) -> dict[str, Any]:
    """How many marks contradict the solution (`mistakes`; `cells` only with `reveal`) and
    whether the shaded cells satisfy every rule (`solved`, by the validator)."""
    return await _play(body, request, _check_work)


_Work = Callable[
    [service.Loaded, play.Marks, play.Answers, bool, Deadline], play.Hint | play.Checked
]


def _hint_work(
    item: service.Loaded, marks: play.Marks, answers: play.Answers, reveal: bool, d: Deadline
) -> play.Hint:
    answer = answers.get(item.genre, item.puzzle, d.within(ANSWER_S))
    return play.hint(item.genre, item.puzzle, marks, answer, d.within(HINT_S), reveal)


def _check_work(
    item: service.Loaded, marks: play.Marks, answers: play.Answers, reveal: bool, d: Deadline
) -> play.Checked:
    answer = answers.get(item.genre, item.puzzle, d.within(ANSWER_S))
    return play.check(item.genre, item.puzzle, marks, answer, reveal)


async def _play(body: PlayRequest, request: Request, work: _Work) -> dict[str, Any]:
    context = _context(request)
    item = _first(body.code)
    marks = play.parse_marks(item.puzzle, body.marks)

    def run(deadline: Deadline) -> dict[str, Any]:
        return work(item, marks, context.answers, body.reveal, deadline).to_json()

    result = await workers.in_thread(run, ANSWER_S + HINT_S, request.is_disconnected)
    return {"version": body.version, "code": item.genre.format_code(item.puzzle), **result}


# --- the API: the workshop ----------------------------------------------------------------


@app.post("/api/workshop/verdict")
async def workshop_verdict(body: WorkshopRequest, request: Request) -> dict[str, Any]:
    """The live verdict on a board being edited: `outcome` (`unique`, `multiple`, `none` or
    `timeout`), `solutions` (unique: the solution; multiple: the pinned or first one and a
    rival), `differ` (the cells where those two differ), `reason` (none: the contradiction
    in the ladder's words, with its cells), `grade`, `score` and `path` (unique: the
    ladder's steps from the empty board), `text` (one sentence) and `version` echoed."""
    seconds = min(body.deadline_s or VERDICT_S, MAX_DEADLINE_S)
    return await _workshop(body, request, seconds, workshop.examine)


@app.post("/api/workshop/repair")
async def workshop_repair(body: WorkshopRequest, request: Request) -> dict[str, Any]:
    """The verdict plus `edits`: up to `limit` single edits, each with its `text`, `cells`,
    `code`, `puzzle` (the genre's JSON object), `keep` (the pinned solution after it),
    `outcome` and `grade`; unique ones first. `complete` is false when the deadline cut
    the list short."""
    seconds = min(body.deadline_s or REPAIR_S, MAX_REPAIR_S)

    def run(loaded: service.Loaded, keep: int | None, d: Deadline) -> workshop.Repairs:
        return workshop.suggest(loaded, keep, d, body.limit)

    return await _workshop(body, request, seconds, run)


@app.post("/api/workshop/unique")
async def workshop_unique(body: WorkshopRequest, request: Request) -> dict[str, Any]:
    """ "Make unique": counterexamples walked until the count is one; the verdict on the
    result plus its `puzzle`, `keep`, `changed` (how many edits), `edits` (their texts),
    `visited` (boards counted), `stopped` (why it is not unique yet, naming cells; null
    once unique) and `made_text`. A call that stops returns the board reached: send that
    `puzzle` and `keep` again to go on."""
    seconds = min(body.deadline_s or UNIQUE_S, MAX_REPAIR_S)
    return await _workshop(body, request, seconds, workshop.make_unique)


@app.post("/api/workshop/minimize")
async def workshop_minimize(body: WorkshopRequest, request: Request) -> dict[str, Any]:
    """For a unique board, the verdict plus `spares`: the givens it can lose one at a time
    and stay unique, each with its `text` and `cells`; `complete` is false when the
    deadline cut the checks short, `minimize_text` says what was found."""
    seconds = min(body.deadline_s or REPAIR_S, MAX_REPAIR_S)
    return await _workshop(body, request, seconds, workshop.minimize)


@app.post("/api/workshop/keep")
async def workshop_keep(body: KeepRequest, request: Request) -> dict[str, Any]:
    """Keep a unique board in the bank with provenance `made by hand` (a board that is not
    unique is a 400 saying what it is). Kept boards are never served as new games."""
    context = _context(request)
    loaded = _first(body.source)

    def run(deadline: Deadline) -> dict[str, Any]:
        record = bank.hand_made_record(loaded.genre, loaded.puzzle, deadline)
        stored = context.bank.add(record)
        text = "Kept in the bank" if stored else "The bank already holds this puzzle"
        return {
            "code": record.code,
            "stored": stored,
            "outcome": record.verdict,
            "grade": record.difficulty,
            "score": record.score,
            "provenance": bank.MADE_BY_HAND,
            "text": f"{text} ({record.difficulty}, score {record.score:g}).",
        }

    return await workers.in_thread(run, MAX_DEADLINE_S, request.is_disconnected)


_Workshop = Callable[[service.Loaded, int | None, Deadline], Any]


async def _workshop(
    body: WorkshopRequest, request: Request, seconds: float, work: _Workshop
) -> dict[str, Any]:
    loaded = _first(body.source)
    keep = workshop.parse_keep(loaded, body.keep)

    def run(deadline: Deadline) -> dict[str, Any]:
        result: dict[str, Any] = work(loaded, keep, deadline).to_json()
        return result

    result = await workers.in_thread(run, seconds, request.is_disconnected)
    return {"version": body.version, **result}


# --- the API: tools ------------------------------------------------------------------------


@app.post("/api/count")
async def count(body: CountRequest, request: Request) -> dict[str, Any]:
    """Count the solutions of the first puzzle in `source` (deadline at most 10 s)."""
    deadline_s = min(body.deadline_s, MAX_DEADLINE_S)

    item = _first(body.source)

    def work(deadline: Deadline) -> dict[str, Any]:
        return service.count(item, body.limit, deadline).to_json()

    return await workers.in_thread(work, deadline_s, request.is_disconnected)


@app.post("/api/convert")
def convert(body: ConvertRequest) -> dict[str, Any]:
    """The first puzzle in `source` as a code, a puzz.link URL, JSON text or one of its
    genre's own formats (`pzprv3`, `non`, `tatham`); 400 when the format cannot hold the board."""
    item = _first(body.source, solving=False)
    return {"id": item.id, "to": body.to, "result": service.convert(item, body.to)}


@app.post("/api/validate")
def validate(body: ValidateRequest) -> dict[str, Any]:
    """The rules `grid` breaks in the first puzzle in `source`; `solved` when none. The
    player sends its marks here: completion is the validator's verdict, not a comparison
    with a stored answer."""
    item = _first(body.source, solving=False)
    violations = [service.violation_to_json(v) for v in service.validate(item, body.grid)]
    return {"id": item.id, "solved": not violations, "violations": violations}


def _first(source: str, *, solving: bool = True) -> service.Loaded:
    """The first puzzle of `source`; for a solver call, refused when it is larger than the
    web solves (converting and validating read every size the parsers do)."""
    item = service.load(source, files=False)[0]
    width, height = item.puzzle.width, item.puzzle.height
    if solving and max(width, height) > WEB_MAX_SIDE:
        raise CodeError(
            f"a {width}x{height} board is larger than the web serves "
            f"({WEB_MAX_SIDE}x{WEB_MAX_SIDE}); the command line reads boards up to "
            f"{service.largest_boards()}"
        )
    return item
