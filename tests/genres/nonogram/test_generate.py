"""The generator: proven unique on every path, reproducible, graded, and honest about its
health when the budget runs out."""

from __future__ import annotations

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genre
from gridproof.genres.nonogram import bank, generate
from gridproof.genres.nonogram.model import validate
from gridproof.genres.nonogram.rules import LADDER
from gridproof.genres.nonogram.sat import count_sat
from gridproof.genres.nonogram.solve import count, grade


@pytest.mark.parametrize(("width", "height"), [(5, 5), (10, 10), (12, 7), (6, 15), (20, 20)])
def test_boards_are_unique_and_their_solution_is_the_picture(width: int, height: int) -> None:
    for seed in range(3):
        made = generate.generate(Request(width, height), seed, Deadline(60))
        puzzle = made.puzzle
        assert (puzzle.width, puzzle.height) == (width, height)
        assert made.health.fallback is None
        assert validate(puzzle, made.solution) == []
        assert count_sat(puzzle).solutions == (made.solution,)
        assert count(puzzle, 2, Deadline(60)).verdict is Verdict.UNIQUE
        assert made.difficulty in LADDER.grades
        assert made.health.attempts >= 1
        assert made.health.milliseconds > 0
        for key in ("domain_width", "forced_per_pass", "search_depth", "technique", "fill"):
            assert key in made.metrics


def test_the_same_seed_gives_the_same_board() -> None:
    request = Request(15, 15, None, {"profile": "dense"})
    first = generate.generate(request, 42, Deadline(60))
    again = generate.generate(request, 42, Deadline(60))
    other = generate.generate(request, 43, Deadline(60))
    assert first.puzzle == again.puzzle
    assert first.solution == again.solution
    assert other.puzzle != first.puzzle


def test_difficulty_is_what_was_asked_for() -> None:
    made = generate.generate(Request(15, 15, "medium"), 1, Deadline(60))
    assert made.difficulty == "medium"
    assert made.metrics["technique"] == "probe"
    assert grade(made.puzzle, Deadline(60)).difficulty == "medium"
    easy = generate.generate(Request(15, 15, "easy"), 1, Deadline(60))
    assert easy.metrics["technique"] in ("simple", "line")


def test_pictures_pass_the_cheap_filters() -> None:
    made = generate.generate(Request(20, 20), 3, Deadline(60))
    assert generate.looks_good(made.solution, 20, 20, generate.PROFILES["balanced"])


@pytest.mark.parametrize(
    ("request_", "match"),
    [
        (Request(4, 10), "sizes run from 5x5"),
        (Request(10, 41), "sizes run from 5x5"),
        (Request(10, 10, "fiendish"), "unknown difficulty"),
        (Request(10, 10, None, {"profile": "plaid"}), "unknown profile"),
    ],
)
def test_bad_requests(request_: Request, match: str) -> None:
    with pytest.raises(GenerationError, match=match) as caught:
        generate.generate(request_, 1, Deadline(10))
    assert caught.value.health["attempts"] == 0


def test_an_expired_deadline_falls_back_to_a_verified_bank_board() -> None:
    for width, height in ((10, 10), (15, 15)):
        made = generate.generate(Request(width, height), 7, Deadline(0))
        assert made.health.fallback is not None
        assert made.health.fallback in {entry.id for entry in bank.ENTRIES}
        assert made.health.attempts == 0
        assert (made.puzzle.width, made.puzzle.height) == (width, height)
        assert count_sat(made.puzzle).solutions == (made.solution,)
        assert made.metrics["bank"] == made.health.fallback


def test_no_bank_board_and_no_time_is_a_generation_error() -> None:
    with pytest.raises(GenerationError, match="in time") as caught:
        generate.generate(Request(13, 11), 7, Deadline(0))
    health = caught.value.health
    assert health["fallback"] is None
    assert set(health) >= {"attempts", "ambiguous", "contradiction", "timeout", "milliseconds"}


def test_registered_genre_generates() -> None:
    nonogram = genre("nonogram")
    assert nonogram.difficulties == LADDER.grades == ("easy", "medium", "hard")
    assert nonogram.sizes == generate.SIZES
    made = nonogram.generate(Request(8, 8), 2, Deadline(60))
    assert nonogram.count(made.puzzle, 2, Deadline(60)).solutions == (made.solution,)


def test_a_difficulty_out_of_reach_fails_with_its_health() -> None:
    # 5×5 pictures that need search are practically nonexistent, and the bank has none.
    with pytest.raises(GenerationError, match="in time") as caught:
        generate.generate(Request(5, 5, "hard"), 1, Deadline(0.5))
    health = caught.value.health
    assert health["attempts"] > 0
    assert health["off_grade"] > 0
    assert health["fallback"] is None
