"""The web tests' shared pieces: a bank pre-filled with small boards, the app in-process
(TestClient) on that bank, and the real server (uvicorn in a subprocess) for the browser."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from gridproof import bank
from gridproof.core.contract import Genre
from gridproof.core.errors import GenerationError
from gridproof.core.registry import genres
from tests.servers import serving

SIDE = 5
BOARDS_PER_GENRE = 3


def play_difficulty(genre: Genre) -> str:
    """The difficulty the tests play: the genre's default one."""
    return bank.default_difficulty(genre)


def small_key(genre: Genre) -> bank.Key:
    (min_w, min_h), _ = genre.sizes
    return bank.Key(genre.name, max(SIDE, min_w), max(SIDE, min_h), play_difficulty(genre))


def prefill(store: bank.Bank) -> None:
    """Three small boards per genre, with fixed seeds, through the bank's own code path."""
    for genre in genres().values():
        key = small_key(genre)
        seed = 0
        while store.counts().get(key, 0) < BOARDS_PER_GENRE and seed < 40:
            seed += 1
            try:
                record = bank.make_record(key, seed, generate_s=20)
            except GenerationError:
                continue
            if record.difficulty == key.difficulty:
                store.add(record)


@pytest.fixture(scope="session")
def bank_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A pre-filled bank file; the app under test uses it (the filler is off)."""
    path = tmp_path_factory.mktemp("bank") / "bank.sqlite3"
    prefill(bank.Bank(path))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GRIDPROOF_DB", str(path))
        patch.setenv("GRIDPROOF_FILL", "0")
        yield path


@dataclass(frozen=True)
class LiveServer:
    url: str
    pid: int


@pytest.fixture(scope="session")
def live_server(bank_path: Path) -> Iterator[LiveServer]:
    """The real server: `python -m gridproof serve` on a free loopback port."""
    env = {**os.environ, "GRIDPROOF_DB": str(bank_path), "GRIDPROOF_FILL": "0"}
    command = [sys.executable, "-m", "gridproof", "serve", "--host", "127.0.0.1"]
    with serving([*command, "--db", str(bank_path), "--no-fill"], env) as (base, process):
        yield LiveServer(base, process.pid)


# --- the browser (Debian's chromium through Playwright, never a downloaded one) ---------------

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 960, "height": 1000}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    context = browser.new_context(
        base_url=live_server.url, viewport=DESKTOP, reduced_motion="reduce", color_scheme="light"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: _console_error(message, errors))
    yield page
    context.close()
    assert errors == []


def _console_error(message: Any, errors: list[str]) -> None:
    """Console errors fail the test, except the browser's note on an API 400 the page shows."""
    if message.type == "error" and "status of 400" not in message.text:
        errors.append(message.text)


def shot(page: Any, name: str, tmp_path: Path, full_page: bool = True) -> None:
    folder = Path(os.environ.get("GRIDPROOF_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name), full_page=full_page, animations="disabled")


# --- pages at a laptop's and a phone's size -------------------------------------------------

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}


def context_of(browser: Any, live_server: LiveServer, touch: bool, **more: Any) -> Any:
    options: dict[str, Any] = {
        "base_url": live_server.url,
        "reduced_motion": "reduce",
        "color_scheme": "light",
        **more,
    }
    if touch:
        options.update(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    return browser.new_context(**options)


def page_of(browser: Any, live_server: LiveServer, touch: bool, **more: Any) -> Iterator[Any]:
    """A fixture's page in a context of its own (`context_of`), closed after the test,
    which fails if the page threw (its console may report failed requests)."""
    context = context_of(browser, live_server, touch, **more)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


@pytest.fixture
def laptop(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    yield from page_of(browser, live_server, False, viewport=LAPTOP)


@pytest.fixture
def phone(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    yield from page_of(browser, live_server, True)


def hint_in_full(page: Any, press: str = "#hint", timeout: float = 10_000) -> None:
    """Ask for a hint and press Hint until it shows its rule, its words and the cells it
    decides (the stages after where to look); `press` a key name presses that instead;
    `timeout` (ms) is how long the answer may take."""
    status = page.locator("#status")
    _press(page, press)
    expect(status).not_to_contain_text("Looking", timeout=timeout)
    expect(status).not_to_have_text("", timeout=timeout)
    if "Look at the highlighted cells" in status.inner_text():
        _press(page, press)
        expect(status).to_contain_text("Press Hint again to see what it decides", ignore_case=True)
        _press(page, press)
        expect(status).to_contain_text("Press Hint again to apply it")


def _press(page: Any, press: str) -> None:
    if press.startswith("#"):
        page.click(press)
    else:
        page.keyboard.press(press)
