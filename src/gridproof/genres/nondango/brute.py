"""A plain Nondango backtracker with neither the dead-triple screen nor the component split.

It picks one circle per region by exhaustion, region by region in id order, and checks
every geometric line of three (three consecutive cells, across, down or on either
diagonal, each holding a circle) as soon as the last of its regions is decided, against
the puzzle's variant: never all black, and under no-three-same never all white. It shares
no code with the propagating solver, so agreement between the two, answer set for answer
set, checks the screen and the split. An oracle for tests and small boards, not a fast
solver.

Glossary: `black` is the int mask of black circles so far; `index` is the next region id;
`checks[rid]` are the lines whose last region is `rid`.
"""

from __future__ import annotations

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, verdict_for
from gridproof.genres.nondango.model import Nondango, Variant

CHECK_EVERY = 1024
"""Nodes between deadline checks (the first node is always checked)."""


def count_brute(puzzle: Nondango, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count answers of `puzzle` up to `limit`, one region at a time.

    An expired deadline gives `timeout` (or `multiple` if two answers were already
    found), never `unique`.
    """
    if limit < 2:
        raise ValueError(
            f"limit must be at least 2 (uniqueness needs a second search), got {limit}"
        )
    clock = Deadline.never() if deadline is None else deadline
    started = clock.elapsed()
    choices = _region_choices(puzzle)
    decided = _decided_circles(choices)
    checks = _checks_by_last_region(puzzle, len(choices))
    same = puzzle.variant is Variant.NO_THREE_SAME
    solutions: list[int] = []
    nodes = 0
    complete = True
    stack = [(0, 0)]
    while stack:
        if nodes % CHECK_EVERY == 0 and clock.expired():
            complete = False
            break
        nodes += 1
        index, black = stack.pop()
        if index == len(choices):
            solutions.append(black)
            if len(solutions) >= limit:
                break
            continue
        for cell in reversed(choices[index]):
            trial = black | 1 << cell
            if not any(_broken(line, trial, decided[index], same) for line in checks[index]):
                stack.append((index + 1, trial))
    return Outcome(
        verdict=verdict_for(len(solutions), complete),
        solutions=tuple(solutions),
        limit=limit,
        nodes=nodes,
        propagations=0,
        elapsed=clock.elapsed() - started,
    )


def _broken(line: int, black: int, decided: int, same: bool) -> bool:
    """Whether a line of three, all of whose circles are decided, is forbidden."""
    painted = line & black
    return painted == line or (same and not painted and line & decided == line)


def _region_choices(puzzle: Nondango) -> list[list[int]]:
    """The circles of each region, by region id."""
    choices: list[list[int]] = [[] for _ in range(max(puzzle.regions) + 1)]
    for cell, rid in enumerate(puzzle.regions):
        if puzzle.circles >> cell & 1:
            choices[rid].append(cell)
    return choices


def _decided_circles(choices: list[list[int]]) -> list[int]:
    """`decided[i]`: the circles of regions 0..i, all coloured once region i is chosen."""
    out, mask = [], 0
    for cells in choices:
        for cell in cells:
            mask |= 1 << cell
        out.append(mask)
    return out


def _checks_by_last_region(puzzle: Nondango, count: int) -> list[list[int]]:
    w, h = puzzle.width, puzzle.height
    checks: list[list[int]] = [[] for _ in range(count)]
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(3)]
                if not all(0 <= rr < h and 0 <= cc < w for rr, cc in cells):
                    continue
                ids = [rr * w + cc for rr, cc in cells]
                if all(puzzle.circles >> i & 1 for i in ids):
                    last = max(puzzle.regions[i] for i in ids)
                    checks[last].append(sum(1 << i for i in ids))
    return checks
