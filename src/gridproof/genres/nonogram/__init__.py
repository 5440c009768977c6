"""Nonogram, registered as a genre: every piece of the contract in one place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.outcome import Outcome
from gridproof.core.registry import Generated, Option, Progress, Request, register
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Violation
from gridproof.genres.nonogram import codec, generate, model, solve, study
from gridproof.genres.nonogram.model import Nonogram
from gridproof.genres.nonogram.rules import RUNGS


class NonogramGenre:
    name = "nonogram"
    title = "Nonogram"
    rungs: tuple[str, ...] = RUNGS
    difficulties: tuple[str, ...] = solve.DIFFICULTIES
    options: tuple[Option, ...] = generate.OPTIONS
    sizes: tuple[tuple[int, int], tuple[int, int]] = generate.SIZES
    lessons: tuple[str, ...] = (
        "The numbers beside a row, read left to right, are the lengths of its runs of "
        "shaded cells, in order; the numbers above a column do the same top to bottom. "
        "An empty clue means the whole line stays empty.",
        "Runs are separated by at least one empty cell. A clue 3 1 in ten cells can sit "
        "in several places, but wherever the 3 goes in a short line, its middle overlaps: "
        "shade the cells every placement covers.",
        "Mark cells no run can reach as empty, and put an empty cell on each side of a run "
        "that is already complete. Every row you settle tells the columns something new.",
        "When the lines stall, suppose a cell is shaded and follow the lines: if some row "
        "or column can no longer hold its clue, the cell must be empty.",
    )

    def parse_code(self, text: str) -> Nonogram:
        return codec.parse_code(text)

    def format_code(self, puzzle: Nonogram) -> str:
        return codec.format_code(puzzle)

    def parse_url(self, url: str) -> Nonogram:
        return codec.parse_url(url)

    def format_url(self, puzzle: Nonogram) -> str:
        return codec.format_url(puzzle)

    def from_json(self, obj: Mapping[str, Any]) -> Nonogram:
        return codec.from_json(obj)

    def to_json(self, puzzle: Nonogram) -> dict[str, Any]:
        return codec.to_json(puzzle)

    def format_grid(self, puzzle: Nonogram, shaded: int) -> list[str]:
        w = puzzle.width
        return [
            "".join("#" if shaded >> (r * w + c) & 1 else "." for c in range(w))
            for r in range(puzzle.height)
        ]

    def parse_grid(self, puzzle: Nonogram, rows: list[str]) -> int:
        if len(rows) != puzzle.height:
            raise CodeError(f"the grid has {len(rows)} rows, the puzzle {puzzle.height}")
        shaded = 0
        for r, row in enumerate(rows):
            if len(row) != puzzle.width:
                raise CodeError(
                    f"grid row {r + 1} {row!r} has {len(row)} cells, not {puzzle.width}"
                )
            for c, ch in enumerate(row):
                if ch == "#":
                    shaded |= 1 << (r * puzzle.width + c)
                elif ch not in ".+-":
                    raise CodeError(f"grid row {r + 1}, column {c + 1}: {ch!r} is not '#' or '.'")
        return shaded

    def validate(self, puzzle: Nonogram, shaded: int) -> list[Violation]:
        return model.validate(puzzle, shaded)

    def solve(
        self,
        puzzle: Nonogram,
        rung: str,
        deadline: Deadline,
        shaded: int = 0,
        empty: int = 0,
        max_steps: int | None = None,
    ) -> Progress:
        return solve.solve(puzzle, rung, deadline, shaded, empty, max_steps)

    def count(self, puzzle: Nonogram, limit: int, deadline: Deadline) -> Outcome:
        return solve.count(puzzle, limit, deadline)

    def transform(self, puzzle: Nonogram, symmetry: Symmetry) -> Nonogram:
        return model.transform(puzzle, symmetry)

    def generate(self, request: Request, seed: int, deadline: Deadline) -> Generated:
        return generate.generate(request, seed, deadline)

    def study(self, boards: int, seed: int, deadline: Deadline) -> str:
        return study.run_study(boards, seed, deadline)


GENRE = register(NonogramGenre())

__all__ = ["GENRE", "Nonogram"]
