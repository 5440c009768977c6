"""The genre contract, checked the same way for every registered genre."""

from __future__ import annotations

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.registry import Generated, Genre, Request, genres
from gridproof.core.symmetry import Symmetry

GENRES = sorted(genres().values(), key=lambda g: g.name)


def _small(genre: Genre, seed: int = 7) -> Generated:
    (width, height), _ = genre.sizes
    size = max(width, 5), max(height, 5)
    return genre.generate(Request(*size), seed, Deadline(120))


@pytest.fixture(scope="module", params=GENRES, ids=lambda g: g.name)
def made(request: pytest.FixtureRequest) -> tuple[Genre, Generated]:
    genre: Genre = request.param
    return genre, _small(genre)


def test_registry_holds_the_three_genres() -> None:
    assert {"norinori"} <= set(genres())


def test_codes_round_trip(made: tuple[Genre, Generated]) -> None:
    genre, board = made
    code = genre.format_code(board.puzzle)
    assert code.startswith(genre.name + ".")
    assert genre.parse_code(code) == board.puzzle
    assert genre.format_code(genre.parse_code(code)) == code


def test_urls_and_json_round_trip(made: tuple[Genre, Generated]) -> None:
    genre, board = made
    assert genre.parse_url(genre.format_url(board.puzzle)) == board.puzzle
    assert genre.from_json(genre.to_json(board.puzzle)) == board.puzzle


def test_codes_never_carry_the_solution(made: tuple[Genre, Generated]) -> None:
    genre, board = made
    rows = genre.format_grid(board.puzzle, board.solution)
    code = genre.format_code(board.puzzle)
    assert "".join(rows) not in code


def test_grid_text_round_trips_and_validates(made: tuple[Genre, Generated]) -> None:
    genre, board = made
    rows = genre.format_grid(board.puzzle, board.solution)
    assert genre.parse_grid(board.puzzle, rows) == board.solution
    assert genre.validate(board.puzzle, board.solution) == []
    assert genre.validate(board.puzzle, 0) != [] or board.solution == 0


def test_count_is_unique_and_returns_an_outcome(made: tuple[Genre, Generated]) -> None:
    genre, board = made
    outcome = genre.count(board.puzzle, 2, Deadline(60))
    assert isinstance(outcome, Outcome)
    assert outcome.verdict is Verdict.UNIQUE
    assert outcome.solutions == (board.solution,)


def test_transforms_preserve_the_count(made: tuple[Genre, Generated]) -> None:
    genre, board = made
    width, height = board.puzzle.width, board.puzzle.height
    for symmetry in Symmetry:
        image = genre.transform(board.puzzle, symmetry)
        outcome = genre.count(image, 2, Deadline(60))
        assert outcome.verdict is Verdict.UNIQUE, symmetry
        assert outcome.solutions == (symmetry.mask(board.solution, width, height),), symmetry


def test_the_ladder_is_named_and_ordered(made: tuple[Genre, Generated]) -> None:
    genre, board = made
    assert genre.rungs
    assert len(set(genre.rungs)) == len(genre.rungs)
    decided = 0
    for rung in genre.rungs:
        progress = genre.solve(board.puzzle, rung, Deadline(60))
        now = progress.shaded | progress.empty
        assert now & decided == decided
        assert progress.shaded & ~board.solution == 0
        decided = now
    with pytest.raises(CodeError):
        genre.solve(board.puzzle, "no-such-rung", Deadline(1))


def test_generation_is_reproducible(made: tuple[Genre, Generated]) -> None:
    genre, board = made
    again = _small(genre)
    assert genre.format_code(again.puzzle) == genre.format_code(board.puzzle)
    assert board.difficulty in genre.difficulties


def test_generation_out_of_time_raises(made: tuple[Genre, Generated]) -> None:
    genre, _ = made
    _, (width, height) = genre.sizes
    with pytest.raises(GenerationError):
        genre.generate(Request(width, height), 1, Deadline(0))


@pytest.mark.parametrize(
    "junk", ["", ".", "x.1.5x5.AAAA", "norinori.9.5x5.AAAA", "\x00", "a" * 5000]
)
def test_bad_codes_are_code_errors(made: tuple[Genre, Generated], junk: str) -> None:
    genre, _ = made
    with pytest.raises(CodeError):
        genre.parse_code(junk)
