"""The rule ladder's view of a Nonogram: a partial shading that steps extend.

Glossary: `shaded`, `empty` are board masks of decided cells (bit `row * width + col`);
`filled[i]`, `blank[i]` the same per line (rows then columns, as in `engine`); `seen`
remembers the marks each rule last looked at, so a rule only re-reads the lines that
changed since.
"""

from __future__ import annotations

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits, cell_name, low_bit, mask_of
from gridproof.core.ladder import Seen
from gridproof.core.trace import Step, Violation
from gridproof.genres.nonogram.lines import LineView, view
from gridproof.genres.nonogram.model import Nonogram, line_name


class Position:
    """A partial shading that rules read and steps extend."""

    __slots__ = (
        "blank",
        "deadline",
        "empty",
        "filled",
        "full",
        "puzzle",
        "seen",
        "shaded",
        "views",
    )

    def __init__(self, puzzle: Nonogram, deadline: Deadline | None = None) -> None:
        self.puzzle = puzzle
        self.deadline = deadline or Deadline.never()
        lines = puzzle.width + puzzle.height
        self.full = (1 << (puzzle.width * puzzle.height)) - 1
        self.shaded = 0
        self.empty = 0
        self.filled = [0] * lines
        self.blank = [0] * lines
        self.seen = Seen()
        self.views: dict[tuple[int, int, int], LineView | None] = {}

    @property
    def width(self) -> int:
        return self.puzzle.width

    @property
    def height(self) -> int:
        return self.puzzle.height

    @property
    def unknown(self) -> int:
        return self.full & ~(self.shaded | self.empty)

    def length(self, line: int) -> int:
        return self.puzzle.width if line < self.puzzle.height else self.puzzle.height

    def cell(self, line: int, index: int) -> int:
        """The board cell at position `index` along line `line`."""
        h, w = self.puzzle.height, self.puzzle.width
        return line * w + index if line < h else index * w + (line - h)

    def cells(self, line: int, mask: int) -> int:
        """A line-local mask as a board mask."""
        h, w = self.puzzle.height, self.puzzle.width
        if line < h:
            return mask << (line * w)
        return mask_of(index * w + line - h for index in bits(mask))

    def line_cells(self, line: int) -> tuple[int, ...]:
        return tuple(self.cell(line, i) for i in range(self.length(line)))

    def names(self, line: int, mask: int) -> str:
        w = self.puzzle.width
        return ", ".join(cell_name(self.cell(line, i), w) for i in bits(mask))

    def line_name(self, line: int) -> str:
        return line_name(line, self.puzzle.height)

    def view(self, line: int) -> LineView | None:
        """The line's `LineView` for its current cells (memoised)."""
        key = (line, self.filled[line], self.blank[line])
        if key not in self.views:
            self.views[key] = view(
                self.length(line), self.puzzle.lines[line], self.filled[line], self.blank[line]
            )
        return self.views[key]

    def changed_lines(self, rule_id: str) -> list[int]:
        """Lines with a cell decided since rule `rule_id` last looked (all of them the first
        time), rows then columns, and remember the marks as looked at."""
        return self.lines_through(self.seen.changed(rule_id, self.shaded, self.empty, self.full))

    def lines_through(self, mask: int) -> list[int]:
        """The rows, then the columns, that hold a cell of the board mask `mask`."""
        w, h = self.puzzle.width, self.puzzle.height
        row = (1 << w) - 1
        rows, cols = [], 0
        for r in range(h):
            line = mask >> (r * w) & row
            if line:
                rows.append(r)
                cols |= line
        return rows + [h + c for c in bits(cols)]

    def apply(self, step: Step) -> Violation | None:
        """Decide the step's cells; a cell decided both ways is a contradiction."""
        clash = (step.shaded & self.empty) | (step.empty & self.shaded) | (step.shaded & step.empty)
        if clash:
            cell = low_bit(clash)
            name = cell_name(cell, self.puzzle.width)
            return Violation(step.rule, f"{name} would be both shaded and empty", (cell,))
        self._mark(step.shaded, True)
        self._mark(step.empty, False)
        return None

    def _mark(self, mask: int, shaded: bool) -> None:
        w, h = self.puzzle.width, self.puzzle.height
        mask &= self.full
        if shaded:
            self.shaded |= mask
            side = self.filled
        else:
            self.empty |= mask
            side = self.blank
        for cell in bits(mask):
            r, c = divmod(cell, w)
            side[r] |= 1 << c
            side[h + c] |= 1 << r


def start(puzzle: Nonogram, deadline: Deadline) -> Position:
    """The empty position of `puzzle` that the ladder's rules read."""
    return Position(puzzle, deadline)
