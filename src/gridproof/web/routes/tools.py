"""The tools' routes: count, convert and validate any puzzle source."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from gridproof import service
from gridproof.core.deadline import Deadline
from gridproof.web import workers
from gridproof.web.models import (
    MAX_DEADLINE_S,
    READ_S,
    ConvertRequest,
    CountRequest,
    ValidateRequest,
)
from gridproof.web.reads import first

router = APIRouter()


@router.post("/api/count")
async def count(body: CountRequest, request: Request) -> dict[str, Any]:
    """Count the solutions of the first puzzle in `source` (deadline at most 10 s)."""
    deadline_s = min(body.deadline_s, MAX_DEADLINE_S)

    def work(deadline: Deadline) -> dict[str, Any]:
        item = first(body.source, deadline)
        return service.count(item, body.limit, deadline).to_json()

    return await workers.in_thread(work, deadline_s, request.is_disconnected)


@router.post("/api/convert")
async def convert(body: ConvertRequest, request: Request) -> dict[str, Any]:
    """The first puzzle in `source` as a code, a puzz.link URL, JSON text or one of its
    genre's own formats (`pzprv3`, `non`, `tatham`); 400 when the format cannot hold the board."""

    def work(deadline: Deadline) -> dict[str, Any]:
        item = first(body.source, deadline, solving=False)
        return {"id": item.id, "to": body.to, "result": service.convert(item, body.to)}

    return await workers.in_thread(work, READ_S, request.is_disconnected)


@router.post("/api/validate")
async def validate(body: ValidateRequest, request: Request) -> dict[str, Any]:
    """The rules `grid` breaks in the first puzzle in `source`, each `final` when broken
    already (`+` cells read as marked empty, the others undecided), the `complete` groups;
    `solved` when none is broken. The player sends its marks here: completion is the
    validator's verdict, not a comparison with a stored answer."""

    def work(deadline: Deadline) -> dict[str, Any]:
        item = first(body.source, deadline, solving=False)
        return {"id": item.id, **service.judge(item, body.grid).to_json()}

    return await workers.in_thread(work, READ_S, request.is_disconnected)
