"""Nondango's text picture: regions, circles and their colours."""

from __future__ import annotations

from gridproof.genres.nondango.model import make_puzzle
from gridproof.genres.nondango.text import format_text


def test_circles_show_undecided_black_and_white() -> None:
    puzzle = make_puzzle([[0, 0, 1], [0, 1, 1]], [[1, 0, 1], [1, 1, 0]])
    assert format_text(puzzle, 0, 0) == [
        "+-------+---+",
        "|( )    |( )|",
        "|   +---+   |",
        "|( )|( )    |",
        "+---+-------+",
    ]
    black, white = 0b000_001 | 0b010_000, 0b001_000 | 0b000_100
    assert format_text(puzzle, black, white)[1::2] == ["|(#)    |(.)|", "|(.)|(#)    |"]
