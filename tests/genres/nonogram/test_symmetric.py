"""The clues' symmetries: found on symmetric pictures, also off-centre, and true ones
(every solution's image is a solution); the search of symmetric solutions finds exactly
the solutions the symmetries leave unchanged; counts with images and that search taking
turns agree with brute force and SAT; and Knotty (a survey puzzle nothing else decides)
has two solutions, found by that search."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.core.symmetry import Symmetry
from gridproof.genres.nonogram import solve
from gridproof.genres.nonogram.brute import count_by_rows
from gridproof.genres.nonogram.codec import from_json
from gridproof.genres.nonogram.engine import Board, Grid, Prober, Propagator
from gridproof.genres.nonogram.learn import Learner
from gridproof.genres.nonogram.model import Nonogram, clues_of, transform, validate
from gridproof.genres.nonogram.sat import count_sat
from gridproof.genres.nonogram.symmetric import (
    clue_box,
    clue_symmetries,
    image,
    ties,
    with_images,
)
from tests.genres.nonogram.boards import board_mix, budget_runs, random_picture

EVERYTHING = 10**6
OTHERS = [s for s in Symmetry if s is not Symmetry.IDENTITY]


def symmetric_picture(rng: Rng, side: int, symmetry: Symmetry, density: float) -> int:
    """A random square picture that `symmetry` leaves unchanged (closed under it)."""
    picture = random_picture(rng, side, side, density)
    while (closed := picture | symmetry.mask(picture, side, side)) != picture:
        picture = closed
    return picture


def symmetric_boards(count: int, seed: int) -> Iterator[tuple[Symmetry, Nonogram]]:
    rng = Rng(seed)
    for i in range(count):
        symmetry = OTHERS[i % len(OTHERS)]
        side = rng.randint(2, 7)
        density = rng.choice([0.2, 0.35, 0.5])
        yield symmetry, clues_of(side, side, symmetric_picture(rng, side, symmetry, density))


def all_solutions(puzzle: Nonogram) -> list[int]:
    out = count_by_rows(puzzle, EVERYTHING)
    assert out.verdict is not Verdict.TIMEOUT
    return list(out.solutions)


def test_a_symmetric_picture_shows_its_symmetry() -> None:
    for symmetry, puzzle in symmetric_boards(120, seed=4):
        side = puzzle.width
        wanted = tuple(symmetry.cell_map(side, side))
        if clue_box(puzzle) == (0, side, 0, side):
            assert wanted in clue_symmetries(puzzle), (symmetry, puzzle)


def test_every_symmetry_found_carries_solutions_onto_solutions() -> None:
    rng = Rng(9)
    checked = 0
    boards = [p for _, p in symmetric_boards(80, seed=5)]
    boards += [clues_of(5, 5, random_picture(rng, 5, 5, 0.4)) for _ in range(80)]
    for puzzle in boards:
        maps = clue_symmetries(puzzle)
        solutions = all_solutions(puzzle)
        for cell_map in maps:
            assert sorted(cell_map) == list(range(puzzle.width * puzzle.height))
            for shaded in solutions:
                assert validate(puzzle, image(shaded, cell_map)) == []
                checked += 1
    assert checked > 200


def test_the_symmetries_are_those_under_which_transform_keeps_the_clues() -> None:
    rng = Rng(10)
    boards = [p for _, p in symmetric_boards(200, seed=11)]
    boards += [clues_of(w, w, random_picture(rng, w, w, 0.5)) for w in (1, 2, 3) for _ in range(30)]
    boards += board_mix(100, seed=12, largest=4)  # with mismatched clues (often no solution)
    for puzzle in boards:
        top, bottom, left, right = clue_box(puzzle)
        box = Nonogram(right - left, bottom - top, puzzle.rows[top:bottom], puzzle.cols[left:right])
        kept = set()
        for s in OTHERS:
            if not box.width or transform(box, s) != box:
                continue
            cell_map = list(range(puzzle.width * puzzle.height))
            for r in range(box.height):
                for c in range(box.width):
                    r2, c2 = s.map_rc(r, c, box.width, box.height)
                    cell_map[(top + r) * puzzle.width + left + c] = (
                        (top + r2) * puzzle.width + left + c2
                    )
            if cell_map != sorted(cell_map):  # not the identity
                kept.add(tuple(cell_map))
        found = clue_symmetries(puzzle)
        assert len(set(found)) == len(found)
        assert set(found) == kept


def test_the_box_of_clued_lines_finds_an_off_centre_symmetry() -> None:
    # A plus sign (symmetric under all eight) drawn in the top-left of a 6×5 board.
    plus = {(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)}
    shaded = sum(1 << (r * 6 + c) for r, c in plus)
    puzzle = clues_of(6, 5, shaded)
    assert clue_box(puzzle) == (0, 3, 0, 3)
    maps = clue_symmetries(puzzle)
    assert len(maps) == 7
    for cell_map in maps:
        assert image(shaded, cell_map) == shaded
        outside = [cell for cell in range(30) if cell % 6 >= 3 or cell // 6 >= 3]
        assert all(cell_map[cell] == cell for cell in outside)


def test_a_board_without_clues_or_symmetry_has_none() -> None:
    assert clue_symmetries(clues_of(4, 3, 0)) == ()
    # Rows ##. .## ..#: no symmetry of the square keeps its clues.
    assert clue_symmetries(clues_of(3, 3, 0b001_110_011)) == ()


def test_ties_tie_each_orbit_to_its_first_cell() -> None:
    maps = clue_symmetries(clues_of(3, 3, 0b010_111_010))  # a plus: all eight
    pairs = ties(maps, 9)
    orbits: dict[int, set[int]] = {}
    for first, other in pairs:
        assert first < other
        orbits.setdefault(first, {first}).add(other)
    assert sorted(map(sorted, orbits.values())) == [[0, 2, 6, 8], [1, 3, 5, 7]]


def test_images_come_after_each_solution_once() -> None:
    flip = tuple(Symmetry.FLIP_H.cell_map(2, 1))
    assert with_images([0b01, 0b10, 0b11], [flip]) == [0b01, 0b10, 0b11]
    assert with_images([0b10], [flip, flip]) == [0b10, 0b01]


def _symmetric_search(puzzle: Nonogram) -> Learner:
    board = Board(puzzle)
    root = Grid.blank(board)
    assert Propagator(board, Deadline.never()).run(root)
    pairs = ties(clue_symmetries(puzzle), puzzle.width * puzzle.height)
    return Learner(board, root, Deadline.never(), ties=pairs)


@pytest.mark.slow
def test_the_symmetric_search_finds_exactly_the_symmetric_solutions() -> None:
    several = 0
    for _, puzzle in symmetric_boards(150, seed=6):
        maps = clue_symmetries(puzzle)
        fixed = [s for s in all_solutions(puzzle) if all(image(s, m) == s for m in maps)]
        found, finished = _symmetric_search(puzzle).count(EVERYTHING)
        assert finished
        assert sorted(found) == sorted(fixed), puzzle
        several += len(fixed) > 1
    assert several >= 5


@pytest.fixture
def turns_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search takes turns from the first step (real counts let the learning search
    settle most boards alone first), in short slices."""
    monkeypatch.setattr(solve, "NATIVE_FIRST", 0)
    monkeypatch.setattr(solve, "NATIVE_PER_CONFLICT", 0.01)
    monkeypatch.setattr(solve, "SAT_NATIVE_FIRST", 0)
    monkeypatch.setattr(solve, "SAT_NATIVE_PER_CONFLICT", 0.01)


@pytest.mark.usefixtures("turns_at_once")
@pytest.mark.parametrize("sat", [False, True])
def test_counts_with_symmetries_agree_with_brute_force_and_sat(sat: bool) -> None:
    verdicts = set()
    searched = 0
    for _, puzzle in symmetric_boards(150, seed=7):
        brute = count_by_rows(puzzle, 2)
        out = solve.count(puzzle, 2, sat=sat)
        assert out.verdict == brute.verdict == count_sat(puzzle).verdict, puzzle
        verdicts.add(out.verdict)
        searched += out.nodes > 1 or out.verdict is Verdict.MULTIPLE  # a second needs search
        assert len(set(out.solutions)) == len(out.solutions)
        for shaded in out.solutions:
            assert validate(puzzle, shaded) == []
        if out.verdict is Verdict.UNIQUE:
            assert out.solutions == brute.solutions
    assert verdicts == {Verdict.UNIQUE, Verdict.MULTIPLE}
    assert searched >= 10  # boards the root could not settle took turns


@pytest.mark.usefixtures("turns_at_once")
def test_a_work_budget_stops_the_symmetric_turns_the_same_way_every_time() -> None:
    boards = [p for _, p in symmetric_boards(150, seed=7)]
    puzzle = max(boards, key=lambda p: solve.count(p, 2, sat=False).nodes)
    runs = budget_runs(puzzle, (1, 30, 300, 10**7))
    assert runs[0::2] == runs[1::2]
    assert runs[0][1] is Verdict.TIMEOUT
    assert runs[-1][1] is not Verdict.TIMEOUT


def test_knotty_has_two_symmetric_solutions(corpus_dir: Path) -> None:
    doc = json.loads((corpus_dir / "hard-nonograms.json").read_text(encoding="utf-8"))
    (entry,) = [e for e in doc["puzzles"] if e["id"] == "survey-knotty"]
    puzzle = from_json(entry)
    maps = clue_symmetries(puzzle)
    assert len(maps) == 3  # the quarter turns: the picture is a knot turned four ways
    board = Board(puzzle)
    deadline = Deadline.never().within(work=2_000_000)
    lines = Propagator(board, deadline)
    root = Grid.blank(board)
    assert lines.run(root)
    prober = Prober(lines)
    root = prober.run(root)
    assert root is not None
    pairs = ties(maps, puzzle.width * puzzle.height)
    search = Learner(board, root, deadline, prober.scores, prober.phases, ties=pairs)
    found, _ = search.count(2)
    assert len(found) == 2
    assert found[0] != found[1]
    for shaded in found:
        assert validate(puzzle, shaded) == []
