"""Counting sequences behind the study, with exact Python integers.

- One line of L circles: black sets with no three consecutive black circles (the rule
  read right: A000073, tribonacci), with at most two black circles anywhere (the rule
  read as "anywhere in the line": A000124, the lazy caterer), and the no-three-same
  counterparts (no three consecutive of one colour; at most two of each colour).
- A square n×n grid with a circle in every cell and no regions: black sets with no three
  consecutive black circles across, down or on either diagonal (OEIS A181218: 2, 16, 230,
  10732, 1495392, ...), by a transfer matrix over pairs of rows, and by brute force for
  checking. Python integers never round, so the terms are exact however large.

Glossary: a `row` is an n-bit int, bit j the circle in column j (1 = black); a `valid`
row has no three consecutive black bits; `weights[b][a]` is the number of ways to fill
the rows so far ending in rows a, b.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from math import comb

from gridproof.core.deadline import Deadline
from gridproof.core.grid import reverse_bits


def strings_without_run(length: int, run: int = 3) -> int:
    """Binary strings of `length` with no `run` consecutive ones (A000073 for run 3)."""
    ending = [1] + [0] * (run - 1)  # ending[k]: strings ending in exactly k ones
    for _ in range(length):
        ending = [sum(ending), *ending[:-1]]
    return sum(ending)


def lazy_caterer(length: int) -> int:
    """Black sets of a line with at most two black circles: 1 + L + L(L-1)/2 (A000124)."""
    return 1 + length + comb(length, 2)


def strings_without_same_run(length: int) -> int:
    """Binary strings of `length` with no three consecutive equal symbols (2·F(L+1))."""
    if length == 0:
        return 1
    ending = [2, 0]  # ending[k]: strings whose last run has k + 1 equal symbols
    for _ in range(length - 1):
        ending = [sum(ending), ending[0]]
    return sum(ending)


def at_most_two_of_each(length: int) -> int:
    """Colourings of a line with at most two black and at most two white circles."""
    return sum(comb(length, k) for k in range(length + 1) if k <= 2 and length - k <= 2)


def line_count_brute(length: int, allowed: Callable[[str], bool]) -> int:
    """How many of the 2^L colourings (as strings of '0' and '1') `allowed` accepts."""
    return sum(allowed(format(value, f"0{length}b")) for value in range(1 << length))


def grid_count_brute(n: int) -> int:
    """A181218(n) by trying every black set of the n×n grid (n ≤ 4 is quick)."""
    cells = n * n
    lines = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= r + 2 * dr < n and 0 <= c + 2 * dc < n:
                    lines.append(sum(1 << ((r + k * dr) * n + c + k * dc) for k in range(3)))
    return sum(all(black & line != line for line in lines) for black in range(1 << cells))


def grid_count(
    n: int, deadline: Deadline | None = None, *, height: int | None = None
) -> int | None:
    """A181218(n) by a transfer matrix over pairs of rows (None if the deadline expires);
    with `height`, the n-wide, `height`-tall rectangle instead (OEIS A181224's table).

    A new row c may follow rows a, b exactly when c avoids the cells that a and b would
    complete to a black line: F(a, b) = a&b | (a<<2)&(b<<1) | (a>>2)&(b>>1). So the weight
    of (b, c) is the sum of the weights of (a, b) over the a with F(a, b) inside ~c: a
    subset sum (zeta transform) over the bits F can use, once per b. Rows mirror left to
    right, and so do the weights, so half the b are enough.
    """
    tall = n if height is None else height
    if n < 1 or tall < 1:
        raise ValueError(f"grid sides must be positive, got {n} and {tall}")
    clock = deadline or Deadline.never()
    full = (1 << n) - 1
    rows = [row for row in range(1 << n) if not row & (row >> 1) & (row >> 2)]
    if tall == 1:
        return len(rows)
    mirror = _mirror_indices(rows, n)
    weights = [[1] * len(rows) for _ in rows]
    for _ in range(tall - 2):
        grown = [[0] * len(rows) for _ in rows]
        for ib, b in enumerate(rows):
            if mirror[ib] < ib:
                continue
            if clock.expired():
                return None
            sums = _subset_sums(rows, weights[ib], b, full, n)
            reach = (b | b << 1 | b >> 1) & full
            for ic, c in enumerate(rows):
                value = sums[~c & reach]
                grown[ic][ib] = value
                grown[mirror[ic]][mirror[ib]] = value
        weights = grown
    return sum(map(sum, weights))


def _mirror_indices(rows: list[int], n: int) -> list[int]:
    index = {row: i for i, row in enumerate(rows)}
    return [index[reverse_bits(row, n)] for row in rows]


def _subset_sums(rows: list[int], column: list[int], b: int, full: int, n: int) -> list[int]:
    """`sums[S]` = the weight of the rows a before b whose F(a, b) lies inside S, for every
    S inside the cells b can reach (bits outside them never occur in F)."""
    sums = [0] * (1 << n)
    for a, weight in zip(rows, column, strict=True):
        if weight:
            sums[(a & b) | ((a << 2) & (b << 1) & full) | ((a >> 2) & (b >> 1))] += weight
    reach = (b | b << 1 | b >> 1) & full
    inside = list(_subsets(reach))
    for bit in range(n):
        step = 1 << bit
        if reach & step:
            for s in inside:
                if s & step:
                    sums[s] += sums[s ^ step]
    return sums


def _subsets(mask: int) -> Iterator[int]:
    """Every subset of `mask`, in increasing order."""
    sub = 0
    while True:
        yield sub
        if sub == mask:
            return
        sub = (sub - mask) & mask


def grid_terms(budget_s: float) -> list[tuple[int, int, float]]:
    """(n, A181218(n), seconds) for n = 1, 2, ... while the next term is expected to fit
    in what is left of `budget_s` seconds (each term costs about 4-5 times the last)."""
    clock = Deadline(budget_s)
    terms: list[tuple[int, int, float]] = []
    last = 0.0
    n = 1
    while clock.remaining() > last * 4:
        start = clock.elapsed()
        value = grid_count(n, clock)
        if value is None:
            break
        last = clock.elapsed() - start
        terms.append((n, value, last))
        n += 1
    return terms
