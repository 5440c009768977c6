"""Norinori in and out: gridproof codes, puzz.link URLs and corpus JSON.

- Code: `norinori.1.WxH.PAYLOAD`, the payload being the border bits in puzz.link's order
  (walls between horizontal neighbours row by row, then between vertical neighbours row by
  row) packed by `core.codes.pack_bits`. A wall inside one region has no second spelling:
  it is rejected, so `format_code(parse_code(c)) == c`.
- URL: `https://puzz.link/p?norinori/COLS/ROWS/BORDERS`, byte-identical to pzprjs.
- JSON: `{"genre": "norinori", "width", "height", "regions"}` with rows of int region ids.
Every error is a `CodeError` that says where it happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridproof.core import codes, pzpr
from gridproof.core.errors import CodeError, quote
from gridproof.genres.norinori.model import MAX_SIDE, Norinori, make_puzzle

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
