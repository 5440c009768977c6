"""Nondango's complete counter and the rung a board needs (the ladder that writes steps is
`rules.LADDER`; the space both count in is `search.NondangoSpace`).

The counter propagates the `triple` and `probe` rungs, cuts the undecided regions into
groups that no live line of three joins (core multiplies their counts), and branches on
the region with the fewest circles left.
"""

from __future__ import annotations

import dataclasses

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome
from gridproof.core.search import count_solutions
from gridproof.genres.nondango.model import Nondango
from gridproof.genres.nondango.position import Position, Reading, board_of, propagate
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


def rung_needed(puzzle: Nondango, deadline: Deadline | None = None) -> str | None:
    """The cheapest rung that finishes the puzzle alone (the last, `search`, when none
    before it does, including boards without exactly one answer); None if the deadline
    ran out.

    The fast path of the ladder: propagation is the `triple` fixpoint and probing is
    repeated to its own fixpoint, as the ladder would."""
    region, triple, probe, search = LADDER.names
    deadline = deadline or Deadline.never()
    board = board_of(puzzle)
    if not board.circleless and all(not m & (m - 1) for m in board.region_circles):
        return region
    pos = Position(board, deadline)
    if board.circleless or not propagate(pos):
        return search
    if not pos.unknown:
        return triple
    settled = probe_to_fixpoint(pos)
    if settled is None:
        return None
    return probe if settled and not pos.unknown else search
