"""What a hint's view of the board implies: the exact check by which an explanation leaves
out the cells it cited but does not need.

A person reading a hint sees its *view*: the cells it cites, the cells it decides and the
cells of the regions it reads (those it names, and any it cites whole). Of the view they
know the marks, that each region read holds exactly two shaded cells, and that each shaded
cell in view has exactly one shaded neighbour, of which they see those in view: a
neighbour outside the view could be anything. The view *implies* a cell's value when no
shading of its undecided cells keeps those rules with the cell the other way.
`tests/test_cited_cells.py` judges every hint by the same reading, with a SAT solver over
the oracle's rules; here it is a small backtracking search, counted so that a step is
always explained alike.

Glossary: masks are of board cells; `view` the cells in view, `read` the regions read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gridproof.core.grid import bits
from gridproof.genres.norinori.position import Board

VIEW_WORK = 40_000
"""How much the checks of one step's citation may do in all (counted, so a step is always
explained alike): each search node costs `NODE_WORK` and one more for each region it reads,
as its close does. Past it a check answers that it cannot tell, and the cells not yet tried
stay cited. Measured (CPU): on the hints of 30×30 boards (`benchmarks/hints.py`, six
seeds) the costliest citation, 203 cells and 36 regions, spent it all in 18–26 ms, most
take under 2 ms; on the boards of `tests/test_cited_cells.py` (6×6 to 8×8) none runs out;
on its 10×10 and 12×12 boards 2 of 1,036 Region pairs and 1 of 33 Probe citations keep an
idle cell, on 15×15 boards 9 Region pairs citations."""
NODE_WORK = 4
"""A search node's own cost, before its regions: its close's mask rules."""


class _View:
    """One view's rules, as masks, and the search for a shading that breaks a conclusion."""

    __slots__ = ("areas", "geo", "left", "lonely", "view")

    def __init__(
        self, board: Board, view: int, read: Sequence[int], about: int, left: list[int]
    ) -> None:
        """The part of the view linked to the cells of `about` by its rules: a region read
        links its cells, a cell's partner rule the cell and its neighbours in view. The
        rest cannot bear on them (at marks that agree with a solution, which every other
        part then keeps)."""
        geo = self.geo = board.geo
        areas = {rid: board.region_mask[rid] for rid in read}
        region_of, region_mask = board.region_of, board.region_mask
        linked = grown = about & view
        while grown:
            reach = geo.spread(grown) & view
            for rid in {region_of[cell] for cell in bits(grown)} & areas.keys():
                reach |= region_mask[rid]
            grown = reach & ~linked
            linked |= grown
        self.view = linked
        self.areas = [area for area in areas.values() if area & linked]
        self.lonely = linked & ~geo.spread(geo.full & ~view)
        """The cells linked whose every neighbour is in view: only they can be seen to lack
        a partner (a neighbour out of view could be it)."""
        self.left = left
        """The work the checks may still do (shared by the checks of one citation)."""

    def close(self, shaded: int, empty: int) -> tuple[int, int] | None:
        """The marks the view's rules force from these (all within the view), or None when
        they break one: as `rules.close_marks` on the view, a neighbour out of view free."""
        geo, view, lonely = self.geo, self.view, self.lonely
        while True:
            a, b, c, d = geo.shifts(shaded)
            ab, cd = a | b, c | d
            crowded = (a & b) | (ab & cd) | (c & d)  # two or more shaded neighbours
            if shaded & crowded:
                return None
            unknown = view & ~(shaded | empty)
            paired = shaded & (ab | cd)
            single = shaded ^ paired
            clear = unknown & (crowded | geo.spread(paired))
            free = unknown ^ clear
            a, b, c, d = geo.shifts(free)
            ab, cd = a | b, c | d
            reach = ab | cd  # a neighbour that may still be shaded
            alone = single & lonely
            if alone & ~reach:
                return None  # a shaded cell with no partner left
            forced = alone & ~((a & b) | (ab & cd) | (c & d))
            shade = free & geo.spread(forced) if forced else 0
            clear |= free & lonely & ~(reach | geo.spread(single))  # no partner possible
            if shade & clear:
                return None
            now_shaded, now_empty = shaded | shade, empty | clear
            for area in self.areas:
                have = (now_shaded & area).bit_count()
                room = area & ~now_empty
                places = room.bit_count()
                if have > 2 or places < 2:
                    return None
                if have == 2:
                    if places > 2:
                        now_empty |= room & ~now_shaded
                elif places == 2:
                    now_shaded |= room
            if now_shaded & now_empty:
                return None
            if now_shaded == shaded and now_empty == empty:
                return shaded, empty
            shaded, empty = now_shaded, now_empty

    def breaks(self, shaded: int, empty: int) -> bool | None:
        """Whether some shading of the view's undecided cells keeps its rules from these
        marks (None: not found out before the work ran out). Depth first: while a region
        read has undecided cells, over the ways the one with the fewest could still take
        (its last shaded cell, or its pair); then a cell at a time, a shaded cell's
        neighbours first, shaded before empty."""
        geo, view, left = self.geo, self.view, self.left
        cost = NODE_WORK + len(self.areas)
        stack = [(shaded, empty)]
        while stack:
            left[0] -= cost
            if left[0] < 0:
                return None
            closed = self.close(*stack.pop())
            if closed is None:
                continue
            shaded, empty = closed
            open_ = view & ~(shaded | empty)
            if not open_:
                return True
            ways = self.ways(shaded, empty)
            if ways:
                stack += ways
                continue
            pick = geo.spread(shaded) & open_ or open_
            cell = pick & -pick
            stack.append((shaded, empty | cell))
            stack.append((shaded | cell, empty))
        return False

    def ways(self, shaded: int, empty: int) -> list[tuple[int, int]]:
        """The marks of each way the region read with the fewest ways left could complete
        its two shaded cells (none when every region read is complete)."""
        best: list[int] = []
        have_best = 0
        fewest = -1
        for area in self.areas:
            free = area & ~(shaded | empty)
            if not free:
                continue
            have = (shaded & area).bit_count()
            room = free.bit_count()
            count = room if have else room * (room - 1) // 2
            if fewest < 0 or count < fewest:
                fewest, best, have_best = count, list(bits(free)), have
        if fewest < 0:
            return []
        free = sum(1 << cell for cell in best)
        if have_best:
            return [(shaded | 1 << c, empty | free & ~(1 << c)) for c in best]
        found = []
        for i, first in enumerate(best):
            for second in best[i + 1 :]:
                pair = 1 << first | 1 << second
                found.append((shaded | pair, empty | free & ~pair))
        return found


def implies(
    board: Board,
    view: int,
    read: Sequence[int],
    shaded: int,
    empty: int,
    decided: dict[int, int],
    left: list[int],
) -> bool | None:
    """Whether the view, with the marks in it, implies each cell of `decided` (cell ->
    1 shaded, 0 empty) as given; None when the search cannot tell within the work
    `left[0]` (spent from it)."""
    about = 0
    for cell in decided:
        about |= 1 << cell
    seen = _View(board, view, read, about, left)
    shaded &= seen.view
    empty &= seen.view
    for cell, value in decided.items():
        bit = 1 << cell
        other = (shaded, empty | bit) if value else (shaded | bit, empty)
        broken = seen.breaks(*other)
        if broken is None:
            return None
        if broken:
            return False
    return True


Cited = tuple[tuple[int, ...], tuple[int, ...]]
"""What a step cites: its cells, and the regions it names."""

GROW = 3
"""How many rings of cells around a citation its view may take in when it does not imply
the step (each ring: every cell next to the view)."""


def enough_and_fewest(
    board: Board,
    tries: Sequence[Cited],
    shaded: int,
    empty: int,
    decided: dict[int, int],
    short: list[bool] | None = None,
) -> Cited | None:
    """A citation whose view implies `decided` (cell -> 1 shaded, 0 empty) at these marks,
    with none of its cells idle as far as the checks can tell, all within `VIEW_WORK`:
    the first of `tries` whose view implies it, or else the first grown by up to `GROW`
    rings of the cells around its view, then less the cells the view still implies it
    without, tried farthest from the cells decided first, a block at a time (`drop`),
    every one of them once on its own unless a block it lies in goes. The cells decided
    and those of the regions named always stay (they are what the step is about). None
    when no try implies it, or the work runs out first; `short[0]`, when given, says
    which: True when each was found not to imply it."""
    region_of, region_mask, geo = board.region_of, board.region_mask, board.geo
    left = [VIEW_WORK]

    def view_of(cells: Iterable[int], regions: Sequence[int]) -> int:
        """The cells in view of a citation: those cited, those decided, the regions'."""
        mask = 0
        for cell in (*cells, *decided):
            mask |= 1 << cell
        for rid in regions:
            mask |= region_mask[rid]
        return mask

    def holds(chosen: dict[int, None], regions: Sequence[int]) -> bool | None:
        mask = view_of(chosen, regions)
        read = {*regions}
        for rid in {region_of[cell] for cell in chosen}:
            if not region_mask[rid] & ~mask:
                read.add(rid)  # a region cited whole is read whole
        return implies(board, mask, sorted(read), shaded, empty, decided, left)

    def grown(cells: Sequence[int], regions: Sequence[int], rings: int) -> Cited:
        """`cells` and the cells within `rings` steps of their view."""
        inner = view_of(cells, regions)
        view = inner
        for _ in range(rings):
            view |= geo.spread(view)
        return (*cells, *bits(view & ~inner)), tuple(regions)

    candidates = [*tries, *(grown(*tries[0], rings) for rings in range(1, GROW + 1))]
    for index, (cells, regions) in enumerate(candidates):
        if (cells, regions) in candidates[:index]:
            continue  # an explanation that left its step as found
        cited = dict.fromkeys(cells)
        found = holds(cited, regions)
        if found is None:
            return None
        if found:
            break
    else:
        if short is not None:
            short[0] = True
        return None
    keep = set(decided)
    for rid in regions:
        keep.update(bits(region_mask[rid]))
    at = [divmod(cell, geo.width) for cell in decided]

    def distance(cell: int) -> int:
        row, col = divmod(cell, geo.width)
        return min(abs(row - r) + abs(col - c) for r, c in at)

    def drop(block: list[int]) -> None:
        """Leave out the cells of `block` if the view implies the step without them all,
        else each half of it the same way: most cited cells an explanation's own reasoning
        keeps are idle or needed in runs, and a check costs about as much for many as for
        one."""
        nonlocal cited
        if not block or left[0] <= 0:
            return
        trial = {c: None for c in cited if c not in block}
        if holds(trial, regions):
            cited = trial
        elif len(block) > 1:
            half = len(block) // 2
            drop(block[:half])
            drop(block[half:])

    drop(sorted((c for c in cited if c not in keep), key=lambda c: (-distance(c), c)))
    return tuple(cited), tuple(regions)
