"""The janko corpus, counted in full: every puzzle gives its expected outcome and its stored
solution (1,558 puzzles up to 40×30; about ten seconds). The hard set is a benchmark
(`benchmarks/nonogram_hard.py`); here only its small puzzles that are quick are counted."""

from __future__ import annotations

import json
from pathlib import Path

from gridproof.core.deadline import Deadline
from gridproof.genres.nonogram.codec import format_code, from_json, parse_code, to_json
from gridproof.genres.nonogram.model import validate
from gridproof.genres.nonogram.solve import count

HARD_QUICK_CELLS = 900
"""Hard-set puzzles of at most this many cells are counted in the tests, except SLOW."""
SLOW = {
    "webpbn-06574",  # Sierpinski: deep search (19 s here; SAT 0.09 s)
    "webpbn-08098",  # Domino Logic: the engine times out (SAT 0.4 s)
    "dom-7",  # Domino patterns grow exponentially for a search without learning
    "dom-8",
    "webpbn-29723",
    "cgilab-puzzle-cannot-solve",
}
"""Measured in benchmarks/nonogram_hard.py instead: each takes seconds or more."""


def _shading(rows: list[list[int]], width: int) -> int:
    """A corpus `solution` (rows of 0/1) as a shaded-cell mask."""
    return sum(1 << (r * width + c) for r, row in enumerate(rows) for c, v in enumerate(row) if v)


def test_janko_corpus_every_outcome_and_solution(corpus_dir: Path) -> None:
    doc = json.loads((corpus_dir / "janko-nonogram.json").read_text(encoding="utf-8"))
    entries = doc["puzzles"]
    assert len(entries) == 1558
    wrong = []
    for entry in entries:
        puzzle = from_json(entry)
        outcome = count(puzzle, 2, Deadline(60))
        ok = outcome.verdict.value == entry["expected"]
        if entry.get("solution") is not None:
            solution = _shading(entry["solution"], puzzle.width)
            ok = ok and outcome.solutions == (solution,)
            ok = ok and validate(puzzle, solution) == []
        if not ok:
            wrong.append((entry["id"], outcome.verdict.value))
    assert wrong == []


def test_small_hard_puzzles(corpus_dir: Path) -> None:
    doc = json.loads((corpus_dir / "hard-nonograms.json").read_text(encoding="utf-8"))
    small = [
        e
        for e in doc["puzzles"]
        if e["width"] * e["height"] <= HARD_QUICK_CELLS
        and e.get("expected")
        and e["id"] not in SLOW
    ]
    assert len(small) >= 15
    for entry in small:
        outcome = count(from_json(entry), 2, Deadline(60))
        assert outcome.verdict.value == entry["expected"], entry["id"]


def test_every_hard_puzzle_parses_and_round_trips(corpus_dir: Path) -> None:
    doc = json.loads((corpus_dir / "hard-nonograms.json").read_text(encoding="utf-8"))
    assert len(doc["puzzles"]) == 152
    for entry in doc["puzzles"]:
        puzzle = from_json(entry)
        assert (puzzle.width, puzzle.height) == (entry["width"], entry["height"])
        assert from_json(to_json(puzzle)) == puzzle
        assert parse_code(format_code(puzzle)) == puzzle
