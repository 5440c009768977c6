"""Semantic trace steps and rule violations: what a person can read."""

from __future__ import annotations

from collections.abc import Sequence
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
    group: tuple[int, ...] = ()
    """The cells of the group the rule is about: for a counting rule, those its `quota`
    counts over (a region's cells that take marks, a row, a shaded cell's neighbours); for
    a rule about a line or a region (a Nonogram's clue), its cells. A `Group` the
    validator names this way is not complete."""


@dataclass(frozen=True, slots=True)
class Group:
    """A group of cells the rules fill (a region, a row, a clued line), as a genre lists
    them (`Genre.groups`): one that no violation names by its `group` is complete, so the
    player greys it (a region: `region` is its id) and auto-marking marks the rest of it
    empty."""

    cells: tuple[int, ...]
    region: int | None = None


def region_groups(regions: Sequence[int], marked: int | None = None) -> list[Group]:
    """Each region (by id, `regions[cell]` its id) as a group, of its cells in `marked`
    only when given (a Nondango's circles)."""
    cells: list[list[int]] = [[] for _ in range(max(regions) + 1)]
    for cell, rid in enumerate(regions):
        if marked is None or marked >> cell & 1:
            cells[rid].append(cell)
    return [Group(tuple(found), rid) for rid, found in enumerate(cells)]


def line_groups(width: int, height: int) -> list[Group]:
    """Every row, then every column, as a group."""
    rows = [Group(tuple(range(r * width, (r + 1) * width))) for r in range(height)]
    cols = [Group(tuple(range(c, width * height, width))) for c in range(width)]
    return rows + cols


def settled(violation: Violation, shaded: int, empty: int) -> bool:
    """Whether `violation`, found by the validator in a partial grid (`shaded`, `empty`, the
    other cells undecided and read as empty), is broken already: no way of deciding the
    undecided cells repairs it. A counting rule (`quota` over its `group`) is broken once
    its group holds more marked cells than its quota, or too few with the cells still
    open; any other rule once none of its `cells` is undecided. A genre whose rules need
    more (a Nonogram clue that no placement fits) judges them itself (`Genre.settled`)."""
    decided = shaded | empty
    if violation.quota is not None and violation.group:
        group = 0
        for cell in violation.group:
            group |= 1 << cell
        has = (group & shaded).bit_count()
        still = (group & ~decided).bit_count()
        return has > violation.quota or has + still < violation.quota
    return all(decided >> cell & 1 for cell in violation.cells)
