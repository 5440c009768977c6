"""The workshop's board on real screens: the cell size it reaches, whether the whole board is
in view or its frame scrolls, and where the verdict sits, for boards of every genre at
10×10, 15×15 and 30×30 (the genre's generator, seed 3, easy) on a 1366×768 laptop and a
360×740 phone, in Debian's chromium through Playwright against `gridproof serve`, the page
as it opens (not scrolled). "shown" is how much of the board's width and height its frame
shows at that cell size.

    .venv/bin/python benchmarks/workshop_screens.py [--sides 10,15,30] [--genres nonogram,...]

Figures, not assertions (tests/web/test_workshop_screens.py asserts what must hold).
"""

from __future__ import annotations

import argparse
from typing import Any

from gridproof import service
from gridproof.core.registry import genres
from pages import served_browser

SCREENS = {
    "1366x768": ({"width": 1366, "height": 768}, False),
    "360x740": ({"width": 360, "height": 740}, True),
}
MEASURE = """() => {
  const box = (id) => document.getElementById(id).getBoundingClientRect();
  const wrap = document.getElementById('ws-board-wrap');
  const cell = document.querySelector('#ws-board [role=gridcell] rect').getBoundingClientRect();
  const board = box('ws-board');
  const frame = box('ws-board-wrap');
  const verdict = box('ws-verdict');
  return {
    cell: cell.width,
    fits: board.width <= frame.width + 1 && board.height <= frame.height + 1,
    inView: board.right <= innerWidth && board.bottom <= innerHeight && board.top >= 0,
    frame: [Math.round(frame.width), Math.round(frame.height)],
    shown: [
      Math.min(1, wrap.clientWidth / board.width), Math.min(1, wrap.clientHeight / board.height),
    ],
    verdict: verdict.bottom <= innerHeight ? 'in view' : `at y ${Math.round(verdict.top)}`,
    beside: verdict.left >= frame.right,
  };
}"""


def measure(page: Any, code: str) -> dict[str, Any]:
    page.goto(f"/?edit={code}")
    page.wait_for_selector("#ws-board [role=gridcell]")
    page.wait_for_function(
        "() => { const b = document.getElementById('ws-verdict-box');"
        " return b.dataset.version === document.getElementById('ws-board').dataset.version"
        " && !['', 'pending', 'stale'].includes(b.dataset.outcome); }",
        timeout=120_000,
    )
    found: dict[str, Any] = page.evaluate(MEASURE)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", default="10,15,30")
    parser.add_argument("--genres", default=",".join(sorted(genres())))
    args = parser.parse_args()
    sides = [int(s) for s in args.sides.split(",")]
    names = args.genres.split(",")
    codes = {(n, s): service.generate(n, s, s, 3, "easy", 120).code for n in names for s in sides}
    with served_browser() as (base, browser):
        print("| screen | genre | size | cell px | board | frame px | shown (w, h) | verdict |")
        print("|---|---|---|---|---|---|---|---|")
        for screen, (viewport, touch) in SCREENS.items():
            options: dict[str, Any] = {"base_url": base, "viewport": viewport}
            if touch:
                options.update(device_scale_factor=2, is_mobile=True, has_touch=True)
            context = browser.new_context(**options)
            page = context.new_page()
            for (name, side), code in codes.items():
                m = measure(page, code)
                board = "fits its frame" if m["fits"] else "scrolls in its frame"
                board += ", in view" if m["inView"] else ""
                shown = f"{m['shown'][0]:.0%}, {m['shown'][1]:.0%}"
                where = f"{m['verdict']}{', beside' if m['beside'] else ', below'}"
                print(
                    f"| {screen} | {name} | {side}×{side} | {m['cell']:.1f} | {board} |"
                    f" {m['frame'][0]}×{m['frame'][1]} | {shown} | {where} |"
                )
            context.close()


if __name__ == "__main__":
    main()
