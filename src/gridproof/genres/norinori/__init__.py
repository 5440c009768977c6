"""Norinori, registered as a genre: every piece of the contract in one place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.outcome import Outcome
from gridproof.core.registry import Generated, Option, Progress, Request, register
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Violation
from gridproof.genres.norinori import codec, generate, model, solve, study
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.rules import RUNGS


class NorinoriGenre:
    name = "norinori"
    title = "Norinori"
    rungs: tuple[str, ...] = RUNGS
    difficulties: tuple[str, ...] = generate.DIFFICULTIES
    options: tuple[Option, ...] = ()
    lessons: tuple[str, ...] = (
        "Shade cells in pairs: every shaded cell touches exactly one other shaded cell, "
        "side by side, so shaded cells form dominoes. A lone shaded cell asks: where can "
        "its partner go?",
        "Every region (the areas inside thick borders) holds exactly two shaded cells. "
        "A domino may cross a border, so its two cells can count for two regions.",
        "Dominoes never touch each other side by side (corners are fine): once a domino is "
        "complete, every cell around it stays empty.",
    )
    sizes = ((generate.MIN_SIDE, generate.MIN_SIDE), (generate.MAX_SIDE, generate.MAX_SIDE))

    def parse_code(self, text: str) -> Norinori:
        return codec.parse_code(text)

    def format_code(self, puzzle: Norinori) -> str:
        return codec.format_code(puzzle)

    def parse_url(self, url: str) -> Norinori:
        return codec.parse_url(url)

    def format_url(self, puzzle: Norinori) -> str:
        return codec.format_url(puzzle)

    def from_json(self, obj: Mapping[str, Any]) -> Norinori:
        return codec.from_json(obj)

    def to_json(self, puzzle: Norinori) -> dict[str, Any]:
        return codec.to_json(puzzle)

    def format_grid(self, puzzle: Norinori, shaded: int) -> list[str]:
        w = puzzle.width
        return [
            "".join("#" if shaded >> (r * w + c) & 1 else "." for c in range(w))
            for r in range(puzzle.height)
        ]

    def parse_grid(self, puzzle: Norinori, rows: list[str]) -> int:
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

    def validate(self, puzzle: Norinori, shaded: int) -> list[Violation]:
        return model.validate(puzzle, shaded)

    def solve(
        self,
        puzzle: Norinori,
        rung: str,
        deadline: Deadline,
        shaded: int = 0,
        empty: int = 0,
        max_steps: int | None = None,
    ) -> Progress:
        return solve.solve(puzzle, rung, deadline, shaded, empty, max_steps)

    def count(self, puzzle: Norinori, limit: int, deadline: Deadline) -> Outcome:
        return solve.count(puzzle, limit, deadline)

    def transform(self, puzzle: Norinori, symmetry: Symmetry) -> Norinori:
        return model.transform(puzzle, symmetry)

    def generate(self, request: Request, seed: int, deadline: Deadline) -> Generated:
        return generate.generate(request, seed, deadline)

    def study(self, boards: int, seed: int, deadline: Deadline) -> str:
        return study.run_study(boards, seed, deadline)


GENRE = register(NorinoriGenre())

__all__ = ["GENRE", "Norinori"]
