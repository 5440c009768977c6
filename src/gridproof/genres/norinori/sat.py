"""A SAT oracle for Norinori, for tests, benchmarks and the bank's independent check: the
engine never imports it.

One variable per cell (variable `cell + 1` is true when the cell is shaded), no auxiliary
variables, so every model is a shading and a blocking clause over the cell variables
removes exactly one solution:

- every region holds at least two shaded cells (for each cell, some other cell of its
  region is shaded) and at most two (no three of its cells are all shaded);
- every shaded cell has a shaded neighbour, and no two (x and n_i imply not n_j).

Needs the `python-sat` package from the dev extras.
"""

from __future__ import annotations

from itertools import combinations

from gridproof.core.oracle import Constraint, clauses_of, count_models
from gridproof.core.outcome import Outcome
from gridproof.genres.norinori.model import Norinori

Clause = list[int]


def encode(puzzle: Norinori) -> list[Clause]:
    """CNF clauses whose models over variables 1..width*height are exactly the solutions."""
    return clauses_of(constraints(puzzle))


def constraints(puzzle: Norinori) -> list[Constraint]:
    """The rules one by one: each region's two shaded cells, then each cell's one partner
    if shaded (about the cell: its neighbours are what the rule reads)."""
    out: list[Constraint] = []
    for cells in puzzle.region_cells():
        lits = [cell + 1 for cell in cells]
        if len(lits) < 2:  # a region too small for two shaded cells
            return [Constraint(frozenset({0}), ((1,), (-1,)), frozenset(cells))]
        clauses = [tuple(other for other in lits if other != lit) for lit in lits]
        clauses += [(-a, -b, -c) for a, b, c in combinations(lits, 3)]
        out.append(Constraint(frozenset(cells), tuple(clauses), frozenset(cells), whole=True))
    for cell, around in enumerate(_neighbours(puzzle)):
        x = cell + 1
        clauses = [(-x, *around)] + [(-x, -a, -b) for a, b in combinations(around, 2)]
        scope = frozenset([cell, *(lit - 1 for lit in around)])
        out.append(Constraint(scope, tuple(clauses), frozenset({cell})))
    return out


def count_sat(puzzle: Norinori, limit: int = 2) -> Outcome:
    """Count solutions up to `limit` by enumerating models with blocking clauses."""
    return count_models(encode(puzzle), range(puzzle.width * puzzle.height), limit)


def _neighbours(puzzle: Norinori) -> list[list[int]]:
    """The variables of each cell's orthogonal neighbours."""
    w, h = puzzle.width, puzzle.height
    out = []
    for row in range(h):
        for col in range(w):
            around = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
            out.append([r * w + c + 1 for r, c in around if 0 <= r < h and 0 <= c < w])
    return out
