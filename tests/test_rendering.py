"""PNG images and PDF sheets written from the drawings: the right pixel size and page
count, readable by real decoders (Pillow, pypdf); the solution to draw found or refused;
a clear error, never a traceback, when the `render` extra is missing."""

from __future__ import annotations

import dataclasses
import io
import sys

import pypdf
import pytest
from PIL import Image

from gridproof import service
from gridproof.core import drawing, registry
from gridproof.core.drawing import MARGIN, Drawing, Rect
from gridproof.core.errors import CodeError, GridproofError
from gridproof.genres.nonogram.model import clues_of
from gridproof.output import rendering
from gridproof.service.results import Loaded
from tests.test_workshop import ambiguous


@pytest.fixture(scope="module")
def boards() -> list[service.Board]:
    return [
        service.generate(name, side, side, seed)
        for name, side, seed in (("norinori", 6, 1), ("nonogram", 8, 2), ("nondango", 7, 3))
    ]


@pytest.fixture(scope="module")
def figures(boards: list[service.Board]) -> list[rendering.Figure]:
    return [rendering.figure(board.loaded, board.solution) for board in boards]


def pages(data: bytes) -> list[str]:
    """The text of each page of a PDF, read by pypdf."""
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def test_a_png_has_the_size_it_promises_and_decodes(figures: list[rendering.Figure]) -> None:
    for each in figures:
        data = rendering.to_png(each.drawing)
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG"
        width, height = rendering.png_size(each.drawing)
        assert image.size == (width, height)
        assert width == round((each.drawing.width + 2 * MARGIN) * rendering.PNG_UNIT_PX)
        grey = image.convert("L")
        assert grey.getpixel((0, 0)) == 255  # the margin is paper
        assert min(grey.get_flattened_data()) < 64  # and there is ink


def test_a_large_png_is_bounded() -> None:
    huge = Drawing(300, 150, (Rect(0, 0, 300, 150),))
    width, height = rendering.png_size(huge)
    assert width == rendering.MAX_PNG_SIDE
    assert height == round(151 * rendering.MAX_PNG_SIDE / 301)
    assert Image.open(io.BytesIO(rendering.to_png(huge))).size == (width, height)


@pytest.mark.parametrize(("per_page", "count"), [(1, 3), (2, 2), (4, 1)])
def test_a_pdf_sheet_has_ceil_n_over_per_page_pages(
    figures: list[rendering.Figure], per_page: int, count: int
) -> None:
    data = rendering.to_pdf(figures, per_page)
    assert data.startswith(b"%PDF-")
    texts = pages(data)
    assert len(texts) == count
    joined = ["".join(text.split()) for text in texts]  # an id may take several lines
    for each in figures:
        heading, _, name = each.title.partition(" · ")
        assert any(heading in text for text in texts)
        assert any("".join(name.split()) in text for text in joined)


def test_a_pdf_is_the_same_bytes_every_time(figures: list[rendering.Figure]) -> None:
    assert rendering.to_pdf(figures, 2) == rendering.to_pdf(figures, 2)


def test_pdf_layout_limits(figures: list[rendering.Figure]) -> None:
    with pytest.raises(CodeError, match="no puzzles"):
        rendering.to_pdf([], 4)
    with pytest.raises(CodeError, match="from 1 to 64, got 65"):
        rendering.to_pdf(figures, 65)


def test_svg_and_png_hold_one_puzzle(figures: list[rendering.Figure]) -> None:
    assert isinstance(rendering.write(figures[:1], "svg"), str)
    assert isinstance(rendering.write(figures[:1], "png"), bytes)
    with pytest.raises(CodeError, match="SVG holds one puzzle, not 3"):
        rendering.write(figures, "svg")
    with pytest.raises(CodeError, match="format 'gif' is not one of svg, png, pdf"):
        rendering.write(figures, "gif")


def test_titles_name_genre_size_and_id(boards: list[service.Board]) -> None:
    board = boards[0]
    title = rendering.figure(board.loaded).title
    assert title == f"Norinori 6x6 · {board.code}"
    long = dataclasses.replace(board.loaded, id="x" * 3000)
    assert rendering.figure(long).title.endswith("x" * (rendering.TITLE_ID_CHARS - 1) + "…")


@pytest.mark.parametrize("per_page", [1, 16, 64])
def test_a_pdf_prints_a_long_code_whole(per_page: int) -> None:
    board = service.generate("nonogram", 30, 30, 4)
    assert len(board.code) > 100
    data = rendering.to_pdf([rendering.figure(board.loaded)], per_page)
    [text] = pages(data)
    assert board.code in "".join(text.split())  # on several lines, every character there


def test_a_board_too_large_to_draw_is_named() -> None:
    genre = registry.genre("nonogram")
    big = Loaded("wide", genre, clues_of(drawing.MAX_SIDE + 1, 1, 1))
    with pytest.raises(CodeError, match=r"^'wide': a 201x1 board is too large to draw"):
        rendering.figure(big)


def test_a_genre_without_a_drawing_is_refused(boards: list[service.Board]) -> None:
    board = boards[0]
    undrawn = Loaded("x", dataclasses.replace(board.genre, draw=None), board.puzzle)
    with pytest.raises(CodeError, match="Norinori puzzles are not drawn"):
        rendering.figure(undrawn)


def test_the_solution_drawn_is_recorded_or_counted(boards: list[service.Board]) -> None:
    board = boards[1]
    assert rendering.solution_of(board.loaded) == board.solution
    [bare] = service.load(board.code)
    assert bare.solution is None
    assert rendering.solution_of(bare, 30) == board.solution
    with pytest.raises(GridproofError, match="more than one solution"):
        rendering.solution_of(ambiguous("norinori", 6, 1))


def test_marks_are_read_as_validate_reads_them(boards: list[service.Board]) -> None:
    board = boards[2]
    assert rendering.marks_of(board.loaded, board.solution_rows) == board.solution
    with pytest.raises(CodeError, match="grid for 'nondango"):
        rendering.marks_of(board.loaded, ["#"])


@pytest.mark.parametrize(("to", "library"), [("png", "Pillow"), ("pdf", "ReportLab")])
def test_a_missing_extra_names_it(
    monkeypatch: pytest.MonkeyPatch, figures: list[rendering.Figure], to: str, library: str
) -> None:
    for name in rendering.NEEDS[to]:
        monkeypatch.setitem(sys.modules, name, None)
    message = f"{to.upper()} output needs {library}: pip install 'gridproof\\[render\\]'"
    with pytest.raises(GridproofError, match=message):
        rendering.require(to)
    with pytest.raises(GridproofError, match=message):
        rendering.write(figures[:1], to)
    rendering.require("svg")
