"""The workshop: what a setter's board is (unique, multiple, none or timeout), why, and the
single edits that repair it. The CLI's `fix` and the player's Edit mode both call this.

- `examine` counts the board to two and explains the verdict: two solutions and the cells
  where they differ, or the contradiction in the ladder's words, or the grade, score and
  solve path of a unique board.
- `suggest` counts every edit the genre proposes (`Genre.edits`, see `core.repair`) and
  ranks them: unique first, easiest grade first, then those that leave the board ambiguous.
- `make_unique` applies edits until the count is one.

A setter may pin a solution (`keep`, a grid): edits must leave it a solution. Without one
the first solution the counter finds is kept. Every count of an edit runs on a work budget
as well as the caller's deadline, so which edits are listed, and which one "Make unique"
applies, never depends on the machine or its load; the deadline only bounds the wait, and
a list the deadline cut short says so (`complete` is false).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GridproofError
from gridproof.core.grid import bits, mask_of
from gridproof.core.ladder import cheapest_rung, rate
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.repair import Edit
from gridproof.core.trace import Step, Violation
from gridproof.service import Loaded, step_to_json, violation_to_json

MAX_PATH_STEPS = 2000
"""The solve path shown for a unique board stops after this many steps."""
MAX_CANDIDATES = 60
"""Edits counted for one suggestion list (the genre lists the likeliest first)."""
SCORED_CANDIDATES = 16
"""Edits tried per round of `make_unique` when none makes the board unique."""
MAX_ROUNDS = 40
"""Edits `make_unique` applies at most."""
WORK_PER_CELL = 4000
"""The work budget of counting one edit, per cell, in the genre's own units (closes,
propagations, line solves). The corpus boards need 0.5 per cell at the median and the
hardest of hard-nonograms.json that the counter decides in about a second 1,300, so
only boards far harder than any a setter repairs by single edits run out; an edit that
does is listed as `timeout`, on every machine alike."""


@dataclass(frozen=True, slots=True)
class Report:
    """The verdict on one board and what explains it."""

    loaded: Loaded = field(repr=False)
    outcome: Verdict
    solutions: tuple[int, ...]
    """Unique: the solution; multiple: the kept one and a rival."""
    reason: Violation | None = None
    grade: str | None = None
    score: float | None = None
    path: tuple[Step, ...] = ()
    keep_problem: str | None = None
    """Why the pinned solution is not one (None when it is, or nothing was pinned)."""
    pinned: bool = False
    """Whether the first solution is the setter's (else the counter's first)."""

    @property
    def differ(self) -> int:
        return self.solutions[0] ^ self.solutions[1] if len(self.solutions) == 2 else 0

    @property
    def text(self) -> str:
        """One sentence for a status line."""
        if self.outcome is Verdict.UNIQUE:
            graded = f", {self.grade} (score {self.score:g})" if self.grade else ""
            return f"Unique{graded}: {len(self.path)} deductions solve it from the empty board."
        if self.outcome is Verdict.MULTIPLE:
            cells = self.differ.bit_count()
            return f"Several solutions: two of them differ in {cells} cells."
        if self.outcome is Verdict.NONE:
            why = self.reason.text if self.reason else "every way of filling it breaks a rule"
            return f"No solution: {why}."
        return "No verdict yet: the count ran out of time (edit on, or allow more time)."

    def to_json(self) -> dict[str, Any]:
        genre, puzzle = self.loaded.genre, self.loaded.puzzle
        return {
            "id": self.loaded.id,
            "genre": genre.name,
            "code": genre.format_code(puzzle),
            "url": _url(genre, puzzle),
            "width": puzzle.width,
            "height": puzzle.height,
            "outcome": str(self.outcome),
            "solutions": [genre.format_grid(puzzle, s) for s in self.solutions],
            "differ": list(bits(self.differ)),
            "reason": None if self.reason is None else violation_to_json(self.reason),
            "grade": self.grade,
            "score": self.score,
            "rating": None
            if self.grade is None or self.score is None
            else genre.rating(self.grade, self.score, puzzle.width, puzzle.height),
            "path": [_path_step(genre, step) for step in self.path],
            "keep_problem": self.keep_problem,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One edit, counted: what it leaves (`outcome`, and the grade when unique)."""

    edit: Edit[Any]
    genre: Genre[Any] = field(repr=False)
    outcome: Verdict
    grade: str | None = None
    score: float | None = None

    def to_json(self) -> dict[str, Any]:
        genre, puzzle, keep = self.genre, self.edit.puzzle, self.edit.keep
        return {
            "text": self.edit.text,
            "cells": list(self.edit.cells),
            "code": genre.format_code(puzzle),
            "puzzle": genre.to_json(puzzle),
            "keep": None if keep is None else genre.format_grid(puzzle, keep),
            "outcome": str(self.outcome),
            "grade": self.grade,
            "score": self.score,
            "rating": None
            if self.grade is None or self.score is None
            else genre.rating(self.grade, self.score, puzzle.width, puzzle.height),
        }


@dataclass(frozen=True, slots=True)
class Repairs:
    """The ranked edits for one board."""

    report: Report
    edits: tuple[Suggestion, ...]
    complete: bool
    """False when the deadline stopped the counting before every edit was tried."""

    def to_json(self) -> dict[str, Any]:
        return {
            **self.report.to_json(),
            "edits": [s.to_json() for s in self.edits],
            "complete": self.complete,
        }


@dataclass(frozen=True, slots=True)
class Made:
    """Where `make_unique` ended: the board, its pinned solution and the edits applied."""

    report: Report
    keep: int | None
    applied: tuple[str, ...]
    complete: bool

    def to_json(self) -> dict[str, Any]:
        genre, puzzle = self.report.loaded.genre, self.report.loaded.puzzle
        return {
            **self.report.to_json(),
            "puzzle": genre.to_json(puzzle),
            "keep": None if self.keep is None else genre.format_grid(puzzle, self.keep),
            "changed": len(self.applied),
            "edits": list(self.applied),
            "complete": self.complete,
        }


# --- the calls ---------------------------------------------------------------------------


def parse_keep(loaded: Loaded, rows: Sequence[str] | None) -> int | None:
    """The pinned solution `rows` as a mask (None for None); `CodeError` when the rows do not
    fit the board."""
    if rows is None:
        return None
    try:
        return loaded.genre.parse_grid(loaded.puzzle, rows)
    except GridproofError as error:
        raise CodeError(f"keep grid: {str(error).splitlines()[0]}") from None


def examine(loaded: Loaded, keep: int | None, deadline: Deadline) -> Report:
    """Count the board to two under `deadline` and explain the verdict."""
    genre, puzzle = loaded.genre, loaded.puzzle
    keep, problem = _checked_keep(loaded, keep)
    outcome = genre.count(puzzle, 2, deadline)
    if outcome.verdict is Verdict.MULTIPLE:
        pair = _kept_and_rival(outcome, keep)
        return Report(loaded, outcome.verdict, pair, keep_problem=problem, pinned=keep is not None)
    if outcome.verdict is Verdict.NONE:
        progress = genre.solve(puzzle, genre.ladder.top, deadline)
        return Report(loaded, outcome.verdict, (), progress.contradiction, keep_problem=problem)
    if outcome.verdict is Verdict.TIMEOUT:
        return Report(loaded, outcome.verdict, (), keep_problem=problem)
    rung, progress = cheapest_rung(genre.ladder, genre.position, puzzle, deadline)
    if progress.timed_out:
        return Report(loaded, outcome.verdict, outcome.solutions, keep_problem=problem)
    rated = rate(genre.ladder, rung, progress)
    return Report(
        loaded,
        outcome.verdict,
        outcome.solutions,
        grade=rated.grade,
        score=rated.score,
        path=progress.steps[:MAX_PATH_STEPS],
        keep_problem=problem,
    )


def suggest(loaded: Loaded, keep: int | None, deadline: Deadline, limit: int = 6) -> Repairs:
    """The board's verdict and up to `limit` single edits that repair it, best first."""
    report = examine(loaded, keep, deadline)
    found, complete = _counted(report, deadline, limit)
    return Repairs(report, tuple(_ranked(found)[:limit]), complete and not deadline.expired())


def make_unique(loaded: Loaded, keep: int | None, deadline: Deadline) -> Made:
    """Apply edits until the board counts unique (or no edit helps, or time runs out): a
    unique edit when there is one, else the edit after which the ladder decides most. A
    pinned solution stays pinned through every edit."""
    pinned = keep is not None
    applied: list[str] = []
    report = examine(loaded, keep, deadline)
    complete = True
    while report.outcome in (Verdict.MULTIPLE, Verdict.NONE) and len(applied) < MAX_ROUNDS:
        found, complete = _counted(report, deadline, 1)
        best = _next_edit(report.loaded.genre, found, deadline)
        if best is None or deadline.expired():
            complete = complete and best is not None
            break
        applied.append(best.edit.text)
        keep = best.edit.keep if pinned else None
        edited = Loaded(report.loaded.id, report.loaded.genre, best.edit.puzzle)
        report = examine(edited, keep, deadline)
    if report.outcome is Verdict.UNIQUE:
        keep = report.solutions[0]
    if report.outcome is Verdict.TIMEOUT or deadline.expired():
        complete = False
    return Made(report, keep, tuple(applied), complete)


# --- inside ------------------------------------------------------------------------------


def _checked_keep(loaded: Loaded, keep: int | None) -> tuple[int | None, str | None]:
    """`keep` if it is a solution of the board, else None and the first rule it breaks."""
    if keep is None:
        return None, None
    broken = loaded.genre.validate(loaded.puzzle, keep)
    if broken:
        return None, f"the pinned solution is not one: {broken[0].text}"
    return keep, None


def _kept_and_rival(outcome: Outcome, keep: int | None) -> tuple[int, int]:
    first, second = outcome.solutions[:2]
    if keep is None:
        return first, second
    return keep, (second if first == keep else first)


def _candidates(report: Report) -> Iterator[Edit[Any]]:
    """The genre's edits against the rival; when nothing is pinned, then also those that
    keep the rival and break the first solution (some rivals no single edit breaks)."""
    genre, puzzle = report.loaded.genre, report.loaded.puzzle
    if genre.edits is None:
        return
    if report.outcome is Verdict.MULTIPLE:
        keep, rival = report.solutions
        yield from genre.edits(puzzle, keep, rival, keep ^ rival)
        if not report.pinned:
            yield from genre.edits(puzzle, rival, keep, keep ^ rival)
        return
    focus = mask_of(report.reason.cells) if report.reason else 0
    yield from genre.edits(puzzle, None, None, focus)


def _counted(report: Report, deadline: Deadline, enough: int) -> tuple[list[Suggestion], bool]:
    """Count the genre's edits for `report`'s board until `enough` of them are unique."""
    genre = report.loaded.genre
    if report.outcome not in (Verdict.MULTIPLE, Verdict.NONE):
        return [], report.outcome is not Verdict.TIMEOUT
    found: list[Suggestion] = []
    seen: set[str] = set()
    for edit in islice(_candidates(report), MAX_CANDIDATES):
        if deadline.expired():
            return found, False
        code = genre.format_code(edit.puzzle)
        if code in seen or (edit.keep is not None and genre.validate(edit.puzzle, edit.keep)):
            continue
        seen.add(code)
        suggestion = _count_edit(genre, edit, deadline)
        if suggestion is not None:
            found.append(suggestion)
            if sum(s.outcome is Verdict.UNIQUE for s in found) >= enough:
                break
    return found, True


def _count_edit(genre: Genre[Any], edit: Edit[Any], deadline: Deadline) -> Suggestion | None:
    """The edit counted (None when it leaves no solution)."""
    outcome = genre.count(edit.puzzle, 2, deadline.within(work=_work(edit.puzzle)))
    if outcome.verdict is Verdict.NONE:
        return None
    if outcome.verdict is not Verdict.UNIQUE:
        return Suggestion(edit, genre, outcome.verdict)
    rung, progress = cheapest_rung(genre.ladder, genre.position, edit.puzzle, deadline)
    rated = rate(genre.ladder, rung, progress)
    return Suggestion(edit, genre, outcome.verdict, rated.grade, rated.score)


def _ranked(found: list[Suggestion]) -> list[Suggestion]:
    """Unique first (easiest grade, then lowest score), then multiple, then timeouts; the
    genre's order within each."""
    order = {Verdict.UNIQUE: 0, Verdict.MULTIPLE: 1, Verdict.TIMEOUT: 2}

    def key(item: tuple[int, Suggestion]) -> tuple[int, int, float, int]:
        index, s = item
        grades = s.genre.ladder.grades
        grade = grades.index(s.grade) if s.grade in grades else len(grades)
        return order[s.outcome], grade, s.score or 0.0, index

    return [s for _, s in sorted(enumerate(found), key=key)]


def _next_edit(genre: Genre[Any], found: list[Suggestion], deadline: Deadline) -> Suggestion | None:
    """The edit `make_unique` applies: the best unique one, else among the first ambiguous
    ones the one after which the whole ladder decides the most cells."""
    ranked = _ranked(found)
    if ranked and ranked[0].outcome is Verdict.UNIQUE:
        return ranked[0]
    best: tuple[int, Suggestion] | None = None
    for s in ranked[:SCORED_CANDIDATES]:
        if s.outcome is not Verdict.MULTIPLE:
            continue
        budget = deadline.within(work=_work(s.edit.puzzle))
        progress = genre.solve(s.edit.puzzle, genre.ladder.top, budget)
        decided = (progress.shaded | progress.empty).bit_count()
        if best is None or decided > best[0]:
            best = (decided, s)
    return None if best is None else best[1]


def _work(puzzle: Any) -> int:
    cells: int = puzzle.width * puzzle.height
    return WORK_PER_CELL * cells


def _path_step(genre: Genre[Any], step: Step) -> dict[str, Any]:
    return {**step_to_json(step), "title": genre.ladder.title(step.rule)}


def _url(genre: Genre[Any], puzzle: Any) -> str | None:
    try:
        return genre.format_url(puzzle)
    except GridproofError:
        return None
