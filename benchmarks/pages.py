"""The player served on an empty bank (the filler off) and Debian's chromium to drive it,
for the benchmarks that measure pages (`player_layout.py`, `workshop_screens.py`); the
server and the browser's settings are the tests' own."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.servers import serving  # noqa: E402
from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402


@contextmanager
def served_browser() -> Iterator[tuple[str, Any]]:
    """The server's base URL and a launched chromium, both stopped on leaving."""
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bank.sqlite3")
        env = {**os.environ, "GRIDPROOF_DB": db, "GRIDPROOF_FILL": "0"}
        command = [sys.executable, "-m", "gridproof", "serve", "--host", "127.0.0.1"]
        with (
            serving([*command, "--db", db, "--no-fill"], env) as (base, _),
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                yield base, browser
            finally:
                browser.close()
