"""Puzzles as pictures: SVG (the standard library), PNG (Pillow) and PDF sheets
(ReportLab), all written from the one `core.drawing.Drawing` a genre's `draw` returns.

PNG and PDF need the `render` extra; without it they raise `GridproofError` naming
`pip install 'gridproof[render]'`. A PDF sheet puts `per_page` puzzles on each A4 page,
each under its title; PNGs are at most `MAX_PNG_SIDE` pixels on a side.
"""

from __future__ import annotations

import importlib
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gridproof.core.drawing import (
    BASELINE,
    MARGIN,
    PAPER,
    Anchor,
    Circle,
    Drawing,
    Line,
    Rect,
    Shape,
    to_svg,
)
from gridproof.core.errors import CodeError, GridproofError, quote
from gridproof.core.outcome import Verdict
from gridproof.service import Loaded, Seconds, as_deadline, play

FORMATS = ("svg", "png", "pdf")
EXTRA = "pip install 'gridproof[render]'"
NEEDS = {
    "png": ("PIL.Image", "PIL.ImageDraw", "PIL.ImageFont"),
    "pdf": ("reportlab.pdfgen.canvas", "reportlab.lib.colors", "reportlab.pdfbase.pdfmetrics"),
}
"""The modules each binary format imports (from the `render` extra)."""
PNG_UNIT_PX = 32
"""Pixels per cell, unless the picture would exceed `MAX_PNG_SIDE`."""
MAX_PNG_SIDE = 4000
SUPERSAMPLED_SIDE = 2000
"""PNGs up to this side are drawn at twice the size and halved, smoothing circles."""
PAGE = (595.28, 841.89)
"""A4 in points."""
PAGE_MARGIN = 36.0
TITLE_PT = 9.0
MAX_CELL_PT = 28.0
"""The largest a cell is printed (a 5 × 5 alone on a page stays puzzle-sized)."""
MAX_PER_PAGE = 64
TITLE_ID_CHARS = 2000
"""The longest id a title shows whole (a puzzle code of a 60x60 board, say); a longer one
(a long file path) is cut with an ellipsis."""
CODE_PT = 6.0
"""The size a PDF title's id is printed in, on as many lines as it needs, so a printed
code can be typed back in whole."""
MIN_CODE_PT = 2.5
LINE_SPACING = 1.2
_PILLOW_ANCHORS = {Anchor.START: "ls", Anchor.MIDDLE: "ms", Anchor.END: "rs"}
"""Pillow's names for a text's anchor on its baseline."""


@dataclass(frozen=True, slots=True)
class Figure:
    """A puzzle ready to write: its title (genre, size, id) and its drawing."""

    title: str
    drawing: Drawing


def figure(loaded: Loaded, solution: int | None = None) -> Figure:
    """The drawing of `loaded` (with `solution`'s marks if given) and its title; a
    `CodeError` for a genre that is not drawn or a board too large to draw."""
    genre, puzzle = loaded.genre, loaded.puzzle
    if genre.draw is None:
        raise CodeError(f"{genre.title} puzzles are not drawn ({quote(loaded.id)})")
    name = loaded.id if len(loaded.id) <= TITLE_ID_CHARS else loaded.id[: TITLE_ID_CHARS - 1] + "…"
    title = f"{genre.title} {puzzle.width}x{puzzle.height} · {name}"
    try:
        shown = genre.draw(puzzle, solution)
    except GridproofError as error:
        raise CodeError(f"{quote(loaded.id)}: {error}") from None
    return Figure(title, shown)


def solution_of(loaded: Loaded, deadline: Seconds = None) -> int:
    """The solution to draw: the one `loaded` records, else its unique solution counted
    now; a `GridproofError` when it has none, several, or the count ran out of time."""
    if loaded.solution is not None:
        return loaded.solution
    answer = play.counted_answer(loaded.genre, loaded.puzzle, as_deadline(deadline))
    if answer.solution is not None:
        return answer.solution
    why = {
        Verdict.NONE: "it has no solution",
        Verdict.MULTIPLE: "it has more than one solution",
        Verdict.TIMEOUT: "counting its solutions ran out of time (give a longer deadline)",
    }[answer.verdict]
    raise GridproofError(f"cannot draw the solution of {quote(loaded.id)}: {why}")


def marks_of(loaded: Loaded, rows: Sequence[str]) -> int:
    """The grid `rows` (as `validate` reads them) as the genre's mask, to draw as a
    solution; a `CodeError` quoting the puzzle for rows that do not fit it."""
    try:
        mask: int = loaded.genre.parse_grid(loaded.puzzle, rows)
    except GridproofError as error:
        raise CodeError(f"grid for {quote(loaded.id)}: {error}") from None
    return mask


def require(to: str) -> None:
    """Raise unless format `to` can be written here: a `CodeError` for an unknown
    format, a `GridproofError` naming the `render` extra when its library is missing."""
    if to not in FORMATS:
        raise CodeError(f"format {quote(to)} is not one of {', '.join(FORMATS)}")
    _modules(to)


def write(figures: Sequence[Figure], to: str, per_page: int = 1) -> str | bytes:
    """`figures` as one SVG document (text) or PNG (bytes), each of which holds exactly
    one figure, or as a PDF sheet of `per_page` figures a page (bytes)."""
    require(to)
    if to == "pdf":
        return to_pdf(figures, per_page)
    if len(figures) != 1:
        raise CodeError(f"{to.upper()} holds one puzzle, not {len(figures)}; PDF holds many")
    return to_svg(figures[0].drawing) if to == "svg" else to_png(figures[0].drawing)


def _modules(to: str) -> list[Any]:
    try:
        return [importlib.import_module(name) for name in NEEDS.get(to, ())]
    except ImportError:
        library = "Pillow" if to == "png" else "ReportLab"
        raise GridproofError(f"{to.upper()} output needs {library}: {EXTRA}") from None


# --- PNG ----------------------------------------------------------------------------------


def png_size(drawing: Drawing, unit_px: float = PNG_UNIT_PX) -> tuple[int, int]:
    """The pixel size `to_png` gives `drawing`: `unit_px` a cell, the longest side at most
    `MAX_PNG_SIDE`."""
    units = (drawing.width + 2 * MARGIN, drawing.height + 2 * MARGIN)
    scale = min(unit_px, MAX_PNG_SIDE / max(units))
    return round(units[0] * scale), round(units[1] * scale)


def to_png(drawing: Drawing, unit_px: float = PNG_UNIT_PX) -> bytes:
    """The drawing as a PNG image of `png_size(drawing, unit_px)` pixels."""
    image_module, draw_module, font_module = _modules("png")
    width, height = png_size(drawing, unit_px)
    factor = 2 if max(width, height) <= SUPERSAMPLED_SIDE else 1
    scale = width * factor / (drawing.width + 2 * MARGIN)
    image = image_module.new("RGB", (width * factor, height * factor), PAPER)
    pen = _Pen(draw_module.Draw(image), font_module, scale)
    for shape in drawing.shapes:
        pen.paint(shape)
    if factor > 1:
        image = image.reduce(factor)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class _Pen:
    """Paints shapes in board units onto a Pillow image at `scale` pixels a unit."""

    def __init__(self, pen: Any, fonts: Any, scale: float) -> None:
        self.pen, self.fonts, self.scale = pen, fonts, scale
        self.loaded: dict[int, Any] = {}

    def at(self, value: float) -> float:
        return (value + MARGIN) * self.scale

    def paint(self, shape: Shape) -> None:
        if isinstance(shape, Line):
            self._line(shape)
        elif isinstance(shape, Rect):
            box = [self.at(shape.x), self.at(shape.y)]
            box += [self.at(shape.x + shape.width), self.at(shape.y + shape.height)]
            self._box(box, shape.fill)
        elif isinstance(shape, Circle):
            x, y, r = self.at(shape.x), self.at(shape.y), shape.radius * self.scale
            stroke = max(1, round(shape.weight * self.scale))
            box = [x - r, y - r, x + r, y + r]
            self.pen.ellipse(box, fill=shape.fill, outline=shape.colour, width=stroke)
        else:
            size = max(1, round(shape.size * self.scale))
            if size not in self.loaded:
                self.loaded[size] = self.fonts.load_default(size=size)
            place = (self.at(shape.x), self.at(shape.y) + BASELINE * shape.size * self.scale)
            anchor = _PILLOW_ANCHORS[shape.anchor]
            self.pen.text(
                place, shape.text, fill=shape.colour, font=self.loaded[size], anchor=anchor
            )

    def _line(self, line: Line) -> None:
        half = max(1.0, line.weight * self.scale) / 2
        x1, y1, x2, y2 = (self.at(v) for v in (line.x1, line.y1, line.x2, line.y2))
        if x1 == x2 or y1 == y2:  # square caps, as in the SVG and the PDF
            box = [min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half]
            self._box(box, line.colour)
        else:
            self.pen.line([(x1, y1), (x2, y2)], fill=line.colour, width=round(2 * half))

    def _box(self, box: list[float], fill: str) -> None:
        """Fill the pixels of [x0, x1) × [y0, y1), rounded, at least one pixel."""
        x0, y0, x1, y1 = (round(v) for v in box)
        self.pen.rectangle([x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)], fill=fill)


# --- PDF ----------------------------------------------------------------------------------


def to_pdf(figures: Sequence[Figure], per_page: int = 1) -> bytes:
    """The figures as an A4 PDF, `per_page` a page in a grid (more rows than columns, as
    the page is tall), each under its title: ceil(len(figures) / per_page) pages."""
    if not figures:
        raise CodeError("there are no puzzles to put in the PDF")
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise CodeError(f"puzzles per page must be from 1 to {MAX_PER_PAGE}, got {per_page}")
    canvas_module, colours, metrics = _modules("pdf")
    out = io.BytesIO()
    pdf = canvas_module.Canvas(out, pagesize=PAGE, invariant=1, pageCompression=1)
    pdf.setTitle(figures[0].title if len(figures) == 1 else "gridproof puzzles")
    pdf.setCreator("gridproof")
    rows = math.ceil(math.sqrt(per_page))
    cols = math.ceil(per_page / rows)
    slot = ((PAGE[0] - 2 * PAGE_MARGIN) / cols, (PAGE[1] - 2 * PAGE_MARGIN) / rows)
    for start in range(0, len(figures), per_page):
        for index, each in enumerate(figures[start : start + per_page]):
            row, col = divmod(index, cols)
            left = PAGE_MARGIN + col * slot[0]
            top = PAGE[1] - PAGE_MARGIN - row * slot[1]
            _Sheet(pdf, colours, metrics).place(each, left, top, slot)
        pdf.showPage()
    pdf.save()
    return out.getvalue()


class _Sheet:
    """Paints one figure into its slot of a ReportLab page (y grows upwards there)."""

    FONT = "Helvetica"

    def __init__(self, pdf: Any, colours: Any, metrics: Any) -> None:
        self.pdf, self.colours, self.metrics = pdf, colours, metrics
        self.left = self.top = self.scale = 0.0

    def place(self, figure: Figure, left: float, top: float, slot: tuple[float, float]) -> None:
        gap = TITLE_PT
        lines = self._title(figure.title, slot[0] - gap, slot[1] / 3)
        height = sum(size * LINE_SPACING for _, size in lines) + TITLE_PT / 2
        room = (slot[0] - gap, slot[1] - height - gap)
        units = (figure.drawing.width + 2 * MARGIN, figure.drawing.height + 2 * MARGIN)
        self.scale = min(room[0] / units[0], room[1] / units[1], MAX_CELL_PT)
        self.left = left + (slot[0] - units[0] * self.scale) / 2
        self.top = top - height
        self.pdf.setFillColor(self.colours.HexColor("#000000"))
        baseline = top
        for text, size in lines:
            baseline -= size * LINE_SPACING
            self.pdf.setFont(self.FONT, size)
            self.pdf.drawString(self.left, baseline, text)
        self.pdf.setLineCap(2)  # projecting square caps, as in the SVG
        for shape in figure.drawing.shapes:
            self.paint(shape)

    def _title(self, title: str, width: float, most: float) -> list[tuple[str, float]]:
        """The title's lines and their sizes: the genre and size, then the id whole in
        `CODE_PT` type (smaller, down to `MIN_CODE_PT`, where its lines would take more
        than `most` points), broken wherever a line is full."""
        heading, _, name = title.partition(" · ")
        lines = [(self._shortened(heading, width), TITLE_PT)]
        if not name:
            return lines
        size = CODE_PT
        while True:
            wrapped = self._wrapped(name, width, size)
            if len(wrapped) * size * LINE_SPACING <= most or size <= MIN_CODE_PT:
                return lines + [(line, size) for line in wrapped]
            size = max(MIN_CODE_PT, size * 0.8)

    def _wrapped(self, text: str, width: float, size: float) -> list[str]:
        """`text` in lines of at most `width` points (a code has no spaces to break at, so
        it breaks between any two characters)."""
        lines, line = [], ""
        for char in text:
            if line and self.metrics.stringWidth(line + char, self.FONT, size) > width:
                lines.append(line)
                line = ""
            line += char
        return [*lines, line]

    def _shortened(self, text: str, width: float) -> str:
        """`text` shortened with an ellipsis until it fits `width` points."""
        while len(text) > 1 and self.metrics.stringWidth(text, self.FONT, TITLE_PT) > width:
            text = text[:-2] + "…"
        return text

    def x(self, value: float) -> float:
        return self.left + (value + MARGIN) * self.scale

    def y(self, value: float) -> float:
        return self.top - (value + MARGIN) * self.scale

    def paint(self, shape: Shape) -> None:
        pdf, colour, s = self.pdf, self.colours.HexColor, self.scale
        if isinstance(shape, Line):
            pdf.setStrokeColor(colour(shape.colour))
            pdf.setLineWidth(shape.weight * s)
            pdf.line(self.x(shape.x1), self.y(shape.y1), self.x(shape.x2), self.y(shape.y2))
        elif isinstance(shape, Rect):
            pdf.setFillColor(colour(shape.fill))
            bottom = self.y(shape.y + shape.height)
            pdf.rect(self.x(shape.x), bottom, shape.width * s, shape.height * s, 0, 1)
        elif isinstance(shape, Circle):
            pdf.setStrokeColor(colour(shape.colour))
            pdf.setLineWidth(shape.weight * s)
            if shape.fill is not None:
                pdf.setFillColor(colour(shape.fill))
            filled = int(shape.fill is not None)
            pdf.circle(self.x(shape.x), self.y(shape.y), shape.radius * s, 1, filled)
        else:
            pdf.setFillColor(colour(shape.colour))
            pdf.setFont(self.FONT, shape.size * s)
            x, y = self.x(shape.x), self.y(shape.y) - BASELINE * shape.size * s
            if shape.anchor is Anchor.MIDDLE:
                pdf.drawCentredString(x, y, shape.text)
            elif shape.anchor is Anchor.END:
                pdf.drawRightString(x, y, shape.text)
            else:
                pdf.drawString(x, y, shape.text)
