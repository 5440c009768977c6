from __future__ import annotations

import pytest

from gridproof.core.symmetry import Symmetry

SHAPES = [(1, 1), (3, 3), (4, 6), (6, 4), (1, 5)]


@pytest.mark.parametrize("symmetry", list(Symmetry))
@pytest.mark.parametrize(("width", "height"), SHAPES)
def test_cell_map_is_a_bijection(symmetry: Symmetry, width: int, height: int) -> None:
    mapped = symmetry.cell_map(width, height)
    assert sorted(mapped) == list(range(width * height))


@pytest.mark.parametrize("symmetry", list(Symmetry))
@pytest.mark.parametrize(("width", "height"), SHAPES)
def test_inverse_undoes(symmetry: Symmetry, width: int, height: int) -> None:
    values = list(range(width * height))
    new_w, new_h = symmetry.shape(width, height)
    moved = symmetry.cells(values, width, height)
    assert symmetry.inverse().cells(moved, new_w, new_h) == values
    mask = 0b1011001 & ((1 << width * height) - 1)
    assert symmetry.inverse().mask(symmetry.mask(mask, width, height), new_w, new_h) == mask


def test_the_eight_are_distinct_on_an_asymmetric_square() -> None:
    values = list(range(9))
    images = {tuple(s.cells(values, 3, 3)) for s in Symmetry}
    assert len(images) == 8


def test_rotation_clockwise() -> None:
    # 2x3 grid  a b c / d e f  rotated clockwise is 3x2:  d a / e b / f c
    assert Symmetry.ROTATE_90.cells(list("abcdef"), 3, 2) == list("daebfc")
    assert Symmetry.ROTATE_90.shape(3, 2) == (2, 3)


def test_four_quarter_turns_are_identity() -> None:
    values = list(range(12))
    w, h = 4, 3
    for _ in range(4):
        values = Symmetry.ROTATE_90.cells(values, w, h)
        w, h = h, w
    assert values == list(range(12))
