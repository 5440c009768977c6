"""The janko.at Nondango corpus: every `expected` outcome and every stored solution, by the
engine, by the service the CLI calls, and by the SAT oracle."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gridproof import service
from gridproof.core.deadline import Deadline
from gridproof.genres.nondango import solve
from gridproof.genres.nondango.codec import format_grid, from_json
from gridproof.genres.nondango.model import validate
from gridproof.genres.nondango.rules import LADDER
from gridproof.genres.nondango.sat import count_sat


@pytest.fixture(scope="module")
def entries(corpus_dir: Path) -> list[dict[str, Any]]:
    doc = json.loads((corpus_dir / "janko-nondango.json").read_text("utf-8"))
    return list(doc["puzzles"])


def _mask(entry: dict[str, Any]) -> int:
    width = entry["width"]
    return sum(
        1 << (r * width + c)
        for r, row in enumerate(entry["solution"])
        for c, v in enumerate(row)
        if v
    )


def test_every_outcome_and_solution(entries: list[dict[str, Any]]) -> None:
    assert len(entries) == 73
    verdicts: Counter[str] = Counter()
    for entry in entries:
        puzzle = from_json(entry)
        outcome = solve.count(puzzle, 2, Deadline(30))
        assert outcome.verdict.value == entry["expected"], entry["id"]
        if entry["expected"] == "unique":
            assert outcome.solutions == (_mask(entry),), entry["id"]
        assert validate(puzzle, _mask(entry)) == [], entry["id"]
        verdicts[outcome.verdict.value] += 1
    assert verdicts == {"unique": 72, "multiple": 1}


def test_the_service_gives_the_same(corpus_dir: Path, entries: list[dict[str, Any]]) -> None:
    loaded = service.load(str(corpus_dir / "janko-nondango.json"))
    for item, entry in zip(loaded, entries, strict=True):
        result = service.count(item, 2, 30)
        assert result.verdict.value == entry["expected"], entry["id"]
        if entry["expected"] == "unique":
            assert result.solutions == (tuple(format_grid(item.puzzle, _mask(entry))),)
            assert item.solution == _mask(entry)


def test_the_sat_oracle_agrees(entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        assert count_sat(from_json(entry), 2).verdict.value == entry["expected"], entry["id"]


def test_the_grades_of_the_bank(entries: list[dict[str, Any]]) -> None:
    """Our grades against real published puzzles: nothing needs search, and most need
    the probe (the one `search` board is the one with two answers)."""
    rungs = Counter(solve.rung_needed(from_json(e)) for e in entries if e["expected"] == "unique")
    assert rungs == {"triple": 8, "confine": 6, "probe": 58}, rungs
    grades = Counter(LADDER.grade(rung) for rung in rungs.elements())
    assert grades == {"easy": 8, "medium": 6, "hard": 58}
