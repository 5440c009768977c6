"""Single edits of a puzzle that a setter might make to repair it: what each genre proposes.

A genre's `edits(puzzle, keep, rival, focus)` lists candidate edits, cheapest to explain
first. For an ambiguous puzzle `keep` is the solution the setter pins and `rival` another
one: an edit worth listing leaves `keep` a solution (its `keep` says what that solution
becomes, e.g. a Nonogram's picture with one pixel flipped) and breaks `rival`. For a puzzle
without a solution both are None and `focus` holds the cells the contradiction names
(every cell when nothing names them): an edit worth listing there gives a solution back.
The genre only proposes; the workshop counts every edit with the complete counter.

A genre's `spares` goes the other way, for a unique puzzle: the givens (circles, borders,
clues) it could do without and stay unique, what a setter minimising a board asks for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from gridproof.core.deadline import Deadline

P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class Edit(Generic[P]):
    """One edit: the sentence a setter reads ("move r3c5 into region 7"), the puzzle it
    makes, the pinned solution on that puzzle (None when nothing is pinned) and the cells
    it touches."""

    text: str
    puzzle: P
    keep: int | None
    cells: tuple[int, ...]


Edits = Callable[[P, int | None, int | None, int], Iterable[Edit[P]]]
"""`edits(puzzle, keep, rival, focus)`: see the module docstring."""


@dataclass(frozen=True, slots=True)
class Spare:
    """A given a unique board does not need: without it (alone) the board is still unique.
    `text` names it ("the circle at r2c3"), `cells` are the cells it sits on."""

    text: str
    cells: tuple[int, ...]


Spares = Callable[[P, int, Deadline, int], Iterator[Spare]]
"""`spares(puzzle, solution, deadline, work)`: the givens of a unique `puzzle` (whose only
solution is `solution`) that it does not need, each checked by the complete counter on a
`work` budget of its own under `deadline` (a given whose check runs out is not listed)."""
