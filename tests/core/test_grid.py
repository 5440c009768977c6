"""Cells, masks and grids as rows of text (`core.grid`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridproof.core.errors import CodeError
from gridproof.core.grid import (
    SHADING,
    Geometry,
    bits,
    cell_name,
    cell_string,
    format_rows,
    format_shading,
    low_bit,
    mask_of,
    parse_rows,
    parse_shading,
    partial_rows,
    reverse_bits,
)


class Board:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height


@pytest.mark.parametrize(
    ("mask", "low", "cells"),
    [
        (1, 0, [0]),
        (0b1010, 1, [1, 3]),
        (1 << 200, 200, [200]),
        ((1 << 70) | (1 << 3) | (1 << 64), 3, [3, 64, 70]),
    ],
)
def test_low_bit_and_bits(mask: int, low: int, cells: list[int]) -> None:
    assert low_bit(mask) == low
    assert list(bits(mask)) == cells
    assert mask_of(cells) == mask


def test_bits_of_nothing() -> None:
    assert list(bits(0)) == []
    assert mask_of([]) == 0


@given(st.integers(min_value=0, max_value=2**300))
def test_bits_list_every_set_bit_lowest_first(mask: int) -> None:
    cells = list(bits(mask))
    assert cells == [cell for cell in range(mask.bit_length()) if mask >> cell & 1]
    assert mask_of(cells) == mask
    if mask:
        assert low_bit(mask) == cells[0]


@settings(max_examples=50)
@given(st.lists(st.integers(min_value=0, max_value=20_000), max_size=300))
def test_bits_and_mask_of_agree_on_board_sized_masks(cells: list[int]) -> None:
    """Masks past `WIDE` bits take the linear path (text scan, bytearray): same answers."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    assert mask_of(cells) == mask
    assert list(bits(mask)) == sorted(set(cells))


def test_bits_of_a_million_cell_board_is_linear_not_quadratic() -> None:
    full = (1 << 1_048_576) - 1  # 1024 x 1024 all shaded: the old loop copied it per cell
    assert sum(1 for _ in bits(full)) == 1_048_576
    assert mask_of(range(0, 1_048_576, 1024)) == sum(1 << c for c in range(0, 1_048_576, 1024))


def test_cell_names_are_one_based_row_then_column() -> None:
    assert cell_name(0, 5) == "r1c1"
    assert cell_name(7, 5) == "r2c3"
    assert Geometry(5, 3).name(14) == "r3c5"


def test_cell_string_puts_cell_zero_first() -> None:
    assert cell_string(0b110, 4) == "0110"
    assert cell_string(1, 3) == "100"
    assert cell_string(0b1111, 2) == "11"  # cells beyond the size are not shown
    assert cell_string(5, 0) == ""


def test_format_rows_first_layer_wins() -> None:
    rows = format_rows(3, 2, [("#", 0b000011), ("o", 0b000110), ("x", 1 << 5)], ".")
    assert rows == ["##o", "..x"]
    assert format_rows(2, 2, [], "?") == ["??", "??"]


def test_parse_rows_reads_each_layer() -> None:
    alphabet = {"#": 0, "o": 1, ".": -1, "+": -1}
    assert parse_rows(["#o", ".+", "o#"], 2, 3, alphabet, "grid") == [0b100001, 0b010010]
    assert parse_rows(["..."], 3, 1, {".": -1}, "grid") == []


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(min_value=0, max_value=2**81 - 1),
    st.integers(min_value=0, max_value=2**81 - 1),
)
def test_format_and_parse_rows_round_trip(width: int, height: int, one: int, two: int) -> None:
    full = (1 << (width * height)) - 1
    first, second = one & full, two & full & ~one
    rows = format_rows(width, height, [("#", first), ("o", second)], ".")
    assert len(rows) == height
    assert all(len(row) == width for row in rows)
    assert parse_rows(rows, width, height, {"#": 0, "o": 1, ".": -1}, "grid") == [first, second]


def test_a_big_board_round_trips() -> None:
    width, height = 300, 200
    size = width * height
    shaded = sum(1 << cell for cell in range(0, size, 7)) | (1 << (size - 1))
    board = Board(width, height)
    rows = format_shading(board, shaded)
    assert len(rows) == height
    assert rows[0][:8] == "#......#"
    assert parse_shading(board, rows) == shaded


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["##", ".."], "grid: 2 rows given, the puzzle has 3"),
        (["##", "...", "#."], "grid: row 2 '...' has 3 cells, the puzzle 2"),
        (["##", "..", "#"], "grid: row 3 '#' has 1 cells, the puzzle 2"),
        (["##", ".x", ".."], "grid: row 2, column 2: 'x' is not one of '#', '.'"),
        (["##", "..", ".\n"], "grid: row 3, column 2: '\\n' is not one of"),
    ],
)
def test_parse_rows_errors_quote_the_row_and_column(rows: list[str], message: str) -> None:
    with pytest.raises(CodeError) as raised:
        parse_rows(rows, 2, 3, {"#": 0, ".": -1}, "grid")
    assert str(raised.value).startswith(message)


def test_parse_rows_refuses_rows_that_are_not_text() -> None:
    with pytest.raises(CodeError, match="marks: row 1 list has no cells, the puzzle 2"):
        parse_rows([["#", "."]], 2, 1, {"#": 0, ".": -1}, "marks")  # type: ignore[list-item]


def test_shading_reads_hash_as_shaded_and_the_rest_as_not() -> None:
    board = Board(3, 2)
    assert format_shading(board, 0b100101) == ["#.#", "..#"]
    assert parse_shading(board, ["#+-", ".##"]) == 0b110001
    assert set(SHADING) == {"#", ".", "+", "-"}
    with pytest.raises(CodeError, match="grid: row 1, column 3: 'o'"):
        parse_shading(board, ["##o", "..."])


def test_partial_rows_mark_the_undecided() -> None:
    assert partial_rows(Board(3, 1), 0b001, 0b100) == ["#?."]
    assert partial_rows(Board(2, 2), 0, 0) == ["??", "??"]


def test_geometry_neighbours_and_spreads() -> None:
    geo = Geometry(3, 3)
    assert geo.size == 9
    assert geo.full == 0b111111111
    assert geo.neighbours[4] == mask_of([1, 3, 5, 7])
    assert geo.neighbours[0] == mask_of([1, 3])
    assert geo.neighbours[2] == mask_of([1, 5])  # no wrap round to the next row
    assert geo.spread(1 << 4) == mask_of([1, 3, 5, 7])
    assert geo.spread(mask_of([0, 8])) == mask_of([1, 3, 5, 7])
    assert geo.spread_twice(mask_of([0, 8])) == 0
    assert geo.spread_twice(mask_of([1, 3])) == mask_of([0, 4])
    assert geo.rows(mask_of([0, 4, 8])) == ["#..", ".#.", "..#"]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(min_value=0, max_value=2**49 - 1))
def test_spreads_agree_with_the_neighbour_table(width: int, height: int, mask: int) -> None:
    geo = Geometry(width, height)
    mask &= geo.full
    counts = [(geo.neighbours[cell] & mask).bit_count() for cell in range(geo.size)]
    assert geo.spread(mask) == mask_of(c for c in range(geo.size) if counts[c] >= 1)
    assert geo.spread_twice(mask) == mask_of(c for c in range(geo.size) if counts[c] >= 2)
    west, east, north, south = geo.shifts(mask)
    for cell in range(geo.size):
        r, c = divmod(cell, width)
        assert bool(west >> cell & 1) == (c > 0 and bool(mask >> (cell - 1) & 1))
        assert bool(east >> cell & 1) == (c < width - 1 and bool(mask >> (cell + 1) & 1))
        assert bool(north >> cell & 1) == (r > 0 and bool(mask >> (cell - width) & 1))
        assert bool(south >> cell & 1) == (r < height - 1 and bool(mask >> (cell + width) & 1))


def test_span_and_runs_read_line_masks() -> None:
    from gridproof.core.grid import runs, span

    assert span(2, 5) == 0b11100
    assert span(4, 4) == 0
    assert span(5, 3) == 0
    assert runs(0) == []
    assert runs(0b1110_0110_0001) == [(0, 1), (5, 7), (9, 12)]
    for mask in range(1 << 10):
        assert sum(span(a, b) for a, b in runs(mask)) == mask


def test_reverse_bits_small_cases() -> None:
    assert reverse_bits(0b0011, 4) == 0b1100
    assert reverse_bits(0, 7) == 0
    assert reverse_bits(1, 1) == 1
    assert reverse_bits(1, 9) == 1 << 8  # a width past one byte


@given(st.integers(1, 700).flatmap(lambda w: st.tuples(st.just(w), st.integers(0, (1 << w) - 1))))
def test_reverse_bits_reads_the_mask_backwards(case: tuple[int, int]) -> None:
    width, mask = case
    flipped = reverse_bits(mask, width)
    assert all((flipped >> (width - 1 - i) & 1) == (mask >> i & 1) for i in range(width))
    assert flipped < 1 << width
    assert reverse_bits(flipped, width) == mask
