"""The line solver against plain enumeration of placements, and its cache."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridproof.genres.nonogram.brute import consistent, line_patterns
from gridproof.genres.nonogram.lines import LineCache, settle, view


def enumerated(n: int, clue: tuple[int, ...], filled: int, empty: int) -> tuple[int, int] | None:
    """What every consistent pattern agrees on, by listing them all."""
    fits = consistent(line_patterns(n, clue), filled, empty)
    if not fits:
        return None
    line = (1 << n) - 1
    always, ever = line, 0
    for pattern in fits:
        always &= pattern
        ever |= pattern
    return always, line & ~ever


def clues_up_to(n: int) -> list[tuple[int, ...]]:
    """Every clue that fits a line of n cells."""
    out = []
    for mask in range(1 << n):
        runs, run = [], 0
        for i in range(n + 1):
            if i < n and mask >> i & 1:
                run += 1
            elif run:
                runs.append(run)
                run = 0
        out.append(tuple(runs))
    return sorted(set(out))


def test_every_clue_and_every_knowledge_up_to_six_cells() -> None:
    for n in range(1, 7):
        for clue in clues_up_to(n):
            for known in product((0, 1, 2), repeat=n):  # 0 unknown, 1 shaded, 2 empty
                filled = sum(1 << i for i, k in enumerate(known) if k == 1)
                empty = sum(1 << i for i, k in enumerate(known) if k == 2)
                assert settle(n, clue, filled, empty) == enumerated(n, clue, filled, empty), (
                    n,
                    clue,
                    known,
                )


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    st.integers(1, 16).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.integers(1, 5), max_size=5).map(tuple),
            st.integers(0, (1 << n) - 1),
            st.integers(0, (1 << n) - 1),
        )
    )
)
def test_longer_lines_and_clues_that_do_not_fit(
    case: tuple[int, tuple[int, ...], int, int],
) -> None:
    n, clue, filled, empty = case
    filled &= ~empty  # overlapping knowledge is tested apart
    assert settle(n, clue, filled, empty) == enumerated(n, clue, filled, empty)


def test_a_cell_both_shaded_and_empty_is_a_contradiction() -> None:
    assert settle(5, (2,), 0b00100, 0b00100) is None


def test_empty_clue_and_full_line() -> None:
    assert settle(4, (), 0, 0) == (0, 0b1111)
    assert settle(4, (), 0b0010, 0) is None
    assert settle(4, (4,), 0, 0) == (0b1111, 0)
    assert settle(4, (1, 2), 0, 0) == (0b1101, 0b0010)


def test_view_ranges_match_enumeration() -> None:
    n, clue = 10, (3, 1, 2)
    seen = view(n, clue, 0b0000100000, 0b0000000001)
    assert seen is not None
    fits = consistent(line_patterns(n, clue), 0b0000100000, 0b0000000001)
    starts: list[set[int]] = [set() for _ in clue]
    for pattern in fits:
        bits = [i for i in range(n) if pattern >> i & 1]
        runs, i = [], 0
        while i < len(bits):
            j = i
            while j + 1 < len(bits) and bits[j + 1] == bits[j] + 1:
                j += 1
            runs.append(bits[i])
            i = j + 1
        for k, start in enumerate(runs):
            starts[k].add(start)
    assert [sorted(s) for s in starts] == [[i for i in range(n) if v >> i & 1] for v in seen.valid]


def test_cache_gives_what_uncached_solving_gives() -> None:
    cache = LineCache(limit=50)  # small, so tables also start over during the test
    for n in range(1, 9):
        for clue in clues_up_to(min(n, 5)):
            if sum(clue) + len(clue) - 1 > n:
                continue
            table = cache.table(n, clue)
            for filled, empty in ((0, 0), (1, 0), (0, 1), (1 << (n - 1), 0), (0, 2), (1, 1)):
                if (filled | empty) >> n:
                    continue
                for _ in range(2):  # a miss, then a hit
                    assert table.settle(filled, empty) == enumerated(n, clue, filled, empty)
    assert cache.misses


def test_cache_keys_include_the_length_and_the_clue() -> None:
    cache = LineCache()
    short, long_ = cache.table(3, (2,)), cache.table(4, (2,))
    assert short is not long_
    assert cache.table(4, (1, 1)) is not long_
    assert cache.table(4, (2,)) is long_
    # The same known cells mean different things on different lines.
    assert short.settle(0, 0) == (0b010, 0)
    assert long_.settle(0, 0) == (0, 0)
    assert cache.table(4, (3,)).settle(0, 0) == (0b0110, 0)
