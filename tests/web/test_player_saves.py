"""What the player says and keeps (issues #15 and #17), in Debian's chromium through
Playwright: a hint answer dropped because the board changed says so, a hint's words go with
its highlight, a bad or damaged share link says why and never leaves "Loading…"; in
localStorage, a save that cannot be read (or was written by another version) is kept aside
with a message, an older puzzle save loads, a full storage is said, the game plays on and
Free space makes room, and the 41st puzzle removes the oldest save, saying so.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from playwright.sync_api import expect

from gridproof.core.registry import genres
from tests.web.conftest import hint_in_full
from tests.web.test_player import GENRES, code_of, open_new, playable, state, states

KEY = "gridproof"


def storage(page: Any) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))"
    )
    return found


def put(page: Any, key: str, value: str) -> None:
    """Write `key` as the player opens again: leaving the page saves it, so the value is put
    by the next page before its scripts run (once), then the player is opened."""
    token = f"put-{uuid.uuid4()}"
    page.add_init_script(
        f"""if (!sessionStorage.getItem({json.dumps(token)})) {{
            sessionStorage.setItem({json.dumps(token)}, '1');
            localStorage.setItem({json.dumps(key)}, {json.dumps(value)});
        }}"""
    )
    page.goto("/")
    page.wait_for_selector("#board[data-code]")


def reload(page: Any) -> None:
    page.reload()
    page.wait_for_selector("#board[data-code]")


def message(page: Any, key: str) -> Any:
    return page.locator(f"#messages .message[data-key='{key}']")


# --- messages that are never lost or stale ----------------------------------------------------


def test_a_dropped_hint_says_so_and_a_hints_words_go_with_its_highlight(page: Any) -> None:
    genre = genres()["norinori"]
    open_new(page, genre)
    page.evaluate(
        """() => {
            const fetchNow = window.fetch;
            window.slowHints = true;
            window.fetch = (url, init) => String(url).includes('/api/hint') && window.slowHints
                ? new Promise((done) => setTimeout(() => done(fetchNow(url, init)), 700))
                : fetchNow(url, init);
        }"""
    )
    cells = playable(page)
    page.click("#hint")
    expect(page.locator("#status")).to_contain_text("Looking")
    page.click(f"#cell-{cells[0]}", button="right")  # the board moves on
    expect(page.locator("#status")).to_contain_text("The board changed", timeout=3000)
    expect(page.locator("#status")).to_contain_text("Hint again")
    page.click(f"#cell-{cells[0]}", button="right")  # back to blank
    page.evaluate("window.slowHints = false")
    hint_in_full(page)
    expect(page.locator("#status .rule")).to_be_visible()
    assert page.locator("#board .hl").count() > 0
    target = next(c for c in cells if state(page, c) == "unknown")
    page.click(f"#cell-{target}", button="right")
    assert page.locator("#board .hl").count() == 0
    expect(page.locator("#status")).to_have_text("")  # the words went with the highlight


def test_a_bad_share_link_says_why_and_opens_a_game(page: Any) -> None:
    page.goto("/?code=norinori.1.5x5.%21%21")
    page.wait_for_selector("#board[data-code]")
    link = message(page, "link")
    expect(link).to_be_visible()
    expect(link).to_contain_text("This link could not be opened")
    said = link.inner_text()
    assert re.search(r"[.!?] (Here is a new game|Your last puzzle)", said), said  # sentences
    assert code_of(page)  # a puzzle to play all the same
    expect(page.locator("#puzzle-title")).not_to_have_text("Loading…")
    expect(link).to_be_visible()  # not wiped by the game that opened
    link.get_by_role("button", name="Dismiss this message").click()
    expect(link).to_have_count(0)


def test_a_damaged_hash_never_leaves_the_page_loading(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    before = code_of(page)
    page.goto("about:blank")
    page.goto("/#%E0%A4%A")
    page.wait_for_selector("#board[data-code]")
    expect(message(page, "link")).to_contain_text("damaged")
    expect(page.locator("#puzzle-title")).not_to_have_text("Loading…")
    assert code_of(page) == before  # the last puzzle, not a stranger


def test_null_preferences_never_leave_the_page_loading(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    data = json.loads(storage(page)[KEY])
    data.update(prefs=None, seenLessons=None, results=None, games=None)
    put(page, KEY, json.dumps(data))
    expect(page.locator("#puzzle-title")).not_to_have_text("Loading…")
    page.click(f"#cell-{playable(page)[0]}")
    assert json.loads(storage(page)[KEY])["prefs"] is not None


# --- saves kept aside, never dropped ---------------------------------------------------------


def test_an_unreadable_save_is_kept_aside_with_a_message(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    broken = '{"v": 1, "current": "norinori.1.5x5'  # cut short
    put(page, KEY, broken)
    note = message(page, "save-aside")
    expect(note).to_contain_text("could not be read")
    kept = {k: v for k, v in storage(page).items() if k.startswith(f"{KEY}.unreadable")}
    assert list(kept.values()) == [broken]
    expect(note).to_contain_text(next(iter(kept)))
    json.loads(storage(page)[KEY])  # a fresh, readable save beside it


def test_a_save_of_another_format_is_kept_aside_with_a_message(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    future = json.dumps({"v": 7, "everything": "different"})
    put(page, KEY, future)
    expect(message(page, "save-aside")).to_contain_text("another version")
    assert storage(page)[f"{KEY}.v7"] == future


def test_an_older_puzzle_save_loads_and_a_newer_one_is_kept_aside(page: Any) -> None:
    genre = GENRES[0]
    code = open_new(page, genre)
    cells = playable(page)
    page.click(f"#cell-{cells[0]}")
    data = json.loads(storage(page)[KEY])
    save = data["games"][code]
    assert save["v"] == 2
    assert save["code"] == code
    older = {k: v for k, v in save.items() if k not in ("v", "found")}  # as version 1 wrote it
    data["games"][code] = older
    put(page, KEY, json.dumps(data))
    assert state(page, cells[0]) == "shaded"
    expect(page.locator("#status")).to_contain_text("restored")

    data = json.loads(storage(page)[KEY])
    data["games"][code] = {**data["games"][code], "v": 99, "marks": ["?"]}
    put(page, KEY, json.dumps(data))
    expect(message(page, "aside")).to_contain_text("could not be restored")
    assert set(states(page)) == {"unknown"}
    aside = json.loads(storage(page)[f"{KEY}.aside"])
    assert [v["v"] for v in aside.values()] == [99]


# --- a full storage --------------------------------------------------------------------------

FILL = """(reserve) => {
    // fill this origin's storage to within a few characters: junk that is not the player's
    localStorage.removeItem('junk');
    let size = 1 << 22;
    let junk = '';
    while (size >= 1) {
        try { localStorage.setItem('junk', junk + 'x'.repeat(size)); junk += 'x'.repeat(size); }
        catch { size = Math.floor(size / 2); }
    }
    return junk.length;
}"""


def test_a_full_storage_is_said_the_game_goes_on_and_free_space_makes_room(page: Any) -> None:
    genre = GENRES[0]
    code = open_new(page, genre)
    data = json.loads(storage(page)[KEY])
    stroke = [[[0, ".", "#"]] * 10] * 300  # a long undo history
    for k in range(30):  # other puzzles played before, each with its history
        data["games"][f"{genre.name}.old{k}"] = {
            "v": 2,
            "code": f"{genre.name}.old{k}",
            "genre": genre.name,
            "size": "5x5",
            "marks": ["....."] * 5,
            "undo": stroke,
            "redo": [],
            "updated": k,
        }
    put(page, KEY, json.dumps(data))
    try:
        page.evaluate(FILL, 0)
        cells = playable(page)
        page.click(f"#cell-{cells[0]}")
        page.click(f"#cell-{cells[1]}")
        full = message(page, "storage")
        expect(full).to_contain_text("not being saved")
        assert (state(page, cells[0]), state(page, cells[1])) == ("shaded", "shaded")  # in memory
        page.click("#undo")
        assert state(page, cells[1]) == "unknown"
        page.click("#redo")
        full.get_by_role("button", name="Free space", exact=True).click()
        expect(message(page, "storage-freed")).to_contain_text("undo history of 30 other puzzles")
        expect(full).to_have_count(0)
        saved = json.loads(storage(page)[KEY])["games"][code]
        assert saved["marks"][0].count("#") + saved["marks"][1].count("#") >= 2
    finally:
        page.evaluate("localStorage.removeItem('junk')")
    reload(page)
    assert (state(page, cells[0]), state(page, cells[1])) == ("shaded", "shaded")


def test_the_41st_puzzle_removes_the_oldest_save_and_says_so(page: Any) -> None:
    genre = GENRES[0]
    page.goto("/")
    page.wait_for_selector("#board[data-code]")
    data = json.loads(storage(page)[KEY])
    data["games"] = {
        f"{genre.name}.old{k}": {
            "v": 2,
            "code": f"{genre.name}.old{k}",
            "genre": genre.name,
            "size": "7x7",
            "marks": ["......."] * 7,
            "updated": 1_700_000_000_000 + k,
        }
        for k in range(40)
    }
    data["current"] = None
    put(page, KEY, json.dumps(data))
    open_new(page, genre, path="")
    note = message(page, "evicted")
    expect(note).to_contain_text("40 most recent puzzles")
    expect(note).to_contain_text(f"{genre.title} 7×7")
    games = json.loads(storage(page)[KEY])["games"]
    assert len(games) == 40
    assert f"{genre.name}.old0" not in games  # the oldest went, the newest stayed
    page.click("#results-panel summary")
    expect(page.locator("#saved-count")).to_have_text("40")
