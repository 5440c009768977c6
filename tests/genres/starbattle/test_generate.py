"""The generator: proven unique boards of the asked grade and star count, the same board
for the same seed, clear errors for what it cannot make."""

from __future__ import annotations

from typing import Any

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.grid import Geometry, bits
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.starbattle import generate, solve
from gridproof.genres.starbattle.model import validate


@pytest.mark.parametrize(
    ("side", "stars", "grade"),
    [(5, 1, "easy"), (6, 1, None), (8, 1, "medium"), (9, 2, None), (9, 2, "medium")],
)
def test_boards_are_unique_and_reproducible(side: int, stars: int, grade: str | None) -> None:
    request = Request(side, side, grade, {"stars": stars})
    made = generate.generate(request, 3, Deadline.never().within(60))
    again = generate.generate(request, 3, Deadline.never().within(60))
    assert made.puzzle == again.puzzle
    assert made.solution == again.solution
    assert made.puzzle.stars == stars
    assert grade in (None, made.difficulty)
    assert validate(made.puzzle, made.solution) == []
    outcome = solve.count(made.puzzle, 2, Deadline.never())
    assert outcome.verdict is Verdict.UNIQUE
    assert outcome.solutions == (made.solution,)


def test_default_stars_by_size() -> None:
    made = generate.generate(Request(10, 10, "hard"), 1, Deadline.never().within(60))
    assert made.puzzle.stars == 2


@pytest.mark.parametrize(
    "request_",
    [
        Request(4, 4),
        Request(6, 7),
        Request(16, 16),
        Request(6, 6, "expert"),
        Request(10, 10, "easy"),
        Request(6, 6, None, {"stars": 3}),
    ],
)
def test_refusals(request_: Request) -> None:
    with pytest.raises(GenerationError):
        generate.generate(request_, 1, Deadline.never().within(5))


@pytest.mark.parametrize("grow", [generate.grow_regions, generate.grow_skewed])
@pytest.mark.parametrize(("side", "stars"), [(10, 2), (12, 2), (13, 2), (14, 3), (15, 3)])
def test_stars_and_regions_at_large_sizes(side: int, stars: int, grow: Any) -> None:
    """Stars placed k per row and column, none touching, and regions grown around them
    (patches joined, or groups of stars tied by paths and grown at skewed paces), k stars
    each, connected: found within a few draws at every size up to 15x15."""
    geo = Geometry(side, side)
    rng = Rng(7)
    for draw in range(60):
        solution = generate.place_stars(side, stars, rng.fork(f"draw {draw}"))
        if solution is None:
            continue
        labels = grow(side, stars, solution, rng.fork(f"regions {draw}"))
        if labels is not None:
            break
    else:
        pytest.fail(f"no {side}x{side} {stars}-star candidate in 60 draws")
    cells = list(bits(solution))
    for line in range(side):
        assert sum(c // side == line for c in cells) == stars
        assert sum(c % side == line for c in cells) == stars
    for a in cells:
        for b in cells:
            if a != b:
                assert max(abs(a // side - b // side), abs(a % side - b % side)) > 1
    for region in set(labels):
        mask = sum(1 << c for c in range(geo.size) if labels[c] == region)
        assert geo.connected(mask)
        assert (mask & solution).bit_count() == stars


def test_generator_version() -> None:
    assert generate.GENERATOR_VERSION == "starbattle/4"
