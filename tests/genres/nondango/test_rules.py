"""The Nondango ladder: semantic steps that agree with the answers, rung by rung, and the
fast propagation the counter uses is exactly the `triple` rung's fixpoint."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.grid import bits
from gridproof.core.ladder import Progress
from gridproof.genres.nondango import GENRE, solve
from gridproof.genres.nondango.brute import count_brute
from gridproof.genres.nondango.codec import parse_code
from gridproof.genres.nondango.model import Nondango, Variant
from gridproof.genres.nondango.position import Position, board_of, propagate
from gridproof.genres.nondango.rules import LADDER
from tests.genres.nondango.boards import both_variants, generated, planted_board, random_board

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


def _solve(puzzle: Nondango, rung: str, deadline: Deadline | None = None, **marks: int) -> Progress:
    """The ladder up to `rung` through the genre record, as the player and the CLI run it."""
    return GENRE.solve(puzzle, rung, deadline or Deadline.never(), **marks)


RUNGS = LADDER.names
RANDOM = _random(150, seed=11)
UNIQUE = [
    generated(Request(size, size, options={"rule": variant.value}), seed)
    for variant in Variant
    for seed, size in enumerate((6, 7, 8, 9, 10) * 3)
]


@pytest.mark.parametrize(("rung", "confine"), [("triple", False), ("confine", True)])
def test_the_rung_fixpoints_are_the_fast_propagation(rung: str, confine: bool) -> None:
    for puzzle in RANDOM:
        progress = _solve(puzzle, rung)
        pos = Position(board_of(puzzle))
        if not propagate(pos, confine=confine):
            assert progress.contradiction is not None, puzzle
            continue
        assert progress.contradiction is None, puzzle
        assert (progress.shaded, progress.empty) == (pos.black, pos.empty), puzzle


def test_confinement_is_its_own_rung() -> None:
    """Under no-three-same some boards stall at `triple` that `confine` moves on; under
    no-three-black the two rungs are the same."""
    moved = 0
    for puzzle in RANDOM:
        triple, confine = _solve(puzzle, "triple"), _solve(puzzle, "confine")
        if puzzle.variant is Variant.NO_THREE_BLACK:
            assert (triple.shaded, triple.empty) == (confine.shaded, confine.empty)
            assert all(step.rule != "triple-confine" for step in confine.steps)
        elif triple.contradiction is None and triple.empty != confine.empty:
            moved += 1
    assert moved >= 5


@pytest.mark.parametrize("rung", RUNGS)
def test_every_step_agrees_with_the_answer(rung: str) -> None:
    for made in UNIQUE:
        progress = _solve(made.puzzle, rung)
        assert progress.contradiction is None
        assert progress.shaded & ~made.solution == 0
        assert progress.empty & made.solution == 0
        for step in progress.steps:
            assert RUNGS.index(LADDER.rung_of(step.rule)) <= RUNGS.index(rung)
            assert step.text
            assert step.decided()


def test_every_step_agrees_with_every_answer_of_random_boards() -> None:
    for puzzle in RANDOM[:120]:
        answers = count_brute(puzzle, 10**6).solutions
        if not answers:
            continue
        progress = _solve(puzzle, "probe")
        for black in answers:
            assert progress.shaded & ~black == 0, puzzle
            assert progress.empty & black & puzzle.circles == 0, puzzle


def test_the_rung_needed_is_the_hardest_rung_the_ladder_uses() -> None:
    needed: Counter[str | None] = Counter()
    for made in UNIQUE:
        rung = solve.rung_needed(made.puzzle)
        assert rung == made.metrics["rung"]
        full = _solve(made.puzzle, "search")
        assert full.decided_fraction == 1.0
        assert LADDER.hardest(full.steps) == rung
        cheaper = RUNGS[RUNGS.index(rung) - 1]
        assert _solve(made.puzzle, cheaper).decided_fraction < 1.0
        needed[rung] += 1
    assert needed["triple"], needed
    assert needed["confine"], needed
    assert needed["probe"], needed


def test_region_rung_alone_decides_only_single_circle_regions() -> None:
    made = generated(Request(8, 8, options={"white": 0}), 5)
    assert made.metrics["white"] == 0
    progress = _solve(made.puzzle, "region")
    assert progress.decided_fraction == 1.0
    assert {step.rule for step in progress.steps} == {"region-black"}
    assert progress.steps[0].text.startswith("region 1 paints one circle black, and r")


def test_step_texts_name_their_reasons() -> None:
    texts: Counter[str] = Counter()
    for made in UNIQUE:
        for step in _solve(made.puzzle, "probe").steps:
            texts[step.rule] += 1
            if step.rule == "triple-black":
                assert "may not all be black" in step.text
            if step.rule == "triple-white":
                assert "may not all be white" in step.text
            if step.rule == "probe":
                assert step.text.startswith("if r")
                cell = step.text.split(" ")[1]
                assert step.text.endswith(f"so {cell} is white")
            if step.rule == "region-white":
                assert "already has its black circle" in step.text
    assert set(texts) == {each.id for each in LADDER.rules} - {"search"}, texts


@pytest.mark.parametrize("code", SEARCH_FIXTURES)
def test_search_decides_what_probing_cannot(code: str) -> None:
    puzzle = parse_code(code)
    answers = count_brute(puzzle, 10**6).solutions
    assert len(answers) >= 2
    probe = _solve(puzzle, "probe")
    search = _solve(puzzle, "search")
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
    progress = _solve(puzzle, "triple", shaded=some)
    assert progress.shaded & some
    assert progress.shaded & ~answer == 0
    assert len(_solve(puzzle, "probe", max_steps=1).steps) == 1
    wrong = 1 << next(bits(puzzle.circles & ~answer))
    assert _solve(puzzle, "search", shaded=wrong).contradiction is not None
    clash = _solve(puzzle, "region", shaded=some, empty=some)
    assert clash.contradiction is not None
    assert clash.contradiction.text == f"{_name(some, puzzle)} would be both black and white"
    assert clash.contradiction.rule == "given"
    assert clash.steps == ()
    if ~puzzle.circles & ((1 << puzzle.width * puzzle.height) - 1):
        blank = 1 << next(bits(~puzzle.circles & ((1 << puzzle.width * puzzle.height) - 1)))
        off = _solve(puzzle, "probe", shaded=blank)
        assert off.contradiction is not None
        assert off.contradiction.text == f"{_name(blank, puzzle)} holds no circle to paint"
        assert off.contradiction.cells == (blank.bit_length() - 1,)
        assert off.steps == ()
    with pytest.raises(
        CodeError, match="unknown rung 'guess'; rungs: region, triple, confine, probe"
    ):
        _solve(puzzle, "guess")


PINNED_STEPS = {
    # Every step of the whole ladder on two small boards, word for word as the ladder wrote
    # them before its rules became a table: each rule's sentence, each of its variants.
    # (The region-confinement case of `triple-white` became its own rule, `triple-confine`,
    # in nondango/2: same sentences, new id.)
    "nondango.1.5x3-same.xBh7X3A": [
        ("region-black", "region 1 paints one circle black, and r1c1 is its only circle"),
        (
            "triple-confine",
            "r2c3, r2c4, r2c5 may not all be white and only region 3 can still paint one of them, "
            "so its black circle is r2c3 or r2c4 or r2c5: r1c4 is white",
        ),
        (
            "probe",
            "if r1c2 were black, then region 2 already has its black circle r1c2, so r2c1, r2c2 "
            "are white; then r2c1, r2c2, r2c3 may not all be white and only r2c3 can still be "
            "black, so it is black; then region 3 already has its black circle r2c3, so r2c4, r2c5"
            " are white; then r1c2, r2c3 are black, so r3c4 is white: r1c2, r2c3, r3c4 may not all"
            " be black; and then r1c4, r2c4, r3c4 are three white circles in a row; so r1c2 is "
            "white",
        ),
        (
            "probe",
            "if r2c1 were black, then region 2 already has its black circle r2c1, so r2c2 is "
            "white; then r1c2, r2c2, r3c2 may not all be white and only r3c2 can still be black, "
            "so it is black; then region 4 already has its black circle r3c2, so r3c3, r3c4 are "
            "white; then r1c2, r2c3, r3c4 may not all be white and only r2c3 can still be black, "
            "so it is black; then r1c4, r2c4, r3c4 may not all be white and only r2c4 can still be"
            " black, so it is black; and then region 3 holds two black circles, r2c3, r2c4; so "
            "r2c1 is white",
        ),
        (
            "region-black",
            "region 2 paints one circle black, and r2c2 is the only circle it has left",
        ),
        (
            "triple-black",
            "r1c1, r2c2 are black, so r3c3 is white: r1c1, r2c2, r3c3 may not all be black",
        ),
        (
            "probe",
            "if r2c4 were black, then region 3 already has its black circle r2c4, so r2c3, r2c5 "
            "are white; then r1c2, r2c3, r3c4 may not all be white and only r3c4 can still be "
            "black, so it is black; then r1c4, r2c3, r3c2 may not all be white and only r3c2 can "
            "still be black, so it is black; and then region 4 holds two black circles, r3c2, "
            "r3c4; so r2c4 is white",
        ),
        (
            "triple-white",
            "r1c4, r2c4, r3c4 may not all be white and only r3c4 can still be black, so it is "
            "black",
        ),
        ("region-white", "region 4 already has its black circle r3c4, so r3c2 is white"),
        (
            "triple-white",
            "r1c4, r2c3, r3c2 may not all be white and only r2c3 can still be black, so it is "
            "black",
        ),
        ("region-white", "region 3 already has its black circle r2c3, so r2c5 is white"),
    ],
    "nondango.1.5x4-same.prpiRXZd4A": [
        ("region-black", "region 2 paints one circle black, and r1c3 is its only circle"),
        (
            "triple-confine",
            "r2c3, r3c3, r4c3 may not all be white and only region 4 can still paint one of them, "
            "so its black circle is r2c3 or r3c3 or r4c3: r4c2 is white",
        ),
        (
            "search",
            "if r1c4 were black, a complete search of its group of regions (1, 3, 4, 5) finds no "
            "way to finish it; so r1c4 is white",
        ),
        (
            "search",
            "if r1c5 were black, a complete search of its group of regions (1, 3, 4, 5) finds no "
            "way to finish it; so r1c5 is white",
        ),
        (
            "region-black",
            "region 3 paints one circle black, and r3c4 is the only circle it has left",
        ),
    ],
}


@pytest.mark.parametrize("code", PINNED_STEPS)
def test_step_texts_stay_word_for_word(code: str) -> None:
    progress = _solve(parse_code(code), LADDER.top)
    assert progress.contradiction is None
    assert [(step.rule, step.text) for step in progress.steps] == PINNED_STEPS[code]


def test_the_ladder_is_one_table() -> None:
    assert GENRE.ladder is LADDER
    assert LADDER.names == ("region", "triple", "confine", "probe", "search")
    assert [LADDER.grade(name) for name in LADDER.names] == [
        "easy",
        "easy",
        "medium",
        "hard",
        "expert",
    ]
    assert LADDER.grades == ("easy", "medium", "hard", "expert")
    assert LADDER.grade(None) == "expert"  # search is complete: nothing lies beyond it
    assert [(each.id, LADDER.rung_of(each.id), each.title) for each in LADDER.rules] == [
        ("region-black", "region", "Region: last circle"),
        ("region-white", "region", "Region: black circle found"),
        ("triple-black", "triple", "Triple: two black"),
        ("triple-white", "triple", "Triple: not all white"),
        ("triple-confine", "confine", "Triple: one region left"),
        ("probe", "probe", "Probe"),
        ("search", "search", "Search"),
    ]


def test_an_expired_deadline_stops_the_ladder() -> None:
    progress = _solve(UNIQUE[-1].puzzle, "search", Deadline(0))
    assert progress.timed_out
    assert solve.rung_needed(UNIQUE[-1].puzzle, Deadline(0)) in (
        None,
        "region",
        "triple",
        "confine",
    )


def _name(bit: int, puzzle: Nondango) -> str:
    row, col = divmod(bit.bit_length() - 1, puzzle.width)
    return f"r{row + 1}c{col + 1}"
