"""Nondango as printed: a circle in every circle cell, thick borders where regions meet,
the solution's one black circle a region, and the variant said when it is not the usual
rule."""

from __future__ import annotations

import pytest

from gridproof.core import drawing
from gridproof.core.contract import Generated, Request
from gridproof.core.deadline import Deadline
from gridproof.core.drawing import to_svg
from gridproof.genres.nondango import GENRE
from gridproof.genres.nondango.draw import draw
from gridproof.genres.nondango.model import Nondango, Variant
from tests import drawings


@pytest.fixture(scope="module")
def made() -> Generated[Nondango]:
    return GENRE.generate(Request(7, 7), 4, Deadline(60))


def test_circles_and_borders(made: Generated[Nondango]) -> None:
    puzzle = made.puzzle
    root = drawings.parse(to_svg(draw(puzzle, None)))
    circles = drawings.shapes(root, "circle")
    assert len(circles) == puzzle.circles.bit_count()
    assert {circle.get("fill") for circle in circles} == {drawing.PAPER}
    centres = {(float(c.get("cx", "")), float(c.get("cy", ""))) for c in circles}
    w = puzzle.width
    expected = {
        (cell % w + 0.5, cell // w + 0.5)
        for cell in range(w * puzzle.height)
        if puzzle.circles >> cell & 1
    }
    assert centres == expected
    assert set(drawings.thick_edges(root)) == drawings.region_edges(w, puzzle.regions)
    assert drawings.shapes(root, "text") == []


def test_the_solution_fills_one_circle_a_region(made: Generated[Nondango]) -> None:
    puzzle = made.puzzle
    root = drawings.parse(to_svg(draw(puzzle, made.solution)))
    fills = [circle.get("fill") for circle in drawings.shapes(root, "circle")]
    assert fills.count(drawing.INK) == puzzle.region_count
    assert fills.count(drawing.PAPER) == puzzle.circles.bit_count() - puzzle.region_count


def test_the_no_three_black_variant_is_said_below_the_grid() -> None:
    made = GENRE.generate(Request(7, 7, options={"rule": "no-three-black"}), 4, Deadline(60))
    assert made.puzzle.variant is Variant.NO_THREE_BLACK
    shown = draw(made.puzzle, None)
    assert shown.height == made.puzzle.height + 1
    [note] = drawings.shapes(drawings.parse(to_svg(shown)), "text")
    assert note.text == "rule: no-three-black"


def test_the_genre_draws_with_this_module() -> None:
    assert GENRE.draw is draw
