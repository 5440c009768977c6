"""The rule ladder's view of a Nonogram: a partial shading that steps extend.

Glossary: `shaded`, `empty` are board masks of decided cells (bit `row * width + col`);
`filled[i]`, `blank[i]` the same per line (rows then columns, as in `engine`); `looked[rule]`
remembers each line's masks when a rule last examined it, so a rule only re-reads lines
that changed since.
"""

from __future__ import annotations

from gridproof.core.deadline import Deadline
from gridproof.core.grid import cell_name
from gridproof.core.search import Contradiction
from gridproof.core.trace import Step
from gridproof.genres.nonogram.lines import LineView, view
from gridproof.genres.nonogram.model import Nonogram, line_name


class Position:
    """A partial shading that rules read and steps extend."""

    __slots__ = ("blank", "deadline", "filled", "looked", "puzzle", "views")

    def __init__(
        self, puzzle: Nonogram, deadline: Deadline | None = None, shaded: int = 0, empty: int = 0
    ) -> None:
        self.puzzle = puzzle
        self.deadline = deadline or Deadline.never()
        lines = puzzle.width + puzzle.height
        self.filled = [0] * lines
        self.blank = [0] * lines
        self.looked: dict[str, list[tuple[int, int]]] = {}
        self.views: dict[tuple[int, int, int], LineView | None] = {}
        self._mark(shaded & ~empty, True)
        self._mark(empty & ~shaded, False)

    @property
    def width(self) -> int:
        return self.puzzle.width

    @property
    def height(self) -> int:
        return self.puzzle.height

    def length(self, line: int) -> int:
        return self.puzzle.width if line < self.puzzle.height else self.puzzle.height

    def cell(self, line: int, index: int) -> int:
        """The board cell at position `index` along line `line`."""
        h, w = self.puzzle.height, self.puzzle.width
        return line * w + index if line < h else index * w + (line - h)

    def cells(self, line: int, mask: int) -> int:
        """A line-local mask as a board mask."""
        out = 0
        while mask:
            low = mask & -mask
            mask ^= low
            out |= 1 << self.cell(line, low.bit_length() - 1)
        return out

    def line_cells(self, line: int) -> tuple[int, ...]:
        return tuple(self.cell(line, i) for i in range(self.length(line)))

    def names(self, line: int, mask: int) -> str:
        w = self.puzzle.width
        return ", ".join(
            cell_name(self.cell(line, i), w) for i in range(self.length(line)) if mask >> i & 1
        )

    def line_name(self, line: int) -> str:
        return line_name(line, self.puzzle.height)

    @property
    def shaded(self) -> int:
        w = self.puzzle.width
        return sum(self.filled[r] << (r * w) for r in range(self.puzzle.height))

    @property
    def empty(self) -> int:
        w = self.puzzle.width
        return sum(self.blank[r] << (r * w) for r in range(self.puzzle.height))

    @property
    def unknown(self) -> int:
        return ((1 << (self.puzzle.width * self.puzzle.height)) - 1) & ~(self.shaded | self.empty)

    def view(self, line: int) -> LineView | None:
        """The line's `LineView` for its current cells (memoised)."""
        key = (line, self.filled[line], self.blank[line])
        if key not in self.views:
            self.views[key] = view(
                self.length(line), self.puzzle.lines[line], self.filled[line], self.blank[line]
            )
        return self.views[key]

    def changed_lines(self, rule: str) -> list[int]:
        """Lines whose cells changed since `rule` last looked (all of them the first time),
        and mark them looked at."""
        now = list(zip(self.filled, self.blank, strict=True))
        before = self.looked.get(rule)
        self.looked[rule] = now
        if before is None:
            return list(range(len(now)))
        return [i for i, (a, b) in enumerate(zip(now, before, strict=True)) if a != b]

    def apply(self, step: Step) -> Contradiction | None:
        """Decide the step's cells; a cell decided both ways is a contradiction."""
        clash = (step.shaded & self.empty) | (step.empty & self.shaded) | (step.shaded & step.empty)
        if clash:
            cell = (clash & -clash).bit_length() - 1
            name = cell_name(cell, self.puzzle.width)
            return Contradiction(step.rule, f"{name} would be both shaded and empty", (cell,))
        self._mark(step.shaded, True)
        self._mark(step.empty, False)
        return None

    def _mark(self, mask: int, shaded: bool) -> None:
        w, h = self.puzzle.width, self.puzzle.height
        side = self.filled if shaded else self.blank
        mask &= (1 << (w * h)) - 1
        while mask:
            low = mask & -mask
            mask ^= low
            r, c = divmod(low.bit_length() - 1, w)
            side[r] |= 1 << c
            side[h + c] |= 1 << r
