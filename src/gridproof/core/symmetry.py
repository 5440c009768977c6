"""The eight symmetries of the square (the dihedral group D4) acting on grids.

A symmetry maps a width × height grid to a new grid (width and height swap for the four
that transpose) and carries every cell, mask and per-cell list along with it. Non-square
grids work the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TypeVar

T = TypeVar("T")


class Symmetry(StrEnum):
    """Named as what happens to the picture."""

    IDENTITY = "identity"
    ROTATE_90 = "rot90"  # clockwise
    ROTATE_180 = "rot180"
    ROTATE_270 = "rot270"
    FLIP_H = "flip-h"  # mirror left-right
    FLIP_V = "flip-v"  # mirror top-bottom
    TRANSPOSE = "transpose"  # mirror in the main diagonal
    ANTI_TRANSPOSE = "anti-transpose"  # mirror in the other diagonal

    @property
    def swaps_axes(self) -> bool:
        return self in _SWAPPING

    def shape(self, width: int, height: int) -> tuple[int, int]:
        """(width, height) of the image of a width × height grid."""
        return (height, width) if self.swaps_axes else (width, height)

    def map_rc(self, row: int, col: int, width: int, height: int) -> tuple[int, int]:
        """Where (row, col) of a width × height grid lands."""
        h1, w1 = height - 1, width - 1
        match self:
            case Symmetry.IDENTITY:
                return row, col
            case Symmetry.ROTATE_90:
                return col, h1 - row
            case Symmetry.ROTATE_180:
                return h1 - row, w1 - col
            case Symmetry.ROTATE_270:
                return w1 - col, row
            case Symmetry.FLIP_H:
                return row, w1 - col
            case Symmetry.FLIP_V:
                return h1 - row, col
            case Symmetry.TRANSPOSE:
                return col, row
            case Symmetry.ANTI_TRANSPOSE:
                return w1 - col, h1 - row
        raise AssertionError(self)  # pragma: no cover

    def cell_map(self, width: int, height: int) -> list[int]:
        """`cell_map[old_cell] == new_cell`, cells numbered row-major in each grid."""
        new_width, _ = self.shape(width, height)
        out = []
        for cell in range(width * height):
            r, c = self.map_rc(*divmod(cell, width), width, height)
            out.append(r * new_width + c)
        return out

    def cells(self, values: Sequence[T], width: int, height: int) -> list[T]:
        """A row-major per-cell list carried to the image grid."""
        out: list[T] = list(values)
        for old, new in enumerate(self.cell_map(width, height)):
            out[new] = values[old]
        return out

    def mask(self, mask: int, width: int, height: int) -> int:
        """A cell mask carried to the image grid."""
        out = 0
        for old, new in enumerate(self.cell_map(width, height)):
            if mask >> old & 1:
                out |= 1 << new
        return out

    def inverse(self) -> Symmetry:
        return _INVERSE.get(self, self)


_SWAPPING = frozenset(
    {Symmetry.ROTATE_90, Symmetry.ROTATE_270, Symmetry.TRANSPOSE, Symmetry.ANTI_TRANSPOSE}
)
_INVERSE = {Symmetry.ROTATE_90: Symmetry.ROTATE_270, Symmetry.ROTATE_270: Symmetry.ROTATE_90}
