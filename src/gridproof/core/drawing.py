"""Drawings as values: the few shapes a printed puzzle is made of, and the SVG writer.

Each genre's `draw.py` turns its puzzle (and a solution, or None) into one `Drawing`;
`to_svg` here and `gridproof.output.rendering` (PNG, PDF sheets) write that same drawing, so the
three formats cannot drift apart.

Glossary: coordinates are in board units, a cell being 1 × 1, x growing rightwards and
y downwards from the drawing's top-left corner; a `weight` is a stroke's width in board
units; colours are `#rrggbb`; a `Text` is centred vertically on its y and placed by its
`anchor` horizontally. Writers add `MARGIN` on every side.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from gridproof.core.errors import CodeError
from gridproof.core.grid import cell_string

INK = "#000000"
PAPER = "#ffffff"
GREY = "#5a5a5a"
"""Shaded cells where thick borders must stay visible over them."""
FAINT = "#b4b4b4"
THIN = 0.03
MEDIUM = 0.07
THICK = 0.12
MARGIN = 0.5
BASELINE = 0.35
"""How far below its centre line a text's baseline lies, as a fraction of its size."""
MAX_SIDE = 200
"""The longest side, in cells, any genre draws: larger boards are refused (a 1024 × 1024
Nonogram would be millions of shapes)."""
SVG_UNIT_PX = 24
"""The SVG's nominal pixels per board unit (it scales freely: the viewBox is in units)."""


class Anchor(StrEnum):
    """Where a text's x lies along it."""

    START = "start"
    MIDDLE = "middle"
    END = "end"


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    weight: float
    colour: str = INK


@dataclass(frozen=True, slots=True)
class Rect:
    """A filled rectangle without a stroke."""

    x: float
    y: float
    width: float
    height: float
    fill: str = INK


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle stroked in `colour` and filled with `fill` (None: not filled)."""

    x: float
    y: float
    radius: float
    fill: str | None
    weight: float
    colour: str = INK


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    size: float
    anchor: Anchor = Anchor.MIDDLE
    colour: str = INK


Shape = Line | Rect | Circle | Text


@dataclass(frozen=True, slots=True)
class Drawing:
    """A picture `width` × `height` board units, its shapes painted in order."""

    width: float
    height: float
    shapes: tuple[Shape, ...]

    def count(self, kind: type) -> int:
        """How many of the shapes are of `kind` (Line, Rect, Circle or Text)."""
        return sum(isinstance(shape, kind) for shape in self.shapes)


# --- what boards share --------------------------------------------------------------------


def check_size(width: int, height: int) -> None:
    """Refuse a board too large to draw, with a `CodeError` saying the limit."""
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(
            f"a {width}x{height} board is too large to draw (at most {MAX_SIDE}x{MAX_SIDE})"
        )


def shaded_cells(
    x: float, y: float, width: int, height: int, mask: int, fill: str = INK
) -> list[Rect]:
    """A rectangle per run of shaded cells in each row of a board whose top-left corner is
    at (x, y) (runs, not cells: fewer shapes and no seams inside a run)."""
    text = cell_string(mask, width * height)
    out = []
    for r in range(height):
        row = text[r * width : (r + 1) * width]
        c = row.find("1")
        while c >= 0:
            end = row.find("0", c)
            end = width if end < 0 else end
            out.append(Rect(x + c, y + r, end - c, 1, fill))
            c = row.find("1", end)
    return out


def grid_lines(
    x: float, y: float, width: int, height: int, weight: float = THIN, colour: str = INK
) -> list[Line]:
    """The inner lines between the cells of a board at (x, y), rows' lines first."""
    across = [Line(x, y + r, x + width, y + r, weight, colour) for r in range(1, height)]
    down = [Line(x + c, y, x + c, y + height, weight, colour) for c in range(1, width)]
    return across + down


def frame(x: float, y: float, width: float, height: float, weight: float = THICK) -> list[Line]:
    """The four sides of a rectangle, top, bottom, left, right."""
    return [
        Line(x, y, x + width, y, weight),
        Line(x, y + height, x + width, y + height, weight),
        Line(x, y, x, y + height, weight),
        Line(x + width, y, x + width, y + height, weight),
    ]


def region_borders(x: float, y: float, width: int, regions: Sequence[int]) -> list[Line]:
    """Thick segments wherever two neighbouring cells lie in different regions, each a
    maximal straight run of such cell edges, horizontal ones first (the frame is apart)."""
    height = len(regions) // width
    out = []
    for r in range(1, height):  # the edge above row r
        cut = [regions[(r - 1) * width + c] != regions[r * width + c] for c in range(width)]
        out += [Line(x + a, y + r, x + b, y + r, THICK) for a, b in _runs(cut)]
    for c in range(1, width):  # the edge left of column c
        cut = [regions[r * width + c - 1] != regions[r * width + c] for r in range(height)]
        out += [Line(x + c, y + a, x + c, y + b, THICK) for a, b in _runs(cut)]
    return out


def _runs(flags: Sequence[bool]) -> Iterator[tuple[int, int]]:
    """The maximal runs of True in `flags` as (start, end), end exclusive."""
    start = None
    for index, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            yield start, index
            start = None


# --- SVG ----------------------------------------------------------------------------------


def to_svg(drawing: Drawing, unit_px: float = SVG_UNIT_PX) -> str:
    """The drawing as a standalone SVG document (the standard library only)."""
    width, height = drawing.width + 2 * MARGIN, drawing.height + 2 * MARGIN
    head = (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{_n(width * unit_px)}" height="{_n(height * unit_px)}" '
        f'viewBox="{_n(-MARGIN)} {_n(-MARGIN)} {_n(width)} {_n(height)}" '
        'font-family="Helvetica, Arial, sans-serif">'
    )
    background = (
        f'<rect x="{_n(-MARGIN)}" y="{_n(-MARGIN)}" width="{_n(width)}" '
        f'height="{_n(height)}" fill="{PAPER}"/>'
    )
    body = [_svg_shape(shape) for shape in drawing.shapes]
    return "\n".join([head, background, *body, "</svg>"]) + "\n"


def _svg_shape(shape: Shape) -> str:
    if isinstance(shape, Line):
        return (
            f'<line x1="{_n(shape.x1)}" y1="{_n(shape.y1)}" x2="{_n(shape.x2)}" '
            f'y2="{_n(shape.y2)}" stroke="{shape.colour}" stroke-width="{_n(shape.weight)}" '
            'stroke-linecap="square"/>'
        )
    if isinstance(shape, Rect):
        return (
            f'<rect x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.width)}" '
            f'height="{_n(shape.height)}" fill="{shape.fill}"/>'
        )
    if isinstance(shape, Circle):
        return (
            f'<circle cx="{_n(shape.x)}" cy="{_n(shape.y)}" r="{_n(shape.radius)}" '
            f'fill="{shape.fill or "none"}" stroke="{shape.colour}" '
            f'stroke-width="{_n(shape.weight)}"/>'
        )
    baseline = shape.y + BASELINE * shape.size
    return (
        f'<text x="{_n(shape.x)}" y="{_n(baseline)}" font-size="{_n(shape.size)}" '
        f'text-anchor="{shape.anchor.value}" fill="{shape.colour}">'
        f"{_escaped(shape.text)}</text>"
    )


def _escaped(text: str) -> str:
    """`text` as XML character data (not `xml.sax.saxutils`: it imports `urllib.request`,
    which `import gridproof` would pay for)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _n(value: float) -> str:
    """A coordinate in at most three decimals, without trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
