"""Two more Nonogram text formats: Simon Tatham's Pattern game IDs and `.non` files.

- Pattern: `WxH:` then the W column clues left to right and the H row clues top to bottom,
  separated by `/`; within a line the runs are joined by `.`; an empty line is empty.
  (`N:` is accepted for `NxN:`; a `,` part with prefilled squares is not supported.)
- `.non` (Steve Simpson's format): lines of `width W`, `height H`, then `rows` followed by
  H rules and `columns` followed by W rules; a rule is comma-separated numbers, `0` or a
  blank line for an empty line. Blank lines elsewhere are ignored; `goal "0110..."` is the
  solution, row by row; other lines are properties (`title "..."`, quoted with `\\"` and
  `\\\\` escapes), which `read_non` keeps beside the puzzle and `format_non` writes back.
Every error is a `CodeError` that says where it happened.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gridproof.core.contract import Format
from gridproof.core.errors import CodeError, quote
from gridproof.genres.nonogram.model import MAX_SIDE, Clue, Nonogram, make_puzzle, validate

_PATTERN_SIZE = re.compile(r"([1-9][0-9]{0,5})(?:x([1-9][0-9]{0,5}))?")
_NUMBER = re.compile(r"[0-9]{1,6}")
_PATTERN_HEAD = re.compile(r"\s*[0-9]{1,7}(?:x[0-9]{1,7})?:")
_NON_SECTION = re.compile(r"^[ \t]*(?:rows|columns)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_NON_SIZE = re.compile(
    r"^[ \t]*(?:width|height|rows|columns)[ \t]+[0-9]", re.IGNORECASE | re.MULTILINE
)
_SIZE_KEYS = ("width", "height")
_PROPERTY = re.compile(r"[a-z][a-z0-9_-]*", re.IGNORECASE)


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


@dataclass(frozen=True, slots=True)
class NonFile:
    """What a `.non` file holds: the puzzle, its `goal` (the solution as a shaded mask, if
    given) and its other properties in file order (`("title", "Cat")`, ...)."""

    puzzle: Nonogram
    goal: int | None = None
    properties: tuple[tuple[str, str], ...] = ()


def is_pattern(text: str) -> bool:
    """Whether `text` starts like a Pattern game ID (`WxH:` or `N:`)."""
    return _PATTERN_HEAD.match(text) is not None


def is_non(text: str) -> bool:
    """Whether `text` looks like a `.non` file: a `width`/`height` line and a section."""
    return _NON_SIZE.search(text) is not None and _NON_SECTION.search(text) is not None


def parse_non(text: str) -> Nonogram:
    """The puzzle of a `.non` file's text."""
    return read_non(text).puzzle


def read_non(text: str) -> NonFile:
    """Everything a `.non` file's text holds; `CodeError` saying which line is wrong."""
    size: dict[str, int] = {}
    sections: dict[str, list[Clue]] = {}
    properties: list[tuple[str, str]] = []
    goal: tuple[int, str] | None = None
    lines = [line.strip() for line in text.splitlines()]
    i = 0
    while i < len(lines):
        number, line = i + 1, lines[i]
        i += 1
        if not line:
            continue
        key, *more = line.split(None, 1)
        key, rest = key.lower(), more[0].strip() if more else ""
        if key in ("width", "height", "rows", "columns") and rest:
            name = {"columns": "width", "rows": "height"}.get(key, key)
            _non_size(size, name, rest, number)
        elif key in ("rows", "columns"):
            sections[key] = _non_section(lines, i, key, size, sections)
            i += len(sections[key])
        elif key == "goal":
            goal = (number, _non_value(rest, number))
        elif _NUMBER.match(key):
            raise CodeError(f".non line {number}: rule {quote(line)} is outside a section")
        elif _PROPERTY.fullmatch(key):
            properties.append((key, _non_value(rest, number)))
    for key in ("rows", "columns"):
        if key not in sections:
            raise CodeError(f".non: the file has no '{key}' section")
    puzzle = make_puzzle(sections["rows"], sections["columns"])
    mask = None if goal is None else _non_goal(puzzle, *goal)
    return NonFile(puzzle, mask, tuple(properties))


def _non_section(
    lines: Sequence[str], start: int, key: str, size: dict[str, int], seen: dict[str, list[Clue]]
) -> list[Clue]:
    """The rules of a `rows` or `columns` section starting at `lines[start]`; a blank line
    is an empty line of the puzzle."""
    count_key = "height" if key == "rows" else "width"
    if count_key not in size:
        raise CodeError(f".non line {start}: '{key}' comes before '{count_key}'")
    if key in seen:
        raise CodeError(f".non line {start}: a second '{key}' section")
    block = lines[start : start + size[count_key]]
    if len(block) < size[count_key]:
        raise CodeError(f".non: '{key}' needs {size[count_key]} rules, the file ends")
    return [_non_rule(rule, start + 1 + n) for n, rule in enumerate(block)]


def _non_value(rest: str, number: int) -> str:
    """A property's value: a quoted string (with `\"` and `\\` escapes) or the bare rest."""
    if not rest.startswith('"'):
        return rest
    out, i = [], 1
    while i < len(rest):
        char = rest[i]
        if char == "\\" and i + 1 < len(rest):
            out.append(rest[i + 1])
            i += 2
        elif char == '"':
            return "".join(out)
        else:
            out.append(char)
            i += 1
    raise CodeError(f".non line {number}: {quote(rest)} has no closing quote")


def _non_goal(puzzle: Nonogram, number: int, value: str) -> int:
    cells = puzzle.width * puzzle.height
    if len(value) != cells or not set(value) <= {"0", "1"}:
        raise CodeError(f".non line {number}: goal is not {cells} digits 0 or 1")
    mask = sum(1 << i for i, char in enumerate(value) if char == "1")
    broken = validate(puzzle, mask)
    if broken:
        raise CodeError(f".non line {number}: goal does not fit the clues: {broken[0].text}")
    return mask


def _non_size(size: dict[str, int], name: str, value: str, number: int) -> None:
    if not _NUMBER.fullmatch(value.strip()) or int(value) < 1:
        raise CodeError(f".non line {number}: {name} {quote(value)} is not a positive number")
    if name in size and size[name] != int(value):
        raise CodeError(f".non line {number}: {name} given twice")
    size[name] = int(value)
    _size(size.get("width", 1), size.get("height", 1), f".non line {number}")


def _non_rule(rule: str, number: int) -> Clue:
    values = [v for v in re.split(r"[,\s]+", rule) if v]
    if not all(_NUMBER.fullmatch(v) for v in values):
        raise CodeError(f".non line {number}: rule {quote(rule)} is not comma-separated numbers")
    clue = tuple(int(v) for v in values)
    if clue in ((), (0,)):
        return ()
    if 0 in clue:
        raise CodeError(f".non line {number}: rule {quote(rule)} holds 0 beside other numbers")
    return clue


def format_non(
    puzzle: Nonogram,
    title: str | None = None,
    *,
    goal: int | None = None,
    properties: Sequence[tuple[str, str]] = (),
) -> str:
    """The `.non` text of `puzzle`, with an optional title, its goal (the solution mask)
    and other properties, each value quoted and escaped; `read_non` reads it back."""
    named = ([("title", title)] if title is not None else []) + [
        (key, value) for key, value in properties if key not in ("goal", *_SIZE_KEYS)
    ]
    out = [f"{_property_key(key)} {_quoted(value)}" for key, value in named]
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [",".join(map(str, clue)) or "0" for clue in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(map(str, clue)) or "0" for clue in puzzle.cols]
    if goal is not None:
        cells = puzzle.width * puzzle.height
        out += ["", f'goal "{"".join("1" if goal >> i & 1 else "0" for i in range(cells))}"']
    return "\n".join(out) + "\n"


def _property_key(key: str) -> str:
    if not _PROPERTY.fullmatch(key) or key.lower() in ("rows", "columns"):
        raise CodeError(f".non: {quote(key)} cannot be written as a property name")
    return key


def _quoted(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise CodeError(f".non: the value {quote(value)} spans lines, which .non cannot hold")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _read_pattern(text: str) -> tuple[Nonogram, int | None]:
    return parse_pattern(text), None


def _read_non(text: str) -> tuple[Nonogram, int | None]:
    read = read_non(text)
    return read.puzzle, read.goal


FORMATS: tuple[Format[Nonogram], ...] = (
    Format(
        "tatham",
        "Simon Tatham's Pattern game ID, WxH:COLUMNS/ROWS",
        is_pattern,
        _read_pattern,
        lambda puzzle, solution: format_pattern(puzzle),
    ),
    Format(
        "non",
        "a .non file (Steve Simpson's format), with the goal when the solution is known",
        is_non,
        _read_non,
        lambda puzzle, solution: format_non(puzzle, goal=solution),
    ),
)
