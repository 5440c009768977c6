"""Playing, as puzz.link and Simon Tatham's players expect (issue #15), in Debian's chromium
through Playwright: one wrong mark is one mistake however often it is found; the focus
after New game; the mode radios (arrows, focus ring, Nondango's icons); a failed New game
leaves the form, the clock and the words right; rule errors on demand; auto-marking a
completed region or line (one Undo takes it back with the decision); coordinates and region
numbers; pausing; rows and changes for screen readers; Nondango's rule from the catalog.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from gridproof import bank
from gridproof.core.contract import Genre
from gridproof.core.registry import genres
from tests.web.conftest import DESKTOP, LiveServer, page_of, small_key
from tests.web.test_player import (
    GENRES,
    code_of,
    focus_board_with_tab,
    open_new,
    playable,
    size_of,
    solution_of,
    state,
    states,
    type_rows,
)


def luminance(css: str) -> float:
    r, g, b = (int(part) / 255 for part in re.findall(r"\d+", css)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return parts[-1] + 60 * parts[-2] + (3600 * parts[-3] if len(parts) > 2 else 0)


# --- 5. one wrong mark, one mistake ----------------------------------------------------------


def test_a_wrong_mark_found_by_a_hint_and_a_check_is_one_mistake(page: Any) -> None:
    genre = genres()["norinori"]
    code = open_new(page, genre)
    solution = solution_of(genre, code)
    wrong = next(c for c in playable(page) if not solution >> c & 1)
    page.click(f"#cell-{wrong}")
    page.click("#hint")
    expect(page.locator("#status")).to_contain_text("1 mark contradicts")
    page.click("#check")
    expect(page.locator("#status")).to_contain_text("1 mark contradicts")
    page.click("#show-mistakes")
    expect(page.locator("#board .hl.wrong")).to_have_count(1)
    page.click("#check")
    page.wait_for_timeout(300)
    page.click("#undo")
    width, height = size_of(genre, code)
    page.locator("#board").focus()
    type_rows(page, solution, width, range(height))
    expect(page.locator("#done")).to_be_visible()
    assert page.inner_text("#done-mistakes") == "1"
    assert page.inner_text("#done-hints") == "1"


# --- 6. focus, and the mode radios ------------------------------------------------------------


def test_the_focus_stays_in_play_after_new_game(page: Any) -> None:
    genre = GENRES[0]
    open_new(page, genre)
    before = code_of(page)
    page.focus("#new-game")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "code => document.getElementById('board').dataset.code !== code", arg=before
    )
    assert page.evaluate("document.activeElement.id") == "board"
    solve_here(page, genre)
    solved = code_of(page)  # read before the press: a board from the bank comes at once
    page.focus("#done-new")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "code => document.getElementById('board').dataset.code !== code", arg=solved
    )
    assert page.evaluate("document.activeElement.id") == "board"


def solve_here(page: Any, genre: Genre) -> None:
    code = code_of(page)
    width, height = size_of(genre, code)
    page.locator("#board").focus()
    type_rows(page, solution_of(genre, code), width, range(height))
    expect(page.locator("#done")).to_be_visible()


def test_the_mode_radios_move_with_arrows_show_their_focus_and_their_circles(page: Any) -> None:
    open_new(page, genres()["nondango"])
    page.locator("#mode-shade").click()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "mode-empty"
    expect(page.locator("#mode-empty")).to_have_attribute("aria-checked", "true")
    assert page.get_attribute("#mode-shade", "tabindex") == "-1"  # one Tab stop: the chosen one
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#mode-shade")).to_have_attribute("aria-checked", "true")
    assert (
        page.evaluate("getComputedStyle(document.getElementById('modes-play')).overflow")
        == "visible"
    )
    black = page.evaluate(
        "getComputedStyle(document.querySelector('#mode-shade .swatch')).backgroundColor"
    )
    white = page.evaluate(
        "getComputedStyle(document.querySelector('#mode-empty .swatch')).backgroundColor"
    )
    assert luminance(black) < 0.2 < 0.8 < luminance(white)  # a black and a white circle


# --- 7. a New game that fails ----------------------------------------------------------------


@pytest.fixture
def page_503(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """A page like conftest's, whose console may report the 503 the test arranges."""
    yield from page_of(browser, live_server, False, viewport=DESKTOP)


def test_a_failed_new_game_keeps_the_form_the_clock_and_the_words_right(page_503: Any) -> None:
    page = page_503
    genre = GENRES[0]
    code = open_new(page, genre)
    if page.locator("#lesson-close").is_visible():
        page.click("#lesson-close")
    before = {s: page.input_value(s) for s in ("#genre", "#size", "#difficulty")}

    def refuse(route: Any) -> None:
        time.sleep(3)
        route.fulfill(
            status=503,
            content_type="application/json",
            body=json.dumps({"error": "GenerationError: 3 attempts, ladder stalled", "health": {}}),
        )

    page.route("**/api/new", refuse)
    sizes = page.eval_on_selector_all("#size option", "os => os.map(o => o.value)")
    other = next(s for s in sizes if s != before["#size"])
    page.select_option("#size", other)
    clock = seconds(page.inner_text("#timer"))
    page.click("#new-game")
    expect(page.locator("#status")).to_contain_text("could be made", timeout=10_000)
    status = page.inner_text("#status")
    assert "GenerationError" not in status
    assert "ladder" not in status
    assert other.replace("x", "×") in status  # it says what was asked
    assert {s: page.input_value(s) for s in before} == before  # the form shows the puzzle played
    assert code_of(page) == code
    assert seconds(page.inner_text("#timer")) - clock <= 1  # the clock stopped while waiting
    page.unroute("**/api/new")


# --- rule errors on demand ---------------------------------------------------------------------


def test_rule_errors_on_demand_show_what_is_broken_not_what_is_unfinished(page: Any) -> None:
    genre = genres()["norinori"]
    code = open_new(page, genre)
    regions = genre.to_json(genre.parse_code(code))["regions"]
    flat = [rid for row in regions for rid in row]
    big = next(rid for rid in set(flat) if flat.count(rid) >= 3)
    cells = [i for i, rid in enumerate(flat) if rid == big]
    page.click(f"#cell-{cells[0]}")
    page.click("#errors")
    expect(page.locator("#status")).to_contain_text("No rule is broken so far")
    assert page.locator("#board .hl.broken").count() == 0
    for cell in cells[1:3]:
        page.click(f"#cell-{cell}")
    page.click("#errors")
    expect(page.locator("#status")).to_contain_text(f"region {big + 1} holds 3 shaded cells")
    assert page.locator("#board .hl.broken").count() >= 3
    page.click("#undo")  # the highlight and its words go with a change
    assert page.locator("#board .hl.broken").count() == 0


def test_rule_errors_name_an_overfilled_nonogram_line(page: Any) -> None:
    genre = genres()["nonogram"]
    code = open_new(page, genre)
    rows = genre.to_json(genre.parse_code(code))["rows"]
    width = len(genre.to_json(genre.parse_code(code))["cols"])
    r = min(range(len(rows)), key=lambda k: sum(rows[k]))
    page.locator("#board").focus()
    page.keyboard.press("Control+Home")
    for _ in range(r):
        page.keyboard.press("ArrowDown")
    for _ in range(sum(rows[r]) + 1):  # one more shaded cell than the clue allows
        page.keyboard.press("Space")
        page.keyboard.press("ArrowRight")
    page.click("#errors")
    expect(page.locator("#status")).to_contain_text(f"row {r + 1} has runs")
    assert page.locator("#board .hl.broken").count() >= width


# --- auto-marking ------------------------------------------------------------------------------


def a_group(genre: Genre, code: str, solution: int) -> list[int]:
    """The playable cells of the largest region (for a Nonogram: of a row the solution
    shades partly)."""
    data = genre.to_json(genre.parse_code(code))
    if "regions" in data:
        flat = [rid for row in data["regions"] for rid in row]
        circles = [v for row in data.get("circles", []) for v in row] or [1] * len(flat)
        rid = max(
            set(flat), key=lambda k: sum(1 for i, v in enumerate(flat) if v == k and circles[i])
        )
        return [i for i, v in enumerate(flat) if v == rid and circles[i]]
    width, height = len(data["cols"]), len(data["rows"])
    for r in range(height):
        row = list(range(r * width, (r + 1) * width))
        if 0 < sum(solution >> c & 1 for c in row) < width:
            return row
    raise AssertionError("no row to complete")


@pytest.mark.parametrize("name", ["norinori", "nondango", "nonogram"])
def test_auto_marking_completes_a_group_as_part_of_the_decision(page: Any, name: str) -> None:
    genre = genres()[name]
    code = open_new(page, genre)
    page.check("#opt-auto")
    solution = solution_of(genre, code)
    group = a_group(genre, code, solution)
    shade = [c for c in group if solution >> c & 1]
    rest = [c for c in group if not solution >> c & 1]
    assert shade
    assert rest
    for cell in shade:
        page.click(f"#cell-{cell}")
    page.wait_for_function(
        "cells => cells.every(c => document.getElementById('cell-' + c).dataset.state === 'empty')",
        arg=rest,
        timeout=5000,
    )
    expect(page.locator("#said")).to_contain_text("automatically")
    page.keyboard.press("Control+z")  # the last decision and what followed from it
    assert state(page, shade[-1]) == "unknown"
    assert all(state(page, c) == "unknown" for c in rest)
    if len(shade) > 1:
        assert state(page, shade[0]) == "shaded"
    page.reload()  # the option is remembered
    page.wait_for_selector("#board[data-code]")
    expect(page.locator("#opt-auto")).to_be_checked()


def test_complete_regions_are_tinted(page: Any) -> None:
    genre = genres()["norinori"]
    code = open_new(page, genre)
    solution = solution_of(genre, code)
    group = a_group(genre, code, solution)
    for cell in (c for c in group if solution >> c & 1):
        page.click(f"#cell-{cell}")
    page.wait_for_function(
        "cell => document.getElementById('cell-' + cell).classList.contains('complete')",
        arg=group[0],
    )


# --- coordinates, pause, screen readers ---------------------------------------------------------


def test_coordinates_and_region_numbers_match_what_hints_name(page: Any) -> None:
    genre = genres()["norinori"]
    code = open_new(page, genre)
    width, height = size_of(genre, code)
    page.check("#opt-coords")
    expect(page.locator("#board .coord")).to_have_count(width + height)
    regions = {rid for row in genre.to_json(genre.parse_code(code))["regions"] for rid in row}
    expect(page.locator("#board .region-label")).to_have_count(len(regions))
    labels = page.eval_on_selector_all(
        "#board .band-left .coord", "ts => ts.map(t => t.textContent)"
    )
    assert labels == [str(r + 1) for r in range(height)]
    page.reload()
    page.wait_for_selector("#board[data-code]")
    expect(page.locator("#board .coord")).to_have_count(width + height)
    page.uncheck("#opt-coords")
    expect(page.locator("#board .coord")).to_have_count(0)


def test_pause_stops_the_clock_and_hides_the_board(page: Any) -> None:
    open_new(page, GENRES[0])
    if page.locator("#lesson-close").is_visible():
        page.click("#lesson-close")
    page.click(f"#cell-{playable(page)[0]}")  # the clock starts at the first mark
    page.wait_for_timeout(1100)
    page.click("#pause")
    expect(page.locator("#paused")).to_be_visible()
    assert (
        page.evaluate("getComputedStyle(document.getElementById('board-wrap')).visibility")
        == "hidden"
    )
    assert page.evaluate("document.activeElement.id") == "resume"
    expect(page.locator("#hint")).to_be_disabled()
    shown = page.inner_text("#timer")
    page.wait_for_timeout(2200)
    assert page.inner_text("#timer") == shown
    page.keyboard.press("p")
    expect(page.locator("#paused")).to_be_hidden()
    expect(page.locator("#hint")).to_be_enabled()
    page.wait_for_timeout(2200)
    assert seconds(page.inner_text("#timer")) > seconds(shown)


def test_the_clock_waits_for_the_first_mark_while_the_rules_are_read(page: Any) -> None:
    open_new(page, GENRES[0])
    page.click("#rules")
    expect(page.locator("#lesson")).to_be_visible()
    page.wait_for_timeout(2200)
    assert page.inner_text("#timer") == "0:00"
    page.click(f"#cell-{playable(page)[0]}")
    page.wait_for_timeout(2200)
    assert seconds(page.inner_text("#timer")) >= 1  # the rules open do not stop it


def test_rows_are_labelled_and_changes_are_announced(page: Any) -> None:
    genre = genres()["nonogram"]
    code = open_new(page, genre)
    rows = genre.to_json(genre.parse_code(code))["rows"]
    labels = page.eval_on_selector_all(
        "#board [role=row]", "rs => rs.map(r => r.getAttribute('aria-label'))"
    )
    assert labels[0] == f"Row 1, clue {' '.join(map(str, rows[0])) or '0'}"
    assert len(labels) == len(rows)
    focus_board_with_tab(page)
    page.keyboard.press("Control+Home")
    page.keyboard.press("Space")
    expect(page.locator("#said")).to_contain_text("Row 1, column 1: shaded")
    page.keyboard.press("Control+z")
    expect(page.locator("#said")).to_contain_text("Undone: Row 1, column 1: unknown")
    assert set(states(page)) == {"unknown"}


# --- Nondango's rule, from the catalog ------------------------------------------------------------


def test_nondango_offers_the_catalogs_rules_and_plays_the_chosen_one(page: Any) -> None:
    asked: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: asked.append(json.loads(r.post_data or "{}")) if "/api/new" in r.url else None,
    )
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    page.select_option("#genre", "nondango")
    rule = page.locator("#setup-options select[data-option=rule]")
    expect(rule).to_be_visible()
    words = rule.locator("option").all_inner_texts()
    assert words == ["no three alike in a line", "no three black in a line"]
    page.select_option("#genre", "norinori")
    expect(rule).to_have_count(0)
    page.select_option("#genre", "nonogram")  # an option without a default offers "any"
    pictures = page.locator("#setup-options select[data-option=profile]")
    expect(pictures).to_have_value("")
    page.select_option("#genre", "nondango")
    page.select_option("#setup-options select[data-option=rule]", "no-three-black")
    page.select_option("#size", "5x5")
    page.click("#new-game")
    page.wait_for_function(
        "() => document.getElementById('board').dataset.code.startsWith('nondango.')"
    )
    expect(page.locator("#puzzle-info")).to_contain_text("rule: no three black in a line")
    assert asked[-1]["options"] == {"rule": "no-three-black"}
    expect(rule).to_have_value("no-three-black")  # the form shows the puzzle's rule
    page.select_option("#setup-options select[data-option=rule]", "no-three-same")
    page.click("#new-game")  # the default rule: from the bank, no options sent
    expect(page.locator("#puzzle-info")).to_contain_text("rule: no three alike in a line")
    assert "options" not in asked[-1]


# --- picking a puzzle ---------------------------------------------------------------------------


def test_a_puzzle_picked_from_the_bank_list_is_ticked_once_solved(
    page: Any, bank_path: Path
) -> None:
    genre = GENRES[0]
    open_new(page, genre)
    page.click("#pick-panel summary")
    picks = page.locator("#pick-list .pick")
    held = bank.Bank(bank_path).counts()[small_key(genre)]  # earlier tests may add some
    assert held >= 3
    expect(picks).to_have_count(held)
    expect(page.locator("#pick-title")).to_contain_text(f"{held} in the bank")
    expect(page.locator("#daily-list")).to_contain_text("No puzzle of the day")
    saved = page.evaluate("Object.keys(JSON.parse(localStorage.getItem('gridproof')).games)")
    codes = [picks.nth(k).get_attribute("data-code") for k in range(held)]
    k = next(k for k, c in enumerate(codes) if c not in saved)  # one never opened here
    chosen = codes[k]
    picks.nth(k).click()
    page.wait_for_function(
        "code => document.getElementById('board').dataset.code === code", arg=chosen
    )
    expect(page.locator("#puzzle-info")).to_contain_text("picked from the bank")
    solve_here(page, genre)
    expect(picks.nth(k).locator(".tag.solved")).to_be_visible()


def test_the_puzzle_of_the_day_opens(page: Any) -> None:
    genre = GENRES[0]
    code = open_new(page, genre)
    today = {
        "date": "2026-12-01",
        "boards": [{"genre": genre.name, "code": code, "size": "5x5", "difficulty": "easy"}],
    }
    page.route("**/api/daily", lambda route: route.fulfill(json=today))
    page.click("#new-game")
    page.wait_for_function(
        "code => document.getElementById('board').dataset.code !== code", arg=code
    )
    page.click("#pick-panel summary")
    daily = page.locator("#daily-list .pick")
    expect(daily).to_have_count(1)
    expect(daily).to_contain_text(f"{genre.title} 5×5 easy")
    expect(page.locator("#daily-date")).to_have_text("2026-12-01")
    daily.click()
    page.wait_for_function(
        "code => document.getElementById('board').dataset.code === code", arg=code
    )


def test_a_hint_comes_in_stages_and_its_last_applies_it(page: Any) -> None:
    """Where to look, which rule, what it decides, then applied: one Undo takes it back."""
    genre = genres()["norinori"]
    code = open_new(page, genre)
    solution = solution_of(genre, code)
    status = page.locator("#status")
    page.click("#hint")
    expect(status).to_contain_text("Look at the highlighted cells")
    assert page.locator("#status .rule").count() == 0  # the rule is not named yet
    assert page.locator("#board .hl").count() >= 1
    assert page.locator("#board .hl.target").count() == 0
    page.click("#hint")
    expect(page.locator("#status .rule")).to_be_visible()
    expect(status).to_contain_text("see what it decides")
    page.click("#hint")
    expect(status).to_contain_text("Press Hint again to apply it")
    targets = page.locator("#board .hl.target")
    expect(targets.first).to_be_visible()
    decided = [int(t.get_attribute("data-cell") or "-1") for t in targets.all()]
    assert decided
    assert min(decided) >= 0
    page.click("#hint")
    expect(status).to_contain_text("applied:")
    for cell in decided:
        assert state(page, cell) == ("shaded" if solution >> cell & 1 else "empty")
    page.click("#undo")
    for cell in decided:
        assert state(page, cell) == "unknown"
