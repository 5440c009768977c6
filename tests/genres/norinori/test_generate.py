"""The Norinori generator: every board proven unique, reproducible, graded by the solver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.grid import Geometry
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.core.symmetry import Symmetry
from gridproof.genres.norinori import GENRE, brute, codec, generate, model, sat, solve

FIXTURES = Path(__file__).with_name("fixtures.json")


@pytest.mark.parametrize(
    ("width", "height", "seed"),
    [(5, 5, 1), (6, 6, 2), (7, 5, 3), (8, 8, 4), (6, 9, 5), (10, 10, 6)],
)
def test_generated_boards_are_unique_by_the_sat_oracle(width: int, height: int, seed: int) -> None:
    made = generate.generate(Request(width, height), seed, Deadline(120))
    puzzle = made.puzzle
    assert (puzzle.width, puzzle.height) == (width, height)
    assert model.validate(puzzle, made.solution) == []
    oracle = sat.count_sat(puzzle, 2)
    assert oracle.verdict is Verdict.UNIQUE
    assert oracle.solutions == (made.solution,)
    assert made.difficulty in GENRE.difficulties
    assert made.health.attempts >= 1
    assert made.metrics["regions"] == puzzle.region_count


@pytest.mark.parametrize(
    ("width", "height", "difficulty", "seed"),
    [(15, 15, "easy", 1), (20, 20, None, 2), (14, 18, "medium", 3), (20, 16, "easy", 4)],
)
def test_big_boards_of_every_grade_are_unique_by_the_sat_oracle(
    width: int, height: int, difficulty: str | None, seed: int
) -> None:
    made = generate.generate(Request(width, height, difficulty), seed, Deadline(120))
    oracle = sat.count_sat(made.puzzle, 2)
    assert oracle.solutions == (made.solution,)
    assert oracle.verdict is Verdict.UNIQUE
    if difficulty is not None:
        assert generate.grade(made.puzzle, Deadline(60)).difficulty == difficulty


def test_same_seed_same_board() -> None:
    first = generate.generate(Request(7, 7), 11, Deadline(120))
    second = generate.generate(Request(7, 7), 11, Deadline(120))
    assert codec.format_code(first.puzzle) == codec.format_code(second.puzzle)
    assert first.solution == second.solution
    other = generate.generate(Request(7, 7), 12, Deadline(120))
    assert codec.format_code(other.puzzle) != codec.format_code(first.puzzle)


def test_regions_stay_readable() -> None:
    made = generate.generate(Request(9, 9), 21, Deadline(120))
    for cells in made.puzzle.region_cells():
        assert len(cells) >= 2  # no one-cell slivers: every region holds two shaded cells


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_asked_difficulty_is_delivered(difficulty: str) -> None:
    made = generate.generate(Request(6, 6, difficulty), 3, Deadline(120))
    assert made.difficulty == difficulty
    assert generate.grade(made.puzzle, Deadline(30)).difficulty == difficulty


def test_out_of_time_raises_with_health() -> None:
    with pytest.raises(GenerationError) as raised:
        generate.generate(Request(12, 12), 1, Deadline(0))
    assert set(raised.value.health) >= {"attempts", "ambiguous", "contradiction", "timeout"}


@pytest.mark.parametrize("size", [(3, 3), (31, 5)])
def test_sizes_outside_the_range_are_refused(size: tuple[int, int]) -> None:
    with pytest.raises(CodeError, match="outside"):
        generate.generate(Request(*size), 1, Deadline(5))


def test_induced_matching_is_induced_and_dense() -> None:
    geo = Geometry(10, 10)
    greedy = generate.greedy_matching(geo, Rng(5))
    dense = generate.induced_matching(geo, Rng(5), rounds=400)
    for dominoes in (greedy, dense):
        shaded = 0
        for a, b in dominoes:
            assert geo.neighbours[a] >> b & 1
            shaded |= (1 << a) | (1 << b)
        for a, b in dominoes:
            others = shaded & ~((1 << a) | (1 << b))
            assert not geo.spread((1 << a) | (1 << b)) & others, "dominoes may not touch"
    assert len(dense) > len(greedy)


def test_walking_a_rival_kills_it_and_keeps_the_solution() -> None:
    rng = Rng(8)
    geo = Geometry(8, 8)
    dominoes = generate.induced_matching(geo, rng, rounds=200)
    solution = sum((1 << a) | (1 << b) for a, b in dominoes)
    labels = generate.grow_regions(geo, generate.seed_regions(geo, dominoes, rng, 0.3), rng)
    for _ in range(30):
        puzzle = model.make_puzzle([labels[r * 8 : (r + 1) * 8] for r in range(8)])
        assert model.validate(puzzle, solution) == []
        outcome = solve.count(puzzle, 2, Deadline(30))
        if outcome.verdict is Verdict.UNIQUE:
            break
        rival = next(s for s in outcome.solutions if s != solution)
        walked = generate.walk_rival(geo, labels, solution, [rival], rng)
        if walked is None:
            break
        labels = walked
        moved = model.make_puzzle([labels[r * 8 : (r + 1) * 8] for r in range(8)])
        assert model.validate(moved, rival) != []
        assert model.validate(moved, solution) == []


def test_the_retained_fixtures_stay_unique_forever() -> None:
    data = json.loads(FIXTURES.read_text())
    assert {board["symmetry"] for board in data["boards"]} == {s.value for s in Symmetry}
    for board in data["boards"]:
        puzzle = codec.parse_code(board["code"])
        rows = board["solution"]
        answer = sum(
            1 << (r * puzzle.width + c)
            for r, row in enumerate(rows)
            for c, ch in enumerate(row)
            if ch == "#"
        )
        for counter in (solve.count, brute.count_by_cells, brute.count_by_regions):
            assert counter(puzzle, 2, Deadline(30)).solutions == (answer,), board["id"]
        assert sat.count_sat(puzzle, 2).solutions == (answer,)
