"""The Nonogram rule ladder: every deduction the step-by-step solver makes, cheapest first,
and the one table, `LADDER` at the end, that names the rungs, their grades and their rules.

Each line rule reads the lines that changed since it last looked, through a `LineView`
(where each block can start in some arrangement that fits the known cells), and names what
it finds the way a solver would:

- `overlap`: a block's leftmost and rightmost placements overlap; the overlap is shaded.
- `separators`: a shaded run that can only be one complete block gets empty cells on both
  sides.
- `unreachable`: cells no block can reach are empty.
- `small-gap`: a stretch between empty cells that is too short for every block that can
  reach it is empty.
- `line`: whatever else every arrangement of the line agrees on (complete line logic).
- `probe`: assume a cell, propagate whole lines; a value that breaks a line is wrong.

Rungs (each includes the ones before it): `simple` (the first four), `line` (adds `line`:
the fixpoint `engine.Propagator` computes in bulk), `probe` (adds `probe`). Each rule
returns the steps it can take now, or a `Violation` (the contradiction it found).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from gridproof.core.grid import bits, cell_name, runs, span
from gridproof.core.ladder import Found, Ladder, Rule, Rung, rule
from gridproof.core.trace import Step
from gridproof.genres.nonogram.engine import Board, Grid, Propagator
from gridproof.genres.nonogram.lines import LineView
from gridproof.genres.nonogram.model import clue_text
from gridproof.genres.nonogram.position import Position

NO_FIT = "{line}: its clue {clue} cannot fit the cells decided so far"
"""The contradiction every line rule can find: a line with no arrangement left."""

Technique = Callable[[Position, int, LineView], list[Step]]
"""What a line rule does to one line: the steps it takes there."""


def _unknown(pos: Position, line: int) -> int:
    return ((1 << pos.length(line)) - 1) & ~(pos.filled[line] | pos.blank[line])


def _each_line(pos: Position, found_by: Rule[Position], technique: Technique) -> Found:
    """`technique` applied to every line changed since rule `found_by` last looked."""
    steps: list[Step] = []
    for line in pos.changed_lines(found_by.id):
        if pos.deadline.expired():
            return steps  # the ladder stops on the same expired deadline
        seen = pos.view(line)
        if seen is None:
            return found_by.violation(
                cells=pos.line_cells(line),
                line=pos.line_name(line),
                clue=clue_text(pos.puzzle.lines[line]),
            )
        steps += technique(pos, line, seen)
    return steps


def _step(
    found_by: Rule[Position], pos: Position, line: int, shade: int, clear: int, /, **fields: Any
) -> Step:
    """A step of `found_by` on `line` (line-local masks `shade`, `clear`)."""
    return found_by.step(
        shaded=pos.cells(line, shade),
        empty=pos.cells(line, clear),
        cells=pos.line_cells(line),
        line=pos.line_name(line),
        **fields,
    )


@rule(
    "overlap",
    "Overlap",
    "{line}: block {block} (length {length}) {placed} it covers {covered}",
    conflict=NO_FIT,
)
def overlap(pos: Position) -> Found:
    """A block's leftmost and rightmost placements overlap: the overlap is shaded."""
    return _each_line(pos, overlap, overlap_in)


def overlap_in(pos: Position, line: int, seen: LineView) -> list[Step]:
    steps = []
    for j, length in enumerate(seen.clue):
        lo, hi = seen.lowest(j), seen.highest(j)
        shade = span(hi, lo + length) & ~seen.filled
        if shade:
            steps.append(
                _step(
                    overlap,
                    pos,
                    line,
                    shade,
                    0,
                    block=j + 1,
                    length=length,
                    placed=_placed(_at(pos, line, lo), _at(pos, line, hi)),
                    covered=pos.names(line, shade),
                )
            )
    return steps


def _placed(first: str, last: str) -> str:
    """Where a block can start, as the overlap rule says it."""
    if first == last:
        return f"can only start at {first}, so"
    return f"starts between {first} and {last}, so wherever it goes"


@rule(
    "separators",
    "Complete block separators",
    "{line}: the shaded run {run} can only be a whole block of length {length}, so {clear} "
    "must separate it",
    conflict=NO_FIT,
)
def separators(pos: Position) -> Found:
    """A shaded run that can only be one complete block gets empty cells on both sides."""
    return _each_line(pos, separators, separators_in)


def separators_in(pos: Position, line: int, seen: LineView) -> list[Step]:
    steps = []
    unknown = _unknown(pos, line)
    for a, b in runs(seen.filled):
        size = b - a
        owners = [
            length
            for j, length in enumerate(seen.clue)
            if seen.valid[j] & span(max(0, b - length), a + 1)
        ]
        clear = ((1 << a) >> 1 | 1 << b) & unknown
        if owners and clear and all(length == size for length in owners):
            steps.append(
                _step(
                    separators,
                    pos,
                    line,
                    0,
                    clear,
                    run=pos.names(line, span(a, b)),
                    length=size,
                    clear=pos.names(line, clear),
                )
            )
    return steps


@rule(
    "unreachable",
    "Unreachable cells",
    "{line}: no block can reach {clear}, so they are empty",
    conflict=NO_FIT,
)
def unreachable(pos: Position) -> Found:
    """Cells no block can reach are empty."""
    return _each_line(pos, unreachable, unreachable_in)


def unreachable_in(pos: Position, line: int, seen: LineView) -> list[Step]:
    reach = 0
    for j, length in enumerate(seen.clue):
        reach |= span(seen.lowest(j), seen.highest(j) + length)
    clear = _unknown(pos, line) & ~reach
    if not clear:
        return []
    return [_step(unreachable, pos, line, 0, clear, clear=pos.names(line, clear))]


@rule(
    "small-gap",
    "Gap too small",
    "{line}: the gap {gap} is too small for any block that can reach it, so it is empty",
    conflict=NO_FIT,
)
def small_gap(pos: Position) -> Found:
    """A stretch between empty cells too short for every block that can reach it is empty."""
    return _each_line(pos, small_gap, small_gap_in)


def small_gap_in(pos: Position, line: int, seen: LineView) -> list[Step]:
    steps = []
    free = ((1 << seen.n) - 1) & ~seen.empty
    for a, b in runs(free):
        gap = span(a, b)
        if gap & seen.filled or not gap & _unknown(pos, line):
            continue
        reaching = [
            length
            for j, length in enumerate(seen.clue)
            if span(seen.lowest(j), seen.highest(j) + length) & gap
        ]
        if all(length > b - a for length in reaching):
            clear = gap & _unknown(pos, line)
            steps.append(_step(small_gap, pos, line, 0, clear, gap=pos.names(line, gap)))
    return steps


@rule(
    "line",
    "Complete line logic",
    "{line}: every arrangement of its clue {clue} that fits the known cells {decide}",
    conflict=NO_FIT,
)
def complete_line(pos: Position) -> Found:
    """Whatever every arrangement of a line that fits its known cells agrees on."""
    return _each_line(pos, complete_line, complete_line_in)


def complete_line_in(pos: Position, line: int, seen: LineView) -> list[Step]:
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
    return [
        _step(
            complete_line,
            pos,
            line,
            shade,
            clear,
            clue=clue_text(seen.clue),
            decide=" and ".join(parts),
        )
    ]


def _at(pos: Position, line: int, index: int) -> str:
    return cell_name(pos.cell(line, index), pos.width)


@rule(
    "probe",
    "Probe contradiction",
    "if {cell} were {was}, whole-line deductions{chain} would leave {line} unable to hold its "
    "clue {clue}; so {cell} is {now}",
    conflict="{line} cannot be completed",
)
def probe(pos: Position) -> Found:
    """Assume an undecided cell shaded (then empty) and propagate whole lines; a value that
    breaks a line is wrong, so the cell takes the other."""
    board = Board(pos.puzzle, deadline=pos.deadline)
    if not board.complete:
        return []  # the ladder stops on the same expired deadline
    lines = Propagator(board, pos.deadline)
    base = Grid(list(pos.filled), list(pos.blank), list(range(board.line_count)), 0)
    if not lines.run(base):
        return probe.violation(line=pos.line_name(lines.failed))
    w = pos.width
    for cell in bits(pos.full & ~(base.shaded_mask(board) | base.empty_mask(board))):
        row, col = divmod(cell, w)
        for shaded in (True, False):
            if pos.deadline.expired():
                return []
            trial = base.copy()
            trial.set_cell(board, row, col, shaded)
            if lines.run(trial):
                continue
            trial = base.copy()
            trial.set_cell(board, row, col, shaded)
            found = chain(board, trial)
            if found is None:
                return [_refuted(pos, cell, shaded, lines.failed)]
            path, needed = found
            return [_refuted(pos, cell, shaded, path[-1], path, needed)]
    return []


def chain(board: Board, trial: Grid) -> tuple[list[int], list[int]] | None:
    """The lines a probe's contradiction travels along, as a person would follow it, and
    the lines it rests on. The trial's lines are solved breadth first from the two through
    the assumed cell, each line remembering the line whose solve first changed it (the
    path: from the line that breaks back to a line through the assumed cell) and each cell
    the line that decided it (the lines it rests on: the breaking line, the lines that
    decided its cells, theirs in turn). None if the lines settle (no contradiction). Run
    only for a probe that succeeded, so it keeps no memo and counts no solves."""
    h = board.height
    filled, empty = trial.filled, trial.empty
    parent: dict[int, int | None] = dict.fromkeys(trial.dirty)
    decider: dict[tuple[int, int], int] = {}  # (line, index) -> the line that decided it
    queue = deque(parent)
    queued = set(parent)
    while queue:
        line = queue.popleft()
        queued.discard(line)
        f, e = filled[line], empty[line]
        found = board.tables[line].settle(f, e)
        if found is None:
            path = [line]
            while (before := parent[path[-1]]) is not None:
                path.append(before)
            return path[::-1], _rests_on(line, decider)
        nf, ne = found
        for new, side in ((nf ^ f, filled), (ne ^ e, empty)):
            for index in bits(new):
                other = h + index if line < h else index
                at = line if line < h else line - h
                side[other] |= 1 << at
                decider[line, index] = decider[other, at] = line
                parent.setdefault(other, line)
                if other not in queued:
                    queued.add(other)
                    queue.append(other)
        filled[line], empty[line] = nf, ne
    return None


def _rests_on(failed: int, decider: dict[tuple[int, int], int]) -> list[int]:
    """The breaking line and, walking back, every line that decided a cell of a line
    already needed: in the order they are reached."""
    decided_on: dict[int, list[int]] = {}
    for (line, _), by in decider.items():
        decided_on.setdefault(line, []).append(by)
    needed = [failed]
    seen = {failed}
    for line in needed:
        for by in decided_on.get(line, ()):
            if by not in seen:
                seen.add(by)
                needed.append(by)
    return needed


def _refuted(
    pos: Position,
    cell: int,
    shaded: bool,
    failed: int,
    path: list[int] | None = None,
    needed: list[int] | None = None,
) -> Step:
    """The probe's step: its sentence follows `path`, its cited cells are the assumed cell
    and the lines the contradiction rests on (`needed`; the path's when not given)."""
    was, now = ("shaded", "empty") if shaded else ("empty", "shaded")
    between = [pos.line_name(line) for line in (path or [])[:-1]]
    cited = dict.fromkeys((cell,))
    for line in [*(path or [])[:-1], failed, *(needed or ())]:
        cited.update(dict.fromkeys(pos.line_cells(line)))
    return probe.step(
        shaded=0 if shaded else 1 << cell,
        empty=1 << cell if shaded else 0,
        cells=tuple(cited),
        cell=cell_name(cell, pos.width),
        was=was,
        line=pos.line_name(failed),
        clue=clue_text(pos.puzzle.lines[failed]),
        now=now,
        chain=" along " + ", then ".join(between) if between else "",
    )


LADDER: Ladder[Position] = Ladder(
    (
        Rung(
            "simple",
            "easy",
            "overlaps, separators, unreachable cells and small gaps, one line at a time",
            (overlap, separators, unreachable, small_gap),
        ),
        Rung(
            "line",
            "medium",
            "whatever every arrangement of a line agrees on (complete line logic)",
            (complete_line,),
        ),
        Rung(
            "probe",
            "hard",
            "assume a cell one way and solve whole lines; a broken line decides it",
            (probe,),
        ),
    ),
    beyond="expert",
)
"""The Nonogram ladder: rung, grade, what it adds, its rules (each with id, title, text)."""
