"""Nondango counting: the engine (screen + split + propagation) against the plain
backtracker, answer set for answer set, under both variants, and against SAT."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.search import count_solutions
from gridproof.genres.nondango import GENRE, search, solve
from gridproof.genres.nondango.brute import count_brute
from gridproof.genres.nondango.model import Nondango, Variant, make_puzzle, validate
from gridproof.genres.nondango.position import Position, Reading, board_of, propagate
from gridproof.genres.nondango.sat import count_sat
from tests.genres.nondango.boards import both_variants, generated, planted_board, random_board

EVERYTHING = 10**6


def _mix(count: int, seed: int) -> list[Nondango]:
    rng = random.Random(seed)
    boards = []
    for index in range(count):
        width, height = rng.randint(2, 6), rng.randint(2, 6)
        if index % 2:
            board = random_board(width, height, rng)
        else:
            board = planted_board(width, height, rng, extra=rng.uniform(0.2, 0.9))
        boards += both_variants(board)
    return boards


def _generated() -> list[Nondango]:
    out = []
    for variant in Variant:
        for seed, size in enumerate((4, 5, 6, 7, 8) * 4):
            request = Request(size, 9 - size // 2, options={"rule": variant.value})
            made = generated(request, seed)
            out += both_variants(made.puzzle)  # the twin under the other rule too
    return out


BOARDS = _mix(250, seed=2026) + _generated()


@pytest.fixture(scope="module")
def answer_sets() -> list[tuple[frozenset[int], frozenset[int]]]:
    """(plain backtracker, engine) answer sets for every board."""
    return [
        (
            frozenset(count_brute(p, EVERYTHING).solutions),
            frozenset(solve.count(p, EVERYTHING).solutions),
        )
        for p in BOARDS
    ]


def test_mix_holds_every_verdict(answer_sets: list[tuple[frozenset[int], frozenset[int]]]) -> None:
    kinds = Counter(
        (p.variant, min(len(plain), 2)) for p, (plain, _) in zip(BOARDS, answer_sets, strict=True)
    )
    for variant in Variant:
        for answers in (0, 1, 2):
            assert kinds[variant, answers] >= 20, kinds


def test_screen_and_split_keep_the_answer_set(
    answer_sets: list[tuple[frozenset[int], frozenset[int]]],
) -> None:
    bad = [i for i, (plain, engine) in enumerate(answer_sets) if plain != engine]
    assert bad == []


def test_engine_answers_are_distinct_and_validate() -> None:
    for puzzle in BOARDS[:120]:
        found = solve.count(puzzle, EVERYTHING).solutions
        assert len(found) == len(set(found))
        for black in found:
            assert validate(puzzle, black) == []


def test_verdicts_agree_with_sat() -> None:
    for puzzle in BOARDS:
        engine = solve.count(puzzle, 2, Deadline.never())
        oracle = count_sat(puzzle, 2)
        assert engine.verdict is oracle.verdict, puzzle
        if engine.verdict is Verdict.UNIQUE:
            assert engine.solutions == oracle.solutions


def test_groups_multiply_to_the_count() -> None:
    """The third check of the split: count each independent group alone, multiply."""
    for puzzle in BOARDS[:200]:
        total = len(count_brute(puzzle, EVERYTHING).solutions)
        board = board_of(puzzle)
        pos = Position(board)
        if board.circleless or not propagate(pos):
            assert total == 0
            continue
        product = 1
        for part in search.independent_parts(pos):
            child = pos.copy()
            child.focus = part
            space = search.NondangoSpace(Deadline.never())
            found = count_solutions(space, child, EVERYTHING, Deadline.never())
            product *= len(found.solutions)
        assert product == total, puzzle


def test_limit_and_deadline() -> None:
    puzzle = BOARDS[1]
    with pytest.raises(ValueError, match="at least 2"):
        solve.count(puzzle, 1)
    with pytest.raises(ValueError, match="at least 2"):
        count_brute(puzzle, 1)
    for puzzle in BOARDS[:60]:
        truth = solve.count(puzzle, 2).verdict
        out = solve.count(puzzle, 2, Deadline(0))
        assert out.verdict in (Verdict.TIMEOUT, truth)
        assert out.verdict is not Verdict.UNIQUE
        assert count_brute(puzzle, 2, Deadline(0)).verdict is not Verdict.UNIQUE


def test_limit_stops_the_count() -> None:
    many = next(p for p in BOARDS if len(count_brute(p, 10).solutions) >= 5)
    assert len(solve.count(many, 3).solutions) == 3
    assert solve.count(many, 3).verdict is Verdict.MULTIPLE


def test_a_region_without_circles_has_no_answer() -> None:
    puzzle = make_puzzle([[0, 1], [0, 1]], [[1, 0], [1, 0]])
    outcome = solve.count(puzzle, 2)
    assert outcome.verdict is Verdict.NONE
    assert count_brute(puzzle, 2).verdict is Verdict.NONE
    assert count_sat(puzzle, 2).verdict is Verdict.NONE
    found = GENRE.solve(puzzle, "region", Deadline.never()).contradiction
    assert found is not None
    assert found.rule == "region-black"
    assert found.text == "region 2 has no circle left to paint black"
    assert found.regions == (1,)
    assert solve.rung_needed(puzzle) == "search"


# --- the misreadings, against a backtracker written for this test -----------------------


def _lines(puzzle: Nondango, reading: Reading) -> list[list[int]]:
    w, h = puzzle.width, puzzle.height
    cells = [[(r, c) for c in range(w)] for r in range(h)] + [
        [(r, c) for r in range(h)] for c in range(w)
    ]
    if reading is not Reading.NO_DIAGONALS:
        for d in range(-h, w):
            cells.append([(r, r + d) for r in range(h) if 0 <= r + d < w])
            cells.append([(r, d + h - 1 - r) for r in range(h) if 0 <= d + h - 1 - r < w])
    return [[r * w + c for r, c in line] for line in cells]


def _misread_count(puzzle: Nondango, reading: Reading) -> int:
    """Every choice of one circle per region, judged line by line under `reading`."""
    choices = [[c for c in cells if puzzle.circles >> c & 1] for cells in puzzle.region_cells()]
    lines = _lines(puzzle, reading)
    total = 0
    for pick in itertools.product(*choices):
        black = sum(1 << c for c in pick)
        total += all(_line_ok(puzzle, line, black, reading) for line in lines)
    return total


def _line_ok(puzzle: Nondango, line: list[int], black: int, reading: Reading) -> bool:
    colours = [black >> c & 1 for c in line if puzzle.circles >> c & 1 or reading is Reading.RULE]
    forbidden = [1] if puzzle.variant is Variant.NO_THREE_BLACK else [0, 1]
    if reading is Reading.ANYWHERE:
        return all(colours.count(colour) <= 2 for colour in forbidden)
    runs = [black >> c & 1 if puzzle.circles >> c & 1 else -1 for c in line]
    return not any(runs[i : i + 3] == [f] * 3 for i in range(len(runs) - 2) for f in forbidden)


@pytest.mark.parametrize("reading", list(Reading))
def test_readings_against_a_line_by_line_backtracker(reading: Reading) -> None:
    small = [p for p in BOARDS[:300] if p.width * p.height <= 16]
    assert len(small) > 50
    for puzzle in small:
        expected = _misread_count(puzzle, reading)
        outcome = solve.count(puzzle, EVERYTHING, reading=reading)
        assert len(outcome.solutions) == expected, (puzzle, reading)


def test_rule_reading_is_the_default() -> None:
    for puzzle in BOARDS[:40]:
        plain = solve.count(puzzle, 50).solutions
        assert plain == solve.count(puzzle, 50, reading=Reading.RULE).solutions
