"""The puzzle value, its validation errors, the validator and the symmetries."""

from __future__ import annotations

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.symmetry import Symmetry
from gridproof.genres.nonogram.model import clues_of, make_puzzle, runs_of, transform, validate
from gridproof.genres.nonogram.solve import count
from tests.genres.nonogram.boards import board_mix

EVERYTHING = 10**6


@pytest.mark.parametrize(
    ("rows", "cols", "match"),
    [
        ([[4]], [[1], [1], [1]], "row 1: clue '4' needs 4 cells but the line has 3"),
        ([[1, 1, 1]], [[1], [1], [1], [1], [1]], "needs 5 cells but the line has 5|disagree|shade"),
        ([[2, 2]], [[1], [1], [1], [1]], "row 1: clue '2 2' needs 5 cells"),
        ([[-1]], [[1]], "holds -1, not positive"),
        ([[0]], [[1]], "holds 0, not positive"),
        ([["x"]], [[1]], "is not a list of numbers"),
        ([[True]], [[1]], "is not a list of numbers"),
        (["1"], [[1]], "is not a list of numbers"),
        ([[1]], [[1], [1]], "row clues shade 1 cells but the column clues shade 2"),
        ([], [[1]], "at least one row"),
        ([[1]] * 1025, [[1]], "larger than"),
    ],
)
def test_bad_clues_are_code_errors(rows: list, cols: list, match: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(CodeError, match=match):
        make_puzzle(rows, cols)


def test_runs_and_clues_of_a_picture() -> None:
    assert runs_of([True, True, False, True]) == (2, 1)
    assert runs_of([]) == ()
    puzzle = clues_of(3, 2, 0b011_101)  # rows: #.#, ##.
    assert puzzle.rows == ((1, 1), (2,))
    assert puzzle.cols == ((2,), (1,), (1,))


def test_validate_lists_every_broken_line() -> None:
    puzzle = clues_of(3, 2, 0b011_101)
    assert validate(puzzle, 0b011_101) == []
    problems = validate(puzzle, 0b000_111)
    assert [p.text for p in problems] == [
        "row 1 has runs 3, its clue says 1 1",
        "row 2 has runs (empty), its clue says 2",
        "column 1 has runs 1, its clue says 2",
    ]
    assert problems[0].cells == (0, 1, 2)
    assert validate(puzzle, 1 << 6)[0].rule == "grid"


@pytest.mark.parametrize("symmetry", list(Symmetry))
def test_symmetries_carry_solutions_and_keep_counts(symmetry: Symmetry) -> None:
    for puzzle in board_mix(40, seed=7, largest=5):
        moved = transform(puzzle, symmetry)
        assert (moved.width, moved.height) == symmetry.shape(puzzle.width, puzzle.height)
        before = count(puzzle, EVERYTHING, Deadline.never())
        after = count(moved, EVERYTHING, Deadline.never())
        carried = {symmetry.mask(s, puzzle.width, puzzle.height) for s in before.solutions}
        assert carried == set(after.solutions)
        assert transform(moved, symmetry.inverse()) == puzzle
