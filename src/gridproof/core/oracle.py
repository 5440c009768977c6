"""The SAT oracle's counting loop, shared by every genre's CNF encoding.

For tests, benchmarks and the bank's independent check (`Genre.oracles`): the engines
never import it, and it needs `python-sat` (a dev extra), which is imported when a count
starts, not with this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, verdict_for


@dataclass(frozen=True, slots=True)
class Constraint:
    """One rule of a puzzle as CNF clauses: a region's count, a shaded cell's partner, a
    line's clue. `cells` are the cells its clauses mention (variable `cell + 1`; any other
    variable is its own auxiliary), `about` the cells a person must look at to use it: all
    of `cells` for a count or a clue, the cell itself for a rule about a cell's neighbours.

    A genre's SAT encoding is the union of its constraints' clauses; kept apart, they let
    tests/test_cited_cells.py ask which rules, and which marks, a hint's conclusion needs.
    """

    cells: frozenset[int]
    clauses: tuple[tuple[int, ...], ...]
    about: frozenset[int]
    whole: bool = False
    """A rule about a group as a whole (a region's count, a line's clue), which a step
    uses only by reading the group, rather than about a cell or two."""


def clauses_of(constraints: Sequence[Constraint]) -> list[list[int]]:
    """Every clause of `constraints`, in order: the whole encoding."""
    return [list(clause) for each in constraints for clause in each.clauses]


def count_models(
    clauses: list[list[int]], cells: Sequence[int], limit: int = 2, solver: str = "cadical153"
) -> Outcome:
    """Count the solutions of `clauses` up to `limit` with a `python-sat` solver (CaDiCaL
    1.5.3 unless named), enumerating models and blocking each by its cell variables
    (variable `cell + 1` true: the cell is shaded).

    An encoding whose other variables follow from the cell variables counts solutions
    exactly. `nodes` is the number of SAT calls; there is no deadline: the oracle always
    finishes.
    """
    from pysat.solvers import Solver  # type: ignore[import-untyped]

    if limit < 2:
        raise ValueError(
            f"limit must be at least 2 (uniqueness needs a second search), got {limit}"
        )
    clock = Deadline.never()
    solutions: list[int] = []
    calls = 0
    sat = Solver(name=solver, bootstrap_with=clauses)
    try:
        while len(solutions) < limit:
            calls += 1
            if not sat.solve():
                break
            model = set(sat.get_model())
            shaded = [cell for cell in cells if cell + 1 in model]
            solutions.append(sum(1 << cell for cell in shaded))
            chosen = set(shaded)
            sat.add_clause([-(c + 1) if c in chosen else c + 1 for c in cells])
    finally:
        sat.delete()
    return Outcome(
        verdict=verdict_for(len(solutions), True),
        solutions=tuple(solutions),
        limit=limit,
        nodes=calls,
        propagations=0,
        elapsed=clock.elapsed(),
    )
