"""Explanations of line deductions against plain enumeration of placements: every forced
cell and every dead line, for every clue and every knowledge of lines up to six cells and
random longer ones; the cells an explanation keeps must force the same thing alone."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from gridproof.genres.nonogram.brute import consistent, line_patterns
from gridproof.genres.nonogram.explain import failed, forced
from gridproof.genres.nonogram.lines import plan_of, settle
from tests.genres.nonogram.test_lines import clues_up_to


def _forces(patterns: list[int], filled: int, empty: int, pos: int, shaded: bool) -> bool:
    """Whether the known cells leave some placement and every one gives `pos` that value."""
    fits = consistent(patterns, filled, empty)
    return bool(fits) and all(bool(p >> pos & 1) == shaded for p in fits)


def _check_line(n: int, clue: tuple[int, ...], filled: int, empty: int) -> int:
    """Check every explanation of one line state; how many were checked."""
    patterns = line_patterns(n, clue)
    plan = plan_of(n, clue)
    known = filled | empty
    found = settle(n, clue, filled, empty)
    if found is None:
        why = failed(plan, filled, empty)
        assert why & ~known == 0
        assert not consistent(patterns, filled & why, empty & why), (n, clue, filled, empty)
        return 1
    checked = 0
    for pos in range(n):
        if known >> pos & 1:
            continue
        for shaded, mask in ((True, found[0]), (False, found[1])):
            if mask >> pos & 1:
                why = forced(plan, filled, empty, pos, shaded)
                assert why & ~known == 0
                assert _forces(patterns, filled & why, empty & why, pos, shaded), (
                    n,
                    clue,
                    filled,
                    empty,
                    pos,
                    shaded,
                )
                checked += 1
    return checked


def test_every_clue_and_every_knowledge_up_to_six_cells() -> None:
    checked = 0
    for n in range(1, 7):
        for clue in clues_up_to(n):
            for known in product((0, 1, 2), repeat=n):  # 0 unknown, 1 shaded, 2 empty
                filled = sum(1 << i for i, k in enumerate(known) if k == 1)
                empty = sum(1 << i for i, k in enumerate(known) if k == 2)
                checked += _check_line(n, clue, filled, empty)
    assert checked > 10_000


@settings(max_examples=300, deadline=None)
@given(
    st.integers(7, 18).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.integers(1, 4), max_size=6).map(tuple),
            st.lists(st.sampled_from((0, 0, 0, 1, 2)), min_size=n, max_size=n),
        )
    )
)
def test_random_longer_lines(case: tuple[int, tuple[int, ...], list[int]]) -> None:
    n, clue, known = case
    if sum(clue) + len(clue) - 1 > n:
        clue = clue[:1]
    filled = sum(1 << i for i, k in enumerate(known) if k == 1)
    empty = sum(1 << i for i, k in enumerate(known) if k == 2)
    _check_line(n, clue, filled, empty)


def test_an_explanation_keeps_only_what_matters() -> None:
    # "1 1" on 7 cells with cell 0 shaded and cell 6 shaded: cell 1 is empty because of
    # cell 0 alone (whatever cell 6 says).
    plan = plan_of(7, (1, 1))
    assert forced(plan, 0b1000001, 0, 1, False) == 0b0000001
    # "1" on 5 cells with cell 1 shaded and cell 4 empty: cell 0 is empty because of
    # cell 1 alone. "2" with cells 0, 2 and 4 shaded is dead because of cells 0 and 2.
    assert forced(plan_of(5, (1,)), 0b00010, 0b10000, 0, False) == 0b00010
    assert failed(plan_of(6, (2,)), 0b010101, 0) == 0b000101
