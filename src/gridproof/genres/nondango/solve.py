"""Nondango's complete counter and the rung a board needs (the ladder that writes steps is
`rules.LADDER`; the space both count in is `search.NondangoSpace`).

The counter propagates the `confine` and `probe` rungs, cuts the undecided regions into
groups that no live line of three joins (core multiplies their counts), and branches on
the region with the fewest circles left.
"""

from __future__ import annotations

import dataclasses

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome
from gridproof.core.search import count_solutions
from gridproof.genres.nondango.model import Nondango
from gridproof.genres.nondango.position import Board, Position, Reading, board_of, propagate
from gridproof.genres.nondango.rules import LADDER
from gridproof.genres.nondango.search import NondangoSpace, probe_to_fixpoint


def count(
    puzzle: Nondango,
    limit: int = 2,
    deadline: Deadline | None = None,
    reading: Reading = Reading.RULE,
) -> Outcome:
    """Count the puzzle's answers up to `limit` (2 decides uniqueness) before `deadline`;
    `reading` counts under a misreading of the line rule instead (for the study)."""
    deadline = deadline or Deadline.never()
    started = deadline.elapsed()
    board = board_of(puzzle, reading)
    # a region without a circle dies at the first propagation: no answer, one node
    outcome = count_solutions(NondangoSpace(deadline), Position(board, deadline), limit, deadline)
    # the board's tables are part of the cost of a first count
    return dataclasses.replace(outcome, elapsed=deadline.elapsed() - started)


def propagate_marks(
    puzzle: Nondango, shaded: int, empty: int, deadline: Deadline
) -> tuple[int, int] | None:
    """The counter's propagation at one node from the given marks (`Genre.propagate`):
    `NondangoSpace.propagate` (confine, then probing the circles) from a position holding
    them, every mark taken as new."""
    board = board_of(puzzle)
    if shaded & ~board.circles:
        return None  # paint where no circle is
    pos = Position(board, deadline)
    pos.black = pos.fresh_black = shaded
    pos.white = empty & board.circles
    pos.fresh_white = board.circles
    done = NondangoSpace(deadline).propagate(pos)
    return None if done is None else (done.shaded, done.empty)


def rung_needed(puzzle: Nondango, deadline: Deadline | None = None) -> str | None:
    """The cheapest rung that finishes the puzzle alone (the last, `search`, when none
    before it does, including boards without exactly one answer); None if the deadline
    ran out."""
    index = rung_index(board_of(puzzle), deadline or Deadline.never())
    return None if index is None else LADDER.names[index]


def rung_index(board: Board, deadline: Deadline, cap: int | None = None) -> int | None:
    """`rung_needed` as an index into `LADDER.names`, on a board's tables; with `cap`, it
    stops as soon as the rungs up to `cap` are known not to finish the board and returns
    `cap + 1` (what a generator asks: "no harder than this?"). None if the deadline ran
    out."""
    found = settle(board, deadline, cap)
    return None if found is None else found[0]


def settle(board: Board, deadline: Deadline, cap: int | None = None) -> tuple[int, int] | None:
    """`rung_index` and the black circles the rungs up to it decide: the board's one
    answer when that rung is `probe` or cheaper. None if the deadline ran out.

    The fast path of the ladder: `triple` and `confine` are `propagate`'s fixpoints
    without and with confinement, and probing is repeated to its own fixpoint, as the
    ladder would. A rung up to `probe` that finishes the board proves it unique: each of
    its steps holds in every answer, and it ends at one."""
    region, triple, confine, probe, search = range(len(LADDER.names))
    top = search if cap is None else min(cap + 1, search)
    if not board.circleless and all(not m & (m - 1) for m in board.region_circles):
        return region, board.circles
    pos = Position(board, deadline)
    if board.circleless or not propagate(pos, confine=False):
        return top, 0
    if not pos.unknown:
        return triple, pos.black
    if top == confine:
        return top, pos.black
    pos.fresh_black, pos.fresh_white = pos.black, board.circles
    if not propagate(pos):
        return top, 0
    if not pos.unknown:
        return confine, pos.black
    if top == probe:
        return top, pos.black
    settled = probe_to_fixpoint(pos)
    if settled is None:
        return None
    return (probe, pos.black) if settled and not pos.unknown else (search, pos.black)
