"""Nonogram in and out: gridproof codes, puzz.link URLs and corpus JSON.

- Code: `nonogram.1.WxH.PAYLOAD`. The payload is a bit string (packed by
  `core.codes.pack_bits`) holding, for the columns left to right and then the rows top to
  bottom, the Elias gamma code of (number of clues + 1) followed by the gamma code of each
  clue. Gamma codes are a prefix code, and the payload must end within the last byte with
  zero bits, so `format_code(parse_code(c)) == c`.
- URL: `https://puzz.link/p?nonogram/COLS/ROWS/BODY`, byte-identical to pzprjs: ceil(rows/2)
  clue slots per column, then ceil(cols/2) per row, the slot nearest the grid first; `0`-`f`
  a value, `-xx` a two-digit hex value, `g`-`z` skip 1-20 empty slots.
- JSON: `{"genre": "nonogram", "width", "height", "rows", "cols"}` with lists of clue lists.
Every error is a `CodeError` that says where it happened. Tatham's Pattern IDs and the
`.non` format live in `formats`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gridproof.core import codes, pzpr
from gridproof.core.errors import CodeError, quote
from gridproof.genres.nonogram.model import MAX_SIDE, Clue, Nonogram, make_puzzle

GENRE = "nonogram"
VERSION = 1
_HEX = "0123456789abcdef"
_SKIPS = "ghijklmnopqrstuvwxyz"  # g = skip 1 ... z = skip 20


def _gamma(value: int) -> str:
    """The Elias gamma code of `value` >= 1 as a string of '0' and '1'."""
    body = format(value, "b")
    return "0" * (len(body) - 1) + body


def format_code(puzzle: Nonogram) -> str:
    """The code of `puzzle`, the inverse of `parse_code`."""
    text = "".join(
        _gamma(len(clue) + 1) + "".join(_gamma(v) for v in clue)
        for clue in puzzle.cols + puzzle.rows
    )
    payload = codes.pack_bits([int(bit) for bit in text])
    params = codes.format_size(puzzle.width, puzzle.height)
    return codes.join_code(codes.CodeParts(GENRE, VERSION, params, payload))


class _Reader:
    """Reads gamma codes off a bit string, with errors that say where."""

    def __init__(self, bits: str) -> None:
        self.bits = bits
        self.at = 0

    def gamma(self, most: int, what: str) -> int:
        zeros = 0
        while self.at + zeros < len(self.bits) and self.bits[self.at + zeros] == "0":
            zeros += 1
            if zeros > most.bit_length():
                raise CodeError(f"code payload: {what} is larger than {most}")
        end = self.at + 2 * zeros + 1
        if end > len(self.bits):
            raise CodeError(f"code payload ends in the middle of {what}")
        value = int(self.bits[self.at + zeros : end], 2)
        self.at = end
        if value > most:
            raise CodeError(f"code payload: {what} is {value}, more than {most}")
        return value


def parse_code(text: str) -> Nonogram:
    """The puzzle of a `nonogram.1.WxH.PAYLOAD` code."""
    parts = codes.split_genre_code(text, GENRE, VERSION)
    width, height = codes.parse_size(parts.params, "code params")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(f"code params: size {quote(parts.params)} exceeds {MAX_SIDE}x{MAX_SIDE}")
    nbytes = (len(parts.payload) * 6) // 8
    if codes.payload_length(8 * nbytes) != len(parts.payload):
        raise CodeError(f"code payload {quote(parts.payload)} has an impossible length")
    bits = "".join(map(str, codes.unpack_bits(parts.payload, 8 * nbytes, "code payload")))
    reader = _Reader(bits)
    lines: list[Clue] = []
    for index in range(width + height):
        n = height if index < width else width
        where = f"column {index + 1}" if index < width else f"row {index - width + 1}"
        count = reader.gamma(n + 2, f"the clue count of {where}") - 1
        lines.append(tuple(reader.gamma(n, f"a clue of {where}") for _ in range(count)))
    rest = bits[reader.at :]
    if len(rest) >= 8 or "1" in rest:
        raise CodeError(f"code payload {quote(parts.payload)} has data after the last row")
    return make_puzzle(lines[width:], lines[:width])


def parse_url(url: str) -> Nonogram:
    """The puzzle of a puzz.link Nonogram URL; CodeError for another genre or a bad body."""
    parts = pzpr.parse_url(url)
    if parts.genre != GENRE:
        raise CodeError(f"url is for the puzz.link genre {quote(parts.genre)}, not {GENRE!r}")
    cols, rows = parts.cols, parts.rows
    col_slots, row_slots = (rows + 1) // 2, (cols + 1) // 2
    values = _decode_slots(parts.body, cols * col_slots + rows * row_slots)
    lines = []
    for index in range(cols + rows):
        slots = col_slots if index < cols else row_slots
        first = index * col_slots if index < cols else cols * col_slots + (index - cols) * slots
        where = f"column {index + 1}" if index < cols else f"row {index - cols + 1}"
        lines.append(_slots_to_clue(values[first : first + slots], where))
    return make_puzzle(lines[cols:], lines[:cols])


def _decode_slots(body: str, total: int) -> list[int | None]:
    values: list[int | None] = []
    i = 0
    while i < len(body):
        char = body[i]
        if char in _HEX:
            values.append(_HEX.index(char))
            i += 1
        elif char == "-":
            digits = body[i + 1 : i + 3]
            if len(digits) != 2 or any(d not in _HEX for d in digits):
                raise CodeError(f"url body: '-' at position {i + 1} needs two hex digits")
            values.append(int(digits, 16))
            i += 3
        elif char in _SKIPS:
            values.extend([None] * (_SKIPS.index(char) + 1))
            i += 1
        elif char == ".":
            raise CodeError(f"url body: unknown clue '.' at position {i + 1} is not supported")
        else:
            raise CodeError(f"url body: character {quote(char)} at position {i + 1} is not a clue")
        if len(values) > total:
            raise CodeError(f"url body {quote(body)} holds more than the {total} clue slots")
    if len(values) < total:
        raise CodeError(f"url body {quote(body)} holds {len(values)} of {total} clue slots")
    return values


def _slots_to_clue(slots: Sequence[int | None], where: str) -> Clue:
    """A line's clue from its slots, nearest the grid first (so stored last block first)."""
    given = [v for v in slots if v is not None]
    if slots[len(given) :] != [None] * (len(slots) - len(given)) or None in slots[: len(given)]:
        raise CodeError(f"url: the clues of {where} are not packed toward the grid")
    if given == [0]:
        return ()
    if 0 in given:
        raise CodeError(f"url: {where} has a clue 0 beside other clues")
    return tuple(reversed(given))


def format_url(puzzle: Nonogram) -> str:
    """The puzz.link URL of `puzzle`, as pzprjs itself writes it."""
    cols, rows = puzzle.width, puzzle.height
    values: list[int | None] = []
    for index, clue in enumerate(puzzle.cols + puzzle.rows):
        slots = (rows + 1) // 2 if index < cols else (cols + 1) // 2
        values += list(reversed(clue)) + [None] * (slots - len(clue))
    return pzpr.format_url(GENRE, cols, rows, _encode_slots(values))


def _encode_slots(values: Sequence[int | None]) -> str:
    out = []
    gap = 0
    for value in [*values, -1]:
        if value is None:
            gap += 1
            continue
        while gap:
            step = min(gap, len(_SKIPS))
            out.append(_SKIPS[step - 1])
            gap -= step
        if value < 0:
            break
        if value > 255:
            raise CodeError(f"clue {value} is too large for a puzz.link URL (at most 255)")
        out.append(_HEX[value] if value < 16 else f"-{value:02x}")
    return "".join(out)


def from_json(obj: Mapping[str, Any]) -> Nonogram:
    """The puzzle of a corpus-JSON object with `rows` and `cols` (lists of clue lists) and
    optionally `width`, `height` (which must then agree) and `genre` ('nonogram')."""
    if not isinstance(obj, Mapping):
        raise CodeError(f"json: the puzzle is a {type(obj).__name__}, not an object")
    for key in ("rows", "cols"):
        if key not in obj:
            raise CodeError(f"json: the puzzle has no {key!r}")
    if "genre" in obj and obj["genre"] != GENRE:
        raise CodeError(f"json: genre {quote(str(obj['genre']))} is not {GENRE!r}")
    rows, cols = _json_lines(obj["rows"], "rows"), _json_lines(obj["cols"], "cols")
    for key, size in (("width", len(cols)), ("height", len(rows))):
        if key in obj:
            value = obj[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise CodeError(f"json: {key} {quote(repr(value))} is not an integer")
            if value != size:
                raise CodeError(f"json: {key} is {value} but there are {size} clues for it")
    try:
        return make_puzzle(rows, cols)
    except CodeError as error:
        raise CodeError(f"json clues: {error}") from None


def _json_lines(value: object, key: str) -> list[list[int]]:
    if not codes.is_list(value):
        raise CodeError(f"json: {key!r} is not a list of clue lists")
    assert isinstance(value, Sequence)
    out = []
    for index, clue in enumerate(value):
        where = f"{key[:-1] if key == 'rows' else 'column'} {index + 1}"
        if not codes.is_list(clue):
            raise CodeError(f"json: {where}: clue {quote(repr(clue))} is not a list of numbers")
        assert isinstance(clue, Sequence)
        for v in clue:
            if isinstance(v, bool) or not isinstance(v, int):
                raise CodeError(f"json: {where}: clue value {quote(repr(v))} is not an integer")
        out.append(list(clue))
    return out


def to_json(puzzle: Nonogram) -> dict[str, Any]:
    """The corpus-JSON object of `puzzle`, the inverse of `from_json`."""
    return {
        "genre": GENRE,
        "width": puzzle.width,
        "height": puzzle.height,
        "rows": [list(clue) for clue in puzzle.rows],
        "cols": [list(clue) for clue in puzzle.cols],
    }
