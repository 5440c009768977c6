"""Norinori as printed: thick borders exactly where regions meet, the solution's dominoes
shaded, and the notebook view is the blank puzzle."""

from __future__ import annotations

import pytest

from gridproof.core import drawing
from gridproof.core.contract import Generated, Request
from gridproof.core.deadline import Deadline
from gridproof.core.drawing import to_svg
from gridproof.genres.norinori import GENRE
from gridproof.genres.norinori.draw import draw
from gridproof.genres.norinori.model import Norinori
from tests import drawings


@pytest.fixture(scope="module")
def made() -> Generated[Norinori]:
    return GENRE.generate(Request(8, 7), 11, Deadline(60))


def test_thick_borders_only_where_regions_meet(made: Generated[Norinori]) -> None:
    puzzle = made.puzzle
    root = drawings.parse(to_svg(draw(puzzle, None)))
    covered = drawings.thick_edges(root)
    assert len(covered) == len(set(covered))
    assert set(covered) == drawings.region_edges(puzzle.width, puzzle.regions)
    thin = [line for line in drawings.shapes(root, "line") if line.get("stroke-width") == "0.03"]
    assert len(thin) == (puzzle.width - 1) + (puzzle.height - 1)


def test_the_solution_shades_two_cells_a_region(made: Generated[Norinori]) -> None:
    puzzle = made.puzzle
    blank = drawings.parse(to_svg(draw(puzzle, None)))
    solved = drawings.parse(to_svg(draw(puzzle, made.solution)))
    assert drawings.filled_area(blank, drawing.GREY) == 0
    assert drawings.filled_area(solved, drawing.GREY) == 2 * puzzle.region_count
    assert drawings.thick_edges(solved) == drawings.thick_edges(blank)


def test_the_genre_draws_with_this_module() -> None:
    assert GENRE.draw is draw
