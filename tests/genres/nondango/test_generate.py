"""The answer-first generator: proven, reproducible, every offered grade by steering, the
white dial, health. Every board is re-counted by the SAT oracle (`boards.generated`)."""

from __future__ import annotations

from typing import Any

import pytest

from gridproof.core.contract import Request, pick_grade
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.ladder import grade_puzzle
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.nondango import GENRE, solve
from gridproof.genres.nondango.codec import format_code
from gridproof.genres.nondango.generate import (
    GENERATOR_VERSION,
    draw_regions,
    draw_skeleton,
    generate,
    grades_at,
    grades_for,
    place_answer,
)
from gridproof.genres.nondango.model import Variant, make_puzzle, validate
from gridproof.genres.nondango.position import start
from gridproof.genres.nondango.rules import LADDER
from tests.genres.nondango.boards import generated

RUNGS = LADDER.names


def _request(width: int, height: int, **options: Any) -> Request:
    difficulty = options.pop("difficulty", None)
    return Request(width, height, difficulty, options)


def _alone(made: Any, rung: str) -> bool:
    """Whether `rung` alone finishes the generated board."""
    return GENRE.solve(made.puzzle, rung, Deadline.never()).complete


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("size", [(6, 6), (9, 7), (12, 12), (16, 16)])
def test_boards_are_proven_unique(variant: Variant, size: tuple[int, int]) -> None:
    made = generated(_request(*size, rule=variant.value), 42)
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


@pytest.mark.slow
def test_the_largest_size_works() -> None:
    (_, _), (width, height) = GENRE.sizes
    assert (width, height) == (30, 30)
    made = generated(_request(width, height, difficulty="easy"), 1, 120)
    assert made.difficulty == "easy"


def test_generation_is_reproducible() -> None:
    for variant in Variant:
        request = _request(8, 8, rule=variant.value)
        first = generated(request, 7)
        again = generated(request, 7)
        other = generated(request, 8)
        assert format_code(first.puzzle) == format_code(again.puzzle)
        assert first.solution == again.solution
        assert dict(first.metrics) == dict(again.metrics)
        assert format_code(other.puzzle) != format_code(first.puzzle)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", None])
def test_the_clock_never_decides(difficulty: str | None) -> None:
    """Only work budgets steer: a tight clock and a loose one give the same board."""
    request = _request(10, 10, difficulty=difficulty)
    tight = generate(request, 5, Deadline(30))
    loose = generate(request, 5, Deadline(3000))
    assert format_code(tight.puzzle) == format_code(loose.puzzle)
    assert tight.score == loose.score


# --- grades -------------------------------------------------------------------------------


def test_the_grades_offered() -> None:
    assert LADDER.grades == GENRE.difficulties == ("easy", "medium", "hard", "expert")
    assert GENRE.generator == GENERATOR_VERSION == "nondango/3"
    (min_w, min_h), (max_w, max_h) = GENRE.sizes
    for width, height in ((min_w, min_h), (5, 5), (4, 30), (max_w, max_h)):
        assert GENRE.offered(width, height) == grades_at(width, height)
        assert grades_for(width, height, Variant.NO_THREE_SAME) == ("easy", "medium", "hard")
    assert grades_for(5, 5, Variant.NO_THREE_BLACK) == ("easy",)
    assert grades_for(6, 6, Variant.NO_THREE_BLACK) == ("easy", "hard")
    assert grades_for(30, 30, Variant.NO_THREE_BLACK) == ("easy", "hard")


@pytest.mark.parametrize(
    ("variant", "size", "difficulty"),
    [
        (Variant.NO_THREE_SAME, (4, 4), "easy"),
        (Variant.NO_THREE_SAME, (4, 4), "medium"),
        (Variant.NO_THREE_SAME, (4, 4), "hard"),
        (Variant.NO_THREE_SAME, (7, 5), "easy"),
        (Variant.NO_THREE_SAME, (7, 5), "medium"),
        (Variant.NO_THREE_SAME, (7, 5), "hard"),
        (Variant.NO_THREE_BLACK, (4, 4), "easy"),
        (Variant.NO_THREE_BLACK, (6, 6), "easy"),
        (Variant.NO_THREE_BLACK, (6, 6), "hard"),
    ],
)
def test_every_offered_grade_is_delivered(
    variant: Variant, size: tuple[int, int], difficulty: str
) -> None:
    """The board has the grade asked for: the cheapest rung that finishes it is one of
    the grade's, and the rungs below it do not finish it."""
    for seed in range(3):
        made = generated(_request(*size, rule=variant.value, difficulty=difficulty), seed)
        assert made.difficulty == difficulty
        rung = str(made.metrics["rung"])
        assert LADDER.grade(rung) == difficulty == LADDER.grade(solve.rung_needed(made.puzzle))
        assert _alone(made, rung)
        for cheaper in RUNGS[: RUNGS.index(rung)]:
            assert not _alone(made, cheaper), (cheaper, seed)
        if difficulty == "medium":
            assert rung == "confine"
            assert not _alone(made, "triple")
        if difficulty == "hard":
            assert rung == "probe"
            assert not _alone(made, "confine")
        rated = grade_puzzle(LADDER, start, made.puzzle, Deadline(60))
        assert made.score == rated.score > 0
        assert made.metrics["steps"] == rated.steps
        assert made.metrics["hardest"] == rated.hardest == rung
        assert made.metrics["tightest"] == rated.tightest


def test_with_no_difficulty_the_seed_picks_the_grade() -> None:
    grades = grades_at(6, 6)
    picked = set()
    for seed in range(16):
        made = generated(_request(6, 6), seed)
        aim = pick_grade(seed, grades)
        assert made.metrics["aim"] == made.difficulty == aim
        picked.add(aim)
    assert picked == set(grades)
    black = generated(_request(6, 6, rule="no-three-black"), 3)
    assert black.difficulty == pick_grade(3, ("easy", "hard"))


def test_a_hard_board_needs_the_probe() -> None:
    made = generated(_request(10, 10, difficulty="hard"), 11)
    confine = GENRE.solve(made.puzzle, "confine", Deadline.never())
    assert confine.contradiction is None
    assert confine.decided_fraction < 1.0
    probe = GENRE.solve(made.puzzle, "probe", Deadline.never())
    assert probe.complete
    assert {step.rule for step in probe.steps} >= {"probe"}


# --- the white dial ---------------------------------------------------------------------


@pytest.mark.parametrize("white", [0, 3, 9])
def test_the_white_dial(white: int) -> None:
    for variant in Variant:
        made = generated(_request(8, 8, rule=variant.value, white=white), 3)
        assert made.metrics["white"] == white
        assert made.metrics["aim"] is None
        if white == 0:
            assert made.difficulty == "easy"
            assert made.metrics["rung"] == RUNGS[0]


def test_the_white_dial_with_a_grade() -> None:
    made = generated(_request(8, 8, white=6, difficulty="easy"), 2)
    assert made.metrics["white"] == 6
    assert made.difficulty == "easy"
    made = generated(_request(10, 10, white=30, difficulty="hard"), 2)
    assert made.metrics["white"] == 30
    assert made.difficulty == "hard"


def test_too_many_white_circles_ends_in_a_health_record() -> None:
    with pytest.raises(GenerationError) as caught:
        generate(_request(6, 6, white=30), 1, Deadline(5))
    health = caught.value.health
    assert health["attempts"] >= 1
    assert health["too_few_white"] >= 1
    assert set(health) >= {"ambiguous", "contradiction", "timeout", "off_grade", "milliseconds"}


def test_an_expired_deadline_raises_with_health() -> None:
    with pytest.raises(GenerationError, match="16x16 nondango board was proven") as caught:
        generate(_request(16, 16), 1, Deadline(0))
    assert caught.value.health["attempts"] == 0
    cancelled = Deadline(60)
    cancelled.cancel()
    with pytest.raises(GenerationError):
        generate(_request(8, 8, difficulty="hard"), 1, cancelled)


@pytest.mark.parametrize(
    ("request_", "match"),
    [
        (_request(3, 8), "outside 4x4 .. 30x30"),
        (_request(8, 31), "outside"),
        (_request(8, 8, rule="no-three-white"), "rule 'no-three-white'"),
        (_request(8, 8, white=-1), "white '-1'"),
        (_request(8, 8, white=True), "white 'True'"),
        (_request(8, 8, whites=3), "no option 'whites'"),
        (_request(8, 8, difficulty="fiendish"), "not one of easy, medium, hard, expert"),
        (_request(8, 8, difficulty="trivial"), "not one of easy, medium, hard, expert"),
        (
            _request(8, 8, difficulty="expert"),
            "nondango at 8x8 under no-three-same offers easy, medium, hard, not 'expert'",
        ),
        (
            _request(8, 8, difficulty="medium", rule="no-three-black"),
            "under no-three-black offers easy, hard, not 'medium'",
        ),
        (
            _request(5, 5, difficulty="hard", rule="no-three-black"),
            "nondango at 5x5 under no-three-black offers easy, not 'hard'",
        ),
        (_request(8, 8, difficulty="medium", white=0), "is 'easy', never 'medium'"),
    ],
)
def test_bad_requests_are_code_errors(request_: Request, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        generate(request_, 1, Deadline(5))


# --- the skeleton -------------------------------------------------------------------------


def test_regions_are_connected_and_about_three_cells() -> None:
    sizes: list[int] = []
    for seed in range(30):
        rows = draw_regions(10, 10, Rng(seed))
        puzzle = make_puzzle(rows, [[1] * 10] * 10)  # raises if a region is not connected
        cells = puzzle.region_cells()
        assert min(map(len, cells)) >= 2
        sizes += map(len, cells)
    assert 2.7 < sum(sizes) / len(sizes) < 3.6


@pytest.mark.parametrize("pairs", [False, True])
def test_the_answer_has_one_circle_per_region_and_no_black_line(pairs: bool) -> None:
    placed = 0
    for seed in range(40):
        skeleton = draw_skeleton(9, 9, Variant.NO_THREE_BLACK, Rng(seed), pairs=pairs)
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
    assert place_answer(impossible, Rng(1), pairs=True) is None
