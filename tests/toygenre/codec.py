"""Lights in and out: gridproof codes, puzz.link-style URLs and JSON.

- Code: `lights.1.WxH.PAYLOAD`, the payload three bits per cell in row-major order (0: no
  digit, 1 + d: the digit d) packed by `core.codes.pack_bits`; the values 6 and 7 are
  refused, so each puzzle has one code and `format_code(parse_code(c)) == c`.
- URL: `https://puzz.link/p?lights/COLS/ROWS/BODY`, the body one character per digit
  (`0`-`4`) and `a`-`z` for a run of 1 to 26 cells without one, as pzprjs writes numbers.
- JSON: `{"genre": "lights", "width", "height", "clues"}` with rows of digits or null.
Every error is a `CodeError` that says where it happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridproof.core import codes, pzpr
from gridproof.core.errors import CodeError, quote
from gridproof.core.grid import cell_name
from tests.toygenre.model import MAX_DIGIT, MAX_SIDE, Lights, make_puzzle

GENRE = "lights"
VERSION = 1
CELL_BITS = 3
RUNS = "abcdefghijklmnopqrstuvwxyz"
"""URL characters for a run of 1, 2, ... 26 cells without a digit."""


def parse_code(text: str) -> Lights:
    """The puzzle of a `lights.1.WxH.PAYLOAD` code."""
    parts = codes.split_genre_code(text, GENRE, VERSION)
    width, height = codes.parse_size(parts.params, "code params")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(f"code params: size {quote(parts.params)} exceeds {MAX_SIDE}x{MAX_SIDE}")
    bits = codes.unpack_bits(parts.payload, CELL_BITS * width * height, "code payload")
    clues: list[int | None] = []
    for cell in range(width * height):
        value = int("".join(map(str, bits[CELL_BITS * cell : CELL_BITS * (cell + 1)])), 2)
        if value > MAX_DIGIT + 1:
            raise CodeError(
                f"code payload: cell {cell_name(cell, width)} holds {value}, "
                f"not a digit code from 0 to {MAX_DIGIT + 1}"
            )
        clues.append(None if value == 0 else value - 1)
    return Lights(width, height, tuple(clues))


def format_code(puzzle: Lights) -> str:
    """The code of `puzzle`, the inverse of `parse_code`."""
    bits: list[int] = []
    for digit in puzzle.clues:
        value = 0 if digit is None else digit + 1
        bits.extend(value >> shift & 1 for shift in range(CELL_BITS - 1, -1, -1))
    params = codes.format_size(puzzle.width, puzzle.height)
    return codes.join_code(codes.CodeParts(GENRE, VERSION, params, codes.pack_bits(bits)))


def parse_url(url: str) -> Lights:
    """The puzzle of a Lights URL; CodeError for another genre, a bad character, or a
    body that is too short or too long for the board."""
    parts = pzpr.parse_url(url)
    if parts.genre != GENRE:
        raise CodeError(f"url is for the puzz.link genre {quote(parts.genre)}, not {GENRE!r}")
    if parts.cols > MAX_SIDE or parts.rows > MAX_SIDE:
        raise CodeError(f"url: size {parts.cols}x{parts.rows} exceeds {MAX_SIDE}x{MAX_SIDE}")
    size = parts.cols * parts.rows
    clues: list[int | None] = []
    for index, char in enumerate(parts.body):
        if len(clues) == size:
            raise CodeError(f"url body has {quote(parts.body[index:])} left over")
        if char in RUNS:
            run = RUNS.index(char) + 1
            if len(clues) + run > size:
                raise CodeError(
                    f"url body: {char!r} at position {index + 1} runs past the last cell"
                )
            clues.extend([None] * run)
        elif "0" <= char <= str(MAX_DIGIT):
            clues.append(int(char))
        else:
            raise CodeError(
                f"url body: character {quote(char)} at position {index + 1} is neither a "
                f"digit 0-{MAX_DIGIT} nor a run a-z"
            )
    if len(clues) != size:
        raise CodeError(f"url body {quote(parts.body)} covers {len(clues)} of {size} cells")
    return Lights(parts.cols, parts.rows, tuple(clues))


def format_url(puzzle: Lights) -> str:
    """The URL of `puzzle` (runs as long as they can be), the inverse of `parse_url`."""
    body, run = [], 0
    for digit in puzzle.clues:
        if digit is None:
            run += 1
            if run == len(RUNS):
                body.append(RUNS[-1])
                run = 0
            continue
        if run:
            body.append(RUNS[run - 1])
            run = 0
        body.append(str(digit))
    if run:
        body.append(RUNS[run - 1])
    return pzpr.format_url(GENRE, puzzle.width, puzzle.height, "".join(body))


def from_json(obj: Mapping[str, Any]) -> Lights:
    """The puzzle of a JSON object with `width`, `height` and `clues` (rows of digits or
    null) and optionally `genre`, which must then be 'lights'."""
    if not isinstance(obj, Mapping):
        raise CodeError(f"json: the puzzle is a {type(obj).__name__}, not an object")
    for key in ("width", "height", "clues"):
        if key not in obj:
            raise CodeError(f"json: the puzzle has no {key!r}")
    if "genre" in obj and obj["genre"] != GENRE:
        raise CodeError(f"json: genre {quote(str(obj['genre']))} is not {GENRE!r}")
    width, height = codes.json_int(obj["width"], "width"), codes.json_int(obj["height"], "height")
    rows = obj["clues"]
    if not codes.is_list(rows) or len(rows) != height:
        raise CodeError(f"json: 'clues' is not a list of {height} rows (the height)")
    for r, row in enumerate(rows):
        if not codes.is_list(row) or len(row) != width:
            raise CodeError(f"json: clues row {r + 1} is not a list of {width} cells (the width)")
        for c, value in enumerate(row):
            if value is not None:
                codes.json_int(value, f"clues row {r + 1}, column {c + 1}")
    try:
        return make_puzzle(rows)
    except CodeError as error:
        raise CodeError(f"json clues: {error}") from None


def to_json(puzzle: Lights) -> dict[str, Any]:
    """The JSON object of `puzzle`, the inverse of `from_json`."""
    return {
        "genre": GENRE,
        "width": puzzle.width,
        "height": puzzle.height,
        "clues": puzzle.clue_rows(),
    }
