"""The generator: proven unique boards of the asked grade and star count, the same board
for the same seed, clear errors for what it cannot make."""

from __future__ import annotations

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.outcome import Verdict
from gridproof.genres.starbattle import generate, solve
from gridproof.genres.starbattle.model import validate


@pytest.mark.parametrize(
    ("side", "stars", "grade"), [(5, 1, "easy"), (6, 1, None), (8, 1, "medium"), (9, 2, None)]
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
