"""Norinori in and out: gridproof codes, puzz.link URLs and corpus JSON.

- Code: `norinori.1.WxH.PAYLOAD`, the payload being the border bits in puzz.link's order
  (walls between horizontal neighbours row by row, then between vertical neighbours row by
  row) packed by `core.codes.pack_bits`. A wall inside one region has no second spelling:
  it is rejected, so `format_code(parse_code(c)) == c`.
- URL: `https://puzz.link/p?norinori/COLS/ROWS/BORDERS`, byte-identical to pzprjs.
- JSON: `{"genre": "norinori", "width", "height", "regions"}` with rows of int region ids.
- pzprv3 (puzz.link's save file, `core.pzprv3`): version 1, as puzz.link writes it today,
  holds rows lines of cols-1 wall flags between columns, rows-1 lines of cols flags between
  rows, then rows lines of cells (`#` shaded, `+` marked empty, `.` blank); version 0
  (older pzprjs) a region count and rows lines of region ids instead of the flags. Regions
  are what the walls enclose, as puzz.link plays them. The cells are the player's marks:
  a file whose shading is a solution loads with it as the solution, any other marks are
  not kept (`validate --grid` checks a partial grid). `src/variety/lits.js` of pzprjs.
Every error is a `CodeError` that says where it happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridproof.core import codes, pzpr, pzprv3
from gridproof.core.contract import Format
from gridproof.core.errors import CodeError, quote
from gridproof.genres.norinori.model import MAX_SIDE, Norinori, make_puzzle, validate

GENRE = "norinori"
VERSION = 1


def parse_code(text: str) -> Norinori:
    """The puzzle of a `norinori.1.WxH.PAYLOAD` code."""
    parts = codes.split_genre_code(text, GENRE, VERSION)
    width, height = codes.parse_size(parts.params, "code params")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(f"code params: size {quote(parts.params)} exceeds {MAX_SIDE}x{MAX_SIDE}")
    count = (width - 1) * height + width * (height - 1)
    bits = codes.unpack_bits(parts.payload, count, "code payload")
    return make_puzzle(pzpr.regions_from_walls(bits, width, height, "code payload"))


def format_code(puzzle: Norinori) -> str:
    """The code of `puzzle`, the inverse of `parse_code`."""
    payload = codes.pack_bits(pzpr.border_bits(puzzle.region_rows()))
    params = codes.format_size(puzzle.width, puzzle.height)
    return codes.join_code(codes.CodeParts(GENRE, VERSION, params, payload))


def parse_url(url: str) -> Norinori:
    """The puzzle of a puzz.link Norinori URL; CodeError for another genre or trailing junk."""
    parts = pzpr.parse_url(url)
    if parts.genre != GENRE:
        raise CodeError(f"url is for the puzz.link genre {quote(parts.genre)}, not {GENRE!r}")
    region_rows, rest = pzpr.decode_borders(parts.body, parts.cols, parts.rows)
    if rest:
        raise CodeError(f"url body has {quote(rest)} left over after the region borders")
    return make_puzzle(region_rows)


def format_url(puzzle: Norinori) -> str:
    """The puzz.link URL of `puzzle`, as pzprjs itself writes it."""
    body = pzpr.encode_borders(puzzle.region_rows())
    return pzpr.format_url(GENRE, puzzle.width, puzzle.height, body)


def from_json(obj: Mapping[str, Any]) -> Norinori:
    """The puzzle of a corpus-JSON object with `width`, `height` and `regions` (rows of int
    region ids) and optionally `genre`, which must then be 'norinori'."""
    if not isinstance(obj, Mapping):
        raise CodeError(f"json: the puzzle is a {type(obj).__name__}, not an object")
    for key in ("width", "height", "regions"):
        if key not in obj:
            raise CodeError(f"json: the puzzle has no {key!r}")
    if "genre" in obj and obj["genre"] != GENRE:
        raise CodeError(f"json: genre {quote(str(obj['genre']))} is not {GENRE!r}")
    width, height = codes.json_int(obj["width"], "width"), codes.json_int(obj["height"], "height")
    rows = obj["regions"]
    if not codes.is_list(rows) or len(rows) != height:
        raise CodeError(f"json: 'regions' is not a list of {height} rows (the height)")
    for r, row in enumerate(rows):
        if not codes.is_list(row) or len(row) != width:
            raise CodeError(f"json: regions row {r + 1} is not a list of {width} ids (the width)")
        for c, value in enumerate(row):
            codes.json_int(value, f"regions row {r + 1}, column {c + 1}")
    try:
        return make_puzzle(rows)
    except CodeError as error:
        raise CodeError(f"json regions: {error}") from None


def to_json(puzzle: Norinori) -> dict[str, Any]:
    """The corpus-JSON object of `puzzle`, the inverse of `from_json`."""
    return {
        "genre": GENRE,
        "width": puzzle.width,
        "height": puzzle.height,
        "regions": puzzle.region_rows(),
    }


_CELLS = {"#": 1, "+": 0, ".": 0}
_FLAGS = {"0": 0, "1": 1}


def parse_pzprv3(text: str) -> tuple[Norinori, int | None]:
    """The puzzle of a pzprv3 Norinori file (version 0 or 1) and its shading when that
    is a solution (None otherwise)."""
    file = pzprv3.parse_file(text, GENRE)
    pzprv3.check_size(file, MAX_SIDE)
    body, rows, cols = pzprv3.Body(file), file.rows, file.cols
    if file.version >= 1:
        across = body.cells(rows, cols - 1, "walls between columns", _FLAGS)
        down = body.cells(rows - 1, cols, "walls between rows", _FLAGS)
        bits = [bit for line in across + down for bit in line]
    else:
        body.number("the region count")
        bits = pzpr.border_bits(body.table(rows, cols, "region ids"))
    puzzle = make_puzzle(pzpr.regions_from_border_bits(bits, cols, rows))
    marks = body.cells(rows, cols, "cells", _CELLS)
    body.end()
    shaded = sum(1 << cell for cell, bit in enumerate(b for line in marks for b in line) if bit)
    return puzzle, shaded if shaded and not validate(puzzle, shaded) else None


def format_pzprv3(puzzle: Norinori, solution: int | None = None) -> str:
    """The pzprv3 file of `puzzle` (version 1, as puzz.link writes it), with `solution`'s
    cells shaded when given."""
    w, h = puzzle.width, puzzle.height
    bits = pzpr.border_bits(puzzle.region_rows())
    across = (w - 1) * h
    lines = [pzprv3.entries(map(str, bits[r * (w - 1) : (r + 1) * (w - 1)])) for r in range(h)]
    lines += [
        pzprv3.entries(map(str, bits[across + r * w : across + (r + 1) * w])) for r in range(h - 1)
    ]
    shaded = solution or 0
    lines += [
        pzprv3.entries("#" if shaded >> (r * w + c) & 1 else "." for c in range(w))
        for r in range(h)
    ]
    return pzprv3.format_file(GENRE, 1, h, w, lines)


def is_pzprv3(text: str) -> bool:
    """Whether `text` starts like a pzprv3 Norinori file."""
    return pzprv3.genre_of(text) == GENRE


FORMATS: tuple[Format[Norinori], ...] = (
    Format(
        "pzprv3",
        "puzz.link's save file (pzprv3), with the solution shaded when it is known",
        is_pzprv3,
        parse_pzprv3,
        format_pzprv3,
    ),
)
