"""Two more Nonogram text formats: Simon Tatham's Pattern game IDs and `.non` files.

- Pattern: `WxH:` then the W column clues left to right and the H row clues top to bottom,
  separated by `/`; within a line the runs are joined by `.`; an empty line is empty.
  (`N:` is accepted for `NxN:`; a `,` part with prefilled squares is not supported.)
- `.non` (Steve Simpson's format): lines of `width W`, `height H`, then `rows` followed by
  H rules and `columns` followed by W rules; a rule is comma-separated numbers, `0` for an
  empty line. Blank lines are ignored, other unknown lines are properties (`title "..."`),
  kept out of the puzzle value.
Every error is a `CodeError` that says where it happened.
"""

from __future__ import annotations

import re

from gridproof.core.errors import CodeError, quote
from gridproof.genres.nonogram.model import MAX_SIDE, Clue, Nonogram, make_puzzle

_PATTERN_SIZE = re.compile(r"([1-9][0-9]{0,5})(?:x([1-9][0-9]{0,5}))?")
_NUMBER = re.compile(r"[0-9]{1,6}")


def _where(index: int, width: int) -> str:
    return f"column {index + 1}" if index < width else f"row {index - width + 1}"


def _size(width: int, height: int, where: str) -> None:
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(f"{where}: size {width}x{height} exceeds {MAX_SIDE}x{MAX_SIDE}")


def parse_pattern(text: str) -> Nonogram:
    """The puzzle of a Pattern game ID `WxH:c1/c2/.../r1/...`."""
    head, sep, desc = text.strip().partition(":")
    match = _PATTERN_SIZE.fullmatch(head)
    if not sep or match is None:
        raise CodeError(f"pattern id {quote(text.strip())} is not WIDTHxHEIGHT:CLUES")
    width = int(match[1])
    height = int(match[2]) if match[2] else width
    _size(width, height, "pattern id")
    if "," in desc:
        raise CodeError("pattern id: prefilled squares (after ',') are not supported")
    pieces = desc.split("/")
    if len(pieces) != width + height:
        raise CodeError(
            f"pattern id has {len(pieces)} clues, expected {width + height} "
            f"({width} columns then {height} rows)"
        )
    lines = [_pattern_clue(piece, _where(i, width)) for i, piece in enumerate(pieces)]
    return make_puzzle(lines[width:], lines[:width])


def _pattern_clue(piece: str, where: str) -> Clue:
    if piece == "":
        return ()
    values = piece.split(".")
    if not all(_NUMBER.fullmatch(v) for v in values):
        raise CodeError(f"pattern id: {where}: clue {quote(piece)} is not numbers joined by '.'")
    clue = tuple(int(v) for v in values)
    if 0 in clue:
        raise CodeError(f"pattern id: {where}: clue {quote(piece)} holds 0")
    return clue


def format_pattern(puzzle: Nonogram) -> str:
    """The Pattern game ID of `puzzle`, the inverse of `parse_pattern`."""
    desc = "/".join(".".join(map(str, clue)) for clue in puzzle.cols + puzzle.rows)
    return f"{puzzle.width}x{puzzle.height}:{desc}"


def parse_non(text: str) -> Nonogram:
    """The puzzle of a `.non` file's text."""
    size: dict[str, int] = {}
    sections: dict[str, list[Clue]] = {}
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)]
    lines = [(number, line) for number, line in lines if line]
    i = 0
    while i < len(lines):
        number, line = lines[i]
        words = line.split(None, 1)
        key = words[0].lower()
        i += 1
        if key in ("width", "height", "rows", "columns") and len(words) == 2:
            name = {"columns": "width", "rows": "height"}.get(key, key)
            _non_size(size, name, words[1], number)
        elif key in ("rows", "columns") and len(words) == 1:
            count_key = "height" if key == "rows" else "width"
            if count_key not in size:
                raise CodeError(f".non line {number}: '{key}' comes before '{count_key}'")
            if key in sections:
                raise CodeError(f".non line {number}: a second '{key}' section")
            block = lines[i : i + size[count_key]]
            if len(block) < size[count_key]:
                raise CodeError(f".non: '{key}' needs {size[count_key]} rules, the file ends")
            sections[key] = [_non_rule(rule, at) for at, rule in block]
            i += size[count_key]
    for key in ("rows", "columns"):
        if key not in sections:
            raise CodeError(f".non: the file has no '{key}' section")
    return make_puzzle(sections["rows"], sections["columns"])


def _non_size(size: dict[str, int], name: str, value: str, number: int) -> None:
    if not _NUMBER.fullmatch(value.strip()) or int(value) < 1:
        raise CodeError(f".non line {number}: {name} {quote(value)} is not a positive number")
    if name in size and size[name] != int(value):
        raise CodeError(f".non line {number}: {name} given twice")
    size[name] = int(value)
    _size(size.get("width", 1), size.get("height", 1), f".non line {number}")


def _non_rule(rule: str, number: int) -> Clue:
    values = [v for v in re.split(r"[,\s]+", rule) if v]
    if not values or not all(_NUMBER.fullmatch(v) for v in values):
        raise CodeError(f".non line {number}: rule {quote(rule)} is not comma-separated numbers")
    clue = tuple(int(v) for v in values)
    if clue == (0,):
        return ()
    if 0 in clue:
        raise CodeError(f".non line {number}: rule {quote(rule)} holds 0 beside other numbers")
    return clue


def format_non(puzzle: Nonogram, title: str | None = None) -> str:
    """The `.non` text of `puzzle` (with an optional title property)."""
    out = []
    if title is not None:
        out.append(f'title "{title}"')
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [",".join(map(str, clue)) or "0" for clue in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(map(str, clue)) or "0" for clue in puzzle.cols]
    return "\n".join(out) + "\n"
