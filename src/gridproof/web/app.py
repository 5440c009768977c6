"""The FastAPI app: the player page, its static ES modules, and a JSON API that only
translates for the service layer (`service`, `play`, `bank`).

Any `GridproofError` and any malformed request is HTTP 400 `{"error": message}`; a board
that cannot be generated in time is 503 with the generator's health record. Every solver
call runs under a deadline, off the event loop: generation in a worker process killed
when the client disconnects, hints and checks in a thread whose deadline is cancelled then.
The OpenAPI schema is at `/openapi.json`; no documentation page that would load a CDN.

Settings come from the environment (read at start-up):
`GRIDPROOF_DB` (the bank file, see `gridproof.bank`), `GRIDPROOF_FILL` (`0` turns the
background filler off), `GRIDPROOF_FILL_TARGET` (the stock of unserved boards kept per
setting; default by size, `bank.STOCK`), `GRIDPROOF_FILL_MAX_SIDE` (largest side stocked,
default 30: every offered size), `GRIDPROOF_WORKERS`
(generation processes at once, default up to 4), `GRIDPROOF_GENERATE_S` (the longest
on-demand generation deadline, default 60).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from gridproof import bank, play, service, workshop
from gridproof.core import registry
from gridproof.core.contract import Health
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, GridproofError, quote
from gridproof.version import __version__
from gridproof.web import workers
from gridproof.web.guard import Guard
from gridproof.web.limits import Limits
from gridproof.web.reads import Read, Reads

MAX_SOURCE_CHARS = 100_000
MAX_SEEN = 4096
"""The most fingerprints a New game's `seen` may hold (the page keeps at most this many)."""
NEW_ATTEMPTS = 3
"""Seeds a New game tries at most, within its deadline, for a board the player has not
seen (a fresh random seed each, also after a seed that gave no board in time)."""
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
READ_S = 5.0
"""The deadline of reading a source to convert or validate it (a Pattern ID's prefilled
squares are checked by a count)."""
KILL_GRACE_S = 2.0
"""How long a generation worker may outlive its request's deadline before it is killed
(what a worker needs to notice an expired deadline, say so and end), in the background:
the request has had its 503 on time."""

log = logging.getLogger("gridproof.web")
_FINGERPRINT = re.compile(r"[0-9a-f]{8}")
T = TypeVar("T")

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
    fill_target: int | None = None
    """The stock kept per key (None: `bank.stock_depth`, by size)."""
    fill_max_side: int = 30
    workers: int = 4
    generate_s: float = 60.0

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            db=str(bank.default_path()),
            fill=env.get("GRIDPROOF_FILL", "1").strip() not in ("0", "no", "false", "off"),
            fill_target=int(target) if (target := env.get("GRIDPROOF_FILL_TARGET")) else None,
            fill_max_side=int(env.get("GRIDPROOF_FILL_MAX_SIDE", "30")),
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
            depth = settings.fill_target if settings.fill_target is not None else bank.stock_depth
            context.filler = workers.Filler(settings.db, plan, depth, bank.FILL_SECONDS)
            context.filler.start()
        return context

    def served(self) -> None:
        """A board was served: the filler tops the stock up."""
        if self.filler is not None:
            self.filler.nudge()

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
app.add_middleware(Limits)  # inside the Guard: a request for another host is refused first
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
    seen: list[Any] = Field(
        default_factory=list,
        description=f"at most {MAX_SEEN} fingerprints (FNV-1a 32 of a code's UTF-8 bytes, 8 "
        "lower-case hex digits: gridproof.core.codes.fingerprint) of boards this player has "
        "seen: not served again while an unseen one can be had in time",
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

    @field_validator("seen", mode="before")
    @classmethod
    def _fingerprints(cls, value: Any) -> Any:
        """Each entry 8 lower-case hex digits, at most `MAX_SEEN`: one message that quotes
        the first entry (or the count) that is wrong."""
        if not isinstance(value, list):
            return value  # pydantic says it is not a list
        if len(value) > MAX_SEEN:
            raise PydanticCustomError(
                "seen",
                "holds {n} entries, at most {most} are taken",
                {"n": len(value), "most": MAX_SEEN},
            )
        for index, entry in enumerate(value):
            if not (isinstance(entry, str) and _FINGERPRINT.fullmatch(entry)):
                shown = quote(entry[:40]) if isinstance(entry, str) else repr(entry)[:40]
                raise PydanticCustomError(
                    "seen",
                    "entry {index} {shown} is not a fingerprint: 8 lower-case hex digits, "
                    "like '811c9dc5'",
                    {"index": index, "shown": shown},
                )
        return value


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
    response = _error(error.status_code, str(error.detail))
    response.headers.update(error.headers or {})  # a 405's Allow, say
    return response


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


@app.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
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
    """A puzzle of `genre`, `size`, `difficulty` and `options` that the player has not seen:
    code not in `exclude`, fingerprint not in `seen` (a hint, used for nothing else). From
    the bank when it has one (instant; boards nobody was served yet first), else generated
    now under a deadline in a worker process (killed if the client disconnects; up to
    `NEW_ATTEMPTS` seeds while the ones made are seen) and kept in the bank. Only when no
    unseen board can be had in time is a seen one served, with `repeat` true. Never the
    solution. 503 with the generator's health when no board is proven in time."""
    context = _context(request)
    key = bank.check_key(body.genre, body.size, body.difficulty, body.options)
    exclude, seen = set(body.exclude), set(body.seen)
    if body.seed is None:
        record = await _bank_or_none(context.bank.pick, key, exclude, seen)
        if record is not None:
            context.served()
            return _view_of(record, "bank", repeat=False)
    deadline = Deadline(min(body.deadline_s, context.settings.generate_s))
    made: bank.Record | None = None
    failure: Exception | None = None
    for _ in range(1 if body.seed is not None else NEW_ATTEMPTS):
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31 - 1) + 1
        try:
            made = await _generated(context, request, key, seed, deadline)
        except (GenerationError, workers.WorkerFailed) as error:
            failure = error
            if deadline.remaining() <= 0:
                break
            continue
        if body.seed is not None or not _seen(made, exclude, seen):
            context.served()
            return _view_of(made, "generated", repeat=False)
        if deadline.remaining() <= 0:
            break
    # nothing unseen in time: a board the player has seen, the bank's least served first
    record = await _bank_or_none(context.bank.pick, key, exclude)
    context.served()
    if record is not None:
        return _view_of(record, "bank", repeat=True)
    if made is not None:
        return _view_of(made, "generated", repeat=True)
    assert failure is not None
    raise failure


def _seen(record: bank.Record, exclude: set[str], seen: set[str]) -> bool:
    return record.code in exclude or record.fingerprint in seen


async def _generated(
    context: Context, request: Request, key: bank.Key, seed: int, deadline: Deadline
) -> bank.Record:
    """The board of `key` and `seed`, made in a worker within `deadline`, kept in the bank
    and counted served there."""

    def budget() -> tuple[Any, ...]:
        # what is left of the request's own deadline once a worker is free
        return (key, seed, time.monotonic() + max(0.0, deadline.remaining()))

    started = time.monotonic()
    try:
        record = await context.processes.run(
            workers.record_until,
            budget,
            max(0.0, deadline.remaining()),
            request.is_disconnected,
            grace_s=KILL_GRACE_S,  # after the answer, never before it
        )
    except workers.Overran as error:
        spent = Health(milliseconds=1000 * (time.monotonic() - started)).as_dict()
        raise GenerationError(
            f"no board was proven within the deadline ({error}); try again or allow longer",
            spent,
        ) from None

    await _bank_or_none(context.bank.add, record, True)  # served even if it cannot be kept
    return record


async def _bank_or_none(call: Callable[..., T], *args: Any) -> T | None:
    """`call(*args)` on the bank in the thread pool; None, logged, when the bank fails (a
    full disk, a file gone bad): a new game is then generated, and served unkept."""
    try:
        return await run_in_threadpool(call, *args)
    except sqlite3.Error as error:
        log.warning("the puzzle bank failed, going on without it: %s", error)
        return None


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
            "rating": r.rating,
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

    def count(deadline: Deadline) -> dict[str, Any]:
        read = _read(code, deadline)
        genre, value = read.item.genre, read.item.puzzle
        try:
            record = context.bank.find(read.code)
        except sqlite3.Error as error:  # a full disk: the puzzle is counted instead
            log.warning("the puzzle bank cannot be read, counting instead: %s", error)
            record = None
        if record is not None:
            return _view_of(record, "bank")
        answer = context.answers.get(genre, value, deadline, read.code)
        return play.view(genre, value, "code", answer=answer).to_json()

    return await workers.in_thread(count, ANSWER_S, request.is_disconnected)


def _view_of(record: bank.Record, origin: str, repeat: bool | None = None) -> dict[str, Any]:
    """The player's view of a banked board; a New game's also says whether it is a
    `repeat` (a board the player had seen: nothing unseen could be had in time)."""
    genre = registry.genre(record.genre)
    view = play.view(genre, genre.parse_code(record.code), origin, record=record).to_json()
    if repeat is not None:
        view["repeat"] = repeat
    return view


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


_Work = Callable[[Read, play.Marks, play.Answers, bool, Deadline], play.Hint | play.Checked]


def _hint_work(
    read: Read, marks: play.Marks, answers: play.Answers, reveal: bool, d: Deadline
) -> play.Hint:
    genre, puzzle = read.item.genre, read.item.puzzle
    answer = answers.get(genre, puzzle, d.within(ANSWER_S), read.code)
    return play.hint(genre, puzzle, marks, answer, d.within(HINT_S), reveal)


def _check_work(
    read: Read, marks: play.Marks, answers: play.Answers, reveal: bool, d: Deadline
) -> play.Checked:
    genre, puzzle = read.item.genre, read.item.puzzle
    answer = answers.get(genre, puzzle, d.within(ANSWER_S), read.code)
    return play.check(genre, puzzle, marks, answer, reveal)


async def _play(body: PlayRequest, request: Request, work: _Work) -> dict[str, Any]:
    context = _context(request)

    def run(deadline: Deadline) -> dict[str, Any]:
        read = _read(body.code, deadline)
        marks = play.parse_marks(read.item.puzzle, body.marks)
        result = work(read, marks, context.answers, body.reveal, deadline).to_json()
        return {"code": read.code, **result}

    result = await workers.in_thread(run, ANSWER_S + HINT_S, request.is_disconnected)
    return {"version": body.version, **result}


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

    def run(deadline: Deadline) -> dict[str, Any]:
        loaded = _first(body.source, deadline)
        record = bank.hand_made_record(loaded.genre, loaded.puzzle, deadline)
        stored = context.bank.add(record)
        text = "Kept in the bank" if stored else "The bank already holds this puzzle"
        return {
            "code": record.code,
            "stored": stored,
            "outcome": record.verdict,
            "grade": record.difficulty,
            "score": record.score,
            "rating": record.rating,
            "provenance": bank.MADE_BY_HAND,
            "text": f"{text} ({record.difficulty}, score {record.score:g}).",
        }

    return await workers.in_thread(run, MAX_DEADLINE_S, request.is_disconnected, long=True)


_Workshop = Callable[[service.Loaded, int | None, Deadline], Any]


async def _workshop(
    body: WorkshopRequest, request: Request, seconds: float, work: _Workshop
) -> dict[str, Any]:
    def run(deadline: Deadline) -> dict[str, Any]:
        loaded = _first(body.source, deadline)
        keep = workshop.parse_keep(loaded, body.keep)
        result: dict[str, Any] = work(loaded, keep, deadline).to_json()
        return result

    result = await workers.in_thread(run, seconds, request.is_disconnected, long=True)
    return {"version": body.version, **result}


# --- the API: tools ------------------------------------------------------------------------


@app.post("/api/count")
async def count(body: CountRequest, request: Request) -> dict[str, Any]:
    """Count the solutions of the first puzzle in `source` (deadline at most 10 s)."""
    deadline_s = min(body.deadline_s, MAX_DEADLINE_S)

    def work(deadline: Deadline) -> dict[str, Any]:
        item = _first(body.source, deadline)
        return service.count(item, body.limit, deadline).to_json()

    return await workers.in_thread(work, deadline_s, request.is_disconnected)


@app.post("/api/convert")
async def convert(body: ConvertRequest, request: Request) -> dict[str, Any]:
    """The first puzzle in `source` as a code, a puzz.link URL, JSON text or one of its
    genre's own formats (`pzprv3`, `non`, `tatham`); 400 when the format cannot hold the board."""

    def work(deadline: Deadline) -> dict[str, Any]:
        item = _first(body.source, deadline, solving=False)
        return {"id": item.id, "to": body.to, "result": service.convert(item, body.to)}

    return await workers.in_thread(work, READ_S, request.is_disconnected)


@app.post("/api/validate")
async def validate(body: ValidateRequest, request: Request) -> dict[str, Any]:
    """The rules `grid` breaks in the first puzzle in `source`; `solved` when none. The
    player sends its marks here: completion is the validator's verdict, not a comparison
    with a stored answer."""

    def work(deadline: Deadline) -> dict[str, Any]:
        item = _first(body.source, deadline, solving=False)
        violations = [service.violation_to_json(v) for v in service.validate(item, body.grid)]
        return {"id": item.id, "solved": not violations, "violations": violations}

    return await workers.in_thread(work, READ_S, request.is_disconnected)


_READS = Reads()
"""The sources this process read lately (a player sends one code with every move)."""


def _first(source: str, deadline: Deadline, *, solving: bool = True) -> service.Loaded:
    """The first puzzle of `source`, read under `deadline` (in a worker thread, never on
    the event loop: a Pattern ID's prefilled squares are checked by a count); for a solver
    call, refused when it is larger than the web solves (converting and validating read
    every size the parsers do)."""
    return _read(source, deadline, solving=solving).item


def _read(source: str, deadline: Deadline, *, solving: bool = True) -> Read:
    """`_first`'s puzzle with its canonical code, read once per process (`reads`)."""
    read = _READS.get(source, lambda text: service.load(text, files=False, deadline=deadline)[0])
    width, height = read.item.puzzle.width, read.item.puzzle.height
    if solving and max(width, height) > WEB_MAX_SIDE:
        raise CodeError(
            f"a {width}x{height} board is larger than the web serves "
            f"({WEB_MAX_SIDE}x{WEB_MAX_SIDE}); the command line reads boards up to "
            f"{service.largest_boards()}"
        )
    return read
