"""The rule ladder: each technique on a line made for it, soundness of every step, and
what each rung completes."""

from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise
from pathlib import Path

from gridproof.core.deadline import Deadline
from gridproof.core.ladder import Progress
from gridproof.core.outcome import Verdict
from gridproof.core.trace import Step
from gridproof.genres.nonogram import GENRE, rules
from gridproof.genres.nonogram.formats import parse_pattern
from gridproof.genres.nonogram.model import Nonogram, clues_of, make_puzzle
from gridproof.genres.nonogram.position import Position, start
from gridproof.genres.nonogram.rules import LADDER
from gridproof.genres.nonogram.sat import count_sat
from gridproof.genres.nonogram.solve import count
from tests.genres.nonogram.boards import PATTERN_EXAMPLE, board_mix


def solve(
    puzzle: Nonogram,
    rung: str,
    deadline: Deadline,
    *,
    shaded: int = 0,
    empty: int = 0,
    max_steps: int | None = None,
) -> Progress:
    return GENRE.solve(puzzle, rung, deadline, shaded, empty, max_steps)


def _row(picture: str, shaded: str = "", empty: str = "") -> Position:
    """A one-row position whose row clue comes from `picture`, with marks on the row."""
    n = len(picture)
    puzzle = clues_of(n, 1, sum(1 << i for i, ch in enumerate(picture) if ch == "#"))
    shade, clear = (sum(1 << i for i, ch in enumerate(m) if ch == "x") for m in (shaded, empty))
    pos = start(puzzle, Deadline.never())
    assert pos.apply(Step("given", "the marks given", shaded=shade, empty=clear)) is None
    return pos


def _cells(step_mask: int) -> list[int]:
    return [i for i in range(step_mask.bit_length()) if step_mask >> i & 1]


def test_overlap() -> None:
    pos = _row("#######...")
    seen = pos.view(0)
    assert seen is not None
    (step,) = rules.overlap_in(pos, 0, seen)
    assert step.rule == "overlap"
    assert _cells(step.shaded) == [3, 4, 5, 6]
    assert (
        "block 1 (length 7) starts between r1c1 and r1c4, so wherever it goes it covers"
        in step.text
    )


def test_overlap_of_a_block_with_one_place_says_so() -> None:
    pos = _row("#####")
    seen = pos.view(0)
    assert seen is not None
    (step,) = rules.overlap_in(pos, 0, seen)
    assert "block 1 (length 5) can only start at r1c1, so it covers r1c1" in step.text
    assert "between" not in step.text


def test_unreachable() -> None:
    pos = _row("...##.....", shaded="....x")
    seen = pos.view(0)
    assert seen is not None
    (step,) = rules.unreachable_in(pos, 0, seen)
    assert _cells(step.empty) == [0, 1, 2, 6, 7, 8, 9]
    assert step.text.startswith("row 1: no block can reach r1c1, r1c2, r1c3")


def test_separators() -> None:
    pos = _row("##...###..", shaded="xx")
    seen = pos.view(0)
    assert seen is not None
    (step,) = rules.separators_in(pos, 0, seen)
    assert _cells(step.empty) == [2]
    assert "can only be a whole block of length 2" in step.text


def test_small_gap() -> None:
    pos = _row("###......", empty="...x.x")
    seen = pos.view(0)
    assert seen is not None
    (step,) = rules.small_gap_in(pos, 0, seen)
    assert _cells(step.empty) == [4]
    assert rules.unreachable_in(pos, 0, seen) == []


def test_contradiction_names_the_line() -> None:
    pos = _row("###......", empty=".x")
    run = solve(pos.puzzle, "line", Deadline.never(), shaded=0b1, empty=0b10)
    assert run.contradiction is not None
    assert "row 1: its clue 3 cannot fit" in run.contradiction.text


def test_steps_are_sound_and_rungs_complete_what_they_should() -> None:
    for puzzle in board_mix(120, seed=5, largest=7):
        outcome = count(puzzle, 2, Deadline.never())
        if outcome.verdict is not Verdict.UNIQUE:
            continue
        (solution,) = outcome.solutions
        for rung in LADDER.names:
            progress = solve(puzzle, rung, Deadline.never())
            assert progress.contradiction is None
            for step in progress.steps:
                assert step.shaded & ~solution == 0, step
                assert step.empty & solution == 0, step
                assert step.cells
        line = solve(puzzle, "line", Deadline.never())
        simple = solve(puzzle, "simple", Deadline.never())
        assert simple.decided_fraction <= line.decided_fraction


def test_probe_starts_what_line_logic_cannot() -> None:
    puzzle = parse_pattern(PATTERN_EXAMPLE)
    assert solve(puzzle, "line", Deadline.never()).decided_fraction == 0
    probed = solve(puzzle, "probe", Deadline.never())
    assert probed.decided_fraction == 1.0
    first = next(step for step in probed.steps if step.rule == "probe")
    assert first.text.startswith("if r")
    assert "unable to hold its clue" in first.text
    assert count_sat(puzzle).solutions == (probed.shaded,)


def test_max_steps_gives_one_hint() -> None:
    puzzle = make_puzzle([[3], [1]], [[2], [1], [1]])
    progress = solve(puzzle, "line", Deadline.never(), max_steps=1)
    assert len(progress.steps) == 1


def test_every_technique_fires_on_the_corpus(corpus_dir: Path) -> None:
    entries = json.loads((corpus_dir / "janko-nonogram.json").read_text(encoding="utf-8"))
    used: Counter[str] = Counter()
    for entry in entries["puzzles"][:400:8]:
        puzzle = make_puzzle(entry["rows"], entry["cols"])
        used.update(step.rule for step in solve(puzzle, "line", Deadline(30)).steps)
    for rule in ("overlap", "separators", "unreachable", "small-gap", "line"):
        assert used[rule] > 0, used


def test_a_probe_cites_the_chain_of_lines_its_contradiction_travels() -> None:
    from gridproof.genres.nonogram.engine import Board, Grid, Propagator

    puzzle = parse_pattern(PATTERN_EXAMPLE)
    board = Board(puzzle, deadline=Deadline.never())
    lines = Propagator(board, Deadline.never())
    h = board.height
    broken = 0
    for row in range(board.height):
        for col in range(board.width):
            for shaded in (True, False):
                trial = Grid.blank(board)
                trial.dirty = []  # line logic alone decides nothing here: a fixpoint
                trial.set_cell(board, row, col, shaded)
                fails = not lines.run(trial.copy())
                found = rules.chain(board, trial)
                assert (found is not None) == fails  # the same verdict as the propagator
                if found is None:
                    continue
                broken += 1
                path, needed = found
                assert path[0] in (row, h + col)  # it starts through the assumed cell
                for before, after in pairwise(path):
                    assert (before < h) != (after < h)  # a row hands on to a column
                # it rests on the breaking line first, and on every line of the path
                assert needed[0] == path[-1]
                assert set(path) <= set(needed)
                assert len(set(needed)) == len(needed)
    assert broken  # line logic alone cannot start this board, probes can
    first = next(
        step for step in solve(puzzle, "probe", Deadline.never()).steps if step.rule == "probe"
    )
    assert first.text.endswith(("shaded", "empty"))
    assert " along " in first.text or "whole-line deductions would" in first.text
