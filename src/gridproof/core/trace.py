"""Semantic trace steps and rule violations: what a person can read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction: rule `rule` decides `shaded` and `empty` (cell masks) because of `cells`.

    `cells` are the cells the reasoning looks at (what a hint highlights), `regions` the
    regions it names, `text` the sentence a person reads.
    """

    rule: str
    text: str
    shaded: int = 0
    empty: int = 0
    cells: tuple[int, ...] = ()
    regions: tuple[int, ...] = ()

    def decided(self) -> int:
        return self.shaded | self.empty


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule in a grid, with the cells (and regions) that break it.

    `quota`, for a counting rule (a region's two shaded cells, a row's stars), is how many
    marked cells the group (its `regions`, or else its `cells`) must hold: data the player
    judges a partial grid by (too many already, or too few cells left), so that nothing
    reads a number back out of `text`."""

    rule: str
    text: str
    cells: tuple[int, ...] = ()
    regions: tuple[int, ...] = ()
    quota: int | None = None
