"""The workshop on real screens and the board's shape (issue #25), in Debian's chromium
through Playwright: at 1366×768 a 10×10, 15×15 and 30×30 board of every registered genre
(at the sides its generator offers) sits beside its verdict, both in view; on a phone two
fingers pan and zoom without drawing and undo stays exact; rotating, mirroring and adding or
removing lines keep what is drawn, round-trip exactly, and the verdict after a turn is the
turned puzzle's (8×5 boards, 7×7 for a genre whose boards are square).

Screenshots go to `$GRIDPROOF_SCREENSHOTS` when it is set, else to a temporary folder.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from gridproof import service
from gridproof.core import registry
from gridproof.core.errors import GenerationError
from gridproof.core.registry import genres
from gridproof.core.symmetry import Symmetry
from tests.web.conftest import shot
from tests.web.test_player_screens import in_view, touch_points
from tests.web.test_workshop import (
    at,
    engine_outcome,
    labels,
    open_editor,
    page_code,
    settled,
)

SIDES = (10, 15, 30)
GENRES = sorted(registry.genres())
"""Every registered genre (no hand-kept list)."""
MIN_PX = 18  # the smallest cell before the frame scrolls (playboard.js)
RESHAPE_CHECK = Path(__file__).with_name("reshape_check.js")


def easiest(name: str, width: int, height: int) -> str | None:
    """The easiest grade the genre's generator offers at this size, None if none (the
    workshop takes any board a generator makes, beyond what the player offers)."""
    genre = registry.genres()[name]
    (low_w, low_h), (high_w, high_h) = genre.sizes
    if not (low_w <= width <= high_w and low_h <= height <= high_h):
        return None
    offered = genre.offered(width, height)
    return str(offered[0]) if offered else None


LAPTOP_CASES = [
    (name, side) for name in GENRES for side in SIDES if easiest(name, side, side) is not None
]
"""Each genre at each side of `SIDES` its generator offers (a Star Battle stops at 15x15)."""


@cache
def board_of(name: str, side: int) -> str:
    """A board of the genre and side, made by the genre's own generator (a fixed seed)."""
    return service.generate(name, side, side, 3, easiest(name, side, side), 120).code


def cell_px(page: Any) -> float:
    box = page.locator("#ws-board [role=gridcell] rect").first.bounding_box()
    width: float = box["width"]
    return width


def draft(page: Any) -> dict[str, Any] | None:
    """The board being made, exactly as the workshop keeps it (walls, marks, clues, pin);
    None before its first edit."""
    state: dict[str, Any] | None = page.evaluate(
        "JSON.parse(localStorage.gridproof || '{}').draft?.state ?? null"
    )
    return state


def size_of(page: Any) -> tuple[int, int]:
    state = draft(page)
    assert state is not None
    return state["width"], state["height"]


def history(page: Any) -> tuple[int, int]:
    found = page.evaluate(
        "(() => { const d = JSON.parse(localStorage.gridproof).draft;"
        " return [d.undo.length, d.redo.length]; })()"
    )
    return found[0], found[1]


# --- 1. a laptop: the board fits width and height, the verdict beside it ----------------------


@pytest.mark.parametrize(("name", "side"), LAPTOP_CASES)
def test_a_laptop_shows_the_board_beside_its_verdict(
    laptop: Any, name: str, side: int, tmp_path: Path
) -> None:
    page = laptop
    open_editor(page, f"edit={board_of(name, side)}")
    assert settled(page, 90_000) == "unique"
    assert page.evaluate("window.scrollY") == 0
    assert in_view(page, "#ws-board-wrap")  # the frame, whole
    assert in_view(page, "#ws-verdict")
    board = page.locator("#ws-board-wrap").bounding_box()
    verdict = page.locator("#ws-verdict-box").bounding_box()
    assert verdict["x"] >= board["x"] + board["width"]  # beside it, not below
    px = cell_px(page)
    assert px >= MIN_PX - 0.05
    if side <= 15:  # the whole board is in view, at a size that plays well
        assert in_view(page, "#ws-board")
        assert px >= 24
    else:  # bigger than the room: the frame scrolls, the cells keep their size
        grows = page.evaluate(
            "(() => { const w = document.getElementById('ws-board-wrap');"
            " return w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight; })()"
        )
        assert grows or in_view(page, "#ws-board")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    if side == 30 and name == "nonogram":
        shot(page, "workshop-nonogram-30x30.png", tmp_path, full_page=False)


# --- 2. a phone: two fingers never draw ---------------------------------------------------------


def cell_centre(page: Any, cell: int) -> tuple[float, float]:
    box = page.locator(f"#ws-cell-{cell}").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def painted(page: Any) -> list[int]:
    return [i for i, label in enumerate(labels(page)) if ", painted" in label]


def test_two_fingers_pan_and_zoom_the_workshop_without_drawing(phone: Any, tmp_path: Path) -> None:
    page = phone
    open_editor(page, "edit=nonogram&size=30x30")
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert cell_px(page) >= MIN_PX - 0.05  # a comfortable target: the frame scrolls instead
    page.locator("#ws-board").scroll_into_view_if_needed()
    page.locator("#ws-cell-31").tap()  # one edit before the gestures
    assert painted(page) == [31]
    assert history(page) == (1, 0)
    cdp = page.context.new_cdp_session(page)

    def send(kind: str, points: list[tuple[float, float]]) -> None:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points(page, points)}
        )

    # a pan: the first finger lands on a cell (and paints it), the second follows
    a = cell_centre(page, 5 * 30 + 5)
    b = cell_centre(page, 5 * 30 + 9)
    send("touchStart", [a])
    assert 155 in painted(page)  # painting had begun
    send("touchStart", [a, b])
    for k in range(1, 16):
        send("touchMove", [(a[0] - 6 * k, a[1] - 4 * k), (b[0] - 6 * k, b[1] - 4 * k)])
    send("touchEnd", [])
    # a pinch: the fingers spread apart, about the middle of the frame (after the pan, a
    # given cell may lie under the sticky clue bands)
    frame = page.locator("#ws-board-wrap").bounding_box()
    middle = (frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
    a, b = (middle[0] - 27, middle[1]), (middle[0] + 27, middle[1])
    send("touchStart", [a])
    send("touchStart", [a, b])
    for k in range(1, 16):
        send("touchMove", [(a[0] - 1.5 * k, a[1]), (b[0] + 1.5 * k, b[1])])
    send("touchEnd", [])

    assert painted(page) == [31]  # nothing drawn by the gestures
    assert history(page) == (1, 0)  # and nothing to undo but the one edit
    scroll = page.evaluate(
        "() => { const w = document.getElementById('ws-board-wrap');"
        " return [w.scrollLeft, w.scrollTop]; }"
    )
    assert scroll[0] > 0 or scroll[1] > 0
    assert cell_px(page) > MIN_PX * 1.2  # zoomed in
    # the clues stay in view: the first row's clue band sits inside the frame on its left
    wrap = page.locator("#ws-board-wrap").bounding_box()
    clue = page.locator("#ws-board .band-left .clue").first.locator("text").last.bounding_box()
    assert wrap["x"] - 1 <= clue["x"] <= wrap["x"] + 0.5 * wrap["width"]
    assert settled(page) == "unique"
    shot(page, "workshop-phone-zoomed.png", tmp_path, full_page=False)
    page.tap("#ws-undo")  # exactly the one edit
    assert painted(page) == []
    expect(page.locator("#ws-undo")).to_be_disabled()


def test_a_border_begun_by_one_finger_is_taken_back_by_the_second(phone: Any) -> None:
    page = phone
    open_editor(page, "edit=norinori&size=10x10")
    settled(page)
    page.locator("#ws-board").scroll_into_view_if_needed()
    before = draft(page)
    cdp = page.context.new_cdp_session(page)

    def send(kind: str, points: list[tuple[float, float]]) -> None:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points(page, points)}
        )

    start, end = at(page, 3, 0), at(page, 3, 10)
    send("touchStart", [start])
    for k in range(1, 21):  # one finger runs down a grid line: a border parts the board
        send("touchMove", [(start[0], start[1] + (end[1] - start[1]) * k / 20)])
    # (the browser may hold the last move for the next frame)
    page.wait_for_function("() => document.getElementById('ws-board').dataset.regions === '2'")
    assert draft(page) == before  # (the draft is kept once a stroke ends)
    second = (end[0] + 80, end[1])
    send("touchStart", [end, second])
    for k in range(1, 11):
        send("touchMove", [(end[0], end[1] - 5 * k), (second[0], second[1] - 5 * k)])
    send("touchEnd", [])
    assert page.get_attribute("#ws-board", "data-regions") == "1"
    expect(page.locator("#ws-regions")).to_have_text("1 region")
    assert draft(page) == before
    expect(page.locator("#ws-undo")).to_be_disabled()


# --- 3. the board's shape ------------------------------------------------------------------


def reshape(page: Any, button: str) -> None:
    version = page.get_attribute("#ws-board", "data-version")
    page.click(f"#ws-{button}")
    page.wait_for_function(
        "(v) => document.getElementById('ws-board').dataset.version !== v", arg=version
    )


def lines(page: Any, edge: str, action: str) -> None:
    page.select_option("#ws-edge", edge)
    reshape(page, f"{action}-line")


def open_shape(page: Any) -> None:
    if not page.locator("#ws-shape").get_attribute("open"):
        page.click("#ws-shape summary")


@cache
def _board(name: str) -> str:
    """A board of the genre 8 wide and 5 high, made by its own generator; 7x7 for a genre
    whose boards are square (its generator makes no 8x5)."""
    try:
        return service.generate(name, 8, 5, 5, None, 60).code
    except GenerationError:
        return service.generate(name, 7, 7, 5, None, 60).code


def _size(name: str) -> tuple[int, int]:
    """The width and height of `_board(name)`."""
    puzzle = registry.genre(name).parse_code(_board(name))
    return puzzle.width, puzzle.height


@pytest.mark.parametrize("name", GENRES)
def test_turns_mirrors_and_lines_round_trip(page: Any, name: str) -> None:
    open_editor(page, f"edit={_board(name)}")
    settled(page)
    open_shape(page)
    start = draft(page)
    code = page_code(page)
    width, height = _size(name)
    for turn in range(4):
        reshape(page, "rotate-right")
        assert size_of(page) == ((height, width) if turn % 2 == 0 else (width, height))
    assert draft(page) == start
    for turn in ("rotate-left", "flip-h", "flip-v"):
        reshape(page, turn)
        assert draft(page) != start
        reshape(page, {"rotate-left": "rotate-right"}.get(turn, turn))
        assert draft(page) == start
    for edge in ("top", "bottom", "left", "right"):
        lines(page, edge, "add")
        assert size_of(page) in ((width + 1, height), (width, height + 1))
        lines(page, edge, "remove")
        assert draft(page) == start, edge
    page.fill("#ws-width", str(width + 2))
    page.fill("#ws-height", str(height + 2))
    reshape(page, "resize-go")
    assert size_of(page) == (width + 2, height + 2)
    page.fill("#ws-width", str(width))
    page.fill("#ws-height", str(height))
    reshape(page, "resize-go")
    assert draft(page) == start
    assert settled(page) in ("unique", "multiple", "none")
    assert page_code(page) == code
    # every change was one step: undo walks back through them all to the board opened
    assert history(page)[0] == 4 + 2 * 3 + 2 * 4 + 2 + 1  # (the opening is a step too)


@pytest.mark.parametrize("shape", ["8x5", "7x7 easiest"])
@pytest.mark.parametrize("name", GENRES)
def test_the_verdict_after_a_turn_is_the_turned_puzzles(page: Any, name: str, shape: str) -> None:
    genre = genres()[name]
    if shape == "8x5":
        code = _board(name)
    else:
        code = service.generate(name, 7, 7, 5, easiest(name, 7, 7), 60).code
    puzzle = genre.parse_code(code)
    open_editor(page, f"edit={code}")
    before = settled(page)
    assert page_code(page) == code
    assert before == engine_outcome(code)
    start = draft(page)
    open_shape(page)
    for button, symmetry in (
        ("rotate-right", Symmetry.ROTATE_90),
        ("rotate-right", Symmetry.ROTATE_180),
        ("flip-h", Symmetry.FLIP_V),  # a 180° turn mirrored left to right
    ):
        reshape(page, button)
        assert settled(page) == before
        assert page_code(page) == genre.format_code(genre.transform(puzzle, symmetry)), button
    for _ in range(3):
        page.click("#ws-undo")
    assert draft(page) == start
    assert settled(page) == before
    assert page_code(page) == code


def test_a_painted_picture_turns_with_its_clues(page: Any) -> None:
    picture = [".###..", "#...#.", "#####.", "#...##"]  # 6 wide, 4 high
    open_editor(page, "edit=nonogram&size=5x5")
    open_shape(page)
    page.fill("#ws-width", "6")
    page.fill("#ws-height", "4")
    reshape(page, "resize-go")
    for r, row in enumerate(picture):
        for c, ch in enumerate(row):
            if ch == "#":
                page.click(f"#ws-cell-{r * 6 + c}")
    before = draft(page)
    reshape(page, "rotate-right")
    turned = ["".join(picture[3 - r][c] for r in range(4)) for c in range(6)]  # 4 wide, 6 high
    expected = [i for i, ch in enumerate("".join(turned)) if ch == "#"]
    assert painted(page) == expected
    columns = ["".join(row[c] for row in turned) for c in range(4)]
    runs = [" ".join(str(len(run)) for run in line.split(".") if run) or "0" for line in turned]
    runs += [" ".join(str(len(run)) for run in line.split(".") if run) or "0" for line in columns]
    bands: list[str] = page.eval_on_selector_all(
        "#ws-board .clue",
        "gs => gs.map(g => [...g.querySelectorAll('text')].map(t => t.textContent).join(' '))",
    )
    assert bands == runs
    settled(page)
    page.click("#ws-undo")
    assert draft(page) == before


def test_reshaping_is_the_same_function_on_random_boards(page: Any) -> None:
    """The module itself, in the browser, on 300 random boards of 1 to 7 cells a side, walls,
    marks, typed clues and a pinned solution included: four quarter turns, a turn and its
    inverse, each mirror twice, and a line added then removed at each edge give back the
    board; a 180° turn is both mirrors; a picture's clues, carried, are the carried picture's."""
    open_editor(page, "edit=nonogram&size=5x5")
    failures = page.evaluate(RESHAPE_CHECK.read_text())
    assert failures == []


def test_new_lines_extend_the_regions_beside_them(page: Any) -> None:
    open_editor(page, f"edit={_board('norinori')}")
    width, height = _size("norinori")
    settled(page)
    open_shape(page)
    count = page.inner_text("#ws-regions")
    for edge in ("top", "bottom", "left", "right"):
        lines(page, edge, "add")
        expect(page.locator("#ws-regions")).to_have_text(count)  # no two regions merged
    assert size_of(page) == (width + 2, height + 2)
    page.select_option("#ws-edge", "top")
    for _ in range(height + 1):
        page.click("#ws-remove-line")
    expect(page.locator("#ws-remove-line")).to_be_disabled()  # a board keeps one row
    assert size_of(page) == (width + 2, 1)
