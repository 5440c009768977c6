"""The complete counter (verdicts, limits, deadlines, independent parts) and the grader,
whose grades come from `LADDER`."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.core.search import count_solutions
from gridproof.genres.nonogram import GENRE
from gridproof.genres.nonogram.brute import count_by_rows
from gridproof.genres.nonogram.codec import parse_code
from gridproof.genres.nonogram.engine import Board, Grid
from gridproof.genres.nonogram.formats import parse_pattern
from gridproof.genres.nonogram.model import Nonogram, clues_of, make_puzzle, validate
from gridproof.genres.nonogram.rules import LADDER
from gridproof.genres.nonogram.solve import (
    SEARCH,
    NonogramSpace,
    count,
    domain_width,
    grade,
    independent_parts,
)
from tests.genres.nonogram.boards import PATTERN_EXAMPLE, SWITCH, board_mix, random_picture

EVERYTHING = 10**6
PERMUTATIONS = make_puzzle([[1]] * 3, [[1]] * 3)
"""One shaded cell in every row and column of a 3×3: the six permutation matrices."""
NO_SOLUTION = make_puzzle([[1, 1], [], [1, 1]], [[1, 1], [], [2]])
LINE_LOGIC = parse_code("nonogram.1.9x8.ey3kuRK8i26bsisismiVSdNI")
"""A picture drawn from `Rng(4)` that complete line logic finishes and the simple rules
alone do not (one in 1,500 random pictures of up to 9×9)."""


@pytest.mark.parametrize(
    ("puzzle", "verdict", "solutions"),
    [
        (parse_pattern(PATTERN_EXAMPLE), Verdict.UNIQUE, 1),
        (LINE_LOGIC, Verdict.UNIQUE, 1),
        (SWITCH, Verdict.MULTIPLE, 2),
        (PERMUTATIONS, Verdict.MULTIPLE, 6),
        (NO_SOLUTION, Verdict.NONE, 0),
    ],
)
def test_verdicts_and_every_solution_passes_the_validator(
    puzzle: Nonogram, verdict: Verdict, solutions: int
) -> None:
    out = count(puzzle, EVERYTHING, Deadline.never())
    assert out.verdict is verdict
    assert len(out.solutions) == len(set(out.solutions)) == solutions
    for shaded in out.solutions:
        assert validate(puzzle, shaded) == []
    assert set(out.solutions) == set(count_by_rows(puzzle, EVERYTHING).solutions)
    assert out.nodes >= 1


def test_a_picture_is_always_a_solution_of_its_own_clues() -> None:
    rng = Rng(3)
    for _ in range(40):
        w, h = rng.randint(2, 6), rng.randint(2, 6)
        picture = random_picture(rng, w, h, 0.55)
        out = count(clues_of(w, h, picture), EVERYTHING, Deadline.never())
        assert picture in out.solutions
        assert out.verdict in (Verdict.UNIQUE, Verdict.MULTIPLE)


def test_the_limit_stops_the_count() -> None:
    three = count(PERMUTATIONS, 3, Deadline.never())
    assert three.verdict is Verdict.MULTIPLE
    assert len(three.solutions) == three.limit == 3
    two = count(PERMUTATIONS, 2, Deadline.never())
    assert len(two.solutions) == 2
    assert two.nodes <= three.nodes
    with pytest.raises(ValueError, match="at least 2"):
        count(PERMUTATIONS, 1, Deadline.never())


def _blocks() -> tuple[Nonogram, int]:
    """A 4×4 with one shaded cell per row and column, and the marks that leave only the
    top-left and bottom-right 2×2 squares open: two switches no line links."""
    puzzle = make_puzzle([[1]] * 4, [[1]] * 4)
    off_blocks = 0
    for cell in range(16):
        r, c = divmod(cell, 4)
        if (r < 2) != (c < 2):
            off_blocks |= 1 << cell
    return puzzle, off_blocks


def test_independent_parts_are_counted_apart_and_multiplied() -> None:
    puzzle, empty = _blocks()
    board = Board(puzzle)
    root = Grid.blank(board)
    for cell in range(16):
        if empty >> cell & 1:
            root.set_cell(board, *divmod(cell, 4), False)
    space = NonogramSpace(board, Deadline.never())
    seen: list[int] = []
    plain_split = space.split

    def split(grid: Grid) -> Sequence[Grid]:
        parts = plain_split(grid)
        seen.append(len(parts))
        return parts

    space.split = split  # type: ignore[method-assign]
    out = count_solutions(space, root, EVERYTHING, Deadline.never())
    assert seen[0] == 2
    assert out.verdict is Verdict.MULTIPLE
    assert len(set(out.solutions)) == 4  # 2 ways × 2 ways
    for shaded in out.solutions:
        assert validate(puzzle, shaded) == []
        assert shaded & empty == 0


def test_parts_share_no_open_row_or_column() -> None:
    rng = Rng(8)
    split_seen = 0
    for puzzle in board_mix(120, seed=17, largest=8):
        solutions = count(puzzle, 2, Deadline.never()).solutions
        if not solutions:
            continue
        board = Board(puzzle)
        grid = Grid.blank(board)
        for cell in range(puzzle.width * puzzle.height):
            if rng.random() < 0.7:
                grid.set_cell(board, *divmod(cell, puzzle.width), bool(solutions[0] >> cell & 1))
        h, w = board.height, board.width
        open_rows = {r for r in range(h) if ((1 << w) - 1) & ~(grid.filled[r] | grid.empty[r])}
        parts = independent_parts(board, grid)
        rows = [{r for r in range(h) if part >> r & 1} for part in parts]
        assert set().union(*rows) == open_rows
        assert sum(map(len, rows)) == len(open_rows)  # disjoint
        cols = [
            {c for r in part for c in range(w) if not (grid.filled[r] | grid.empty[r]) >> c & 1}
            for part in rows
        ]
        for i, mine in enumerate(cols):
            for theirs in cols[i + 1 :]:
                assert not mine & theirs
        split_seen += len(parts) > 1
    assert split_seen > 20


def test_a_deadline_gives_timeout_never_a_guess() -> None:
    unique = parse_pattern(PATTERN_EXAMPLE)
    assert count(unique, 2, Deadline(0)).verdict is Verdict.TIMEOUT
    cancelled = Deadline.never()
    cancelled.cancel()
    assert count(unique, 2, cancelled).verdict is Verdict.TIMEOUT
    parent = Deadline.never()
    child = parent.within(60)
    parent.cancel()
    out = count(PERMUTATIONS, EVERYTHING, child)
    assert out.verdict is Verdict.TIMEOUT
    assert out.solutions == ()


@pytest.mark.parametrize(
    ("puzzle", "technique", "grade_"),
    [
        (clues_of(5, 1, 0b01110), "simple", "easy"),
        (LINE_LOGIC, "line", "medium"),
        (parse_pattern(PATTERN_EXAMPLE), "probe", "hard"),
        (PERMUTATIONS, SEARCH, "expert"),
    ],
)
def test_grades_come_from_the_ladder(puzzle: Nonogram, technique: str, grade_: str) -> None:
    graded = grade(puzzle, Deadline.never())
    assert graded.metrics["technique"] == technique
    assert graded.difficulty == grade_
    rung = None if technique == SEARCH else technique
    assert graded.difficulty == LADDER.grade(rung)


@pytest.mark.slow
def test_the_grade_names_the_cheapest_rung_that_finishes_the_board() -> None:
    rng = Rng(21)
    used = set()
    boards = [LINE_LOGIC, parse_pattern(PATTERN_EXAMPLE)]
    for _ in range(150):
        w, h = rng.randint(4, 8), rng.randint(4, 8)
        boards.append(clues_of(w, h, random_picture(rng, w, h, rng.choice([0.4, 0.6]))))
    for puzzle in boards:
        graded = grade(puzzle, Deadline.never())
        technique = graded.metrics["technique"]
        if graded.outcome.verdict is not Verdict.UNIQUE:
            assert technique == SEARCH
            continue
        used.add(technique)
        finished = [GENRE.solve(puzzle, r, Deadline.never()).complete for r in LADDER.names]
        at = LADDER.names.index(technique)
        assert finished[at], (technique, finished)
        assert not any(finished[:at]), (technique, finished)
    assert used == set(LADDER.names)


def test_domain_width_is_the_mean_number_of_starts_per_block() -> None:
    # row: a 2 in five cells starts in 4 places; two columns of height 1 hold a 1 each
    assert domain_width(clues_of(5, 1, 0b00110)) == (4 + 1 + 1) / 3
    assert domain_width(clues_of(3, 3, 0)) == 0.0
