"""The learning search against the independent counters: brute force over row patterns
and SAT, on many small random boards (none, one and several solutions), started from the
bare board so that it, not root probing, does the work; with restarts and clause
clean-ups forced often, so every part of it runs. Every `multiple` carries two distinct
solutions that pass the validator. And a few tournament boards, decided by both."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, Verdict, verdict_for
from gridproof.core.rng import Rng
from gridproof.genres.nonogram import learn, solve
from gridproof.genres.nonogram.brute import count_by_rows
from gridproof.genres.nonogram.codec import from_json
from gridproof.genres.nonogram.engine import Board, Grid, Propagator
from gridproof.genres.nonogram.model import Nonogram, clues_of, validate
from gridproof.genres.nonogram.sat import count_sat
from tests.genres.nonogram.boards import board_mix, budget_runs, random_picture

BOARDS = board_mix(400, seed=1313, largest=8)
EVERYTHING = 10**6
QUICK_TOURNAMENT = ("tournament-1-002", "tournament-1-006", "tournament-1-012", "tournament-1-013")
"""Tournament boards both counters decide in well under a second."""


def learned_count(
    puzzle: Nonogram, limit: int, lookahead: int, thrifty: bool = False
) -> tuple[Outcome, int]:
    """Count with the learner alone, from the bare board after line solving, restarting
    and forgetting learned clauses far more often than in real counts; and its conflicts.
    `thrifty`: explanations reused and failed probes' reasons worked out on demand (the
    settings of `count --no-sat`)."""
    board = Board(puzzle)
    grid = Grid.blank(board)
    if not Propagator(board, Deadline.never()).run(grid):
        return Outcome(Verdict.NONE, (), limit, 1, 0, 0.0), 0
    learner = learn.Learner(
        board,
        grid,
        Deadline.never(),
        lookahead=lookahead,
        restart_unit=2,
        reduce_first=6,
        reduce_step=2,
        reuse=thrifty,
        defer=thrifty,
    )
    found, finished = learner.count(limit)
    outcome = Outcome(verdict_for(len(found), finished), tuple(found), limit, 1, 0, 0.0)
    return outcome, learner.conflicts


@pytest.fixture(scope="module")
def oracles() -> list[Outcome]:
    return [count_by_rows(puzzle, 2) for puzzle in BOARDS]


@pytest.mark.parametrize(("lookahead", "thrifty"), [(0, False), (3, False), (0, True), (3, True)])
def test_the_learner_agrees_with_brute_force(
    oracles: list[Outcome], lookahead: int, thrifty: bool
) -> None:
    verdicts: Counter[Verdict] = Counter()
    for puzzle, oracle in zip(BOARDS, oracles, strict=True):
        out, _ = learned_count(puzzle, 2, lookahead, thrifty)
        verdicts[oracle.verdict] += 1
        assert out.verdict == oracle.verdict, (puzzle, out.verdict, oracle.verdict)
        assert len(set(out.solutions)) == len(out.solutions)
        for shaded in out.solutions:
            assert validate(puzzle, shaded) == []
        if oracle.verdict is Verdict.UNIQUE:
            assert out.solutions == oracle.solutions
    assert min(verdicts[v] for v in (Verdict.NONE, Verdict.UNIQUE, Verdict.MULTIPLE)) >= 30


@pytest.mark.parametrize("thrifty", [False, True])
def test_the_learner_enumerates_every_solution(thrifty: bool) -> None:
    rng = Rng(77)
    boards = [*BOARDS[:100], *(clues_of(7, 7, random_picture(rng, 7, 7, 0.3)) for _ in range(20))]
    solutions = 0
    for puzzle in boards:
        out, _ = learned_count(puzzle, EVERYTHING, 2, thrifty)
        brute = count_by_rows(puzzle, EVERYTHING)
        assert sorted(out.solutions) == sorted(brute.solutions)
        solutions += len(out.solutions)
    assert solutions > 150  # sparse pictures have many: every one is found once


@pytest.mark.slow
@pytest.mark.parametrize(("lookahead", "thrifty"), [(0, False), (4, False), (4, True)])
def test_the_learner_agrees_with_sat_where_lines_are_weak(lookahead: int, thrifty: bool) -> None:
    # Random 15×15 pictures at density 0.4: little for line logic, conflicts for learning.
    rng = Rng(1515)
    conflicts = 0
    for _ in range(8):
        puzzle = clues_of(15, 15, random_picture(rng, 15, 15, 0.4))
        out, spent = learned_count(puzzle, 2, lookahead, thrifty)
        conflicts += spent
        oracle = count_sat(puzzle)
        assert out.verdict == oracle.verdict
        if oracle.verdict is Verdict.UNIQUE:
            assert out.solutions == oracle.solutions
        for shaded in out.solutions:
            assert validate(puzzle, shaded) == []
    assert conflicts > 50  # the learning really ran


def test_the_counter_agrees_with_sat_and_multiple_means_two_valid_solutions() -> None:
    searched = 0
    for puzzle in BOARDS:
        # without the stretch, which leads the turns where it runs: this is the learner's test
        out = solve.count(puzzle, 2, sat=False)
        assert out.verdict == count_sat(puzzle).verdict
        searched += out.nodes > 1
        if out.verdict is Verdict.MULTIPLE:
            first, second = out.solutions
            assert first != second
            assert validate(puzzle, first) == []
            assert validate(puzzle, second) == []
    assert searched >= 10  # boards the root could not settle went through the learner


def test_a_work_budget_stops_the_learner_the_same_way_every_time() -> None:
    puzzle = BOARDS[0]
    runs = budget_runs(puzzle, (1, 50, 400, 10**7))
    assert runs[0::2] == runs[1::2]
    assert runs[0][1] is Verdict.TIMEOUT


def test_tournament_boards_both_counters_decide(corpus_dir: Path) -> None:
    doc = json.loads((corpus_dir / "tournament-25.json").read_text(encoding="utf-8"))
    entries = [e for e in doc["puzzles"] if e["id"] in QUICK_TOURNAMENT]
    assert len(entries) == len(QUICK_TOURNAMENT)
    for entry in entries:
        puzzle = from_json(entry)
        ours, theirs = solve.count(puzzle, 2, Deadline(60)), count_sat(puzzle)
        assert ours.verdict == theirs.verdict == Verdict(entry["expected"]), entry["id"]
        assert len(set(ours.solutions)) == len(ours.solutions)
        for shaded in ours.solutions:
            assert validate(puzzle, shaded) == []
