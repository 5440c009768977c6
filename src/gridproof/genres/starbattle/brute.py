"""A brute-force counter for Star Battle, independent of the engine: for tests and the
bank's second witness on small boards.

It places the stars row by row, trying every set of `stars` non-touching cells of each
row, and checks columns and regions only by their running counts; no propagation, no
shared tables with the solver.
"""

from __future__ import annotations

from itertools import combinations, pairwise

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, verdict_for
from gridproof.genres.starbattle.model import StarBattle


def _row_choices(width: int, stars: int) -> list[tuple[int, ...]]:
    return [
        cols
        for cols in combinations(range(width), stars)
        if all(b - a > 1 for a, b in pairwise(cols))
    ]


def count_by_rows(puzzle: StarBattle, limit: int = 2) -> Outcome:
    """Count solutions up to `limit` by trying every row's placements in turn."""
    w, h, k = puzzle.width, puzzle.height, puzzle.stars
    clock = Deadline.never()
    choices = _row_choices(w, k)
    col_count = [0] * w
    region_count = [0] * (max(puzzle.regions) + 1)
    found: list[int] = []
    nodes = 0

    def place(r: int, above: tuple[int, ...], stars: int) -> None:
        nonlocal nodes
        if len(found) >= limit:
            return
        nodes += 1
        if r == h:
            if all(n == k for n in col_count) and all(n == k for n in region_count):
                found.append(stars)
            return
        rows_left = h - r - 1
        for cols in choices:
            if any(abs(a - b) <= 1 for a in cols for b in above):
                continue
            cells = [r * w + c for c in cols]
            for c in cols:
                col_count[c] += 1
            for cell in cells:
                region_count[puzzle.regions[cell]] += 1
            if (
                all(n <= k for n in col_count)
                and all(n <= k for n in region_count)
                and all(k - n <= rows_left * k for n in col_count)
            ):
                place(r + 1, cols, stars | sum(1 << cell for cell in cells))
            for c in cols:
                col_count[c] -= 1
            for cell in cells:
                region_count[puzzle.regions[cell]] -= 1

    place(0, (), 0)
    return Outcome(verdict_for(len(found), True), tuple(found), limit, nodes, 0, clock.elapsed())
