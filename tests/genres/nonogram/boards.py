"""Small Nonogram boards for the tests: pictures read off as clues (one or more
solutions) and mismatched clue pairs (often none), drawn from the project's RNG."""

from __future__ import annotations

from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.rng import Rng
from gridproof.genres.nonogram import solve
from gridproof.genres.nonogram.model import Nonogram, clues_of, make_puzzle


def random_picture(rng: Rng, width: int, height: int, density: float) -> int:
    picture = 0
    for cell in range(width * height):
        if rng.random() < density:
            picture |= 1 << cell
    return picture


def board_mix(count: int, seed: int, largest: int = 6) -> list[Nonogram]:
    """`count` boards up to `largest` on a side: mostly pictures, some mismatched pairs."""
    rng = Rng(seed)
    boards: list[Nonogram] = []
    while len(boards) < count:
        w, h = rng.randint(1, largest), rng.randint(1, largest)
        density = rng.choice([0.3, 0.5, 0.6, 0.75])
        a = clues_of(w, h, random_picture(rng, w, h, density))
        if rng.below(3):
            boards.append(a)
            continue
        for _ in range(20):  # the rows of one picture, the columns of another
            b = clues_of(w, h, random_picture(rng, w, h, density))
            try:
                boards.append(make_puzzle(a.rows, b.cols))
                break
            except CodeError:
                continue
    return boards


def budget_runs(puzzle: Nonogram, budgets: tuple[int, ...]) -> list[tuple[Any, ...]]:
    """Two counts to 2 under each work budget, in order: (budget, verdict, nodes,
    propagations, solutions) for each."""
    runs = []
    for budget in budgets:
        for _ in range(2):
            out = solve.count(puzzle, 2, Deadline.never().within(work=budget))
            runs.append((budget, out.verdict, out.nodes, out.propagations, out.solutions))
    return runs


# A unique 4×4 that line-at-a-time deduction cannot start (formats.md).
PATTERN_EXAMPLE = "4x4:2/1/2/1/1.1/2/1/1"
# A 2×2 with two solutions (the diagonals).
SWITCH = make_puzzle([[1], [1]], [[1], [1]])
