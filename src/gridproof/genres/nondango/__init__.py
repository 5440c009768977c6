"""Nondango, registered as a genre: every piece of the contract in one place.

Paint one circle black in every region; three consecutive circles may never be all the
same colour (`no-three-same`, the janko.at and puzz.link rule and the default) or, in the
`no-three-black` variant, all black. The variant is part of the puzzle value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome
from gridproof.core.registry import Generated, Option, Progress, Request, register
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Violation
from gridproof.genres.nondango import codec, generate, model, solve, study
from gridproof.genres.nondango.model import Nondango, Variant
from gridproof.genres.nondango.rules import RUNGS


class NondangoGenre:
    name = "nondango"
    title = "Nondango"
    rungs: tuple[str, ...] = RUNGS
    difficulties: tuple[str, ...] = generate.DIFFICULTIES
    options: tuple[Option, ...] = generate.OPTIONS
    sizes: tuple[tuple[int, int], tuple[int, int]] = generate.SIZES
    lessons: tuple[str, ...] = (
        "The grid is cut into regions by thick borders, and some cells hold a circle. "
        "Paint exactly one circle black in every region; every other circle is white. "
        "A region with a single circle paints that one.",
        "Three circles in consecutive cells of a line (across, down or on either diagonal) "
        "may never all be black. Two black circles in such a line make the third white. "
        "A cell without a circle breaks the line.",
        "In the usual rule (no-three-same) such a line may not be all white either: when "
        "two of its circles are white, the third is black. In the no-three-black variant "
        "only all black is forbidden.",
        "Stuck? Assume a circle black and follow the consequences: if they end in a "
        "contradiction, that circle is white.",
    )

    def parse_code(self, text: str) -> Nondango:
        return codec.parse_code(text)

    def format_code(self, puzzle: Nondango) -> str:
        return codec.format_code(puzzle)

    def parse_url(self, url: str) -> Nondango:
        return codec.parse_url(url)

    def format_url(self, puzzle: Nondango) -> str:
        return codec.format_url(puzzle)

    def from_json(self, obj: Mapping[str, Any]) -> Nondango:
        return codec.from_json(obj)

    def to_json(self, puzzle: Nondango) -> dict[str, Any]:
        return codec.to_json(puzzle)

    def format_grid(self, puzzle: Nondango, shaded: int) -> list[str]:
        return codec.format_grid(puzzle, shaded)

    def parse_grid(self, puzzle: Nondango, rows: list[str]) -> int:
        return codec.parse_grid(puzzle, rows)

    def validate(self, puzzle: Nondango, shaded: int) -> list[Violation]:
        return model.validate(puzzle, shaded)

    def solve(
        self,
        puzzle: Nondango,
        rung: str,
        deadline: Deadline,
        shaded: int = 0,
        empty: int = 0,
        max_steps: int | None = None,
    ) -> Progress:
        return solve.solve(puzzle, rung, deadline, shaded, empty, max_steps)

    def count(self, puzzle: Nondango, limit: int, deadline: Deadline) -> Outcome:
        return solve.count(puzzle, limit, deadline)

    def transform(self, puzzle: Nondango, symmetry: Symmetry) -> Nondango:
        return model.transform(puzzle, symmetry)

    def generate(self, request: Request, seed: int, deadline: Deadline) -> Generated:
        return generate.generate(request, seed, deadline)

    def study(self, boards: int, seed: int, deadline: Deadline) -> str:
        return study.run_study(boards, seed, study.COUNT_S, deadline=deadline)


GENRE = register(NondangoGenre())

__all__ = ["GENRE", "Nondango", "Variant"]
