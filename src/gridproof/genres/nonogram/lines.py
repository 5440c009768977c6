"""The line solver: everything one row or column implies, without enumerating patterns.

A line of `n` cells is two int masks, `filled` and `empty` (bit i = cell i). Its clue is a
tuple of block lengths. `settle` computes the complete line consistency, the cells that
every arrangement of the blocks consistent with the known cells agrees on, by a dynamic
program over (position, block) done with whole-line bit operations:

- forward, `cursors[j]` is the set of positions p such that cells [0, p) can hold blocks
  0..j-1 with cell p-1 empty (or p = 0); from it `starts[j]`, where block j may begin;
- backward the same on the mirrored line, read back as `tails[j]`: positions p such that
  cells [p, n) can hold blocks j.. with cell p empty (or p = n);
- a cell may be empty if some gap puts it between a prefix and a suffix that fit, and may
  be shaded if some block start valid on both sides covers it.

Each step is a handful of shifts, ANDs and one addition over a whole line (the addition
carries a "cursor" across a run of cells that are not shaded), so a line costs
O(clues × log length) big-int operations rather than one per pattern. `LineCache` memoises
results per (length, clue, filled, empty), which is everything the answer depends on.

Glossary: `starts[j]` / `valid[j]` are masks of start positions of block j (prefix-feasible
/ feasible in a whole arrangement); `reach` extends cursors over non-shaded cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Clue = tuple[int, ...]


def reverse_bits(mask: int, width: int) -> int:
    """`mask` read backwards over `width` bits (bit i goes to bit width - 1 - i)."""
    if not mask:
        return 0
    return int(format(mask, f"0{width}b")[::-1], 2)


def _windows(free: int, longest: int) -> list[int]:
    """`out[t]`: starts s where the 2**t cells [s, s + 2**t) are all in `free`."""
    out = [free]
    span = 1
    while span * 2 <= longest:
        last = out[-1]
        out.append(last & (last >> span))
        span *= 2
    return out


def _placeable(free: int, filled: int, clue: Clue, n: int) -> list[int]:
    """For each block, the starts where it fits: its cells not empty, the cells just
    before and after it not shaded, and it ends inside the line."""
    if not clue:
        return []
    wins = _windows(free, max(clue))
    out = []
    before = ~(filled << 1)
    for length in clue:
        if length > n:
            out.append(0)
            continue
        t = length.bit_length() - 1
        span = 1 << t
        win = wins[t]
        if length != span:
            win &= win >> (length - span)
        out.append(win & before & ~(filled >> length) & ((1 << (n - length + 1)) - 1))
    return out


def _forward(n: int, clue: Clue, filled: int, empty: int) -> tuple[list[int], list[int]] | None:
    """`(cursors, starts)` of the forward pass, or None when no arrangement fits."""
    line = (1 << n) - 1
    free = ~empty & line
    clear = ~filled & line  # cells a cursor may step over as empty
    place = _placeable(free, filled, clue, n)
    cursor = ((clear + (clear & 1)) ^ clear) | 1
    cursors = [cursor]
    starts = []
    for length, fits in zip(clue, place, strict=True):
        start = cursor & fits
        if not start:
            return None
        starts.append(start)
        after = start << (length + 1)
        cursor = ((clear + (after & clear)) ^ clear) | after
        cursors.append(cursor)
    return cursors, starts


def settle(n: int, clue: Clue, filled: int, empty: int) -> tuple[int, int] | None:
    """`(filled, empty)` grown by every cell the line forces, or None if no arrangement of
    `clue` agrees with the known cells."""
    valid = valid_starts(n, clue, filled, empty)
    if valid is None:
        return None
    line = (1 << n) - 1
    can_fill = 0
    for length, start in zip(clue, valid[0], strict=True):
        can_fill |= smear(start, length)
    can_fill &= line
    can_empty = valid[1] & line
    if (can_fill | can_empty) != line:
        return None
    return filled | (line & ~can_empty), empty | (line & ~can_fill)


def smear(starts: int, length: int) -> int:
    """The cells covered by a block of `length` placed at any of `starts`."""
    covered, span = starts, 1
    while span * 2 <= length:
        covered |= covered << span
        span *= 2
    if span < length:
        covered |= covered << (length - span)
    return covered


def valid_starts(n: int, clue: Clue, filled: int, empty: int) -> tuple[list[int], int] | None:
    """For each block the starts it takes in some complete arrangement, and the cells that
    are empty in some arrangement; None when the line has no arrangement."""
    if filled & empty:
        return None
    ahead = _forward(n, clue, filled, empty)
    if ahead is None:
        return None
    back = _forward(n, clue[::-1], reverse_bits(filled, n), reverse_bits(empty, n))
    if back is None:
        return None
    cursors, starts = ahead
    k = len(clue)
    # tails[j] holds p when cells [p, n) fit blocks j.. with cell p empty (or p == n).
    # Mirror every backward cursor set at once: pack them side by side, reverse once.
    width = n + 1
    span = (1 << width) - 1
    packed = 0
    for t, cursor in enumerate(back[0]):
        packed |= (cursor & span) << (t * width)
    mirrored = reverse_bits(packed, (k + 1) * width)
    tails = [(mirrored >> (j * width)) & span for j in range(k + 1)]
    can_empty = 0
    for j in range(k + 1):
        can_empty |= (cursors[j] >> 1) & tails[j]
    valid = [starts[j] & (tails[j + 1] >> clue[j]) for j in range(k)]
    if not all(valid):
        return None
    return valid, can_empty


class LineCache:
    """Memoised `settle` for lines of one puzzle: one table per distinct (length, clue), keyed
    by the known cells. Bounded: a table that grows past `limit` entries starts over."""

    __slots__ = ("hits", "limit", "misses", "tables")

    def __init__(self, limit: int = 1 << 16) -> None:
        self.tables: dict[tuple[int, Clue], dict[int, tuple[int, int] | None]] = {}
        self.limit = limit
        self.hits = 0
        self.misses = 0

    def table(self, n: int, clue: Clue) -> dict[int, tuple[int, int] | None]:
        """The memo for lines of length `n` with `clue` (shared by equal lines)."""
        return self.tables.setdefault((n, clue), {})

    def settle(
        self, table: dict[int, tuple[int, int] | None], n: int, clue: Clue, filled: int, empty: int
    ) -> tuple[int, int] | None:
        key = (filled << n) | empty
        try:
            found = table[key]
        except KeyError:
            self.misses += 1
            found = settle(n, clue, filled, empty)
            if len(table) >= self.limit:
                table.clear()
            table[key] = found
            return found
        self.hits += 1
        return found


@dataclass(frozen=True, slots=True)
class LineView:
    """What the technique rules read about one line: where each block can start in a
    complete arrangement, and which cells can be shaded or empty at all."""

    n: int
    clue: Clue
    filled: int
    empty: int
    valid: tuple[int, ...]
    can_fill: int
    can_empty: int

    def lowest(self, j: int) -> int:
        """The leftmost start of block j."""
        start = self.valid[j]
        return (start & -start).bit_length() - 1

    def highest(self, j: int) -> int:
        """The rightmost start of block j."""
        return self.valid[j].bit_length() - 1


def view(n: int, clue: Sequence[int], filled: int, empty: int) -> LineView | None:
    """The `LineView` of a line, or None when it has no arrangement."""
    clue = tuple(clue)
    found = valid_starts(n, clue, filled, empty)
    if found is None:
        return None
    valid, can_empty = found
    line = (1 << n) - 1
    can_fill = 0
    for length, start in zip(clue, valid, strict=True):
        can_fill |= smear(start, length)
    can_fill &= line
    can_empty &= line
    if (can_fill | can_empty) != line:
        return None
    return LineView(n, clue, filled, empty, tuple(valid), can_fill, can_empty)
