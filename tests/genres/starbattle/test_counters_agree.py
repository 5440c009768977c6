"""The engine, the brute force and the SAT oracle agree on a mixed set of boards."""

from __future__ import annotations

from collections import Counter

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, Verdict
from gridproof.genres.starbattle import solve
from gridproof.genres.starbattle.brute import count_by_rows
from gridproof.genres.starbattle.model import validate
from tests.genres.starbattle.boards import board_mix

BOARDS = board_mix(200, seed=2026)


@pytest.fixture(scope="module")
def outcomes() -> list[dict[str, Outcome]]:
    from gridproof.genres.starbattle.sat import count_sat

    pytest.importorskip("pysat")
    return [
        {
            "engine": solve.count(p, 2, Deadline.never()),
            "brute": count_by_rows(p, 2),
            "sat": count_sat(p, 2),
        }
        for p in BOARDS
    ]


def test_mix_holds_every_verdict(outcomes: list[dict[str, Outcome]]) -> None:
    verdicts = Counter(found["sat"].verdict for found in outcomes)
    for verdict in (Verdict.NONE, Verdict.UNIQUE, Verdict.MULTIPLE):
        assert verdicts[verdict] >= 5, verdicts


def test_verdicts_and_solutions_agree(outcomes: list[dict[str, Outcome]]) -> None:
    for index, found in enumerate(outcomes):
        assert len({out.verdict for out in found.values()}) == 1, (index, found)
        if found["sat"].verdict is Verdict.UNIQUE:
            assert len({out.solutions for out in found.values()}) == 1, index


def test_every_solution_validates(outcomes: list[dict[str, Outcome]]) -> None:
    for puzzle, found in zip(BOARDS, outcomes, strict=True):
        for out in found.values():
            for solution in out.solutions:
                assert validate(puzzle, solution) == []


def test_a_placement_table_that_starts_again_gives_the_same_counts(
    monkeypatch: pytest.MonkeyPatch, outcomes: list[dict[str, Outcome]]
) -> None:
    """The table of units' placements is a cache: kept small enough to start again many
    times in a count, it changes no verdict, solution or node count."""
    from gridproof.genres.starbattle import position

    monkeypatch.setattr(position, "WAYS_KEPT", 50)
    for puzzle, found in zip(BOARDS[:60], outcomes, strict=False):
        position.board_of.cache_clear()
        again = solve.count(puzzle, 2, Deadline.never())
        assert (again.verdict, again.solutions, again.nodes) == (
            found["engine"].verdict,
            found["engine"].solutions,
            found["engine"].nodes,
        )
        assert position.board_of(puzzle).ways.kept <= 50 + position.MAX_WAYS + 1
    position.board_of.cache_clear()
