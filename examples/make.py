"""Make the files in examples/ that the README's tour reads: every one from this project's
own generators and drawings (no third-party puzzle), the same on every machine.

    .venv/bin/python examples/make.py        # rewrites examples/*.json, *.txt and cat.png

`tests/test_examples.py` checks that the files are what this script makes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import gridproof as gp

HERE = Path(__file__).resolve().parent
AMBIGUOUS = "norinori.1.8x8.kozG7Ekdy34t6zR_LVA"
"""A Norinori with two solutions (the one the README's `fix` repairs)."""
CORPORA = {
    "norinori": [(6, 6, 1), (6, 6, 2), (8, 8, 3), (8, 8, 4), (10, 10, 5), (10, 10, 6)],
    "nonogram": [(5, 5, 1), (8, 8, 2), (10, 10, 3), (10, 10, 4), (15, 15, 5), (15, 15, 6)],
}
"""Each small corpus: (width, height, seed) of its boards."""
CAT_SIZE = (80, 60)
"""The drawing's pixels (`gridproof picture` scales it to the board's size)."""


def corpus(genre: str) -> dict[str, Any]:
    """Generated boards in the corpus format, each with its expected verdict and solution,
    and the ambiguous Norinori among the Norinori (expected `multiple`)."""
    puzzles = []
    for width, height, seed in CORPORA[genre]:
        board = gp.generate(genre, size=(width, height), seed=seed, deadline=None)
        entry = board.loaded.to_json()
        entry["id"] = f"{genre}-{width}x{height}-seed{seed}"
        puzzles.append(_without_genre(entry))
    if genre == "norinori":
        entry = gp.load(AMBIGUOUS).to_json()
        entry["id"], entry["expected"] = "norinori-8x8-two-solutions", "multiple"
        puzzles.append(_without_genre(entry))
    return {"genre": genre, "puzzles": puzzles}


def _without_genre(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if key != "genre"}


def ambiguous() -> tuple[dict[str, Any], str]:
    """The ambiguous Norinori as one puzzle, and one of its two solutions to keep (rows of
    `#` and `.`, as `fix --keep` and `validate --grid` read them)."""
    report = gp.fix(gp.load(AMBIGUOUS), deadline=None).report
    entry = gp.load(AMBIGUOUS).to_json()
    entry["id"] = "mypuzzle"
    return entry, "\n".join(report.grids[1]) + "\n"


def cat() -> Any:
    """A cat's silhouette, black on white: the drawing `gridproof picture` makes a Nonogram
    of (needs Pillow, the `picture` extra)."""
    from PIL import Image, ImageDraw

    image = Image.new("L", CAT_SIZE, 255)
    pen = ImageDraw.Draw(image)
    pen.ellipse((14, 26, 58, 58), fill=0)  # body
    pen.ellipse((8, 8, 36, 34), fill=0)  # head
    pen.polygon([(9, 16), (11, 0), (21, 10)], fill=0)  # ears
    pen.polygon([(24, 10), (34, 0), (35, 16)], fill=0)
    pen.line([(56, 50), (70, 40), (72, 24), (66, 16)], fill=0, width=5)  # tail
    pen.ellipse((15, 17, 19, 21), fill=255)  # eyes
    pen.ellipse((25, 17, 29, 21), fill=255)
    return image


def main() -> int:
    for genre in CORPORA:
        _write(HERE / f"{genre}.json", json.dumps(corpus(genre), indent=1) + "\n")
    puzzle, keep = ambiguous()
    _write(HERE / "mypuzzle.json", json.dumps(puzzle, indent=1) + "\n")
    _write(HERE / "solution.txt", keep)
    cat().save(HERE / "cat.png", optimize=True)
    print(f"wrote {', '.join(sorted(p.name for p in HERE.iterdir() if p.suffix != '.py'))}")
    return 0


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
