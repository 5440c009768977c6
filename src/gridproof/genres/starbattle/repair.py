"""Repairing a Star Battle by hand: cells moved across a border.

A rival solution dies when a cell it stars, and the kept solution leaves empty, moves into
a neighbouring region: the rival then holds one star too few in the old region and one too
many in the new one, while the kept solution's counts stay as they were. Those targeted
moves come first: the cell alone, with its neighbours of its region, a stretch of border
through it, or (a cell deep inside its region) with a shortest path of cells both
solutions leave empty that leads to another region, the `PATHS` shortest. Then the moves
of `core.borders` in and beside the regions where the two solutions differ, then every
move of the board, so that a single edit that makes the board unique is among those
listed whenever the vocabulary has one. Without a solution, the cells the contradiction
names (and their neighbours) move.

Only moves: a Star Battle has as many regions as rows, so merging two regions or
splitting one (the rest of `core.borders`' vocabulary) never gives a board, and no border
can be spared for the same reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from gridproof.core.borders import (
    MAX_REDRAWN,
    Redraw,
    cluster_moves,
    into,
    region_areas,
    single_moves,
    stretch_moves,
)
from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, cell_name, geometry
from gridproof.core.outcome import Verdict
from gridproof.core.repair import Edit
from gridproof.genres.starbattle.model import StarBattle, make_puzzle
from gridproof.genres.starbattle.solve import count

PATHS = 3
"""Paths out of its region tried for each cell the targeted moves aim at, shortest first."""


def edits(
    puzzle: StarBattle, keep: int | None, rival: int | None, focus: int
) -> Iterator[Edit[StarBattle]]:
    """Candidate single edits, the targeted moves first (see the module docstring); an
    edit is listed once even when two of those passes find it."""
    geo = geometry(puzzle.width, puzzle.height)
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
    for n, cells in enumerate(passes):
        found = moves(geo, labels, areas, cells)
        if n == 0 and keep is not None and rival is not None:
            found = chain(found, path_moves(geo, labels, areas, cells, keep | rival))
        for redraw in found:
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


def path_moves(
    geo: Geometry, labels: tuple[int, ...], areas: list[int], cells: int, starred: int
) -> Iterator[Redraw]:
    """Each cell of `cells` with a path of cells outside `starred` to a cell beside
    another region, moved into that region: the `PATHS` shortest paths of two cells or
    more for which what stays behind is one piece."""
    for cell in bits(cells):
        old = labels[cell]
        if areas[old].bit_count() > MAX_REDRAWN:
            continue  # too big to walk for connectivity within a call (see core.borders)
        taken = 0
        for path in _paths_out(geo, labels, areas[old] & ~starred, cell):
            if taken == PATHS:
                break
            moving = sum(1 << step for step in path)
            rest = areas[old] & ~moving
            if len(path) < 2 or not rest or not geo.connected(rest):
                continue
            taken += 1
            others = ", ".join(cell_name(step, geo.width) for step in path[1:])
            text = f"move {cell_name(cell, geo.width)} with {others}"
            for new in sorted({labels[n] for n in bits(geo.neighbours[path[-1]])} - {old}):
                labelled = list(labels)
                for step in path:
                    labelled[step] = new
                yield Redraw(
                    f"{text} into {into(geo, labels, moving, new)}", tuple(labelled), tuple(path)
                )


def _paths_out(
    geo: Geometry, labels: tuple[int, ...], free: int, start: int
) -> Iterator[list[int]]:
    """Shortest paths from `start` through `free` (cells of its region) to each cell beside
    another region, nearest first (a breadth-first walk)."""
    region = labels[start]
    parent = {start: start}
    queue = [start]
    for here in queue:
        if any(labels[n] != region for n in bits(geo.neighbours[here])):
            path = [here]
            while path[-1] != start:
                path.append(parent[path[-1]])
            yield path[::-1]
        for n in bits(geo.neighbours[here] & free):
            if n not in parent:
                parent[n] = here
                queue.append(n)


def rivals(puzzle: StarBattle, solution: int, deadline: Deadline) -> list[int] | None:
    """Other solutions of a board `solution` solves, from one count to two: each rival the
    count finds cut into its independent parts, each part applied alone to `solution` (see
    `parts`). Empty when `solution` is the only solution; None when the count ran out."""
    outcome = count(puzzle, 2, deadline)
    if outcome.verdict is Verdict.TIMEOUT:
        return None
    found: list[int] = []
    for other in outcome.solutions:
        if other != solution:
            change = other ^ solution
            found += [
                solution ^ part for part in parts(puzzle, change) if solution ^ part not in found
            ]
    return found


def parts(puzzle: StarBattle, change: int) -> list[int]:
    """`change` (the cells where two solutions differ) cut into the groups that check no
    rule together: two changed cells are in one part when they share a row, a column or a
    region, or touch. Each part applied alone to one solution gives another: every row,
    column and region changes within one part, and a star a part adds touches no star the
    other solution keeps (the two solutions would then hold touching stars)."""
    w = puzzle.width
    cells = list(bits(change))
    owner = {cell: cell for cell in cells}

    def root(cell: int) -> int:
        while owner[cell] != cell:
            owner[cell] = owner[owner[cell]]
            cell = owner[cell]
        return cell

    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            ra, ca, rb, cb = a // w, a % w, b // w, b % w
            linked = (
                ra == rb
                or ca == cb
                or puzzle.regions[a] == puzzle.regions[b]
                or (abs(ra - rb) <= 1 and abs(ca - cb) <= 1)
            )
            if linked:
                owner[root(a)] = root(b)
    grouped: dict[int, int] = {}
    for cell in cells:
        grouped[root(cell)] = grouped.get(root(cell), 0) | 1 << cell
    return sorted(grouped.values())


def _puzzle(puzzle: StarBattle, labels: tuple[int, ...]) -> StarBattle:
    w = puzzle.width
    rows = [labels[r * w : (r + 1) * w] for r in range(puzzle.height)]
    return make_puzzle(rows, puzzle.stars)
