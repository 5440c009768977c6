"""Repairing a Norinori by hand: cells moved across a border, or a border redrawn.

A rival solution dies when a cell it shades, and the kept solution leaves empty, moves into
a neighbouring region: the rival then holds one shaded cell in the old region and three in
the new one, while the kept solution's counts stay two and two (the generator's own
counterexample move, see `build.walk_rival`). A cell deep inside its region travels with
a shortest path of cells the kept solution leaves empty that leads to another region.
Those targeted moves come first; then the border edits of `core.borders` (moves, a cell
with its neighbours, stretches of border, merges, splits) in and beside the regions where
the two solutions differ, then every border edit of the board, so that a single edit that
makes the board unique is among those listed whenever the vocabulary has one. Without a solution,
the cells the contradiction names (and their neighbours) may move anywhere, even out of a
region of their own (which merges it into its neighbour).
"""

from __future__ import annotations

from collections.abc import Iterator

from gridproof.core.borders import MAX_REDRAWN, border_edits, into, merges, names, pieces, relabel
from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, cell_name, geometry
from gridproof.core.outcome import Verdict
from gridproof.core.repair import Edit, Spare
from gridproof.genres.norinori.build import find_rivals, paths_out, puzzle_of
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.position import region_masks
from gridproof.genres.norinori.solve import count

PATHS = 3
"""Paths out of its region tried for each cell a targeted move aims at (the shortest
first; the generator's own walk tries them all)."""


def edits(
    puzzle: Norinori, keep: int | None, rival: int | None, focus: int
) -> Iterator[Edit[Norinori]]:
    """Candidate single edits, the targeted moves first (see the module docstring)."""
    geo = geometry(puzzle.width, puzzle.height)
    labels = list(puzzle.regions)
    areas = region_masks(labels)
    if keep is None or rival is None:
        near = focus | geo.spread(focus) if focus else geo.full
        yield from _moves(geo, labels, areas, near, 0, keep, merge=True)
        yield from vocabulary(puzzle, keep, near)
        return
    yield from _moves(geo, labels, areas, rival & ~keep, keep, keep, merge=False)
    yield from vocabulary(puzzle, keep, _around(geo, labels, areas, keep ^ rival))
    yield from vocabulary(puzzle, keep)


def _around(geo: Geometry, labels: list[int], areas: list[int], cells: int) -> int:
    """The regions of `cells` and the cells beside them: where a border edit may break a
    rival that differs from the kept solution at `cells`."""
    out = 0
    for cell in bits(cells):
        out |= areas[labels[cell]]
    return out | geo.spread(out)


def rivals(puzzle: Norinori, solution: int, deadline: Deadline) -> list[int] | None:
    """The generator's rivals of `solution` (`build.find_rivals`): the slides two cells
    away when there are any (no search), else one rival for each independent part of the
    board, each equal to `solution` outside its part."""
    geo = geometry(puzzle.width, puzzle.height)
    return find_rivals(geo, list(puzzle.regions), solution, deadline)


def vocabulary(
    puzzle: Norinori, keep: int | None, cells: int | None = None
) -> Iterator[Edit[Norinori]]:
    """Every border edit of the board (at `cells` only, when given), keeping `keep` as the
    pinned solution (the workshop checks that it still is one)."""
    geo = geometry(puzzle.width, puzzle.height)
    for redraw in border_edits(geo, puzzle.regions, cells):
        yield Edit(redraw.text, puzzle_of(geo, list(redraw.labels)), keep, redraw.cells)


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
    other region beside it: the `PATHS` shortest that leave the region connected) into
    each neighbouring region, keeping regions connected."""
    for cell in bits(cells):
        old = labels[cell]
        if areas[old].bit_count() > MAX_REDRAWN:
            continue  # too big to walk for connectivity within a call (see core.borders)
        taken = 0
        for path in paths_out(geo, labels, areas[old] & ~fixed, cell):
            if taken == PATHS:
                break
            moving = 0
            for step in path:
                moving |= 1 << step
            rest = areas[old] & ~moving
            if (rest or not merge) and not (rest and geo.connected(rest)):
                continue
            taken += 1
            for new in sorted({labels[n] for n in bits(geo.neighbours[path[-1]])} - {old}):
                moved = list(labels)
                for step in path:
                    moved[step] = new
                text = _text(geo, cell, path, into(geo, labels, moving, new))
                yield Edit(text, puzzle_of(geo, moved), keep, tuple(path))
        if not merge and taken < PATHS:
            yield from _branch(geo, labels, areas, cell, fixed, keep)


def _branch(
    geo: Geometry, labels: list[int], areas: list[int], cell: int, fixed: int, keep: int | None
) -> Iterator[Edit[Norinori]]:
    """`cell` with the cells of its region that hang from it (those it alone joins to the
    region's cells in `fixed`), moved into each region beside them, when what stays holds
    those cells and is connected: the move for a cell every path out of its region cuts
    the region in two."""
    old = labels[cell]
    moving, staying = 1 << cell, 0
    for piece in pieces(geo, areas[old] & ~(1 << cell)):
        if piece & fixed:
            staying |= piece
        else:
            moving |= piece
    if moving == 1 << cell or not staying or not geo.connected(staying):
        return
    hanging = names(geo, moving & ~(1 << cell))
    for new in sorted({labels[n] for n in bits(geo.spread(moving))} - {old}):
        region = into(geo, labels, moving, new)
        text = f"move {cell_name(cell, geo.width)} with {hanging} into {region}"
        yield Edit(
            text, puzzle_of(geo, list(relabel(labels, moving, new))), keep, tuple(bits(moving))
        )


def _text(geo: Geometry, cell: int, path: list[int], region: str) -> str:
    where = cell_name(cell, geo.width)
    if len(path) == 1:
        return f"move {where} into {region}"
    others = ", ".join(cell_name(step, geo.width) for step in path[1:])
    return f"move {where} with {others} into {region}"


def spares(puzzle: Norinori, solution: int, deadline: Deadline, work: int) -> Iterator[Spare]:
    """The borders between two regions that the board can lose and stay unique. Erasing a
    border merges its two regions, which then hold two shaded cells, not four: the
    solution always changes, and a border is listed when the merged board still has
    exactly one (what a setter asks when looking for borders that need not be drawn)."""
    geo = geometry(puzzle.width, puzzle.height)
    areas = region_masks(list(puzzle.regions))
    for redraw in merges(geo, puzzle.regions, areas, geo.full):
        if deadline.expired():
            return
        board = puzzle_of(geo, list(redraw.labels))
        if count(board, 2, deadline.within(work=work)).verdict is Verdict.UNIQUE:
            yield Spare(redraw.text.split(" (")[0].replace("erase ", ""), redraw.cells)
