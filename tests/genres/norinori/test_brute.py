"""The two brute forces agree with each other and with the SAT oracle."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, Verdict
from gridproof.genres.norinori import brute
from gridproof.genres.norinori.brute import count_by_cells, count_by_regions
from gridproof.genres.norinori.model import Norinori, make_puzzle, validate
from gridproof.genres.norinori.sat import count_sat, encode
from tests.genres.norinori.boards import board_mix, random_partition

BOARDS = board_mix(300, seed=2026)
EVERYTHING = 10**6
"""A limit no board in these tests reaches, so a count enumerates every solution."""

CountFn = Callable[..., Outcome]
COUNTERS: dict[str, CountFn] = {
    "cells": count_by_cells,
    "regions": count_by_regions,
    "sat": count_sat,
}


def _outcomes(puzzle: Norinori, limit: int = 2) -> dict[str, Outcome]:
    return {name: counter(puzzle, limit) for name, counter in COUNTERS.items()}


@pytest.fixture(scope="module")
def outcomes() -> list[dict[str, Outcome]]:
    return [_outcomes(puzzle) for puzzle in BOARDS]


def test_mix_holds_every_verdict(outcomes: list[dict[str, Outcome]]) -> None:
    verdicts = Counter(found["sat"].verdict for found in outcomes)
    assert len(BOARDS) >= 300
    for verdict in (Verdict.NONE, Verdict.UNIQUE, Verdict.MULTIPLE):
        assert verdicts[verdict] >= 20, verdicts


def test_verdicts_agree(outcomes: list[dict[str, Outcome]]) -> None:
    mismatches = [
        (index, {name: str(out.verdict) for name, out in found.items()})
        for index, found in enumerate(outcomes)
        if len({out.verdict for out in found.values()}) != 1
    ]
    assert mismatches == []


def test_unique_solutions_agree(outcomes: list[dict[str, Outcome]]) -> None:
    for found in outcomes:
        if found["sat"].verdict is Verdict.UNIQUE:
            assert len({out.solutions for out in found.values()}) == 1


def test_every_solution_validates(outcomes: list[dict[str, Outcome]]) -> None:
    for puzzle, found in zip(BOARDS, outcomes, strict=True):
        for out in found.values():
            assert len(out.solutions) <= 2
            assert len(set(out.solutions)) == len(out.solutions)
            for shaded in out.solutions:
                assert validate(puzzle, shaded) == []


@pytest.mark.slow
def test_solution_sets_agree() -> None:
    for puzzle in BOARDS[:150]:
        found = _outcomes(puzzle, EVERYTHING)
        sets = {name: set(out.solutions) for name, out in found.items()}
        for name, out in found.items():
            assert len(out.solutions) == len(sets[name]) < EVERYTHING
        assert sets["cells"] == sets["regions"] == sets["sat"]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (["a", "a"], 1),  # one vertical domino
        (["aa"], 1),
        (["ab"], 0),  # one-cell regions can never hold two
        (["aa", "aa"], 4),  # any side of the square
        (["aab", "abb"], 1),  # only the two outer columns keep the dominoes apart
        (["ab", "ab", "ab"], 1),  # rows 1 and 3, each a domino across the border
        (["aaaa"], 3),
        (["aaaa", "bbbb"], 5),  # two staggered horizontals, or two verticals 2+ apart
        (["aaaa", "cccc", "bbbb"], 4),  # staggered rows, or two verticals over a middle
    ],
)
def test_small_counts(rows: list[str], expected: int) -> None:
    puzzle = make_puzzle([list(row) for row in rows])
    for name, out in _outcomes(puzzle, EVERYTHING).items():
        assert len(out.solutions) == expected, name


@pytest.mark.parametrize("seed", range(12))
def test_counts_match_every_shading_validated(seed: int) -> None:
    """On boards of at most 12 cells, try all 2**n shadings against the validator."""
    rng = random.Random(seed)
    width, height = rng.choice([(3, 3), (3, 4), (4, 3), (2, 5), (2, 6), (1, 8)])
    puzzle = random_partition(width, height, rng)
    every = {m for m in range(1 << width * height) if not validate(puzzle, m)}
    for name, out in _outcomes(puzzle, EVERYTHING).items():
        assert set(out.solutions) == every, name


@pytest.mark.parametrize("counter", [count_by_cells, count_by_regions])
def test_limit_stops_the_count(counter: CountFn) -> None:
    puzzle = make_puzzle([list("aaaa"), list("bbbb")])  # five solutions
    out = counter(puzzle, 3)
    assert out.verdict is Verdict.MULTIPLE
    assert len(out.solutions) == 3
    assert out.limit == 3
    assert out.nodes > 0


@pytest.mark.parametrize("counter", [count_by_cells, count_by_regions, count_sat])
def test_limit_below_two_is_refused(counter: CountFn) -> None:
    with pytest.raises(ValueError, match="at least 2"):
        counter(BOARDS[0], 1)


class _ExpiresAfter(Deadline):
    """A deadline that expires after its `checks`-th look, for deterministic timeouts."""

    def __init__(self, checks: int) -> None:
        super().__init__(None)
        self.checks = checks

    def expired(self) -> bool:
        self.checks -= 1
        return self.checks < 0


@pytest.mark.parametrize("counter", [count_by_cells, count_by_regions])
def test_expired_deadline_times_out(counter: CountFn) -> None:
    cancelled = Deadline(60)
    cancelled.cancel()
    for puzzle in BOARDS[:20]:
        for deadline in (Deadline(0), cancelled, _ExpiresAfter(0)):
            out = counter(puzzle, 2, deadline)
            assert out.verdict is Verdict.TIMEOUT
            assert out.solutions == ()


@pytest.mark.parametrize("counter", [count_by_cells, count_by_regions])
def test_timeout_is_never_unique(
    counter: CountFn,
    outcomes: list[dict[str, Outcome]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cut each walk off before every node in turn: anything short of the whole walk must
    be a timeout with fewer than two solutions, never a verdict."""
    monkeypatch.setattr(brute, "CHECK_EVERY", 1)
    for puzzle in _some_of_each_verdict(outcomes, 8):
        full = counter(puzzle, 2)
        cuts = {*range(0, full.nodes, max(1, full.nodes // 40)), full.nodes - 1, full.nodes}
        for checks in sorted(cuts):
            out = counter(puzzle, 2, _ExpiresAfter(checks))
            if checks < full.nodes:
                assert out.verdict is Verdict.TIMEOUT
                assert len(out.solutions) < 2
                assert set(out.solutions) <= set(full.solutions)
            else:
                assert (out.verdict, out.solutions) == (full.verdict, full.solutions)


def _some_of_each_verdict(outcomes: list[dict[str, Outcome]], each: int) -> list[Norinori]:
    picked = []
    for verdict in (Verdict.UNIQUE, Verdict.MULTIPLE, Verdict.NONE):
        boards = [p for p, f in zip(BOARDS, outcomes, strict=True) if f["sat"].verdict is verdict]
        picked += boards[:each]
    return picked


def test_encode_uses_only_cell_variables() -> None:
    for puzzle in BOARDS[:50]:
        size = puzzle.width * puzzle.height
        for clause in encode(puzzle):
            assert clause
            assert all(0 < abs(lit) <= size for lit in clause)
