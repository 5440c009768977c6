"""Norinori's complete counter (the ladder that writes steps is `rules.LADDER`).

The counter does not run the named ladder, which writes a step per deduction for people
to read: it closes marks under `close_local` (the `local` rung in bulk, on whole-board
masks) and then probes region by region, trying each way a region could still place its
pair. On the corpus that leaves search a handful of nodes at most.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from heapq import heapify, heappop, heappush

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.search import count_solutions
from gridproof.genres.norinori.marks import EMPTY, SHADED, Marks
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.position import Board, board_of
from gridproof.genres.norinori.rules import close_local

Node = tuple[int, int, int, int]
"""A search node: (shaded, empty, focus, fresh), where focus holds the cells its search
may branch on (a part of the board that no constraint links to the rest) and `fresh` the
cells decided since the marks were last closed and probed to a fixpoint (the board at the
root; a branch's way below it): only the regions near them can have anything new to
probe."""

Way = tuple[int, int]
"""One way for a region to place its shaded cells: (cells to shade, cells to clear)."""

MASKS_UP_TO = 1600
"""Boards of at most this many cells (40×40) probe on whole-board masks (`probe_masks`),
larger ones incrementally (`probe`): measured on the boards of
`benchmarks/norinori_scaling.py` (CPU ms, seeds 1-3, generator norinori/4's boards),
masks / incremental at 20×20 6.1-16.6 / 8.5-23.5, at 40×40 31-35 / 33-39, at 60×60
76-140 / 81-139."""

PROBE_LIMIT = 2000
"""Regions with more ways than this are not probed, and search splits them a cell at a
time: listing the ways of a huge region would cost more than it could tell."""

WAY_MEMO = 1 << 16
"""The most ways whose last close `NorinoriSpace.way_closed` keeps (all are let go at
once when it is reached): a board's ways are far fewer (about 900 tried on a 40×40 of
`benchmarks/norinori_scaling.py`, 8,000 on one of forty 40-cell regions), so this only
bounds the memory of a count over regions with thousands of ways each."""


class NorinoriSpace:
    """Propagate with `close_local` and region probing; branch on the region whose
    ways decide most for how many they are; count independent parts of the board
    separately."""

    def __init__(self, board: Board, deadline: Deadline) -> None:
        self.board = board
        self.deadline = deadline
        self.propagations = 0
        self.weight: dict[int, int] = {}
        """How many dead ends each region took part in (`blame`): search branches where
        dead ends happen."""
        self.reach: dict[int, float] = {}
        """How much each region's ways decide, from its latest probe: the geometric mean,
        over the ways that lived, of the cells each way's close decided. Search branches
        where every child decides much (a lookahead solver's branching score)."""
        self.closes: dict[int, tuple[int, int, tuple[int, int] | None]] = {}
        """What each region's way closed to when last tried on whole-board masks, by the
        pair of cells it shades: (shaded, empty, the close or None when it died), with
        the marks it was tried on (`way_closed`)."""

    def blame(self, rid: int) -> None:
        """Region `rid` had no way left: weigh it and its neighbouring regions, whose marks
        took its ways away (each region's weight is how many dead ends it took part in, as
        dom/wdeg weighs the variables of a failed constraint)."""
        weight = self.weight
        for each in (rid, *self.board.region_neighbours[rid]):
            weight[each] = weight.get(each, 0) + 1

    def close(self, shaded: int, empty: int, changed: int) -> tuple[int, int] | None:
        self.propagations += 1
        return close_local(self.board, shaded, empty, changed)

    def propagate(self, node: Node) -> Node | None:
        """`close_local`, then probing by region until nothing is left to probe: each way
        a region could place its pair is tried under the `local` rung; ways that die are
        dropped, and what every surviving way decides is decided. A region is probed
        once something within two steps of it has changed since the node's parent
        was probed (every region at the root), and again each time something near it
        changes (a rule of thumb: a way's close can reach further). A heap orders them:
        first the regions within one step of a change, then those two steps away (by
        then, often changed again: probed once instead of twice), each by fewest ways,
        so the regions with many ways are probed once the small ones have narrowed
        them. Large boards probe incrementally
        (`marks.Marks`), from the node's closed marks: one close costs what the way
        touches, not the board."""
        shaded, empty, focus, fresh = node
        board = self.board
        if board.geo.size <= MASKS_UP_TO:
            return self.propagate_masks(node)
        if fresh == board.geo.full:  # the root: every region's quota to look at
            closed = self.close(shaded, empty, fresh)
            if closed is None:
                return None
            shaded, empty = closed
            marks = Marks(board, shaded, empty)
            near = board.regions_touching(board.geo.full & ~(shaded | empty) & focus)
            further: set[int] = set()
        else:  # a closed position and a few new marks: closed incrementally
            self.propagations += 1
            marks = Marks(board, shaded & ~fresh, empty & ~fresh)
            log = marks.extend([*bits(shaded & fresh)], [*bits(empty & fresh)])
            if log is None:
                return None
            shaded, empty = marked(marks, log, shaded, empty)
            near, further = marks.regions_near(log)
        dirty = near | further
        order = [(0, marks.ways_at_most(rid), rid) for rid in near]
        order += [(1, marks.ways_at_most(rid), rid) for rid in further]
        heapify(order)
        region_mask = board.region_mask
        while order and not self.deadline.expired():
            _, _, rid = heappop(order)
            if rid not in dirty:  # probed already since its zone last changed
                continue
            dirty.discard(rid)
            if not region_mask[rid] & focus & ~(shaded | empty):
                continue
            gained = self.probe(marks, rid)
            if gained is None:
                self.blame(rid)
                return None
            if gained:
                shaded, empty = marked(marks, gained, shaded, empty)
                near, further = marks.regions_near(gained)
                dirty |= near | further
                for other in near:
                    heappush(order, (0, marks.ways_at_most(other), other))
                for other in further:
                    heappush(order, (1, marks.ways_at_most(other), other))
        return shaded, empty, focus, 0

    def propagate_masks(self, node: Node) -> Node | None:
        """`propagate` on whole-board masks (`close_local`), for boards of at most
        `MASKS_UP_TO` cells, where a mask operation costs less than a cell visited."""
        shaded, empty, focus, fresh = node
        board, geo = self.board, self.board.geo
        closed = self.close(shaded, empty, fresh)
        if closed is None:
            return None
        changed = fresh | (closed[0] ^ shaded) | (closed[1] ^ empty)
        shaded, empty = closed
        near, further = self.regions_near(changed & geo.full, shaded | empty, focus)
        dirty = near | further
        order = [(0, likely_ways(board, shaded, empty, rid), rid) for rid in near]
        order += [(1, likely_ways(board, shaded, empty, rid), rid) for rid in further]
        heapify(order)
        while order and not self.deadline.expired():
            _, _, rid = heappop(order)
            if rid not in dirty:  # probed already since its zone last changed
                continue
            dirty.discard(rid)
            if not board.region_mask[rid] & focus & ~(shaded | empty):
                continue
            probed = self.probe_masks(shaded, empty, rid)
            if probed is None:
                self.blame(rid)
                return None
            gained = (probed[0] ^ shaded) | (probed[1] ^ empty)
            if gained:
                shaded, empty = probed
                near, further = self.regions_near(gained, shaded | empty, focus)
                dirty |= near | further
                for other in near:
                    heappush(order, (0, likely_ways(board, shaded, empty, other), other))
                for other in further:
                    heappush(order, (1, likely_ways(board, shaded, empty, other), other))
        return shaded, empty, focus, 0

    def regions_near(self, cells: int, decided: int, focus: int) -> tuple[set[int], set[int]]:
        """`marks.Marks.regions_near` on masks, kept to the regions that still have an
        undecided cell in `focus`."""
        board = self.board
        near = cells | board.geo.spread(cells)
        one = board.regions_touching(near)
        two = board.regions_touching(board.geo.spread(near)) - one
        open_ = board.region_mask
        return (
            {rid for rid in one if open_[rid] & focus & ~decided},
            {rid for rid in two if open_[rid] & focus & ~decided},
        )

    def probe_masks(self, shaded: int, empty: int, rid: int) -> tuple[int, int] | None:
        """`probe` on whole-board masks (`close_local`), for boards of at most
        `MASKS_UP_TO` cells, where a mask operation costs less than a cell visited: the
        marks once the ways of region `rid` have been tried, or None when none lives.
        Each way's close starts from what it closed to when last tried (`way_closed`):
        on the boards of `benchmarks/norinori_scaling.py` (stop 45's 32 a size, 20×20 to
        40×40) a quarter of the ways tried cost no close, and the counts 22% fewer."""
        if likely_ways(self.board, shaded, empty, rid) > PROBE_LIMIT:
            return shaded, empty
        every_shaded = every_empty = -1
        alive, reach, known = 0, 0.0, (shaded | empty).bit_count()
        have = shaded & self.board.region_mask[rid]
        for shade, clear in region_ways(self.board, shaded, empty, rid):
            if self.deadline.expired():
                return shaded, empty
            closed = self.way_closed(shaded, empty, shade, clear, have | shade)
            if closed is None:
                continue
            alive += 1
            reach += math.log((closed[0] | closed[1]).bit_count() - known)
            self.reach[rid] = math.exp(reach / alive)
            every_shaded &= closed[0]
            every_empty &= closed[1]
            gained = (every_shaded & ~shaded) | (every_empty & ~empty)
            if alive > 1 and not gained:  # two ways live and share nothing new
                return shaded, empty
        if not alive:
            return None
        if alive == 1:
            return every_shaded, every_empty
        return self.close(shaded | every_shaded, empty | every_empty, gained)

    def way_closed(
        self, shaded: int, empty: int, shade: int, clear: int, pair: int
    ) -> tuple[int, int] | None:
        """The close of the marks with a region's way added (`shade` and `clear`, which
        place its pair `pair`), or None when it dies, from what the way's last close
        found where that still holds. The close is the least set of marks that holds
        the marks it starts from and that its rules leave as they are, so a way's close
        can only grow as the marks grow: a way that died below these marks dies here,
        and so does one whose last close disagrees with a mark made since; one whose
        close already holds these marks closes to it again; and otherwise the close of
        these marks with the way is that of these marks with the way's last close, which
        starts nearer the end. Only that last case costs a close."""
        kept = self.closes.get(pair)
        if kept is not None and not (kept[0] & ~shaded or kept[1] & ~empty):
            closed = kept[2]
            if closed is None:
                return None
            known_shaded, known_empty = closed
            if known_shaded & empty or known_empty & shaded:
                closed = None
            elif shaded & ~known_shaded or empty & ~known_empty:
                own = (known_shaded | known_empty) & ~(shaded | empty)
                closed = self.close(known_shaded | shaded, known_empty | empty, own)
            else:
                return closed
        else:
            closed = self.close(shaded | shade, empty | clear, 0)
        if len(self.closes) >= WAY_MEMO:
            self.closes.clear()
        self.closes[pair] = (shaded, empty, closed)
        return closed

    def probe(self, marks: Marks, rid: int) -> list[int] | None:
        """Try every way region `rid` could still take, each closed on `marks` and taken
        back; then decide on `marks` what every surviving way decides. Returns the cells
        decided (none for a region with more than `PROBE_LIMIT` ways, or when time is
        up), or None when no way survives. Each way's close counts as a propagation, and
        so does the close that decides what they share when there is more than one."""
        if marks.ways_at_most(rid) > PROBE_LIMIT:
            return []
        state = marks.state
        every: set[int] | None = None
        survivor: set[int] = set()
        alive, reach = 0, 0.0
        ways = marks.ways(rid)
        while ways:
            if self.deadline.expired():
                return []
            way = ways.pop(0 if every is None else _most_apart(ways, every))
            self.propagations += 1
            log = marks.extend(*way)
            if log is None:
                continue
            alive += 1
            reach += math.log(len(log))
            self.reach[rid] = math.exp(reach / alive)
            found = survivor = {cell << 2 | state[cell] for cell in log}
            marks.undo(log)
            every = found if every is None else every & found
            if not every:  # two ways live and share nothing: the rest cannot decide
                return []
        if not alive:
            return None
        if alive == 1:  # the survivor's close, as found: a closed position already
            return marks.settle(survivor)
        if not every:
            return []
        self.propagations += 1
        return marks.extend(
            [code >> 2 for code in every if code & 3 == SHADED],
            [code >> 2 for code in every if code & 3 == EMPTY],
        )

    def split(self, node: Node) -> Sequence[Node]:
        shaded, empty, focus, fresh = node
        parts = independent_parts(self.board, self.board.geo.full & ~(shaded | empty) & focus)
        if len(parts) < 2:
            return [node]
        return [(shaded, empty, part, fresh) for part in parts]

    def branches(self, node: Node) -> Sequence[Node] | None:
        """One child per way of a region in focus: the region whose ways decided most in
        its latest probe (`reach`), for the ways it has left and the dead ends it has
        been part of (dom/wdeg). A branch that decides much leaves a small subtree: on the
        boards of `benchmarks/norinori_scaling.py` (measured before probes reused their
        ways' closes, `way_closed`, which changed the closes, not the nodes), 40×40 seeds
        17-32, 276 nodes and 43,781 closes in all by fewest ways, 135 and 37,929 by reach
        (seeds 1-16: 213 and 39,913, 71 and 30,007). Fewest ways first with reach breaking
        the ties did as well at 40×40 (30,491 and 36,994 closes) and worse at 20×20, 60×60
        and above."""
        shaded, empty, focus, _ = node
        unknown = self.board.geo.full & ~(shaded | empty)
        if not unknown & focus:
            return None
        board, weight, reach = self.board, self.weight, self.reach
        regions = board.regions_touching(unknown & focus)
        rid = min(
            regions,
            key=lambda r: (
                -reach.get(r, 0)
                * (1 + weight.get(r, 0))
                / max(1, likely_ways(board, shaded, empty, r)),
                r,
            ),
        )
        if likely_ways(board, shaded, empty, rid) > PROBE_LIMIT:  # a huge region: one cell
            cell = 1 << (board.region_mask[rid] & unknown).bit_length() - 1
            return [
                (shaded | cell, empty, focus, cell),
                (shaded, empty | cell, focus, cell),
            ]
        ways = region_ways(board, shaded, empty, rid)
        return [(shaded | shade, empty | clear, focus, shade | clear) for shade, clear in ways]

    def solution(self, node: Node) -> int:
        return node[0]


def _most_apart(ways: list[tuple[list[int], list[int]]], every: set[int]) -> int:
    """The index of the way that shades fewest of the cells the live ways so far all
    shade: the way most likely to leave them sharing nothing."""
    best, fewest = 0, 3
    for index, (shade, _) in enumerate(ways):
        agreeing = 0
        for cell in shade:
            if cell << 2 | SHADED in every:
                agreeing += 1
        if agreeing < fewest:
            best, fewest = index, agreeing
            if not agreeing:
                break
    return best


def marked(marks: Marks, cells: list[int], shaded: int, empty: int) -> tuple[int, int]:
    """`shaded` and `empty` with `cells` added, each as `marks` holds it."""
    state = marks.state
    for cell in cells:
        if state[cell] == SHADED:
            shaded |= 1 << cell
        else:
            empty |= 1 << cell
    return shaded, empty


def likely_ways(board: Board, shaded: int, empty: int, rid: int) -> int:
    """How many ways region `rid` has at most: pairs of its undecided cells, or those
    cells when it holds a shaded cell already (cheap, for ordering and limits)."""
    area = board.region_mask[rid]
    room = (area & ~(shaded | empty)).bit_count()
    return room if area & shaded else room * (room - 1) // 2


def region_ways(board: Board, shaded: int, empty: int, rid: int) -> list[Way]:
    """The ways region `rid` could still complete its pair. Left out are only ways that
    strand a cell: a cell of the pair whose partner is not in the region needs one
    outside it (an undecided cell with no shaded neighbour, or a shaded cell with no
    partner yet) that the pair's other cell does not touch as well."""
    geo, area = board.geo, board.region_mask[rid]
    nbrs = geo.neighbours
    unknown = geo.full & ~(shaded | empty)
    room = area & unknown
    mates = (unknown | shaded) & ~area & ~geo.spread(shaded)  # partners for a new cell
    have = shaded & area
    if have:
        cell = have.bit_length() - 1
        if nbrs[cell] & shaded:  # already paired outside: the other must pair outside too
            ok = room & geo.spread(mates) & ~nbrs[cell]
        elif nbrs[cell] & unknown & ~area:  # it may still pair outside
            ok = room & (nbrs[cell] | geo.spread(mates))
        else:
            ok = room & nbrs[cell]
        return [(1 << c, room & ~(1 << c)) for c in bits(ok)]
    cells = list(bits(room))
    outside = [nbrs[c] & mates for c in cells]
    ways = []
    for i, first in enumerate(cells):
        for j in range(i + 1, len(cells)):
            second = cells[j]
            if nbrs[first] & (1 << second) or (
                outside[i] & ~nbrs[second] and outside[j] & ~nbrs[first]
            ):
                pair = (1 << first) | (1 << second)
                ways.append((pair, room & ~pair))
    return ways


def independent_parts(board: Board, unknown: int) -> list[int]:
    """The undecided cells cut into parts that share no constraint, smallest first (a
    small part is the quickest to prove dead).

    A constraint's cells are a region, or a cell and its four neighbours; so two undecided
    cells interact only if they share a region or lie within two orthogonal steps.
    """
    geo = board.geo
    rest = unknown
    parts = []
    while rest:
        part = frontier = rest & -rest
        while frontier:
            near = frontier | geo.spread(frontier)
            near |= geo.spread(near)
            for rid in board.regions_touching(frontier):
                near |= board.region_mask[rid]
            frontier = near & rest & ~part
            part |= frontier
        parts.append(part)
        rest &= ~part
    return sorted(parts, key=int.bit_count)


def count(puzzle: Norinori, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count the puzzle's solutions up to `limit` (2 decides uniqueness) before `deadline`."""
    deadline = deadline or Deadline.never()
    board = board_of(puzzle)
    root: Node = (0, 0, board.geo.full, board.geo.full)
    return count_solutions(NorinoriSpace(board, deadline), root, limit, deadline)


def propagate_marks(
    puzzle: Norinori, shaded: int, empty: int, deadline: Deadline
) -> tuple[int, int] | None:
    """The counter's propagation at one node from the given marks (`Genre.propagate`):
    the close and region probing of `NorinoriSpace.propagate`, as at the root."""
    board = board_of(puzzle)
    full = board.geo.full
    node = NorinoriSpace(board, deadline).propagate((shaded, empty, full, full))
    return None if node is None else (node[0], node[1])


def rivals(puzzle: Norinori, solution: int, deadline: Deadline) -> list[int] | None:
    """Solutions other than `solution`, one for each part of the board that propagation
    leaves undecided and that has another way to be filled; each rival equals `solution`
    outside its part. Empty when `solution` is the only solution; None if the deadline
    passes (or its work runs out) first. A generator fixes all the parts in one go, instead
    of one rival per count. The deadline is charged every close, the root's included.
    """
    board = board_of(puzzle)
    space = NorinoriSpace(board, deadline)
    root = space.propagate((0, 0, board.geo.full, board.geo.full))
    deadline.charge(space.propagations)  # the searches below charge their own work
    if deadline.expired():
        return None
    unsolved = ValueError("rivals() was handed a shading that does not solve the puzzle")
    if root is None:
        raise unsolved
    found = []
    for node in space.split(root):
        part = node[2] & ~(root[0] | root[1])
        outcome = count_solutions(space, node, 2, deadline)
        if outcome.verdict is Verdict.TIMEOUT:
            return None
        if outcome.verdict is Verdict.NONE:
            raise unsolved
        for shaded in outcome.solutions:
            if shaded & part != solution & part:
                found.append((shaded & part) | (solution & ~part))
                break
    return found
