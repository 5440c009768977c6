"""An exhaustive Nonogram counter over enumerated row patterns, sharing no code with the
line solver; and the pattern enumeration the line solver is tested against.

`line_patterns(n, clue)` lists every arrangement of a clue in a line by plain recursion.
`count_by_rows` picks one pattern per row, top to bottom, and prunes a choice as soon as
some column's cells so far cannot begin its clue (its finished runs must match the clue's
first runs, and the open run must not exceed the next clue); a full check of the columns
closes every leaf. An oracle for tests and small boards, not a fast solver.

Glossary: a `pattern` is an int mask over a line (bit i = cell i shaded); `shaded` is the
board mask (bit `row * width + col`).
"""

from __future__ import annotations

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, verdict_for
from gridproof.genres.nonogram.model import Nonogram

CHECK_EVERY = 1024
"""Nodes between deadline checks (the first node is always checked)."""


def line_patterns(n: int, clue: tuple[int, ...]) -> list[int]:
    """Every arrangement of `clue` in a line of `n` cells, as masks."""
    out: list[int] = []

    def place(index: int, start: int, mask: int) -> None:
        if index == len(clue):
            out.append(mask)
            return
        length = clue[index]
        rest = sum(clue[index + 1 :]) + len(clue) - index - 1
        for at in range(start, n - length - rest + 1):
            block = ((1 << length) - 1) << at
            place(index + 1, at + length + 1, mask | block)

    place(0, 0, 0)
    return out


def consistent(patterns: list[int], filled: int, empty: int) -> list[int]:
    """The patterns that shade every cell of `filled` and none of `empty`."""
    return [p for p in patterns if p & filled == filled and not p & empty]


def _column_ok(bits: list[int], clue: tuple[int, ...], complete: bool) -> bool:
    """Whether a column whose first cells are `bits` can still satisfy `clue`."""
    runs: list[int] = []
    run = 0
    for bit in bits:
        if bit:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if complete:
        return tuple(runs + ([run] if run else [])) == clue
    if len(runs) > len(clue) or tuple(runs) != clue[: len(runs)]:
        return False
    if run:
        return len(runs) < len(clue) and run <= clue[len(runs)]
    return True


def count_by_rows(puzzle: Nonogram, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count solutions up to `limit` by choosing a pattern for each row in turn.

    Stops at `limit` solutions; an expired deadline gives `timeout` (or `multiple` if two
    solutions were already found), never `unique`.
    """
    if limit < 2:
        raise ValueError(
            f"limit must be at least 2 (uniqueness needs a second search), got {limit}"
        )
    clock = Deadline.never() if deadline is None else deadline
    started = clock.elapsed()
    w, h = puzzle.width, puzzle.height
    options = [line_patterns(w, clue) for clue in puzzle.rows]
    solutions: list[int] = []
    nodes = 0
    complete = True
    stack: list[tuple[int, list[int]]] = [(0, [])]
    while stack:
        if nodes % CHECK_EVERY == 0 and clock.expired():
            complete = False
            break
        nodes += 1
        row, chosen = stack.pop()
        if row == h:
            solutions.append(sum(p << (r * w) for r, p in enumerate(chosen)))
            if len(solutions) >= limit:
                break
            continue
        last = row == h - 1
        for pattern in reversed(options[row]):
            trial = [*chosen, pattern]
            if all(_column_ok([p >> c & 1 for p in trial], puzzle.cols[c], last) for c in range(w)):
                stack.append((row + 1, trial))
    return Outcome(
        verdict=verdict_for(len(solutions), complete),
        solutions=tuple(solutions),
        limit=limit,
        nodes=nodes,
        propagations=0,
        elapsed=clock.elapsed() - started,
    )
