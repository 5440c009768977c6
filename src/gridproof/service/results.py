"""The values the service returns: a loaded puzzle, a count, a rung's progress, a generated
board, a genre's summary. Each `to_json()` gives the shape the CLI's `--json` prints and the
web API sends."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import Any

from gridproof.core.codes import format_size
from gridproof.core.contract import Genre, Health
from gridproof.core.drawing import MAX_SIDE, to_svg
from gridproof.core.errors import CodeError, quote
from gridproof.core.grid import bits
from gridproof.core.outcome import Verdict
from gridproof.core.trace import Group, Step, Violation

Grid = tuple[str, ...]
"""A grid as rows of text, one string per row."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """One puzzle read from a source, with what a corpus says about it."""

    id: str
    genre: Genre[Any] = field(repr=False)
    puzzle: Any
    expected: str | None = None
    solution: int | None = None
    """The corpus solution as a shaded-cell mask (bit row * width + col)."""

    @property
    def code(self) -> str:
        """The puzzle's gridproof code (what `gridproof.load` reads back)."""
        return self.genre.format_code(self.puzzle)

    def text(self, solution: bool = False) -> str:
        """The puzzle as its genre's text picture (clues or region borders), one line per
        row; with `solution`, the solution the source recorded drawn in (`#` shaded)."""
        shaded = self.solution if solution and self.solution is not None else None
        if solution and shaded is None:
            raise CodeError(f"{quote(self.id)} records no solution; count it to find one")
        everything = (1 << (self.puzzle.width * self.puzzle.height)) - 1
        empty = 0 if shaded is None else everything & ~shaded
        return "\n".join(self.genre.format_text(self.puzzle, shaded or 0, empty))

    def to_json(self) -> dict[str, Any]:
        """The puzzle as one object of the corpus format: `gridproof.load` reads it back
        (with its id, what it is `expected` to be and its `solution` as 0/1 rows)."""
        body = {
            k: v for k, v in self.genre.to_json(self.puzzle).items() if k not in ("id", "genre")
        }
        out: dict[str, Any] = {"id": self.id, "genre": self.genre.name, **body}
        if self.expected is not None:
            out["expected"] = self.expected
        if self.solution is not None:
            width, height = self.puzzle.width, self.puzzle.height
            out["solution"] = [
                [self.solution >> (r * width + c) & 1 for c in range(width)] for r in range(height)
            ]
        return out

    def _repr_svg_(self) -> str | None:
        """How a notebook draws the puzzle (as printed, without its solution)."""
        if self.genre.draw is None or max(self.puzzle.width, self.puzzle.height) > MAX_SIDE:
            return None
        return to_svg(self.genre.draw(self.puzzle, None))

    def _repr_html_(self) -> str:
        """The drawing with the text picture beneath it, folded; the text picture alone for
        a board too large to draw."""
        picture = f"<pre>{escape(self.text())}</pre>"
        svg = self._repr_svg_()
        if svg is None:
            return picture
        return f"<div>{svg}<details><summary>{escape(self.id)}</summary>{picture}</details></div>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's text view: the id and genre, then the text picture."""
        printer.text(f"{self.genre.name} {self.id}\n{self.text()}")


@dataclass(frozen=True, slots=True)
class Counted:
    """The solutions of one puzzle counted up to a limit: the verdict, each solution found
    as rows of text, and what the count cost."""

    id: str
    genre: str
    verdict: Verdict
    solutions: tuple[Grid, ...]
    elapsed_s: float
    nodes: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "genre": self.genre,
            "outcome": str(self.verdict),
            "solutions": [list(rows) for rows in self.solutions],
            "elapsed_s": self.elapsed_s,
            "nodes": self.nodes,
        }


@dataclass(frozen=True, slots=True)
class Solved:
    """How far one rung of the ladder gets alone: the grid it leaves (`#` shaded, `.` empty,
    `?` undecided), the fraction of cells it decided, and its steps in order."""

    id: str
    rung: str
    decided: float
    grid: Grid
    steps: tuple[Step, ...]
    contradiction: Violation | None = None
    timed_out: bool = False
    notes: tuple[str, ...] = ()
    """What the rules skipped as too costly for this board, in words."""

    @property
    def complete(self) -> bool:
        """Whether the rung decided every cell without a contradiction."""
        return self.decided == 1.0 and self.contradiction is None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rules": self.rung,
            "decided": round(self.decided, 4),
            "grid": list(self.grid),
            "steps": [step_to_json(step) for step in self.steps],
            "contradiction": None if self.contradiction is None else self.contradiction.text,
            "timed_out": self.timed_out,
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class Board:
    """A generated board proven unique, with the seed that rebuilds it, its grade and the
    generator's evidence. `solution` is a shaded-cell mask."""

    genre: Genre[Any] = field(repr=False)
    puzzle: Any
    code: str
    seed: int
    solution: int
    difficulty: str
    metrics: Mapping[str, Any]
    health: Health
    score: float = 0.0
    """The ladder's numeric difficulty (see `core.ladder.rate`)."""

    @property
    def generator(self) -> str:
        """The generator version that, with the request and seed, rebuilds the board."""
        return self.genre.generator

    @property
    def size(self) -> str:
        return format_size(self.puzzle.width, self.puzzle.height)

    @property
    def rating(self) -> float:
        """The grade and score on one scale (`core.ladder.rating`)."""
        return self.genre.rating(self.difficulty, self.score, self.puzzle.width, self.puzzle.height)

    @property
    def solution_rows(self) -> Grid:
        """The solution as the genre writes a grid."""
        return tuple(self.genre.format_grid(self.puzzle, self.solution))

    @property
    def loaded(self) -> Loaded:
        """The board as a loaded puzzle (named by its code), to count, solve or hint."""
        return Loaded(self.code, self.genre, self.puzzle, str(Verdict.UNIQUE), self.solution)

    def text(self, solution: bool = False) -> str:
        """The board as its genre's text picture, with its solution if `solution`."""
        return self.loaded.text(solution)

    def _repr_svg_(self) -> str | None:
        return self.loaded._repr_svg_()

    def _repr_html_(self) -> str:
        return self.loaded._repr_html_()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(f"{self.genre.name} {self.code} ({self.difficulty})\n{self.text()}")

    def to_json(self) -> dict[str, Any]:
        return {
            "genre": self.genre.name,
            "code": self.code,
            "seed": self.seed,
            "size": self.size,
            "puzzle": self.genre.to_json(self.puzzle),
            "solution": list(self.solution_rows),
            "difficulty": self.difficulty,
            "score": self.score,
            "rating": self.rating,
            "generator": self.generator,
            "metrics": dict(self.metrics),
            "health": self.health.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class GenreInfo:
    """A registered genre's name, title and the rungs of its ladder."""

    name: str
    title: str
    rungs: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "rungs": list(self.rungs)}


def step_to_json(step: Step) -> dict[str, Any]:
    """A ladder step as the CLI and the web show it (cells as lists, lowest first)."""
    return {
        "rule": step.rule,
        "text": step.text,
        "shaded": list(bits(step.shaded)),
        "empty": list(bits(step.empty)),
        "cells": list(step.cells),
        "regions": list(step.regions),
    }


def violation_to_json(violation: Violation) -> dict[str, Any]:
    """A broken rule as the CLI and the web show it."""
    return {
        "rule": violation.rule,
        "text": violation.text,
        "cells": list(violation.cells),
        "regions": list(violation.regions),
        "quota": violation.quota,
        "group": list(violation.group),
    }


@dataclass(frozen=True, slots=True)
class Judged:
    """A partial grid judged (`service.judge`): every rule the validator finds broken,
    each with whether it is broken already (`final`: no way of deciding the undecided
    cells repairs it) or only still open, and the groups the rules fill that are complete
    (`Genre.groups`). The player renders these; it knows no rule."""

    violations: tuple[tuple[Violation, bool], ...]
    complete: tuple[Group, ...]

    @property
    def solved(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        return {
            "solved": self.solved,
            "violations": [
                {**violation_to_json(violation), "final": final}
                for violation, final in self.violations
            ],
            "complete": [
                {"cells": list(group.cells), "region_id": group.region} for group in self.complete
            ],
        }
