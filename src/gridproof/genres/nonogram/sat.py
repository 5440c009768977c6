"""A SAT oracle for Nonogram, for tests, benchmarks and the bank's independent check: the
engine never imports it, and shares neither this encoding nor, in the tests, this solver
(Glucose 4; the engine's last stretch runs CaDiCaL on its own order encoding, `stretch.py`).

Variable `cell + 1` is true when the cell is shaded. Each line adds, per block j, one
variable per position where the block may start (between its leftmost and rightmost
places on the empty line), and clauses saying:

- block j starts exactly once (one long clause, and at most one through a sequential
  counter);
- block j + 1 starts at least `length_j + 1` cells after block j (a start of j + 1 needs a
  start of j early enough);
- a start shades the block's cells; a shaded cell is covered by some block start.

The start variables are fixed by the cells of a model, so a blocking clause over the
cell variables removes exactly one solution; `core.oracle` runs the counting loop (it needs
`python-sat` from the dev extras).
"""

from __future__ import annotations

from gridproof.core.oracle import Constraint, clauses_of, count_models
from gridproof.core.outcome import Outcome
from gridproof.genres.nonogram.model import Nonogram

Clause = list[int]


class _Vars:
    def __init__(self, first: int) -> None:
        self.top = first - 1

    def new(self) -> int:
        self.top += 1
        return self.top


def _line(cells: list[int], clue: tuple[int, ...], pool: _Vars) -> list[Clause]:
    """Clauses tying the cell variables `cells` of one line to its clue."""
    n = len(cells)
    if not clue:
        return [[-x] for x in cells]
    need = sum(clue) + len(clue) - 1
    if need > n:
        return [[cells[0]], [-cells[0]]]
    clauses: list[Clause] = []
    starts: list[dict[int, int]] = []
    lead = 0
    for length in clue:
        slack = n - need
        starts.append({p: pool.new() for p in range(lead, lead + slack + 1)})
        lead += length + 1
    for j, length in enumerate(clue):
        here = starts[j]
        clauses.append(list(here.values()))
        clauses += _at_most_one(list(here.values()), pool)
        for p, s in here.items():
            clauses += [[-s, cells[c]] for c in range(p, p + length)]
            if p > 0:
                clauses.append([-s, -cells[p - 1]])
            if p + length < n:
                clauses.append([-s, -cells[p + length]])
            if j > 0:
                earlier = [v for q, v in starts[j - 1].items() if q + clue[j - 1] + 1 <= p]
                clauses.append([-s, *earlier])
    for c, x in enumerate(cells):
        cover = [
            s for j, length in enumerate(clue) for p, s in starts[j].items() if p <= c < p + length
        ]
        clauses.append([-x, *cover])
    return clauses


def _at_most_one(lits: list[int], pool: _Vars) -> list[Clause]:
    """A sequential counter: at most one of `lits` is true."""
    if len(lits) <= 4:
        return [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]]
    clauses: list[Clause] = []
    prev = pool.new()
    clauses.append([-lits[0], prev])
    for x in lits[1:-1]:
        cur = pool.new()
        clauses += [[-x, cur], [-prev, cur], [-x, -prev]]
        prev = cur
    clauses.append([-lits[-1], -prev])
    return clauses


def encode(puzzle: Nonogram) -> list[Clause]:
    """CNF clauses whose models, read on variables 1..width*height, are the solutions."""
    return clauses_of(constraints(puzzle))


def constraints(puzzle: Nonogram) -> list[Constraint]:
    """The rules one by one: each row's clue, then each column's."""
    w, h = puzzle.width, puzzle.height
    pool = _Vars(w * h + 1)
    lines = [([r * w + c for c in range(w)], clue) for r, clue in enumerate(puzzle.rows)]
    lines += [([r * w + c for r in range(h)], clue) for c, clue in enumerate(puzzle.cols)]
    out: list[Constraint] = []
    for cells, clue in lines:
        clauses = _line([cell + 1 for cell in cells], clue, pool)
        scope = frozenset(cells)
        out.append(Constraint(scope, tuple(map(tuple, clauses)), scope, whole=True))
    return out


ORACLE = "glucose4"
"""The tests' solver: not CaDiCaL, which the engine's last stretch (`stretch.py`) uses."""
YARDSTICK = "cadical153"
"""The benchmarks' solver: the stronger opponent the engine is measured against."""


def count_sat(puzzle: Nonogram, limit: int = 2, solver: str = ORACLE) -> Outcome:
    """Count solutions up to `limit` by enumerating models with blocking clauses."""
    return count_models(encode(puzzle), range(puzzle.width * puzzle.height), limit, solver)
