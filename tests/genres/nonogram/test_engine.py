"""The fast engine: `Grid` bookkeeping, `Propagator` against the ladder's own line rung,
`Prober` soundness, and work budgets that stop a count at the same place on every run."""

from __future__ import annotations

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.nonogram import GENRE
from gridproof.genres.nonogram.brute import count_by_rows
from gridproof.genres.nonogram.engine import Board, Grid, Prober, Propagator
from gridproof.genres.nonogram.formats import parse_pattern
from gridproof.genres.nonogram.model import Nonogram, clues_of, make_puzzle, validate
from gridproof.genres.nonogram.solve import LINE_RUNG, count, line_passes
from tests.genres.nonogram.boards import PATTERN_EXAMPLE, board_mix, random_picture

EVERYTHING = 10**6
BOARDS = board_mix(150, seed=404, largest=8)


def grid_of(board: Board, shaded: int, empty: int) -> Grid:
    """A grid with the board masks `shaded` and `empty` decided, every line dirty."""
    grid = Grid.blank(board)
    for cell in bits(shaded):
        grid.set_cell(board, *divmod(cell, board.width), True)
    for cell in bits(empty):
        grid.set_cell(board, *divmod(cell, board.width), False)
    grid.dirty = list(range(board.line_count))
    return grid


def random_marks(rng: Rng, puzzle: Nonogram, picture: int, rate: float) -> tuple[int, int]:
    """Cells marked at `rate`, each as in `picture`."""
    size = puzzle.width * puzzle.height
    shown = sum(1 << c for c in range(size) if rng.random() < rate)
    return picture & shown, shown & ~picture


def positions(seed: int) -> list[tuple[Nonogram, int, int]]:
    """Partial positions: each board of the mix marked as in a solution (if it has one) and
    as in a random picture (often inconsistent), and sparse pictures up to 12×12 with few
    marks (where complete line logic finds what the simple rules miss)."""
    rng = Rng(seed)
    found = []
    for puzzle in BOARDS:
        w, h = puzzle.width, puzzle.height
        solutions = count_by_rows(puzzle).solutions
        for picture in (*solutions[:1], random_picture(rng, w, h, 0.5)):
            found.append((puzzle, *random_marks(rng, puzzle, picture, 0.25)))
    for _ in range(150):
        w, h = rng.randint(5, 12), rng.randint(5, 12)
        picture = random_picture(rng, w, h, 0.3)
        puzzle = clues_of(w, h, picture)
        found.append((puzzle, *random_marks(rng, puzzle, picture, 0.1)))
    return found


def test_a_cell_is_set_in_its_row_and_its_column_and_both_are_queued() -> None:
    board = Board(clues_of(3, 3, 0b110_000_001))
    grid = Grid.blank(board)
    grid.dirty = []
    grid.set_cell(board, 2, 1, True)
    grid.set_cell(board, 0, 2, False)
    assert grid.filled == [0, 0, 0b010, 0, 0b100, 0]
    assert grid.empty == [0b100, 0, 0, 0, 0, 0b001]
    assert grid.dirty == [2, 3 + 1, 0, 3 + 2]
    assert grid.shaded_mask(board) == 1 << 7
    assert grid.empty_mask(board) == 1 << 2
    assert grid.decided(board) == 2
    twin = grid.copy()
    twin.set_cell(board, 1, 1, True)
    assert grid.decided(board) == 2
    assert twin.decided(board) == 3


def test_propagation_reaches_the_fixpoint_of_the_ladders_line_rung() -> None:
    compared = died = 0
    for puzzle, shaded, empty in positions(12):
        board = Board(puzzle)
        grid = grid_of(board, shaded, empty)
        alive = Propagator(board, Deadline.never()).run(grid)
        rung = GENRE.solve(puzzle, LINE_RUNG, Deadline.never(), shaded, empty)
        assert alive == (rung.contradiction is None), (puzzle, shaded, empty)
        if alive:
            assert (grid.shaded_mask(board), grid.empty_mask(board)) == (rung.shaded, rung.empty)
            compared += 1
        else:
            died += 1
    assert compared > 200
    assert died > 20


def test_a_failed_propagation_names_a_line_that_cannot_hold_its_clue() -> None:
    puzzle = make_puzzle([[1, 1], [], [1, 1]], [[1, 1], [], [2]])  # no solution
    board = Board(puzzle)
    lines = Propagator(board, Deadline.never())
    assert not lines.run(Grid.blank(board))
    assert 0 <= lines.failed < board.line_count
    assert lines.solves > 0


def test_the_cells_a_run_decided_are_reported_and_passes_reach_the_same_fixpoint() -> None:
    for puzzle in BOARDS[:60]:
        board = Board(puzzle)
        grid = Grid.blank(board)
        lines = Propagator(board, Deadline.never())
        if not lines.run(grid):
            assert line_passes(Propagator(board, Deadline.never()), Grid.blank(board)) is None
            continue
        assert lines.new_filled == grid.shaded_mask(board)
        assert lines.new_empty == grid.empty_mask(board)
        passes = Grid.blank(board)
        per_pass = line_passes(Propagator(board, Deadline.never()), passes)
        assert per_pass is not None
        assert sum(per_pass) == grid.decided(board) == passes.decided(board)
        assert passes.filled == grid.filled
        assert passes.empty == grid.empty


def test_probing_never_decides_against_a_solution() -> None:
    probed = 0
    for puzzle in BOARDS:
        solutions = count_by_rows(puzzle, EVERYTHING).solutions  # an independent counter
        board = Board(puzzle)
        grid = Grid.blank(board)
        propagator = Propagator(board, Deadline.never())
        after = Prober(propagator).run(grid) if propagator.run(grid) else None
        if after is None:
            assert solutions == ()
            continue
        shaded, empty = after.shaded_mask(board), after.empty_mask(board)
        if after.decided(board) == puzzle.width * puzzle.height:
            assert validate(puzzle, shaded) == []
        for solution in solutions:
            assert shaded & ~solution == 0
            assert empty & solution == 0
        probed += bool(solutions)
    assert probed > 50


def test_probing_finishes_what_line_logic_cannot_start() -> None:
    puzzle = parse_pattern(PATTERN_EXAMPLE)
    board = Board(puzzle)
    grid = Grid.blank(board)
    propagator = Propagator(board, Deadline.never())
    assert propagator.run(grid)
    assert grid.decided(board) == 0
    prober = Prober(propagator)
    after = prober.run(grid)
    assert after is not None
    assert after.decided(board) == 16
    assert prober.refuted + prober.learned > 0
    assert count_by_rows(puzzle).solutions == (after.shaded_mask(board),)


def test_the_branching_choice_holds_both_values_of_an_undecided_cell() -> None:
    puzzle = make_puzzle([[1], [1], [1]], [[1], [1], [1]])  # six solutions
    board = Board(puzzle)
    grid = Grid.blank(board)
    propagator = Propagator(board, Deadline.never())
    assert propagator.run(grid)
    prober = Prober(propagator)
    after = prober.run(grid)
    assert after is not None
    assert after.decided(board) == 0
    choice = prober.best
    assert choice is not None
    assert choice.shaded is not None
    assert choice.empty is not None
    cell = 1 << (choice.row * board.width + choice.col)
    assert choice.shaded.shaded_mask(board) & cell
    assert choice.empty.empty_mask(board) & cell


def _needs_probing() -> Nonogram:
    return parse_pattern(PATTERN_EXAMPLE)


def test_a_work_budget_stops_the_count_at_the_same_place_every_time() -> None:
    puzzle = _needs_probing()
    free = count(puzzle, 2, Deadline.never())
    assert free.verdict is Verdict.UNIQUE
    assert free.propagations > 1
    for work in (1, 2, free.propagations // 2):
        runs = []
        for _ in range(2):
            budget = Deadline.never().within(work=work)
            out = count(puzzle, 2, budget)
            assert out.verdict is Verdict.TIMEOUT
            assert budget.out_of_work()
            assert budget.used >= work
            runs.append((out.nodes, out.propagations, budget.used))
        assert runs[0] == runs[1]


def test_a_budget_above_the_work_a_count_needs_changes_nothing() -> None:
    puzzle = _needs_probing()
    free = count(puzzle, 2, Deadline.never())
    parent = Deadline.never()
    budget = parent.within(work=free.propagations + 1)
    out = count(puzzle, 2, budget)
    assert (out.verdict, out.solutions, out.nodes) == (free.verdict, free.solutions, free.nodes)
    assert not budget.out_of_work()
    # the count charges exactly its line solves, to the budget and to its parent
    assert budget.used == parent.used == out.propagations == free.propagations


@pytest.mark.parametrize("seed", range(3))
def test_budgeted_counts_of_generator_sized_boards_are_reproducible(seed: int) -> None:
    rng = Rng(seed)
    puzzle = clues_of(12, 12, random_picture(rng, 12, 12, 0.5))
    found = set()
    for _ in range(2):
        budget = Deadline(60).within(work=300)
        out = count(puzzle, 2, budget)
        found.add((out.verdict, out.solutions, out.nodes, out.propagations, budget.out_of_work()))
    assert len(found) == 1
