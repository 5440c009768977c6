"""Nonogram as a text picture: each row's clue to its left, each column's clue stacked
above it (read top to bottom), then the cells: `#` shaded, `.` empty, blank undecided.
An empty line's clue is `0`."""

from __future__ import annotations

from gridproof.core.textgrid import mark
from gridproof.genres.nonogram.model import Nonogram


def format_text(puzzle: Nonogram, shaded: int, empty: int) -> list[str]:
    """The picture of `puzzle` with the decided cells `shaded` and `empty`."""
    w = puzzle.width
    columns = [[str(n) for n in clue] or ["0"] for clue in puzzle.cols]
    rows = [" ".join(map(str, clue)) or "0" for clue in puzzle.rows]
    step = max((len(n) for clue in columns for n in clue), default=1)
    left = max((len(text) for text in rows), default=1)
    depth = max((len(clue) for clue in columns), default=1)
    lines = []
    for level in range(depth):
        numbers = [
            clue[level - depth + len(clue)] if level >= depth - len(clue) else ""
            for clue in columns
        ]
        lines.append((" " * left + " | " + " ".join(n.rjust(step) for n in numbers)).rstrip())
    lines.append("-" * left + "-+-" + "-" * (w * (step + 1) - 1))
    for r, clue in enumerate(rows):
        cells = " ".join(mark(r * w + c, shaded, empty).rjust(step) for c in range(w))
        lines.append((clue.rjust(left) + " | " + cells).rstrip())
    return lines
