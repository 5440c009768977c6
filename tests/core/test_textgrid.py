"""Text pictures: region borders drawn around cells, and marks."""

from __future__ import annotations

from gridproof.core.textgrid import mark, region_text


def test_borders_run_between_regions_and_around_the_board() -> None:
    regions = [0, 0, 1, 2, 2, 1]  # 3 wide, 2 high
    picture = region_text(3, 2, regions, lambda cell: f" {cell} ")
    assert picture == [
        "+-------+---+",
        "| 0   1 | 2 |",
        "+-------+   |",
        "| 3   4 | 5 |",
        "+-------+---+",
    ]


def test_one_region_is_a_frame() -> None:
    assert region_text(2, 1, [0, 0], lambda cell: "   ") == ["+-------+", "|       |", "+-------+"]


def test_marks() -> None:
    assert [mark(cell, 0b001, 0b010) for cell in range(3)] == ["#", ".", " "]
