"""Lights' complete counter (the ladder that writes steps is `rules.LADDER`).

The counter does not run the named ladder, which writes a step per deduction for people
to read: it closes marks under `close` (the `digits` rung in bulk, no steps written),
counts the parts of the board that share no digit apart, and branches on a cell.
"""

from __future__ import annotations

from collections.abc import Sequence

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits
from gridproof.core.outcome import Outcome
from gridproof.core.search import count_solutions
from tests.toygenre.model import Lights
from tests.toygenre.position import Board, board_of

Node = tuple[int, int, int]
"""A search node: (shaded, empty, focus), focus the cells its search may branch on."""


def close(board: Board, shaded: int, empty: int) -> tuple[int, int] | None:
    """The marks closed under the two `digits` rules (None on a contradiction)."""
    full, nbrs = board.geo.full, board.geo.neighbours
    while True:
        if shaded & empty:
            return None
        unknown = full & ~(shaded | empty)
        shade = clear = 0
        for cell in bits(board.clues):
            around = nbrs[cell]
            room = around & unknown
            need = board.digit[cell] - (around & shaded).bit_count()
            if need < 0 or need > room.bit_count():
                return None
            if room and need == 0:
                clear |= room
            elif room and need == room.bit_count():
                shade |= room
        if not shade | clear:
            return shaded, empty
        shaded, empty = shaded | shade, empty | clear


def independent_parts(board: Board, unknown: int) -> list[int]:
    """The undecided cells cut into parts that share no digit, smallest first."""
    geo, parts, rest = board.geo, [], unknown
    while rest:
        part = frontier = rest & -rest
        while frontier:
            frontier = geo.spread(geo.spread(part) & board.clues) & rest & ~part
            part |= frontier
        parts.append(part)
        rest &= ~part
    return sorted(parts, key=int.bit_count)


class LightsSpace:
    """Propagate with `close`; split into parts that share no digit; branch on a cell."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.propagations = 0

    def propagate(self, node: Node) -> Node | None:
        self.propagations += 1
        closed = close(self.board, node[0], node[1])
        return None if closed is None else (*closed, node[2])

    def split(self, node: Node) -> Sequence[Node]:
        shaded, empty, focus = node
        parts = independent_parts(self.board, self.board.geo.full & ~(shaded | empty) & focus)
        if len(parts) < 2:
            return [node]
        return [(shaded, empty, part) for part in parts]

    def branches(self, node: Node) -> Sequence[Node] | None:
        shaded, empty, focus = node
        open_cells = focus & ~(shaded | empty)
        if not open_cells:
            return None
        cell = open_cells & -open_cells
        return [(shaded | cell, empty, focus), (shaded, empty | cell, focus)]

    def solution(self, node: Node) -> int:
        return node[0]


def count(puzzle: Lights, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count the puzzle's solutions up to `limit` (2 decides uniqueness) before `deadline`."""
    board = board_of(puzzle)
    root: Node = (0, board.clues, board.geo.full)
    return count_solutions(LightsSpace(board), root, limit, deadline or Deadline.never())


def propagate_marks(
    puzzle: Lights, shaded: int, empty: int, deadline: Deadline
) -> tuple[int, int] | None:
    """The counter's propagation at one node from the given marks (`Genre.propagate`):
    `close`, the digits' cells empty as at the root."""
    board = board_of(puzzle)
    return close(board, shaded, empty | board.clues)
