"""Rectangular grids of cells numbered row-major, and int bitmasks over them.

Glossary: `cell` = row * width + col; a `mask` is an int whose bit `cell` is set for each
cell in the set; `full` is the mask of every cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from gridproof.core.errors import CodeError, quote


class Sized(Protocol):
    """Anything with a width and a height (every genre's puzzle)."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...


def low_bit(mask: int) -> int:
    """The lowest cell of a non-empty `mask`."""
    return (mask & -mask).bit_length() - 1


REVERSED_BYTES = bytes(int(f"{byte:08b}"[::-1], 2) for byte in range(256))
"""Each byte value with its 8 bits in the opposite order (a `bytes.translate` table)."""


def reverse_bits(mask: int, width: int) -> int:
    """`mask` read backwards over `width` bits (bit i goes to bit width - 1 - i): its bytes
    in the opposite order, each byte reversed by table, then the padding shifted out (three
    times faster than through a binary string)."""
    size = (width + 7) >> 3
    flipped = mask.to_bytes(size, "little").translate(REVERSED_BYTES)
    return int.from_bytes(flipped, "big") >> ((size << 3) - width)


def span(lo: int, hi: int) -> int:
    """The mask of positions lo..hi-1 (0 when hi <= lo)."""
    return ((1 << max(hi, lo)) - 1) & ~((1 << lo) - 1)


def runs(mask: int) -> list[tuple[int, int]]:
    """The maximal runs of set bits of `mask` as (start, end), end exclusive, lowest first."""
    out = []
    while mask:
        start = low_bit(mask)
        end = start
        while mask >> end & 1:
            end += 1
        out.append((start, end))
        mask &= ~span(start, end)
    return out


WIDE = 2048
"""Masks longer than this many bits are walked through their binary text: clearing the
lowest bit of a huge int copies it, so the bit-by-bit loop would be quadratic."""


def bits(mask: int) -> Iterator[int]:
    """The cells of `mask` (not negative), lowest first, in time linear in its length."""
    if mask.bit_length() <= WIDE:
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low
        return
    text = format(mask, "b")[::-1]
    index = text.find("1")
    while index >= 0:
        yield index
        index = text.find("1", index + 1)


def mask_of(cells: Iterable[int]) -> int:
    """The mask of an iterable of cells (not negative), in time linear in the largest."""
    listed = list(cells)
    if not listed or max(listed) < WIDE:
        m = 0
        for c in listed:
            m |= 1 << c
        return m
    raw = bytearray(max(listed) // 8 + 1)
    for c in listed:
        raw[c >> 3] |= 1 << (c & 7)
    return int.from_bytes(raw, "little")


def cell_name(cell: int, width: int) -> str:
    """`r3c4`: 1-based row and column, the way puzzle people name cells."""
    return f"r{cell // width + 1}c{cell % width + 1}"


class Cell(int):
    """A cell of a board as the public results give it: still its index (`row * width +
    col`, what masks and the JSON shapes use, so it compares, sorts and serialises as that
    int), with its 0-based `row` and `col`, and shown as puzzle people name it, `r3c4`.

    >>> cell = Cell(13, 5)
    >>> cell, cell.row, cell.col, cell == 13, cell.rc
    (r3c4, 2, 3, True, (2, 3))
    """

    row: int
    col: int
    width: int

    def __new__(cls, index: int, width: int) -> Cell:
        cell = super().__new__(cls, index)
        cell.row, cell.col = divmod(index, width)
        cell.width = width
        return cell

    @property
    def rc(self) -> tuple[int, int]:
        """`(row, col)`, 0-based."""
        return self.row, self.col

    def __repr__(self) -> str:
        return f"r{self.row + 1}c{self.col + 1}"

    __str__ = __repr__

    def __getnewargs__(self) -> tuple[int, int]:  # type: ignore[override]
        return int(self), self.width


def cells_of(indices: Iterable[int], width: int) -> tuple[Cell, ...]:
    """`indices` (cell numbers, or the bits of a mask via `bits`) as `Cell`s."""
    return tuple(Cell(index, width) for index in indices)


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

    def connected(self, area: int) -> bool:
        """Whether the cells of a non-empty `area` form one orthogonally connected piece."""
        seen = area & -area
        while True:
            grown = (seen | self.spread(seen)) & area
            if grown == seen:
                return seen == area
            seen = grown

    def name(self, cell: int) -> str:
        return cell_name(cell, self.width)

    def rows(self, mask: int, on: str = "#", off: str = ".") -> list[str]:
        """`mask` as rows of text."""
        return format_rows(self.width, self.height, [(on, mask)], off)


@lru_cache(maxsize=32)
def geometry(width: int, height: int) -> Geometry:
    """The `Geometry` of a width × height grid, built once per size and shared (it is
    immutable): every board, generator, repair and study takes its grid's from here (a
    generator's climb builds a board per layout)."""
    return Geometry(width, height)


# --- grids as rows of text ------------------------------------------------------------------


def cell_string(mask: int, size: int) -> str:
    """`mask` as `size` characters '1'/'0', cell 0 first (linear in `size`)."""
    return format(mask & ((1 << size) - 1), f"0{size}b")[::-1] if size else ""


def format_rows(
    width: int, height: int, layers: Sequence[tuple[str, int]], blank: str
) -> list[str]:
    """Rows of text: each cell shows the character of the first layer `(char, mask)` that
    holds it, else `blank`."""
    size = width * height
    text = [blank] * size
    for char, mask in reversed(layers):
        for cell, bit in enumerate(cell_string(mask, size)):
            if bit == "1":
                text[cell] = char
    flat = "".join(text)
    return [flat[r * width : (r + 1) * width] for r in range(height)]


def parse_rows(
    rows: Sequence[str], width: int, height: int, alphabet: Mapping[str, int], what: str
) -> list[int]:
    """One mask per layer from rows of text: `alphabet` maps each allowed character to its
    layer's index (-1: a character that sets no layer). `CodeError` quoting the row or the
    cell that is wrong, `what` naming the grid in the message."""
    if len(rows) != height:
        raise CodeError(f"{what}: {len(rows)} rows given, the puzzle has {height}")
    layers = max(alphabet.values(), default=-1) + 1
    found = [["0"] * (width * height) for _ in range(layers)]
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != width:
            shown = quote(row) if isinstance(row, str) else type(row).__name__
            size = len(row) if isinstance(row, str) else "no"
            raise CodeError(f"{what}: row {r + 1} {shown} has {size} cells, the puzzle {width}")
        for c, ch in enumerate(row):
            layer = alphabet.get(ch)
            if layer is None:
                allowed = ", ".join(repr(k) for k in alphabet)
                raise CodeError(
                    f"{what}: row {r + 1}, column {c + 1}: {ch!r} is not one of {allowed}"
                )
            if layer >= 0:
                found[layer][r * width + c] = "1"
    return [int("".join(reversed(cells)), 2) if cells else 0 for cells in found]


SHADING = {"#": 0, ".": -1, "+": -1, "-": -1}
"""A solution grid's alphabet: `#` shaded; `.`, `+` and `-` not."""


def format_shading(puzzle: Sized, shaded: int) -> list[str]:
    """A solution or player grid as rows of `#` (shaded) and `.` (not)."""
    return format_rows(puzzle.width, puzzle.height, [("#", shaded)], ".")


def parse_shading(puzzle: Sized, rows: Sequence[str]) -> int:
    """The shaded mask of rows of `#` and `.`; `CodeError` on anything else."""
    return parse_rows(rows, puzzle.width, puzzle.height, SHADING, "grid")[0]


def partial_rows(puzzle: Sized, shaded: int, empty: int) -> list[str]:
    """A partial grid: `#` shaded, `.` empty, `?` undecided."""
    return format_rows(puzzle.width, puzzle.height, [("#", shaded), (".", empty)], "?")
