"""The player's service layer: marks, answers (bank first, counts remembered, timeouts not),
mistakes, and rule names in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof import bank, play
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.registry import Genre, genres

GENRES = sorted(genres().values(), key=lambda g: g.name)


class Size:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_marks_round_trip(width: int, height: int, data: st.DataObject) -> None:
    cells = width * height
    shaded = data.draw(st.integers(0, 2**cells - 1))
    empty = data.draw(st.integers(0, 2**cells - 1)) & ~shaded
    marks = play.Marks(shaded, empty)
    rows = play.format_marks(Size(width, height), marks)
    assert len(rows) == height
    assert all(len(row) == width for row in rows)
    assert play.parse_marks(Size(width, height), rows) == marks


@pytest.mark.parametrize(
    ("rows", "fragment"),
    [
        (["..", ".."], "marks: 2 rows given, the puzzle has 3"),
        (["...", "..", "..."], "marks: row 2 '..' has 2 cells, the puzzle 3"),
        (["...", "..o", "..."], "marks: row 2, column 3: 'o' is not '#' (shaded)"),
        (["...", "...", "..-"], "row 3, column 3: '-'"),
    ],
)
def test_bad_marks_say_where(rows: list[str], fragment: str) -> None:
    with pytest.raises(CodeError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        play.parse_marks(Size(3, 3), rows)


def test_mistakes_are_wrong_shading_and_wrong_empties() -> None:
    solution = 0b0110
    assert play.mistakes(play.Marks(0b0010, 0b1001), solution) == 0
    assert play.mistakes(play.Marks(0b1010, 0b0001), solution) == 0b1000
    assert play.mistakes(play.Marks(0, 0b0100), solution) == 0b0100


@pytest.mark.parametrize(
    ("rule", "title"),
    [("domino-complete", "Domino complete"), ("overlap", "Overlap"), ("", "Deduction")],
)
def test_rule_titles(rule: str, title: str) -> None:
    assert play.rule_title(rule) == title


def made(genre: Genre) -> bank.Record:
    key = bank.Key(genre.name, *bank.offered_sizes(genre)[0], bank.default_difficulty(genre))
    for seed in range(1, 30):
        try:
            return bank.make_record(key, seed, generate_s=20)
        except GenerationError:
            continue
    raise AssertionError("no board")


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_answers_come_from_the_bank_first_then_a_remembered_count(
    genre: Genre, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = made(genre)
    puzzle = genre.parse_code(record.code)
    store = bank.Bank(tmp_path / "bank.sqlite3")
    store.add(record)
    counted: list[Any] = []
    original = genre.count

    def spy(*args: Any) -> Any:
        counted.append(args)
        return original(*args)

    monkeypatch.setattr(genre, "count", spy)
    from_bank = play.Answers(store).get(genre, puzzle, Deadline(5))
    assert (from_bank.solution, counted) == (record.solution, [])
    answers = play.Answers(None)
    first = answers.get(genre, puzzle, Deadline(5))
    second = answers.get(genre, puzzle, Deadline(5))
    assert first == second
    assert first.solution == record.solution
    assert len(counted) == 1


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_a_count_that_timed_out_is_not_remembered(genre: Genre) -> None:
    puzzle = genre.parse_code(made(genre).code)
    answers = play.Answers(None)
    expired = Deadline(0)
    late = answers.get(genre, puzzle, expired)
    assert (late.verdict, late.solution) == ("timeout", None)
    assert answers.get(genre, puzzle, Deadline(30)).verdict == "unique"


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_a_hint_never_reports_a_contradiction_for_correct_marks(genre: Genre) -> None:
    record = made(genre)
    puzzle = genre.parse_code(record.code)
    answer = play.Answers(None).get(genre, puzzle, Deadline(30))
    half = record.solution & ((1 << (puzzle.width * puzzle.height // 2)) - 1)
    result = play.hint(genre, puzzle, play.Marks(half, 0), answer, Deadline(10))
    assert result["status"] in ("step", "reveal", "solved")
    checked = play.check(genre, puzzle, play.Marks(half, 0), answer)
    assert (checked["mistakes"], checked["cells"]) == (0, None)


def test_the_view_never_carries_the_solution() -> None:
    for genre in GENRES:
        record = made(genre)
        view = play.view(genre, genre.parse_code(record.code), "bank", record=record)
        assert "solution" not in view
        assert "solution" not in view["data"]
        assert view["verification"] == record.verification()
