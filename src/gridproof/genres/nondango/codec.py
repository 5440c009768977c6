"""Nondango in and out: gridproof codes, puzz.link URLs, corpus JSON and text grids.

- Code: `nondango.1.WxH-RULE.PAYLOAD` with RULE `same` (no-three-same) or `black`
  (no-three-black); the payload is the border bits in puzz.link's order followed by one bit
  per cell, row-major, 1 = circle, packed by `core.codes.pack_bits`. A wall inside one
  region has no second spelling and is rejected, so `format_code(parse_code(c)) == c`.
- URL: `https://puzz.link/p?nondango/COLS/ROWS/BORDERS CIRCLES`, byte-identical to pzprjs:
  the circle bits are 1 = no circle, five to a base-32 digit. A URL always means
  no-three-same, so a no-three-black puzzle has none.
- JSON: `{"genre": "nondango", "width", "height", "regions", "circles", "rule"}`; a missing
  `rule` means no-three-same.
- Grids: rows of `#` (black circle), `o` (white circle) and `.` (no circle).
- pzprv3 (puzz.link's save file, `core.pzprv3`): a region count, rows lines of region ids,
  rows lines of cells: `o` a circle, `#` a circle painted black, `%` a circle marked white,
  `.` no circle, `+` no circle with a dot. Like a URL it means no-three-same. The marks
  load as the solution when the black circles are one (else they are not kept).
  `src/variety/nondango.js` of pzprjs.
Every error is a `CodeError` that says where it happened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gridproof.core import codes, grid, pzpr, pzprv3
from gridproof.core.contract import Format
from gridproof.core.errors import CodeError, quote
from gridproof.genres.nondango.model import (
    MAX_SIDE,
    Nondango,
    Variant,
    make_puzzle,
    parse_variant,
    validate,
)

GENRE = "nondango"
VERSION = 1
_RULE_PARAM = {Variant.NO_THREE_SAME: "same", Variant.NO_THREE_BLACK: "black"}
_PARAM_RULE = {v: k for k, v in _RULE_PARAM.items()}


def parse_code(text: str) -> Nondango:
    """The puzzle of a `nondango.1.WxH-RULE.PAYLOAD` code."""
    parts = codes.split_genre_code(text, GENRE, VERSION)
    size, dash, rule = parts.params.partition("-")
    if not dash or rule not in _PARAM_RULE:
        raise CodeError(
            f"code params {quote(parts.params)} are not WIDTHxHEIGHT-same or WIDTHxHEIGHT-black"
        )
    width, height = codes.parse_size(size, "code params")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(f"code params: size {quote(size)} exceeds {MAX_SIDE}x{MAX_SIDE}")
    walls = (width - 1) * height + width * (height - 1)
    bits = codes.unpack_bits(parts.payload, walls + width * height, "code payload")
    region_rows = pzpr.regions_from_walls(bits[:walls], width, height, "code payload")
    circle_rows = [bits[walls + r * width : walls + (r + 1) * width] for r in range(height)]
    return make_puzzle(region_rows, circle_rows, _PARAM_RULE[rule])


def format_code(puzzle: Nondango) -> str:
    """The code of `puzzle`, the inverse of `parse_code`."""
    circle_bits = [puzzle.circles >> cell & 1 for cell in range(puzzle.width * puzzle.height)]
    payload = codes.pack_bits(pzpr.border_bits(puzzle.region_rows()) + circle_bits)
    size = codes.format_size(puzzle.width, puzzle.height)
    params = f"{size}-{_RULE_PARAM[puzzle.variant]}"
    return codes.join_code(codes.CodeParts(GENRE, VERSION, params, payload))


def parse_url(url: str) -> Nondango:
    """The puzzle of a puzz.link Nondango URL (always no-three-same); CodeError for another
    genre, a short body or trailing junk."""
    parts = pzpr.parse_url(url)
    if parts.genre != GENRE:
        raise CodeError(f"url is for the puzz.link genre {quote(parts.genre)}, not {GENRE!r}")
    region_rows, rest = pzpr.decode_borders(parts.body, parts.cols, parts.rows)
    size = parts.cols * parts.rows
    needed = (size + 4) // 5
    if len(rest) < needed:
        raise CodeError(
            f"url body: the circles {quote(rest)} need {needed} characters for {size} cells"
        )
    if len(rest) > needed:
        raise CodeError(f"url body has {quote(rest[needed:])} left over after the circles")
    pzpr.check_base32(rest, "url circles")
    no_circle = pzpr.unpack_base32(rest, size, "url circles")
    circle_rows = [
        [1 - bit for bit in no_circle[r * parts.cols : (r + 1) * parts.cols]]
        for r in range(parts.rows)
    ]
    return make_puzzle(region_rows, circle_rows, Variant.NO_THREE_SAME)


def format_url(puzzle: Nondango) -> str:
    """The puzz.link URL of `puzzle`, as pzprjs itself writes it; CodeError for a
    no-three-black puzzle, which puzz.link would read as no-three-same."""
    if puzzle.variant is not Variant.NO_THREE_SAME:
        raise CodeError(
            "puzz.link plays Nondango as no-three-same only, "
            "so a no-three-black puzzle has no puzz.link URL"
        )
    no_circle = [1 - (puzzle.circles >> cell & 1) for cell in range(puzzle.width * puzzle.height)]
    body = pzpr.encode_borders(puzzle.region_rows()) + pzpr.pack_base32(no_circle)
    return pzpr.format_url(GENRE, puzzle.width, puzzle.height, body)


def from_json(obj: Mapping[str, Any]) -> Nondango:
    """The puzzle of a corpus-JSON object with `width`, `height`, `regions` (rows of int
    region ids), `circles` (rows of 0/1) and optionally `rule` and `genre` ('nondango')."""
    if not isinstance(obj, Mapping):
        raise CodeError(f"json: the puzzle is a {type(obj).__name__}, not an object")
    for key in ("width", "height", "regions", "circles"):
        if key not in obj:
            raise CodeError(f"json: the puzzle has no {key!r}")
    if obj.get("genre", GENRE) != GENRE:
        raise CodeError(f"json: genre {quote(str(obj['genre']))} is not {GENRE!r}")
    width, height = codes.json_int(obj["width"], "width"), codes.json_int(obj["height"], "height")
    regions = _json_rows(obj["regions"], "regions", width, height, lambda v: True)
    circles = _json_rows(obj["circles"], "circles", width, height, lambda v: v in (0, 1))
    variant = parse_variant(obj.get("rule", Variant.NO_THREE_SAME.value), "json")
    try:
        return make_puzzle(regions, circles, variant)
    except CodeError as error:
        raise CodeError(f"json: {error}") from None


def _json_rows(
    rows: object, key: str, width: int, height: int, allowed: Callable[[int], bool]
) -> list[list[int]]:
    if not isinstance(rows, Sequence) or isinstance(rows, str | bytes) or len(rows) != height:
        raise CodeError(f"json: {key!r} is not a list of {height} rows (the height)")
    out = []
    for r, row in enumerate(rows):
        if not codes.is_list(row) or len(row) != width:
            raise CodeError(f"json: {key} row {r + 1} is not a list of {width} values (the width)")
        values = [
            codes.json_int(v, f"{key} row {r + 1}, column {c + 1}") for c, v in enumerate(row)
        ]
        for c, value in enumerate(values):
            if not allowed(value):
                raise CodeError(f"json: {key} row {r + 1}, column {c + 1} is not 0 or 1")
        out.append(values)
    return out


def to_json(puzzle: Nondango) -> dict[str, Any]:
    """The corpus-JSON object of `puzzle`, the inverse of `from_json`."""
    return {
        "genre": GENRE,
        "width": puzzle.width,
        "height": puzzle.height,
        "regions": puzzle.region_rows(),
        "circles": puzzle.circle_rows(),
        "rule": puzzle.variant.value,
    }


GRID = {"#": 0, "o": -1, ".": -1, "%": -1, "+": -1, "-": -1}
"""A grid's alphabet: `#` a black circle; `o` a white circle, `.` no circle, and the
player's marks `%`, `+` and `-`, none of them black."""


def format_grid(puzzle: Nondango, black: int) -> list[str]:
    """Rows of `#` (black circle), `o` (white circle) and `.` (no circle); paint on a cell
    without a circle still shows as `#`, so the validator can name it."""
    return grid.format_rows(puzzle.width, puzzle.height, [("#", black), ("o", puzzle.circles)], ".")


def parse_grid(puzzle: Nondango, rows: Sequence[str]) -> int:
    """The black mask of rows of text: `#` is black; `o`, `.`, `%`, `+` and `-` are not."""
    return grid.parse_rows(rows, puzzle.width, puzzle.height, GRID, "grid")[0]


_CELLS = {"o": (1, 0), "#": (1, 1), "%": (1, 0), ".": (0, 0), "+": (0, 0)}
"""A pzprv3 cell: (holds a circle, painted black)."""


def parse_pzprv3(text: str) -> tuple[Nondango, int | None]:
    """The puzzle of a pzprv3 Nondango file and its black circles when they are a
    solution (None otherwise)."""
    file = pzprv3.parse_file(text, GENRE)
    pzprv3.check_size(file, MAX_SIDE)
    body, rows, cols = pzprv3.Body(file), file.rows, file.cols
    body.number("the region count")
    bits = pzpr.border_bits(body.table(rows, cols, "region ids"))
    region_rows = pzpr.regions_from_border_bits(bits, cols, rows)
    cells = body.cells(rows, cols, "cells", _CELLS)
    body.end()
    circle_rows = [[circle for circle, _ in line] for line in cells]
    puzzle = make_puzzle(region_rows, circle_rows, Variant.NO_THREE_SAME)
    flat = [black for line in cells for _, black in line]
    black = sum(1 << cell for cell, bit in enumerate(flat) if bit)
    return puzzle, black if black and not validate(puzzle, black) else None


def format_pzprv3(puzzle: Nondango, solution: int | None = None) -> str:
    """The pzprv3 file of `puzzle`, with `solution`'s circles painted when given;
    CodeError for a no-three-black puzzle, which puzz.link would play as no-three-same."""
    if puzzle.variant is not Variant.NO_THREE_SAME:
        raise CodeError(
            "puzz.link plays Nondango as no-three-same only, "
            "so a no-three-black puzzle has no pzprv3 file"
        )
    w, h = puzzle.width, puzzle.height
    black = solution or 0

    def cell(index: int) -> str:
        if not puzzle.circles >> index & 1:
            return "."
        return "#" if black >> index & 1 else "o"

    lines = [str(puzzle.region_count)]
    lines += [pzprv3.entries(map(str, row)) for row in puzzle.region_rows()]
    lines += [pzprv3.entries(cell(r * w + c) for c in range(w)) for r in range(h)]
    return pzprv3.format_file(GENRE, 0, h, w, lines)


def is_pzprv3(text: str) -> bool:
    """Whether `text` starts like a pzprv3 Nondango file."""
    return pzprv3.genre_of(text) == GENRE


FORMATS: tuple[Format[Nondango], ...] = (
    Format(
        "pzprv3",
        "puzz.link's save file (pzprv3), with the solution's circles painted when known",
        is_pzprv3,
        parse_pzprv3,
        format_pzprv3,
    ),
)
