"""The Nondango ladder: semantic steps that agree with the answers, rung by rung, and the
fast propagation the counter uses is exactly the `triple` rung's fixpoint."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.grid import bits
from gridproof.core.registry import Request
from gridproof.genres.nondango import solve
from gridproof.genres.nondango.brute import count_brute
from gridproof.genres.nondango.codec import parse_code
from gridproof.genres.nondango.generate import generate
from gridproof.genres.nondango.model import Nondango, Variant
from gridproof.genres.nondango.position import Position, board_of, propagate
from gridproof.genres.nondango.rules import RUNG_OF, RUNGS
from tests.genres.nondango.boards import both_variants, planted_board, random_board

SEARCH_FIXTURES = (
    # Boards with several answers where a complete search of one group decides circles
    # that probing cannot (found by scanning random boards; kept as fixtures).
    "nondango.1.7x6-same.BNe_ac_dpyXXr9bE7VeA",
    "nondango.1.5x4-same.prpiRXZd4A",
)


def _random(count: int, seed: int) -> list[Nondango]:
    rng = random.Random(seed)
    out = []
    for index in range(count):
        width, height = rng.randint(3, 7), rng.randint(3, 7)
        maker = random_board if index % 2 else planted_board
        out += both_variants(maker(width, height, rng))
    return out


RANDOM = _random(150, seed=11)
UNIQUE = [
    generate(Request(size, size, options={"rule": variant.value}), seed, Deadline(60))
    for variant in Variant
    for seed, size in enumerate((6, 7, 8, 9, 10) * 3)
]


def test_triple_fixpoint_is_the_fast_propagation() -> None:
    for puzzle in RANDOM:
        progress = solve.solve(puzzle, "triple")
        pos = Position(board_of(puzzle))
        if not propagate(pos):
            assert progress.contradiction is not None, puzzle
            continue
        assert progress.contradiction is None, puzzle
        assert (progress.shaded, progress.empty) == (pos.black, pos.empty), puzzle


@pytest.mark.parametrize("rung", RUNGS)
def test_every_step_agrees_with_the_answer(rung: str) -> None:
    for made in UNIQUE:
        progress = solve.solve(made.puzzle, rung)
        assert progress.contradiction is None
        assert progress.shaded & ~made.solution == 0
        assert progress.empty & made.solution == 0
        for step in progress.steps:
            assert RUNGS.index(RUNG_OF[step.rule]) <= RUNGS.index(rung)
            assert step.text
            assert step.decided()


def test_every_step_agrees_with_every_answer_of_random_boards() -> None:
    for puzzle in RANDOM[:120]:
        answers = count_brute(puzzle, 10**6).solutions
        if not answers:
            continue
        progress = solve.solve(puzzle, "probe")
        for black in answers:
            assert progress.shaded & ~black == 0, puzzle
            assert progress.empty & black & puzzle.circles == 0, puzzle


def test_the_rung_needed_is_the_hardest_rung_the_ladder_uses() -> None:
    needed = Counter()
    for made in UNIQUE:
        rung = solve.rung_needed(made.puzzle)
        assert rung == made.metrics["rung"]
        full = solve.solve(made.puzzle, "search")
        assert full.decided_fraction == 1.0
        assert solve.hardest_rung(full) == rung
        cheaper = RUNGS[RUNGS.index(rung) - 1]
        assert solve.solve(made.puzzle, cheaper).decided_fraction < 1.0
        needed[rung] += 1
    assert needed["triple"], needed
    assert needed["probe"], needed


def test_region_rung_alone_decides_only_single_circle_regions() -> None:
    made = generate(Request(8, 8, "trivial"), 5, Deadline(60))
    assert made.metrics["white"] == 0
    progress = solve.solve(made.puzzle, "region")
    assert progress.decided_fraction == 1.0
    assert {step.rule for step in progress.steps} == {"region-black"}
    assert progress.steps[0].text.startswith("region 1 paints one circle black, and r")


def test_step_texts_name_their_reasons() -> None:
    texts = Counter()
    for made in UNIQUE:
        for step in solve.solve(made.puzzle, "probe").steps:
            texts[step.rule] += 1
            if step.rule == "triple-black":
                assert "may not all be black" in step.text
            if step.rule == "triple-white":
                assert "may not all be white" in step.text
            if step.rule == "probe":
                assert step.text.startswith("if r")
                assert step.text.endswith("so it is white")
            if step.rule == "region-white":
                assert "already has its black circle" in step.text
    assert set(texts) == set(RUNG_OF) - {"search"}, texts


@pytest.mark.parametrize("code", SEARCH_FIXTURES)
def test_search_decides_what_probing_cannot(code: str) -> None:
    puzzle = parse_code(code)
    answers = count_brute(puzzle, 10**6).solutions
    assert len(answers) >= 2
    probe = solve.solve(puzzle, "probe")
    search = solve.solve(puzzle, "search")
    assert probe.shaded | probe.empty != search.shaded | search.empty
    found = [step for step in search.steps if step.rule == "search"]
    assert found
    for step in found:
        assert "a complete search of its group of regions" in step.text
        for black in answers:
            assert step.empty & black == 0
    for black in answers:
        assert search.shaded & ~black == 0
        assert search.empty & black == 0


def test_given_marks_and_step_limits() -> None:
    made = UNIQUE[3]
    answer, puzzle = made.solution, made.puzzle
    some = 1 << next(bits(answer))
    progress = solve.solve(puzzle, "triple", shaded=some)
    assert progress.shaded & some
    assert progress.shaded & ~answer == 0
    assert len(solve.solve(puzzle, "probe", max_steps=1).steps) == 1
    wrong = 1 << next(bits(puzzle.circles & ~answer))
    assert solve.solve(puzzle, "search", shaded=wrong).contradiction is not None
    clash = solve.solve(puzzle, "region", shaded=some, empty=some)
    assert clash.contradiction == f"{_name(some, puzzle)} would be both black and white"
    if ~puzzle.circles & ((1 << puzzle.width * puzzle.height) - 1):
        blank = 1 << next(bits(~puzzle.circles & ((1 << puzzle.width * puzzle.height) - 1)))
        off = solve.solve(puzzle, "probe", shaded=blank)
        assert off.contradiction == f"{_name(blank, puzzle)} holds no circle to paint"
        assert off.steps == ()
    with pytest.raises(CodeError, match="unknown rule set"):
        solve.solve(puzzle, "guess")


def test_an_expired_deadline_stops_the_ladder() -> None:
    progress = solve.solve(UNIQUE[-1].puzzle, "search", Deadline(0))
    assert progress.timed_out
    assert solve.rung_needed(UNIQUE[-1].puzzle, Deadline(0)) in (None, "region", "triple")


def _name(bit: int, puzzle: Nondango) -> str:
    row, col = divmod(bit.bit_length() - 1, puzzle.width)
    return f"r{row + 1}c{col + 1}"
