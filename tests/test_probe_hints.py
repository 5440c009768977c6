"""A probe told what a hint tells it (`core.ladder.offer`'s `solution` and `prefer`, read by
the genres whose positions carry them): the same steps with the solution alone, and with an
order the first cell in it that the probe can refute, none before it. On boards whose
ladder solve reaches the probe."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from gridproof.core.contract import Genre, Request
from gridproof.core.deadline import Deadline
from gridproof.core.ladder import Offer, given, offer
from gridproof.core.registry import genre

BOARDS = [
    ("norinori", Request(8, 8, "hard"), 1),
    ("norinori", Request(8, 8, "hard"), 2),
    ("starbattle", Request(8, 8, "hard", options={"stars": "2"}), 3),
    ("nondango", Request(6, 6, "hard"), 1),
    ("nondango", Request(8, 8, "hard", options={"rule": "no-three-black"}), 4),
]
"""Boards whose ladder solve takes a Probe step (genre, request, seed)."""


@cache
def solved(board: int) -> tuple[Any, int, tuple[tuple[int, int], ...]]:
    """Board `board` of `BOARDS`, its solution, and the marks (shaded, empty) at every
    position of the ladder's solve of it."""
    name, request, seed = BOARDS[board]
    made = genre(name)
    puzzle = made.generate(request, seed, Deadline(60)).puzzle
    solution = made.count(puzzle, 2, Deadline(30)).solutions[0]
    positions = []
    shaded = empty = 0
    for step in made.solve(puzzle, made.rungs[-1], Deadline(60)).steps:
        positions.append((shaded, empty))
        shaded |= step.shaded
        empty |= step.empty
    return puzzle, solution, tuple(positions)


def offers(made: Genre[Any], puzzle: Any, marks: tuple[int, int], **told: Any) -> Offer:
    shaded, empty = marks
    return offer(
        made.ladder, made.position, puzzle, Deadline(60), shaded=shaded, empty=empty, **told
    )


def probe_positions(board: int) -> Iterator[tuple[int, int]]:
    """The positions of the solve where the probe is the rung a hint offers."""
    made = genre(BOARDS[board][0])
    puzzle, _, positions = solved(board)
    for marks in positions:
        if any(step.rule == "probe" for step in offers(made, puzzle, marks).steps):
            yield marks


IDS = [f"{name}-{request.width}x{request.height}-seed{seed}" for name, request, seed in BOARDS]


@pytest.mark.parametrize("board", range(len(BOARDS)), ids=IDS)
def test_told_the_solution_a_probe_offers_the_same_steps(board: int) -> None:
    """At every position of the solve: the probe skips only trials that agree with the
    solution, which nothing can refute."""
    made = genre(BOARDS[board][0])
    puzzle, solution, positions = solved(board)
    assert hasattr(made.position(puzzle, Deadline(1)), "solution")
    for marks in positions:
        assert offers(made, puzzle, marks, solution=solution) == offers(made, puzzle, marks)
    assert any(probe_positions(board))


def first_of(order: list[int]) -> Callable[[int], int]:
    rank = {cell: index for index, cell in enumerate(order)}
    return lambda cell: rank.get(cell, len(rank))


def _norinori_refutes(pos: Any, cell: int, solution: int) -> bool:
    from gridproof.genres.norinori.rules import PAIRS, refutation

    return refutation(pos, cell, not solution >> cell & 1, PAIRS)[0] is not None


def _starbattle_refutes(pos: Any, cell: int, solution: int) -> bool:
    from gridproof.genres.starbattle.rules import refute

    return not solution >> cell & 1 and refute(pos, cell)[0] is not None


def _nondango_refutes(pos: Any, cell: int, solution: int) -> bool:
    from gridproof.genres.nondango.rules import closed, propagate

    base = closed(pos)
    if base is None or solution >> cell & 1:
        return False
    trial = base.copy()
    trial.paint(cell)
    return not propagate(trial)


REFUTES = {
    "norinori": _norinori_refutes,
    "starbattle": _starbattle_refutes,
    "nondango": _nondango_refutes,
}
"""Whether the genre's probe trial of `cell` the way the solution does not have it ends
in a contradiction: the probe's own trial, called directly."""


@pytest.mark.parametrize("board", range(len(BOARDS)), ids=IDS)
def test_told_an_order_a_probe_takes_the_first_cell_it_can_refute(board: int) -> None:
    """At every position where the probe is the hint's rung: told an order (nearest the
    last cell first), it offers one Probe step, on a cell the solution agrees with, whose
    trial its own trial function refutes, and none of the open cells before it in the
    order is refuted."""
    name = BOARDS[board][0]
    made, refutes = genre(name), REFUTES[name]
    puzzle, solution, _ = solved(board)
    width, last = puzzle.width, puzzle.width * puzzle.height - 1
    order = sorted(
        range(puzzle.width * puzzle.height),
        key=lambda c: abs(c // width - last // width) + abs(c % width - last % width),
    )
    probed = 0
    for marks in probe_positions(board):
        probed += 1
        (found,) = offers(made, puzzle, marks, solution=solution, prefer=first_of(order)).steps
        assert found.rule == "probe"
        cell = (found.shaded | found.empty).bit_length() - 1
        assert bool(found.shaded) == bool(solution >> cell & 1)
        pos, problem = given(made.position, puzzle, Deadline(60), *marks)
        assert problem is None
        assert refutes(pos, cell, solution)
        open_ = pos.unknown
        earlier = [c for c in order[: order.index(cell)] if open_ >> c & 1]
        assert not [c for c in earlier if refutes(pos, c, solution)]
    assert probed
