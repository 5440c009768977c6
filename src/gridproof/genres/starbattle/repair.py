"""Repairing a Star Battle by hand: cells moved across a border.

A rival solution dies when a cell it stars, and the kept solution leaves empty, moves into
a neighbouring region: the rival then holds one star too few in the old region and one too
many in the new one, while the kept solution's counts stay as they were. Those targeted
moves come first (the cell alone, with its neighbours of its region, or a stretch of
border through it); then the moves of `core.borders` in and beside the regions where the
two solutions differ, then every move of the board, so that a single edit that makes the
board unique is among those listed whenever the vocabulary has one. Without a solution,
the cells the contradiction names (and their neighbours) move.

Only moves: a Star Battle has as many regions as rows, so merging two regions or
splitting one (the rest of `core.borders`' vocabulary) never gives a board, and no border
can be spared for the same reason.
"""

from __future__ import annotations

from collections.abc import Iterator

from gridproof.core.borders import (
    MAX_REDRAWN,
    Redraw,
    cluster_moves,
    region_areas,
    single_moves,
    stretch_moves,
)
from gridproof.core.grid import Geometry, bits
from gridproof.core.repair import Edit
from gridproof.genres.starbattle.model import StarBattle, make_puzzle


def edits(
    puzzle: StarBattle, keep: int | None, rival: int | None, focus: int
) -> Iterator[Edit[StarBattle]]:
    """Candidate single edits, the targeted moves first (see the module docstring); an
    edit is listed once even when two of those passes find it."""
    geo = Geometry(puzzle.width, puzzle.height)
    labels = puzzle.regions
    areas = region_areas(labels)
    if keep is None or rival is None:
        near = focus | geo.spread(focus) if focus else geo.full
        passes = [near]
    else:
        aimed = rival & ~keep
        around = 0
        for cell in bits(keep ^ rival):
            around |= areas[labels[cell]]
        passes = [aimed, around | geo.spread(around), geo.full]
    seen: set[tuple[int, ...]] = set()
    for cells in passes:
        for redraw in moves(geo, labels, areas, cells):
            if redraw.labels in seen:
                continue
            seen.add(redraw.labels)
            yield Edit(redraw.text, _puzzle(puzzle, redraw.labels), keep, redraw.cells)


def moves(geo: Geometry, labels: tuple[int, ...], areas: list[int], cells: int) -> Iterator[Redraw]:
    """The border moves of `core.borders` (a cell, a cell with its neighbours, a stretch of
    border) that move a cell of `cells`, regions too big to redraw left alone."""
    near = cells & sum(area for area in areas if area.bit_count() <= MAX_REDRAWN)
    yield from single_moves(geo, labels, areas, near)
    yield from cluster_moves(geo, labels, areas, near)
    yield from stretch_moves(geo, labels, areas, near)


def _puzzle(puzzle: StarBattle, labels: tuple[int, ...]) -> StarBattle:
    w = puzzle.width
    rows = [labels[r * w : (r + 1) * w] for r in range(puzzle.height)]
    return make_puzzle(rows, puzzle.stars)
