"""Make unique by walking counterexamples, on ambiguous boards the generators' own
machinery makes (`tests/ambiguous.py`): it ends unique within a counted work budget,
keeps the pinned solution (a Nonogram's picture moves at most 3% of its cells), the SAT
oracle agrees, and no board is stood on twice. Then the single-edit claim (`suggest`
finds a unique single edit whenever the vocabulary has one, checked exhaustively on small
boards) and minimize (each spare given, removed alone, leaves the board unique)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gridproof import service
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.grid import Geometry
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.registry import genres
from gridproof.genres.nondango import repair as nondango_repair
from gridproof.genres.nondango.sat import count_sat as nondango_sat
from gridproof.genres.nonogram import repair as nonogram_repair
from gridproof.genres.nonogram.model import clues_of, make_puzzle, runs_of
from gridproof.genres.nonogram.sat import count_sat as nonogram_sat
from gridproof.genres.norinori import repair as norinori_repair
from gridproof.genres.norinori.position import region_masks
from gridproof.genres.norinori.sat import count_sat as norinori_sat
from gridproof.genres.starbattle.sat import count_sat as starbattle_sat
from gridproof.service import Loaded, workshop
from tests.ambiguous import ambiguous

pytest.importorskip("pysat")

ORACLES: dict[str, Callable[[Any, int], Outcome]] = {
    "norinori": norinori_sat,
    "nondango": nondango_sat,
    "nonogram": nonogram_sat,
    "starbattle": starbattle_sat,
}
WORK_10S = {"norinori": 80_000, "nondango": 40_000, "nonogram": 20_000, "starbattle": 80_000}
"""About ten seconds of one core of the development machine, in each genre's counted work
(closes, propagations, line solves; the validator's checks and the ladder's scoring of
edits are charged on the same scale, see `workshop.CHECK_WORK_PER_CELLS`)."""
SIDES = (5, 7, 10, 15)
BOARDS = 3
CASES = [
    pytest.param(name, side, BOARDS, marks=[pytest.mark.slow] if side >= 15 else [])
    for name in ("nondango", "nonogram", "norinori")
    for side in SIDES
] + [
    pytest.param("starbattle", side, BOARDS, marks=[pytest.mark.slow] if side >= 10 else [])
    for side in (5, 7, 10)
]
"""Star Battle up to 10x10: its generator's boards stop at 11x11 (two stars from 10x10;
finding ambiguous ones alone takes seconds there)."""


def walk(name: str, puzzle: Any, solution: int) -> workshop.Made:
    loaded = Loaded("walk", genres()[name], puzzle)
    return workshop.make_unique(loaded, solution, Deadline(work=WORK_10S[name]))


@pytest.mark.parametrize(("name", "side", "boards"), CASES)
def test_make_unique_ends_unique_keeping_the_pinned_solution(
    name: str, side: int, boards: int
) -> None:
    genre = genres()[name]
    for puzzle, solution in ambiguous(name, side, boards):
        made = walk(name, puzzle, solution)
        assert made.report.outcome is Verdict.UNIQUE, made.stopped
        assert made.stopped is None
        assert made.applied
        final = made.report.loaded.puzzle
        assert ORACLES[name](final, 2).verdict is Verdict.UNIQUE
        assert made.keep is not None
        assert not genre.validate(final, made.keep)
        if genre.from_picture is None:
            assert made.keep == solution
        else:
            assert (made.keep ^ solution).bit_count() <= workshop.max_drift(puzzle)
        assert len(set(made.trail)) == len(made.trail) == made.visited
        assert genre.format_code(final) == made.trail[-1]


def test_a_walk_the_budget_stops_says_where_and_goes_on() -> None:
    puzzle, solution = next(ambiguous("norinori", 7, 1))
    loaded = Loaded("walk", genres()["norinori"], puzzle)
    made = workshop.make_unique(loaded, solution, Deadline(work=1000))
    assert made.report.outcome is Verdict.MULTIPLE
    assert made.stopped is not None
    assert "still ambiguous at r" in made.stopped
    assert "within its work budget" in made.stopped
    assert "Go on" in made.text
    again = workshop.make_unique(
        made.report.loaded, made.keep, Deadline(work=WORK_10S["norinori"]), visited=made.trail
    )
    assert again.report.outcome is Verdict.UNIQUE
    assert again.keep == solution
    # the second call stands on none of the boards the first one stood on, but the first
    assert again.trail[0] in made.trail
    assert not set(again.trail[1:]) & set(made.trail)


def test_a_round_breaks_every_rival_it_found_and_keeps_the_solution() -> None:
    """The rivals a region genre lists are one per independent part, each equal to the
    solution outside its part, and each a solution of the board; the round walk's edits
    break them all (or the walk goes on one rival at a time)."""
    for name in ("norinori", "nondango", "starbattle"):
        genre = genres()[name]
        assert genre.rivals is not None
        for puzzle, solution in ambiguous(name, 10, 2):
            found = genre.rivals(puzzle, solution, Deadline(work=400_000))
            assert found
            for rival in found:
                assert rival != solution
                assert not genre.validate(puzzle, rival)
            made = walk(name, puzzle, solution)
            final = made.report.loaded.puzzle
            assert made.report.outcome is Verdict.UNIQUE
            assert all(genre.validate(final, rival) for rival in found)
            assert genre.rivals(final, solution, Deadline(work=400_000)) == []


def test_a_unique_board_needs_no_edit() -> None:
    board = service.generate("nondango", 6, 6, 1, deadline=60)
    made = workshop.make_unique(board, None, Deadline(work=WORK_10S["nondango"]))
    assert made.text == "Unique already: no edit needed."
    assert not made.applied


def _vocabulary(name: str, puzzle: Any, keep: int) -> list[Any]:
    module = {"norinori": norinori_repair, "nondango": nondango_repair, "nonogram": nonogram_repair}
    edits: list[Any] = list(module[name].vocabulary(puzzle, keep))
    return edits


@pytest.mark.parametrize(("name", "side"), [("norinori", 5), ("nondango", 5), ("nonogram", 5)])
def test_fix_lists_a_unique_single_edit_whenever_the_vocabulary_has_one(
    name: str, side: int
) -> None:
    genre = genres()[name]
    for puzzle, solution in ambiguous(name, side, 3):
        exists = False
        for edit in _vocabulary(name, puzzle, solution):
            if genre.validate(edit.puzzle, edit.keep):
                continue
            if ORACLES[name](edit.puzzle, 2).verdict is Verdict.UNIQUE:
                exists = True
                break
        listed = workshop.suggest(Loaded("fix", genre, puzzle), solution, Deadline(), 1)
        found = any(s.outcome is Verdict.UNIQUE for s in listed.edits)
        assert listed.complete or found
        assert found == exists
        for s in listed.edits:
            assert "r" in s.edit.text  # every suggestion names its cells


@pytest.mark.parametrize("name", ["nondango", "norinori"])
def test_minimize_lists_exactly_the_givens_that_can_go(name: str) -> None:
    board = service.generate(name, 6, 6, 2, deadline=60)
    genre = board.genre
    lean = workshop.minimize(board, None, Deadline())
    assert lean.complete
    assert lean.report.outcome is Verdict.UNIQUE
    spare = {s.text for s in lean.spares}
    assert genre.spares is not None
    if name == "nondango":
        for cell in range(36):
            if board.puzzle.circles >> cell & 1 and not board.solution >> cell & 1:
                fewer = nondango_repair._with_circles(
                    board.puzzle, board.puzzle.circles & ~(1 << cell)
                )
                unique = nondango_sat(fewer, 2).verdict is Verdict.UNIQUE
                text = f"the circle at r{cell // 6 + 1}c{cell % 6 + 1}"
                assert (text in spare) == unique
    else:
        for edit in norinori_repair.vocabulary(board.puzzle, None):
            if edit.text.startswith("erase"):
                unique = norinori_sat(edit.puzzle, 2).verdict is Verdict.UNIQUE
                assert (edit.text.split(" (")[0].replace("erase ", "") in spare) == unique


def test_nonogram_minimize_hides_only_clues_the_others_determine() -> None:
    board = service.generate("nonogram", 5, 5, 3, deadline=60)
    puzzle, solution = board.puzzle, board.solution
    lean = workshop.minimize(board, None, Deadline())
    assert lean.complete
    hidden = {s.text.split(" (")[0] for s in lean.spares}
    for row in range(5):
        # every clue a row of five can have: the board stays unique without row's clue
        # exactly when the pictures of all of them together number one
        fits = 0
        clues = {runs_of([bool(pattern >> c & 1) for c in range(5)]) for pattern in range(32)}
        for clue in sorted(clues):
            rows = list(puzzle.rows)
            rows[row] = clue
            try:
                other = make_puzzle(rows, puzzle.cols)
            except CodeError:
                continue  # the totals disagree: no picture at all
            fits += len(nonogram_sat(other, 2).solutions)
        assert (f"the clue of row {row + 1}" in hidden) == (fits == 1)
    assert clues_of(5, 5, solution) == puzzle


def test_norinori_targeted_moves_always_break_the_rival_and_keep_the_solution() -> None:
    """The design note's claim, for every move aimed at a rival's cell (a path out of its
    region, or the cell with the free cells hanging from it): the rival dies, the kept
    solution stays, and every region stays one connected piece."""
    genre = genres()["norinori"]
    hanging = 0
    for puzzle, solution in ambiguous("norinori", 10, 3):
        geo = Geometry(puzzle.width, puzzle.height)
        labels = list(puzzle.regions)
        areas = region_masks(labels)
        found = genre.rivals(puzzle, solution, Deadline(work=400_000)) if genre.rivals else None
        assert found
        for rival in found:
            cells = rival & ~solution
            for edit in norinori_repair._moves(
                geo, labels, areas, cells, solution, solution, merge=False
            ):
                assert not genre.validate(edit.puzzle, solution), edit.text
                assert genre.validate(edit.puzzle, rival), edit.text
                assert all(geo.connected(area) for area in region_masks(list(edit.puzzle.regions)))
                hanging += " with " in edit.text
    assert hanging
