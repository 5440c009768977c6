"""Rows of region labels read into canonical region ids (`core.regions`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridproof.core.errors import CodeError
from gridproof.core.regions import grid_shape, region_ids


def test_grid_shape_is_width_then_height() -> None:
    assert grid_shape([[0, 0, 0], [1, 1, 1]], 10) == (3, 2)
    assert grid_shape(["ab", "cd", "ef"], 10) == (2, 3)


@pytest.mark.parametrize(
    ("rows", "what", "message"),
    [
        ([], "", "the grid is empty"),
        ([[]], "", "the grid is empty"),
        ([[0, 0], [0]], "", "row 2 has 1 cells, expected 2"),
        ([[0, 0], [0, 0, 0]], "circle", "circle row 2 has 3 cells, expected 2"),
        ([[0] * 4], "", "grid 4x1 is larger than 3x3"),
        ([[0]] * 4, "", "grid 1x4 is larger than 3x3"),
    ],
)
def test_grid_shape_refuses(rows: list[list[int]], what: str, message: str) -> None:
    with pytest.raises(CodeError, match=message):
        grid_shape(rows, 3, what)


def test_region_ids_number_by_first_appearance() -> None:
    width, height, ids = region_ids([["b", "b", "a"], ["c", "a", "a"]], 10)
    assert (width, height) == (3, 2)
    assert ids == (0, 0, 1, 2, 1, 1)


def test_equal_partitions_get_equal_ids() -> None:
    one = region_ids([[7, 7], [3, 3]], 10)
    two = region_ids([["x", "x"], [None, None]], 10)
    assert one == two == (2, 2, (0, 0, 1, 1))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([["a", "b", "a"]], r"region 'a' \(first at row 1, column 1\) is not connected"),
        ([[1, 2], [2, 1]], r"region 1 \(first at row 1, column 1\) is not connected"),
        ([[0, 0, 0], [1, 1, 0], [0, 1, 0]], r"region 0 \(first at row 1, column 1\)"),
        ([[0, 1, 1], [1, 2, 1], [3, 1, 1]], r"region 1 \(first at row 1, column 2\)"),
    ],
)
def test_a_region_in_two_pieces_is_refused(rows: list[list[object]], message: str) -> None:
    with pytest.raises(CodeError, match=message):
        region_ids(rows, 10)


def test_a_ring_around_another_region_is_connected() -> None:
    _, _, ids = region_ids([[0, 0, 0], [0, 1, 0], [0, 0, 0]], 10)
    assert ids == (0, 0, 0, 0, 1, 0, 0, 0, 0)


def test_region_ids_check_the_shape_first() -> None:
    with pytest.raises(CodeError, match="region row 2 has 1 cells"):
        region_ids([[0, 0], [0]], 10, "region")


def _components(width: int, height: int, labels: list[int]) -> int:
    """How many connected areas of equal labels there are (a flood fill of its own)."""
    seen: set[int] = set()
    count = 0
    for start in range(width * height):
        if start in seen:
            continue
        count += 1
        todo = [start]
        seen.add(start)
        while todo:
            cell = todo.pop()
            r, c = divmod(cell, width)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                other = rr * width + cc
                if (
                    0 <= rr < height
                    and 0 <= cc < width
                    and other not in seen
                    and labels[other] == labels[cell]
                ):
                    seen.add(other)
                    todo.append(other)
    return count


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_region_ids_match_a_flood_fill(width: int, height: int, data: st.DataObject) -> None:
    labels = data.draw(
        st.lists(st.integers(0, 3), min_size=width * height, max_size=width * height)
    )
    rows = [labels[r * width : (r + 1) * width] for r in range(height)]
    connected = _components(width, height, labels) == len(set(labels))
    if not connected:
        with pytest.raises(CodeError, match="is not connected"):
            region_ids(rows, 10)
        return
    _, _, ids = region_ids(rows, 10)
    first_seen = list(dict.fromkeys(labels))
    assert ids == tuple(first_seen.index(label) for label in labels)
    assert sorted(set(ids)) == list(range(len(first_seen)))
