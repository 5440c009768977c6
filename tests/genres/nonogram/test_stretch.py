"""The last stretch (CaDiCaL on the order encoding of the open lines) against brute force
and the Glucose oracle: every solution enumerated from the bare board and from probed
roots, counts run in slices of one conflict, the counter with the stretch taking part in
every search, the pure-Python fallback, and no stretch under a work budget."""

from __future__ import annotations

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.nonogram import solve, stretch
from gridproof.genres.nonogram.brute import count_by_rows
from gridproof.genres.nonogram.engine import Board, Grid, Prober, Propagator
from gridproof.genres.nonogram.model import clues_of, validate
from gridproof.genres.nonogram.sat import count_sat
from tests.genres.nonogram.boards import board_mix, random_picture

pytest.importorskip("pysat", reason="the last stretch needs python-sat (the dev extras)")

BOARDS = board_mix(300, seed=1414, largest=7)
EVERYTHING = 10**6


def test_the_order_encoding_enumerates_every_solution_from_the_bare_board() -> None:
    for puzzle in BOARDS:
        board = Board(puzzle)
        blank = [0] * board.line_count
        with stretch.Session(board, blank, blank) as session:
            assert session.run(EVERYTHING, 10**9, Deadline.never())
        assert sorted(session.solutions) == sorted(count_by_rows(puzzle, EVERYTHING).solutions)


def test_from_a_probed_root_and_in_slices_of_one_conflict() -> None:
    rng = Rng(14)
    for side in (10, 12, 15, 15, 15, 15, 15, 15, 18, 18):
        puzzle = clues_of(side, side, random_picture(rng, side, side, 0.4))
        board = Board(puzzle)
        lines = Propagator(board, Deadline.never())
        root = Grid.blank(board)
        assert lines.run(root)
        probed = Prober(lines).run(root)
        assert probed is not None
        with stretch.Session(board, probed.filled, probed.empty) as session:
            while not session.run(2, 1, Deadline.never()):
                pass
        oracle = count_sat(puzzle, 2)
        assert len(session.solutions) == len(oracle.solutions)
        if oracle.verdict is Verdict.UNIQUE:
            assert session.solutions == list(oracle.solutions)
        for shaded in session.solutions:
            assert validate(puzzle, shaded) == []


@pytest.mark.slow
def test_the_counter_with_the_stretch_in_every_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solve, "SAT_NATIVE_FIRST", 0)
    monkeypatch.setattr(solve, "SAT_SLICE", 3)
    rng = Rng(1515)
    boards = [*BOARDS, *(clues_of(15, 15, random_picture(rng, 15, 15, 0.4)) for _ in range(10))]
    searched = 0
    for puzzle in boards:
        out = solve.count(puzzle, 2)
        searched += out.nodes > 1
        assert out.verdict == count_sat(puzzle, 2).verdict
        assert len(set(out.solutions)) == len(out.solutions)
        for shaded in out.solutions:
            assert validate(puzzle, shaded) == []
    assert searched >= 6  # searches the root could not settle, the stretch taking part


def test_without_the_solver_the_learning_search_counts_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stretch, "available", lambda: False)
    monkeypatch.setattr(solve, "NATIVE_FIRST", 0)
    for puzzle in BOARDS[:150]:
        assert solve.count(puzzle, 2).verdict == count_by_rows(puzzle, 2).verdict


def test_a_work_budget_keeps_the_count_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    # A budgeted count must spend the same counted work on every machine, with or
    # without python-sat: the stretch never runs under one.
    def refuse(*_: object) -> None:
        raise AssertionError("the stretch ran under a work budget")

    monkeypatch.setattr(stretch.Session, "__init__", refuse)
    monkeypatch.setattr(solve, "NATIVE_FIRST", 0)
    rng = Rng(3)
    for _ in range(4):
        puzzle = clues_of(15, 15, random_picture(rng, 15, 15, 0.4))
        out = solve.count(puzzle, 2, Deadline.never().within(work=10**7))
        assert out.verdict is not Verdict.TIMEOUT


def test_the_pure_counter_never_runs_the_stretch(monkeypatch: pytest.MonkeyPatch) -> None:
    # `count_pure` (the genre's `count_pure`, `count --no-sat`) is what a browser build
    # runs: the stretch must not be reached even where python-sat is installed.
    def refuse(*_: object) -> None:
        raise AssertionError("the stretch ran in the pure-Python count")

    monkeypatch.setattr(stretch.Session, "__init__", refuse)
    monkeypatch.setattr(solve, "NATIVE_FIRST", 0)
    rng = Rng(31)
    for _ in range(4):
        puzzle = clues_of(15, 15, random_picture(rng, 15, 15, 0.4))
        out = solve.count_pure(puzzle, 2)
        assert out.verdict == count_sat(puzzle, 2).verdict
        for shaded in out.solutions:
            assert validate(puzzle, shaded) == []
