"""The janko.at Star Battles (176 boards, 5x5 to 15x15, 1 to 3 stars, labelled by an
independent SAT counter): the engine's verdicts match the labels, the recorded solutions
validate, and the ladder's steps agree with them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.ladder import solve as run
from gridproof.genres.starbattle import codec, solve
from gridproof.genres.starbattle.model import validate
from gridproof.genres.starbattle.position import start
from gridproof.genres.starbattle.rules import LADDER

WORK = 100_000
"""Propagations a count may spend: every janko board is decided within it (the slowest,
a 14×14 with three stars, takes ~9,000), counted work so a loaded machine cannot fail it."""


@pytest.fixture(scope="module")
def boards(corpus_dir: Path) -> list[dict[str, Any]]:
    data = json.loads((corpus_dir / "janko-starbattle.json").read_text())
    puzzles: list[dict[str, Any]] = data["puzzles"]
    assert len(puzzles) == 176
    return puzzles


def _solution(entry: dict[str, Any]) -> int:
    w = entry["width"]
    return sum(
        1 << (r * w + c) for r, row in enumerate(entry["solution"]) for c, v in enumerate(row) if v
    )


def test_solutions_validate(boards: list[dict[str, Any]]) -> None:
    for entry in boards:
        assert validate(codec.from_json(entry), _solution(entry)) == [], entry["id"]


def test_verdicts_match_the_labels(boards: list[dict[str, Any]]) -> None:
    for entry in boards:
        puzzle = codec.from_json(entry)
        outcome = solve.count(puzzle, 2, Deadline.never().within(work=WORK))
        assert outcome.verdict == entry["expected"], entry["id"]
        assert outcome.solutions == (_solution(entry),), entry["id"]


def test_ladder_steps_agree_with_the_solutions(boards: list[dict[str, Any]]) -> None:
    for entry in boards[:40]:
        puzzle = codec.from_json(entry)
        progress = run(LADDER, start, puzzle, "confine", Deadline.never().within(5.0))
        solution = _solution(entry)
        assert progress.contradiction is None, (entry["id"], progress.contradiction)
        for step in progress.steps:
            assert step.shaded & ~solution == 0, (entry["id"], step.text)
            assert step.empty & solution == 0, (entry["id"], step.text)
