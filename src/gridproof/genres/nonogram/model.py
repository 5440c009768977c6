"""Nonogram: the puzzle value, its rules as a validator, and clue derivation.

Rules: shade cells so that the runs of consecutive shaded cells in every row (left to
right) and every column (top to bottom) have exactly the lengths its clue lists, in order;
runs are separated by at least one empty cell, and an empty clue list is an empty line.

Glossary: `rows[r]` and `cols[c]` are clue tuples of positive ints; `shaded` is the int
mask of shaded cells (bit `row * width + col`). The validator reads runs directly off
coordinates and shares no code with the solvers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridproof.core.errors import CodeError, quote
from gridproof.core.grid import cell_string
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Group, Violation, line_groups

MAX_SIDE = 1024
Clue = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Nonogram:
    """A Nonogram: a width × height grid with a clue beside every row and column."""

    width: int
    height: int
    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]

    @property
    def lines(self) -> tuple[Clue, ...]:
        """Every clue, rows first (line `r` is row r, line `height + c` is column c)."""
        return self.rows + self.cols


def line_name(index: int, height: int) -> str:
    """`row 3` or `column 5` (1-based) for line `index` of `Nonogram.lines`."""
    return f"row {index + 1}" if index < height else f"column {index - height + 1}"


def clue_text(clue: Sequence[int]) -> str:
    return " ".join(map(str, clue)) if clue else "(empty)"


def make_puzzle(rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]]) -> Nonogram:
    """A puzzle from its row and column clues; CodeError for a clue that is not a list of
    positive numbers, a clue that cannot fit its line, or shaded totals that disagree."""
    height, width = len(rows), len(cols)
    if height == 0 or width == 0:
        raise CodeError(f"a nonogram needs at least one row and one column, got {width}x{height}")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(f"grid {width}x{height} is larger than {MAX_SIDE}x{MAX_SIDE}")
    row_clues = tuple(_check_clue(clue, width, f"row {r + 1}") for r, clue in enumerate(rows))
    col_clues = tuple(_check_clue(clue, height, f"column {c + 1}") for c, clue in enumerate(cols))
    across, down = sum(map(sum, row_clues)), sum(map(sum, col_clues))
    if across != down:
        raise CodeError(
            f"the row clues shade {across} cells but the column clues shade {down}: "
            "they cannot describe one picture"
        )
    return Nonogram(width, height, row_clues, col_clues)


def _check_clue(clue: Sequence[int], length: int, where: str) -> Clue:
    if isinstance(clue, str | bytes) or not isinstance(clue, Sequence):
        raise CodeError(f"{where}: clue {quote(repr(clue))} is not a list of numbers")
    for value in clue:
        if isinstance(value, bool) or not isinstance(value, int):
            raise CodeError(f"{where}: clue {quote(repr(list(clue)))} is not a list of numbers")
        if value < 1:
            raise CodeError(f"{where}: clue {quote(repr(list(clue)))} holds {value}, not positive")
    need = sum(clue) + len(clue) - 1 if clue else 0
    if need > length:
        raise CodeError(
            f"{where}: clue {quote(clue_text(clue))} needs {need} cells but the line has {length}"
        )
    return tuple(clue)


def runs_of(cells: Sequence[bool]) -> Clue:
    """The lengths of the runs of True in `cells`, in order."""
    out: list[int] = []
    run = 0
    for cell in cells:
        if cell:
            run += 1
        elif run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return tuple(out)


def clues_of(width: int, height: int, shaded: int) -> Nonogram:
    """The puzzle whose picture is `shaded` (its clues read off the picture)."""
    text = cell_string(shaded, width * height)  # one pass, not one shift per cell
    rows = [runs_of([ch == "1" for ch in text[r * width : (r + 1) * width]]) for r in range(height)]
    cols = [runs_of([ch == "1" for ch in text[c::width]]) for c in range(width)]
    return make_puzzle(rows, cols)


def validate(puzzle: Nonogram, shaded: int) -> list[Violation]:
    """Every line whose runs differ from its clue. Empty means the grid is a solution."""
    w, h = puzzle.width, puzzle.height
    problems = []
    if shaded < 0 or shaded >> (w * h):
        problems.append(Violation("grid", f"the grid shades cells outside the {w}x{h} board"))
    text = cell_string(shaded, w * h)
    for r, clue in enumerate(puzzle.rows):
        cells = range(r * w, (r + 1) * w)
        problems += _line_problem(f"row {r + 1}", clue, cells, text)
    for c, clue in enumerate(puzzle.cols):
        cells = range(c, w * h, w)
        problems += _line_problem(f"column {c + 1}", clue, cells, text)
    return problems


def _line_problem(name: str, clue: Clue, cells: range, text: str) -> list[Violation]:
    found = runs_of([text[cell] == "1" for cell in cells])
    if found == clue:
        return []
    described = f"{name} has runs {clue_text(found)}, its clue says {clue_text(clue)}"
    return [Violation("clue", described, tuple(cells), group=tuple(cells))]


def groups(puzzle: Nonogram) -> list[Group]:
    """The rows and columns: a line whose runs are its clue is complete."""
    return line_groups(puzzle.width, puzzle.height)


def transform(puzzle: Nonogram, symmetry: Symmetry) -> Nonogram:
    """The puzzle carried by one of the eight symmetries of the square."""
    w, h = puzzle.width, puzzle.height
    new_w, new_h = symmetry.shape(w, h)
    new_rows: list[Clue] = [()] * new_h
    new_cols: list[Clue] = [()] * new_w
    for index, clue in enumerate(puzzle.lines):
        is_row, at, backwards = landing(symmetry, index, w, h)
        (new_rows if is_row else new_cols)[at] = clue[::-1] if backwards else clue
    return Nonogram(new_w, new_h, tuple(new_rows), tuple(new_cols))


def landing(symmetry: Symmetry, index: int, width: int, height: int) -> tuple[bool, int, bool]:
    """Where line `index` (rows first) of a width × height grid lands under `symmetry`:
    whether it is a row of the image, its index there, and whether it reads backwards."""
    is_row = index < height
    if is_row:
        first, last = (index, 0), (index, width - 1)
    else:
        first, last = (0, index - height), (height - 1, index - height)
    r0, c0 = symmetry.map_rc(*first, width, height)
    r1, c1 = symmetry.map_rc(*last, width, height)
    if is_row != symmetry.swaps_axes:  # the line stays a row
        return True, r0, c0 > c1
    return False, c0, r0 > r1
