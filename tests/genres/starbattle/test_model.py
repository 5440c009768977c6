"""The validator names every broken rule and accepts a solution."""

from __future__ import annotations

import pytest

from gridproof.core.errors import CodeError
from gridproof.genres.starbattle.model import default_stars, make_puzzle, validate

# a 5x5 one-star board (Queens) and its solution, worked by hand
REGIONS = [
    [0, 0, 1, 1, 1],
    [0, 0, 1, 2, 2],
    [3, 0, 2, 2, 2],
    [3, 3, 3, 4, 4],
    [3, 3, 4, 4, 4],
]
STARS = [(0, 0), (1, 2), (2, 4), (3, 1), (4, 3)]


def _mask(cells: list[tuple[int, int]]) -> int:
    return sum(1 << (r * 5 + c) for r, c in cells)


def test_a_solution_validates() -> None:
    # region 0 r1c1, region 1 r2c3, region 2 r3c5, region 3 r4c2, region 4 r5c4
    assert validate(make_puzzle(REGIONS, 1), _mask(STARS)) == []


def test_touching_stars_and_counts_are_named() -> None:
    puzzle = make_puzzle(REGIONS, 1)
    problems = validate(puzzle, _mask([(0, 0), (1, 1)]))
    rules = {p.rule for p in problems}
    assert {"touch", "row-count", "column-count", "region-count"} <= rules
    assert any("r1c1 and r2c2 touch" in p.text for p in problems)


def test_bad_boards_are_refused() -> None:
    with pytest.raises(CodeError, match="square"):
        make_puzzle([[0, 1, 2], [0, 1, 2]], 1)
    with pytest.raises(CodeError, match="regions, not"):
        make_puzzle([[0] * 5] * 5, 1)
    with pytest.raises(CodeError, match="cannot fit"):
        make_puzzle(REGIONS, 4)


def test_default_stars_by_size() -> None:
    assert [default_stars(n) for n in (5, 9, 10, 13, 14)] == [1, 1, 2, 2, 3]
