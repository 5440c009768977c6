"""Star Battle in Debian's real chromium, driven by Playwright against the real server: a
New game with the stars option played to the end (stars drawn and named as the look says,
rule errors judged by the server, a completed row marked empty by auto-marking, a hint,
solved), and a board drawn in the workshop edge by edge, its verdict, its star count
chosen in the menu the look's options give, and "Make unique" to a board the engine here
in Python counts unique. Nothing in the page names the genre: all of it comes from the
catalog, the look and the server's judgements."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genres
from gridproof.core.rng import Rng
from gridproof.genres.starbattle.generate import grow_regions, place_stars
from gridproof.genres.starbattle.model import StarBattle, make_puzzle
from tests.web.conftest import hint_in_full
from tests.web.test_player import code_of, solution_of, state, type_rows
from tests.web.test_workshop import (
    click_at,
    engine_outcome,
    horizontal_runs,
    open_editor,
    page_code,
    settled,
    walls_of,
)

GENRE = genres()["starbattle"]
SIDE = 7


def test_a_queens_game_with_the_stars_option_is_played_to_the_end(page: Any) -> None:
    asked: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: asked.append(json.loads(r.post_data or "{}")) if "/api/new" in r.url else None,
    )
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    page.select_option("#genre", "starbattle")
    stars = page.locator("#setup-options select[data-option=stars]")
    expect(stars).to_be_visible()
    assert stars.locator("option").all_inner_texts() == [
        "any",
        "1 star (Queens)",
        "2 stars",
        "3 stars",
    ]
    page.select_option("#setup-options select[data-option=stars]", "1")
    page.select_option("#size", f"{SIDE}x{SIDE}")
    page.click("#new-game")
    page.wait_for_function(
        "() => document.getElementById('board').dataset.code.startsWith('starbattle.')",
        timeout=30_000,
    )
    assert asked[-1]["options"] == {"stars": "1"}
    code = code_of(page)
    puzzle = GENRE.parse_code(code)
    assert (puzzle.width, puzzle.stars) == (SIDE, 1)
    expect(page.locator("#puzzle-info")).to_contain_text("stars: 1 star (Queens)")
    expect(page.locator("#mode-shade-label")).to_have_text("Star")
    solution = solution_of(GENRE, code)

    # two touching stars: the server judges the touch broken already, the rest unfinished
    page.click("#cell-0")
    page.click(f"#cell-{SIDE + 1}")
    assert page.locator("#board .cell.starred.shaded .star").count() == 2  # drawn as stars
    page.click("#errors")
    expect(page.locator("#status")).to_contain_text("touch")
    expect(page.locator("#status")).to_contain_text("broken")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    assert state(page, 0) == state(page, SIDE + 1) == "unknown"
    page.click("#errors")
    expect(page.locator("#status")).to_contain_text("No rule is broken so far")

    # a star in its row completes the row: auto-marking marks the rest of it empty
    page.check("#opt-auto")
    star = next(c for c in range(SIDE) if solution >> c & 1)
    page.click(f"#cell-{star}")
    rest = [c for c in range(SIDE) if c != star]
    page.wait_for_function(
        "cells => cells.every(c => document.getElementById('cell-' + c).dataset.state === 'empty')",
        arg=rest,
        timeout=5000,
    )
    expect(page.locator("#said")).to_contain_text("marked empty automatically")
    page.keyboard.press("Control+z")
    page.uncheck("#opt-auto")

    hint_in_full(page)
    expect(page.locator("#status .rule")).to_be_visible()
    page.click("#reset")
    page.click("#reset")
    page.locator("#board").focus()
    type_rows(page, solution, SIDE, range(SIDE))
    expect(page.locator("#done")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Solved")


def _ambiguous() -> tuple[StarBattle, int]:
    """A one-star board with two solutions or more: the generator's stars and regions
    grown around them, before its uniqueness steering."""
    for seed in range(200):
        rng = Rng(seed)
        solution = place_stars(SIDE, 1, rng)
        labels = None if solution is None else grow_regions(SIDE, 1, solution, rng)
        if solution is None or labels is None:
            continue
        rows = [labels[r * SIDE : (r + 1) * SIDE] for r in range(SIDE)]
        puzzle = make_puzzle(rows, 1)
        if GENRE.count(puzzle, 2, Deadline(10)).verdict is Verdict.MULTIPLE:
            return puzzle, solution
    raise AssertionError("no ambiguous board in 200 seeds")


def test_a_star_battle_drawn_in_the_workshop_is_made_unique(page: Any) -> None:
    puzzle, _ = _ambiguous()
    right, down = walls_of(puzzle.region_rows())
    open_editor(page, f"edit=starbattle&size={SIDE}x{SIDE}")
    expect(page.locator("#ws-option-stars")).to_be_visible()
    assert page.locator("#ws-option-stars option").all_inner_texts() == [
        "1 star (Queens)",
        "2 stars",
        "3 stars",
    ]
    settled(page)
    for line, start, _end in horizontal_runs(down):
        for c in range(start, _end):
            click_at(page, c + 0.5, line)
    for r, c in right:
        click_at(page, c + 1 - 0.1, r + 0.5)
    assert settled(page) == "multiple"
    code = page_code(page)
    assert GENRE.parse_code(code) == puzzle  # the regions drawn, one star each
    assert engine_outcome(code) == "multiple"

    page.select_option("#ws-option-stars", "2")  # the star count travels in the puzzle
    settled(page)
    assert GENRE.parse_code(page_code(page)).stars == 2
    page.click("#ws-undo")
    assert settled(page) == "multiple"
    assert page_code(page) == code

    page.click("#ws-unique")
    expect(page.locator("#ws-repair-status")).to_contain_text("Made unique with", timeout=40_000)
    assert settled(page) == "unique"
    made = GENRE.parse_code(page_code(page))
    assert made.stars == 1
    assert made.region_count == SIDE  # moves only: as many regions as rows
    assert engine_outcome(page_code(page)) == "unique"
    assert page.input_value("#ws-url").startswith(
        f"https://puzz.link/p?starbattle/{SIDE}/{SIDE}/1/"
    )
