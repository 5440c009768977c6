"""Lights: the puzzle value, its rules as a validator, and the symmetries.

Rules: some cells hold a digit from 0 to 4 and are never shaded; shade other cells so that
every digit counts exactly the shaded cells orthogonally next to it.

Glossary: `clues[cell]` is the digit in a cell or None (row-major); `shaded` is the int
mask of shaded cells. The validator reads the rules directly off coordinates and shares
no code with the solvers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridproof.core.errors import CodeError
from gridproof.core.regions import grid_shape
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Violation

MAX_SIDE = 30
MAX_DIGIT = 4


@dataclass(frozen=True, slots=True)
class Lights:
    """A Lights puzzle: a width × height grid, some cells holding a digit."""

    width: int
    height: int
    clues: tuple[int | None, ...]

    @property
    def clue_mask(self) -> int:
        """The cells that hold a digit."""
        return sum(1 << cell for cell, digit in enumerate(self.clues) if digit is not None)

    def clue_rows(self) -> list[list[int | None]]:
        w = self.width
        return [list(self.clues[r * w : (r + 1) * w]) for r in range(self.height)]


def make_puzzle(rows: Sequence[Sequence[int | None]]) -> Lights:
    """A puzzle from rows of digits (None: no digit); `CodeError` for an empty, ragged or
    oversized grid, or a value that is not a digit from 0 to 4."""
    width, height = grid_shape(rows, MAX_SIDE, "clue")
    clues: list[int | None] = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4
            ):
                raise CodeError(
                    f"row {r + 1}, column {c + 1}: {value!r} is not a digit from 0 to {MAX_DIGIT}"
                )
            clues.append(value)
    return Lights(width, height, tuple(clues))


def validate(puzzle: Lights, shaded: int) -> list[Violation]:
    """Every violation in a finished grid: shaded digits, and digits that do not count
    their shaded neighbours. Empty means the grid is a solution."""
    w, h = puzzle.width, puzzle.height

    def is_shaded(r: int, c: int) -> bool:
        return 0 <= r < h and 0 <= c < w and bool(shaded >> (r * w + c) & 1)

    problems = []
    if shaded < 0 or shaded >> (w * h):
        problems.append(Violation("grid", f"the grid shades cells outside the {w}x{h} board"))
    for r in range(h):
        for c in range(w):
            digit = puzzle.clues[r * w + c]
            if digit is None:
                continue
            if is_shaded(r, c):
                problems.append(
                    Violation("digit-shaded", f"r{r + 1}c{c + 1} holds a digit but is shaded")
                )
            around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            lit = [rr * w + cc for rr, cc in around if is_shaded(rr, cc)]
            if len(lit) != digit:
                problems.append(
                    Violation(
                        "digit-count",
                        f"the {digit} at r{r + 1}c{c + 1} has {len(lit)} shaded neighbours",
                        (r * w + c, *lit),
                    )
                )
    return problems


def transform(puzzle: Lights, symmetry: Symmetry) -> Lights:
    """The puzzle carried by one of the eight symmetries of the square."""
    width, height = symmetry.shape(puzzle.width, puzzle.height)
    moved = symmetry.cells(puzzle.clues, puzzle.width, puzzle.height)
    return Lights(width, height, tuple(moved))
