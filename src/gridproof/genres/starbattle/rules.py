"""The Star Battle rule ladder: every deduction the solver makes, cheapest first, and the
one table, `LADDER` at the end, that names the rungs, their grades and their rules.

Rungs (each includes the ones before it):
- `basic`: a star empties its eight neighbours; a row, column or region with all its
  stars empties the rest; one whose open cells are just the stars it needs fills them.
- `one-way`: a row, column or region can place its remaining stars only in some ways:
  a cell starred in every way is a star, a cell every way rules out is empty.
- `confine`: k regions confined to k rows (or columns) own those rows' stars, and k rows
  (or columns) confined to k regions own those regions' stars; two neighbouring rows (or
  columns) form 2x2 blocks that hold at most one star each.
- `probe`: assume a star in a cell and run the rungs below; a dead end empties the cell.

Each rule returns the steps it can take now, or a `Violation` (the contradiction it found).
This file is the only place that spells a rung name or a rule id.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from gridproof.core.grid import bits
from gridproof.core.ladder import (
    Found,
    Ladder,
    Rule,
    Rung,
    chain_cited,
    needed_steps,
    rule,
    run_ladder,
)
from gridproof.core.trace import Step, Violation
from gridproof.genres.starbattle.position import Board, Placements, Position, Unit


def _stars(n: int) -> str:
    return "1 star" if n == 1 else f"{n} stars"


def _count(n: int, noun: str) -> str:
    """`n` and the noun, plural unless `n` is 1: "1 region", "3 open cells"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _more(n: int) -> str:
    """How many more stars, in words: "1 more star", "2 more stars"."""
    return _count(n, "more star")


def _are(mask: int) -> str:
    return "are" if mask & (mask - 1) else "is"


@rule(
    "star-neighbours",
    "Stars keep their neighbours empty",
    "the star at {cell} keeps its neighbours {free} empty",
    conflict="the stars at {cell} and {other} touch",
    salience=1,
)
def neighbours(pos: Position) -> Found:
    """A star's eight neighbours hold no star."""
    board = pos.board
    steps: list[Step] = []
    for cell in bits(pos.shaded & pos.changed_since(neighbours.id)):
        around = board.king[cell]
        if around & pos.shaded:
            other = around & pos.shaded
            return neighbours.violation(
                cells=(cell, *bits(other)), cell=board.name(cell), other=board.names(other)
            )
        free = around & pos.unknown
        if free:
            steps.append(
                neighbours.step(
                    empty=free,
                    cells=(cell,),
                    cell=board.name(cell),
                    free=board.names(free),
                )
            )
    return steps


def _touched_units(board: Board, changed: int) -> Iterator[Unit]:
    """The units holding a changed cell, each once."""
    for unit in board.units:
        if unit.mask & changed:
            yield unit


@rule(
    "unit-full",
    "Unit has its stars",
    "{unit} has its {stars}, so {free} {are} empty",
    conflict="{unit} holds {count} stars, more than {k}",
)
def unit_full(pos: Position) -> Found:
    """A row, column or region with all its stars: its other cells are empty."""
    board, k = pos.board, pos.board.stars
    steps: list[Step] = []
    for unit in _touched_units(board, pos.changed_since(unit_full.id)):
        have = (unit.mask & pos.shaded).bit_count()
        if have > k:
            return unit_full.violation(
                cells=bits(unit.mask), regions=_named(unit), unit=unit.label, count=have, k=k
            )
        free = unit.mask & pos.unknown
        if have == k and free:
            steps.append(
                unit_full.step(
                    empty=free,
                    cells=bits(unit.mask),
                    regions=_named(unit),
                    unit=unit.label,
                    stars=_stars(k),
                    free=board.names(free),
                    are=_are(free),
                )
            )
    return steps


@rule(
    "unit-room",
    "Unit has just enough room",
    "{unit} needs {need} more and only {free} {are} open, so {them} star{s}",
    conflict="{unit} needs {more} but has {room}",
    salience=-2,
)
def unit_room(pos: Position) -> Found:
    """A row, column or region whose open cells are exactly the stars it still needs."""
    board, k = pos.board, pos.board.stars
    steps: list[Step] = []
    for unit in _touched_units(board, pos.changed_since(unit_room.id)):
        need = k - (unit.mask & pos.shaded).bit_count()
        free = unit.mask & pos.unknown
        count = free.bit_count()
        if need > count:
            return unit_room.violation(
                cells=bits(unit.mask),
                regions=_named(unit),
                unit=unit.label,
                more=_more(need),
                room="no open cell" if not count else f"only {_count(count, 'open cell')}",
            )
        if free and need == count:
            many = count > 1
            steps.append(
                unit_room.step(
                    shaded=free,
                    cells=bits(unit.mask),
                    regions=_named(unit),
                    unit=unit.label,
                    need=need,
                    free=board.names(free),
                    are="are" if many else "is",
                    them="they are" if many else "it is a",
                    s="s" if many else "",
                )
            )
    return steps


BASIC: tuple[Rule[Position], ...] = (neighbours, unit_full, unit_room)
"""The `basic` rung's rules, cheapest first (`solve.close` is their fixpoint in bulk)."""


def _unit_ways(pos: Position, unit: Unit) -> tuple[int, int, Placements] | None:
    """How many stars `unit` still needs, its open cells no star touches, and its
    placements there (`position.Ways`; None: no need, or too many to list)."""
    need = pos.board.stars - (unit.mask & pos.shaded).bit_count()
    room = unit.mask & pos.unknown & ~_near_stars(pos)
    if need <= 0 or not room:
        return None
    listed = pos.board.ways.of(room, need)
    return None if listed is None else (need, room, listed)


def _named(unit: Unit) -> tuple[int, ...]:
    """The regions a step about `unit` names: the unit itself when it is one."""
    return (unit.index,) if unit.kind == "region" else ()


def _stars_near(pos: Position, area: int) -> int:
    """The stars outside `area` that touch one of its open cells: the stars a step about
    the area's placements cites, since they rule those cells out."""
    board = pos.board
    return sum(
        1 << cell for cell in bits(pos.shaded & ~area) if board.king[cell] & area & pos.unknown
    )


def _near_stars(pos: Position) -> int:
    near = 0
    for cell in bits(pos.shaded):
        near |= pos.board.king[cell]
    return near


@rule(
    "one-way",
    "Star in every placement",
    "every way {unit} can place its {stars} puts a star at {where}",
    conflict="{unit} cannot place its {stars} without two touching",
)
def one_way(pos: Position) -> Found:
    """A row, column or region that can place its remaining stars in only one way."""
    board = pos.board
    for unit in board.units:
        listed = _unit_ways(pos, unit)
        if listed is None:
            continue
        need, _, (found, _, common, _) = listed
        if not found:
            return one_way.violation(cells=bits(unit.mask), unit=unit.label, stars=_stars(need))
        if common:
            return [
                one_way.step(
                    shaded=common,
                    cells=bits(unit.mask | _stars_near(pos, unit.mask)),
                    regions=_named(unit),
                    unit=unit.label,
                    stars=_stars(need),
                    where=board.names(common),
                )
            ]
    return []


@rule(
    "every-way",
    "Ruled out by every placement",
    "every way {unit} can place its {stars} touches or leaves out {free}",
    salience=-1,
)
def every_way(pos: Position) -> Found:
    """Cells that every placement of a unit's remaining stars touches (or, inside the unit,
    leaves out) hold no star."""
    board = pos.board
    for unit in board.units:
        listed = _unit_ways(pos, unit)
        if listed is None or not listed[2][0]:
            continue
        need, _, (_, used, _, touched) = listed
        ruled_out = (touched | unit.mask) & ~used
        free = ruled_out & pos.unknown
        if free:
            return [
                every_way.step(
                    empty=free,
                    cells=bits(unit.mask | _stars_near(pos, unit.mask)),
                    regions=_named(unit),
                    unit=unit.label,
                    stars=_stars(need),
                    free=board.names(free),
                )
            ]
    return []


def _bands(lines: tuple[Unit, ...]) -> Iterator[tuple[int, int, int]]:
    """Every run of 1..n-1 neighbouring lines: (first, last, mask)."""
    n = len(lines)
    for first in range(n):
        mask = 0
        for last in range(first, n - 1 if first == 0 else n):
            mask |= lines[last].mask
            yield first, last, mask


def _span(kind: str, first: int, last: int) -> str:
    plural = "rows" if kind == "row" else "columns"
    return f"{kind} {first + 1}" if first == last else f"{plural} {first + 1}-{last + 1}"


@rule(
    "regions-in-lines",
    "Regions confined to lines",
    "{owners} can only place stars in {span}, so {lines} no other star: {free} {are} empty",
    conflict="{count} regions must place their stars in {span}, which {hold} only {room}",
)
def regions_in_lines(pos: Position) -> Found:
    """k regions whose open cells and stars lie within k rows (or columns): those lines'
    stars are theirs, so the lines' other cells are empty."""
    board = pos.board
    live = pos.unknown | pos.shaded
    for lines in (board.rows, board.cols):
        for first, last, band in _bands(lines):
            inside = [u for u in board.regions if not (u.mask & live & ~band)]
            size = last - first + 1
            if len(inside) > size:
                return regions_in_lines.violation(
                    cells=bits(band),
                    count=len(inside),
                    span=_span(lines[0].kind, first, last),
                    hold="holds" if size == 1 else "hold",
                    room=_stars(board.stars * size),
                )
            if len(inside) == size:
                owned = 0
                for u in inside:
                    owned |= u.mask
                free = band & pos.unknown & ~owned
                if free:
                    return [
                        regions_in_lines.step(
                            empty=free,
                            cells=bits(band),
                            regions=[u.index for u in inside],
                            owners=_region_names(inside),
                            span=_span(lines[0].kind, first, last),
                            lines=_those(lines[0].kind, size),
                            free=board.names(free),
                            are=_are(free),
                        )
                    ]
    return []


def _those(kind: str, n: int) -> str:
    """The subject of "... hold no other star": "that row holds", "those 2 columns hold"."""
    return f"that {kind} holds" if n == 1 else f"those {n} {kind}s hold"


def _region_names(units: list[Unit]) -> str:
    if len(units) == 1:
        return units[0].label
    return "regions " + ", ".join(str(u.index + 1) for u in units)


@rule(
    "lines-in-regions",
    "Lines confined to regions",
    "{span} can only place stars in {owners}, so {which} no other star: {free} {are} empty",
    conflict="{span} must place {their} stars in {owners}",
    salience=-2,
)
def lines_in_regions(pos: Position) -> Found:
    """k rows (or columns) whose open cells and stars lie within k regions: those regions'
    stars are in these lines, so the regions' other cells are empty."""
    board = pos.board
    live = pos.unknown | pos.shaded
    for lines in (board.rows, board.cols):
        for first, last, band in _bands(lines):
            touched = [u for u in board.regions if u.mask & live & band]
            size = last - first + 1
            if len(touched) < size:
                return lines_in_regions.violation(
                    cells=bits(band),
                    span=_span(lines[0].kind, first, last),
                    their="its" if size == 1 else "their",
                    owners=f"only {_count(len(touched), 'region')}" if touched else "no region",
                )
            if len(touched) == size:
                owned = 0
                for u in touched:
                    owned |= u.mask
                free = owned & pos.unknown & ~band
                if free:
                    return [
                        lines_in_regions.step(
                            empty=free,
                            cells=bits(band),
                            regions=[u.index for u in touched],
                            span=_span(lines[0].kind, first, last),
                            owners=_region_names(touched),
                            which=_those("region", size),
                            free=board.names(free),
                            are=_are(free),
                        )
                    ]
    return []


def _strip_columns(pos: Position, a: Unit, b: Unit) -> list[tuple[int, int]]:
    """The runs of open positions along the 2-wide strip of lines a and b: each position
    the mask of its (up to) two open cells."""
    open_cells = pos.unknown & ~_near_stars(pos)
    cells_a, cells_b = list(bits(a.mask)), list(bits(b.mask))
    return [
        ((1 << x if open_cells >> x & 1 else 0) | (1 << y if open_cells >> y & 1 else 0), i)
        for i, (x, y) in enumerate(zip(cells_a, cells_b, strict=True))
    ]


@rule(
    "blocks",
    "2x2 blocks",
    "{span} need {more} and their open cells fall into 2x2 blocks that hold at "
    "most one star each, just {need} of them: so {free} {are} empty",
    conflict="{span} need {more} but their 2x2 blocks have room for {room}",
)
def blocks(pos: Position) -> Found:
    """Two neighbouring rows (or columns) still needing n stars: along the strip, a run of
    L open positions holds at most (L + 1) // 2 stars (2x2 blocks, one star each); when the
    runs hold exactly n, each odd run's stars sit at its 1st, 3rd, ... positions, so the
    positions between them are empty."""
    board = pos.board
    for lines in (board.rows, board.cols):
        for a, b in itertools.pairwise(lines):
            need = 2 * board.stars - ((a.mask | b.mask) & pos.shaded).bit_count()
            if need <= 0:
                continue
            runs: list[list[int]] = [[]]
            for cells, _ in _strip_columns(pos, a, b):
                if cells:
                    runs[-1].append(cells)
                elif runs[-1]:
                    runs.append([])
            room = sum((len(run) + 1) // 2 for run in runs)
            span = _span(a.kind, a.index, b.index)
            if room < need:
                return blocks.violation(
                    cells=bits(a.mask | b.mask),
                    span=span,
                    more=_more(need),
                    room=f"only {room}" if room else "none",
                )
            if room == need:
                free = 0
                for run in runs:
                    if len(run) % 2:
                        for between in run[1::2]:
                            free |= between
                free &= pos.unknown
                if free:
                    return [
                        blocks.step(
                            empty=free,
                            cells=bits(a.mask | b.mask | _stars_near(pos, a.mask | b.mask)),
                            span=span,
                            need=need,
                            more=_more(need),
                            free=board.names(free),
                            are=_are(free),
                        )
                    ]
    return []


BELOW_PROBE: tuple[Rule[Position], ...] = (
    *BASIC,
    one_way,
    every_way,
    regions_in_lines,
    lines_in_regions,
    blocks,
)


def refute(pos: Position, cell: int) -> tuple[Violation | None, list[Step]]:
    """The contradiction the rungs below `probe` reach if `cell` is assumed a star, with
    the steps that lead to it (`core.ladder.needed_steps`)."""
    trial = pos.copy()
    trial.apply(Step(probe.id, "assumption", shaded=1 << cell))
    run = run_ladder(BELOW_PROBE, trial, pos.deadline)
    if run.contradiction is None:
        return None, []
    return run.contradiction, needed_steps(
        run.steps, run.contradiction, 1 << cell, pos.board.region_mask
    )


@rule("probe", "Probe", "if {cell} held a star, then {why}; so it is empty")
def probe(pos: Position) -> Found:
    """Assume a star in an open cell and run the rungs below; a dead end empties it. Told
    the solution (a hint), a cell that holds a star there is not tried: nothing refutes it;
    told an order of cells (`prefer`), the cells are tried in it."""
    board = pos.board
    cells = list(bits(pos.unknown & ~(pos.solution or 0)))
    if pos.prefer is not None:
        cells.sort(key=pos.prefer)  # a hint's order; the usual one among cells alike
    for cell in cells:
        if pos.deadline.expired():
            return []
        why, steps = refute(pos, cell)
        if why is not None:
            cited, regions = chain_cited(cell, steps, why, board.region_mask)
            return [
                probe.step(
                    empty=1 << cell,
                    cells=cited,
                    regions=regions,
                    cell=board.name(cell),
                    why=why.text,
                )
            ]
    return []


LADDER: Ladder[Position] = Ladder(
    (
        Rung("basic", "easy", "stars empty their neighbours; units count their stars", BASIC),
        Rung(
            "one-way",
            "medium",
            "a row, column or region placing its stars in the only ways it can",
            (one_way, every_way),
        ),
        Rung(
            "confine",
            "hard",
            "k regions in k rows or columns own them (and back); 2x2 blocks hold one star",
            (regions_in_lines, lines_in_regions, blocks),
        ),
        Rung(
            "probe",
            "hard",
            "assume a star and run the rungs below; a dead end empties it",
            (probe,),
        ),
    ),
    beyond="expert",
)
"""The Star Battle ladder: rung, grade, what it adds, its rules (each with id, title,
text). A board that `probe` cannot finish needs search: it is graded `expert`."""
