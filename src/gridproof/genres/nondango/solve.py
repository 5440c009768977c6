"""Nondango's complete counter, the "how far does one rung get" solver, and the rung a
board needs.

The counter propagates the `triple` and `probe` rungs, cuts the undecided regions into
groups that no live line of three joins (core multiplies their counts), and branches on
the region with the fewest circles left.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.grid import bits
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.registry import Progress
from gridproof.core.search import Rule, count_solutions, run_ladder
from gridproof.core.trace import Step
from gridproof.genres.nondango.model import Nondango
from gridproof.genres.nondango.position import Position, Reading, board_of, propagate
from gridproof.genres.nondango.rules import PROBE, REGION, RUNG_OF, RUNGS, TRIPLE, search_rule


class NondangoSpace:
    """Propagate `triple` and `probe`; split into independent groups; branch on the
    tightest region."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.propagations = 0

    def propagate(self, pos: Position) -> Position | None:
        """The `triple` fixpoint, then the `probe` one over the circles in focus: a circle
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
            first = root(region_of[_low(open_)])
            for cell in bits(open_):
                other = root(region_of[cell])
                if other != first:
                    parent[other] = first
    groups: dict[int, int] = {}
    for cell in bits(unknown):
        top = root(region_of[cell])
        groups[top] = groups.get(top, 0) | 1 << cell
    return sorted(groups.values(), key=lambda mask: mask & -mask)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


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
    if board.circleless:
        if limit < 2:
            raise ValueError(f"limit must be at least 2, got {limit}")
        return Outcome(Verdict.NONE, (), limit, 0, 0, deadline.elapsed() - started)
    outcome = count_solutions(NondangoSpace(deadline), Position(board, deadline), limit, deadline)
    # the board's tables are part of the cost of a first count
    return dataclasses.replace(outcome, elapsed=deadline.elapsed() - started)


def has_completion(pos: Position) -> bool | None:
    """Whether `pos` can be finished inside its focus (None: the deadline ran out)."""
    found = count_solutions(NondangoSpace(pos.deadline), pos.copy(), 2, pos.deadline)
    if found.solutions:
        return True
    return None if found.verdict is Verdict.TIMEOUT else False


SEARCH: tuple[Rule[Position], ...] = (*PROBE, search_rule(has_completion, independent_parts))
LADDER: dict[str, tuple[Rule[Position], ...]] = {
    "region": REGION,
    "triple": TRIPLE,
    "probe": PROBE,
    "search": SEARCH,
}


def solve(
    puzzle: Nondango,
    rung: str,
    deadline: Deadline | None = None,
    shaded: int = 0,
    empty: int = 0,
    max_steps: int | None = None,
) -> Progress:
    """Run the ladder up to `rung` from the given marks (`shaded` black circles, `empty`
    white ones): what that rung alone decides, step by step."""
    if rung not in LADDER:
        raise CodeError(f"unknown rule set {rung!r}; Nondango has {', '.join(RUNGS)}")
    deadline = deadline or Deadline.never()
    pos = Position(board_of(puzzle), deadline)
    problem = pos.apply(Step("given", "the marks given", shaded=shaded, empty=empty))
    steps: tuple[Step, ...] = ()
    timed_out = False
    if problem is None:
        run = run_ladder(LADDER[rung], pos, deadline, max_steps)
        steps, problem, timed_out = tuple(run.steps), run.contradiction, run.timed_out
    return Progress(
        rung=rung,
        shaded=pos.black,
        empty=pos.empty,
        steps=steps,
        contradiction=problem.text if problem else None,
        timed_out=timed_out,
        size=puzzle.width * puzzle.height,
    )


def hardest_rung(progress: Progress) -> str:
    """The most expensive rung any of the steps needed ('region' for no steps)."""
    used = {RUNG_OF[step.rule] for step in progress.steps}
    return max(used, key=RUNGS.index, default=RUNGS[0])


def rung_needed(puzzle: Nondango, deadline: Deadline | None = None) -> str | None:
    """The cheapest rung that finishes the puzzle alone ('search' when none before it
    does, including boards without exactly one answer); None if the deadline ran out.

    The fast path of the ladder: propagation is the `triple` fixpoint and probing is
    repeated to its own fixpoint, as the ladder would."""
    deadline = deadline or Deadline.never()
    board = board_of(puzzle)
    if not board.circleless and all(not m & (m - 1) for m in board.region_circles):
        return "region"
    pos = Position(board, deadline)
    if board.circleless or not propagate(pos):
        return "search"
    if not pos.unknown:
        return "triple"
    settled = probe_to_fixpoint(pos)
    if settled is None:
        return None
    return "probe" if settled and not pos.unknown else "search"


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
