"""Repairing a Norinori by hand: one cell moved across a border.

A rival solution dies when a cell it shades, and the kept solution leaves empty, moves into
a neighbouring region: the rival then holds one shaded cell in the old region and three in
the new one, while the kept solution's counts stay two and two (the generator's own
counterexample move, see `build.walk_rival`). A cell deep inside its region travels with
the shortest path of cells the kept solution leaves empty that leads to another region.
Without a solution, the cells the contradiction names (and their neighbours) may move
anywhere, even out of a region of their own (which merges it into its neighbour).
"""

from __future__ import annotations

from collections.abc import Iterator

from gridproof.core.grid import Geometry, bits, cell_name
from gridproof.core.repair import Edit
from gridproof.genres.norinori.build import paths_out, puzzle_of
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.position import region_masks


def edits(
    puzzle: Norinori, keep: int | None, rival: int | None, focus: int
) -> Iterator[Edit[Norinori]]:
    """Candidate single moves, cells in order (see the module docstring)."""
    geo = Geometry(puzzle.width, puzzle.height)
    labels = list(puzzle.regions)
    areas = region_masks(labels)
    if keep is None or rival is None:
        near = focus | geo.spread(focus) if focus else geo.full
        yield from _moves(geo, labels, areas, near, 0, keep, merge=True)
        return
    yield from _moves(geo, labels, areas, rival & ~keep, keep, keep, merge=False)


def _moves(
    geo: Geometry,
    labels: list[int],
    areas: list[int],
    cells: int,
    fixed: int,
    keep: int | None,
    *,
    merge: bool,
) -> Iterator[Edit[Norinori]]:
    """Moves of each cell of `cells` (with a path of cells outside `fixed` when it has no
    other region beside it) into each neighbouring region, keeping regions connected."""
    for cell in bits(cells):
        old = labels[cell]
        paths = paths_out(geo, labels, areas[old] & ~fixed, cell)[:1]
        for path in paths:
            moving = 0
            for step in path:
                moving |= 1 << step
            rest = areas[old] & ~moving
            if (rest or not merge) and not (rest and geo.connected(rest)):
                continue
            for new in sorted({labels[n] for n in bits(geo.neighbours[path[-1]])} - {old}):
                moved = list(labels)
                for step in path:
                    moved[step] = new
                yield Edit(_text(geo, cell, path, new), puzzle_of(geo, moved), keep, tuple(path))


def _text(geo: Geometry, cell: int, path: list[int], new: int) -> str:
    where = cell_name(cell, geo.width)
    if len(path) == 1:
        return f"move {where} into region {new + 1}"
    others = len(path) - 1
    cells = "cell" if others == 1 else "cells"
    return f"move {where} and {others} {cells} beside it into region {new + 1}"
