"""The generator's fast closures of the rule ladder's line rungs, with work counted.

`SimpleLines.settle` is the fixpoint of the `simple` rung (overlap, separators,
unreachable cells, small gaps: the same definitions as `rules.py`, read off
`lines.view`) on one line, memoised; `close` runs any such line settle to a fixpoint over
the board with a work queue instead of recording steps. `line_only` counts the cells only
complete line logic decides on the way to the line fixpoint: how close a board is to
needing the `line` rung. Every settle costs one unit of work, memo hit or not, so the
count does not depend on what earlier calls left in the memo.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from gridproof.core.grid import runs, span
from gridproof.genres.nonogram.lines import Clue, view
from gridproof.genres.nonogram.model import Nonogram

Settled = tuple[int, int] | None
Settle = Callable[[int, Clue, int, int], Settled]
MEMO_LIMIT = 1 << 18


def simple_once(n: int, clue: Clue, filled: int, empty: int) -> tuple[int, int] | None:
    """(shade, clear): what the four simple rules find on one line, None on a contradiction."""
    seen = view(n, clue, filled, empty)
    if seen is None:
        return None
    full = (1 << n) - 1
    unknown = full & ~(filled | empty)
    shade = clear = reach = 0
    ranges = []
    for j, length in enumerate(clue):
        lo, hi = seen.lowest(j), seen.highest(j)
        shade |= span(hi, lo + length)
        covered = span(lo, hi + length)
        reach |= covered
        ranges.append((length, covered))
    clear |= full & ~reach
    for a, b in runs(filled):
        owners = [
            length
            for j, length in enumerate(clue)
            if seen.valid[j] & span(max(0, b - length), a + 1)
        ]
        if owners and all(length == b - a for length in owners):
            clear |= ((1 << a) >> 1 | 1 << b) & full
    for a, b in runs(full & ~empty):
        gap = span(a, b)
        if gap & filled or not gap & unknown:
            continue
        if all(length > b - a for length, covered in ranges if covered & gap):
            clear |= gap
    return shade & unknown, clear & unknown


class SimpleLines:
    """The simple rung's fixpoint per line, memoised; `work` counts the calls."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, Clue, int, int], Settled] = {}
        self.work = 0

    def settle(self, n: int, clue: Clue, filled: int, empty: int) -> Settled:
        self.work += 1
        key = (n, clue, filled, empty)
        if key in self.memo:
            return self.memo[key]
        result: Settled
        while True:
            found = simple_once(n, clue, filled, empty)
            if found is None or found[0] & found[1]:
                result = None
                break
            shade, clear = found
            if not (shade | clear):
                result = (filled, empty)
                break
            filled |= shade
            empty |= clear
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = result
        return result


def _spread(
    line: int,
    height: int,
    before: tuple[int, int],
    after: tuple[int, int],
    filled: list[int],
    empty: list[int],
) -> list[int]:
    """Write a line's new cells into the crossing lines; the crossing lines changed."""
    base, bit = (height, 1 << line) if line < height else (0, 1 << (line - height))
    touched = []
    for new, side in ((after[0] ^ before[0], filled), (after[1] ^ before[1], empty)):
        while new:
            low = new & -new
            new ^= low
            other = base + low.bit_length() - 1
            side[other] |= bit
            touched.append(other)
    return touched


def close(puzzle: Nonogram, settle: Settle) -> tuple[list[int], list[int]] | None:
    """The fixpoint of `settle` over every line: (filled rows, empty rows), None on a
    contradiction."""
    w, h = puzzle.width, puzzle.height
    count = w + h
    filled, empty = [0] * count, [0] * count
    lengths = [w] * h + [h] * w
    queue = deque(range(count))
    queued = [True] * count
    while queue:
        line = queue.popleft()
        queued[line] = False
        before = filled[line], empty[line]
        got = settle(lengths[line], puzzle.lines[line], *before)
        if got is None:
            return None
        if got == before:
            continue
        filled[line], empty[line] = got
        for other in _spread(line, h, before, got, filled, empty):
            if not queued[other]:
                queued[other] = True
                queue.append(other)
    return filled[:h], empty[:h]


def line_only(puzzle: Nonogram, simple: SimpleLines, settle: Settle) -> tuple[int, int]:
    """Line logic to its fixpoint; at every line solve the simple rules run on the same
    input too: (cells only complete line logic decided, summed over the solves; the board
    mask of those cells)."""
    w, h = puzzle.width, puzzle.height
    count = w + h
    filled, empty = [0] * count, [0] * count
    lengths = [w] * h + [h] * w
    queue = deque(range(count))
    queued = [True] * count
    events = cells = 0
    while queue:
        line = queue.popleft()
        queued[line] = False
        before = filled[line], empty[line]
        n, clue = lengths[line], puzzle.lines[line]
        got = settle(n, clue, *before)
        if got is None:
            return -1, 0
        if got == before:
            continue
        simple_got = simple.settle(n, clue, *before)
        sf, se = simple_got if simple_got is not None else (0, 0)
        only = (got[0] | got[1]) & ~(sf | se)
        events += only.bit_count()
        while only:
            low = only & -only
            only ^= low
            k = low.bit_length() - 1
            cells |= 1 << (line * w + k) if line < h else 1 << (k * w + line - h)
        filled[line], empty[line] = got
        for other in _spread(line, h, before, got, filled, empty):
            if not queued[other]:
                queued[other] = True
                queue.append(other)
    return events, cells


def rounds(puzzle: Nonogram, settle: Settle) -> int:
    """How many rounds the closure of `settle` takes when every changed line is solved
    once per round and the round's results are applied together."""
    w, h = puzzle.width, puzzle.height
    count = w + h
    filled, empty = [0] * count, [0] * count
    lengths = [w] * h + [h] * w
    todo = list(range(count))
    done = 0
    while todo:
        results = []
        for line in todo:
            before = filled[line], empty[line]
            got = settle(lengths[line], puzzle.lines[line], *before)
            if got is None:
                return done
            if got != before:
                results.append((line, got))
        if not results:
            break
        done += 1
        changed: set[int] = set()
        for line, (nf, ne) in results:
            before = filled[line], empty[line]
            after = nf | before[0], ne | before[1]
            grown = after[0] & ~before[0], after[1] & ~before[1]
            filled[line], empty[line] = after
            base, bit = (h, 1 << line) if line < h else (0, 1 << (line - h))
            for new, side in ((grown[0], filled), (grown[1], empty)):
                while new:
                    low = new & -new
                    new ^= low
                    other = base + low.bit_length() - 1
                    if not side[other] & bit:
                        side[other] |= bit
                        changed.add(other)
        todo = sorted(changed)
    return done
