"""Norinori: the puzzle value, its rules as a validator, and the region-cycle theorem.

Rules: shade cells so that every region holds exactly two shaded cells and every shaded
cell has exactly one shaded orthogonal neighbour (the shaded cells fall apart into
dominoes, which may cross region borders).

Glossary: `regions[cell]` is the region id of a cell, ids numbered 0.. in order of first
appearance (row-major); `shaded` is the int mask of shaded cells. The validator below
reads the rules directly off coordinates and shares no code with the solvers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridproof.core.regions import region_ids
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Group, Violation, region_groups

MAX_SIDE = 100


@dataclass(frozen=True, slots=True)
class Norinori:
    """A Norinori puzzle: a width × height grid cut into connected regions."""

    width: int
    height: int
    regions: tuple[int, ...]

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


def make_puzzle(rows: Sequence[Sequence[object]]) -> Norinori:
    """A puzzle from rows of region labels (any hashable labels; ids are renumbered).

    Raises `CodeError` for ragged or empty grids, oversized grids and regions that are not
    connected (a label used for two separate areas would be two regions on paper).
    """
    return Norinori(*region_ids(rows, MAX_SIDE))


def validate(puzzle: Norinori, shaded: int) -> list[Violation]:
    """Every violation in a finished grid: region counts, and shaded cells whose number of
    shaded neighbours is not exactly one. Empty means the grid is a solution."""
    w, h = puzzle.width, puzzle.height

    def is_shaded(r: int, c: int) -> bool:
        return 0 <= r < h and 0 <= c < w and bool(shaded >> (r * w + c) & 1)

    problems = []
    if shaded < 0 or shaded >> (w * h):
        problems.append(Violation("grid", f"the grid shades cells outside the {w}x{h} board"))
    for rid, cells in enumerate(puzzle.region_cells()):
        inside = [cell for cell in cells if shaded >> cell & 1]
        if len(inside) != 2:
            problems.append(
                Violation(
                    "region-count",
                    f"region {rid + 1} holds {len(inside)} shaded cells, not 2",
                    tuple(inside or cells),
                    (rid,),
                    quota=2,
                    group=tuple(cells),
                )
            )
    for r in range(h):
        for c in range(w):
            if not is_shaded(r, c):
                continue
            around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            beside = tuple(y * w + x for y, x in around if 0 <= y < h and 0 <= x < w)
            degree = sum(is_shaded(rr, cc) for rr, cc in around)
            if degree != 1:
                what = "no shaded neighbour" if degree == 0 else f"{degree} shaded neighbours"
                problems.append(
                    Violation(
                        "domino",
                        f"shaded cell r{r + 1}c{c + 1} has {what}, not exactly one",
                        (r * w + c,),
                        (puzzle.regions[r * w + c],),
                        quota=1,
                        group=beside,
                    )
                )
    return problems


def groups(puzzle: Norinori) -> list[Group]:
    """The regions: one holding its two shaded cells is complete."""
    return region_groups(puzzle.regions)


def region_cycles(puzzle: Norinori, solution: int) -> list[list[int]]:
    """The solution projected onto regions, as its decomposition into cycles.

    Each domino is an edge between the regions of its two cells (a loop when both lie in
    one region). In a solution every region has degree 2, so the graph is a disjoint union
    of cycles; each cycle is listed as its regions in walking order, starting from its
    lowest id. Raises ValueError if `solution` is not a solution of `puzzle`.
    """
    problems = validate(puzzle, solution)
    if problems:
        raise ValueError(f"not a solution: {problems[0].text}")
    w = puzzle.width
    edges: list[tuple[int, int]] = []
    for cell in range(w * puzzle.height):
        if not solution >> cell & 1:
            continue
        r, c = divmod(cell, w)
        east = c + 1 < w and solution >> (cell + 1) & 1
        south = r + 1 < puzzle.height and solution >> (cell + w) & 1
        if east:
            edges.append((puzzle.regions[cell], puzzle.regions[cell + 1]))
        if south:
            edges.append((puzzle.regions[cell], puzzle.regions[cell + w]))
    incident: dict[int, list[int]] = {}
    for index, (a, b) in enumerate(edges):
        incident.setdefault(a, []).append(index)
        incident.setdefault(b, []).append(index)
    used = [False] * len(edges)
    cycles = []
    for start in sorted(incident):
        if all(used[e] for e in incident[start]):
            continue
        cycle, here = [start], start
        while True:
            edge = next(e for e in incident[here] if not used[e])
            used[edge] = True
            a, b = edges[edge]
            here = b if a == here else a
            if here == start:
                break
            cycle.append(here)
        cycles.append(cycle)
    return cycles


def transform(puzzle: Norinori, symmetry: Symmetry) -> Norinori:
    """The puzzle carried by one of the eight symmetries of the square."""
    width, height = symmetry.shape(puzzle.width, puzzle.height)
    moved = symmetry.cells(puzzle.regions, puzzle.width, puzzle.height)
    return make_puzzle([moved[r * width : (r + 1) * width] for r in range(height)])
