"""Why a line forced a cell, or could not hold its clue: a few of its known cells that
force the same thing alone, for the learning search's conflict analysis.

Line solving is monotone: knowing fewer cells never forces more. So an explanation can be
searched for by dropping known cells and checking the deduction still holds. Here the
kept cells form a window around the forced cell (the deduction is almost always local):
the nearest known cells on each side are kept, as few as still force it, found by
galloping then bisecting (a handful of checks, each one pass of the line solver).

A cell `x` is forced shaded when no arrangement leaves it empty: for every count `j` of
blocks that could lie before it, either cells `[0, x]` cannot hold exactly blocks `0..j-1`
with `x` empty (the forward cursors at `x + 1`, set `ahead`), or cells `[x, n)` cannot hold
blocks `j..` (the backward cursors, set `behind`). The two sets depend on the cells on
either side only, so each side is shrunk by one forward or backward pass per check. A cell
forced empty, and a line with no arrangement, are checked by a whole line solve.

Glossary: `pos` is a position in the line; `f`, `e` the line's shaded and empty masks when
it was solved; an explanation is a mask of positions (a subset of `f | e`).
"""

from __future__ import annotations

from collections.abc import Callable

from gridproof.core.grid import reverse_bits
from gridproof.genres.nonogram.lines import Plan, _pass, _solve

_FAIL = -1
"""`pos` of a line that had no arrangement at all."""


def _ahead(plan: Plan, f: int, e: int, pos: int) -> int:
    """Bit j set when cells [0, pos] can hold exactly blocks 0..j-1 with `pos` empty."""
    line = (1 << plan.n) - 1
    found = _pass(plan.ahead, plan.top, line, f, e)
    if found is None:
        return 0
    out = 0
    shift = pos + 1
    for j, cursor in enumerate(found[0]):
        out |= (cursor >> shift & 1) << j
    return out


def _behind(plan: Plan, f: int, e: int, pos: int) -> int:
    """Bit j set when cells [pos, n) can hold exactly blocks j.. with `pos` empty."""
    n = plan.n
    found = _pass(plan.back, plan.top, (1 << n) - 1, reverse_bits(f, n), reverse_bits(e, n))
    if found is None:
        return 0
    k = len(plan.clue)
    out = 0
    shift = n - pos
    for i, cursor in enumerate(found[0]):
        out |= (cursor >> shift & 1) << (k - i)
    return out


def _nearest(known: int, pos: int, left: bool) -> list[int]:
    """The known positions on one side of `pos`, nearest first."""
    if left:
        side = known & ((1 << pos) - 1) if pos >= 0 else 0
        out = []
        while side:
            top = side.bit_length() - 1
            out.append(top)
            side ^= 1 << top
        return out
    side = known >> (pos + 1) << (pos + 1)
    out = []
    while side:
        low = side & -side
        out.append(low.bit_length() - 1)
        side ^= low
    return out


def _fewest(cells: list[int], check: Callable[[int], bool]) -> int:
    """The mask of the fewest of `cells` (a prefix of the list) for which `check(mask)`
    is true, given that it is true for all of them and monotone; galloping then
    bisecting."""
    if not cells or check(0):
        return 0
    prefix = [0]
    for cell in cells:
        prefix.append(prefix[-1] | 1 << cell)
    lo, hi = 0, 1  # check(prefix[lo]) is false; find the least hi with check true
    while hi < len(cells) and not check(prefix[hi]):
        lo, hi = hi, min(len(cells), hi * 2)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if check(prefix[mid]):
            hi = mid
        else:
            lo = mid
    return prefix[hi]


def forced(plan: Plan, f: int, e: int, pos: int, shaded: bool) -> int:
    """Known cells (positions) of a line in state (f, e) that alone force `pos` to be
    `shaded` (or empty); the line in that state must force it."""
    known = (f | e) & ~(1 << pos)
    left = _nearest(known, pos, True)
    right = _nearest(known, pos, False)
    if shaded:
        right_all = _mask(right)
        behind = _behind(plan, f & right_all, e & right_all, pos)

        def left_holds(keep: int) -> bool:
            return not _ahead(plan, f & keep, e & keep, pos) & behind

        kept_left = _fewest(left, left_holds)
        ahead = _ahead(plan, f & kept_left, e & kept_left, pos)

        def right_holds(keep: int) -> bool:
            return not ahead & _behind(plan, f & keep, e & keep, pos)

        return kept_left | _fewest(right, right_holds)
    right_all = _mask(right)
    tails = _tails(plan, f & right_all, e & right_all)

    def left_empty(keep: int) -> bool:
        keep |= right_all
        return not _coverable(plan, f & keep, e & keep, pos, tails)

    kept_left = _fewest(left, left_empty)

    def right_empty(keep: int) -> bool:
        kept = keep | kept_left
        found = _tails(plan, f & keep, e & keep)
        return not _coverable(plan, f & kept, e & kept, pos, found)

    return kept_left | _fewest(right, right_empty)


def _tails(plan: Plan, f: int, e: int) -> list[int] | None:
    """The backward cursors (mirrored): entry i holds q when the last i blocks fit in the
    last q cells with the cell before them empty; None when they do not fit at all."""
    n = plan.n
    found = _pass(plan.back, plan.top, (1 << n) - 1, reverse_bits(f, n), reverse_bits(e, n))
    return None if found is None else found[0]


def _coverable(plan: Plan, f: int, e: int, pos: int, tails: list[int] | None) -> bool:
    """Whether some block can cover `pos` given the cells (f, e) before the block's end and
    the backward cursors `tails` of the cells after it (a block at s of length L needs
    cells [s + L, n) to hold the later blocks with cell s + L empty)."""
    if tails is None:
        return False
    found = _pass(plan.ahead, plan.top, (1 << plan.n) - 1, f, e)
    if found is None:
        return False
    n, k = plan.n, len(plan.clue)
    for j, start in enumerate(found[1]):
        length = plan.clue[j]
        near = start >> max(0, pos - length + 1) << max(0, pos - length + 1)
        near &= (2 << pos) - 1  # starts in [pos - length + 1, pos]
        while near:
            low = near & -near
            near ^= low
            end = low.bit_length() - 1 + length
            if tails[k - 1 - j] >> (n - end) & 1:
                return True
    return False


def failed(plan: Plan, f: int, e: int) -> int:
    """Known cells of a line in state (f, e), which has no arrangement, that alone leave
    it none: the shortest prefix of them, then the shortest suffix of that."""
    known = f | e
    ahead = _nearest(known, plan.n, True)[::-1]  # lowest first

    def dies(keep: int) -> bool:
        return _solve(plan, f & keep, e & keep) is None

    prefix = _fewest(ahead, dies)
    kept = _nearest(prefix, plan.n, True)  # highest first
    return _fewest(kept, dies)


def _mask(cells: list[int]) -> int:
    out = 0
    for cell in cells:
        out |= 1 << cell
    return out
