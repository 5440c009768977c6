"""The answer-first generator: proven, reproducible, the white dial, difficulties, health."""

from __future__ import annotations

from typing import Any

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.nondango import GENRE, solve
from gridproof.genres.nondango.codec import format_code
from gridproof.genres.nondango.generate import (
    GENERATOR_VERSION,
    draw_regions,
    draw_skeleton,
    generate,
    place_answer,
)
from gridproof.genres.nondango.model import Variant, make_puzzle, validate
from gridproof.genres.nondango.rules import LADDER


def _request(width: int, height: int, **options: Any) -> Request:
    difficulty = options.pop("difficulty", None)
    return Request(width, height, difficulty, options)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("size", [(6, 6), (9, 7), (12, 12), (16, 16)])
def test_boards_are_proven_unique(variant: Variant, size: tuple[int, int]) -> None:
    made = generate(_request(*size, rule=variant.value), 42, Deadline(60))
    puzzle = made.puzzle
    assert (puzzle.width, puzzle.height) == size
    assert puzzle.variant is variant
    outcome = solve.count(puzzle, 2, Deadline(60))
    assert outcome.verdict is Verdict.UNIQUE
    assert outcome.solutions == (made.solution,)
    assert validate(puzzle, made.solution) == []
    assert made.solution & ~puzzle.circles == 0
    assert made.difficulty == LADDER.grade(str(made.metrics["rung"]))
    assert made.metrics["white"] == puzzle.circles.bit_count() - puzzle.region_count > 0
    assert made.health.attempts >= 1


def test_the_largest_size_works() -> None:
    (_, _), (width, height) = GENRE.sizes
    assert (width, height) >= (16, 16)
    made = generate(_request(width, height), 1, Deadline(120))
    assert solve.count(made.puzzle, 2, Deadline(60)).solutions == (made.solution,)


def test_generation_is_reproducible() -> None:
    for variant in Variant:
        request = _request(8, 8, rule=variant.value)
        first = generate(request, 7, Deadline(60))
        again = generate(request, 7, Deadline(60))
        other = generate(request, 8, Deadline(60))
        assert format_code(first.puzzle) == format_code(again.puzzle)
        assert first.solution == again.solution
        assert dict(first.metrics) == dict(again.metrics)
        assert format_code(other.puzzle) != format_code(first.puzzle)


@pytest.mark.parametrize("white", [0, 3, 9])
def test_the_white_dial(white: int) -> None:
    for variant in Variant:
        made = generate(_request(8, 8, rule=variant.value, white=white), 3, Deadline(60))
        assert made.metrics["white"] == white
        assert (made.difficulty == "trivial") == (white == 0)


def test_too_many_white_circles_ends_in_a_health_record() -> None:
    with pytest.raises(GenerationError) as caught:
        generate(_request(6, 6, white=30), 1, Deadline(1))
    health = caught.value.health
    assert health["attempts"] >= 1
    assert health["too_few_white"] >= 1
    assert set(health) >= {"ambiguous", "contradiction", "timeout", "off_grade", "milliseconds"}


@pytest.mark.parametrize("difficulty", ["trivial", "easy", "medium"])
def test_difficulties_come_from_the_rung_needed(difficulty: str) -> None:
    for variant in Variant:
        request = _request(8, 8, rule=variant.value, difficulty=difficulty)
        made = generate(request, 4, Deadline(60))
        assert made.difficulty == difficulty
        assert LADDER.grade(solve.rung_needed(made.puzzle)) == difficulty


def test_hard_is_rare_and_reported_as_off_grade() -> None:
    assert GENRE.difficulties == ("trivial", "easy", "medium", "hard")
    assert LADDER.rung_for("hard") == LADDER.top == "search"
    assert GENRE.generator == GENERATOR_VERSION == "nondango/1"
    with pytest.raises(GenerationError) as caught:
        generate(_request(6, 6, difficulty="hard"), 1, Deadline(0.5))
    assert caught.value.health["off_grade"] >= 1


def test_an_expired_deadline_raises_with_health() -> None:
    with pytest.raises(GenerationError, match="no 16x16 nondango board") as caught:
        generate(_request(16, 16), 1, Deadline(0))
    assert caught.value.health["attempts"] == 0


@pytest.mark.parametrize(
    ("request_", "match"),
    [
        (_request(3, 8), "outside 4x4 .. 24x24"),
        (_request(8, 25), "outside"),
        (_request(8, 8, rule="no-three-white"), "rule 'no-three-white'"),
        (_request(8, 8, white=-1), "white '-1'"),
        (_request(8, 8, white=True), "white 'True'"),
        (_request(8, 8, whites=3), "no option 'whites'"),
        (_request(8, 8, difficulty="fiendish"), "not one of trivial, easy, medium, hard"),
        (_request(8, 8, difficulty="trivial", white=2), "no white circles at all"),
        (_request(8, 8, difficulty="easy", white=0), "never 'easy'"),
    ],
)
def test_bad_requests_are_code_errors(request_: Request, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        generate(request_, 1, Deadline(5))


def test_regions_are_connected_and_about_three_cells() -> None:
    sizes = []
    for seed in range(30):
        rows = draw_regions(10, 10, Rng(seed))
        puzzle = make_puzzle(rows, [[1] * 10] * 10)  # raises if a region is not connected
        cells = puzzle.region_cells()
        assert min(map(len, cells)) >= 2
        sizes += map(len, cells)
    assert 2.7 < sum(sizes) / len(sizes) < 3.6


def test_the_answer_has_one_circle_per_region_and_no_black_line() -> None:
    placed = 0
    for seed in range(40):
        skeleton = draw_skeleton(9, 9, Variant.NO_THREE_BLACK, Rng(seed))
        if skeleton is None:
            continue
        placed += 1
        assert all(m.bit_count() == 1 for m in skeleton.region_circles())
        assert validate(skeleton, skeleton.circles) == []
    assert placed >= 35


def test_place_answer_gives_up_on_an_impossible_board() -> None:
    # three one-cell regions in a row: their circles are black and in a line
    impossible = make_puzzle([[0, 1, 2]], [[0, 0, 0]])
    assert place_answer(impossible, Rng(1)) is None
