"""The last stretch of a long count: a SAT solver (CaDiCaL through `python-sat`, when it is
installed) on what the root left open, taking turns with the learning search.

Only the open lines are encoded, each block's start by the order encoding over the starts
the line solver still allows (variable `y(j, p)` true when block j starts at p or later),
with the cells' root values as units (the learning search's clauses are not passed on):

- `y(j, p)` implies `y(j, p - 1)`; a start the line solver ruled out is never taken
  (`y(j, p)` and not `y(j, p + 1)` is false);
- block j + 1 starts at least `length_j + 1` after block j;
- a cell that block j covers is shaded; a shaded cell lies in no gap between blocks.

Each model's cells are read off and blocked, as the learning search blocks its own, until
the limit; the solver runs in slices of conflicts so the deadline is checked between
them. This shares neither encoding nor solver with the tests' oracles (`sat.py`, Glucose;
`brute.py`). Without `python-sat`, `available()` is false and the learning search does
the whole count.

Glossary: a `lit` here is a DIMACS int (variable `cell + 1` true: the cell is shaded).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.genres.nonogram.engine import Board
from gridproof.genres.nonogram.lines import valid_starts

SLICE = 2000
"""Conflicts per solver call between deadline checks."""
SOLVER = "cadical153"

_TRUE, _FALSE = 0, 1 << 62
"""Constants standing in for order variables fixed by the allowed start range (no
variable is numbered either)."""


def available() -> bool:
    """Whether the SAT solver can be loaded."""
    try:
        from pysat.solvers import Solver  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return False
    return True


class _Encoder:
    def __init__(self, board: Board) -> None:
        self.top = board.width * board.height
        self.clauses: list[list[int]] = []

    def var(self) -> int:
        self.top += 1
        return self.top

    def add(self, lits: Iterable[int]) -> None:
        """Add a clause of DIMACS lits and constants (`_TRUE` drops it, `_FALSE` drops
        the lit); an empty clause is kept (it makes the formula unsatisfiable)."""
        out = []
        for lit in lits:
            if lit == _TRUE:
                return
            if lit != _FALSE:
                out.append(lit)
        self.clauses.append(out)


def _neg(lit: int) -> int:
    if lit == _TRUE:
        return _FALSE
    if lit == _FALSE:
        return _TRUE
    return -lit


def _line(enc: _Encoder, cells: list[int], clue: tuple[int, ...], f: int, e: int) -> None:
    """Clauses tying the cell variables of one open line to its clue, given its known cells
    (f, e), whose arrangement must exist."""
    n = len(cells)
    found = valid_starts(n, clue, f, e)
    if found is None:
        enc.add([])
        return
    starts = found[0]
    order: list[dict[int, int]] = []  # per block: p -> lit of "starts at p or later"
    bounds = []
    for mask in starts:
        lo, hi = (mask & -mask).bit_length() - 1, mask.bit_length() - 1
        bounds.append((lo, hi))
        order.append({p: enc.var() for p in range(lo + 1, hi + 1)})

    def y(j: int, p: int) -> int:
        lo, hi = bounds[j]
        if p <= lo:
            return _TRUE
        if p > hi:
            return _FALSE
        return order[j][p]

    for j, length in enumerate(clue):
        lo, hi = bounds[j]
        for p in range(lo + 1, hi + 1):
            enc.add([-order[j][p], y(j, p - 1)])
        for p in range(lo, hi + 1):
            if not starts[j] >> p & 1:
                enc.add([_neg(y(j, p)), y(j, p + 1)])
            if j + 1 < len(clue):
                enc.add([_neg(y(j, p)), y(j + 1, p + length + 1)])
        for c in range(lo, hi + length):
            # covered by block j: starts at c - length + 1 or later, and not after c
            enc.add([_neg(y(j, c - length + 1)), y(j, c + 1), cells[c]])
    for c in range(n):
        if e >> c & 1:
            continue  # a shaded cell, known or not, must lie in no gap
        x = cells[c]
        if not clue:
            enc.add([-x])
            continue
        enc.add([-x, _neg(y(0, c + 1))])  # before block 0
        for j in range(1, len(clue)):  # between blocks j - 1 and j
            enc.add([-x, y(j - 1, c - clue[j - 1] + 1), _neg(y(j, c + 1))])
        enc.add([-x, y(len(clue) - 1, c - clue[-1] + 1)])  # after the last block


def encode(board: Board, filled: list[int], empty: list[int]) -> list[list[int]]:
    """CNF whose models, read on variables 1..width*height, are the solutions that agree
    with the known cells (per-line masks as in `engine.Grid`)."""
    w, h = board.width, board.height
    enc = _Encoder(board)
    for r in range(h):
        for c in range(w):
            if filled[r] >> c & 1:
                enc.clauses.append([r * w + c + 1])
            elif empty[r] >> c & 1:
                enc.clauses.append([-(r * w + c + 1)])
    full = [(1 << n) - 1 for n in board.lengths]
    for line in range(board.line_count):
        f, e = filled[line], empty[line]
        if (f | e) == full[line]:
            continue
        if line < h:
            cells = [line * w + c + 1 for c in range(w)]
        else:
            cells = [r * w + (line - h) + 1 for r in range(h)]
        _line(enc, cells, board.clues[line], f, e)
    return enc.clauses


class Session:
    """One count of the known cells' residual formula in one solver, run in slices (the
    solver is built at the first slice, so a count settled before costs no encoding)."""

    def __init__(self, board: Board, filled: list[int], empty: list[int]) -> None:
        self.board = board
        self.known = (list(filled), list(empty))
        self.solver: Any = None
        self.solutions: list[int] = []
        self.finished = False
        self.conflicts = 0
        self.decisions = 0

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_: object) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def run(self, limit: int, conflicts: int, deadline: Deadline) -> bool:
        """Count on for about `conflicts` more conflicts: True once the count is complete
        (or holds `limit` solutions), False when the slice or the deadline runs out."""
        if self.finished:
            return True
        if self.solver is None:
            from pysat.solvers import Solver

            self.solver = Solver(name=SOLVER, bootstrap_with=encode(self.board, *self.known))
        solver, n = self.solver, self.board.width * self.board.height
        spent = 0
        while len(self.solutions) < limit:
            if deadline.expired() or spent >= conflicts:
                return False
            solver.conf_budget(min(SLICE, conflicts - spent))
            found = solver.solve_limited()
            stats = solver.accum_stats()
            spent += stats["conflicts"] - self.conflicts
            self.conflicts, self.decisions = stats["conflicts"], stats["decisions"]
            if found is None:
                continue
            if not found:
                self.finished = True
                return True
            model = solver.get_model()
            shaded = 0
            for lit in model[:n]:
                if lit > 0:
                    shaded |= 1 << (lit - 1)
            self.solutions.append(shaded)
            solver.add_clause([-lit for lit in model[:n]])
        self.finished = True
        return True
