"""The puzz.link (pzprjs) URL grammar shared by genres; see docs/formats.md.

A URL is `https://puzz.link/p?GENRE/COLS/ROWS/BODY`, width first. The older host
`pzv.jp/p.html?` uses the same grammar, a `_edit` or `_play` suffix on the genre selects
a mode, and the scheme may be left out. Bodies are built from base-32 digits `0-9a-v`,
five bits each, most significant first. Region borders (Norinori, Nondango) are two
zero-padded bit strings: walls between horizontal neighbours row by row, then walls between
vertical neighbours row by row; 1 is a wall.

Glossary: `region_rows` are rows of region ids; `border bits` are the walls in the order
above, without padding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gridproof.core.errors import CodeError, quote
from gridproof.core.grid import cell_name

MAX_SIDE = 100
BASE32 = "0123456789abcdefghijklmnopqrstuv"
_BASE32_VALUE = {char: value for value, char in enumerate(BASE32)}
_URL = re.compile(r"(?:https?://)?(?:www\.)?(?:puzz\.link|pzv\.jp)/p(?:\.html)?\?(.*)", re.S)
_GENRE = re.compile(r"[a-z0-9]+")
_SIDE = re.compile(r"[0-9]{1,3}")


@dataclass(frozen=True, slots=True)
class PzprUrl:
    """A puzz.link URL taken apart: the genre (without a mode suffix), size and body."""

    genre: str
    cols: int
    rows: int
    body: str


def parse_url(url: str) -> PzprUrl:
    """The parts of a puzz.link or pzv.jp URL; CodeError for any other form or a bad size."""
    text = url.strip()
    match = _URL.fullmatch(text)
    if match is None:
        raise CodeError(
            f"url {quote(text)} is not a puzz.link URL (https://puzz.link/p?GENRE/COLS/ROWS/...)"
        )
    pieces = match[1].split("/", 3)
    if len(pieces) < 4:
        raise CodeError(f"url {quote(text)}: expected GENRE/COLS/ROWS/BODY after '?'")
    genre, cols, rows, body = pieces
    genre = genre.removesuffix("_edit").removesuffix("_play")
    if not _GENRE.fullmatch(genre):
        raise CodeError(f"url {quote(text)}: genre {quote(genre)} is not a puzz.link genre name")
    return PzprUrl(genre, _parse_side(cols, "columns"), _parse_side(rows, "rows"), body)


def _parse_side(text: str, what: str) -> int:
    if not _SIDE.fullmatch(text) or not 1 <= int(text) <= MAX_SIDE:
        raise CodeError(f"url: {what} {quote(text)} is not a number from 1 to {MAX_SIDE}")
    return int(text)


def format_url(genre: str, cols: int, rows: int, body: str) -> str:
    """`https://puzz.link/p?GENRE/COLS/ROWS/BODY`."""
    return f"https://puzz.link/p?{genre}/{cols}/{rows}/{body}"


def pack_base32(bits: Sequence[int]) -> str:
    """Bits as base-32 digits, five per digit, MSB first, the last digit zero-padded."""
    digits = []
    for start in range(0, len(bits), 5):
        chunk = list(bits[start : start + 5])
        chunk += [0] * (5 - len(chunk))
        digits.append(BASE32[int("".join(str(bit) for bit in chunk), 2)])
    return "".join(digits)


def unpack_base32(text: str, count: int, where: str) -> list[int]:
    """The first `count` bits of base-32 `text`, which must be exactly ceil(count / 5)
    digits. Padding bits are ignored, as pzprjs does. CodeError quotes a bad digit."""
    if len(text) != (count + 4) // 5:
        raise CodeError(f"{where}: {quote(text)} has {len(text)} digits, not {(count + 4) // 5}")
    check_base32(text, where)
    bits: list[int] = []
    for char in text:
        value = _BASE32_VALUE[char]
        bits.extend(value >> shift & 1 for shift in range(4, -1, -1))
    return bits[:count]


def check_base32(text: str, where: str) -> None:
    """CodeError quoting the first character of `text` that is not a base-32 digit."""
    for index, char in enumerate(text):
        if char not in _BASE32_VALUE:
            raise CodeError(
                f"{where}: character {quote(char)} at position {index + 1} of {quote(text)} "
                "is not a base-32 digit (0-9, a-v)"
            )


def border_bits(region_rows: Sequence[Sequence[object]]) -> list[int]:
    """The walls of a rectangular grid of region ids in puzz.link order, 1 = wall."""
    rows, cols = len(region_rows), len(region_rows[0])
    across = [
        int(region_rows[r][c] != region_rows[r][c + 1])
        for r in range(rows)
        for c in range(cols - 1)
    ]
    down = [
        int(region_rows[r][c] != region_rows[r + 1][c])
        for r in range(rows - 1)
        for c in range(cols)
    ]
    return across + down


def regions_from_border_bits(bits: Sequence[int], cols: int, rows: int) -> list[list[int]]:
    """Region-id rows: the connected components of cells not separated by a wall, numbered
    by first appearance in row-major order. `bits` is in `border_bits` order."""
    across = (cols - 1) * rows
    if len(bits) != across + cols * (rows - 1):
        raise ValueError("wrong number of border bits")
    labels = [-1] * (cols * rows)
    count = 0
    for start in range(cols * rows):
        if labels[start] >= 0:
            continue
        labels[start] = count
        todo = [start]
        while todo:
            cell = todo.pop()
            r, c = divmod(cell, cols)
            steps = (
                (c + 1 < cols and not bits[r * (cols - 1) + c], cell + 1),
                (c > 0 and not bits[r * (cols - 1) + c - 1], cell - 1),
                (r + 1 < rows and not bits[across + cell], cell + cols),
                (r > 0 and not bits[across + cell - cols], cell - cols),
            )
            for open_, other in steps:
                if open_ and labels[other] < 0:
                    labels[other] = count
                    todo.append(other)
        count += 1
    return [labels[r * cols : (r + 1) * cols] for r in range(rows)]


def decode_borders(body: str, cols: int, rows: int) -> tuple[list[list[int]], str]:
    """Region-id rows from the border part at the start of `body`, and the rest of `body`.

    CodeError if the body is too short or holds a character that is not base-32.
    """
    across, down = (cols - 1) * rows, cols * (rows - 1)
    len_across, len_down = (across + 4) // 5, (down + 4) // 5
    needed = len_across + len_down
    if len(body) < needed:
        raise CodeError(
            f"url body {quote(body)} is too short: {cols}x{rows} borders need {needed} characters"
        )
    check_base32(body[:needed], "url body")
    bits = unpack_base32(body[:len_across], across, "url borders")
    bits += unpack_base32(body[len_across:needed], down, "url borders")
    return regions_from_border_bits(bits, cols, rows), body[needed:]


def encode_borders(region_rows: Sequence[Sequence[int]]) -> str:
    """The border part of a body for rectangular region-id rows (inverse of decode_borders)."""
    cols, rows = len(region_rows[0]), len(region_rows)
    bits = border_bits(region_rows)
    across = (cols - 1) * rows
    return pack_base32(bits[:across]) + pack_base32(bits[across:])


def regions_from_walls(bits: Sequence[int], cols: int, rows: int, where: str) -> list[list[int]]:
    """The region rows that border bits draw, refusing a wall inside one region (it has no
    second spelling, so a code that held one would not round-trip): CodeError at `where`
    naming the first such wall."""
    region_rows = regions_from_border_bits(bits, cols, rows)
    across = (cols - 1) * rows
    for index, (given, needed) in enumerate(zip(bits, border_bits(region_rows), strict=True)):
        if given != needed:
            if index < across:
                r, c = divmod(index, cols - 1)
                a, b = r * cols + c, r * cols + c + 1
            else:
                a = index - across
                b = a + cols
            raise CodeError(
                f"{where}: the wall between {cell_name(a, cols)} and "
                f"{cell_name(b, cols)} lies inside one region"
            )
    return region_rows
