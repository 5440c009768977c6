"""The player in Debian's real chromium, driven by Playwright against the real server.

For every registered genre: open a small bank puzzle, solve it with the keyboard alone (the
test takes the solution from the engine here in Python, never from the page), see the
completion; a hint names a rule and highlights cells; undo and redo; Reset keeps the puzzle
and New game changes it; a reload restores the marks; a share link opens the same puzzle
and neither the page nor any response carries the solution; the dark theme; a 360×740
touch screen without horizontal overflow.

Screenshots go to `$GRIDPROOF_SCREENSHOTS` when it is set (`make screenshots` sets it to
docs/screenshots), else to a temporary folder.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from gridproof import service
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genres
from tests.web.conftest import DESKTOP, LiveServer, hint_in_full, play_difficulty, shot, small_key

GENRES = sorted(genres().values(), key=lambda g: g.name)


@pytest.fixture(params=GENRES, ids=lambda g: g.name)
def genre(request: pytest.FixtureRequest) -> Genre:
    chosen: Genre = request.param
    return chosen


# --- helpers -------------------------------------------------------------------------------


def code_of(page: Any) -> str:
    code: str = page.get_attribute("#board", "data-code")
    return code


def open_new(page: Any, genre: Genre, path: str = "/") -> str:
    """Load the page, pick `genre` at the tests' small size and difficulty, press New game."""
    if path:
        page.goto(path)
    page.wait_for_selector("#board[data-code]")
    before = code_of(page)
    key = small_key(genre)
    page.select_option("#genre", genre.name)
    page.select_option("#size", key.size)
    page.select_option("#difficulty", play_difficulty(genre))
    page.click("#new-game")
    page.wait_for_function(
        """([before, prefix]) => {
            const code = document.getElementById('board').dataset.code;
            return code && code !== before && code.startsWith(prefix);
        }""",
        arg=[before, f"{genre.name}."],
    )
    return code_of(page)


def solution_of(genre: Genre, code: str) -> int:
    outcome = genre.count(genre.parse_code(code), 2, Deadline(30))
    assert outcome.verdict is Verdict.UNIQUE
    return outcome.solutions[0]


def size_of(genre: Genre, code: str) -> tuple[int, int]:
    puzzle = genre.parse_code(code)
    return puzzle.width, puzzle.height


def state(page: Any, cell: int) -> str:
    value: str = page.get_attribute(f"#cell-{cell}", "data-state")
    return value


def states(page: Any) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        "#board [role=gridcell]", "cells => cells.map(c => c.dataset.state)"
    )
    return found


def playable(page: Any) -> list[int]:
    cells: list[int] = page.eval_on_selector_all(
        "#board [role=gridcell]:not([aria-disabled])", "cells => cells.map(c => +c.dataset.cell)"
    )
    return cells


def focus_board_with_tab(page: Any) -> None:
    """Reach the board with the Tab key, as a keyboard user would."""
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == "board":
            return
    pytest.fail("the board is not reachable with Tab")


def type_rows(page: Any, solution: int, width: int, rows: range, empty: bool = False) -> None:
    """Shade the solution's cells of `rows` with the keyboard: Ctrl+Home, arrows, Space
    (and, with `empty`, mark the others empty with X)."""
    page.keyboard.press("Control+Home")
    for _ in range(rows.start):
        page.keyboard.press("ArrowDown")
    for r in rows:
        page.keyboard.press("Home")
        for c in range(width):
            if solution >> (r * width + c) & 1:
                page.keyboard.press("Space")
            elif empty:
                page.keyboard.press("x")
            page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")


def solve_with_keys(page: Any, genre: Genre, code: str) -> None:
    width, height = size_of(genre, code)
    focus_board_with_tab(page)
    type_rows(page, solution_of(genre, code), width, range(height))
    expect(page.locator("#done")).to_be_visible()


# --- every genre -----------------------------------------------------------------------------


def test_a_bank_puzzle_solved_with_the_keyboard_alone(page: Any, genre: Genre) -> None:
    code = open_new(page, genre)
    solve_with_keys(page, genre, code)
    assert re.fullmatch(r"\d+:\d\d", page.inner_text("#done-time"))
    assert page.inner_text("#done-hints") == "0"
    assert page.inner_text("#done-mistakes") == "0"
    assert page.inner_text("#done-attempt") == "1"
    expect(page.locator("#status")).to_contain_text("Solved")
    result = page.locator("#results li").first
    expect(result).to_contain_text(code)
    expect(result).to_contain_text("engine")
    expect(result).to_contain_text("new game")
    assert page.get_attribute("#board", "class") == "board finished"


def test_a_hint_names_a_rule_and_highlights_cells(page: Any, genre: Genre, tmp_path: Path) -> None:
    code = open_new(page, genre)
    width, height = size_of(genre, code)
    solution = solution_of(genre, code)
    page.locator("#board").focus()
    type_rows(page, solution, width, range(height // 2), empty=True)
    hint_in_full(page)
    rule = page.locator("#status .rule")
    expect(rule).to_be_visible()
    assert rule.inner_text().strip().endswith(":")
    assert len(page.inner_text("#status")) > len(rule.inner_text()) + 10
    assert page.locator("#board .hl").count() >= 1
    assert page.locator("#board .hl.target").count() >= 1
    shot(page, f"{genre.name}.png", tmp_path)

    # A wrong mark: the hint says so first, without saying where, until asked.
    wrong = next(c for c in playable(page) if not solution >> c & 1 and state(page, c) == "unknown")
    page.click(f"#cell-{wrong}")
    assert state(page, wrong) == "shaded"
    page.click("#hint")
    expect(page.locator("#status")).to_contain_text("1 mark contradicts the solution")
    assert page.locator("#board .hl").count() == 0
    page.click("#show-mistakes")
    expect(page.locator("#board .hl.wrong")).to_have_count(1)
    page.click("#check")
    expect(page.locator("#status")).to_contain_text("1 mark contradicts")


def test_undo_and_redo_take_back_exactly_the_last_decisions(page: Any, genre: Genre) -> None:
    open_new(page, genre)
    cells = playable(page)
    a, b = cells[0], cells[1]
    page.click(f"#cell-{a}")
    page.click(f"#cell-{b}", button="right")
    assert (state(page, a), state(page, b)) == ("shaded", "empty")
    pair = _neighbours(page, cells[2:])
    if pair:  # drag to paint: one decision
        first, second = (page.locator(f"#cell-{c}").bounding_box() for c in pair)
        page.mouse.move(first["x"] + 5, first["y"] + 5)
        page.mouse.down()
        page.mouse.move(second["x"] + 10, second["y"] + 10, steps=4)
        page.mouse.up()
        assert [state(page, c) for c in pair] == ["shaded", "shaded"]
        page.keyboard.press("Control+z")
        assert [state(page, c) for c in pair] == ["unknown", "unknown"]
    page.click("#undo")
    assert (state(page, a), state(page, b)) == ("shaded", "unknown")
    page.click("#undo")
    assert state(page, a) == "unknown"
    expect(page.locator("#undo")).to_be_disabled()
    page.click("#redo")
    page.click("#redo")
    assert (state(page, a), state(page, b)) == ("shaded", "empty")
    if pair:
        page.locator("#board").focus()
        page.keyboard.press("Control+y")
        assert [state(page, c) for c in pair] == ["shaded", "shaded"]
    expect(page.locator("#redo")).to_be_disabled()


def _neighbours(page: Any, cells: list[int]) -> tuple[int, int] | None:
    chosen = set(cells)
    for cell in cells:
        if cell + 1 in chosen and page.get_attribute(f"#cell-{cell + 1}", "data-col") != "0":
            return cell, cell + 1
    return None


def test_reset_keeps_the_puzzle_and_new_game_changes_it(page: Any, genre: Genre) -> None:
    code = open_new(page, genre)
    cell = playable(page)[0]
    page.click(f"#cell-{cell}")
    page.click("#reset")
    expect(page.locator("#reset")).to_have_text("Really reset?")
    assert state(page, cell) == "shaded"  # one click only arms it
    page.click("#reset")
    assert set(states(page)) == {"unknown"}
    assert code_of(page) == code
    expect(page.locator("#puzzle-info")).to_contain_text("attempt 2 (retry after Reset)")
    solve_with_keys(page, genre, code)
    assert page.inner_text("#done-attempt") == "2 (after Reset)"
    expect(page.locator("#results li").first).to_contain_text("attempt 2, after Reset")
    page.click("#done-new")
    page.wait_for_function(
        "code => document.getElementById('board').dataset.code !== code", arg=code
    )
    assert code_of(page).startswith(f"{genre.name}.")
    assert set(states(page)) == {"unknown"}
    expect(page.locator("#puzzle-info")).to_contain_text("attempt 1 (new game)")


def test_a_reload_restores_the_marks_and_the_history(page: Any, genre: Genre) -> None:
    code = open_new(page, genre)
    cells = playable(page)
    page.click(f"#cell-{cells[0]}")
    page.click(f"#cell-{cells[1]}", button="right")
    marked = states(page)
    page.reload()
    page.wait_for_selector("#board[data-code]")
    assert code_of(page) == code
    assert states(page) == marked
    expect(page.locator("#status")).to_contain_text("restored")
    page.click("#undo")
    assert state(page, cells[1]) == "unknown"
    assert state(page, cells[0]) == "shaded"


def test_a_share_link_opens_the_same_puzzle_without_its_solution(
    page: Any, browser: Any, live_server: LiveServer, genre: Genre
) -> None:
    code = open_new(page, genre)
    link = page.input_value("#share-link")
    assert link == f"{live_server.url}/?code={code}" or code in link
    solution = solution_of(genre, code)
    puzzle = genre.parse_code(code)
    answer = "".join(genre.format_grid(puzzle, solution))

    friend = browser.new_context(viewport=DESKTOP)  # another browser: nothing saved
    other = friend.new_page()
    responses: list[Any] = []
    other.on("response", lambda response: responses.append(response))
    other.goto(link)
    other.wait_for_selector("#board[data-code]")
    other.wait_for_load_state("networkidle")
    assert code_of(other) == code
    assert set(states(other)) == {"unknown"}
    expect(other.locator("#puzzle-info")).to_contain_text("shared link")
    bodies = [r.text() for r in responses if "/api/" in r.url]
    html = other.content()
    other.goto(f"{live_server.url}/#{code}")  # the hash form opens it too
    other.wait_for_selector("#board[data-code]")
    assert code_of(other) == code
    friend.close()
    assert bodies
    for text in [*bodies, html]:
        assert '"solution"' not in text
        assert answer not in text
        assert answer not in json.dumps(text).replace('\\", \\"', "")


def test_the_dark_theme_keeps_region_borders_apart_from_grid_lines(
    page: Any, genre: Genre, tmp_path: Path
) -> None:
    code = open_new(page, genre)
    page.click("#theme")
    assert page.get_attribute("html", "data-theme") == "dark"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert _luminance(background) < 0.1
    grid = page.evaluate("getComputedStyle(document.querySelector('#board .grid')).stroke")
    frame = page.evaluate("getComputedStyle(document.querySelector('#board .frame')).stroke")
    assert _luminance(frame) - _luminance(grid) > 0.4
    width, height = size_of(genre, code)
    page.locator("#board").focus()
    type_rows(page, solution_of(genre, code), width, range(height // 2 + 1), empty=True)
    hint_in_full(page)
    expect(page.locator("#status .rule")).to_be_visible()
    shot(page, f"{genre.name}-dark.png", tmp_path)
    page.reload()
    page.wait_for_selector("#board[data-code]")
    assert page.get_attribute("html", "data-theme") == "dark"  # remembered


def _luminance(css: str) -> float:
    r, g, b = (int(part) / 255 for part in re.findall(r"\d+", css)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_a_phone_touch_screen_without_horizontal_overflow(
    browser: Any, live_server: LiveServer, genre: Genre, tmp_path: Path
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
        code = open_new(page, genre)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        cells = playable(page)
        page.tap("#mode-empty")
        page.locator(f"#cell-{cells[0]}").tap()
        assert state(page, cells[0]) == "empty"
        page.tap("#mode-shade")
        page.locator(f"#cell-{cells[1]}").tap()
        assert state(page, cells[1]) == "shaded"
        box = page.locator("#board").bounding_box()
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 360
        page.tap("#lesson-close")
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        assert code_of(page) == code
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"{genre.name}-phone.png", tmp_path)
    finally:
        context.close()


# --- the player, once ------------------------------------------------------------------------


def test_a_late_hint_for_an_older_state_is_ignored(page: Any) -> None:
    genre = GENRES[0]
    code = open_new(page, genre)
    page.evaluate(
        """() => {
            const fetchNow = window.fetch;
            window.fetch = (url, init) => String(url).includes('/api/hint')
                ? new Promise((done) => setTimeout(() => done(fetchNow(url, init)), 700))
                : fetchNow(url, init);
        }"""
    )
    page.click("#hint")
    page.click(f"#cell-{playable(page)[0]}", button="right")  # the state moves on
    page.wait_for_timeout(1200)
    assert page.locator("#status .rule").count() == 0
    assert page.locator("#board .hl").count() == 0
    assert code_of(page) == code


def test_the_lessons_teach_the_rules_in_layers(page: Any) -> None:
    genre = GENRES[0]
    open_new(page, genre)
    expect(page.locator("#lesson")).to_be_visible()
    expect(page.locator("#lesson-list li")).to_have_count(1)
    lessons = list(genre.lessons)
    for shown in range(2, len(lessons) + 1):
        page.click("#lesson-next")
        expect(page.locator("#lesson-list li")).to_have_count(shown)
    expect(page.locator("#lesson-next")).to_be_hidden()
    page.click("#lesson-close")
    expect(page.locator("#lesson")).to_be_hidden()
    page.reload()
    page.wait_for_selector("#board[data-code]")
    expect(page.locator("#lesson")).to_be_hidden()  # seen once, not shown again
    page.click("#rules")
    expect(page.locator("#lesson-list li")).to_have_count(len(lessons))


def test_every_cell_speaks_its_row_column_state_and_context(page: Any) -> None:
    for genre in GENRES:
        open_new(page, genre)
        assert page.get_attribute("#board", "role") == "grid"
        label = page.get_attribute("#cell-0", "aria-label")
        assert label.startswith("Row 1, column 1: ")
        data = genre.to_json(genre.parse_code(code_of(page)))
        if "regions" in data:
            assert f"region {data['regions'][0][0] + 1}" in label
        if "rows" in data:
            assert "row clue" in label
            assert "column clue" in label
        page.locator("#board").focus()
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("#board", "aria-activedescendant") == "cell-1"


def test_a_puzzlink_url_can_be_imported_and_played(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    page.click("#share-panel summary")
    page.fill("#import-source", "https://puzz.link/p?norinori/5/5/cag4ocjo")
    page.click("#import-form button")
    page.wait_for_function(
        "() => document.getElementById('board').dataset.code.startsWith('norinori.')"
    )
    expect(page.locator("#puzzle-info")).to_contain_text("imported")
    expect(page.locator("#notice")).to_be_hidden()
    solve_with_keys(page, genres()["norinori"], code_of(page))
    page.fill("#import-source", "https://puzz.link/p?norinori/5/5/")
    page.click("#import-form button")
    expect(page.locator("#status")).to_contain_text("URL")


def test_nonogram_clues_are_legible_at_30_by_30(page: Any, tmp_path: Path) -> None:
    made = service.generate("nonogram", 30, 30, 5, "easy", 60)
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"/?code={made.code}")
    page.wait_for_selector("#board[data-code]")
    page.click("#lesson-close")
    boxes = page.eval_on_selector_all(
        "#board .clue",
        """groups => groups.map(g => [...g.querySelectorAll('text')].map(t => {
            const b = t.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom];
        }))""",
    )
    assert len(boxes) == 60
    heights = [bottom - top for group in boxes for (_, top, _, bottom) in group]
    assert min(heights) >= 12  # CSS pixels, on a 1280-pixel-wide desktop
    for group in boxes:  # numbers of one clue never touch: "1 1 3" cannot read "11 3"
        for first, second in itertools.pairwise(group):
            gap = max(second[0] - first[2], second[1] - first[3])
            assert gap >= 4, group
    assert page.locator("#board .guide").count() == 1
    genre = genres()["nonogram"]
    solution = solution_of(genre, made.code)
    page.locator("#board").focus()
    type_rows(page, solution, 30, range(1))
    assert "done" in (page.locator("#board .clue").nth(0).get_attribute("class") or "")
    shot(page, "nonogram-30x30.png", tmp_path)
