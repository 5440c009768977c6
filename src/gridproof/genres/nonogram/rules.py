"""The Nonogram rule ladder: every deduction the step-by-step solver makes, cheapest first.

Each rule reads the lines that changed since it last looked, through a `LineView` (where
each block can start in some arrangement that fits the known cells), and names what it
finds the way a solver would:

- `overlap`: a block's leftmost and rightmost placements overlap; the overlap is shaded.
- `separators`: a shaded run that can only be one complete block gets empty cells on both
  sides.
- `unreachable`: cells no block can reach are empty.
- `small-gap`: a stretch between empty cells that is too short for every block that can
  reach it is empty.
- `line`: whatever else every arrangement of the line agrees on (complete line logic).
- `probe`: assume a cell, propagate whole lines; a value that breaks a line is wrong.

Rungs: `simple` (the first four), `line` (adds `line`), `probe` (adds `probe`).
"""

from __future__ import annotations

from collections.abc import Callable

from gridproof.core.grid import cell_name
from gridproof.core.search import Contradiction, Found, Rule
from gridproof.core.trace import Step
from gridproof.genres.nonogram.engine import Board, Grid, Propagator
from gridproof.genres.nonogram.lines import LineView
from gridproof.genres.nonogram.model import clue_text
from gridproof.genres.nonogram.position import Position

RUNGS = ("simple", "line", "probe")

Technique = Callable[[Position, int, LineView], list[Step]]


def _range(lo: int, hi: int) -> int:
    """The mask of positions lo..hi-1."""
    return ((1 << max(hi, lo)) - 1) & ~((1 << lo) - 1)


def _unknown(pos: Position, line: int) -> int:
    return ((1 << pos.length(line)) - 1) & ~(pos.filled[line] | pos.blank[line])


def _step(pos: Position, rule: str, line: int, text: str, shade: int, clear: int) -> Step:
    return Step(
        rule,
        f"{pos.line_name(line)}: {text}",
        shaded=pos.cells(line, shade),
        empty=pos.cells(line, clear),
        cells=pos.line_cells(line),
    )


def _by_line(rule: str, technique: Technique) -> Callable[[Position], Found]:
    """A rule that applies `technique` to every line changed since it last looked."""

    def find(pos: Position) -> Found:
        steps: list[Step] = []
        for line in pos.changed_lines(rule):
            seen = pos.view(line)
            if seen is None:
                clue = clue_text(pos.puzzle.lines[line])
                return Contradiction(
                    rule,
                    f"{pos.line_name(line)}: its clue {clue} cannot fit the cells decided so far",
                    pos.line_cells(line),
                )
            steps += technique(pos, line, seen)
        return steps

    return find


def overlap(pos: Position, line: int, seen: LineView) -> list[Step]:
    steps = []
    for j, length in enumerate(seen.clue):
        lo, hi = seen.lowest(j), seen.highest(j)
        shade = _range(hi, lo + length) & ~seen.filled
        if shade:
            text = (
                f"block {j + 1} (length {length}) starts between {_at(pos, line, lo)} and "
                f"{_at(pos, line, hi)}, so wherever it goes it covers {pos.names(line, shade)}"
            )
            steps.append(_step(pos, "overlap", line, text, shade, 0))
    return steps


def separators(pos: Position, line: int, seen: LineView) -> list[Step]:
    steps = []
    unknown = _unknown(pos, line)
    for a, b in _runs(seen.filled):
        size = b - a
        owners = [
            length
            for j, length in enumerate(seen.clue)
            if seen.valid[j] & _range(max(0, b - length), a + 1)
        ]
        clear = ((1 << a) >> 1 | 1 << b) & unknown
        if owners and clear and all(length == size for length in owners):
            text = (
                f"the shaded run {pos.names(line, _range(a, b))} can only be a whole block "
                f"of length {size}, so {pos.names(line, clear)} must separate it"
            )
            steps.append(_step(pos, "separators", line, text, 0, clear))
    return steps


def unreachable(pos: Position, line: int, seen: LineView) -> list[Step]:
    reach = 0
    for j, length in enumerate(seen.clue):
        reach |= _range(seen.lowest(j), seen.highest(j) + length)
    clear = _unknown(pos, line) & ~reach
    if not clear:
        return []
    text = f"no block can reach {pos.names(line, clear)}, so they are empty"
    return [_step(pos, "unreachable", line, text, 0, clear)]


def small_gap(pos: Position, line: int, seen: LineView) -> list[Step]:
    steps = []
    free = ((1 << seen.n) - 1) & ~seen.empty
    for a, b in _runs(free):
        gap = _range(a, b)
        if gap & seen.filled or not gap & _unknown(pos, line):
            continue
        reaching = [
            length
            for j, length in enumerate(seen.clue)
            if _range(seen.lowest(j), seen.highest(j) + length) & gap
        ]
        if all(length > b - a for length in reaching):
            text = (
                f"the gap {pos.names(line, gap)} is too small for any block that can "
                "reach it, so it is empty"
            )
            steps.append(_step(pos, "small-gap", line, text, 0, gap & _unknown(pos, line)))
    return steps


def complete_line(pos: Position, line: int, seen: LineView) -> list[Step]:
    full = (1 << seen.n) - 1
    shade = full & ~seen.can_empty & ~seen.filled
    clear = full & ~seen.can_fill & ~seen.empty
    if not (shade or clear):
        return []
    parts = []
    if shade:
        parts.append(f"shades {pos.names(line, shade)}")
    if clear:
        parts.append(f"leaves {pos.names(line, clear)} empty")
    text = (
        f"every arrangement of its clue {clue_text(seen.clue)} that fits the known cells "
        + " and ".join(parts)
    )
    return [_step(pos, "line", line, text, shade, clear)]


def _runs(mask: int) -> list[tuple[int, int]]:
    """Maximal runs of set bits as (start, end) with end exclusive."""
    out = []
    while mask:
        start = (mask & -mask).bit_length() - 1
        end = start
        while mask >> end & 1:
            end += 1
        out.append((start, end))
        mask &= ~_range(start, end)
    return out


def _at(pos: Position, line: int, index: int) -> str:
    return cell_name(pos.cell(line, index), pos.width)


def probe(pos: Position) -> Found:
    """Assume an undecided cell shaded (then empty) and propagate whole lines; a value that
    breaks a line is wrong, so the cell takes the other."""
    board = Board(pos.puzzle)
    lines = Propagator(board, pos.deadline)
    base = Grid(list(pos.filled), list(pos.blank), list(range(board.line_count)), 0)
    if not lines.run(base):
        return Contradiction("probe", f"{pos.line_name(lines.failed)} cannot be completed")
    w = pos.width
    for row in range(pos.height):
        for col in range(w):
            if (base.filled[row] | base.empty[row]) >> col & 1:
                continue
            for shaded in (True, False):
                if pos.deadline.expired():
                    return []
                trial = base.copy()
                trial.set_cell(board, row, col, shaded)
                if lines.run(trial):
                    continue
                return [_refuted(pos, row * w + col, shaded, lines.failed)]
    return []


def _refuted(pos: Position, cell: int, shaded: bool, failed: int) -> Step:
    was, now = ("shaded", "empty") if shaded else ("empty", "shaded")
    clue = clue_text(pos.puzzle.lines[failed])
    name = cell_name(cell, pos.width)
    return Step(
        "probe",
        f"if {name} were {was}, whole-line deductions would leave "
        f"{pos.line_name(failed)} unable to hold its clue {clue}; so {name} is {now}",
        shaded=0 if shaded else 1 << cell,
        empty=1 << cell if shaded else 0,
        cells=(cell, *pos.line_cells(failed)),
    )


SIMPLE: tuple[Rule[Position], ...] = (
    Rule("overlap", "overlap", _by_line("overlap", overlap)),
    Rule("separators", "complete block separators", _by_line("separators", separators)),
    Rule("unreachable", "unreachable cells", _by_line("unreachable", unreachable)),
    Rule("small-gap", "gap too small", _by_line("small-gap", small_gap)),
)
LINE: tuple[Rule[Position], ...] = (
    *SIMPLE,
    Rule("line", "complete line logic", _by_line("line", complete_line)),
)
PROBE: tuple[Rule[Position], ...] = (*LINE, Rule("probe", "probe contradiction", probe))

LADDER: dict[str, tuple[Rule[Position], ...]] = {"simple": SIMPLE, "line": LINE, "probe": PROBE}
