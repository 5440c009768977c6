"""Three more Nonogram text formats: Simon Tatham's Pattern game IDs, `.non` files and
puzz.link's pzprv3 save files.

- Pattern: `WxH:` then the W column clues left to right and the H row clues top to bottom,
  separated by `/`; within a line the runs are joined by `.`; an empty line is empty.
  (`N:` is accepted for `NxN:`.) A `,` part lists prefilled squares, as Pattern's
  `validate_desc` and `new_game` read it: each letter skips as many cells as its distance
  from `a` and then fixes the next cell, shaded for a capital and empty for a small letter;
  `z`/`Z` skips 25 cells and fixes none. The puzzle value holds clues only, so an ID with
  prefilled squares is read when they follow from the clues: the clues alone are counted
  (under a fixed work budget, `PREFILLED_WORK`, so the answer is the same on every
  machine) and must have one solution that agrees with every prefilled square, or none;
  squares that decide something the clues leave open, or contradict their one solution,
  are a `CodeError` saying which. Writing gives the clues, and for a board plain line
  solving (Pattern's own solver) cannot finish, the prefilled squares of its solution
  that let it finish (`line_squares`), so every exported ID is playable in Pattern.
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

from gridproof.core import pzprv3
from gridproof.core.contract import Format
from gridproof.core.deadline import Deadline, check_reading, parsing_deadline
from gridproof.core.errors import CodeError, quote
from gridproof.core.grid import bits, cell_name, low_bit, mask_of
from gridproof.core.outcome import Verdict
from gridproof.genres.nonogram import solve
from gridproof.genres.nonogram.engine import Board, Grid, Propagator
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
PREFILLED_WORK = 200_000
"""The work budget (solver operations) for showing that a Pattern ID's prefilled squares
follow from its clues: measured on the janko corpus, a 30x30 needs at most about 14,000
(0.2 s here). The count also stops at the caller's deadline (`parsing_within`) and after
`PREFILLED_S` seconds: a large ID's budget could take a minute (a 100x100 one 6-25 s)."""
PREFILLED_S = 5.0
_SKIP_ALL = 25


def _where(index: int, width: int) -> str:
    return f"column {index + 1}" if index < width else f"row {index - width + 1}"


def _size(width: int, height: int, where: str) -> None:
    if width > MAX_SIDE or height > MAX_SIDE:
        raise CodeError(f"{where}: size {width}x{height} exceeds {MAX_SIDE}x{MAX_SIDE}")


def parse_pattern(text: str) -> Nonogram:
    """The puzzle of a Pattern game ID `WxH:c1/c2/.../r1/...`, optionally followed by
    `,` and prefilled squares that the clues imply (see the module's docstring)."""
    head, sep, desc = text.strip().partition(":")
    match = _PATTERN_SIZE.fullmatch(head)
    if not sep or match is None:
        raise CodeError(f"pattern id {quote(text.strip())} is not WIDTHxHEIGHT:CLUES")
    width = int(match[1])
    height = int(match[2]) if match[2] else width
    _size(width, height, "pattern id")
    desc, comma, squares = desc.partition(",")
    pieces = desc.split("/")
    if len(pieces) != width + height:
        raise CodeError(
            f"pattern id has {len(pieces)} clues, expected {width + height} "
            f"({width} columns then {height} rows)"
        )
    lines = [_pattern_clue(piece, _where(i, width)) for i, piece in enumerate(pieces)]
    puzzle = make_puzzle(lines[width:], lines[:width])
    if comma:
        shaded, empty = _prefilled(squares, width * height)
        _check_implied(puzzle, shaded, empty)
    return puzzle


def _prefilled(squares: str, cells: int) -> tuple[int, int]:
    """The (shaded, empty) masks a Pattern ID's prefilled-squares part fixes (linear in
    its length: the cells are listed, then made masks once)."""
    shaded: list[int] = []
    empty: list[int] = []
    at = 0
    for index, char in enumerate(squares):
        if at >= cells:
            raise CodeError(
                f"pattern id: prefilled squares: {quote(squares[index:])} is left after "
                f"the last of the {cells} cells"
            )
        if not ("a" <= char <= "z" or "A" <= char <= "Z"):
            raise CodeError(
                f"pattern id: prefilled squares: character {quote(char)} at position "
                f"{index + 1} is not a letter"
            )
        skip = ord(char.lower()) - ord("a")
        at += skip
        if skip < _SKIP_ALL and at < cells:
            (shaded if char.isupper() else empty).append(at)
            at += 1
        if at > cells:
            raise CodeError(
                f"pattern id: prefilled squares: {quote(char)} at position {index + 1} "
                f"skips past the last of the {cells} cells"
            )
    if at < cells:
        raise CodeError(
            f"pattern id: prefilled squares {quote(squares)} cover {at} of the {cells} cells"
        )
    return mask_of(shaded), mask_of(empty)


def _check_implied(puzzle: Nonogram, shaded: int, empty: int) -> None:
    """CodeError unless the prefilled squares add nothing to the clues: the clues alone
    have one solution and it agrees with every square, or they have none."""
    if not shaded | empty:
        return
    deadline = parsing_deadline().within(PREFILLED_S, work=PREFILLED_WORK)
    outcome = solve.count(puzzle, 2, deadline, sat=False)
    if outcome.verdict is Verdict.NONE:
        return
    if outcome.verdict is Verdict.UNIQUE:
        (solution,) = outcome.solutions
        wrong = (shaded & ~solution) | (empty & solution)
        if wrong:
            cell = (wrong & -wrong).bit_length() - 1
            given = "shaded" if shaded >> cell & 1 else "empty"
            raise CodeError(
                f"pattern id: the prefilled square {cell_name(cell, puzzle.width)} is {given}, "
                "but the clues' one solution has it the other way: the ID has no solution"
            )
        return
    if outcome.verdict is Verdict.MULTIPLE:
        raise CodeError(
            "pattern id: the prefilled squares decide what the clues leave open (the clues "
            "alone have several solutions), and a gridproof Nonogram holds clues only"
        )
    within = "work budget" if deadline.out_of_work() else "time allowed"
    raise CodeError(
        f"pattern id: could not show within the {within} that the prefilled squares "
        "follow from the clues, and a gridproof Nonogram holds clues only"
    )


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


def format_pattern(puzzle: Nonogram, solution: int | None = None, *, squares: bool = False) -> str:
    """The Pattern game ID of `puzzle`, the inverse of `parse_pattern`. With `squares`, a
    board that plain line solving (Pattern's own solver) cannot finish gets the prefilled
    squares of `solution` (counted within `PREFILLED_S` and `PREFILLED_WORK` when not
    given) that let it finish: see `line_squares`."""
    desc = "/".join(".".join(map(str, clue)) for clue in puzzle.cols + puzzle.rows)
    head = f"{puzzle.width}x{puzzle.height}:{desc}"
    if not squares:
        return head
    if solution is None:
        deadline = parsing_deadline().within(PREFILLED_S, work=PREFILLED_WORK)
        outcome = solve.count(puzzle, 2, deadline, sat=False)
        if outcome.verdict is not Verdict.UNIQUE:
            return head  # nothing to prefill from: Pattern gets the clues alone
        (solution,) = outcome.solutions
    shaded, empty = line_squares(puzzle, solution)
    if not shaded | empty:
        return head
    return f"{head},{_squares_text(shaded, empty, puzzle.width * puzzle.height)}"


def line_squares(puzzle: Nonogram, solution: int) -> tuple[int, int]:
    """The (shaded, empty) masks of the cells of `solution` to prefill so that plain line
    solving finishes the board: none for a line-solvable board. Whenever line solving
    stalls, the undecided cell of the line with the fewest undecided cells is given (the
    lowest such cell first), so each square tends to finish a line and start the next."""
    board = Board(puzzle)
    grid = Grid.blank(board)
    lines = Propagator(board, Deadline())
    width, height = puzzle.width, puzzle.height
    full = (1 << width) - 1
    shaded = empty = 0
    while lines.run(grid):
        open_rows = [(full & ~(grid.filled[r] | grid.empty[r])).bit_count() for r in range(height)]
        open_cols = [
            ((1 << height) - 1 & ~(grid.filled[height + c] | grid.empty[height + c])).bit_count()
            for c in range(width)
        ]
        choices = [(n, 0, r) for r, n in enumerate(open_rows) if n] + [
            (n, 1, c) for c, n in enumerate(open_cols) if n
        ]
        if not choices:
            return shaded, empty
        _, is_col, index = min(choices)
        if is_col:
            undecided = (1 << height) - 1 & ~(
                grid.filled[height + index] | grid.empty[height + index]
            )
            row, col = low_bit(undecided), index
        else:
            undecided = full & ~(grid.filled[index] | grid.empty[index])
            row, col = index, low_bit(undecided)
        cell = row * width + col
        black = bool(solution >> cell & 1)
        grid.set_cell(board, row, col, black)
        if black:
            shaded |= 1 << cell
        else:
            empty |= 1 << cell
    raise CodeError("pattern id: the solution given does not satisfy the clues")


def _squares_text(shaded: int, empty: int, cells: int) -> str:
    """The prefilled-squares part of a Pattern ID (the inverse of `_prefilled`)."""
    out: list[str] = []
    at = 0
    for cell in bits(shaded | empty):
        gap = cell - at
        out += ["z"] * (gap // _SKIP_ALL)
        letter = chr(ord("a") + gap % _SKIP_ALL)
        out.append(letter.upper() if shaded >> cell & 1 else letter)
        at = cell + 1
    gap = cells - at
    out += ["z"] * (gap // _SKIP_ALL)
    if gap % _SKIP_ALL:
        out.append(chr(ord("a") + gap % _SKIP_ALL))
    return "".join(out)


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
    check_reading(".non")
    puzzle = make_puzzle(sections["rows"], sections["columns"])
    check_reading(".non")
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
    mask = int(value[::-1], 2)  # linear, where adding bit by bit is quadratic
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


_BAND = re.compile(r"c?([0-9]{1,7})")
_CELLS = {"#": 1, "+": 0, ".": 0}
_CELL_BITS = str.maketrans({"#": "1", "+": "0", ".": "0"})


def parse_pzprv3(text: str) -> tuple[Nonogram, int | None]:
    """The puzzle of a pzprv3 Nonogram file and its cells when they are a solution."""
    file = pzprv3.parse_file(text, "nonogram")
    pzprv3.check_size(file, MAX_SIDE)
    body, rows, cols = pzprv3.Body(file), file.rows, file.cols
    top, left = (rows + 1) // 2, (cols + 1) // 2
    band = body.table(top, left + cols, "the column clues")
    for r, items in enumerate(band):
        _corner(body, r, items[:left])
    columns = list(zip(*(items[left:] for items in band), strict=True)) if band else []
    col_clues = [
        _band_clue(
            body,
            [(r, left + c, item) for r, item in enumerate(column) if item != "."],
            f"column {c + 1}",
        )
        for c, column in enumerate(columns)
    ] or [() for _ in range(cols)]
    check_reading("pzprv3")
    table = body.table(rows, left + cols, "the row clues and cells")
    row_clues = [
        _band_clue(
            body,
            [(r, e, item) for e, item in enumerate(items[:left]) if item != "."],
            f"row {r + 1}",
        )
        for r, items in enumerate(table)
    ]
    flat = []  # the cells as '1'/'0' text, made a mask once (whole rows at a time)
    for r, items in enumerate(table):
        if r % 64 == 0:
            check_reading("pzprv3")
        row = items[left:]
        if not _CELLS.keys() >= set(row):
            c = next(c for c, item in enumerate(row) if item not in _CELLS)
            raise body.bad(r, left + c, row[c], "'#', '+' or '.'")
        flat.append("".join(row).translate(_CELL_BITS))
    cells = int("".join(flat)[::-1], 2)
    body.end()
    check_reading("pzprv3")
    puzzle = make_puzzle(row_clues, col_clues)
    return puzzle, cells if not validate(puzzle, cells) else None


def _corner(body: pzprv3.Body, line: int, items: Sequence[str]) -> None:
    for index, item in enumerate(items):
        if item != ".":
            raise body.bad(line, index, item, "'.' (the corner above the row clues)")


def _band_clue(body: pzprv3.Body, slots: Sequence[tuple[int, int, str]], where: str) -> Clue:
    """The clue of one line from its slots in a clue band, each (band line, entry, text)
    in reading order; `.` is an empty slot and a `c` prefix puzz.link's crossed-out mark."""
    values = []
    for line, entry, item in slots:
        if item == ".":
            continue
        match = _BAND.fullmatch(item)
        if match is None:
            raise body.bad(line, entry, item, "a clue number or '.'")
        values.append(int(match[1]))
    if values == [0]:
        return ()
    if 0 in values:
        raise CodeError(f"pzprv3: {where}: a clue 0 beside other clues")
    return tuple(values)


def format_pzprv3(puzzle: Nonogram, solution: int | None = None) -> str:
    """The pzprv3 file of `puzzle`, with `solution`'s cells shaded when given."""
    w, h = puzzle.width, puzzle.height
    top, left = (h + 1) // 2, (w + 1) // 2
    cells = solution or 0
    lines = []
    for r in range(top):
        items = ["."] * left
        for clue in puzzle.cols:
            k = r - (top - len(clue))
            items.append(str(clue[k]) if k >= 0 else ".")
        lines.append(pzprv3.entries(items))
    for r, clue in enumerate(puzzle.rows):
        items = ["."] * (left - len(clue)) + [str(v) for v in clue]
        items += ["#" if cells >> (r * w + c) & 1 else "." for c in range(w)]
        lines.append(pzprv3.entries(items))
    return pzprv3.format_file("nonogram", 0, h, w, lines)


def is_pzprv3(text: str) -> bool:
    """Whether `text` starts like a pzprv3 Nonogram file."""
    return pzprv3.genre_of(text) == "nonogram"


def _read_pattern(text: str) -> tuple[Nonogram, int | None]:
    return parse_pattern(text), None


def _read_non(text: str) -> tuple[Nonogram, int | None]:
    read = read_non(text)
    return read.puzzle, read.goal


FORMATS: tuple[Format[Nonogram], ...] = (
    Format(
        "tatham",
        "Simon Tatham's Pattern game ID, WxH:COLUMNS/ROWS (prefilled squares read when implied)",
        is_pattern,
        _read_pattern,
        lambda puzzle, solution: format_pattern(puzzle, solution, squares=True),
    ),
    Format(
        "non",
        "a .non file (Steve Simpson's format), with the goal when the solution is known",
        is_non,
        _read_non,
        lambda puzzle, solution: format_non(puzzle, goal=solution),
    ),
    Format(
        "pzprv3",
        "puzz.link's save file (pzprv3), with the solution shaded when it is known",
        is_pzprv3,
        parse_pzprv3,
        format_pzprv3,
    ),
)
