"""The player on real screens (issue #15), in Debian's chromium through Playwright: a big
board fits a 1366×768 laptop with its status in view; on a touch screen two fingers pan and
zoom without painting and undo stays exact, with the clues in view; a region border shows
between two shaded cells in both themes (read off a screenshot's pixels); printing shows the
puzzle alone.

Screenshots go to `$GRIDPROOF_SCREENSHOTS` when it is set, else to a temporary folder.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import expect

from gridproof import service
from gridproof.core.registry import genres
from tests.web.conftest import PHONE, hint_in_full, shot
from tests.web.test_player import open_new, playable, solution_of, state, states, type_rows


@pytest.fixture(scope="module")
def big_norinori() -> str:
    code: str = service.generate("norinori", 15, 15, 3, "easy", 60).code
    return code


@pytest.fixture(scope="module")
def big_nonogram() -> str:
    code: str = service.generate("nonogram", 25, 25, 3, "easy", 60).code
    return code


def open_code(page: Any, code: str) -> None:
    page.goto(f"/?code={code}")
    page.wait_for_selector("#board[data-code]")
    if page.locator("#lesson-close").is_visible():
        page.click("#lesson-close")


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(
        box
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


# --- 1. the board fits the window, the status beside it ---------------------------------------


def test_a_15x15_board_fits_a_laptop_screen_with_its_hint_in_view(
    laptop: Any, big_norinori: str, tmp_path: Path
) -> None:
    page = laptop
    open_code(page, big_norinori)
    assert page.evaluate("window.scrollY") == 0
    assert in_view(page, "#board")
    box = page.locator("#board").bounding_box()
    assert box["width"] / 15 >= 24  # cells stay large enough to play
    page.locator("#board").focus()
    genre = genres()["norinori"]
    type_rows(page, solution_of(genre, big_norinori), 15, range(4), empty=True)
    hint_in_full(page, "h")
    expect(page.locator("#status .rule")).to_be_visible()
    for selector in ("#status", "#hint", "#undo", "#mode-shade", "#timer"):
        assert in_view(page, selector), selector
    assert page.evaluate("window.scrollY") == 0  # nothing had to scroll
    shot(page, "norinori-15x15.png", tmp_path, full_page=False)


def test_a_15x15_board_on_a_phone_fits_its_width(
    phone: Any, big_norinori: str, tmp_path: Path
) -> None:
    page = phone
    open_code(page, big_norinori)
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    assert box["height"] <= PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    cells = playable(page)
    page.locator(f"#cell-{cells[0]}").tap()
    assert state(page, cells[0]) == "shaded"
    page.locator("#board").scroll_into_view_if_needed()
    shot(page, "norinori-15x15-phone.png", tmp_path, full_page=False)


# --- 2. two fingers never paint ------------------------------------------------------------


def touch_points(page: Any, points: list[tuple[float, float]]) -> list[dict[str, float]]:
    return [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]


def cell_centre(page: Any, cell: int) -> tuple[float, float]:
    box = page.locator(f"#cell-{cell}").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_two_fingers_pan_and_zoom_a_big_board_without_painting(
    phone: Any, big_nonogram: str, tmp_path: Path
) -> None:
    page = phone
    open_code(page, big_nonogram)
    page.locator("#board").scroll_into_view_if_needed()
    decided = playable(page)[0]
    page.locator(f"#cell-{decided}").tap()  # one decision before the gestures
    assert state(page, decided) == "shaded"
    cdp = page.context.new_cdp_session(page)

    def send(kind: str, points: list[tuple[float, float]]) -> None:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points(page, points)}
        )

    # a pan: the first finger lands on a cell (and starts painting), the second follows
    a = cell_centre(page, 5 * 25 + 5)
    b = cell_centre(page, 5 * 25 + 9)
    send("touchStart", [a])
    send("touchStart", [a, b])
    for k in range(1, 16):
        send("touchMove", [(a[0] - 6 * k, a[1] - 4 * k), (b[0] - 6 * k, b[1] - 4 * k)])
    send("touchEnd", [])
    # a pinch: the fingers spread apart
    a = cell_centre(page, 6 * 25 + 3)
    b = cell_centre(page, 6 * 25 + 6)
    send("touchStart", [a])
    send("touchStart", [a, b])
    for k in range(1, 16):
        send("touchMove", [(a[0] - 1.5 * k, a[1]), (b[0] + 1.5 * k, b[1])])
    send("touchEnd", [])

    marked = [i for i, s in enumerate(states(page)) if s != "unknown"]
    assert marked == [decided]  # nothing painted by the gestures
    width = page.locator("#board").bounding_box()["width"]
    assert width > PHONE["width"]  # zoomed in
    scroll = page.evaluate(
        "() => { const w = document.getElementById('board-wrap');"
        " return [w.scrollLeft, w.scrollTop]; }"
    )
    assert scroll[0] > 0 or scroll[1] > 0
    # the clues stay in view: the first row's clue sits inside the frame on its left
    wrap = page.locator("#board-wrap").bounding_box()
    clue = page.locator("#board .band-left .clue").first.locator("text").last.bounding_box()
    assert wrap["x"] - 1 <= clue["x"] <= wrap["x"] + 0.5 * wrap["width"]
    page.evaluate("document.getElementById('board-wrap').scrollIntoView()")
    shot(page, "nonogram-phone-zoomed.png", tmp_path, full_page=False)
    page.tap("#undo")  # exactly the one decision
    assert set(states(page)) == {"unknown"}
    expect(page.locator("#undo")).to_be_disabled()


def test_zoom_buttons_keep_the_cell_in_view_for_the_keyboard(
    laptop: Any, big_nonogram: str
) -> None:
    page = laptop
    open_code(page, big_nonogram)
    expect(page.locator("#zoom")).to_be_visible()
    before = page.locator("#board").bounding_box()["width"]
    for _ in range(3):
        page.click("#zoom-in")
    assert page.locator("#board").bounding_box()["width"] > before * 1.5
    page.locator("#board").focus()
    page.keyboard.press("Control+End")  # the far corner: the frame scrolls to it
    ring = page.locator("#board .focus-ring").bounding_box()
    wrap = page.locator("#board-wrap").bounding_box()
    assert wrap["x"] <= ring["x"]
    assert ring["x"] + ring["width"] <= wrap["x"] + wrap["width"] + 1
    assert wrap["y"] <= ring["y"]
    assert ring["y"] + ring["height"] <= wrap["y"] + wrap["height"] + 1
    page.click("#zoom-fit")
    assert abs(page.locator("#board").bounding_box()["width"] - before) < 2


# --- 4. region borders on every cell state -------------------------------------------------


def luminance(pixel: tuple[int, ...]) -> float:
    r, g, b = (v / 255 for v in pixel[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_region_border_shows_between_two_shaded_cells(page: Any, theme: str) -> None:
    genre = genres()["norinori"]
    code = open_new(page, genre)
    if theme == "dark":
        page.click("#theme")
    regions = genre.to_json(genre.parse_code(code))["regions"]
    width = len(regions[0])
    r, c = next(
        (r, c) for r, row in enumerate(regions) for c in range(width - 1) if row[c] != row[c + 1]
    )
    left, right = r * width + c, r * width + c + 1
    page.click(f"#cell-{left}")
    page.click(f"#cell-{right}")
    assert (state(page, left), state(page, right)) == ("shaded", "shaded")
    page.mouse.move(0, 0)
    a = page.locator(f"#cell-{left} rect").bounding_box()
    png = page.screenshot(
        clip={"x": a["x"], "y": a["y"] + a["height"] / 2 - 2, "width": 2 * a["width"], "height": 4},
        animations="disabled",
    )
    image = Image.open(io.BytesIO(png)).convert("RGB")
    row = [luminance(image.getpixel((x, image.height // 2))) for x in range(image.width)]
    scale = image.width / (2 * a["width"])
    middle = round(a["width"] * scale)  # the border line between the two cells
    shade = row[round(a["width"] * scale / 2)]  # the middle of the left cell
    near = row[middle - round(8 * scale) : middle + round(8 * scale) + 1]
    halo = max(near, key=lambda v: abs(v - shade))
    # beside the border a band unlike the shading, and the border line unlike that band
    assert abs(halo - shade) > 0.35, (theme, row)
    assert abs(row[middle] - halo) > 0.35, (theme, row)


def test_a_hint_highlight_shows_on_shaded_cells(page: Any) -> None:
    genre = genres()["norinori"]
    code = open_new(page, genre)
    solution = solution_of(genre, code)
    width, height = genre.parse_code(code).width, genre.parse_code(code).height
    page.locator("#board").focus()
    type_rows(page, solution, width, range(height - 1), empty=True)
    page.click("#hint")
    expect(page.locator("#board .hl").first).to_be_visible()
    rings = page.locator("#board .hl-ring")
    assert rings.count() == page.locator("#board .hl").count()
    ring = page.evaluate("getComputedStyle(document.querySelector('#board .hl-ring')).stroke")
    shade = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--shade')")
    assert ring.replace(" ", "") != shade.strip()


# --- printing ------------------------------------------------------------------------------


def test_printing_shows_the_puzzle_alone_large_and_blank(page: Any) -> None:
    genre = genres()["nonogram"]
    open_new(page, genre)
    cell = playable(page)[0]
    page.click(f"#cell-{cell}")
    page.emulate_media(media="print")
    for hidden in (
        "#setup",
        ".top",
        ".modes",
        "#hint",
        "#status",
        ".side",
        "#share-panel",
        "footer",
        "#timer",
    ):
        expect(page.locator(hidden).first).to_be_hidden()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#puzzle-title")).to_be_visible()
    width = page.locator("#board").bounding_box()["width"]
    assert width >= 0.8 * page.viewport_size["width"]
    fill = page.evaluate(f"getComputedStyle(document.querySelector('#cell-{cell} rect')).fill")
    assert fill == "rgb(255, 255, 255)"  # the puzzle prints blank
    assert page.locator("#board .clue text").first.is_visible()  # with its clues
    page.emulate_media(media="screen")
    expect(page.locator("#hint")).to_be_visible()
