"""Reading rendered SVG back for tests (a helper module, not a test file): the document
parsed with `xml.etree`, its shapes by kind, and thick lines as the unit cell edges they
cover."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gridproof.core import drawing

SVG = "{http://www.w3.org/2000/svg}"
Edge = tuple[str, int, int]
"""A unit edge: ("h", row, col) is the top edge of cell (row, col), ("v", row, col) its
left edge (row == height or col == width for the far sides)."""


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def shapes(root: ET.Element, kind: str) -> list[ET.Element]:
    """Every `<kind>` element (line, rect, circle, text), in document order."""
    return list(root.iter(f"{SVG}{kind}"))


def thick_edges(root: ET.Element, x0: float = 0, y0: float = 0) -> list[Edge]:
    """The unit edges the thick lines cover (one entry per covering line), for a board
    whose top-left corner is at (x0, y0)."""
    out: list[Edge] = []
    for line in shapes(root, "line"):
        if float(line.get("stroke-width", "0")) != drawing.THICK:
            continue
        x1, y1, x2, y2 = (float(line.get(k, "")) for k in ("x1", "y1", "x2", "y2"))
        x1, x2, y1, y2 = x1 - x0, x2 - x0, y1 - y0, y2 - y0
        if y1 == y2:
            out += [("h", round(y1), c) for c in range(round(min(x1, x2)), round(max(x1, x2)))]
        else:
            assert x1 == x2, "thick lines are axis-aligned"
            out += [("v", r, round(x1)) for r in range(round(min(y1, y2)), round(max(y1, y2)))]
    return out


def region_edges(width: int, regions: tuple[int, ...] | list[int]) -> set[Edge]:
    """The unit edges a printed region board draws thick: between cells of two regions,
    and the frame."""
    height = len(regions) // width
    out: set[Edge] = set()
    for r in range(height + 1):
        for c in range(width):
            if r in (0, height) or regions[(r - 1) * width + c] != regions[r * width + c]:
                out.add(("h", r, c))
    for r in range(height):
        for c in range(width + 1):
            if c in (0, width) or regions[r * width + c - 1] != regions[r * width + c]:
                out.add(("v", r, c))
    return out


def filled_area(root: ET.Element, fill: str) -> float:
    """The total area of the rectangles filled with `fill` (the background is white)."""
    return sum(
        float(rect.get("width", "0")) * float(rect.get("height", "0"))
        for rect in shapes(root, "rect")
        if rect.get("fill") == fill
    )
