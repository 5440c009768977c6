"""Nondango's counting space: what the complete counter and the `search` rule share.

It propagates the `confine` and `probe` rungs in bulk, cuts the undecided regions into
groups that no live line of three joins (core multiplies their counts), and branches on
the region with the fewest circles left. It reads positions only, never the rule table,
so `rules` can build its `search` rule on `has_completion` and `independent_parts`, and
`solve` can read the table's rung names.
"""

from __future__ import annotations

from collections.abc import Sequence

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits, low_bit
from gridproof.core.outcome import Verdict
from gridproof.core.search import count_solutions
from gridproof.genres.nondango.position import Board, Position, propagate


class NondangoSpace:
    """Propagate `confine` and `probe`; split into independent groups; branch on the
    tightest region."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.propagations = 0

    def propagate(self, pos: Position) -> Position | None:
        """The `confine` fixpoint, then the `probe` one over the circles in focus: a circle
        whose black assumption propagates to a contradiction is white. Probing costs a
        propagation per circle but saves the search from thrashing on knots that the
        probe rung untangles (a 16×16 board: 149,158 nodes without, a handful with)."""
        self.propagations += 1
        if not propagate(pos):
            return None
        settled = probe_to_fixpoint(pos)
        return None if settled is False else pos

    def split(self, pos: Position) -> Sequence[Position]:
        parts = independent_parts(pos)
        if len(parts) < 2:
            return [pos]
        children = []
        for part in parts:
            child = pos.copy()
            child.focus = part
            children.append(child)
        return children

    def branches(self, pos: Position) -> Sequence[Position] | None:
        """One child per circle of the open region with the fewest circles left."""
        board = pos.board
        open_cells = pos.unknown & pos.focus
        if not open_cells:
            return None
        best = 0
        for rid in board.regions_of(open_cells):
            left = board.region_circles[rid] & ~pos.white
            if not best or left.bit_count() < best.bit_count():
                best = left
        children = []
        for cell in bits(best):
            child = pos.copy()
            child.paint(cell)
            children.append(child)
        return children

    def solution(self, pos: Position) -> int:
        return pos.black


def independent_parts(pos: Position) -> list[int]:
    """The undecided circles in focus, cut into groups of regions that no live, still
    open line of three joins (each group as the mask of its undecided circles)."""
    board = pos.board
    unknown = pos.unknown & pos.focus
    if not unknown:
        return []
    region_of = board.region_of
    parent = {rid: rid for rid in board.regions_of(unknown)}

    def root(rid: int) -> int:
        while parent[rid] != rid:
            parent[rid] = parent[parent[rid]]
            rid = parent[rid]
        return rid

    for lines, settled in ((board.black_nogoods, pos.white), (board.white_nogoods, pos.black)):
        for line in lines:
            open_ = line & unknown
            if line & settled or not open_ & (open_ - 1):
                continue
            first = root(region_of[low_bit(open_)])
            for cell in bits(open_):
                other = root(region_of[cell])
                if other != first:
                    parent[other] = first
    groups: dict[int, int] = {}
    for cell in bits(unknown):
        top = root(region_of[cell])
        groups[top] = groups.get(top, 0) | 1 << cell
    return sorted(groups.values(), key=low_bit)


def part_rivals(board: Board, solution: int, deadline: Deadline) -> list[int] | None:
    """Answers other than `solution` (black circles), one for each independent group of
    regions that propagation leaves open and that has another way to be filled, each equal
    to `solution` outside its group (`norinori.solve.rivals`' way). Empty when `solution`
    is the only answer; None when the deadline passes (or its work runs out) first. The
    deadline is charged every propagation, the root's included."""
    space = NondangoSpace(deadline)
    root = space.propagate(Position(board, deadline))
    deadline.charge(space.propagations)
    if deadline.expired():
        return None
    if root is None:
        raise ValueError("part_rivals() was handed an answer that does not solve the puzzle")
    found = []
    for node in space.split(root):
        part = node.unknown & node.focus
        outcome = count_solutions(space, node, 2, deadline)
        if outcome.verdict is Verdict.TIMEOUT:
            return None
        for black in outcome.solutions:
            if black & part != solution & part:
                found.append((black & part) | (solution & ~part))
                break
    return found


def has_completion(pos: Position) -> bool | None:
    """Whether `pos` can be finished inside its focus (None: the deadline ran out)."""
    found = count_solutions(NondangoSpace(pos.deadline), pos.copy(), 2, pos.deadline)
    if found.solutions:
        return True
    return None if found.verdict is Verdict.TIMEOUT else False


def probe_to_fixpoint(pos: Position) -> bool | None:
    """Whiten every circle whose black assumption fails propagation, until none does.
    False if the position dies, None if the deadline ran out; `pos` must be propagated."""
    changed = True
    while changed:
        changed = False
        for cell in bits(pos.unknown & pos.focus):
            if pos.deadline.expired():
                return None
            if not pos.unknown >> cell & 1:
                continue
            trial = pos.copy()
            trial.paint(cell)
            if propagate(trial):
                continue
            pos.white |= 1 << cell
            pos.fresh_white |= 1 << cell
            if not propagate(pos):
                return False
            changed = True
    return True
