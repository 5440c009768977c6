"""The Norinori engine against the real corpus: outcomes, solutions, rungs and deadlines."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.norinori import GENRE, solve
from gridproof.genres.norinori.build import grow_regions, induced_matching, seed_regions
from gridproof.genres.norinori.model import Norinori, make_puzzle, validate

RUNGS = GENRE.rungs


def _corpus(corpus_dir: Path) -> list[dict[str, Any]]:
    puzzles: list[dict[str, Any]] = json.loads((corpus_dir / "janko-norinori.json").read_text())[
        "puzzles"
    ]
    return puzzles


def _mask(rows: list[list[int]]) -> int:
    width = len(rows[0])
    return sum(1 << (r * width + c) for r, row in enumerate(rows) for c, v in enumerate(row) if v)


def test_every_corpus_puzzle_gets_its_expected_outcome(corpus_dir: Path) -> None:
    puzzles = _corpus(corpus_dir)
    assert len(puzzles) == 192
    for entry in puzzles:
        puzzle = make_puzzle(entry["regions"])
        outcome = solve.count(puzzle, 2, Deadline(60))
        assert outcome.verdict.value == entry["expected"], entry["id"]
        for found in outcome.solutions:
            assert validate(puzzle, found) == [], entry["id"]
        if entry["expected"] == "unique":
            assert outcome.solutions == (_mask(entry["solution"]),), entry["id"]


def test_the_largest_board_is_proven(corpus_dir: Path) -> None:
    entry = next(p for p in _corpus(corpus_dir) if p["width"] * p["height"] >= 36 * 54)
    outcome = solve.count(make_puzzle(entry["regions"]), 2, Deadline(60))
    assert outcome.verdict is Verdict.UNIQUE


def test_every_step_of_every_rung_agrees_with_the_solution(corpus_dir: Path) -> None:
    """Soundness: on unique puzzles, no rung may ever decide a cell against the answer."""
    done = dict.fromkeys(RUNGS, 0)
    for entry in _corpus(corpus_dir)[:60]:
        if entry["expected"] != "unique":
            continue
        puzzle = make_puzzle(entry["regions"])
        answer = _mask(entry["solution"])
        before = 0
        for rung in RUNGS:
            progress = GENRE.solve(puzzle, rung, Deadline(60))
            assert progress.contradiction is None, (entry["id"], rung)
            assert progress.shaded & ~answer == 0, (entry["id"], rung)
            assert progress.empty & answer == 0, (entry["id"], rung)
            decided = progress.shaded | progress.empty
            assert decided & before == before, "a stronger rung decides at least as much"
            before = decided
            done[rung] += progress.decided_fraction == 1.0
            for step in progress.steps:
                assert step.text
                assert step.rule
                assert step.shaded | step.empty, step
    local, lifted, probed = (done[rung] for rung in RUNGS)
    assert local < lifted <= probed


def test_steps_name_their_rules_in_words() -> None:
    puzzle = make_puzzle(["aab", "acb", "ccb"])
    progress = GENRE.solve(puzzle, GENRE.ladder.top, Deadline(5))
    assert all(" " in step.text for step in progress.steps)


def test_unknown_rung_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="local, pairs, probe"):
        GENRE.solve(make_puzzle(["ab", "ab"]), "magic", Deadline(1))


def _open_board(size: int, seed: int) -> Norinori:
    """A big board with a shading but nothing walked: typically very many solutions."""
    geo = Geometry(size, size)
    rng = Rng(seed)
    dominoes = induced_matching(geo, rng, rounds=0)
    labels = grow_regions(geo, seed_regions(geo, dominoes, rng, 0.0), rng)
    return make_puzzle([labels[r * size : (r + 1) * size] for r in range(size)])


def test_timeout_is_never_read_as_unique() -> None:
    outcome = solve.count(_open_board(20, 1), 10**9, Deadline(0.2))
    assert outcome.verdict in (Verdict.TIMEOUT, Verdict.MULTIPLE)  # so never UNIQUE


def test_a_cancelled_count_returns_promptly() -> None:
    deadline = Deadline.never()
    puzzle = _open_board(24, 2)
    result: dict[str, Any] = {}

    def work() -> None:
        result["outcome"] = solve.count(puzzle, 10**9, deadline)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.3)
    cancelled_at = time.monotonic()
    deadline.cancel()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert time.monotonic() - cancelled_at < 2.0
    assert result["outcome"].verdict is Verdict.TIMEOUT


def _two_huge_regions(side: int, combs: bool) -> Norinori:
    """Two regions of side²/2 cells: two halves, or two interleaved combs (every cell on
    a border), far bigger than any real puzzle's regions."""
    if not combs:
        return make_puzzle([["a" if r < side // 2 else "b"] * side for r in range(side)])
    teeth = [["a" if r == 0 or c % 2 == 0 else "b" for c in range(side)] for r in range(side - 1)]
    return make_puzzle([*teeth, ["b"] * side])


@pytest.mark.parametrize("combs", [False, True])
def test_huge_regions_keep_every_call_within_its_deadline(combs: bool) -> None:
    """A pasted board may hold regions of thousands of cells; the counter and every rung
    must still answer (or time out) about when they were told to."""
    puzzle = _two_huge_regions(60, combs)
    started = time.monotonic()
    outcome = solve.count(puzzle, 2, Deadline(2))
    assert outcome.verdict in (Verdict.MULTIPLE, Verdict.TIMEOUT)
    for rung in RUNGS:
        progress = GENRE.solve(puzzle, rung, Deadline(2))
        assert progress.contradiction is None
    assert time.monotonic() - started < 2 * (1 + len(RUNGS)) + 5
