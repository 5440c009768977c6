"""Norinori's text picture: the regions and the marks."""

from __future__ import annotations

from gridproof.genres.norinori.model import make_puzzle
from gridproof.genres.norinori.text import format_text
from tests.examples import REGIONS, SOLUTION


def test_the_picture_draws_the_regions_and_the_solution() -> None:
    puzzle = make_puzzle(REGIONS)
    shaded = sum(
        1 << (r * 5 + c) for r, row in enumerate(SOLUTION) for c, ch in enumerate(row) if ch == "#"
    )
    picture = format_text(puzzle, shaded, (1 << 25) - 1 - shaded)
    assert picture == [
        "+-------+---+-------+",
        "| #   # | . | .   . |",
        "+-------+   |       |",
        "| .   .   # | #   . |",
        "|   +-------+       |",
        "| # | #   . | .   # |",
        "+---+       +-------+",
        "| .   .   .   .   # |",
        "+-------+           |",
        "| #   # | .   .   . |",
        "+-------+-----------+",
    ]
    blank = format_text(puzzle, 0, 0)
    assert [line[2::4] for line in blank[1::2]] == ["     "] * 5
