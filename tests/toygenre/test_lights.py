"""Lights' own tests, beside what the contract test checks for every genre: a worked
example in every format, the codec's messages, the step texts, and the counter against
the brute force on random small boards."""

from __future__ import annotations

from typing import Any

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.core.trace import Violation
from tests.toygenre import GENRE, Lights
from tests.toygenre.brute import count_brute
from tests.toygenre.model import make_puzzle

CLUES = [[1, 1, None], [None, 1, 1], [None, 1, None]]
CODE = "lights.1.3x3.SASCAA"
URL = "https://puzz.link/p?lights/3/3/11b11a1a"
SOLUTION = ["..#", "#..", "#.."]


def test_the_example_in_every_format() -> None:
    puzzle = make_puzzle(CLUES)
    assert GENRE.format_code(puzzle) == CODE
    assert GENRE.format_url(puzzle) == URL
    assert GENRE.parse_code(CODE) == GENRE.parse_url(URL) == puzzle
    assert GENRE.to_json(puzzle) == {"genre": "lights", "width": 3, "height": 3, "clues": CLUES}
    solution = GENRE.parse_grid(puzzle, SOLUTION)
    assert GENRE.count(puzzle, 2, Deadline.never()).solutions == (solution,)
    assert GENRE.validate(puzzle, solution) == []


def test_a_long_run_of_cells_without_digits() -> None:
    puzzle = Lights(30, 1, (None,) * 28 + (0, None))
    assert GENRE.format_url(puzzle) == "https://puzz.link/p?lights/30/1/zb0a"
    assert GENRE.parse_url("https://puzz.link/p?lights/30/1/zb0a") == puzzle
    assert GENRE.parse_url("https://puzz.link/p?lights/30/1/mlc0a") == puzzle  # any runs


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("norinori.1.3x3.SASCAA", "genre 'norinori' is not 'lights'"),
        ("lights.2.3x3.SASCAA", "version 2"),
        ("lights.1.31x1.AAAAAAAAAAAAAAAA", "exceeds 30x30"),
        ("lights.1.3x3.SASCA", "expected 6 for 27 bits"),
        ("lights.1.1x1.4A", "cell r1c1 holds 7, not a digit code from 0 to 5"),
    ],
)
def test_bad_codes(code: str, message: str) -> None:
    with pytest.raises(CodeError, match=message):
        GENRE.parse_code(code)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("https://puzz.link/p?norinori/3/3/11b11a1a", "genre 'norinori', not 'lights'"),
        ("https://puzz.link/p?lights/3/3/11b11a1b", "'b' at position 8 runs past the last"),
        ("https://puzz.link/p?lights/3/3/11b11a1a1", "'1' left over"),
        ("https://puzz.link/p?lights/3/3/11b11a1", "covers 8 of 9 cells"),
        ("https://puzz.link/p?lights/3/3/15b11a1a", "'5' at position 2 is neither"),
        ("https://puzz.link/p?lights/31/1/z", "exceeds 30x30"),
    ],
)
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(CodeError, match=message):
        GENRE.parse_url(url)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([], "is a list, not an object"),
        ({"width": 1, "height": 1}, "no 'clues'"),
        ({"genre": "norinori", "width": 1, "height": 1, "clues": [[0]]}, "'norinori'"),
        ({"width": 1, "height": 1, "clues": [[True]]}, "column 1 'True' is not an integer"),
        ({"width": 1, "height": 1, "clues": [[5]]}, "json clues: row 1, column 1: 5 is not"),
        ({"width": 2, "height": 1, "clues": [[0]]}, "row 1 is not a list of 2 cells"),
        ({"width": 0, "height": 0, "clues": []}, "json clues: the grid is empty"),
    ],
)
def test_bad_json(obj: Any, message: str) -> None:
    with pytest.raises(CodeError, match=message):
        GENRE.from_json(obj)


def test_the_digits_rung_explains_the_example() -> None:
    """The 1 at r2c2 also needs r2c1, which the 1 at r1c1 shaded in the same round: a step
    that decides nothing new is left out of the solve."""
    progress = GENRE.solve(make_puzzle(CLUES), "digits", Deadline.never())
    assert progress.complete
    assert [step.text for step in progress.steps] == [
        "the 1 at r1c1 needs 1 more shaded neighbour and only r2c1 can hold it",
        "the 1 at r1c2 needs 1 more shaded neighbour and only r1c3 can hold it",
        "the 1 at r2c3 already has 1 shaded neighbour, so r3c3 is empty",
        "the 1 at r3c2 needs 1 more shaded neighbour and only r3c1 can hold it",
    ]


def test_a_digit_that_cannot_be_met_is_a_contradiction() -> None:
    progress = GENRE.solve(make_puzzle([[4, None]]), "digits", Deadline.never())
    assert progress.contradiction == Violation(
        "digit-needs", "the 4 at r1c1 can reach only 1 shaded neighbours", (0,)
    )
    assert GENRE.count(make_puzzle([[4, None]]), 2, Deadline.never()).verdict is Verdict.NONE


def test_the_validator_names_every_broken_digit() -> None:
    puzzle = make_puzzle(CLUES)
    texts = [problem.text for problem in GENRE.validate(puzzle, 0b1)]
    assert texts == [
        "r1c1 holds a digit but is shaded",
        "the 1 at r1c1 has 0 shaded neighbours",
        "the 1 at r2c2 has 0 shaded neighbours",
        "the 1 at r2c3 has 0 shaded neighbours",
        "the 1 at r3c2 has 0 shaded neighbours",
    ]


def _random_board(rng: Rng) -> Lights:
    width, height = rng.randint(1, 4), rng.randint(1, 4)
    clues = [rng.choice((None, None, 0, 1, 2, 3, 4)) for _ in range(width * height)]
    return Lights(width, height, tuple(clues))


def test_the_counter_agrees_with_the_brute_force() -> None:
    rng = Rng(2026)
    verdicts = set()
    for _ in range(300):
        puzzle = _random_board(rng)
        engine = GENRE.count(puzzle, 1000, Deadline.never())
        brute = count_brute(puzzle, 1000)
        assert engine.verdict is brute.verdict, GENRE.format_code(puzzle)
        assert sorted(engine.solutions) == sorted(brute.solutions), GENRE.format_code(puzzle)
        verdicts.add(engine.verdict)
    assert verdicts == {Verdict.NONE, Verdict.UNIQUE, Verdict.MULTIPLE}


@pytest.mark.parametrize(
    ("request_", "seed", "code", "grade"),
    [
        (Request(5, 5), 7, "lights.1.5x5.CBACCIIBACAQIA", "easy"),
        (Request(6, 4, "easy"), 2, "lights.1.6x4.IQZAAAKCYAQY", "easy"),
        (Request(6, 6, "hard"), 3, "lights.1.6x6.QEAEACQESQgYYAAECCA", "hard"),
    ],
)
def test_the_same_seed_gives_the_same_board(
    request_: Request, seed: int, code: str, grade: str
) -> None:
    board = GENRE.generate(request_, seed, Deadline(60))
    assert (GENRE.format_code(board.puzzle), board.difficulty) == (code, grade)
    assert GENRE.generator == "lights/1"
