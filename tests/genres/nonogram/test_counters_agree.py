"""Three independent counters agree: the propagating engine, brute force over row
patterns, and SAT. A disagreement means one of them dropped or invented a solution."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.search import count_solutions
from gridproof.genres.nonogram import solve
from gridproof.genres.nonogram.brute import count_by_rows
from gridproof.genres.nonogram.engine import Board, Grid
from gridproof.genres.nonogram.formats import parse_pattern
from gridproof.genres.nonogram.model import Nonogram, make_puzzle, validate
from gridproof.genres.nonogram.sat import count_sat
from tests.genres.nonogram.boards import PATTERN_EXAMPLE, SWITCH, board_mix

BOARDS = board_mix(300, seed=2026, largest=7)
EVERYTHING = 10**6


def _outcomes(puzzle: Nonogram, limit: int = 2) -> dict[str, Outcome]:
    return {
        "engine": solve.count(puzzle, limit, Deadline.never()),
        "pure": solve.count_pure(puzzle, limit, Deadline.never()),
        "rows": count_by_rows(puzzle, limit),
        "sat": count_sat(puzzle, limit),
    }


@pytest.fixture(scope="module")
def outcomes() -> list[dict[str, Outcome]]:
    return [_outcomes(puzzle) for puzzle in BOARDS]


def test_mix_holds_every_verdict(outcomes: list[dict[str, Outcome]]) -> None:
    verdicts = Counter(found["sat"].verdict for found in outcomes)
    for verdict in (Verdict.NONE, Verdict.UNIQUE, Verdict.MULTIPLE):
        assert verdicts[verdict] >= 20, verdicts


def test_verdicts_agree(outcomes: list[dict[str, Outcome]]) -> None:
    mismatches = [
        (index, {name: str(out.verdict) for name, out in found.items()})
        for index, found in enumerate(outcomes)
        if len({out.verdict for out in found.values()}) != 1
    ]
    assert mismatches == []


def test_unique_boards_have_the_same_solution(outcomes: list[dict[str, Outcome]]) -> None:
    for index, found in enumerate(outcomes):
        if found["sat"].verdict is Verdict.UNIQUE:
            solutions = {name: out.solutions for name, out in found.items()}
            assert len(set(solutions.values())) == 1, (index, solutions)


def test_solutions_validate(outcomes: list[dict[str, Outcome]]) -> None:
    for puzzle, found in zip(BOARDS, outcomes, strict=True):
        for out in found.values():
            assert len(out.solutions) == len(set(out.solutions)) <= 2
            for shaded in out.solutions:
                assert validate(puzzle, shaded) == []


def test_engine_enumerates_the_same_solutions() -> None:
    for puzzle in BOARDS[:80]:
        engine = solve.count(puzzle, EVERYTHING, Deadline.never())
        brute = count_by_rows(puzzle, EVERYTHING)
        assert len(engine.solutions) == len(set(engine.solutions))
        assert set(engine.solutions) == set(brute.solutions)
        assert engine.verdict == brute.verdict


def test_fixtures_with_none_one_and_several_solutions() -> None:
    unique = parse_pattern(PATTERN_EXAMPLE)
    none = make_puzzle([[1, 1], [], [1, 1]], [[1, 1], [], [2]])
    several = make_puzzle([[1], [1], [1]], [[1], [1], [1]])  # the six permutations
    assert solve.count(unique, 2, Deadline.never()).verdict is Verdict.UNIQUE
    assert solve.count(none, 2, Deadline.never()).verdict is Verdict.NONE
    assert len(solve.count(several, EVERYTHING, Deadline.never()).solutions) == 6
    assert len(solve.count(SWITCH, EVERYTHING, Deadline.never()).solutions) == 2
    for puzzle in (unique, none, several, SWITCH):
        assert count_sat(puzzle).verdict == solve.count(puzzle).verdict
        assert count_by_rows(puzzle).verdict == solve.count(puzzle).verdict


# A board whose search falls apart into independent parts (found in `board_mix`).
SPLITTING = make_puzzle(
    [[1, 1], [2], [1], [1, 2, 1], [1, 1], [1], [1, 1]],
    [[2, 1], [1], [1], [1, 1], [], [2, 3], [1, 1]],
)


def test_independent_parts_multiply() -> None:
    board = Board(SPLITTING)
    space = solve.NonogramSpace(board, Deadline.never())
    sizes: list[int] = []
    plain_split = space.split

    def split(grid: Grid) -> Sequence[Grid]:
        parts = plain_split(grid)
        sizes.append(len(parts))
        return parts

    space.split = split  # type: ignore[method-assign]
    found = count_solutions(space, Grid.blank(board), EVERYTHING, Deadline.never())
    assert max(sizes) > 1
    assert sorted(found.solutions) == sorted(count_by_rows(SPLITTING, EVERYTHING).solutions)


def test_an_expired_deadline_is_never_unique(outcomes: list[dict[str, Outcome]]) -> None:
    for puzzle, found in zip(BOARDS[:60], outcomes, strict=False):
        out = solve.count(puzzle, 2, Deadline(0))
        assert out.verdict is not Verdict.UNIQUE
        assert out.verdict in (Verdict.TIMEOUT, found["sat"].verdict)
        assert count_by_rows(puzzle, 2, Deadline(0)).verdict is not Verdict.UNIQUE


def test_a_spent_work_budget_times_out_mid_search() -> None:
    # The 4×4 that line logic cannot start needs probing: one line solve is not enough.
    puzzle = parse_pattern(PATTERN_EXAMPLE)
    out = solve.count(puzzle, 2, Deadline.never().within(work=1))
    assert out.verdict is Verdict.TIMEOUT
    assert solve.count(puzzle, 2, Deadline.never().within(work=10**6)).verdict is Verdict.UNIQUE
