"""examples/ holds what examples/make.py makes: the project's own boards and drawing, the
files the README's tour reads, each what its name says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gridproof as gp
from tests.scripts import load_script

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


MAKE = load_script("examples/make.py")


@pytest.mark.parametrize("genre", sorted(MAKE.CORPORA))
def test_each_corpus_is_what_make_writes(genre: str) -> None:
    written = json.loads((EXAMPLES / f"{genre}.json").read_text(encoding="utf-8"))
    assert written == MAKE.corpus(genre)


@pytest.mark.parametrize("genre", sorted(MAKE.CORPORA))
def test_each_corpus_holds_what_it_says(genre: str) -> None:
    for puzzle in gp.load_all(str(EXAMPLES / f"{genre}.json")):
        counted = gp.count(puzzle, deadline=30)
        assert str(counted.verdict) == puzzle.expected, puzzle.id
        if puzzle.expected == "unique":
            assert not gp.validate(puzzle, counted.solutions[0])


def test_the_puzzle_to_fix_and_the_solution_to_keep() -> None:
    entry, keep = MAKE.ambiguous()
    assert json.loads((EXAMPLES / "mypuzzle.json").read_text(encoding="utf-8")) == entry
    assert (EXAMPLES / "solution.txt").read_text(encoding="utf-8") == keep
    puzzle = gp.load(str(EXAMPLES / "mypuzzle.json"))
    assert str(gp.count(puzzle).verdict) == "multiple"
    assert not gp.validate(puzzle, keep.split())
    made = gp.make_unique(puzzle, keep.split())
    assert str(made.report.outcome) == "unique"


def test_the_drawing_is_what_make_draws() -> None:
    image = pytest.importorskip("PIL.Image")
    with image.open(EXAMPLES / "cat.png") as stored:
        assert stored.convert("L").tobytes() == MAKE.cat().tobytes()
