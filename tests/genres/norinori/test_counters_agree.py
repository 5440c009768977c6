"""Four independent counters agree: the propagating engine, two brute forces, SAT.

A disagreement means one of them dropped or invented a solution.
"""

from __future__ import annotations

from collections import Counter

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, Verdict
from gridproof.genres.norinori import solve
from gridproof.genres.norinori.brute import count_by_cells, count_by_regions
from gridproof.genres.norinori.model import Norinori, validate
from gridproof.genres.norinori.sat import count_sat
from tests.genres.norinori.boards import board_mix

BOARDS = board_mix(300, seed=2026)
EVERYTHING = 10**6


def _outcomes(puzzle: Norinori, limit: int = 2) -> dict[str, Outcome]:
    return {
        "engine": solve.count(puzzle, limit, Deadline.never()),
        "cells": count_by_cells(puzzle, limit),
        "regions": count_by_regions(puzzle, limit),
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


def test_engine_solutions_validate(outcomes: list[dict[str, Outcome]]) -> None:
    for puzzle, found in zip(BOARDS, outcomes, strict=True):
        engine = found["engine"]
        assert len(engine.solutions) == len(set(engine.solutions)) <= 2
        for shaded in engine.solutions:
            assert validate(puzzle, shaded) == []


def test_engine_enumerates_the_same_solutions() -> None:
    for puzzle in BOARDS[:60]:
        engine = solve.count(puzzle, EVERYTHING, Deadline.never())
        assert len(engine.solutions) == len(set(engine.solutions))
        assert set(engine.solutions) == set(count_by_regions(puzzle, EVERYTHING).solutions)


def test_engine_never_claims_unique_on_an_expired_deadline(
    outcomes: list[dict[str, Outcome]],
) -> None:
    for puzzle, found in zip(BOARDS[:40], outcomes, strict=False):
        out = solve.count(puzzle, 2, Deadline(0))
        assert out.verdict is not Verdict.UNIQUE
        assert out.verdict in (Verdict.TIMEOUT, found["sat"].verdict)
