"""The static site in Chromium (issue #32): `site/` as `make site` builds it, served by a
plain file server (`python3 -m http.server`), the browser set offline after the first load.
A new game from the static bank, a hint naming a rule, check, Solved, the workshop's
verdict and make unique all run in the page's engine worker, and a reload offline still
works. Skipped, saying why, where node and npm (hence Pyodide) are absent."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from gridproof import bank
from gridproof.core.registry import genre
from gridproof.site import build
from tests.web.conftest import DESKTOP, hint_in_full
from tests.web.test_player import solution_of, type_rows
from tests.web.test_workshop import ambiguous_code, settled

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
KEY = bank.Key("norinori", 5, 5, "easy")
READY_MS = 120_000
"""How long the first load may take on a busy machine (Pyodide starts in 2-3 s alone)."""


def _pyodide() -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the static site (Pyodide) cannot be built")
    found = ROOT / "node_modules" / "pyodide"
    if not (found / "pyodide.mjs").exists():
        pytest.skip("node_modules/pyodide is missing: `make site` runs `npm ci` first")
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """The site built with a bank of three 5x5 Norinori boards, served on a free port:
    its address and the banked codes."""
    pyodide = _pyodide()
    root = tmp_path_factory.mktemp("site")
    store = bank.Bank(root / "bank.sqlite3")
    codes = []
    for seed in (1, 2, 3):
        record = bank.make_record(KEY, seed)
        store.add(record)
        codes.append(record.code)
    build.build(root / "site", pyodide, root / "bank.sqlite3")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=root / "site",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}", codes
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def offline_page(site: tuple[str, list[str]], browser: Any) -> Iterator[Any]:
    """The site loaded once, its service worker in control, then the network cut (in the
    session's browser: one Playwright a session, whose event loop the tests share)."""
    url, _ = site
    context = browser.new_context(base_url=url, viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    page.wait_for_selector("#board[data-code]", timeout=READY_MS)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=READY_MS)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    context.set_offline(True)
    yield page
    context.close()
    assert errors == []


def test_a_new_game_from_the_static_bank_hinted_checked_and_solved_offline(
    offline_page: Any, site: tuple[str, list[str]]
) -> None:
    page = offline_page
    _, codes = site
    page.select_option("#genre", "norinori")
    page.select_option("#size", "5x5")
    page.select_option("#difficulty", "easy")
    before = page.get_attribute("#board", "data-code")
    page.click("#new-game")
    page.wait_for_function(
        "(before) => document.getElementById('board').dataset.code !== before",
        arg=before,
        timeout=READY_MS,
    )
    code = page.get_attribute("#board", "data-code")
    assert code in codes  # from the shards, not generated

    hint_in_full(page, timeout=30_000)
    rule = page.locator("#status .rule")
    expect(rule).to_be_visible(timeout=30_000)
    assert rule.inner_text().strip().endswith(":")
    assert page.locator("#board .hl").count() >= 1

    page.click("#check")
    expect(page.locator("#status")).to_contain_text("No mistakes so far", timeout=30_000)

    norinori = genre("norinori")
    page.locator("#board").focus()
    type_rows(page, solution_of(norinori, code), 5, range(5))
    expect(page.locator("#done")).to_be_visible(timeout=30_000)
    expect(page.locator("#status")).to_contain_text("Solved")

    # The next new game is another banked board: never a repeat.
    page.click("#done-new")
    page.wait_for_function(
        "(before) => document.getElementById('board').dataset.code !== before",
        arg=code,
        timeout=READY_MS,
    )
    following = page.get_attribute("#board", "data-code")
    assert following in codes
    assert following != code


def test_the_workshop_verdict_and_make_unique_offline(offline_page: Any) -> None:
    page = offline_page
    page.goto(f"/?edit={ambiguous_code()}")
    page.wait_for_selector("#ws-board [role=gridcell]", timeout=READY_MS)
    assert settled(page, READY_MS) == "multiple"
    page.click("#ws-unique")
    expect(page.locator("#ws-repair-status")).to_contain_text("Made unique with", timeout=60_000)
    assert settled(page) == "unique"
    link = page.input_value("#ws-share")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/#norinori\..+", link)
    page.click("#ws-keep")
    expect(page.locator("#ws-publish-status")).to_contain_text("share link")


SNAPSHOT_KEPT = """
async () => (await (await caches.open('gridproof-engine-snapshot')).keys()).length > 0
"""


def test_a_reload_offline_still_plays_from_the_engine_snapshot(offline_page: Any) -> None:
    page = offline_page
    for _ in range(600):  # the snapshot maker works beside the engine after the first visit
        if page.evaluate(SNAPSHOT_KEPT):
            break
        page.wait_for_timeout(200)
    assert page.evaluate(SNAPSHOT_KEPT), "no engine snapshot was kept for the next visit"
    page.goto("/")
    page.wait_for_selector("#board[data-code]", timeout=READY_MS)
    hint_in_full(page, timeout=READY_MS)
    expect(page.locator("#status .rule")).to_be_visible(timeout=READY_MS)
    genres = page.eval_on_selector_all("#genre option", "options => options.map(o => o.value)")
    assert set(genres) >= {"norinori", "nonogram", "nondango"}


CANCEL = """
async () => {
  const api = await import(new URL('static/js/api.js', location.href).href);
  const outcome = async (promise) => {
    try {
      await promise;
      return 'answered';
    } catch (error) {
      return error.name;
    }
  };
  // a long call (a hard 15x15 Nonogram made in the worker) cancelled while it runs, and a
  // call cancelled while it waits behind it: both rejected, and the engine answers on
  const long = new AbortController();
  const queued = new AbortController();
  const made = outcome(api.newPuzzle(
    { genre: 'nonogram', size: '15x15', difficulty: 'hard', seed: 5 }, long.signal,
  ));
  const waiting = outcome(api.verdict({ source: 'norinori.1.5x5.zz' }, queued.signal));
  queued.abort();
  await new Promise((done) => setTimeout(done, 600));
  long.abort();
  const catalog = await api.catalog();
  return [await made, await waiting, catalog.length];
}
"""


def test_obsolete_calls_are_cancelled_and_the_engine_goes_on(offline_page: Any) -> None:
    page = offline_page
    page.goto("/")
    page.wait_for_selector("#board[data-code]", timeout=READY_MS)
    made, waiting, offers = page.evaluate(CANCEL)
    assert waiting == "AbortError"
    assert made in ("AbortError", "answered")  # answered only if it was quicker than 0.6 s
    assert offers >= 3
