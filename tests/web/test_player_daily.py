"""The player as a daily driver, in Debian's chromium against the real server: New game never
serves a board this browser has seen (30 games, across a reload); the clock starts at the
first mark and results never record 0:00; statistics per setting and the puzzle-of-the-day
streak; a phone's first screen shows the board; a 30×30 Nonogram fits 1366×768 with its
clues and status; a finished board says Solved with the server unreachable (the page's
digest of its shading matches the puzzle's `solution_digest`, computed the same way here).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from gridproof import service
from gridproof.core.registry import genres
from gridproof.service import play
from tests.servers import serving
from tests.web.conftest import DESKTOP, PHONE, LiveServer, hint_in_full, page_of, shot
from tests.web.test_player import (
    code_of,
    focus_board_with_tab,
    open_new,
    playable,
    size_of,
    solution_of,
    type_rows,
)
from tests.web.test_player_screens import in_view

NORINORI = genres()["norinori"]


def seconds(text: str) -> int:
    minutes, secs = text.strip().split(":")[-2:]
    return int(minutes) * 60 + int(secs)


def fnv1a(text: str) -> str:
    h = 0x811C9DC5
    for byte in text.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


# --- the page's digests are the server's -----------------------------------------------------


def test_the_pages_digests_are_the_servers(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    texts = ["", "abc", "é ✓ 漢", "x" * 55, "y" * 64, "z" * 1000]
    got = page.evaluate(
        """async (texts) => {
            const d = await import('/static/js/digest.js');
            return texts.map((t) => [d.sha256Hex(t), d.fingerprint(t)]);
        }""",
        texts,
    )
    assert got == [[hashlib.sha256(t.encode()).hexdigest(), fnv1a(t)] for t in texts]
    code = code_of(page)
    genre = genres()[code.split(".")[0]]
    width, height = size_of(genre, code)
    solution = solution_of(genre, code)
    rows = [
        "".join("#" if solution >> (r * width + c) & 1 else "+" for c in range(width))
        for r in range(height)
    ]
    digest = page.evaluate(
        "async ([code, rows]) => (await import('/static/js/digest.js')).shadingDigest(code, rows)",
        [code, rows],
    )
    assert digest == play.solution_digest(code, width, height, solution)


# --- never a repeat ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def empty_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server on a bank of its own, empty and not filled: every board beyond the first
    few is generated on demand, as a fresh install's would be."""
    path = tmp_path_factory.mktemp("fresh") / "bank.sqlite3"
    env = {**os.environ, "GRIDPROOF_DB": str(path), "GRIDPROOF_FILL": "0"}
    command = [sys.executable, "-m", "gridproof", "serve", "--host", "127.0.0.1"]
    with serving([*command, "--db", str(path), "--no-fill"], env) as (base, _):
        yield base


def test_thirty_new_games_never_repeat_across_a_reload(browser: Any, empty_server: str) -> None:
    context = browser.new_context(base_url=empty_server, reduced_motion="reduce")
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    seen = [code_of(page)]
    page.select_option("#genre", "norinori")
    page.select_option("#size", "5x5")
    page.select_option("#difficulty", "easy")
    for game in range(30):
        if game == 15:
            page.reload()
            page.wait_for_selector("#board[data-code]")
            assert code_of(page) == seen[-1]  # the same puzzle reopens
        before = code_of(page)
        page.click("#new-game")
        page.wait_for_function(
            "(before) => document.getElementById('board').dataset.code !== before",
            arg=before,
            timeout=30_000,
        )
        seen.append(code_of(page))
    served = seen[1:]
    assert len(set(served)) == 30, [c[-12:] for c in served]
    assert not set(served) & {seen[0]}
    kept = page.evaluate("JSON.parse(localStorage.getItem('gridproof')).seen")
    assert {fnv1a(code) for code in seen} <= set(kept)
    assert all(re.fullmatch(r"[0-9a-f]{8}", f) for f in kept)
    context.close()


def test_a_save_without_seen_learns_it_from_its_saves_and_results(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    old = {
        "v": 1,
        "current": None,
        "games": {"norinori.1.5x5.abc": {"code": "norinori.1.5x5.abc", "marks": []}},
        "results": [{"code": "nonogram.1.5x5.def", "genre": "nonogram", "size": "5x5"}],
        "prefs": {},
    }
    got = page.evaluate(
        """async (old) => {
            localStorage.setItem('gridproof', JSON.stringify(old));
            const { Store } = await import('/static/js/store.js');
            const store = new Store();
            return [store.seen, store.stats.settings, Object.keys(store.data.games)];
        }""",
        old,
    )
    assert sorted(got[0]) == sorted([fnv1a("norinori.1.5x5.abc"), fnv1a("nonogram.1.5x5.def")])
    assert got[1]["nonogram 5x5"]["solved"] == 1
    assert got[2] == ["norinori.1.5x5.abc"]  # nothing lost


# --- the clock, results and statistics ---------------------------------------------------------


def test_the_clock_starts_at_the_first_mark_and_results_are_counted(page: Any) -> None:
    code = open_new(page, NORINORI)
    expect(page.locator("#lesson")).to_be_visible()  # the first visit's rules, left open
    page.wait_for_timeout(1600)
    assert page.inner_text("#timer") == "0:00"  # reading the rules costs nothing
    cells = playable(page)
    solution = solution_of(NORINORI, code)
    wrong = next(c for c in cells if not solution >> c & 1)
    page.click(f"#cell-{wrong}")
    page.click(f"#cell-{wrong}", button="right")
    page.wait_for_timeout(2200)
    assert seconds(page.inner_text("#timer")) >= 1  # running, with the rules still open
    width, height = size_of(NORINORI, code)
    focus_board_with_tab(page)
    type_rows(page, solution, width, range(height))
    expect(page.locator("#done")).to_be_visible()
    assert seconds(page.inner_text("#done-time")) >= 2
    result = page.evaluate("JSON.parse(localStorage.getItem('gridproof')).results[0]")
    assert result["code"] == code
    assert result["timeMs"] >= 2000
    page.click("#results-panel summary")
    row = page.locator("#stats-rows tr").filter(has_text="Norinori 5×5")
    expect(row).to_have_count(1)
    cells_text = row.locator("td").all_inner_texts()
    assert cells_text[0] == "1"  # solved
    assert cells_text[1] == cells_text[2] == page.inner_text("#done-time")  # best, median
    expect(page.locator("#streak")).to_contain_text("Puzzle of the day")


def test_the_streak_counts_consecutive_days_of_the_puzzle_of_the_day(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    got = page.evaluate(
        """async () => {
            const s = await import('/static/js/stats.js');
            const stats = s.blankStats();
            const solve = (daily, genre = 'norinori', timeMs = 60000) => s.addToStats(stats, {
                genre, title: genre, size: '10x10', difficulty: 'medium', timeMs, hints: 1,
                mistakes: 2, daily,
            });
            for (const d of ['01', '02', '03', '05', '06'].map((day) => `2026-01-${day}`)) {
                solve(d);
            }
            solve('2026-01-06', 'nonogram', 30000);
            solve(null, 'norinori', 90000);
            const entry = stats.settings['norinori 10x10 medium'];
            return {
                today: s.streak(stats, '2026-01-06'),
                yesterday: s.streak(stats, '2026-01-07'),
                broken: s.streak(stats, '2026-01-08'),
                nonogram: s.streak(stats, '2026-01-06', 'nonogram'),
                entry: [
                    entry.solved, entry.bestMs, s.median(entry.times), entry.hints, entry.mistakes,
                ],
            };
        }"""
    )
    assert got["today"] == {"current": 2, "best": 3, "doneToday": True}
    assert got["yesterday"] == {"current": 2, "best": 3, "doneToday": False}  # still alive
    assert got["broken"] == {"current": 0, "best": 3, "doneToday": False}
    assert got["nonogram"] == {"current": 1, "best": 1, "doneToday": True}
    assert got["entry"] == [6, 60000, 60000, 6, 12]


# --- a phone's first screen, a laptop's 30×30 ---------------------------------------------------


@pytest.fixture(scope="module")
def norinori_10() -> str:
    code: str = service.generate("norinori", 10, 10, 2, "easy", 60).code
    return code


def test_a_phones_first_screen_shows_the_board(
    phone: Any, norinori_10: str, tmp_path: Path
) -> None:
    page = phone
    page.goto(f"/?code={norinori_10}")  # a first visit: the rules are shown
    page.wait_for_selector("#board[data-code]")
    expect(page.locator("#lesson")).to_be_visible()
    box = page.locator("#board").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], box  # the whole board, unscrolled
    assert box["width"] / 10 >= 28  # cells a finger can hit
    assert in_view(page, "#rules")  # one tap away
    shot(page, "phone-first-screen.png", tmp_path, full_page=False)
    page.locator("#lesson-close").tap()
    page.locator("#rules").tap()
    expect(page.locator("#lesson")).to_be_in_viewport()


@pytest.fixture(scope="module")
def nonogram_30() -> str:
    code: str = service.generate("nonogram", 30, 30, 5, "easy", 60).code
    return code


def test_a_30x30_nonogram_fits_a_laptop_with_its_clues_and_status(
    laptop: Any, nonogram_30: str, tmp_path: Path
) -> None:
    page = laptop
    page.goto(f"/?code={nonogram_30}")
    page.wait_for_selector("#board[data-code]")
    page.click("#lesson-close")
    assert in_view(page, "#board")  # clues and every row
    wrap = page.evaluate(
        "(() => { const w = document.getElementById('board-wrap');"
        " return [w.scrollHeight - w.clientHeight, w.scrollWidth - w.clientWidth]; })()"
    )
    assert wrap == [0, 0]  # the board does not scroll inside itself
    cell = page.locator("#cell-0").bounding_box()
    assert min(cell["width"], cell["height"]) >= 18, cell
    page.locator("#board").focus()
    hint_in_full(page, "h")
    expect(page.locator("#status .rule")).to_be_visible()
    for selector in ("#status", "#hint", "#undo", "#mode-shade", "#timer", "#new-game"):
        assert in_view(page, selector), selector
    assert page.evaluate("window.scrollY") == 0
    shot(page, "nonogram-30x30-laptop.png", tmp_path, full_page=False)


# --- solved without the server -----------------------------------------------------------------


@pytest.fixture
def offline(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """A desktop page whose console may say that requests failed (they are refused)."""
    yield from page_of(browser, live_server, False, viewport=DESKTOP)


def test_a_finished_board_says_solved_with_the_server_unreachable(offline: Any) -> None:
    page = offline
    code = open_new(page, NORINORI)
    view = page.evaluate(
        "async (code) => (await fetch('/api/puzzle?code=' + encodeURIComponent(code))).json()", code
    )
    width, height = size_of(NORINORI, code)
    solution = solution_of(NORINORI, code)
    assert view["solution_digest"] == play.solution_digest(code, width, height, solution)
    assert format(solution, "b") not in str(view)
    focus_board_with_tab(page)
    type_rows(page, solution, width, range(height - 1))
    asked: list[str] = []

    def refuse(route: Any) -> None:
        asked.append(route.request.url)
        route.abort()

    page.route("**/api/**", refuse)
    type_rows(page, solution, width, range(height - 1, height))
    expect(page.locator("#done")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Solved")
    result = page.evaluate("JSON.parse(localStorage.getItem('gridproof')).results[0]")
    assert result["code"] == code
    page.unroute("**/api/**")


def test_a_shared_board_is_remembered_and_a_repeat_is_said(
    page: Any, browser: Any, live_server: LiveServer
) -> None:
    code = open_new(page, NORINORI)
    context = browser.new_context(base_url=live_server.url, viewport=DESKTOP)
    page = context.new_page()  # a first visit, by a shared link
    page.goto(f"/?code={code}")
    page.wait_for_selector("#board[data-code]")
    kept = page.evaluate("JSON.parse(localStorage.getItem('gridproof')).seen")
    assert kept == [fnv1a(code)]
    sent: list[Any] = []

    def again(route: Any) -> None:  # the server found nothing unseen in time
        sent.append(route.request.post_data_json)
        answer = route.fetch().json()
        route.fulfill(json={**answer, "repeat": True})

    page.route("**/api/new", again)
    page.click("#new-game")
    expect(page.locator("#status")).to_contain_text("this one comes again")
    assert sent[0]["seen"] == [fnv1a(code)]
    assert sent[0]["exclude"] == [code]
    context.close()


# --- the form offers what the server accepts ---------------------------------------------------


def enabled(page: Any, select: str) -> list[str]:
    values: list[str] = page.eval_on_selector_all(
        f"{select} option", "os => os.filter(o => !o.disabled).map(o => o.value)"
    )
    return values


def test_the_form_offers_per_option_value_what_the_catalog_lists(
    browser: Any, empty_server: str
) -> None:
    # a server of its own: the board made under an option is not banked with the others'
    context = browser.new_context(base_url=empty_server, viewport=DESKTOP)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    catalog = page.evaluate("async () => (await fetch('/api/catalog')).json()")
    for genre in catalog:
        page.select_option("#genre", genre["name"])
        for setting in genre["settings"]:
            for option in genre["options"]:  # the setting's value, the defaults elsewhere
                value = setting["options"].get(option["name"], option["default"] or "")
                page.select_option(f"#setup-options select[data-option={option['name']}]", value)
            offered = setting["grades_by_size"]
            assert enabled(page, "#size") == [s for s in genre["sizes"] if offered.get(s)]
            for size in enabled(page, "#size"):
                page.select_option("#size", size)
                assert enabled(page, "#difficulty") == offered[size], (setting, size)
    # one New game under an option, as the form asks for it, is accepted
    page.select_option("#genre", "nondango")
    page.select_option("#setup-options select[data-option=rule]", "no-three-black")
    page.select_option("#size", "5x5")
    assert enabled(page, "#difficulty") == ["easy"]  # medium is not made under this rule
    before = code_of(page)
    page.click("#new-game")
    page.wait_for_function(
        "(before) => document.getElementById('board').dataset.code !== before",
        arg=before,
        timeout=30_000,
    )
    expect(page.locator("#puzzle-info")).to_contain_text("no three black")
    context.close()
