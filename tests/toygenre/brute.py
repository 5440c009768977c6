"""An exhaustive Lights counter that shares no code with the propagating solver.

It walks the cells in row-major order, deciding each cell without a digit shaded or not,
and checks every digit the cell is or touches: no more shaded neighbours than the digit,
and enough free neighbours left to reach it (exactly the digit once the walk has passed
them all). An oracle for tests and small boards, not a fast solver.
"""

from __future__ import annotations

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, verdict_for
from tests.toygenre.model import Lights

CHECK_EVERY = 1024
"""Nodes between deadline checks (the first node is always checked)."""


def count_brute(puzzle: Lights, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count shadings of `puzzle` up to `limit`; an expired deadline gives `timeout` (or
    `multiple` if two were found), never `unique`."""
    if limit < 2:
        raise ValueError(f"limit must be at least 2, got {limit}")
    clock = deadline or Deadline.never()
    started = clock.elapsed()
    w, h = puzzle.width, puzzle.height
    size = w * h
    around = [_around(cell, w, h) for cell in range(size)]
    # for each cell of the walk, the digits it is or touches, with their neighbours decided
    # by then and how many free neighbours come later
    checks: list[list[tuple[int, list[int], int]]] = [[] for _ in range(size)]
    for d, digit in enumerate(puzzle.clues):
        if digit is None:
            continue
        for index in sorted({d, *around[d]}):
            done = [n for n in around[d] if n <= index]
            later = sum(1 for n in around[d] if n > index and puzzle.clues[n] is None)
            checks[index].append((digit, done, later))
    solutions: list[int] = []
    nodes, complete = 0, True
    stack = [(0, 0)]
    while stack:
        if nodes % CHECK_EVERY == 0 and clock.expired():
            complete = False
            break
        nodes += 1
        index, shaded = stack.pop()
        if index == size:
            solutions.append(shaded)
            if len(solutions) >= limit:
                break
            continue
        choices = [shaded] if puzzle.clues[index] is not None else [shaded, shaded | 1 << index]
        for choice in choices:
            if all(
                _lit(choice, done) <= digit <= _lit(choice, done) + later
                for digit, done, later in checks[index]
            ):
                stack.append((index + 1, choice))
    return Outcome(
        verdict=verdict_for(len(solutions), complete),
        solutions=tuple(solutions),
        limit=limit,
        nodes=nodes,
        propagations=0,
        elapsed=clock.elapsed() - started,
    )


def _lit(shaded: int, cells: list[int]) -> int:
    return sum(shaded >> cell & 1 for cell in cells)


def _around(cell: int, width: int, height: int) -> list[int]:
    r, c = divmod(cell, width)
    steps = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return [rr * width + cc for rr, cc in steps if 0 <= rr < height and 0 <= cc < width]
