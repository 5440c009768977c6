"""Star Battle: the puzzle value, its rules as a validator, and its symmetries.

Rules: place stars so that every row, every column and every region holds exactly
`stars` of them, and no two stars touch, not even diagonally. Boards are square with as
many regions as rows (janko.at, puzz.link). The one-star form is the game sold as
"Queens".

Glossary: `regions[cell]` is the region id of a cell (0.. in row-major order of first
appearance); a star grid is the int mask of starred cells (the contract's `shaded`).
The validator reads the rules directly off coordinates and shares no code with the
solvers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridproof.core.errors import CodeError
from gridproof.core.regions import region_ids
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Group, Violation, line_groups, region_groups

MAX_SIDE = 30
MAX_STARS = 9


@dataclass(frozen=True, slots=True)
class StarBattle:
    """A Star Battle: a square grid cut into as many connected regions as it has rows,
    each row, column and region to hold `stars` stars."""

    width: int
    height: int
    regions: tuple[int, ...]
    stars: int

    @property
    def region_count(self) -> int:
        return max(self.regions) + 1

    def region_cells(self) -> list[list[int]]:
        """The cells of each region, by region id."""
        out: list[list[int]] = [[] for _ in range(self.region_count)]
        for cell, rid in enumerate(self.regions):
            out[rid].append(cell)
        return out

    def region_rows(self) -> list[list[int]]:
        w = self.width
        return [list(self.regions[r * w : (r + 1) * w]) for r in range(self.height)]


def default_stars(side: int) -> int:
    """The usual star count for a side: 1 up to 9x9, 2 up to 13x13, 3 above (janko.at)."""
    return 1 if side <= 9 else 2 if side <= 13 else 3


def make_puzzle(rows: Sequence[Sequence[object]], stars: int) -> StarBattle:
    """A puzzle from rows of region labels and a star count.

    Raises `CodeError` for ragged, empty, oversized or non-square grids, regions that are
    not connected, a region count other than the side, or a star count that no row can
    hold (k stars need 2k-1 cells).
    """
    width, height, ids = region_ids(rows, MAX_SIDE)
    if width != height:
        raise CodeError(f"a Star Battle is square; this grid is {width}x{height}")
    count = max(ids) + 1
    if count != width:
        raise CodeError(f"a {width}x{height} Star Battle has {width} regions, not {count}")
    if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= MAX_STARS:
        raise CodeError(f"star count {stars!r} is not a number from 1 to {MAX_STARS}")
    if 2 * stars - 1 > width:
        raise CodeError(f"{stars} stars cannot fit in a row of {width} cells without touching")
    return StarBattle(width, height, ids, stars)


def validate(puzzle: StarBattle, stars: int) -> list[Violation]:
    """Every violation in a finished grid: rows, columns and regions without exactly the
    star count, and stars that touch. Empty means the grid is a solution."""
    w, h, k = puzzle.width, puzzle.height, puzzle.stars

    def star(r: int, c: int) -> bool:
        return 0 <= r < h and 0 <= c < w and bool(stars >> (r * w + c) & 1)

    problems = []
    if stars < 0 or stars >> (w * h):
        problems.append(Violation("grid", f"the grid places stars outside the {w}x{h} board"))
    for r in range(h):
        inside = [r * w + c for c in range(w) if star(r, c)]
        if len(inside) != k:
            problems.append(
                Violation(
                    "row-count",
                    f"row {r + 1} holds {len(inside)} stars, not {k}",
                    tuple(inside or [r * w + c for c in range(w)]),
                    quota=k,
                    group=tuple(r * w + c for c in range(w)),
                )
            )
    for c in range(w):
        inside = [r * w + c for r in range(h) if star(r, c)]
        if len(inside) != k:
            problems.append(
                Violation(
                    "column-count",
                    f"column {c + 1} holds {len(inside)} stars, not {k}",
                    tuple(inside or [r * w + c for r in range(h)]),
                    quota=k,
                    group=tuple(r * w + c for r in range(h)),
                )
            )
    for rid, cells in enumerate(puzzle.region_cells()):
        inside = [cell for cell in cells if stars >> cell & 1]
        if len(inside) != k:
            problems.append(
                Violation(
                    "region-count",
                    f"region {rid + 1} holds {len(inside)} stars, not {k}",
                    tuple(inside or cells),
                    (rid,),
                    quota=k,
                    group=tuple(cells),
                )
            )
    for r in range(h):
        for c in range(w):
            if not star(r, c):
                continue
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
                if star(r + dr, c + dc):
                    problems.append(
                        Violation(
                            "touch",
                            f"stars r{r + 1}c{c + 1} and r{r + dr + 1}c{c + dc + 1} touch",
                            (r * w + c, (r + dr) * w + c + dc),
                        )
                    )
    return problems


def groups(puzzle: StarBattle) -> list[Group]:
    """The rows, columns and regions: one holding its stars is complete."""
    return line_groups(puzzle.width, puzzle.height) + region_groups(puzzle.regions)


def transform(puzzle: StarBattle, symmetry: Symmetry) -> StarBattle:
    """The puzzle carried by one of the eight symmetries of the square."""
    width, height = symmetry.shape(puzzle.width, puzzle.height)
    moved = symmetry.cells(puzzle.regions, puzzle.width, puzzle.height)
    return make_puzzle([moved[r * width : (r + 1) * width] for r in range(height)], puzzle.stars)
