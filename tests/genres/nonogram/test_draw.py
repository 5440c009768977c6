"""Nonogram as printed: every clue number in its clue cell (an empty clue reads 0), the
grid with a heavier line every five cells, the solution's picture shaded; a 100 × 100
board draws, a board past the drawing limit is refused."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from gridproof.core import drawing
from gridproof.core.contract import Generated, Request
from gridproof.core.deadline import Deadline
from gridproof.core.drawing import Rect, to_svg
from gridproof.core.errors import CodeError
from gridproof.genres.nonogram import GENRE
from gridproof.genres.nonogram.draw import draw
from gridproof.genres.nonogram.model import Nonogram, clues_of
from tests import drawings


@pytest.fixture(scope="module")
def made() -> Generated[Nonogram]:
    return GENRE.generate(Request(12, 9), 6, Deadline(60))


def expected_numbers(puzzle: Nonogram) -> Counter[tuple[float, float, str]]:
    """(x, y, text) of every clue number where a printed Nonogram puts it."""
    left = max(1, *map(len, puzzle.rows))
    top = max(1, *map(len, puzzle.cols))
    out: Counter[tuple[float, float, str]] = Counter()
    for r, clue in enumerate(puzzle.rows):
        shown = clue or (0,)
        for i, n in enumerate(shown):
            out[(left - len(shown) + i + 0.5, top + r + 0.5, str(n))] += 1
    for c, clue in enumerate(puzzle.cols):
        shown = clue or (0,)
        for i, n in enumerate(shown):
            out[(left + c + 0.5, top - len(shown) + i + 0.5, str(n))] += 1
    return out


def texts(root: ET.Element) -> Counter[tuple[float, float, str]]:
    found: Counter[tuple[float, float, str]] = Counter()
    for text in drawings.shapes(root, "text"):
        size = float(text.get("font-size", ""))
        centre = float(text.get("y", "")) - drawing.BASELINE * size
        found[(float(text.get("x", "")), round(centre, 2), text.text or "")] += 1
    return found


def test_every_clue_number_is_printed_in_its_cell(made: Generated[Nonogram]) -> None:
    puzzle = made.puzzle
    root = drawings.parse(to_svg(draw(puzzle, None)))
    assert texts(root) == expected_numbers(puzzle)
    assert sum(texts(root).values()) == sum(max(1, len(c)) for c in puzzle.lines)


def test_an_empty_line_reads_zero() -> None:
    # a 5 x 3 picture whose middle row and first column are empty
    puzzle = clues_of(5, 3, 0b11110_00000_01110)
    assert puzzle.rows[1] == ()
    assert puzzle.cols[0] == ()
    root = drawings.parse(to_svg(draw(puzzle, None)))
    assert texts(root) == expected_numbers(puzzle)
    assert sum(1 for t in drawings.shapes(root, "text") if t.text == "0") == 2


def test_the_grid_has_a_heavier_line_every_five(made: Generated[Nonogram]) -> None:
    lines = drawings.shapes(drawings.parse(to_svg(draw(made.puzzle, None))), "line")
    medium = [line for line in lines if float(line.get("stroke-width", "")) == drawing.MEDIUM]
    assert len(medium) == (12 - 1) // 5 + (9 - 1) // 5  # x = left + 5, left + 10; y = top + 5


def test_the_solution_is_shaded(made: Generated[Nonogram]) -> None:
    root = drawings.parse(to_svg(draw(made.puzzle, made.solution)))
    assert drawings.filled_area(root, drawing.INK) == made.solution.bit_count()
    blank = drawings.parse(to_svg(draw(made.puzzle, None)))
    assert drawings.filled_area(blank, drawing.INK) == 0


def test_a_100_by_100_board_draws_and_a_larger_than_the_limit_is_refused() -> None:
    rng = random.Random(3)
    picture = rng.getrandbits(100 * 100)
    shown = draw(clues_of(100, 100, picture), picture)
    rows = [(picture >> (r * 100)) & (2**100 - 1) for r in range(100)]
    runs = sum(len(drawing.shaded_cells(0, 0, 100, 1, row)) for row in rows)
    assert shown.count(Rect) == runs
    assert len(to_svg(shown)) < 2_000_000
    side = drawing.MAX_SIDE + 1
    with pytest.raises(CodeError, match="too large to draw"):
        draw(clues_of(side, 2, 1), None)


def test_the_genre_draws_with_this_module() -> None:
    assert GENRE.draw is draw
