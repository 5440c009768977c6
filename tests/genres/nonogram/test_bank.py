"""Every fallback bank board is unique by two independent counters, and ids are stable."""

from __future__ import annotations

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.ladder import grade_puzzle
from gridproof.core.outcome import Verdict
from gridproof.genres.nonogram import bank
from gridproof.genres.nonogram.codec import format_code
from gridproof.genres.nonogram.position import start
from gridproof.genres.nonogram.rules import LADDER
from gridproof.genres.nonogram.sat import count_sat
from gridproof.genres.nonogram.solve import count, grade


@pytest.mark.parametrize("entry", bank.ENTRIES, ids=lambda entry: entry.id)
def test_bank_board_is_unique_and_graded_as_labelled(entry: bank.Entry) -> None:
    puzzle = bank.puzzle(entry)
    engine = count(puzzle, 2, Deadline(60))
    assert engine.verdict is Verdict.UNIQUE
    assert count_sat(puzzle).solutions == engine.solutions
    assert grade(puzzle, Deadline(60)).difficulty == entry.difficulty
    assert grade_puzzle(LADDER, start, puzzle, Deadline(60)).grade == entry.difficulty
    assert format_code(puzzle) == entry.code
    assert entry.id.startswith(f"nonogram-bank-{puzzle.width}x{puzzle.height}-{entry.difficulty}-")


def test_ids_are_unique_and_cover_the_common_sizes() -> None:
    ids = [entry.id for entry in bank.ENTRIES]
    assert len(ids) == len(set(ids))
    assert {entry.difficulty for entry in bank.ENTRIES} <= set(LADDER.grades)
    for size in (10, 15, 20, 25, 30, 40):
        assert bank.find(size, size, None) is not None
        assert bank.find(size, size, "easy") is not None
        assert bank.find(size, size, "hard") is not None
    for size in (10, 15, 20):
        assert bank.find(size, size, "medium") is not None
    for size in (15, 20):
        assert bank.find(size, size, "expert") is not None
    assert bank.find(13, 11, None) is None
