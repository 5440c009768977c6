"""The solver's view of a Lights board: tables computed once, and a partial shading.

Glossary: `shaded`, `empty` are masks of decided cells, `unknown` the rest; the cells that
hold a digit are empty from the start (a digit is never shaded); `digit[cell]` is the
digit in a cell, -1 for none.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, low_bit
from gridproof.core.ladder import Seen
from gridproof.core.trace import Step, Violation
from tests.toygenre.model import Lights


@dataclass(frozen=True, slots=True)
class Board:
    """Everything about a puzzle that never changes while solving it."""

    geo: Geometry
    clues: int
    """The cells that hold a digit."""
    digit: tuple[int, ...]

    def name(self, cell: int) -> str:
        return self.geo.name(cell)

    def names(self, mask: int) -> str:
        return ", ".join(self.geo.name(cell) for cell in bits(mask))

    def clues_near(self, mask: int) -> int:
        """The digits next to or in `mask`: the only ones whose count it can change."""
        return self.clues & (mask | self.geo.spread(mask))


@lru_cache(maxsize=64)
def board_of(puzzle: Lights) -> Board:
    digits = tuple(-1 if digit is None else digit for digit in puzzle.clues)
    return Board(Geometry(puzzle.width, puzzle.height), puzzle.clue_mask, digits)


class Position:
    """A partial shading that rules read and steps extend; cheap to copy for probing."""

    __slots__ = ("board", "deadline", "empty", "seen", "shaded")

    def __init__(self, board: Board, deadline: Deadline) -> None:
        self.board = board
        self.shaded = 0
        self.empty = board.clues
        self.seen = Seen()
        self.deadline = deadline

    @property
    def unknown(self) -> int:
        return self.board.geo.full & ~(self.shaded | self.empty)

    def copy(self) -> Position:
        twin = Position(self.board, self.deadline)
        twin.shaded, twin.empty, twin.seen = self.shaded, self.empty, self.seen.copy()
        return twin

    def apply(self, step: Step) -> Violation | None:
        """Decide the step's cells; a cell decided both ways is a contradiction."""
        clash = (step.shaded & self.empty) | (step.empty & self.shaded) | (step.shaded & step.empty)
        if clash:
            cell = low_bit(clash)
            return Violation(
                step.rule, f"{self.board.name(cell)} would be both shaded and empty", (cell,)
            )
        self.shaded |= step.shaded
        self.empty |= step.empty
        return None

    def changed_since(self, rule_id: str) -> int:
        """Cells decided since rule `rule_id` last looked (all cells the first time)."""
        return self.seen.changed(rule_id, self.shaded, self.empty, self.board.geo.full)


def start(puzzle: Lights, deadline: Deadline) -> Position:
    """The position of `puzzle` before any deduction: only the digits' cells are empty."""
    return Position(board_of(puzzle), deadline)
