"""The janko corpus, counted in full: every puzzle gives its expected outcome and its stored
solution (1,558 puzzles up to 40×30; about ten seconds). The hard set is a benchmark
(`benchmarks/nonogram_hard.py`); here only its small puzzles that are quick are counted."""

from __future__ import annotations

import json
from pathlib import Path

from gridproof import service
from gridproof.core.deadline import Deadline
from gridproof.genres.nonogram.codec import format_code, from_json, parse_code, to_json
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


def test_janko_corpus_every_outcome_and_solution(corpus_dir: Path) -> None:
    items = service.load(str(corpus_dir / "janko-nonogram.json"))
    assert len(items) == 1558
    wrong = []
    for item in items:
        outcome = item.genre.count(item.puzzle, 2, Deadline(60))
        ok = outcome.verdict.value == item.expected
        if item.solution is not None:
            ok = ok and outcome.solutions == (item.solution,)
            ok = ok and item.genre.validate(item.puzzle, item.solution) == []
        if not ok:
            wrong.append((item.id, outcome.verdict.value))
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
