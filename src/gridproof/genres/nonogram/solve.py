"""Nonogram's complete counter and the grader (the ladder that writes steps is
`rules.LADDER`).

The counter (`count`) propagates lines to a fixpoint and, in pure Python, probes every
undecided cell to a fixpoint at the root; what that leaves open goes to the
conflict-driven learning search (`learn.Learner`). A search it does not settle soon takes
turns (`_Turns`) with the same search of the symmetric solutions, when the clues have
symmetries (`symmetric.py`). When python-sat is installed, `sat` is true and no work
budget is set, CaDiCaL on the open lines' order encoding (`stretch.py`) leads instead:
the root is not probed (`ROOT_SWEEPS_WITH_SAT`) and the learning searches get a small
share of the turns. A finished search of the whole puzzle answers, or enough solutions
found between them.

The grader (`grade`) reads the difficulty off the probing search (`NonogramSpace` with
`core.search`): it splits the board into independent parts (undecided cells that share no
row or column with each other) and branches on the cell whose two values decide the most,
reusing the probe results as the branches; its nodes, depth and probe figures are the
grade's evidence, its grades come from `LADDER`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits, low_bit
from gridproof.core.ladder import solve
from gridproof.core.outcome import Outcome, Verdict, verdict_for
from gridproof.core.search import count_solutions
from gridproof.genres.nonogram import stretch, symmetric
from gridproof.genres.nonogram.engine import Board, Grid, Prober, Propagator
from gridproof.genres.nonogram.learn import Learner
from gridproof.genres.nonogram.lines import LineCache, valid_starts
from gridproof.genres.nonogram.model import Nonogram
from gridproof.genres.nonogram.position import start
from gridproof.genres.nonogram.rules import LADDER, complete_line, probe

CHEAPEST = LADDER.names[0]
"""The cheapest rung: a board it finishes alone is graded by it."""
LINE_RUNG = LADDER.rung_of(complete_line.id)
"""The rung whose fixpoint `engine.Propagator` computes in bulk (plain line solving)."""
PROBE_RUNG = LADDER.rung_of(probe.id)
"""The rung that finishes a board the counter settles by probing alone, in one node."""


class NonogramSpace:
    """The search space of one puzzle for `core.search.count_solutions`."""

    def __init__(self, board: Board, deadline: Deadline) -> None:
        self.board = board
        self.deadline = deadline
        self.propagator = Propagator(board, deadline)
        self.prober = Prober(self.propagator)
        self.propagations = 0
        self.deepest = 0

    def propagate(self, grid: Grid) -> Grid | None:
        """Lines to a fixpoint, then probing; None on a contradiction. The line solves
        are the work `count_solutions` charges to the deadline."""
        alive = self.propagator.run(grid)
        if alive and self._open(grid):
            # Below the root one sweep pays (measured): what a branch adds is local, and
            # the branch choice is all the sweep still has to find.
            probed = self.prober.run(grid, 1 if grid.depth else 1 << 30)
            alive = probed is not None
            if probed is not None:
                probed.choice = self.prober.best
                grid = probed
        self.propagations = self.propagator.solves
        self.deepest = max(self.deepest, grid.depth)
        return grid if alive else None

    def _open(self, grid: Grid) -> bool:
        """Whether a cell in focus is undecided."""
        full = (1 << self.board.width) - 1
        focus, filled, empty = grid.focus, grid.filled, grid.empty
        return any(
            focus >> r & 1 and (filled[r] | empty[r]) != full for r in range(self.board.height)
        )

    def split(self, grid: Grid) -> Sequence[Grid]:
        parts = independent_parts(self.board, grid)
        if len(parts) < 2:
            return [grid]
        children = []
        for rows in parts:
            child = grid.copy()
            child.focus = rows
            children.append(child)
        return children

    def branches(self, grid: Grid) -> Sequence[Grid] | None:
        if not self._open(grid):
            return None
        choice, grid.choice = grid.choice, None  # let the memory go
        if choice is not None and choice.shaded is not None and choice.empty is not None:
            children = [choice.shaded, choice.empty]
            # The less constrained value first: it is likelier to hold solutions, which
            # decides `multiple` sooner (a unique board's tree is searched whole anyway).
            if children[1].decided(self.board) < children[0].decided(self.board):
                children.reverse()
        else:
            row, col = (choice.row, choice.col) if choice else self._most_constrained(grid)
            children = []
            for shaded in (True, False):
                child = grid.copy()
                child.set_cell(self.board, row, col, shaded)
                children.append(child)
        for child in children:
            child.focus = grid.focus
            child.depth = grid.depth + 1
        return children

    def _most_constrained(self, grid: Grid) -> tuple[int, int]:
        """An undecided cell in focus on the line with the fewest undecided cells, next to
        a decided cell of that line where there is one."""
        board = self.board
        h, w = board.height, board.width
        best: tuple[int, int, int] | None = None
        focus_cols = 0
        for r in range(h):
            if grid.focus >> r & 1:
                focus_cols |= ((1 << w) - 1) & ~(grid.filled[r] | grid.empty[r])
        for line in range(h + w):
            if line < h and not grid.focus >> line & 1:
                continue
            if line >= h and not focus_cols >> (line - h) & 1:
                continue
            n = board.lengths[line]
            known = grid.filled[line] | grid.empty[line]
            unknown = ((1 << n) - 1) & ~known
            if line >= h:
                unknown &= grid.focus
            if unknown and (best is None or unknown.bit_count() < best[0]):
                edge = unknown & (known << 1 | known >> 1)
                pick = edge or unknown
                best = (unknown.bit_count(), line, low_bit(pick))
        assert best is not None, "no undecided cell in focus"
        _, line, index = best
        return (line, index) if line < h else (index, line - h)

    def solution(self, grid: Grid) -> int:
        return grid.shaded_mask(self.board)


def independent_parts(board: Board, grid: Grid) -> list[int]:
    """The rows in focus with undecided cells, cut into groups whose undecided cells share
    no row or column with another group's (as masks of rows)."""
    h, w = board.height, board.width
    full_w, full_h = (1 << w) - 1, (1 << h) - 1
    open_in_row = [full_w & ~(grid.filled[r] | grid.empty[r]) for r in range(h)]
    open_in_col = [full_h & ~(grid.filled[h + c] | grid.empty[h + c]) for c in range(w)]
    rest = sum(1 << r for r in range(h) if grid.focus >> r & 1 and open_in_row[r])
    parts = []
    while rest:
        part = frontier = rest & -rest
        cols = 0
        while frontier:
            new_cols = 0
            for r in bits(frontier):
                new_cols |= open_in_row[r]
            new_cols &= ~cols
            cols |= new_cols
            new_rows = 0
            for c in bits(new_cols):
                new_rows |= open_in_col[c]
            frontier = new_rows & ~part
            part |= frontier
        parts.append(part)
        rest &= ~part
    return parts


def count(
    puzzle: Nonogram,
    limit: int = 2,
    deadline: Deadline | None = None,
    cache: LineCache | None = None,
    *,
    sat: bool = True,
) -> Outcome:
    """Count the puzzle's solutions up to `limit` (2 decides uniqueness) before `deadline`.

    The root is one node: lines to a fixpoint, then probing to a fixpoint (with the
    stretch, `ROOT_SWEEPS_WITH_SAT` sweeps), charged to the deadline as one piece of work.
    What the root leaves open goes to the learning search (`learn.Learner`), which charges
    as it goes and adds a node per decision, in turns (`_Turns`) with the search of the
    symmetric solutions and, with `sat` (and python-sat installed, and no work budget on
    the deadline), the SAT stretch (`stretch.Session`, a node per solver decision)."""
    if limit < 2:
        raise ValueError(
            f"limit must be at least 2 (uniqueness needs a second search), got {limit}"
        )
    deadline = deadline or Deadline.never()
    started = deadline.elapsed()
    board = Board(puzzle, cache, deadline)
    if not board.complete:
        elapsed = deadline.elapsed() - started
        return Outcome(Verdict.TIMEOUT, (), limit, 0, 0, elapsed)
    lines = Propagator(board, deadline)
    prober = Prober(lines)
    root: Grid | None = Grid.blank(board)
    assert root is not None
    budgeted = not math.isinf(deadline.work_left())
    stretched = False  # python-sat is loaded only for a board line solving leaves wide open
    if lines.run(root) and _open(board, root):
        cells = board.width * board.height
        small = cells - root.decided(board) <= PROBE_SMALL
        stretched = sat and not budgeted and not small and stretch.available()
        skip = stretched and cells <= PROBE_SKIP_MOST
        root = prober.run(root, ROOT_SWEEPS_WITH_SAT if skip else 1 << 30)
    else:
        root = root if lines.failed < 0 else None
    deadline.charge(lines.solves)
    solutions: list[int] = []
    finished = not deadline.expired()  # a root cut short proves nothing
    nodes = 1
    work = lines.solves
    if finished and root is not None:
        if _open(board, root):
            symmetries = symmetric.clue_symmetries(puzzle)
            pure = not stretched and not budgeted
            turns = _Turns(board, root, prober, deadline, symmetries, pure)
            if stretched:
                with stretch.Session(board, root.filled, root.empty) as session:
                    turns.session = session
                    solutions, finished = turns.count(limit)
                    nodes += session.decisions
            else:
                solutions, finished = turns.count(limit)
            for learner in turns.learners():
                nodes += learner.decisions
                work += learner.work
        else:
            solutions.append(root.shaded_mask(board))
    return Outcome(
        verdict=verdict_for(len(solutions), finished),
        solutions=tuple(solutions[:limit]),
        limit=limit,
        nodes=nodes,
        propagations=work,
        elapsed=deadline.elapsed() - started,
    )


def propagate_marks(
    puzzle: Nonogram, shaded: int, empty: int, deadline: Deadline
) -> tuple[int, int] | None:
    """The counter's propagation at one node from the given marks (`Genre.propagate`):
    lines to a fixpoint, then probing to a fixpoint, as `count_pure`'s root does."""
    if shaded & empty:
        return None  # a cell marked both ways
    board = Board(puzzle, None, deadline)
    grid = Grid.blank(board)
    w = board.width
    for cell in bits(shaded):
        grid.set_cell(board, cell // w, cell % w, True)
    for cell in bits(empty):
        grid.set_cell(board, cell // w, cell % w, False)
    lines = Propagator(board, deadline)
    if not lines.run(grid):
        return None
    probed = Prober(lines).run(grid)
    return None if probed is None else (probed.shaded_mask(board), probed.empty_mask(board))


def count_pure(puzzle: Nonogram, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """`count` on the standard library alone (no SAT stretch even where python-sat is
    installed): the genre's `count_pure`, what `count --no-sat` and a browser build run."""
    return count(puzzle, limit, deadline, sat=False)


ROOT_SWEEPS_WITH_SAT = 0
"""Probe sweeps at the root when the SAT stretch follows (without it, to a fixpoint): none.
What a sweep decides, the stretch's propagation decides at once, and on small structured
boards the sweeps are most of the cost (CPU, count to 2, against 1 sweep / to a fixpoint:
webpbn #6574 12 ms / 41 ms of probing alone, SAT oracle 27 ms; #803 43 ms / 195 ms,
oracle 98 ms; dom-5 2.1 ms / 4.8 ms, oracle 2.1 ms; tournament-25 4.1 s / 5.1 s)."""
PROBE_SMALL = 100
"""Open cells after line solving up to which the root is probed to a fixpoint and the
learning search alone goes on (python-sat is not even loaded): there a sweep and the
search cost less than loading and building the solver (dom-3: 0.19 ms, 0.74 ms without;
loading python-sat alone costs about 13 ms of CPU)."""
PROBE_SKIP_MOST = 4096
"""Cells of the largest board whose root the stretch takes unprobed: on a larger one the
search's tables and the encoding would cost more than a deadline allows without a check
(a 1024x1024 board overran a 2 s deadline), where a probe sweep checks it cell by cell."""
NATIVE_FIRST = 3000
"""Learning-search work before anything else takes a turn: what settles most searches."""
SAT_SLICE = 2000
NATIVE_PER_CONFLICT = 3.5
"""Then turns sized by slices of `SAT_SLICE` conflicts, doubling, each giving the learning
search this much work per conflict (and the symmetric search `MIRROR_SHARE` times that).
These sizes hold the count in pure Python (no stretch); they steer the generators'
counted work, so a change to them changes what seeds give."""
SAT_NATIVE_FIRST = 0
SAT_NATIVE_PER_CONFLICT = 0.0
"""With the stretch, the learning search of the whole puzzle takes no turns (neither a
first piece of work nor any per solver conflict): beside CaDiCaL it found nothing first
and only cost time. Measured 2026-12-04 (CPU s, count to 2, 1.0 per conflict -> none):
webpbn #12548 2.96 -> 3.13, #22336 5.23 -> 4.80, jsimlo oldtree 1.77 -> 1.55, cauldron
0.52 -> 0.42, Knotty 8.84 -> 7.22; what helps there is the symmetric search, which keeps
its turns (without it #12548 took 4.93 s and Knotty timed out at 30 s)."""
PURE_LOOKAHEAD = 0
PURE_RESTART_UNIT = 1024
"""The learning search's settings when no SAT stretch takes turns and no work budget is
set (`count --no-sat`, no python-sat): no look-ahead before decisions, restarts eight
times rarer, explanations reused (`learn.Learner`'s `reuse` and `defer`). Its conflicts
then cost about a fifth as much (no probes) and the longer runs keep what a search has
built toward a solution; on the slow half of 36 tournament-style boards (seeds 7-9, count
to 2, CPU) 130 s against 184 s with the stretch's settings, the slowest 26 s against two
timeouts at 30 s. The symmetric search beside the stretch keeps the module's defaults (the
hard set's Knotty, found by it in the turns, took over 30 s with reuse on), and so does a
count under a work budget: the generators' budgets are counted in its work, so these
settings there would change what seeds give."""
SLICE_CAP = 1 << 16
MIRROR_SHARE = 4.0
"""The symmetric search's work per turn, against the whole puzzle's learning search at
`NATIVE_PER_CONFLICT` (with the stretch too, where it is the same work per solver
conflict as before the stretch's share was cut: 14): its puzzle is a fraction of the size,
and its find is often the answer (Knotty's two solutions in 12.6 s with SAT, against
28.9 s at an equal share; 9.8 s and 14.6 s without). It goes last in each round, so a
search the others settle in the round never pays it."""


class _Turns:
    """The searches of one count, taking turns on the open cells until one finishes it:
    the learning search of the whole puzzle, the same search of its symmetric solutions
    (`mirror`, when the clues have symmetries) and the SAT stretch (`session`, when it is
    set). A finished search of the whole puzzle is complete, so its solutions are the
    answer; until then, the distinct solutions all of them found together, with their
    images (each search only finds real ones)."""

    def __init__(
        self,
        board: Board,
        root: Grid,
        prober: Prober,
        deadline: Deadline,
        symmetries: tuple[symmetric.CellMap, ...],
        pure: bool = False,
    ) -> None:
        self.board, self.root, self.prober, self.deadline = board, root, prober, deadline
        self.symmetries = symmetries
        self.pure = pure
        self.lookahead: int | None = PURE_LOOKAHEAD if pure else None
        self.restart_unit: int | None = PURE_RESTART_UNIT if pure else None
        self.learner = self._learner(images=symmetries)
        self.mirror: Learner | None = None
        self.session: stretch.Session | None = None

    def _learner(
        self, images: Sequence[symmetric.CellMap] = (), ties: Sequence[tuple[int, int]] = ()
    ) -> Learner:
        prober = self.prober
        return Learner(
            self.board,
            self.root,
            self.deadline,
            prober.scores,
            prober.phases,
            lookahead=self.lookahead,
            restart_unit=self.restart_unit,
            images=images,
            ties=ties,
            reuse=self.pure,
            defer=self.pure,
        )

    def learners(self) -> list[Learner]:
        return [self.learner] if self.mirror is None else [self.learner, self.mirror]

    def count(self, limit: int) -> tuple[list[int], bool]:
        learner, session, deadline = self.learner, self.session, self.deadline
        if not self.symmetries and session is None:
            return learner.solutions, learner.run(limit)
        first, per_conflict = (
            (NATIVE_FIRST, NATIVE_PER_CONFLICT)
            if session is None
            else (SAT_NATIVE_FIRST, SAT_NATIVE_PER_CONFLICT)
        )
        if first and learner.run(limit, learner.work + first):
            return learner.solutions, True
        if self.symmetries:  # built only now: most searches are over by here
            ties = symmetric.ties(self.symmetries, self.board.width * self.board.height)
            self.mirror = self._learner(ties=ties)
        conflicts = SAT_SLICE
        while True:
            if session and not deadline.expired() and session.run(limit, conflicts, deadline):
                return session.solutions, True
            native = int(per_conflict * conflicts)
            if native and not deadline.expired() and learner.run(limit, learner.work + native):
                return learner.solutions, True
            if self.mirror is not None and not deadline.expired():
                mirror_work = int(MIRROR_SHARE * NATIVE_PER_CONFLICT * conflicts)
                self.mirror.run(limit, self.mirror.work + mirror_work)  # its end finishes nothing
            found = self.found()
            if len(found) >= limit:
                return found[:limit], True
            if deadline.expired():
                return found, False
            conflicts = min(SLICE_CAP, conflicts * 2)

    def found(self) -> list[int]:
        """The distinct solutions found so far, with their images."""
        found = list(self.learner.solutions)
        if self.mirror is not None:
            found += self.mirror.solutions
        if self.session is not None:
            found += self.session.solutions
        return symmetric.with_images(found, self.symmetries)


def _open(board: Board, grid: Grid) -> bool:
    """Whether a cell is undecided."""
    full = (1 << board.width) - 1
    return any((grid.filled[r] | grid.empty[r]) != full for r in range(board.height))


@dataclass(frozen=True, slots=True)
class Grade:
    """The difficulty of a puzzle from the solver's evidence, and the figures behind it."""

    difficulty: str
    outcome: Outcome
    metrics: dict[str, Any] = field(default_factory=dict)


SEARCH = "search"
"""The `technique` of a board no rung finishes alone: the counter had to branch."""


def grade(puzzle: Nonogram, deadline: Deadline, cache: LineCache | None = None) -> Grade:
    """Count to 2 and say how much of the solver the puzzle needed: the grade is
    `LADDER.grade` of the cheapest rung that finishes it (`technique`; `search` when the
    counter had to branch), with the figures: `domain_width` (mean starts per block on the
    empty board), `forced_per_pass` (cells plain line solving decides in each pass over the
    changed lines), probe and search figures, and the counter's own node and line-solve
    counts."""
    board = Board(puzzle, cache)
    grid = Grid.blank(board)
    per_pass = line_passes(Propagator(board, deadline), grid)
    size = puzzle.width * puzzle.height
    line_solved = per_pass is not None and grid.decided(board) == size
    space = NonogramSpace(board, deadline)
    outcome = count_solutions(space, Grid.blank(board), 2, deadline)
    metrics: dict[str, Any] = {
        "domain_width": round(domain_width(puzzle), 2),
        "forced_per_pass": per_pass or [],
        "probe_refuted": space.prober.refuted,
        "probe_learned": space.prober.learned,
        "search_nodes": outcome.nodes,
        "search_depth": space.deepest,
        "line_solves": outcome.propagations,
    }
    rung: str | None
    if line_solved:
        cheapest = solve(LADDER, start, puzzle, CHEAPEST, deadline)
        rung = CHEAPEST if cheapest.decided_fraction == 1.0 else LINE_RUNG
    else:
        rung = PROBE_RUNG if outcome.nodes <= 1 else None
    metrics["technique"] = rung or SEARCH
    return Grade(LADDER.grade(rung), outcome, metrics)


def line_passes(lines: Propagator, grid: Grid) -> list[int] | None:
    """Plain line solving in passes (each changed line once per pass): the cells each pass
    decides, or None on a contradiction."""
    board = lines.board
    counts = []
    todo = list(range(board.line_count))
    while todo:
        before = grid.decided(board)
        found = lines.sweep(grid, todo)
        if found is None:
            return None
        todo = found
        counts.append(grid.decided(board) - before)
    while counts and not counts[-1]:  # the pass that only confirmed the fixpoint
        counts.pop()
    return counts


def domain_width(puzzle: Nonogram) -> float:
    """The mean number of places a block can start on the empty board: how loosely the
    clues pin the picture down before any deduction."""
    total = blocks = 0
    for n, clue in zip(
        (puzzle.width,) * puzzle.height + (puzzle.height,) * puzzle.width, puzzle.lines, strict=True
    ):
        found = valid_starts(n, clue, 0, 0)
        if found is None:
            continue
        total += sum(start.bit_count() for start in found[0])
        blocks += len(clue)
    return total / blocks if blocks else 0.0
