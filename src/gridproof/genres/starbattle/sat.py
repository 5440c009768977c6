"""A SAT oracle for Star Battle, for tests, benchmarks and the bank's independent check:
the engine never imports it.

Variable `cell + 1` is true when the cell holds a star. Every row, column and region holds
exactly `stars` of its cells (a sequential-counter cardinality encoding from python-sat's
`pysat.card`, whose auxiliary variables follow from the cells), and no two touching cells
both hold one. Needs the `python-sat` package from the dev extras.
"""

from __future__ import annotations

from gridproof.core.oracle import Constraint, clauses_of, count_models
from gridproof.core.outcome import Outcome
from gridproof.genres.starbattle.model import StarBattle

Clause = list[int]


def encode(puzzle: StarBattle) -> list[Clause]:
    """CNF clauses whose models, read on variables 1..width*height, are the solutions."""
    return clauses_of(constraints(puzzle))


def constraints(puzzle: StarBattle) -> list[Constraint]:
    """The rules one by one: each row's, column's and region's stars, then each pair of
    touching cells."""
    from pysat.card import CardEnc, EncType  # type: ignore[import-untyped]
    from pysat.formula import IDPool  # type: ignore[import-untyped]

    w, h, k = puzzle.width, puzzle.height, puzzle.stars
    pool = IDPool(start_from=w * h + 1)
    groups = [[r * w + c for c in range(w)] for r in range(h)]
    groups += [[r * w + c for r in range(h)] for c in range(w)]
    groups += [list(cells) for cells in puzzle.region_cells()]
    out: list[Constraint] = []
    for cells in groups:
        scope = frozenset(cells)
        if len(cells) < k:  # a region too small for its stars
            return [Constraint(frozenset({0}), ((1,), (-1,)), scope)]
        lits = [cell + 1 for cell in cells]
        card = CardEnc.equals(lits=lits, bound=k, vpool=pool, encoding=EncType.seqcounter)
        out.append(Constraint(scope, tuple(map(tuple, card.clauses)), scope, whole=True))
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < h and 0 <= cc < w:
                    a, b = r * w + c, rr * w + cc
                    pair = frozenset({a, b})
                    out.append(Constraint(pair, ((-(a + 1), -(b + 1)),), pair))
    return out


def count_sat(puzzle: StarBattle, limit: int = 2) -> Outcome:
    """Count solutions up to `limit` by enumerating models with blocking clauses."""
    return count_models(encode(puzzle), range(puzzle.width * puzzle.height), limit)
