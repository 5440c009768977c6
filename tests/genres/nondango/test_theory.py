"""The design note's lemma, hit with a hammer: every one-circle move of a unique answer is
illegal and certified, an uncertified circle always admits a second answer, and under
no-three-black circles − regions ≤ certifying lines ≤ live lines."""

from __future__ import annotations

import dataclasses

import pytest

from gridproof.core.contract import Generated, Request
from gridproof.core.grid import bits
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.nondango import solve, theory
from gridproof.genres.nondango.generate import draw_skeleton
from gridproof.genres.nondango.model import Nondango, Variant
from gridproof.genres.nondango.position import build_board
from tests.genres.nondango.boards import generated

BANK = {
    variant: [
        generated(Request(size, size, options={"rule": variant.value}), seed)
        for seed, size in enumerate((6, 7, 8) * 4)
    ]
    for variant in Variant
}


@pytest.mark.parametrize("variant", list(Variant))
def test_every_move_is_illegal_and_certified(variant: Variant) -> None:
    moves = 0
    for made in BANK[variant]:
        check = theory.check_moves(made.puzzle, made.solution)
        assert check.illegal == check.moves == check.certified
        moves += check.moves
        if variant is Variant.NO_THREE_BLACK:
            assert check.certified_white == 0
    assert moves > 100


@pytest.mark.parametrize("variant", list(Variant))
def test_uncertified_circles_always_admit_a_second_answer(variant: Variant) -> None:
    offers = 0
    for made in BANK[variant]:
        puzzle, answer = made.puzzle, made.solution
        for cell in bits(~puzzle.circles & ((1 << (puzzle.width * puzzle.height)) - 1)):
            if theory.judge_offer(puzzle, answer, cell) != "uncertified":
                continue
            offers += 1
            trial = dataclasses.replace(puzzle, circles=puzzle.circles | 1 << cell)
            assert solve.count(trial, 2).verdict is Verdict.MULTIPLE
    assert offers > 30


def _boards(variant: Variant) -> list[tuple[Nondango, int]]:
    made: list[Generated[Nondango]] = BANK[variant]
    skeletons = [draw_skeleton(7, 6, variant, Rng(seed)) for seed in range(6)]
    return [(g.puzzle, g.solution) for g in made] + [
        (s, s.circles) for s in skeletons if s is not None
    ]


@pytest.mark.parametrize("variant", list(Variant))
def test_the_quick_offer_check_agrees_with_the_board_tables(variant: Variant) -> None:
    verdicts = set()
    for puzzle, answer in _boards(variant):
        for cell in bits(~puzzle.circles & ((1 << (puzzle.width * puzzle.height)) - 1)):
            trial = dataclasses.replace(puzzle, circles=puzzle.circles | 1 << cell)
            board = build_board(trial)
            if theory.breaks_answer(board, answer, cell):
                expected = "breaks"
            elif theory.is_certified(board, answer, cell):
                expected = "certified"
            else:
                expected = "uncertified"
            verdict = theory.judge_offer(puzzle, answer, cell)
            assert verdict == expected, (puzzle, cell)
            verdicts.add(verdict)
    wanted = {"certified", "uncertified"} | (
        {"breaks"} if variant is Variant.NO_THREE_SAME else set()
    )
    assert verdicts == wanted


def test_the_budget_inequality_holds_on_every_no_three_black_board() -> None:
    for made in BANK[Variant.NO_THREE_BLACK]:
        board = build_board(made.puzzle)
        white = made.puzzle.circles.bit_count() - made.puzzle.region_count
        assert white <= theory.certifying_lines(board, made.solution) <= len(board.black_nogoods)


@pytest.mark.parametrize("variant", list(Variant))
def test_static_groups_partition_the_regions(variant: Variant) -> None:
    for made in BANK[variant]:
        board = build_board(made.puzzle)
        groups = theory.static_groups(board)
        assert sorted(r for g in groups for r in g) == list(range(made.puzzle.region_count))
        touched = {board.region_of[c] for line in board.black_nogoods for c in bits(line)}
        touched |= {board.region_of[c] for line in board.white_nogoods for c in bits(line)}
        for group in groups:
            if len(group) > 1:
                assert set(group) <= touched
            else:  # a region alone in its group shares no live line with another
                for line in (*board.black_nogoods, *board.white_nogoods):
                    regions = {board.region_of[c] for c in bits(line)}
                    assert group[0] not in regions or regions == set(group)
