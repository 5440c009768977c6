"""Nonogram's text picture: row clues beside, column clues stacked above."""

from __future__ import annotations

from gridproof.genres.nonogram.model import make_puzzle
from gridproof.genres.nonogram.text import format_text


def test_the_clues_stand_beside_and_above_the_cells() -> None:
    puzzle = make_puzzle([[2], [], [1, 1]], [[1, 1], [1], [1]])
    assert format_text(puzzle, 0b101_000_011, 0b010_111_100) == [
        "    | 1",
        "    | 1 1 1",
        "----+------",
        "  2 | # # .",
        "  0 | . . .",
        "1 1 | # . #",
    ]


def test_wide_clues_widen_every_column_and_undecided_cells_are_blank() -> None:
    puzzle = make_puzzle([[1]] * 10, [[10]] + [[]] * 9)
    picture = format_text(puzzle, 1, 0)
    assert picture[0] == "  | 10" + "  0" * 9
    assert picture[2] == "1 |  #"
    assert picture[3] == "1 |"
