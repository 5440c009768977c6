"""The incremental `local` rung (`marks.Marks`) against the bulk one (`rules.close_marks`):
from a closed position, the same new marks close to the same marks or die together, and a
region's ways read off the cells are `solve.region_ways`."""

from __future__ import annotations

import random

from gridproof.core.grid import bits
from gridproof.genres.norinori.brute import count_by_regions
from gridproof.genres.norinori.marks import Marks, cell_states
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.position import board_of
from gridproof.genres.norinori.rules import close_local
from gridproof.genres.norinori.solve import region_ways
from tests.genres.norinori.boards import backward_board, random_partition


def _boards(count: int, seed: int) -> list[Norinori]:
    rng = random.Random(seed)
    makers = (random_partition, backward_board)
    return [makers[i % 2](rng.randint(4, 9), rng.randint(4, 9), rng) for i in range(count)]


def _closed_starts(puzzle: Norinori, rng: random.Random) -> list[tuple[int, int]]:
    """Closed positions: the empty board, and random parts of solutions, closed."""
    board = board_of(puzzle)
    full = board.geo.full
    starts = [close_local(board, 0, 0, full)]
    for solution in count_by_regions(puzzle, 6).solutions:
        keep = rng.getrandbits(puzzle.width * puzzle.height)
        starts.append(close_local(board, solution & keep, full & ~solution & keep >> 1, full))
    return [start for start in starts if start is not None]


def test_cell_states_read_the_masks() -> None:
    rng = random.Random(1)
    for size in (1, 7, 64, 700):
        shaded = rng.getrandbits(size)
        empty = rng.getrandbits(size) & ~shaded
        state = cell_states(size, shaded, empty)
        assert len(state) == size
        assert [c for c in range(size) if state[c] == 1] == list(bits(shaded))
        assert [c for c in range(size) if state[c] == 2] == list(bits(empty))


def test_extend_closes_as_close_local_does() -> None:
    """Random new marks on closed positions (single cells, whole region ways, several
    cells at once): the same fixpoint or the same contradiction, and a contradiction or
    `undo` leaves the cells as they were."""
    rng = random.Random(5)
    dead = alive = 0
    for puzzle in _boards(50, seed=8):
        board = board_of(puzzle)
        for shaded, empty in _closed_starts(puzzle, rng):
            marks = Marks(board, shaded, empty)
            before = bytes(marks.state)
            unknown = list(bits(board.geo.full & ~(shaded | empty)))
            trials: list[tuple[list[int], list[int]]] = []
            for _ in range(8):
                picked = rng.sample(unknown, min(len(unknown), rng.randint(1, 3)))
                cut = rng.randint(0, len(picked))
                trials.append((picked[:cut], picked[cut:]))
            for rid in range(len(board.region_mask)):
                trials += marks.ways(rid)[:3]
            for shade, clear in trials:
                new_s = sum(1 << c for c in shade)
                new_e = sum(1 << c for c in clear)
                expected = close_local(board, shaded | new_s, empty | new_e, new_s | new_e)
                log = marks.extend(shade, clear)
                if expected is None:
                    assert log is None, (puzzle, shade, clear)
                    dead += 1
                else:
                    assert log is not None, (puzzle, shade, clear)
                    got_s = shaded | sum(1 << c for c in log if marks.state[c] == 1)
                    got_e = empty | sum(1 << c for c in log if marks.state[c] == 2)
                    assert (got_s, got_e) == expected
                    marks.undo(log)
                    alive += 1
                assert bytes(marks.state) == before
    assert dead > 200, dead
    assert alive > 200, alive


def test_ways_are_region_ways() -> None:
    rng = random.Random(2)
    checked = 0
    for puzzle in _boards(40, seed=3):
        board = board_of(puzzle)
        for shaded, empty in _closed_starts(puzzle, rng):
            marks = Marks(board, shaded, empty)
            for rid in range(len(board.region_mask)):
                expected = [
                    (list(bits(s)), list(bits(c)))
                    for s, c in region_ways(board, shaded, empty, rid)
                ]
                assert marks.ways(rid) == expected
                checked += 1
    assert checked > 400, checked
