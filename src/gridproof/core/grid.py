"""Rectangular grids of cells numbered row-major, and int bitmasks over them.

Glossary: `cell` = row * width + col; a `mask` is an int whose bit `cell` is set for each
cell in the set; `full` is the mask of every cell.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


def bits(mask: int) -> Iterator[int]:
    """The cells of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cells: object) -> int:
    """The mask of an iterable of cells."""
    m = 0
    for c in cells:  # type: ignore[attr-defined]
        m |= 1 << c
    return m


def cell_name(cell: int, width: int) -> str:
    """`r3c4`: 1-based row and column, the way puzzle people name cells."""
    return f"r{cell // width + 1}c{cell % width + 1}"


@dataclass(frozen=True, slots=True)
class Geometry:
    """Neighbourhood tables and whole-board shifts for a width × height grid."""

    width: int
    height: int
    full: int = field(init=False)
    not_first_col: int = field(init=False)
    not_last_col: int = field(init=False)
    neighbours: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        n = w * h
        full = (1 << n) - 1
        first_col = mask_of(r * w for r in range(h))
        last_col = mask_of(r * w + w - 1 for r in range(h))
        object.__setattr__(self, "full", full)
        object.__setattr__(self, "not_first_col", full & ~first_col)
        object.__setattr__(self, "not_last_col", full & ~last_col)
        nbrs = []
        for cell in range(n):
            r, c = divmod(cell, w)
            m = 0
            if r > 0:
                m |= 1 << (cell - w)
            if r < h - 1:
                m |= 1 << (cell + w)
            if c > 0:
                m |= 1 << (cell - 1)
            if c < w - 1:
                m |= 1 << (cell + 1)
            nbrs.append(m)
        object.__setattr__(self, "neighbours", tuple(nbrs))

    @property
    def size(self) -> int:
        return self.width * self.height

    def shifts(self, mask: int) -> tuple[int, int, int, int]:
        """For each direction, the cells whose neighbour that way is in `mask`.

        Returned as (has west neighbour in mask, east, north, south).
        """
        w = self.width
        return (
            (mask << 1) & self.not_first_col,
            (mask >> 1) & self.not_last_col,
            (mask << w) & self.full,
            mask >> w,
        )

    def spread(self, mask: int) -> int:
        """Every cell orthogonally next to some cell of `mask`."""
        a, b, c, d = self.shifts(mask)
        return a | b | c | d

    def spread_twice(self, mask: int) -> int:
        """Every cell with at least two orthogonal neighbours in `mask`."""
        a, b, c, d = self.shifts(mask)
        return (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)

    def name(self, cell: int) -> str:
        return cell_name(cell, self.width)

    def rows(self, mask: int, on: str = "#", off: str = ".") -> list[str]:
        """`mask` as rows of text."""
        w = self.width
        return [
            "".join(on if mask >> (r * w + c) & 1 else off for c in range(w))
            for r in range(self.height)
        ]
