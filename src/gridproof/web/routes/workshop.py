"""The workshop's routes: the live verdict, single-edit repairs, make unique, minimize,
and keeping a finished board in the bank."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from gridproof import bank, service
from gridproof.core.deadline import Deadline
from gridproof.service import workshop
from gridproof.web import workers
from gridproof.web.context import context_of
from gridproof.web.models import (
    MAX_DEADLINE_S,
    MAX_REPAIR_S,
    REPAIR_S,
    UNIQUE_S,
    VERDICT_S,
    KeepRequest,
    WorkshopRequest,
)
from gridproof.web.reads import first

router = APIRouter()


@router.post("/api/workshop/verdict")
async def workshop_verdict(body: WorkshopRequest, request: Request) -> dict[str, Any]:
    """The live verdict on a board being edited: `outcome` (`unique`, `multiple`, `none` or
    `timeout`), `solutions` (unique: the solution; multiple: the pinned or first one and a
    rival), `differ` (the cells where those two differ), `reason` (none: the contradiction
    in the ladder's words, with its cells), `grade`, `score` and `path` (unique: the
    ladder's steps from the empty board), `text` (one sentence) and `version` echoed."""
    seconds = min(body.deadline_s or VERDICT_S, MAX_DEADLINE_S)
    return await _workshop(body, request, seconds, workshop.examine)


@router.post("/api/workshop/repair")
async def workshop_repair(body: WorkshopRequest, request: Request) -> dict[str, Any]:
    """The verdict plus `edits`: up to `limit` single edits, each with its `text`, `cells`,
    `code`, `puzzle` (the genre's JSON object), `keep` (the pinned solution after it),
    `outcome` and `grade`; unique ones first. `complete` is false when the deadline cut
    the list short."""
    seconds = min(body.deadline_s or REPAIR_S, MAX_REPAIR_S)

    def run(loaded: service.Loaded, keep: int | None, d: Deadline) -> workshop.Repairs:
        return workshop.suggest(loaded, keep, d, body.limit)

    return await _workshop(body, request, seconds, run)


@router.post("/api/workshop/unique")
async def workshop_unique(body: WorkshopRequest, request: Request) -> dict[str, Any]:
    """ "Make unique": counterexamples walked until the count is one; the verdict on the
    result plus its `puzzle`, `keep`, `changed` (how many edits), `edits` (their texts),
    `visited` (boards counted), `stopped` (why it is not unique yet, naming cells; null
    once unique) and `made_text`. A call that stops returns the board reached: send that
    `puzzle` and `keep` again to go on."""
    seconds = min(body.deadline_s or UNIQUE_S, MAX_REPAIR_S)
    return await _workshop(body, request, seconds, workshop.make_unique)


@router.post("/api/workshop/minimize")
async def workshop_minimize(body: WorkshopRequest, request: Request) -> dict[str, Any]:
    """For a unique board, the verdict plus `spares`: the givens it can lose one at a time
    and stay unique, each with its `text` and `cells`; `complete` is false when the
    deadline cut the checks short, `minimize_text` says what was found."""
    seconds = min(body.deadline_s or REPAIR_S, MAX_REPAIR_S)
    return await _workshop(body, request, seconds, workshop.minimize)


@router.post("/api/workshop/keep")
async def workshop_keep(body: KeepRequest, request: Request) -> dict[str, Any]:
    """Keep a unique board in the bank with provenance `made by hand` (a board that is not
    unique is a 400 saying what it is). Kept boards are never served as new games."""
    context = context_of(request)

    def run(deadline: Deadline) -> dict[str, Any]:
        loaded = first(body.source, deadline)
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
        loaded = first(body.source, deadline)
        keep = workshop.parse_keep(loaded, body.keep)
        result: dict[str, Any] = work(loaded, keep, deadline).to_json()
        return result

    result = await workers.in_thread(run, seconds, request.is_disconnected, long=True)
    return {"version": body.version, **result}
