"""The Norinori model: the validator, the region-cycle theorem and the eight symmetries."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridproof.core.symmetry import Symmetry
from gridproof.genres.norinori.brute import count_by_cells, count_by_regions
from gridproof.genres.norinori.model import (
    Norinori,
    make_puzzle,
    region_cycles,
    transform,
    validate,
)
from tests.genres.norinori.boards import backward_board, board_mix, random_partition

EVERYTHING = 10**6


def _puzzle(*rows: str) -> Norinori:
    return make_puzzle([list(row) for row in rows])


def _mask(*rows: str) -> int:
    width = len(rows[0])
    return sum(
        1 << (r * width + c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"
    )


def _summary(puzzle: Norinori, shaded: int) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    return [(v.rule, v.cells, v.regions) for v in validate(puzzle, shaded)]


# --- the validator -------------------------------------------------------------------------


def test_validator_lists_every_violation() -> None:
    puzzle = _puzzle(
        "aabb",
        "aabb",
        "ccdd",
        "ccdd",
    )
    shaded = _mask(
        "###.",
        "....",
        "#...",
        "...#",
    )
    assert _summary(puzzle, shaded) == [
        ("region-count", (2,), (1,)),  # b holds one
        ("region-count", (8,), (2,)),  # c holds one
        ("region-count", (15,), (3,)),  # d holds one
        ("domino", (1,), (0,)),  # r1c2 between two shaded cells
        ("domino", (8,), (2,)),  # r3c1 alone
        ("domino", (15,), (3,)),  # r4c4 alone
    ]


def test_validator_counts_every_degree_and_empty_regions() -> None:
    puzzle = _puzzle(
        "aaab",
        "aaab",
        "cccb",
        "dddd",
    )
    shaded = _mask(
        ".#..",
        "###.",
        ".#..",
        "....",
    )
    problems = validate(puzzle, shaded)
    assert [(v.rule, v.cells, v.regions) for v in problems] == [
        ("region-count", (1, 4, 5, 6), (0,)),  # a holds four
        ("region-count", (3, 7, 11), (1,)),  # b holds none: all its cells are named
        ("region-count", (9,), (2,)),  # c holds one
        ("region-count", (12, 13, 14, 15), (3,)),  # d holds none
        ("domino", (5,), (0,)),  # the centre of the plus has four shaded neighbours
    ]
    assert "4 shaded neighbours" in problems[-1].text
    assert "region 1 holds 4" in problems[0].text


def test_validator_names_no_neighbour_and_three_neighbours() -> None:
    puzzle = _puzzle("aaa", "aaa")
    texts = [v.text for v in validate(puzzle, _mask("###", ".#."))]
    assert texts == [
        "region 1 holds 4 shaded cells, not 2",
        "shaded cell r1c2 has 3 shaded neighbours, not exactly one",
    ]
    texts = [v.text for v in validate(puzzle, _mask("#.#", "..."))]
    assert texts == [
        "shaded cell r1c1 has no shaded neighbour, not exactly one",
        "shaded cell r1c3 has no shaded neighbour, not exactly one",
    ]


def test_validator_accepts_solutions_and_rejects_every_single_flip() -> None:
    for puzzle in board_mix(40, seed=7):
        size = puzzle.width * puzzle.height
        for shaded in count_by_regions(puzzle, 20).solutions:
            assert validate(puzzle, shaded) == []
            for cell in range(size):
                # One flip changes one region's count, so at least that is reported.
                rules = {v.rule for v in validate(puzzle, shaded ^ 1 << cell)}
                assert "region-count" in rules


# --- region cycles -------------------------------------------------------------------------


def _dominoes(puzzle: Norinori, shaded: int) -> list[tuple[int, int]]:
    """Each domino of a solution once, as (lower cell, higher cell), read off coordinates."""
    w, h = puzzle.width, puzzle.height
    out = []
    for cell in range(w * h):
        if not shaded >> cell & 1:
            continue
        r, c = divmod(cell, w)
        for rr, cc in ((r, c + 1), (r + 1, c)):
            if rr < h and cc < w and shaded >> (rr * w + cc) & 1:
                out.append((cell, rr * w + cc))
    return out


def _check_cycles(puzzle: Norinori, shaded: int) -> list[list[int]]:
    cycles = region_cycles(puzzle, shaded)
    projected = Counter(
        tuple(sorted((puzzle.regions[a], puzzle.regions[b]))) for a, b in _dominoes(puzzle, shaded)
    )
    degree = Counter[int]()
    for (a, b), times in projected.items():
        degree[a] += times
        degree[b] += times
    assert degree == dict.fromkeys(range(puzzle.region_count), 2)
    assert sorted(r for cycle in cycles for r in cycle) == list(range(puzzle.region_count))
    assert sum(len(cycle) for cycle in cycles) == puzzle.region_count
    walked = Counter(
        tuple(sorted((cycle[i], cycle[(i + 1) % len(cycle)])))
        for cycle in cycles
        for i in range(len(cycle))
        if len(cycle) > 1 or i == 0
    )
    assert walked == projected
    assert all(cycle[0] == min(cycle) for cycle in cycles)
    return cycles


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(2, 6),
    height=st.integers(2, 6),
)
def test_region_cycles_cover_every_region_with_degree_two(
    seed: int, width: int, height: int
) -> None:
    puzzle = backward_board(width, height, random.Random(seed))
    solutions = count_by_regions(puzzle, 40).solutions
    assert solutions  # a backward board always has its intended solution
    for shaded in solutions:
        _check_cycles(puzzle, shaded)


def test_region_cycles_hand_made_swap_and_loops() -> None:
    puzzle = _puzzle(
        "abcc",
        "abcc",
        "abcd",
        "abdd",
    )
    shaded = _mask(
        "##.#",
        "...#",
        "##..",
        "..##",
    )
    assert validate(puzzle, shaded) == []
    # a and b swap two dominoes across their border; c and d each hold their own domino.
    assert _check_cycles(puzzle, shaded) == [[0, 1], [2], [3]]


def test_region_cycles_hand_made_three_cycle() -> None:
    puzzle = _puzzle(
        "abbb",
        "aaab",
        "aaac",
        "cccc",
    )
    shaded = _mask(
        "##..",
        "...#",
        "#..#",
        "#...",
    )
    assert validate(puzzle, shaded) == []
    # Three dominoes, each across a different border: a-b, b-c, c-a.
    (cycle,) = _check_cycles(puzzle, shaded)
    assert cycle in ([0, 1, 2], [0, 2, 1])


def test_region_cycles_refuses_non_solutions() -> None:
    puzzle = _puzzle("aa", "bb")
    with pytest.raises(ValueError, match="not a solution"):
        region_cycles(puzzle, _mask("##", "##"))


def test_region_cycles_on_a_single_column() -> None:
    puzzle = _puzzle("a", "a", "b", "b", "b")
    shaded = _mask("#", "#", ".", "#", "#")
    assert validate(puzzle, shaded) == []
    assert region_cycles(puzzle, shaded) == [[0], [1]]


def test_validate_rejects_cells_off_the_board() -> None:
    puzzle = _puzzle("ab")
    assert [v.rule for v in validate(puzzle, 0b100011)] == ["grid", "region-count", "region-count"]


# --- symmetries ----------------------------------------------------------------------------

SYMMETRY_BOARDS = [
    *board_mix(24, seed=11),
    random_partition(4, 6, random.Random(1)),
    backward_board(6, 4, random.Random(2)),
    backward_board(4, 6, random.Random(3), walk=12),
    _puzzle("aabb", "accb", "ccdd"),
]


@pytest.mark.parametrize("symmetry", list(Symmetry))
def test_transform_preserves_solutions(symmetry: Symmetry) -> None:
    assert any(p.width != p.height for p in SYMMETRY_BOARDS)
    for puzzle in SYMMETRY_BOARDS:
        w, h = puzzle.width, puzzle.height
        image = transform(puzzle, symmetry)
        assert (image.width, image.height) == symmetry.shape(w, h)
        before = count_by_cells(puzzle, EVERYTHING).solutions
        after = count_by_cells(image, EVERYTHING).solutions
        assert len(after) == len(before)
        moved = {symmetry.mask(shaded, w, h) for shaded in before}
        assert moved == set(after)
        for shaded in moved:
            assert validate(image, shaded) == []


@pytest.mark.parametrize("symmetry", list(Symmetry))
def test_transform_keeps_the_partition(symmetry: Symmetry) -> None:
    for puzzle in SYMMETRY_BOARDS:
        image = transform(puzzle, symmetry)
        to = symmetry.cell_map(puzzle.width, puzzle.height)
        size = puzzle.width * puzzle.height
        assert sorted(to) == list(range(size))
        for a in range(size):
            for b in range(a + 1, size):
                same = puzzle.regions[a] == puzzle.regions[b]
                assert same == (image.regions[to[a]] == image.regions[to[b]])


@pytest.mark.parametrize("symmetry", list(Symmetry))
def test_transform_then_inverse_is_the_original(symmetry: Symmetry) -> None:
    for puzzle in SYMMETRY_BOARDS:
        assert transform(transform(puzzle, symmetry), symmetry.inverse()) == puzzle


def test_rotate_a_non_square_board_by_hand() -> None:
    puzzle = _puzzle("abc", "def")
    assert transform(puzzle, Symmetry.ROTATE_90) == _puzzle("da", "eb", "fc")
    assert transform(puzzle, Symmetry.TRANSPOSE) == _puzzle("ad", "be", "cf")
    assert transform(puzzle, Symmetry.ANTI_TRANSPOSE) == _puzzle("fc", "eb", "da")
