"""benchmarks/human.py, the yardstick of hints and grades against people: its measures on
made-up paths (a person's own order scores 1, a shuffled one near 0) and, where the
corpus is present, on a few janko records."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import gridproof as gp
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]


HUMAN = load_script("benchmarks/human.py")


def test_spearman_is_one_for_the_same_order_and_near_zero_for_a_shuffle() -> None:
    order = list(range(200))
    assert HUMAN.spearman(order, order) == pytest.approx(1.0)
    assert HUMAN.spearman(order, order[::-1]) == pytest.approx(-1.0)
    shuffled = order[:]
    random.Random(5).shuffle(shuffled)
    assert abs(HUMAN.spearman(order, shuffled)) < 0.15
    assert HUMAN.spearman([1, 2], [2, 1]) is None  # too few pairs
    assert HUMAN.spearman([1, 1, 1], [1, 2, 3]) is None  # a constant side


def test_ties_share_their_mean_rank() -> None:
    assert HUMAN.ranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4]


def test_first_touches_and_corrections() -> None:
    moves = [(0, 1, 1), (1, 0, 0), (0, 1, 0), (0, 1, 1), (1, 1, 1)]
    assert HUMAN.first_touch(moves, 2) == {1: 0, 2: 1, 3: 2}
    assert HUMAN.corrections(moves) == 2  # r1c2 set to 0, then back to 1


def test_the_held_aside_third_is_stable() -> None:
    ids = [f"janko-{n}" for n in range(300)]
    held = [i for i in ids if HUMAN.held_aside(i)]
    assert 70 < len(held) < 130
    assert held == [i for i in ids if HUMAN.held_aside(i)]


def test_the_ladder_s_own_order_scores_one_against_itself() -> None:
    board = gp.generate("norinori", size=(8, 8), seed=4)
    loaded = board.loaded
    order = HUMAN.ladder_order(loaded)
    width = loaded.puzzle.width
    moves = []
    solution = board.solution
    for cell in sorted(order, key=lambda c: (order[c], c)):
        moves.append((cell // width, cell % width, solution >> cell & 1))
    assert HUMAN.order_rho(loaded, moves) == pytest.approx(1.0, abs=0.05)
    found = HUMAN.next_moves(loaded, moves, solution, 10, True)
    assert found.asked == 10
    assert 0 <= found.agree <= found.reach <= found.asked


def test_the_foreseeing_solve_follows_any_person_who_takes_cells_the_rung_can_decide() -> None:
    """A person who always sets a cell the cheapest productive rung can decide (here by a
    random preference for cells) is followed exactly by the foreseeing solve (ρ 1), where
    the ladder's own order scores less; the hint agrees only where some offered step
    decides the person's next cell."""
    board = gp.generate("norinori", size=(8, 8), seed=4)
    loaded, solution = board.loaded, board.solution
    width = loaded.puzzle.width
    cells = list(range(width * loaded.puzzle.height))
    random.Random(3).shuffle(cells)
    preference = {cell: index for index, cell in enumerate(cells)}
    taken = HUMAN.foreseen_order(loaded, preference)
    assert sorted(taken) == sorted(cells)  # one cell at a time, to the end of the board
    assert sorted(taken.values()) == list(range(len(cells)))
    moves = [
        (cell // width, cell % width, solution >> cell & 1)
        for cell in sorted(taken, key=taken.__getitem__)
    ]
    assert HUMAN.ceiling_rho(loaded, moves) == pytest.approx(1.0)
    assert HUMAN.order_rho(loaded, moves) < 0.95
    assert HUMAN.rounds_ceiling(loaded, moves) < 0.99
    found = HUMAN.next_moves(loaded, moves, solution, 10, True, ceiling=True)
    assert 0 < found.agree <= found.offered <= found.asked == 10
    # at any rung the same preference takes cells a higher rung decides sooner
    anywhere = HUMAN.foreseen_order(loaded, preference, any_rung=True)
    assert sorted(anywhere) == sorted(cells)
    assert anywhere != taken
    moves = [
        (cell // width, cell % width, solution >> cell & 1)
        for cell in sorted(anywhere, key=anywhere.__getitem__)
    ]
    assert HUMAN.ceiling_rho(loaded, moves, any_rung=True) == pytest.approx(1.0)
    assert HUMAN.ceiling_rho(loaded, moves) < 0.99


def test_the_rounds_ceiling_is_what_the_best_order_within_the_rounds_reaches() -> None:
    """A person who solves in the ladder's rounds, each round in their own order (here
    backwards), scores 1 on the rounds' ceiling whatever that order; the ladder's order
    within its rounds scores less, and never above the ceiling."""
    board = gp.generate("norinori", size=(8, 8), seed=4)
    loaded, solution = board.loaded, board.solution
    width = loaded.puzzle.width
    rounds = HUMAN.round_order(loaded)
    steps = HUMAN.ladder_order(loaded)
    assert rounds.keys() == steps.keys()
    assert len(set(rounds.values())) > 3  # several rounds, so the test says something
    backwards = sorted(rounds, key=lambda c: (rounds[c], -steps[c], -c))
    moves = [(c // width, c % width, solution >> c & 1) for c in backwards]
    assert HUMAN.rounds_ceiling(loaded, moves) == pytest.approx(1.0)
    assert HUMAN.order_rho(loaded, moves) < 0.99
    shuffled = list(rounds)
    random.Random(8).shuffle(shuffled)
    moves = [(c // width, c % width, solution >> c & 1) for c in shuffled]
    assert HUMAN.order_rho(loaded, moves) <= HUMAN.rounds_ceiling(loaded, moves) + 1e-9


@pytest.mark.parametrize("genre", ["norinori", "nondango", "nonogram"])
def test_a_few_janko_records_measure_as_the_benchmark_says(corpus_dir: Path, genre: str) -> None:
    name, boards = HUMAN.measure(corpus_dir / f"janko-moves-{genre}.json", 4, 5, True)
    assert name == genre
    assert len(boards) == 4
    for board in boards:
        assert board.rho is not None
        assert 0.0 < board.rho <= 1.0  # people and the ladder broadly agree
        assert board.moves.asked == 5
        assert board.depth >= 1
    summary = HUMAN.summary(boards)
    assert 0 <= summary["agree"] <= 1


def test_partial_correlation_holds_size_fixed() -> None:
    rng = random.Random(7)
    size = list(range(200))
    # both follow size and nothing else: strongly correlated, not beyond size
    xs = [s + rng.gauss(0, 20) for s in size]
    ys = [s + rng.gauss(0, 20) for s in size]
    assert HUMAN.spearman(xs, ys) > 0.8
    assert abs(HUMAN.partial(xs, ys, size)) < 0.2
    # a shared part size does not explain survives
    extra = [rng.gauss(0, 20) for _ in size]
    xs = [s + e for s, e in zip(size, extra, strict=True)]
    ys = [s + e + rng.gauss(0, 5) for s, e in zip(size, extra, strict=True)]
    assert HUMAN.partial(xs, ys, size) > 0.6
    assert HUMAN.partial(size, ys, size) is None  # the held side is the other side
