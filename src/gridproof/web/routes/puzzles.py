"""The routes that give puzzles: the genres and the catalog, a new game, the bank's
boards, the puzzle of the day, a puzzle by its code, and the bank's summary."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from gridproof import bank, service
from gridproof.core import registry
from gridproof.core.contract import Health
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.service import games, play
from gridproof.web import workers
from gridproof.web.context import Context, context_of
from gridproof.web.models import ANSWER_S, KILL_GRACE_S, MAX_SOURCE_CHARS, NewRequest
from gridproof.web.reads import read

router = APIRouter()
log = logging.getLogger("gridproof.web")
T = TypeVar("T")


@router.get("/api/genres")
def genres() -> list[dict[str, Any]]:
    """Every registered genre: name, title and the rungs of its ladder."""
    return [entry.to_json() for entry in service.genre_list()]


@router.get("/api/catalog")
def catalog() -> list[dict[str, Any]]:
    """Every genre as the player offers it: title, onboarding lessons (in layers), sizes,
    difficulties and the default difficulty."""
    return [offer.to_json() for offer in play.catalog()]


@router.post("/api/new")
async def new_puzzle(body: NewRequest, request: Request) -> dict[str, Any]:
    """A puzzle of `genre`, `size`, `difficulty` and `options` that the player has not seen:
    code not in `exclude`, fingerprint not in `seen` (a hint, used for nothing else). From
    the bank when it has one (instant; boards nobody was served yet first), else generated
    now under a deadline in a worker process (killed if the client disconnects; up to
    `NEW_ATTEMPTS` seeds while the ones made are seen) and kept in the bank. Only when no
    unseen board can be had in time is a seen one served, with `repeat` true. Never the
    solution. 503 with the generator's health when no board is proven in time."""
    context = context_of(request)
    key = bank.check_key(body.genre, body.size, body.difficulty, body.options)
    deadline = Deadline(min(body.deadline_s, context.settings.generate_s))

    async def pick(key: bank.Key, exclude: set[str], seen: set[str]) -> bank.Record | None:
        return await _bank_or_none(context.bank.pick, key, exclude, seen)

    async def make(seed: int) -> bank.Record:
        return await _generated(context, request, key, seed, deadline)

    served = await games.new_game(
        key,
        pick,
        make,
        deadline,
        exclude=set(body.exclude),
        seen=set(body.seen),
        seed=body.seed,
        failures=(workers.WorkerFailed,),
    )
    context.served()
    return _view_of(served.record, served.origin, repeat=served.repeat)


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


@router.get("/api/boards")
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
    total, records = context_of(request).bank.listed(
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


@router.get("/api/daily")
def daily(request: Request) -> dict[str, Any]:
    """One board per genre for today's date (UTC), the same for everyone all day: chosen
    from the bank by a hash of the date (genres with no board banked there are left out;
    `gridproof.service.games.daily`)."""
    today = time.strftime("%Y-%m-%d", time.gmtime())
    chosen = games.daily(context_of(request).bank, today)
    return {"date": today, "boards": [each.to_json() for each in chosen]}


@router.get("/api/puzzle")
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
    context = context_of(request)

    def count(deadline: Deadline) -> dict[str, Any]:
        source = read(code, deadline)
        genre, value = source.item.genre, source.item.puzzle
        try:
            record = context.bank.find(source.code)
        except sqlite3.Error as error:  # a full disk: the puzzle is counted instead
            log.warning("the puzzle bank cannot be read, counting instead: %s", error)
            record = None
        if record is not None:
            return _view_of(record, "bank")
        answer = context.answers.get(genre, value, deadline, source.code)
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


@router.get("/api/bank")
def bank_summary(request: Request) -> dict[str, Any]:
    """How many boards the bank holds and how many failed, per genre, size and difficulty;
    whether the background filler is still working."""
    context = context_of(request)
    return {
        "keys": context.bank.summary(),
        "filling": context.filler is not None and context.filler.running,
    }
