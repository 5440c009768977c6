"""The routes a player's moves call: a hint and a check of the marks so far."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from gridproof.core.deadline import Deadline
from gridproof.service import play
from gridproof.web import workers
from gridproof.web.context import context_of
from gridproof.web.models import ANSWER_S, HINT_S, PlayRequest
from gridproof.web.reads import Read, read

router = APIRouter()


@router.post("/api/hint")
async def hint(body: PlayRequest, request: Request) -> dict[str, Any]:
    """The next step from the player's marks. `status` is `mistakes` (how many marks
    contradict the solution; which only with `reveal`), `step` (a deduction: its `rule`,
    `title`, `text`, the `cells` to highlight and the cells it decides), `solved`,
    `reveal` (no rule applies: one solution cell), `contradiction`, `timeout` or `stuck`.
    `version` echoes the request's so the client can drop answers to older states."""
    return await _play(body, request, _hint_work)


@router.post("/api/check")
async def check(body: PlayRequest, request: Request) -> dict[str, Any]:
    """How many marks contradict the solution (`mistakes`; `cells` only with `reveal`) and
    whether the shaded cells satisfy every rule (`solved`, by the validator)."""
    return await _play(body, request, _check_work)


_Work = Callable[[Read, play.Marks, play.Answers, PlayRequest, Deadline], play.Hint | play.Checked]


def _hint_work(
    source: Read, marks: play.Marks, answers: play.Answers, body: PlayRequest, d: Deadline
) -> play.Hint:
    genre, puzzle = source.item.genre, source.item.puzzle
    answer = answers.get(genre, puzzle, d.within(ANSWER_S), source.code)
    return play.hint(genre, puzzle, marks, answer, d.within(HINT_S), body.reveal, body.recent)


def _check_work(
    source: Read, marks: play.Marks, answers: play.Answers, body: PlayRequest, d: Deadline
) -> play.Checked:
    genre, puzzle = source.item.genre, source.item.puzzle
    answer = answers.get(genre, puzzle, d.within(ANSWER_S), source.code)
    return play.check(genre, puzzle, marks, answer, body.reveal)


async def _play(body: PlayRequest, request: Request, work: _Work) -> dict[str, Any]:
    context = context_of(request)

    def run(deadline: Deadline) -> dict[str, Any]:
        source = read(body.code, deadline)
        puzzle = source.item.puzzle
        marks = play.parse_marks(puzzle, body.marks)
        play.parse_recent(body.recent, puzzle.width * puzzle.height)
        result = work(source, marks, context.answers, body, deadline).to_json()
        return {"code": source.code, **result}

    result = await workers.in_thread(run, ANSWER_S + HINT_S, request.is_disconnected)
    return {"version": body.version, **result}
