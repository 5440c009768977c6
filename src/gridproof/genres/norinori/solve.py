"""Norinori's complete counter and the "how far does one rung get" solver."""

from __future__ import annotations

from collections.abc import Sequence

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.grid import bits
from gridproof.core.outcome import Outcome
from gridproof.core.registry import Progress
from gridproof.core.search import count_solutions, run_ladder
from gridproof.core.trace import Step
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.position import Position, board_of
from gridproof.genres.norinori.rules import (
    LADDER,
    LOCAL,
    PAIRS,
    RUNGS,
    partner_candidates,
    refute,
)


class NorinoriSpace:
    """Propagate with the `pairs` ladder; branch on the region with the fewest pairs left."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.propagations = 0
        self.weight: dict[int, int] = {}
        """Contradictions each region took part in: search branches where they happen."""

    def propagate(self, pos: Position) -> Position | None:
        """The `pairs` ladder to a fixpoint, then a cheap lookahead: each cell that could
        partner a lonely shaded cell is assumed each way under the `local` rules, and a
        value that dies is dropped; repeat while that decides anything."""
        while True:
            run = run_ladder(PAIRS, pos, self.deadline)
            self.propagations += len(run.steps)
            if run.contradiction:
                self.blame(pos, run.contradiction.cells, run.contradiction.regions)
                return None
            decided = self.lookahead(pos)
            if decided is None:
                return None
            if not decided:
                return pos

    def blame(self, pos: Position, cells: tuple[int, ...], regions: tuple[int, ...]) -> None:
        for rid in {*regions, *(pos.board.region_of[c] for c in cells)}:
            self.weight[rid] = self.weight.get(rid, 0) + 1

    def lookahead(self, pos: Position) -> bool | None:
        """Whether probing decided a cell (None: the position is dead)."""
        for cell in bits(partner_candidates(pos) & pos.focus):
            for shade in (True, False):
                if self.deadline.expired():
                    return False
                if refute(pos, cell, shade, LOCAL) is not None:
                    bit = 1 << cell
                    forced = Step(
                        "lookahead", "", shaded=0 if shade else bit, empty=bit if shade else 0
                    )
                    return None if pos.apply(forced) else True
        return False

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
        """Branch where the fewest choices remain: the partner of a shaded cell that has
        none yet, or the pair of a region."""
        board, domains, geo = pos.board, pos.domains, pos.board.geo
        open_cells = pos.unknown & pos.focus
        if not open_cells:
            return None
        assert domains is not None  # the pairs rule has run
        weight = self.weight

        def score(rid: int, choices: int) -> tuple[float, int]:
            return choices / (1 + weight.get(rid, 0)), rid

        rid = min(board.regions_touching(open_cells), key=lambda r: score(r, len(domains[r])))
        best = score(rid, len(domains[rid]))
        options = [
            Step("branch", "guess", shaded=pair, empty=board.region_mask[rid] & ~pair)
            for pair in domains[rid]
        ]
        single = pos.shaded & ~geo.spread(pos.shaded) & geo.spread(open_cells)
        for cell in bits(single):
            candidates = geo.neighbours[cell] & pos.unknown
            here = score(board.region_of[cell], candidates.bit_count())
            if here < best:
                best = here
                options = [
                    Step("branch", "guess", shaded=partner, empty=candidates & ~partner)
                    for partner in (1 << c for c in bits(candidates))
                ]
        children = []
        for option in options:
            child = pos.copy()
            if child.apply(option) is None:
                children.append(child)
        return children

    def solution(self, pos: Position) -> int:
        return pos.shaded


def independent_parts(pos: Position) -> list[int]:
    """The undecided cells in focus, cut into parts that share no constraint, smallest
    first (a small part is the quickest to prove dead).

    A constraint's cells are a region, or a cell and its four neighbours; so two undecided
    cells interact only if they share a region or lie within two orthogonal steps.
    """
    board, geo = pos.board, pos.board.geo
    rest = pos.unknown & pos.focus
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
    root = Position(board_of(puzzle), deadline)
    return count_solutions(NorinoriSpace(deadline), root, limit, deadline)


def solve(
    puzzle: Norinori,
    rung: str,
    deadline: Deadline | None = None,
    shaded: int = 0,
    empty: int = 0,
    max_steps: int | None = None,
) -> Progress:
    """Run the ladder up to `rung` from the given marks: what that rung alone decides."""
    if rung not in LADDER:
        raise CodeError(f"unknown rule set {rung!r}; Norinori has {', '.join(RUNGS)}")
    deadline = deadline or Deadline.never()
    pos = Position(board_of(puzzle), deadline)
    pos.shaded, pos.empty = shaded, empty
    run = run_ladder(LADDER[rung], pos, deadline, max_steps)
    return Progress(
        rung=rung,
        shaded=run.position.shaded,
        empty=run.position.empty,
        steps=tuple(run.steps),
        contradiction=run.contradiction.text if run.contradiction else None,
        timed_out=run.timed_out,
        size=puzzle.width * puzzle.height,
    )
