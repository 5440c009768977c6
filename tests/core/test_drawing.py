"""The drawing primitives and the SVG writer: shapes cover exactly the cells and edges
they stand for, and the SVG is a valid document holding every shape."""

from __future__ import annotations

import pytest

from gridproof.core import drawing
from gridproof.core.drawing import Anchor, Circle, Drawing, Line, Rect, Text, to_svg
from gridproof.core.errors import CodeError
from tests import drawings

# three regions on a 4 x 3 board: an L, a bar and a square
REGIONS = (0, 0, 1, 1, 0, 2, 2, 1, 0, 2, 2, 1)


def test_region_borders_run_exactly_where_regions_meet() -> None:
    lines = drawing.region_borders(0, 0, 4, REGIONS) + drawing.frame(0, 0, 4, 3)
    root = drawings.parse(to_svg(Drawing(4, 3, tuple(lines))))
    covered = drawings.thick_edges(root)
    assert len(covered) == len(set(covered)), "no edge is drawn twice"
    assert set(covered) == drawings.region_edges(4, REGIONS)


def test_region_borders_are_maximal_runs() -> None:
    # one region per column: three full-height borders, not nine unit edges
    columns = (0, 1, 2, 3) * 3
    lines = drawing.region_borders(0, 0, 4, columns)
    assert [(line.x1, line.y1, line.x2, line.y2) for line in lines] == [
        (1, 0, 1, 3),
        (2, 0, 2, 3),
        (3, 0, 3, 3),
    ]
    assert drawing.region_borders(0, 0, 4, (0,) * 12) == []


def test_shaded_cells_are_one_rectangle_per_run() -> None:
    # rows: ##.# / .... / .###
    mask = 0b1110_0000_1011
    rects = drawing.shaded_cells(2, 1, 4, 3, mask, drawing.GREY)
    assert [(r.x, r.y, r.width, r.height) for r in rects] == [
        (2, 1, 2, 1),
        (5, 1, 1, 1),
        (3, 3, 3, 1),
    ]
    assert {r.fill for r in rects} == {drawing.GREY}
    assert drawing.shaded_cells(0, 0, 4, 3, 0) == []


def test_grid_lines_are_the_inner_lines() -> None:
    lines = drawing.grid_lines(0, 0, 4, 3)
    assert len(lines) == 2 + 3
    assert all(line.weight == drawing.THIN for line in lines)


def test_the_svg_holds_every_shape_and_escapes_text() -> None:
    shapes = (
        Rect(0, 0, 1, 1),
        Line(0, 0, 2, 0, drawing.THICK),
        Circle(1.5, 0.5, 0.3, None, 0.05),
        Text(0.5, 0.5, "<&>", 0.6, Anchor.END),
    )
    text = to_svg(Drawing(2, 1, shapes))
    root = drawings.parse(text)
    assert root.get("viewBox") == "-0.5 -0.5 3 2"
    assert root.get("width") == str(3 * drawing.SVG_UNIT_PX)
    assert len(drawings.shapes(root, "rect")) == 2  # the paper and the shape
    [circle] = drawings.shapes(root, "circle")
    assert circle.get("fill") == "none"
    [label] = drawings.shapes(root, "text")
    assert label.text == "<&>"
    assert label.get("text-anchor") == "end"
    assert float(label.get("y", "")) == pytest.approx(0.5 + drawing.BASELINE * 0.6)


def test_drawing_counts_its_shapes() -> None:
    shapes = (Rect(0, 0, 1, 1), Rect(1, 0, 1, 1), Line(0, 0, 1, 0, 0.1))
    assert Drawing(2, 1, shapes).count(Rect) == 2
    assert Drawing(2, 1, shapes).count(Text) == 0


def test_boards_too_large_to_draw_are_refused() -> None:
    drawing.check_size(drawing.MAX_SIDE, drawing.MAX_SIDE)
    with pytest.raises(CodeError, match=r"a 201x5 board is too large to draw \(at most 200x200\)"):
        drawing.check_size(drawing.MAX_SIDE + 1, 5)
