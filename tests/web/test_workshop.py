"""The workshop (the player's Edit mode) in Debian's real chromium, driven by Playwright
against the real server, the way `test_player.py` drives the player.

A Norinori drawn from scratch, edge by edge and drag by drag, to a board the verdict calls
unique (and, on the way, what the engine here in Python says of the same board); an
ambiguous board with its two solutions overlaid, repaired by one suggested edit; "Make
unique", publishing, keeping in the bank and "Play it"; a Nonogram painted (its clues
follow) and one imported from a PNG the test writes itself, with the threshold moved;
Nondango from "Edit this puzzle" with circles and the rule variant; the keyboard alone; a
reload keeps the draft; an answer for an older board is dropped; a 360×740 touch screen.

Screenshots go to `$GRIDPROOF_SCREENSHOTS` when it is set, else to a temporary folder.
"""

from __future__ import annotations

import itertools
import json
import re
import struct
import zlib
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from gridproof import bank, service
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GridproofError
from gridproof.core.registry import genres
from gridproof.service import workshop
from tests.web import test_player as player
from tests.web.conftest import LiveServer, shot

DRAWN = "https://puzz.link/p?norinori/5/5/cag4ocjo"  # a unique 5×5 Norinori (the README's)
PAINTED = [".###.", "#...#", "#####", "#...#", "#...#"]  # a unique 5×5 Nonogram picture
UNSETTLED = ("", "pending", "stale")


# --- helpers -------------------------------------------------------------------------------


def loaded(source: str) -> service.Loaded:
    return service.load(source, files=False)[0]


def engine_outcome(source: str) -> str:
    return str(service.count(loaded(source), 2, 20).verdict)


def code_of_json(data: dict[str, Any]) -> str:
    item = loaded(json.dumps(data))
    return item.genre.format_code(item.puzzle)


def settled(page: Any, timeout: float = 30_000) -> str:
    """Wait for the verdict on the board as it is now (not an older one) and return it."""
    page.wait_for_function(
        """(unsettled) => {
            const box = document.getElementById('ws-verdict-box');
            const board = document.getElementById('ws-board');
            return box.dataset.version === board.dataset.version
                && !unsettled.includes(box.dataset.outcome);
        }""",
        arg=list(UNSETTLED),
        timeout=timeout,
    )
    outcome: str = page.get_attribute("#ws-verdict-box", "data-outcome")
    return outcome


def open_editor(page: Any, query: str) -> None:
    page.goto(f"/?{query}")
    page.wait_for_selector("#ws-board [role=gridcell]")
    expect(page.locator("#workshop")).to_be_visible()
    expect(page.locator("#player")).to_be_hidden()


def at(page: Any, x: float, y: float) -> tuple[float, float]:
    """The page position of a point of the grid, in cells from its top-left corner."""
    point: list[float] = page.evaluate(
        """([cx, cy]) => {
            const svg = document.getElementById('ws-board');
            const bg = svg.querySelector('.bg');
            const x = +bg.getAttribute('x') + cx * 40;
            const y = +bg.getAttribute('y') + cy * 40;
            const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [x, y],
    )
    return point[0], point[1]


def click_at(page: Any, x: float, y: float) -> None:
    page.mouse.click(*at(page, x, y))


def drag(page: Any, points: list[tuple[float, float]]) -> None:
    page.mouse.move(*at(page, *points[0]))
    page.mouse.down()
    for point in points[1:]:
        page.mouse.move(*at(page, *point), steps=12)
    page.mouse.up()


def labels(page: Any) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        "#ws-board [role=gridcell]", "cells => cells.map(c => c.getAttribute('aria-label'))"
    )
    return found


def canonical(ids: list[int]) -> list[int]:
    """Region ids renamed in order of first appearance."""
    names: dict[int, int] = {}
    return [names.setdefault(i, len(names)) for i in ids]


def page_regions(page: Any) -> list[int]:
    found = [re.search(r"region (\d+)", label) for label in labels(page)]
    assert all(found)
    return canonical([int(m.group(1)) for m in found if m])


def walls_of(regions: list[list[int]]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(right walls, down walls) as (row, col) of the cell left of / above the wall."""
    h, w = len(regions), len(regions[0])
    right = [(r, c) for r in range(h) for c in range(w - 1) if regions[r][c] != regions[r][c + 1]]
    down = [(r, c) for r in range(h - 1) for c in range(w) if regions[r][c] != regions[r + 1][c]]
    return right, down


def horizontal_runs(down: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Down walls joined along their grid line: (line, first col, last col + 1)."""
    runs: list[tuple[int, int, int]] = []
    for r, c in sorted(down):
        if runs and runs[-1][0] == r + 1 and runs[-1][2] == c:
            runs[-1] = (r + 1, runs[-1][1], c + 1)
        else:
            runs.append((r + 1, c, c + 1))
    return runs


def page_code(page: Any) -> str:
    link: str = page.input_value("#ws-share")
    assert "/#" in link
    return link.split("/#", 1)[1]


def runs_of(line: str) -> list[int]:
    return [len(run) for run in re.findall(r"#+", line)]


def band_clues(page: Any) -> list[str]:
    """The clue bands as drawn: the rows' first, then the columns'."""
    found: list[str] = page.eval_on_selector_all(
        "#ws-board .clue",
        """groups => groups.map(
            g => [...g.querySelectorAll('text')].map(t => t.textContent).join(' '))""",
    )
    return found


def expected_bands(picture: list[str]) -> list[str]:
    columns = ["".join(row[c] for row in picture) for c in range(len(picture[0]))]
    return [" ".join(map(str, runs_of(line))) or "0" for line in [*picture, *columns]]


def png(pixels: list[list[int]], block: int) -> bytes:
    """A greyscale picture as PNG bytes, each value a block×block square (zlib and struct)."""
    rows = [bytes(v for v in row for _ in range(block)) for row in pixels for _ in range(block)]
    raw = b"".join(b"\x00" + row for row in rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", len(pixels[0]) * block, len(pixels) * block, 8, 0, 0, 0, 0)
    body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


def _relative_luminance(css: str) -> float:
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(part) / 255) for part in re.findall(r"\d+", css)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_relative_luminance(a), _relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# --- Norinori ------------------------------------------------------------------------------


def test_a_norinori_drawn_from_scratch_becomes_unique(page: Any) -> None:
    target = loaded(DRAWN)
    regions = target.genre.to_json(target.puzzle)["regions"]
    right, down = walls_of(regions)
    open_editor(page, "edit=norinori&size=5x5")
    first = settled(page)
    assert first == engine_outcome(page_code(page)) != "unique"

    # Horizontal walls by dragging along their grid lines (single ones by a click) ...
    for line, start, end in horizontal_runs(down):
        if end - start == 1:
            click_at(page, start + 0.5, line)
        else:
            drag(page, [(start, line), (end, line)])
    middle = settled(page)
    code = page_code(page)
    assert middle == engine_outcome(code) != "unique"
    said = page.inner_text("#ws-verdict")

    # ... and the vertical ones by clicking near each edge.
    for r, c in right:
        click_at(page, c + 1 - 0.1, r + 0.5)
    assert settled(page) == "unique"
    assert page.inner_text("#ws-verdict") != said
    assert page_regions(page) == canonical([i for row in regions for i in row])
    assert engine_outcome(page_code(page)) == "unique"
    expect(page.locator("#ws-facts")).to_contain_text("Grade")
    expect(page.locator("#ws-regions")).to_have_text(f"{1 + max(max(r) for r in regions)} regions")

    # The solve path: each step names its rule, highlights its cells, shades what it decides.
    steps = page.locator("#ws-step-count")
    expect(steps).to_contain_text("Step 0 of")
    total = int(steps.inner_text().rsplit(" ", 1)[1])
    assert total >= 1
    page.click("#ws-step-next")
    expect(steps).to_have_text(f"Step 1 of {total}")
    assert page.inner_text("#ws-step-text .rule").strip().endswith(":")
    assert page.locator("#ws-board .hl").count() >= 1
    page.click("#ws-step-last")
    shaded = page.eval_on_selector_all(
        "#ws-board [role=gridcell]", "cs => cs.filter(c => c.dataset.state === 'shaded').length"
    )
    assert shaded == 2 * (1 + max(max(r) for r in regions))  # two per region: the solution
    expect(page.locator("#ws-step-next")).to_be_disabled()
    page.click("#ws-step-prev")
    expect(steps).to_have_text(f"Step {total - 1} of {total}")


def ambiguous_code() -> str:
    """The drawn board with one cell moved into a neighbouring region, so that it has two
    solutions, where the workshop (the server's own module, asked here) lists a single edit
    that makes it unique again."""
    data = loaded(DRAWN).genre.to_json(loaded(DRAWN).puzzle)
    regions = data["regions"]
    h, w = len(regions), len(regions[0])
    for r, c, (dr, dc) in itertools.product(range(h), range(w), ((0, 1), (1, 0), (0, -1), (-1, 0))):
        if not (0 <= r + dr < h and 0 <= c + dc < w) or regions[r + dr][c + dc] == regions[r][c]:
            continue
        moved = [list(row) for row in regions]
        moved[r][c] = regions[r + dr][c + dc]
        try:
            code = code_of_json({**data, "regions": moved})
        except GridproofError:  # the move cut its old region in two
            continue
        if engine_outcome(code) != "multiple":
            continue
        fixes = workshop.suggest(loaded(code), None, Deadline(20), 6).to_json()["edits"]
        if any(fix["outcome"] == "unique" for fix in fixes):
            return code
    raise AssertionError("no single move leaves two solutions that one edit fixes")


def test_an_ambiguous_board_is_repaired_by_one_suggested_edit(page: Any, tmp_path: Path) -> None:
    code = ambiguous_code()
    open_editor(page, f"edit={code}")
    assert settled(page) == "multiple"
    assert page_code(page) == code
    facts = page.inner_text("#ws-facts")
    differ = int(re.search(r"differ in (\d+) cell", facts).group(1))  # type: ignore[union-attr]
    assert differ >= 2
    expect(page.locator("#ws-board .differ")).to_have_count(differ)
    tags = page.eval_on_selector_all("#ws-board .differ-label", "ts => ts.map(t => t.textContent)")
    assert sorted(set(tags)) == ["1", "2"]  # each solution shades some of those cells
    page.click("#ws-view-2")
    expect(page.locator("#ws-view-2")).to_have_attribute("aria-checked", "true")
    expect(page.locator("#ws-board .differ")).to_have_count(differ)
    assert page.locator("#ws-board .cell.shaded").count() > 0  # solution 2 drawn
    page.click("#ws-view-both")

    page.click("#ws-suggest")
    fixes = page.locator("#ws-fixes .fix")
    expect(fixes.first).to_be_visible(timeout=30_000)
    unique = page.locator("#ws-fixes .fix[data-outcome=unique]").first
    expect(unique).to_contain_text("unique")
    unique.hover()
    assert page.locator("#ws-board .hl.target").count() >= 1
    assert page.locator("#ws-board .differ").count() == 0
    page.mouse.move(0, 0)  # away again: the two solutions come back
    expect(page.locator("#ws-board .differ")).to_have_count(differ)
    assert page.locator("#ws-board .hl.target").count() == 0
    shot(page, "workshop-norinori.png", tmp_path)
    text = unique.locator(".fix-text").inner_text()
    unique.click()
    assert settled(page) == "unique"
    expect(page.locator("#ws-repair-status")).to_have_text(f"Applied: {text}.")
    assert engine_outcome(page_code(page)) == "unique"
    page.click("#ws-undo")  # the fix was one step
    assert settled(page) == "multiple"
    assert page_code(page) == code


def test_make_unique_then_publish_keep_and_play_it(
    page: Any, browser: Any, live_server: LiveServer, bank_path: Path
) -> None:
    open_editor(page, f"edit={ambiguous_code()}")
    assert settled(page) == "multiple"
    expect(page.locator("#ws-keep")).to_be_disabled()
    page.click("#ws-unique")
    expect(page.locator("#ws-repair-status")).to_contain_text("Made unique with", timeout=40_000)
    assert settled(page) == "unique"
    changed = re.search(r"with (\d+) edit", page.inner_text("#ws-repair-status"))
    assert changed
    assert int(changed.group(1)) >= 1
    code = page_code(page)
    assert engine_outcome(code) == "unique"
    assert page.input_value("#ws-share") == f"{live_server.url}/#{code}"
    assert page.input_value("#ws-url").startswith("https://puzz.link/p?norinori/5/5/")
    assert engine_outcome(page.input_value("#ws-url")) == "unique"

    page.click("#ws-keep")
    expect(page.locator("#ws-publish-status")).to_contain_text("bank")
    record = bank.Bank(bank_path).find(code)
    assert record is not None

    friend = browser.new_context(base_url=live_server.url)  # the share link, elsewhere
    other = friend.new_page()
    other.goto(page.input_value("#ws-share"))
    other.wait_for_selector("#board[data-code]")
    assert player.code_of(other) == code
    friend.close()

    page.click("#ws-play")
    page.wait_for_function(
        "code => document.getElementById('board').dataset.code === code", arg=code
    )
    expect(page.locator("#player")).to_be_visible()
    expect(page.locator("#workshop")).to_be_hidden()
    expect(page.locator("#show-player")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#notice")).to_be_hidden()  # proven unique
    expect(page.locator("#puzzle-info")).to_contain_text("workshop")
    player.solve_with_keys(page, genres()["norinori"], code)


# --- Nonogram ------------------------------------------------------------------------------


def test_a_painted_nonogram_gets_its_clues_and_a_verdict(page: Any, tmp_path: Path) -> None:
    open_editor(page, "edit=nonogram&size=5x5")
    settled(page)
    drag(page, [(0.5, 2.5), (4.5, 2.5)])  # a whole row in one drag
    assert band_clues(page)[2] == "5"
    for r, row in enumerate(PAINTED):
        for c, ch in enumerate(row):
            if ch == "#" and r != 2:
                click_at(page, c + 0.5, r + 0.5)
    assert band_clues(page) == expected_bands(PAINTED)  # the clues follow the picture
    painted = [label for label in labels(page) if ": painted" in label or ", painted" in label]
    assert len(painted) == "".join(PAINTED).count("#")
    assert settled(page) == engine_outcome(page_code(page)) == "unique"
    page.click("#ws-step-next")
    page.click("#ws-step-next")
    expect(page.locator("#ws-step-text .rule")).to_be_visible()
    shot(page, "workshop-nonogram.png", tmp_path)

    click_at(page, 0.5, 0.5)  # one more pixel: the clues and the verdict move on
    assert band_clues(page)[0] == "4"
    assert settled(page) == engine_outcome(page_code(page))

    page.click("#ws-type")  # type the clues instead
    expect(page.locator("#ws-clues")).to_be_visible()
    first_row = page.locator("#ws-row-clues input").first
    expect(first_row).to_have_value("4")
    first_row.fill("3")
    assert band_clues(page)[0] == "3"
    first_row.fill("9")
    expect(first_row).to_have_attribute("aria-invalid", "true")
    assert band_clues(page)[0] == "3"
    picture = ["####.", *PAINTED[1:]]
    typed = {"genre": "nonogram", "width": 5, "height": 5}
    typed["rows"] = [[3], *(runs_of(line) for line in picture[1:])]
    typed["cols"] = [runs_of("".join(row[c] for row in picture)) for c in range(5)]
    try:
        expected = engine_outcome(json.dumps(typed))
    except GridproofError as error:  # clues that cannot be a picture: the server says why
        assert settled(page) == "error"
        expect(page.locator("#ws-verdict")).to_contain_text(str(error)[:40])
    else:
        assert settled(page) == expected


def test_a_picture_file_becomes_a_nonogram(page: Any, tmp_path: Path) -> None:
    black, grey, white = 0, 140, 255  # grey: lightness 0.55
    pixels = [
        [black, white, white, white, black],
        [white, black, white, black, white],
        [white, white, grey, white, white],
        [white, black, white, black, white],
        [black, white, white, white, black],
    ]
    path = tmp_path / "cross.png"
    path.write_bytes(png(pixels, 12))
    open_editor(page, "edit=nonogram&size=5x5")
    page.click("#ws-picture summary")
    page.set_input_files("#ws-file", str(path))
    expect(page.locator("#ws-picture-info")).to_contain_text("8 of 25 cells painted")
    page.locator("#ws-threshold").focus()
    for _ in range(10):  # the slider, moved with the keyboard: 50% -> 60%
        page.keyboard.press("ArrowRight")
    expect(page.locator("#ws-threshold-value")).to_have_text("60%")
    expect(page.locator("#ws-picture-info")).to_contain_text("9 of 25 cells painted")
    expect(page.locator("#ws-preview")).to_be_visible()
    page.click("#ws-picture-use")
    cross = ["#...#", ".#.#.", "..#..", ".#.#.", "#...#"]
    assert band_clues(page) == expected_bands(cross)
    assert settled(page) == engine_outcome(page_code(page))

    page.select_option("#ws-picture-size", "10x10")  # another size: the same picture, finer
    page.click("#ws-picture-use")
    expect(page.locator("#ws-title")).to_contain_text("10×10")
    big = ["".join(ch * 2 for ch in row) for row in cross for _ in range(2)]
    assert band_clues(page) == expected_bands(big)


def test_a_nonogram_code_opens_as_clues_and_is_painted_from_its_solution(page: Any) -> None:
    columns = ["".join(row[c] for row in PAINTED) for c in range(5)]
    data = {"genre": "nonogram", "width": 5, "height": 5}
    code = code_of_json(
        {**data, "rows": [runs_of(r) for r in PAINTED], "cols": [runs_of(c) for c in columns]}
    )
    open_editor(page, f"edit={code}")
    assert settled(page) == "unique"
    expect(page.locator("#ws-type")).to_have_attribute("aria-checked", "true")
    values = [i.input_value() for i in page.locator("#ws-clues input").all()]
    assert values == [" ".join(map(str, runs_of(line))) for line in [*PAINTED, *columns]]
    assert not [label for label in labels(page) if ", painted" in label]
    page.click("#ws-paint")  # the picture is the unique solution
    assert band_clues(page) == expected_bands(PAINTED)
    painted = [label for label in labels(page) if ", painted" in label]
    assert len(painted) == "".join(PAINTED).count("#")
    assert settled(page) == "unique"
    assert page_code(page) == code


# --- Nondango ------------------------------------------------------------------------------


def test_nondango_from_edit_this_puzzle_with_circles_and_the_rule(
    page: Any, tmp_path: Path
) -> None:
    genre = genres()["nondango"]
    code = player.open_new(page, genre)
    page.click("#edit-this")
    expect(page.locator("#workshop")).to_be_visible()
    assert settled(page) == "unique"
    assert page_code(page) == code
    expect(page.locator("#ws-tools")).to_be_visible()
    data = genre.to_json(genre.parse_code(code))

    # A circle added where it leaves two solutions (the engine here finds where).
    flat = [v for row in data["circles"] for v in row]
    width = data["width"]
    cell = next(
        i
        for i, v in enumerate(flat)
        if not v and engine_outcome(code_of_json({**data, "circles": _with(data, i)})) == "multiple"
    )
    page.click("#ws-tool-cell")
    click_at(page, cell % width + 0.5, cell // width + 0.5)
    assert settled(page) == "multiple"
    assert page.locator("#ws-board .differ").count() >= 1
    shot(page, "workshop-nondango.png", tmp_path)
    light = _differ_contrast(page)
    page.click("#theme")
    assert page.get_attribute("html", "data-theme") == "dark"
    assert min(light, _differ_contrast(page)) >= 3  # the ambiguous cells stand out in both
    page.click("#theme")

    page.select_option("#ws-option-rule", "no-three-black")
    outcome = settled(page)
    assert outcome == engine_outcome(page_code(page))
    assert genre.to_json(genre.parse_code(page_code(page)))["rule"] == "no-three-black"

    page.click("#ws-tool-border")  # borders still work beside circles
    had = "right" in _borders(page, 0)
    click_at(page, 1, 0.5)
    assert ("right" in _borders(page, 0)) != had
    assert settled(page) == engine_outcome(page_code(page))


def _borders(page: Any, cell: int) -> str:
    label = page.get_attribute(f"#ws-cell-{cell}", "aria-label") or ""
    return label.rsplit("border", 1)[-1]


def _with(data: dict[str, Any], cell: int) -> list[list[int]]:
    width = data["width"]
    rows = [list(row) for row in data["circles"]]
    rows[cell // width][cell % width] = 1
    return rows


def _differ_contrast(page: Any) -> float:
    stroke = page.evaluate("getComputedStyle(document.querySelector('#ws-board .differ')).stroke")
    cell = page.evaluate("getComputedStyle(document.querySelector('#ws-board .bg')).fill")
    return contrast(stroke, cell)


# --- timeouts, the keyboard, the draft, late answers ------------------------------------


def test_a_timeout_is_said_and_never_drawn_as_an_answer(page: Any) -> None:
    def out_of_time(route: Any) -> None:  # the server's reply when the count runs out
        body = json.loads(route.request.post_data or "{}")
        source = json.loads(body["source"])
        route.fulfill(
            json={
                "version": body["version"],
                "id": "json",
                "genre": source["genre"],
                "code": code_of_json(source),
                "url": None,
                "width": source["width"],
                "height": source["height"],
                "outcome": "timeout",
                "solutions": [],
                "differ": [],
                "reason": None,
                "grade": None,
                "score": None,
                "path": [],
                "keep_problem": None,
                "text": "The count did not finish in 4 s.",
                "elapsed_s": 4.0,
            }
        )

    page.route("**/api/workshop/verdict", out_of_time)
    open_editor(page, "edit=norinori&size=5x5")
    assert settled(page) == "timeout"
    expect(page.locator("#ws-verdict")).to_have_text(
        "Not decided: The count did not finish in 4 s."
    )
    assert page.locator("#ws-board .hl, #ws-board .differ").count() == 0
    assert page.locator("#ws-board .cell.shaded").count() == 0
    expect(page.locator("#ws-step")).to_be_hidden()
    expect(page.locator("#ws-views")).to_be_hidden()
    expect(page.locator("#ws-repair")).to_be_hidden()
    expect(page.locator("#ws-keep")).to_be_disabled()


def test_the_keyboard_alone_draws_borders_and_circles(page: Any) -> None:
    open_editor(page, "edit=norinori&size=5x5")
    settled(page)
    page.locator("#ws-board").focus()
    assert page.get_attribute("#ws-board", "aria-activedescendant") == "ws-cell-0"
    page.keyboard.press("ArrowRight")
    for _ in range(5):  # a wall down the whole grid right of column 2
        page.keyboard.press("Shift+ArrowRight")
        page.keyboard.press("ArrowDown")
    expect(page.locator("#ws-regions")).to_have_text("2 regions")
    assert "borders right" in (page.get_attribute("#ws-cell-1", "aria-label") or "")
    assert page.get_attribute("#ws-board", "aria-activedescendant") == "ws-cell-21"
    assert settled(page) == engine_outcome(page_code(page))
    page.keyboard.press("Control+z")  # one key press, one step
    expect(page.locator("#ws-regions")).to_have_text("1 region")
    page.keyboard.press("Control+y")
    expect(page.locator("#ws-regions")).to_have_text("2 regions")

    page.keyboard.press("Home")
    for _ in range(4):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Shift+ArrowRight")  # r1c1 alone: a region of one cell
    page.keyboard.press("Shift+ArrowDown")
    assert settled(page) == "none"
    expect(page.locator("#ws-verdict")).to_contain_text("region")
    assert page.locator("#ws-board .hl.wrong").count() >= 1

    page.select_option("#ws-genre", "nondango")
    page.select_option("#ws-size", "5x5")
    page.click("#ws-blank")
    page.locator("#ws-board").focus()
    page.keyboard.press("Space")
    assert ", circle" in (page.get_attribute("#ws-cell-0", "aria-label") or "")
    page.keyboard.press("Space")
    assert "no circle" in (page.get_attribute("#ws-cell-0", "aria-label") or "")


def test_the_draft_survives_a_reload(page: Any) -> None:
    open_editor(page, "edit=norinori&size=7x7")
    drag(page, [(3, 0), (3, 7)])  # one drag down a whole grid line
    expect(page.locator("#ws-regions")).to_have_text("2 regions")
    click_at(page, 0.5, 2)
    regions = page_regions(page)
    page.reload()
    page.wait_for_selector("#ws-board [role=gridcell]")
    expect(page.locator("#workshop")).to_be_visible()
    assert page_regions(page) == regions
    expect(page.locator("#ws-title")).to_contain_text("7×7")
    page.click("#ws-undo")
    page.click("#ws-undo")  # the drag was one step
    expect(page.locator("#ws-regions")).to_have_text("1 region")
    page.click("#show-player")
    page.wait_for_selector("#board[data-code]")
    page.click("#show-workshop")
    expect(page.locator("#ws-regions")).to_have_text("1 region")


def test_an_answer_for_an_older_board_is_dropped(page: Any) -> None:
    open_editor(page, "edit=norinori&size=5x5")
    settled(page)
    page.evaluate(
        """() => {
            window.shown = [];
            const box = document.getElementById('ws-verdict-box');
            new MutationObserver(() => window.shown.push(box.dataset.version))
                .observe(box, { attributes: true, attributeFilter: ['data-version'] });
            const fetchNow = window.fetch;
            window.fetch = (url, init) => {  // slow, and deaf to being aborted
                if (!String(url).includes('/verdict')) return fetchNow(url, init);
                const { signal, ...rest } = init;
                return new Promise((done) => setTimeout(() => done(fetchNow(url, rest)), 900));
            };
        }"""
    )
    click_at(page, 2, 0.5)
    page.wait_for_timeout(450)  # the verdict for this board is asked for
    older = page.get_attribute("#ws-board", "data-version")
    click_at(page, 2, 1.5)
    assert settled(page) == engine_outcome(page_code(page))
    shown = page.evaluate("window.shown")
    assert older not in shown
    assert shown == [page.get_attribute("#ws-board", "data-version")]


# --- a phone ---------------------------------------------------------------------------------


def test_a_phone_draws_with_one_finger_without_horizontal_overflow(
    browser: Any, live_server: LiveServer, tmp_path: Path
) -> None:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    page = context.new_page()
    try:
        open_editor(page, "edit=norinori&size=5x5")
        settled(page)
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        box = page.locator("#ws-board").bounding_box()
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 360
        page.locator("#ws-board").scroll_into_view_if_needed()
        cdp = context.new_cdp_session(page)

        def touch(kind: str, x: float, y: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        start, end = at(page, 2, 0), at(page, 2, 5)
        touch("touchStart", *start)
        for k in range(1, 21):
            touch("touchMove", start[0], start[1] + (end[1] - start[1]) * k / 20)
        touch("touchEnd", *end)
        expect(page.locator("#ws-regions")).to_have_text("2 regions")
        page.tap("#ws-board", position=_offset(page, 0.5, 1))  # a tap: one edge
        assert "borders down" in (page.get_attribute("#ws-cell-0", "aria-label") or "")
        assert settled(page) == engine_outcome(page_code(page))
        page.tap("#ws-suggest")
        expect(page.locator("#ws-fixes .fix").first).to_be_visible(timeout=30_000)
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "workshop-phone.png", tmp_path)

        for genre in ("nondango", "nonogram"):  # every genre's controls fit too
            page.select_option("#ws-genre", genre)
            page.tap("#ws-blank")
            expect(page.locator("#ws-title")).to_contain_text(genres()[genre].title)
            settled(page)
            assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        page.tap("#ws-type")
        page.tap("#ws-picture summary")
        expect(page.locator("#ws-clues")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    finally:
        context.close()


def _offset(page: Any, x: float, y: float) -> dict[str, float]:
    box = page.locator("#ws-board").bounding_box()
    px, py = at(page, x, y)
    return {"x": px - box["x"], "y": py - box["y"]}


def test_minimize_lists_what_a_unique_board_can_lose(page: Any) -> None:
    board = service.generate("nondango", 6, 6, 2, deadline=60)
    code = board.genre.format_code(board.puzzle)
    open_editor(page, f"edit={code}")
    assert settled(page) == "unique"
    expect(page.locator("#ws-minimize")).to_be_visible()
    page.click("#ws-spares")
    expect(page.locator("#ws-minimize-status")).to_contain_text("given", timeout=40_000)
    spares = workshop.minimize(board, None, Deadline()).spares
    expect(page.locator("#ws-spare-list li")).to_have_count(len(spares))
