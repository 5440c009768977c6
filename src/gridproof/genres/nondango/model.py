"""Nondango: the puzzle value, its two rule variants, and a validator read off the rules.

Rules: the grid is cut into regions and some cells hold a circle. Paint exactly one circle
black in every region; every other circle is white. Three consecutive circles (three
adjacent cells in a line, across, down or on either diagonal, each holding a circle) must
never be
- `no-three-same` (janko.at and puzz.link, the default): all the same colour;
- `no-three-black` (the variant the design note analyses): all black.

Glossary: `regions[cell]` is the region id of a cell, ids numbered 0.. in order of first
appearance (row-major); `circles` is the int mask of cells holding a circle; `black` (a
grid, a solution) is the int mask of black circles, bit `row * width + col`; the `variant`
is which of the two rules the puzzle plays by. The validator reads the rules directly off
coordinates and shares no code with the solvers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from gridproof.core.errors import CodeError, quote
from gridproof.core.grid import bits, cell_string
from gridproof.core.regions import region_ids
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Group, Violation, region_groups

MAX_SIDE = 100
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""Across, down, down-right and down-left: every line of three is found once."""


class Variant(StrEnum):
    """Which lines of three are forbidden."""

    NO_THREE_SAME = "no-three-same"
    NO_THREE_BLACK = "no-three-black"


def parse_variant(text: object, where: str) -> Variant:
    """The variant named `text`; CodeError naming both otherwise."""
    for variant in Variant:
        if text == variant.value:
            return variant
    shown = quote(text) if isinstance(text, str) else repr(text)
    raise CodeError(f"{where}: rule {shown} is not 'no-three-same' or 'no-three-black'")


@dataclass(frozen=True, slots=True)
class Nondango:
    """A Nondango puzzle: connected regions, a mask of circles and the rule variant."""

    width: int
    height: int
    regions: tuple[int, ...]
    circles: int
    variant: Variant = Variant.NO_THREE_SAME

    @property
    def region_count(self) -> int:
        return max(self.regions) + 1

    def region_cells(self) -> list[list[int]]:
        """The cells of each region, by region id."""
        out: list[list[int]] = [[] for _ in range(self.region_count)]
        for cell, rid in enumerate(self.regions):
            out[rid].append(cell)
        return out

    def region_circles(self) -> list[int]:
        """The mask of each region's circles, by region id."""
        masks = [0] * self.region_count
        for cell, rid in enumerate(self.regions):
            if self.circles >> cell & 1:
                masks[rid] |= 1 << cell
        return masks

    def region_rows(self) -> list[list[int]]:
        w = self.width
        return [list(self.regions[r * w : (r + 1) * w]) for r in range(self.height)]

    def circle_rows(self) -> list[list[int]]:
        """Rows of 0/1, 1 where the cell holds a circle."""
        w = self.width
        return [[self.circles >> (r * w + c) & 1 for c in range(w)] for r in range(self.height)]


def make_puzzle(
    region_rows: Sequence[Sequence[object]],
    circle_rows: Sequence[Sequence[object]],
    variant: Variant = Variant.NO_THREE_SAME,
) -> Nondango:
    """A puzzle from rows of region labels (any hashable labels; ids are renumbered) and rows
    of circle flags (truthy = circle).

    Raises `CodeError` for ragged, empty or oversized grids, circle rows of another shape,
    and regions that are not connected (one label on two areas is two regions on paper).
    """
    width, height, regions = region_ids(region_rows, MAX_SIDE, "region")
    if len(circle_rows) != height:
        raise CodeError(f"there are {len(circle_rows)} circle rows, expected {height}")
    circles = 0
    for r, row in enumerate(circle_rows):
        if len(row) != width:
            raise CodeError(f"circle row {r + 1} has {len(row)} cells, expected {width}")
        for c, flag in enumerate(row):
            if flag:
                circles |= 1 << (r * width + c)
    return Nondango(width, height, regions, circles, variant)


def validate(puzzle: Nondango, black: int) -> list[Violation]:
    """Every violation in a finished grid: black paint off the circles, regions without
    exactly one black circle, and forbidden lines of three. Empty means a solution."""
    w, h = puzzle.width, puzzle.height
    problems = []
    if black < 0 or black >> (w * h):
        problems.append(Violation("grid", f"the grid paints cells outside the {w}x{h} board"))
        return problems
    for cell in bits(black & ~puzzle.circles):
        problems.append(
            Violation(
                "no-circle",
                f"r{cell // w + 1}c{cell % w + 1} is painted but holds no circle",
                (cell,),
                (puzzle.regions[cell],),
            )
        )
    problems += _region_problems(puzzle, black)
    problems += _line_problems(puzzle, black)
    return problems


def groups(puzzle: Nondango) -> list[Group]:
    """The circles of each region: a region with its one black circle is complete."""
    return region_groups(puzzle.regions, puzzle.circles)


def _region_problems(puzzle: Nondango, black: int) -> list[Violation]:
    painted = cell_string(black & puzzle.circles, puzzle.width * puzzle.height)
    problems = []
    for rid, cells in enumerate(puzzle.region_cells()):
        held = [c for c in cells if painted[c] == "1"]
        if len(held) != 1:
            problems.append(
                Violation(
                    "region-count",
                    f"region {rid + 1} holds {len(held)} black circles, not 1",
                    tuple(held or cells),
                    (rid,),
                    quota=1,
                    group=tuple(c for c in cells if puzzle.circles >> c & 1),
                )
            )
    return problems


def _line_problems(puzzle: Nondango, black: int) -> list[Violation]:
    w, h = puzzle.width, puzzle.height
    circle = cell_string(puzzle.circles, w * h)  # one pass each, not a shift per cell
    painted = cell_string(black, w * h)
    problems = []
    for r in range(h):
        for c in range(w):
            if circle[r * w + c] != "1":
                continue  # no line of three circles starts here (the workshop validates often)
            for dr, dc in DIRECTIONS:
                if not (0 <= r + 2 * dr < h and 0 <= c + 2 * dc < w):
                    continue
                cells = [(r + k * dr) * w + c + k * dc for k in range(3)]
                if circle[cells[1]] != "1" or circle[cells[2]] != "1":
                    continue
                colours = {painted[cell] for cell in cells}
                if colours == {"1"} or (
                    colours == {"0"} and puzzle.variant is Variant.NO_THREE_SAME
                ):
                    colour = "black" if colours == {"1"} else "white"
                    names = ", ".join(f"r{cell // w + 1}c{cell % w + 1}" for cell in cells)
                    problems.append(
                        Violation(
                            f"three-{colour}",
                            f"{names} are three {colour} circles in a row",
                            tuple(cells),
                            tuple(sorted({puzzle.regions[cell] for cell in cells})),
                        )
                    )
    return problems


def transform(puzzle: Nondango, symmetry: Symmetry) -> Nondango:
    """The puzzle carried by one of the eight symmetries of the square."""
    width, height = symmetry.shape(puzzle.width, puzzle.height)
    moved = symmetry.cells(puzzle.regions, puzzle.width, puzzle.height)
    circles = symmetry.mask(puzzle.circles, puzzle.width, puzzle.height)
    return make_puzzle(
        [moved[r * width : (r + 1) * width] for r in range(height)],
        [[circles >> (r * width + c) & 1 for c in range(width)] for r in range(height)],
        puzzle.variant,
    )
