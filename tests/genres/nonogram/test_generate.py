"""The generator: steered to every offered grade, proven unique on every path, graded by
the ladder, reproducible by work budgets alone, and honest about its health."""

from __future__ import annotations

import pytest

from gridproof.core.contract import Request, pick_grade
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.ladder import grade_puzzle, solve
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genre
from gridproof.genres.nonogram import bank, generate
from gridproof.genres.nonogram.codec import format_code
from gridproof.genres.nonogram.model import Nonogram, validate
from gridproof.genres.nonogram.position import start
from gridproof.genres.nonogram.rules import LADDER, complete_line
from gridproof.genres.nonogram.sat import count_sat
from gridproof.genres.nonogram.solve import count

EASY, MEDIUM, HARD, EXPERT = LADDER.grades
LINE_RUNG = LADDER.rung_of(complete_line.id)


def _proven(puzzle: Nonogram, solution: int) -> None:
    """Unique by the SAT oracle and by the engine, with `solution` its only solution."""
    assert validate(puzzle, solution) == []
    assert count_sat(puzzle).solutions == (solution,)
    assert count(puzzle, 2, Deadline(60)).solutions == (solution,)


def test_the_grades_are_the_ladders() -> None:
    assert LADDER.grades == ("easy", "medium", "hard", "expert")
    assert [LADDER.grade(name) for name in LADDER.names] == ["easy", "medium", "hard"]
    assert LADDER.grade(None) == "expert"


@pytest.mark.parametrize(
    ("width", "height", "grade", "seed"),
    [
        (5, 5, "easy", 1),
        (5, 5, "hard", 1),
        (8, 8, "medium", 1),
        (10, 10, "easy", 2),
        (10, 10, "medium", 0),
        (10, 10, "hard", 2),
        (12, 7, "hard", 3),
        (6, 15, "easy", 3),
    ],
)
def test_each_offered_grade_is_delivered_and_proven(
    width: int, height: int, grade: str, seed: int
) -> None:
    assert grade in generate.grades_at(width, height)
    made = generate.generate(Request(width, height, grade), seed, Deadline(120))
    puzzle = made.puzzle
    assert (puzzle.width, puzzle.height) == (width, height)
    assert made.difficulty == grade
    assert made.health.fallback is None
    _proven(puzzle, made.solution)
    difficulty = grade_puzzle(LADDER, start, puzzle, Deadline(60))
    assert difficulty.grade == grade
    assert made.score == difficulty.score > 0
    for key in ("steps", "hardest", "tightest", "technique", "fill", "profile", "work"):
        assert key in made.metrics
    assert made.metrics["steps"] == difficulty.steps


def test_a_hard_board_is_not_finished_by_the_line_rung() -> None:
    made = generate.generate(Request(10, 10, HARD), 2, Deadline(120))
    lines = solve(LADDER, start, made.puzzle, LINE_RUNG, Deadline(60))
    assert not lines.complete
    assert solve(LADDER, start, made.puzzle, LADDER.top, Deadline(60)).complete


@pytest.mark.slow
def test_an_expert_board_needs_search() -> None:
    made = generate.generate(Request(15, 15, EXPERT), 4, Deadline(300))
    assert made.difficulty == EXPERT
    assert not solve(LADDER, start, made.puzzle, LADDER.top, Deadline(60)).complete
    _proven(made.puzzle, made.solution)


def test_no_grade_asked_aims_at_the_seed_picked_offered_grade() -> None:
    for seed in range(4):
        made = generate.generate(Request(10, 10), seed, Deadline(120))
        assert made.difficulty == pick_grade(seed, generate.grades_at(10, 10))
        _proven(made.puzzle, made.solution)


def test_the_same_seed_gives_the_same_board_under_any_clock() -> None:
    request = Request(10, 10, HARD, {"profile": "mirror"})
    first = generate.generate(request, 42, Deadline(300))
    again = generate.generate(request, 42, Deadline(30))
    other = generate.generate(request, 43, Deadline(300))
    assert format_code(first.puzzle) == format_code(again.puzzle)
    assert (first.solution, first.score) == (again.solution, again.score)
    assert other.puzzle != first.puzzle


def test_grades_at_offers_fewer_grades_on_big_boards() -> None:
    assert generate.grades_at(5, 5) == (EASY, HARD)
    assert generate.grades_at(10, 10) == (EASY, MEDIUM, HARD)
    assert generate.grades_at(20, 15) == (EASY, MEDIUM, HARD, EXPERT)
    assert generate.grades_at(30, 30) == (EASY, HARD)
    assert generate.grades_at(40, 40) == (EASY, HARD)
    assert genre("nonogram").offered(20, 20) == generate.grades_at(20, 20)


@pytest.mark.parametrize(
    ("request_", "match"),
    [
        (Request(4, 10), "sizes run from 5x5"),
        (Request(10, 41), "sizes run from 5x5"),
        (Request(10, 10, "fiendish"), "unknown difficulty 'fiendish' is not offered at 10x10; "),
        (Request(5, 5, "medium"), "offers easy, hard there"),
        (Request(30, 30, "expert"), "offers easy, hard there"),
        (Request(40, 25, "medium"), "offers easy, hard there"),
        (Request(10, 10, None, {"profile": "plaid"}), "unknown profile"),
    ],
)
def test_bad_requests_are_code_errors(request_: Request, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        generate.generate(request_, 1, Deadline(10))


def test_a_spent_work_budget_falls_back_to_a_verified_bank_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(generate.WORK_PER_CELL, HARD, 1)
    for width, height in ((10, 10), (15, 15)):
        made = generate.generate(Request(width, height, HARD), 7, Deadline(60))
        assert made.health.fallback in {entry.id for entry in bank.ENTRIES}
        assert made.difficulty == HARD
        assert (made.puzzle.width, made.puzzle.height) == (width, height)
        assert made.metrics["bank"] == made.health.fallback
        _proven(made.puzzle, made.solution)


def test_a_spent_work_budget_without_a_bank_board_is_a_generation_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(generate.WORK_PER_CELL, HARD, 1)
    with pytest.raises(GenerationError, match="work budget") as caught:
        generate.generate(Request(13, 11, HARD), 7, Deadline(60))
    health = caught.value.health
    assert health["fallback"] is None
    assert health["attempts"] >= 1


def test_the_clock_running_out_is_a_generation_error_never_a_bank_board() -> None:
    for width, height in ((10, 10), (15, 15)):
        with pytest.raises(GenerationError, match="ran out of time") as caught:
            generate.generate(Request(width, height, EASY), 7, Deadline(0))
        assert caught.value.health["fallback"] is None


def test_registered_genre_generates() -> None:
    nonogram = genre("nonogram")
    assert nonogram.difficulties == LADDER.grades
    assert nonogram.sizes == generate.SIZES
    assert nonogram.generator == generate.GENERATOR_VERSION == "nonogram/5"
    made = nonogram.generate(Request(8, 8), 2, Deadline(60))
    assert nonogram.count(made.puzzle, 2, Deadline(60)).solutions == (made.solution,)
    assert made.health.attempts >= 1
    assert made.health.milliseconds > 0
    assert count(made.puzzle, 2, Deadline(60)).verdict is Verdict.UNIQUE
