"""The workshop: what a setter's board is (unique, multiple, none or timeout), why, and the
single edits that repair it. The CLI's `fix` and the player's Edit mode both call this.

- `examine` counts the board to two and explains the verdict: two solutions and the cells
  where they differ, or the contradiction in the ladder's words, or the grade, score and
  solve path of a unique board.
- `suggest` counts every edit the genre proposes (`Genre.edits`, see `core.repair`) and
  ranks them: unique first, easiest grade first, then those that leave the board ambiguous.
- `make_unique` walks counterexamples until the count is one: each edit breaks the rival
  the count found and keeps the solution, and no board is visited twice.
- `minimize` lists the givens a unique board does not need.

A setter may pin a solution (`keep`, a grid): edits must leave it a solution. Without one
the first solution the counter finds is kept. Every count of an edit runs on a work budget
as well as the caller's deadline, so which edits are listed, and which one "Make unique"
applies, never depends on the machine or its load; the deadline only bounds the wait, and
a list the deadline cut short says so (`complete` is false).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GridproofError
from gridproof.core.grid import Cell, bits, cell_name, cells_of, mask_of
from gridproof.core.ladder import cheapest_rung, rate
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.repair import Edit, Spare
from gridproof.core.trace import Step, Violation
from gridproof.service import Loaded, step_to_json, violation_to_json

MAX_PATH_STEPS = 2000
"""The solve path shown for a unique board stops after this many steps."""
MAX_CANDIDATES = 400
"""Edits counted for one suggestion list (the genre lists the likeliest first; edits that
cannot make the board unique are not counted)."""
WALK_CANDIDATES = 32
"""Edits counted and scored at each board of `make_unique`'s walk (those that break the
rival and keep the solution, in the genre's order) on boards of up to 100 cells; larger
boards count fewer, in proportion, but at least `WALK_CANDIDATES_MIN`."""
WALK_CANDIDATES_MIN = 8
WALK_EXAMINED = 400
"""Edits of the genre's list looked at (validated) per board of the walk, at most."""
KNOWN_RIVALS = 6
"""Solutions counted at each board of the walk, to prefer edits that break many."""
ROUND_WEIGHED = 6
"""Edits weighed for each rival of a round of `make_unique` (the first in the genre's order
that break it, keep S and lead to a board not visited): the one that also breaks the most
of the round's next `ROUND_KILLS` rivals wins, then the one touching fewest cells."""
ROUND_KILLS = 8
ROUND_EXAMINED = 96
"""Edits of the genre's list looked at for one rival of a round, at most; and once one
breaks it, `ROUND_LOOK` more (the genre lists the edits aimed at the rival first, the
rest of its vocabulary after them)."""
ROUND_LOOK = 16
ONE_EDIT_COUNTED = 8
"""Before its rounds, `make_unique` counts the first this many edits *Suggest fixes* would
count (those that break the rival and keep S; when nothing is pinned, also those that keep
the rival instead), within one count's work budget in all: a board one edit from unique
gets that edit, not a longer walk."""
CHECK_WORK_PER_CELLS = 50
"""The work charged for one check of a grid by the validator (and the edit's making): a
unit per this many cells. Measured against the budgets the tests call ten seconds (80,000
Norinori closes, 40,000 Nondango propagations), a check costs a unit per 56 to 80 cells,
so a budget charged this way runs out no later than its seconds say. Checks are what a
round of the walk weighs its edits with, so its budget counts them."""
LADDER_WORK_PER_CELL = 1
"""The work charged for one run of the ladder below its top rung, per cell, scoring an edit
in the one-rival walk (a 15x15 run takes 12 to 20 ms: no more than the 225 units charged
for it, on the same scale)."""
DRIFT_PERCENT = 3
"""How far (in % of the cells) `make_unique` may move a solution that edits change (a
Nonogram's picture) from the one it started with."""
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
        """The mask of the cells where the two solutions of a `multiple` verdict differ."""
        return self.solutions[0] ^ self.solutions[1] if len(self.solutions) == 2 else 0

    @property
    def differing(self) -> tuple[Cell, ...]:
        """The cells where the two solutions of a `multiple` verdict differ (`r4c2`)."""
        return cells_of(bits(self.differ), self.loaded.puzzle.width)

    @property
    def grids(self) -> tuple[tuple[str, ...], ...]:
        """`solutions` as rows of text, the way `validate` takes a grid."""
        genre, puzzle = self.loaded.genre, self.loaded.puzzle
        return tuple(tuple(genre.format_grid(puzzle, each)) for each in self.solutions)

    @property
    def text(self) -> str:
        """One sentence for a status line."""
        if self.outcome is Verdict.UNIQUE:
            graded = f", {self.grade} (score {self.score:g})" if self.grade else ""
            return f"Unique{graded}: {len(self.path)} deductions solve it from the empty board."
        if self.outcome is Verdict.MULTIPLE:
            cells = self.differ.bit_count()
            where = cell_list(self.differ, self.loaded.puzzle.width)
            return f"Several solutions: two of them differ in {cells} cells ({where})."
        if self.outcome is Verdict.NONE:
            why = self.reason.text if self.reason else "every way of filling it breaks a rule"
            return f"No solution: {why}{_at(self)}."
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
    stopped: str | None = None
    """Why the board is not unique yet, in words naming its cells (None once unique)."""
    visited: int = 0
    """Boards the walk stood on, the first one included."""
    trail: tuple[str, ...] = field(default=(), repr=False)
    """The codes of those boards in the order the walk reached them (each at most once)."""

    @property
    def text(self) -> str:
        """One sentence: what was done, or why it stopped."""
        n = len(self.applied)
        edits = f"{n} edit{'' if n == 1 else 's'}"
        if self.report.outcome is Verdict.UNIQUE:
            return "Unique already: no edit needed." if not n else f"Unique after {edits}."
        return f"Not unique after {edits}: {self.stopped}. Go on from the board reached."

    def to_json(self) -> dict[str, Any]:
        genre, puzzle = self.report.loaded.genre, self.report.loaded.puzzle
        return {
            **self.report.to_json(),
            "puzzle": genre.to_json(puzzle),
            "keep": None if self.keep is None else genre.format_grid(puzzle, self.keep),
            "changed": len(self.applied),
            "edits": list(self.applied),
            "complete": self.complete,
            "stopped": self.stopped,
            "visited": self.visited,
            "made_text": self.text,
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


def make_unique(
    loaded: Loaded,
    keep: int | None,
    deadline: Deadline,
    *,
    drift: int | None = None,
    visited: Collection[str] = (),
) -> Made:
    """Walk counterexamples until the board counts unique (the Norinori design note's
    method, for every genre). The kept solution S is the pinned one, else the first the
    counter finds.

    A genre that lists its rivals part by part (`Genre.rivals`: Norinori, Nondango, Star
    Battle) first counts the first `ONE_EDIT_COUNTED` edits `suggest` would count (a board
    one edit from unique gets that one edit, keeping S when it is pinned), then is walked
    in rounds, as a generator walks: each round finds one rival for each
    independent part of the board still open, and breaks each rival the round's earlier
    edits left standing with one edit that keeps S (the validator decides both, no count
    per edit): of the first `ROUND_WEIGHED` such edits in the genre's order, the one that
    also breaks the most of the round's other rivals, then the one touching fewest cells.
    When a round can break none, or the genre lists no rivals, the walk goes on one rival
    at a time: it takes the rival S' the count found beside S and applies an edit of the
    genre's vocabulary that breaks S' and keeps S a solution, the one after which the
    ladder decides most, then the one touching fewest cells. When no edit is left at a
    board it steps back to the board before it and takes its next edit. Never a board
    already visited, in this call or in `visited` (the codes of the boards an earlier call
    stood on, its `Made.trail`, which a caller going on passes back).

    A genre whose edits change the solution itself (a Nonogram's picture) stays within
    `drift` cells of S (default `max_drift`). Every choice is made by counted work (the
    counts, and the validator's checks and the ladder's scoring of edits, charged to the
    deadline's work budget); the clock only ends the call, and a walk it ends says so in
    `stopped` and returns the board reached, from which a second call goes on."""
    report = examine(loaded, keep, deadline)
    if report.outcome is Verdict.UNIQUE:
        return Made(report, report.solutions[0], (), True)
    prefix: list[str] = []
    if report.outcome is Verdict.NONE:
        report, prefix = _revive(report, keep, deadline)
        if report.outcome is not Verdict.MULTIPLE:
            kept = report.solutions[0] if report.solutions else keep
            return _made(report, kept, prefix, deadline)
    elif report.outcome is Verdict.TIMEOUT:
        return _made(report, keep, [], deadline)
    genre = report.loaded.genre
    origin = report.solutions[0]
    allowed = max_drift(report.loaded.puzzle) if drift is None else drift
    first = genre.format_code(report.loaded.puzzle)
    walk = _Walk(genre, origin, allowed, {first, *visited}, [first])
    stack: list[tuple[Report, list[tuple[Edit[Any], Outcome]]]] = []
    applied: list[str] = []
    if genre.rivals is not None:
        done = walk.one_edit(report, deadline)
        if done is not None:
            applied.append(done[1])
            kept = done[0].solutions[0] if done[0].solutions else origin
            return _made(done[0], kept, prefix + applied, deadline, walk.trail)
        report = walk.rounds(report, applied, deadline)
        if report.outcome is not Verdict.MULTIPLE:
            kept = report.solutions[0] if report.solutions else origin
            return _made(report, kept, prefix + applied, deadline, walk.trail)
    start = report
    while report.outcome is Verdict.MULTIPLE and not deadline.expired():
        stack.append((report, walk.ranked(report, deadline)))
        stepped = _step(stack, applied, walk, deadline)
        if stepped is None:
            break
        report = stepped
    if report.outcome is not Verdict.UNIQUE:
        report = stack[-1][0] if stack else start  # the board reached, ambiguous
    keep = report.solutions[0] if report.solutions else keep
    return _made(report, keep, prefix + applied, deadline, walk.trail)


def max_drift(puzzle: Any) -> int:
    """How many cells a walk may change the solution by, for genres whose edits change it:
    3% of the cells, at least one."""
    cells: int = puzzle.width * puzzle.height
    return max(1, cells * DRIFT_PERCENT // 100)


@dataclass(frozen=True, slots=True)
class Minimized:
    """The givens a unique board does not need, each alone (removing two that are each
    spare may still leave the board ambiguous)."""

    report: Report
    spares: tuple[Spare, ...]
    complete: bool
    """False when the deadline stopped the checks before every given was tried."""

    @property
    def text(self) -> str:
        if self.report.outcome is not Verdict.UNIQUE:
            return "Only a unique board can be minimized: make it unique first."
        if not self.spares:
            return "Every given is needed: without any one of them the board is no longer unique."
        n = len(self.spares)
        return (
            f"{n} given{'s' if n > 1 else ''} can go, each on its own, and the board stays unique."
        )

    def to_json(self) -> dict[str, Any]:
        return {
            **self.report.to_json(),
            "spares": [{"text": s.text, "cells": list(s.cells)} for s in self.spares],
            "complete": self.complete,
            "minimize_text": self.text,
        }


def minimize(loaded: Loaded, keep: int | None, deadline: Deadline) -> Minimized:
    """For a unique board, the givens it can lose one at a time and stay unique (the genre's
    `spares`); for any other board, its report and nothing else."""
    report = examine(loaded, keep, deadline)
    genre = loaded.genre
    if report.outcome is not Verdict.UNIQUE or genre.spares is None:
        return Minimized(report, (), report.outcome is not Verdict.TIMEOUT)
    found = tuple(genre.spares(loaded.puzzle, report.solutions[0], deadline, _work(loaded.puzzle)))
    return Minimized(report, found, not deadline.expired())


# --- the walk ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Walk:
    genre: Genre[Any]
    origin: int
    drift: int
    visited: set[str]
    trail: list[str] = field(default_factory=list)

    def solves(self, puzzle: Any, grid: int, deadline: Deadline) -> bool:
        """Whether `grid` solves `puzzle` (the validator's check, charged to `deadline`)."""
        cells: int = puzzle.width * puzzle.height
        deadline.charge(1 + cells // CHECK_WORK_PER_CELLS)
        return not self.genre.validate(puzzle, grid)

    def one_edit(self, report: Report, deadline: Deadline) -> tuple[Report, str] | None:
        """The board made unique by a single edit, and the edit's text: the first that
        counts unique of the first `ONE_EDIT_COUNTED` edits `suggest` would count (against
        the rival; when nothing is pinned, also those keeping the rival instead of S),
        within one count's work in all; None when none does."""
        budget = deadline.within(work=_work(report.loaded.puzzle))
        found, _ = _counted(report, budget, 1, most=ONE_EDIT_COUNTED, skip=self.visited)
        unique = [s for s in found if s.outcome is Verdict.UNIQUE]
        if not unique or deadline.expired():
            return None
        edit = unique[0].edit
        code = self.genre.format_code(edit.puzzle)
        self.visited.add(code)
        self.trail.append(code)
        edited = Loaded(report.loaded.id, self.genre, edit.puzzle)
        return examine(edited, edit.keep, deadline), edit.text

    def rounds(self, report: Report, applied: list[str], deadline: Deadline) -> Report:
        """The round walk of `make_unique` from `report`'s ambiguous board: the board it
        ends on, unique, or ambiguous (with a rival) when a round breaks no rival, or a
        round's rivals could not be listed within the work of a count, or the deadline
        ended the call (the edits of a round cut short are kept when a rival is known to
        stand after them, else undone)."""
        genre = self.genre
        assert genre.rivals is not None
        keep = report.solutions[0]
        while not deadline.expired():
            loaded = report.loaded
            puzzle = loaded.puzzle
            found = genre.rivals(puzzle, keep, deadline.within(work=_work(puzzle)))
            if found is None or deadline.expired():
                return report
            if not found:
                return examine(loaded, keep, deadline)
            report = Report(loaded, Verdict.MULTIPLE, (keep, found[0]), pinned=report.pinned)
            made: list[str] = []
            for index, rival in enumerate(found):
                if deadline.expired():
                    break
                if index and not self.solves(puzzle, rival, deadline):
                    continue  # an earlier edit of this round broke it
                edit = self.breaker(puzzle, keep, rival, found[index + 1 :], deadline)
                if edit is None:
                    continue
                code = genre.format_code(edit.puzzle)
                self.visited.add(code)
                self.trail.append(code)
                made.append(edit.text)
                puzzle = edit.puzzle
            if not made:
                return report
            standing = next((r for r in found if self.solves(puzzle, r, deadline)), None)
            if deadline.expired() and standing is None:
                return report  # the round's board is not known to be ambiguous: undo it
            edited = Loaded(loaded.id, genre, puzzle)
            if standing is None:
                counted = examine(edited, keep, deadline)
                if counted.outcome not in (Verdict.UNIQUE, Verdict.MULTIPLE):
                    return report  # not counted in time: undo the round
                applied.extend(made)
                if counted.outcome is Verdict.UNIQUE:
                    return counted
                report = dataclasses.replace(counted, pinned=report.pinned)
                continue
            applied.extend(made)
            report = Report(edited, Verdict.MULTIPLE, (keep, standing), pinned=report.pinned)
        return report

    def breaker(
        self, puzzle: Any, keep: int, rival: int, others: list[int], deadline: Deadline
    ) -> Edit[Any] | None:
        """The edit of a round that breaks `rival` (see `make_unique`), None if none does."""
        genre = self.genre
        assert genre.edits is not None
        breaking: list[tuple[int, Edit[Any]]] = []
        listed = genre.edits(puzzle, keep, rival, keep ^ rival)
        for index, edit in enumerate(islice(listed, ROUND_EXAMINED)):
            if len(breaking) >= ROUND_WEIGHED or deadline.expired():
                break
            if breaking and index > breaking[0][0] + ROUND_LOOK:
                break
            if edit.keep != keep:
                continue  # a round keeps S exactly (the region genres' edits do)
            code = genre.format_code(edit.puzzle)
            if code in self.visited:
                continue
            if self.solves(edit.puzzle, rival, deadline):
                continue
            if not self.solves(edit.puzzle, keep, deadline):
                continue
            breaking.append((index, edit))
        if len(breaking) < 2:
            return breaking[0][1] if breaking else None
        best: tuple[tuple[int, int, int], Edit[Any]] | None = None
        for index, edit in breaking:
            killed = sum(
                not self.solves(edit.puzzle, other, deadline) for other in others[:ROUND_KILLS]
            )
            key = (-killed, len(edit.cells), index)
            if best is None or key < best[0]:
                best = (key, edit)
        return None if best is None else best[1]

    def ranked(self, report: Report, deadline: Deadline) -> list[tuple[Edit[Any], Outcome]]:
        """The edits that break the rival, keep S, stay within the drift and lead to a board
        not visited yet, each counted to two, best first: the first unique one (the genre
        lists its likeliest edits first); then the ambiguous ones that break the most of
        the board's first `KNOWN_RIVALS` solutions (the generator's own preference,
        `norinori.build.walk_rival`), then after which the ladder below its top rung
        decides the most cells, then that touch the fewest cells, in the genre's order.
        Last come edits that keep S but leave the rival standing (sideways, for a board
        where every edit that breaks the rival was tried). At most `WALK_CANDIDATES` edits
        are counted per board (fewer on large boards)."""
        genre, puzzle = self.genre, report.loaded.puzzle
        keep, rival = report.solutions
        if genre.edits is None:
            return []
        rung = genre.ladder.names[-2] if len(genre.ladder.names) > 1 else genre.ladder.top
        known = genre.count(puzzle, KNOWN_RIVALS, deadline.within(work=_work(puzzle)))
        rivals = [r for r in known.solutions if r != keep] or [rival]
        scored: list[tuple[int, int, int, int, int, Edit[Any], Outcome]] = []
        seen: set[str] = set()
        listed = genre.edits(puzzle, keep, rival, keep ^ rival)
        most = max(WALK_CANDIDATES_MIN, WALK_CANDIDATES * 100 // (puzzle.width * puzzle.height))
        most = min(most, WALK_CANDIDATES)
        for index, edit in enumerate(islice(listed, WALK_EXAMINED)):
            if len(scored) >= most or deadline.expired():
                break
            if edit.keep is None or (edit.keep ^ self.origin).bit_count() > self.drift:
                continue
            code = genre.format_code(edit.puzzle)
            if code in self.visited or code in seen:
                continue
            seen.add(code)
            if not self.solves(edit.puzzle, edit.keep, deadline):
                continue
            sideways = self.solves(edit.puzzle, rival, deadline)
            if sideways and len(scored) >= most // 2:
                continue
            outcome = genre.count(edit.puzzle, 2, deadline.within(work=_work(edit.puzzle)))
            if outcome.verdict is Verdict.UNIQUE:
                scored.append((-1, 0, 0, len(edit.cells), index, edit, outcome))
                break  # the genre lists its likeliest edits first: take the first unique one
            if outcome.verdict is not Verdict.MULTIPLE:
                continue
            killed = sum(not self.solves(edit.puzzle, r, deadline) for r in rivals)
            deadline.charge(LADDER_WORK_PER_CELL * puzzle.width * puzzle.height)
            progress = genre.solve(edit.puzzle, rung, deadline)
            decided = (progress.shaded | progress.empty).bit_count()
            scored.append((int(sideways), -killed, -decided, len(edit.cells), index, edit, outcome))
        scored.sort(key=lambda item: item[:5])
        return [(edit, outcome) for *_, edit, outcome in scored]


def _step(
    stack: list[tuple[Report, list[tuple[Edit[Any], Outcome]]]],
    applied: list[str],
    walk: _Walk,
    deadline: Deadline,
) -> Report | None:
    """Apply the next edit of the top board (stepping back past boards with none left);
    None when the deadline or the boards run out."""
    while stack and not deadline.expired():
        report, edits = stack[-1]
        if not edits:
            stack.pop()
            if applied:
                applied.pop()
            continue
        edit, counted = edits.pop(0)
        code = walk.genre.format_code(edit.puzzle)
        if code in walk.visited:
            continue
        walk.visited.add(code)
        walk.trail.append(code)
        edited = Loaded(report.loaded.id, walk.genre, edit.puzzle)
        applied.append(edit.text)
        if counted.verdict is Verdict.UNIQUE:
            return examine(edited, edit.keep, deadline)
        pair = _kept_and_rival(counted, edit.keep)
        return Report(edited, Verdict.MULTIPLE, pair, pinned=report.pinned)
    return None


def _revive(report: Report, keep: int | None, deadline: Deadline) -> tuple[Report, list[str]]:
    """A board without a solution: apply the suggested edit that gives it one (unique
    first), so that the walk has a solution to keep."""
    found, _ = _counted(report, deadline, 1)
    ranked = _ranked(found)
    if not ranked or deadline.expired():
        return report, []
    best = ranked[0]
    edited = Loaded(report.loaded.id, report.loaded.genre, best.edit.puzzle)
    return examine(edited, best.edit.keep, deadline), [best.edit.text]


def _made(
    report: Report,
    keep: int | None,
    applied: list[str],
    deadline: Deadline,
    trail: list[str] | None = None,
) -> Made:
    """The walk's end, with the reason it stopped in words when it is not unique."""
    stopped = None
    if report.outcome is not Verdict.UNIQUE:
        stopped = _why_stopped(report, deadline, bool(trail and len(trail) > 1))
    complete = report.outcome is Verdict.UNIQUE or not deadline.expired()
    walked = tuple(trail or ())
    return Made(report, keep, tuple(applied), complete, stopped, len(walked), walked)


def _why_stopped(report: Report, deadline: Deadline, walked: bool) -> str:
    width = report.loaded.puzzle.width
    where = ""
    if report.outcome is Verdict.MULTIPLE:
        where = "; still ambiguous at " + cell_list(report.differ, width)
    if report.outcome is Verdict.TIMEOUT:
        return "could not count the board in time (allow more time, or edit it by hand)"
    if report.outcome is Verdict.NONE:
        return "no single edit gives the board a solution" + _at(report)
    if deadline.out_of_work():
        return f"could not make it unique within its work budget{where}"
    if deadline.expired():
        return f"could not make it unique in {deadline.elapsed():.0f} s{where}"
    if walked:
        return f"every edit that breaks the rival leads back to a board already tried{where}"
    return f"no edit of the genre breaks the rival and keeps the solution{where}"


def _at(report: Report) -> str:
    if report.reason is None or not report.reason.cells:
        return ""
    return " (at " + cell_list(mask_of(report.reason.cells), report.loaded.puzzle.width) + ")"


def cell_list(cells: int, width: int, most: int = 8) -> str:
    """`r4c2, r5c1` (the first `most` cells, then how many more)."""
    names = [cell_name(cell, width) for cell in islice(bits(cells), most)]
    more = cells.bit_count() - len(names)
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


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


def _counted(
    report: Report,
    deadline: Deadline,
    enough: int,
    most: int = MAX_CANDIDATES,
    skip: Collection[str] = (),
) -> tuple[list[Suggestion], bool]:
    """Count the genre's edits for `report`'s board until `enough` of them are unique.

    Against a rival, an edit after which both solutions still stand cannot be unique and
    is not counted (nor one that breaks a pinned solution); so the whole vocabulary is
    tried on a small board, and a single edit that makes it unique is found whenever the
    vocabulary has one. At most `most` edits are counted (`MAX_CANDIDATES`), none whose
    board's code is in `skip`."""
    genre = report.loaded.genre
    if report.outcome not in (Verdict.MULTIPLE, Verdict.NONE):
        return [], report.outcome is not Verdict.TIMEOUT
    found: list[Suggestion] = []
    seen: set[str] = set()
    counted = 0
    for edit in _candidates(report):
        if deadline.expired() or counted >= most:
            return found, False
        code = genre.format_code(edit.puzzle)
        if code in seen or code in skip:
            continue
        seen.add(code)
        worth = _worth_counting(report, edit)
        if worth is None:
            continue
        counted += 1
        suggestion = _count_edit(genre, worth, deadline)
        if suggestion is not None:
            found.append(suggestion)
            if sum(s.outcome is Verdict.UNIQUE for s in found) >= enough:
                break
    return found, True


def _worth_counting(report: Report, edit: Edit[Any]) -> Edit[Any] | None:
    """`edit` if it may make the board unique (with `keep` None when it breaks an unpinned
    solution), else None: a pinned solution it breaks, or both solutions left standing."""
    genre, puzzle = report.loaded.genre, edit.puzzle
    keeps = edit.keep is not None and not genre.validate(puzzle, edit.keep)
    if report.outcome is not Verdict.MULTIPLE:
        return edit if keeps or edit.keep is None else None
    if report.pinned and not keeps:
        return None
    rival = report.solutions[1]
    if keeps and not genre.validate(puzzle, rival):
        return None  # the rival stands beside the kept solution
    if not keeps:
        kept = edit.keep if edit.keep is not None else report.solutions[0]
        if not genre.validate(puzzle, kept) and not genre.validate(puzzle, rival):
            return None
        return dataclasses.replace(edit, keep=None)
    return edit


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
