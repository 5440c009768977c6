"""The Nondango puzzle value and its validator, which reads the rules off coordinates."""

from __future__ import annotations

import dataclasses

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.outcome import Verdict
from gridproof.core.symmetry import Symmetry
from gridproof.genres.nondango import solve
from gridproof.genres.nondango.model import Variant, make_puzzle, transform, validate
from tests.genres.nondango.boards import generated

REGIONS = [[0, 0, 1], [2, 1, 1], [2, 2, 3]]
ALL = [[1, 1, 1]] * 3


def _cells(*names: tuple[int, int]) -> int:
    return sum(1 << (r * 3 + c) for r, c in names)


def test_validator_lists_every_violation() -> None:
    puzzle = make_puzzle(REGIONS, ALL, Variant.NO_THREE_BLACK)
    problems = validate(puzzle, _cells((0, 0), (1, 1), (2, 2)))
    assert [(p.rule, p.text) for p in problems] == [
        ("region-count", "region 3 holds 0 black circles, not 1"),
        ("three-black", "r1c1, r2c2, r3c3 are three black circles in a row"),
    ]
    assert problems[1].cells == (0, 4, 8)
    assert problems[1].regions == (0, 1, 3)


def test_validator_counts_two_blacks_and_paint_off_the_circles() -> None:
    circles = [[1, 1, 1], [1, 1, 1], [1, 1, 0]]
    puzzle = make_puzzle(REGIONS, circles, Variant.NO_THREE_BLACK)
    problems = validate(puzzle, _cells((0, 0), (0, 1), (1, 1), (2, 0), (2, 2)))
    assert [p.rule for p in problems] == ["no-circle", "region-count", "region-count"]
    assert problems[0].text == "r3c3 is painted but holds no circle"
    assert problems[1].text == "region 1 holds 2 black circles, not 1"
    assert problems[2].text == "region 4 holds 0 black circles, not 1"


def test_all_white_lines_break_only_no_three_same() -> None:
    black = _cells((0, 0), (1, 2), (2, 1), (2, 2))
    same = make_puzzle(REGIONS, ALL, Variant.NO_THREE_SAME)
    assert validate(dataclasses.replace(same, variant=Variant.NO_THREE_BLACK), black) == []
    problems = validate(same, black)
    assert [(p.rule, p.text) for p in problems] == [
        ("three-white", "r1c3, r2c2, r3c1 are three white circles in a row"),
    ]


def test_a_cell_without_a_circle_breaks_the_line() -> None:
    circles = [[1, 1, 1], [1, 0, 1], [1, 1, 1]]
    puzzle = make_puzzle(REGIONS, circles, Variant.NO_THREE_SAME)
    assert validate(puzzle, _cells((0, 0), (1, 2), (2, 1), (2, 2))) == []


def test_validate_rejects_cells_off_the_board() -> None:
    puzzle = make_puzzle(REGIONS, ALL)
    assert [p.rule for p in validate(puzzle, 1 << 9)] == ["grid"]
    assert [p.rule for p in validate(puzzle, -1)] == ["grid"]


@pytest.mark.parametrize(
    ("regions", "circles", "match"),
    [
        ([], [], "empty"),
        ([[0, 1, 0]], [[1, 1, 1]], "region 0 .* is not connected"),
        ([[0, 0], [1]], [[1, 1], [1]], "region row 2 has 1 cells"),
        ([[0, 0]], [[1, 1], [1, 1]], "2 circle rows, expected 1"),
        ([[0, 0]], [[1]], "circle row 1 has 1 cells"),
        ([[0] * 101], [[1] * 101], "larger than 100x100"),
    ],
)
def test_make_puzzle_rejects(
    regions: list[list[int]], circles: list[list[int]], match: str
) -> None:
    with pytest.raises(CodeError, match=match):
        make_puzzle(regions, circles)


@pytest.mark.parametrize("variant", list(Variant))
def test_generated_answers_validate_and_every_flip_breaks_them(variant: Variant) -> None:
    for seed in range(3):
        made = generated(Request(6, 6, options={"rule": variant.value}), seed)
        puzzle, answer = made.puzzle, made.solution
        assert validate(puzzle, answer) == []
        for cell in range(36):
            assert validate(puzzle, answer ^ 1 << cell) != [], (seed, cell)


@pytest.mark.parametrize("symmetry", list(Symmetry))
def test_transform_carries_the_answer(symmetry: Symmetry) -> None:
    for variant in Variant:
        made = generated(Request(7, 5, options={"rule": variant.value}), 3)
        image = transform(made.puzzle, symmetry)
        assert image.variant is variant
        assert image.circles.bit_count() == made.puzzle.circles.bit_count()
        moved = symmetry.mask(made.solution, 7, 5)
        assert validate(image, moved) == []
        outcome = solve.count(image, 2, Deadline(60))
        assert outcome.verdict is Verdict.UNIQUE
        assert outcome.solutions == (moved,)
        assert transform(image, symmetry.inverse()) == made.puzzle
