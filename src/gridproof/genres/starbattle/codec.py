"""Star Battle in and out: gridproof codes, puzz.link URLs and corpus JSON.

- Code: `starbattle.1.WxHsK.PAYLOAD`, K the star count and the payload the border bits in
  puzz.link's order packed by `core.codes.pack_bits` (as Norinori's codes).
- URL: `https://puzz.link/p?starbattle/COLS/ROWS/K/BORDERS`: pzprjs writes the star count
  and a slash before the region borders (its `encodeStarCount`, then `encodeBorder`).
- JSON: `{"genre": "starbattle", "width", "height", "stars", "regions"}` with rows of int
  region ids, the corpus schema.
- pzprv3 (puzz.link's save file, `core.pzprv3`, version 0): the star count, the region
  count, rows lines of region ids, rows lines of cells (`#` a star, `+` a cell marked
  empty, `.` undecided), as `src/variety/starbattle.js` of pzprjs lays them out (its
  `FileIO`, with the shared `decodeAreaRoom` and `decodeCellAns`). The stars load as the
  solution when they are one (else they are not kept).
Every error is a `CodeError` that says where it happened.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gridproof.core import codes, pzpr, pzprv3
from gridproof.core.contract import Format
from gridproof.core.errors import CodeError, quote
from gridproof.genres.starbattle.model import MAX_SIDE, StarBattle, make_puzzle, validate

GENRE = "starbattle"
VERSION = 1
_PARAMS = re.compile(r"([0-9]+x[0-9]+)s([0-9])")
_STARS = re.compile(r"[0-9]{1,2}")


def parse_code(text: str) -> StarBattle:
    """The puzzle of a `starbattle.1.WxHsK.PAYLOAD` code."""
    parts = codes.split_genre_code(text, GENRE, VERSION)
    match = _PARAMS.fullmatch(parts.params)
    if match is None:
        raise CodeError(f"code params: {quote(parts.params)} is not WxHsK (size and stars)")
    width, height = codes.parse_size(match[1], "code params")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(f"code params: size {quote(match[1])} exceeds {MAX_SIDE}x{MAX_SIDE}")
    count = (width - 1) * height + width * (height - 1)
    bits = codes.unpack_bits(parts.payload, count, "code payload")
    rows = pzpr.regions_from_walls(bits, width, height, "code payload")
    return make_puzzle(rows, int(match[2]))


def format_code(puzzle: StarBattle) -> str:
    """The code of `puzzle`, the inverse of `parse_code`."""
    payload = codes.pack_bits(pzpr.border_bits(puzzle.region_rows()))
    params = f"{codes.format_size(puzzle.width, puzzle.height)}s{puzzle.stars}"
    return codes.join_code(codes.CodeParts(GENRE, VERSION, params, payload))


def parse_url(url: str) -> StarBattle:
    """The puzzle of a puzz.link Star Battle URL; CodeError for another genre or junk."""
    parts = pzpr.parse_url(url)
    if parts.genre != GENRE:
        raise CodeError(f"url is for the puzz.link genre {quote(parts.genre)}, not {GENRE!r}")
    stars, slash, body = parts.body.partition("/")
    if not slash or not _STARS.fullmatch(stars):
        raise CodeError(f"url body {quote(parts.body)} does not start with the star count and '/'")
    region_rows, rest = pzpr.decode_borders(body, parts.cols, parts.rows)
    if rest:
        raise CodeError(f"url body has {quote(rest)} left over after the region borders")
    return make_puzzle(region_rows, int(stars))


def format_url(puzzle: StarBattle) -> str:
    """The puzz.link URL of `puzzle`, as pzprjs itself writes it."""
    body = f"{puzzle.stars}/{pzpr.encode_borders(puzzle.region_rows())}"
    return pzpr.format_url(GENRE, puzzle.width, puzzle.height, body)


def from_json(obj: Mapping[str, Any]) -> StarBattle:
    """The puzzle of a corpus-JSON object with `width`, `height`, `stars` and `regions`
    (rows of int region ids) and optionally `genre`, which must then be 'starbattle'."""
    if not isinstance(obj, Mapping):
        raise CodeError(f"json: the puzzle is a {type(obj).__name__}, not an object")
    for key in ("width", "height", "stars", "regions"):
        if key not in obj:
            raise CodeError(f"json: the puzzle has no {key!r}")
    if "genre" in obj and obj["genre"] != GENRE:
        raise CodeError(f"json: genre {quote(str(obj['genre']))} is not {GENRE!r}")
    width, height = codes.json_int(obj["width"], "width"), codes.json_int(obj["height"], "height")
    stars = codes.json_int(obj["stars"], "stars")
    rows = obj["regions"]
    if not codes.is_list(rows) or len(rows) != height:
        raise CodeError(f"json: 'regions' is not a list of {height} rows (the height)")
    for r, row in enumerate(rows):
        if not codes.is_list(row) or len(row) != width:
            raise CodeError(f"json: regions row {r + 1} is not a list of {width} ids (the width)")
        for c, value in enumerate(row):
            codes.json_int(value, f"regions row {r + 1}, column {c + 1}")
    try:
        return make_puzzle(rows, stars)
    except CodeError as error:
        raise CodeError(f"json: {error}") from None


def to_json(puzzle: StarBattle) -> dict[str, Any]:
    """The corpus-JSON object of `puzzle`, the inverse of `from_json`."""
    return {
        "genre": GENRE,
        "width": puzzle.width,
        "height": puzzle.height,
        "stars": puzzle.stars,
        "regions": puzzle.region_rows(),
    }


_CELLS = {"#": 1, "+": 0, ".": 0}


def parse_pzprv3(text: str) -> tuple[StarBattle, int | None]:
    """The puzzle of a pzprv3 Star Battle file and its stars when they are a solution
    (None otherwise)."""
    file = pzprv3.parse_file(text, GENRE)
    pzprv3.check_size(file, MAX_SIDE)
    body, rows, cols = pzprv3.Body(file), file.rows, file.cols
    stars = body.number("the star count")
    body.number("the region count")
    bits = pzpr.border_bits(body.table(rows, cols, "region ids"))
    region_rows = pzpr.regions_from_border_bits(bits, cols, rows)
    marks = body.cells(rows, cols, "cells", _CELLS)
    body.end()
    try:
        puzzle = make_puzzle(region_rows, stars)
    except CodeError as error:
        raise CodeError(f"pzprv3: {error}") from None
    placed = sum(1 << cell for cell, bit in enumerate(b for line in marks for b in line) if bit)
    return puzzle, placed if placed and not validate(puzzle, placed) else None


def format_pzprv3(puzzle: StarBattle, solution: int | None = None) -> str:
    """The pzprv3 file of `puzzle` (as puzz.link writes it), with `solution`'s stars when
    given."""
    w, h = puzzle.width, puzzle.height
    placed = solution or 0
    lines = [str(puzzle.stars), str(puzzle.region_count)]
    lines += [pzprv3.entries(map(str, row)) for row in puzzle.region_rows()]
    lines += [
        pzprv3.entries("#" if placed >> (r * w + c) & 1 else "." for c in range(w))
        for r in range(h)
    ]
    return pzprv3.format_file(GENRE, 0, h, w, lines)


def is_pzprv3(text: str) -> bool:
    """Whether `text` starts like a pzprv3 Star Battle file."""
    return pzprv3.genre_of(text) == GENRE


FORMATS: tuple[Format[StarBattle], ...] = (
    Format(
        "pzprv3",
        "puzz.link's save file (pzprv3), with the solution's stars when known",
        is_pzprv3,
        parse_pzprv3,
        format_pzprv3,
    ),
)
