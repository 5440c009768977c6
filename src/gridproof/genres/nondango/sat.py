"""A SAT oracle for Nondango, for tests, benchmarks and the bank's independent check: the
engine never imports it.

One variable per circle (variable `cell + 1` is true when the circle is black), no
auxiliary variables, so every model is an answer and a blocking clause over the circle
variables removes exactly one:

- every region paints at least one circle (one clause) and at most one (pairwise);
- every geometric line of three circles is not all black, and under no-three-same not all
  white. No screen: dead lines are encoded too.

Needs the `python-sat` package from the dev extras.
"""

from __future__ import annotations

from itertools import combinations

from gridproof.core.oracle import Constraint, clauses_of, count_models
from gridproof.core.outcome import Outcome
from gridproof.genres.nondango.model import Nondango, Variant

Clause = list[int]


def encode(puzzle: Nondango) -> list[Clause]:
    """CNF clauses whose models over the circle variables are exactly the answers."""
    return clauses_of(constraints(puzzle))


def constraints(puzzle: Nondango) -> list[Constraint]:
    """The rules one by one: each region's one black circle, then each line of three."""
    out: list[Constraint] = []
    lits_of: dict[int, list[int]] = {}
    for cell, rid in enumerate(puzzle.regions):
        lits_of.setdefault(rid, [])
        if puzzle.circles >> cell & 1:
            lits_of[rid].append(cell + 1)
    for lits in lits_of.values():
        if not lits:  # a region without a circle cannot paint one
            return [Constraint(frozenset({0}), ((1,), (-1,)), frozenset({0}))]
        clauses = [tuple(lits), *((-a, -b) for a, b in combinations(lits, 2))]
        scope = frozenset(lit - 1 for lit in lits)
        out.append(Constraint(scope, tuple(clauses), scope, whole=True))
    for line in _lines(puzzle):
        clauses = [tuple(-v for v in line)]
        if puzzle.variant is Variant.NO_THREE_SAME:
            clauses.append(tuple(line))
        scope = frozenset(v - 1 for v in line)
        out.append(Constraint(scope, tuple(clauses), scope))
    return out


def count_sat(puzzle: Nondango, limit: int = 2) -> Outcome:
    """Count answers up to `limit` by enumerating models with blocking clauses over the
    circles' variables."""
    circles = [cell for cell in range(puzzle.width * puzzle.height) if puzzle.circles >> cell & 1]
    return count_models(encode(puzzle), circles, limit)


def _lines(puzzle: Nondango) -> list[tuple[int, int, int]]:
    """The variables of every line of three consecutive circles."""
    w, h = puzzle.width, puzzle.height
    out = []
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if not (0 <= r + 2 * dr < h and 0 <= c + 2 * dc < w):
                    continue
                a, b, d = ((r + k * dr) * w + c + k * dc for k in range(3))
                if all(puzzle.circles >> x & 1 for x in (a, b, d)):
                    out.append((a + 1, b + 1, d + 1))
    return out
