"""Where the player puts a board on a laptop and on a phone: for each case, the board's top
and bottom, its cell size in CSS pixels, whether the board scrolls inside its frame,
whether the page scrolls, and whether the status line and New game are in the window.

    .venv/bin/python benchmarks/player_layout.py

Cases: a first visit (the rules panel open) on a 360×740 phone with a 5×5 and a 10×10
Norinori, a 15×15 Norinori and a 30×30 Nonogram on a 1366×768 laptop (rules closed, a
hint asked so the status has words). The boards are generated here (fixed seeds), the
server is `gridproof serve` on an empty bank without filling, the browser Debian's
chromium (`make browser`). It prints a table and asserts nothing (tests/web/
test_player_daily.py asserts the thresholds).
"""

from __future__ import annotations

from typing import Any

from gridproof import service
from pages import served_browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}
CASES = [
    ("phone, first visit", PHONE, ("norinori", 5, 5, 1), True),
    ("phone, first visit", PHONE, ("norinori", 10, 10, 2), True),
    ("laptop", LAPTOP, ("norinori", 15, 15, 3), False),
    ("laptop", LAPTOP, ("nonogram", 30, 30, 5), False),
]
MEASURE = """() => {
    const box = (id) => document.getElementById(id).getBoundingClientRect();
    const inView = (id) => { const b = box(id); return b.top >= 0 && b.bottom <= innerHeight
        && b.left >= 0 && b.right <= innerWidth; };
    const wrap = document.getElementById('board-wrap');
    const cell = document.getElementById('cell-0').getBoundingClientRect();
    return { top: box('board').top, bottom: box('board').bottom, cell: cell.width,
        frame: wrap.scrollHeight > wrap.clientHeight || wrap.scrollWidth > wrap.clientWidth,
        page: document.documentElement.scrollHeight > innerHeight,
        status: inView('status'), newGame: inView('new-game'), rules: inView('rules') };
}"""


def measure(browser: Any, base: str, viewport: dict[str, int], code: str, first: bool) -> Any:
    touch = viewport is PHONE
    context = browser.new_context(
        base_url=base, viewport=viewport, is_mobile=touch, has_touch=touch, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"/?code={code}")
    page.wait_for_selector("#board[data-code]")
    if not first:
        page.click("#lesson-close")
        page.locator("#board").focus()
        page.keyboard.press("h")
        page.wait_for_selector("#status:not(:empty)")
    figures = page.evaluate(MEASURE)
    context.close()
    return figures


def main() -> None:
    with served_browser() as (base, browser):
        print(
            "| case | board | top–bottom (px) | cell (px) | frame scrolls | page scrolls "
            "| status in view | New game in view | Rules in view |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for name, viewport, (genre, w, h, seed), first in CASES:
            code = service.generate(genre, w, h, seed, "easy", 60).code
            f = measure(browser, base, viewport, code, first)
            size = f"{viewport['width']}×{viewport['height']}"
            print(
                f"| {name} {size} | {genre} {w}×{h} | {f['top']:.0f}–{f['bottom']:.0f} "
                f"| {f['cell']:.1f} | {f['frame']} | {f['page']} | {f['status']} "
                f"| {f['newGame']} | {f['rules']} |"
            )


if __name__ == "__main__":
    main()
