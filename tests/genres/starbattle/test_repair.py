"""The workshop on Star Battle: border moves that keep a setter's pinned solution, and the
walk that makes an ambiguous board unique (boards from the generator's own stars and
grown regions, before its uniqueness steering)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genres
from gridproof.core.rng import Rng
from gridproof.genres.starbattle import repair
from gridproof.genres.starbattle.generate import grow_regions, place_stars
from gridproof.genres.starbattle.model import StarBattle, make_puzzle
from gridproof.service import Loaded, workshop

GENRE = genres()["starbattle"]
WORK = 80_000
"""The walk's counted work: about ten seconds of one core (as the other genres' walks)."""


def ambiguous(side: int, stars: int, boards: int) -> Iterator[tuple[StarBattle, int]]:
    """`boards` boards with two solutions or more, and the stars their regions grew around."""
    found = 0
    for seed in range(500):
        rng = Rng(seed)
        solution = place_stars(side, stars, rng)
        labels = None if solution is None else grow_regions(side, stars, solution, rng)
        if solution is None or labels is None:
            continue
        puzzle = make_puzzle([labels[r * side : (r + 1) * side] for r in range(side)], stars)
        if GENRE.count(puzzle, 2, Deadline(10)).verdict is Verdict.MULTIPLE:
            yield puzzle, solution
            found += 1
            if found == boards:
                return
    raise AssertionError(f"fewer than {boards} ambiguous {side}x{side} boards in 500 seeds")


def test_edits_move_cells_and_keep_a_board_of_side_regions() -> None:
    puzzle, solution = next(ambiguous(6, 1, 1))
    rival = next(s for s in GENRE.count(puzzle, 2, Deadline(10)).solutions if s != solution)
    listed = list(repair.edits(puzzle, solution, rival, solution ^ rival))
    assert listed
    assert len({edit.puzzle.regions for edit in listed}) == len(listed)
    for edit in listed:
        assert edit.text.startswith("move ")
        assert edit.puzzle.region_count == puzzle.width
        assert edit.keep == solution
        changed = {c for c in range(36) if edit.puzzle.regions[c] != puzzle.regions[c]}
        assert changed, edit.text
    # the targeted moves first: the first edit moves a cell the rival stars and S leaves empty
    first = listed[0].cells[0]
    assert rival >> first & 1
    assert not solution >> first & 1


def test_edits_without_a_solution_stay_near_the_cells_named() -> None:
    puzzle, _ = next(ambiguous(6, 1, 1))
    focus = 1 << 14
    for edit in repair.edits(puzzle, None, None, focus):
        assert edit.puzzle.region_count == puzzle.width


@pytest.mark.parametrize(("side", "stars"), [(6, 1), (8, 1)])
def test_make_unique_ends_unique_keeping_the_pinned_solution(side: int, stars: int) -> None:
    for puzzle, solution in ambiguous(side, stars, 3):
        made = workshop.make_unique(Loaded("walk", GENRE, puzzle), solution, Deadline(work=WORK))
        assert made.report.outcome is Verdict.UNIQUE, made.stopped
        final = made.report.loaded.puzzle
        assert made.keep == solution
        assert GENRE.validate(final, solution) == []
        assert GENRE.oracles[-1].count(final, 2).verdict is Verdict.UNIQUE
        assert final.region_count == side


def test_suggest_offers_single_edits_that_keep_the_solution() -> None:
    puzzle, solution = next(ambiguous(6, 1, 1))
    repairs = workshop.suggest(Loaded("fix", GENRE, puzzle), solution, Deadline(20))
    assert repairs.edits
    for suggestion in repairs.edits:
        assert GENRE.validate(suggestion.edit.puzzle, solution) == []
    unique = [s for s in repairs.edits if s.outcome is Verdict.UNIQUE]
    for suggestion in unique:
        oracle = GENRE.oracles[-1].count(suggestion.edit.puzzle, 2)
        assert oracle.verdict is Verdict.UNIQUE, suggestion.edit.text


def test_rivals_are_the_parts_of_the_counted_rivals_each_a_solution() -> None:
    for puzzle, solution in ambiguous(8, 1, 5):
        found = repair.rivals(puzzle, solution, Deadline(10))
        assert found
        for rival in found:
            assert rival != solution
            assert GENRE.validate(puzzle, rival) == []
        counted = [s for s in GENRE.count(puzzle, 2, Deadline(10)).solutions if s != solution]
        for other in counted:
            pieces = repair.parts(puzzle, other ^ solution)
            assert sum(pieces) == other ^ solution  # the parts cut the change, no overlap
            assert sum(piece.bit_count() for piece in pieces) == (other ^ solution).bit_count()
    made = workshop.make_unique(Loaded("walk", GENRE, puzzle), solution, Deadline(work=WORK))
    assert repair.rivals(made.report.loaded.puzzle, solution, Deadline(10)) == []
