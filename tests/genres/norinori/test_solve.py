"""The Norinori engine against the real corpus: outcomes, solutions, rungs and deadlines."""

from __future__ import annotations

import json
import math
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.core.search import count_solutions
from gridproof.genres.norinori import GENRE, solve
from gridproof.genres.norinori.build import grow_regions, induced_matching, seed_regions
from gridproof.genres.norinori.marks import Marks
from gridproof.genres.norinori.model import Norinori, make_puzzle, validate
from gridproof.genres.norinori.position import board_of
from gridproof.genres.norinori.rules import close_local
from tests.genres.norinori.boards import backward_board, random_partition

RUNGS = GENRE.rungs


def _corpus(corpus_dir: Path) -> list[dict[str, Any]]:
    puzzles: list[dict[str, Any]] = json.loads((corpus_dir / "janko-norinori.json").read_text())[
        "puzzles"
    ]
    return puzzles


def _mask(rows: list[list[int]]) -> int:
    width = len(rows[0])
    return sum(1 << (r * width + c) for r, row in enumerate(rows) for c, v in enumerate(row) if v)


def test_every_corpus_puzzle_gets_its_expected_outcome(corpus_dir: Path) -> None:
    puzzles = _corpus(corpus_dir)
    assert len(puzzles) == 192
    for entry in puzzles:
        puzzle = make_puzzle(entry["regions"])
        outcome = solve.count(puzzle, 2, Deadline(60))
        assert outcome.verdict.value == entry["expected"], entry["id"]
        for found in outcome.solutions:
            assert validate(puzzle, found) == [], entry["id"]
        if entry["expected"] == "unique":
            assert outcome.solutions == (_mask(entry["solution"]),), entry["id"]


def test_the_largest_board_is_proven(corpus_dir: Path) -> None:
    entry = next(p for p in _corpus(corpus_dir) if p["width"] * p["height"] >= 36 * 54)
    outcome = solve.count(make_puzzle(entry["regions"]), 2, Deadline(60))
    assert outcome.verdict is Verdict.UNIQUE


def test_every_step_of_every_rung_agrees_with_the_solution(corpus_dir: Path) -> None:
    """Soundness: on unique puzzles, no rung may ever decide a cell against the answer."""
    done = dict.fromkeys(RUNGS, 0)
    for entry in _corpus(corpus_dir)[:60]:
        if entry["expected"] != "unique":
            continue
        puzzle = make_puzzle(entry["regions"])
        answer = _mask(entry["solution"])
        before = 0
        for rung in RUNGS:
            progress = GENRE.solve(puzzle, rung, Deadline(60))
            assert progress.contradiction is None, (entry["id"], rung)
            assert progress.shaded & ~answer == 0, (entry["id"], rung)
            assert progress.empty & answer == 0, (entry["id"], rung)
            decided = progress.shaded | progress.empty
            assert decided & before == before, "a stronger rung decides at least as much"
            before = decided
            done[rung] += progress.decided_fraction == 1.0
            for step in progress.steps:
                assert step.text
                assert step.rule
                assert step.shaded | step.empty, step
    local, lifted, probed = (done[rung] for rung in RUNGS)
    assert local < lifted <= probed


def test_steps_name_their_rules_in_words() -> None:
    puzzle = make_puzzle(["aab", "acb", "ccb"])
    progress = GENRE.solve(puzzle, GENRE.ladder.top, Deadline(5))
    assert all(" " in step.text for step in progress.steps)


def test_unknown_rung_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="local, pairs, probe"):
        GENRE.solve(make_puzzle(["ab", "ab"]), "magic", Deadline(1))


def _open_board(size: int, seed: int) -> Norinori:
    """A big board with a shading but nothing walked: typically very many solutions."""
    geo = Geometry(size, size)
    rng = Rng(seed)
    dominoes = induced_matching(geo, rng, rounds=0)
    labels = grow_regions(geo, seed_regions(geo, dominoes, rng, 0.0), rng)
    return make_puzzle([labels[r * size : (r + 1) * size] for r in range(size)])


def test_timeout_is_never_read_as_unique() -> None:
    outcome = solve.count(_open_board(20, 1), 10**9, Deadline(0.2))
    assert outcome.verdict in (Verdict.TIMEOUT, Verdict.MULTIPLE)  # so never UNIQUE


def test_a_cancelled_count_returns_promptly() -> None:
    deadline = Deadline.never()
    puzzle = _open_board(24, 2)
    result: dict[str, Any] = {}

    def work() -> None:
        result["outcome"] = solve.count(puzzle, 10**9, deadline)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.3)
    cancelled_at = time.monotonic()
    deadline.cancel()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert time.monotonic() - cancelled_at < 2.0
    assert result["outcome"].verdict is Verdict.TIMEOUT


def _two_huge_regions(side: int, combs: bool) -> Norinori:
    """Two regions of side²/2 cells: two halves, or two interleaved combs (every cell on
    a border), far bigger than any real puzzle's regions."""
    if not combs:
        return make_puzzle([["a" if r < side // 2 else "b"] * side for r in range(side)])
    teeth = [["a" if r == 0 or c % 2 == 0 else "b" for c in range(side)] for r in range(side - 1)]
    return make_puzzle([*teeth, ["b"] * side])


@pytest.mark.parametrize("combs", [False, True])
def test_huge_regions_keep_every_call_within_its_deadline(combs: bool) -> None:
    """A pasted board may hold regions of thousands of cells; the counter and every rung
    must still answer (or time out) about when they were told to."""
    puzzle = _two_huge_regions(60, combs)
    started = time.monotonic()
    outcome = solve.count(puzzle, 2, Deadline(2))
    assert outcome.verdict in (Verdict.MULTIPLE, Verdict.TIMEOUT)
    for rung in RUNGS:
        progress = GENRE.solve(puzzle, rung, Deadline(2))
        assert progress.contradiction is None
    assert time.monotonic() - started < 2 * (1 + len(RUNGS)) + 5


def test_a_probe_weighs_its_region_by_what_its_ways_decide_and_search_branches_there() -> None:
    """`NorinoriSpace.reach`: a probe records the geometric mean, over its region's live
    ways, of the cells each way's close decides; on masks and incrementally alike (where
    both try every way; a probe that stops once two ways share nothing weighs the ways it
    tried). Search then branches on the region whose reach, for its ways and dead ends,
    is greatest."""
    rng = random.Random(11)
    every_way = some_ways = searched = 0
    for index in range(120):
        maker = (random_partition, backward_board)[index % 2]
        puzzle = maker(rng.randint(5, 9), rng.randint(5, 9), rng)
        board = board_of(puzzle)
        full = board.geo.full
        start = close_local(board, 0, 0, full)
        if start is None:
            continue
        shaded, empty = start
        known = (shaded | empty).bit_count()
        on_masks = solve.NorinoriSpace(board, Deadline.never())
        on_marks = solve.NorinoriSpace(board, Deadline.never())
        for rid, area in enumerate(board.region_mask):
            if not area & ~(shaded | empty):
                continue
            decided, shared_shaded, shared_empty = [], -1, -1
            for shade, clear in solve.region_ways(board, shaded, empty, rid):
                closed = close_local(board, shaded | shade, empty | clear, 0)
                if closed is not None:
                    decided.append((closed[0] | closed[1]).bit_count() - known)
                    shared_shaded &= closed[0] & ~shaded
                    shared_empty &= closed[1] & ~empty
            on_masks.probe_masks(shaded, empty, rid)
            on_marks.probe(Marks(board, shaded, empty), rid)
            if not decided:
                continue
            weighed = (on_masks.reach[rid], on_marks.reach[rid])
            if len(decided) == 1 or shared_shaded | shared_empty:  # both tried every way
                mean = math.prod(decided) ** (1 / len(decided))
                assert weighed == pytest.approx((mean, mean)), (puzzle, rid)
                every_way += 1
            else:
                low, high = min(decided) * (1 - 1e-9), max(decided) * (1 + 1e-9)
                assert all(low <= w <= high for w in weighed), (puzzle, rid)
                some_ways += 1
        node = on_masks.propagate((0, 0, full, full))
        if node is None or not (unknown := full & ~(node[0] | node[1])):
            continue
        children = on_masks.branches(node)
        assert children is not None
        branched = {board.region_of[(child[3] & -child[3]).bit_length() - 1] for child in children}
        best = max(
            on_masks.reach.get(r, 0)
            * (1 + on_masks.weight.get(r, 0))
            / solve.likely_ways(board, node[0], node[1], r)
            for r in board.regions_touching(unknown)
        )
        (rid,) = branched
        searched += 1
        ways = solve.likely_ways(board, node[0], node[1], rid)
        score = on_masks.reach.get(rid, 0) * (1 + on_masks.weight.get(rid, 0)) / ways
        assert score == pytest.approx(best)
    assert every_way > 50, every_way
    assert some_ways > 200, some_ways
    assert searched > 30, searched


def test_a_way_closes_to_what_a_fresh_close_finds_whichever_way_it_was_found() -> None:
    """`NorinoriSpace.way_closed`: whether a way's close is a fresh one, the way's last
    close taken again, a death remembered, a clash with the way's last close, or a close
    resumed from the last one, it is what `close_local` finds from the marks with the way
    added, at every probe of whole counts (searches included)."""
    found: dict[str, int] = {}

    class Checked(solve.NorinoriSpace):
        def way_closed(
            self, shaded: int, empty: int, shade: int, clear: int, pair: int
        ) -> tuple[int, int] | None:
            kept, before = self.closes.get(pair), self.propagations
            closed = super().way_closed(shaded, empty, shade, clear, pair)
            assert closed == close_local(self.board, shaded | shade, empty | clear, 0)
            if kept is None or kept[0] & ~shaded or kept[1] & ~empty:
                path = "fresh"
            elif kept[2] is None:
                path = "dead"
            elif self.propagations > before:
                path = "resumed"
            else:
                path = "clash" if closed is None else "again"
            found[path] = found.get(path, 0) + 1
            return closed

    rng = random.Random(5)
    for index in range(40):
        maker = (random_partition, backward_board)[index % 2]
        puzzle = maker(rng.randint(8, 16), rng.randint(8, 16), rng)
        board = board_of(puzzle)
        full = board.geo.full
        space = Checked(board, Deadline.never())
        outcome = count_solutions(space, (0, 0, full, full), 2, Deadline.never())
        assert outcome.solutions == solve.count(puzzle).solutions
    paths = ("fresh", "dead", "resumed", "clash", "again")
    assert min(found.get(path, 0) for path in paths) > 100, found


def test_letting_the_ways_closes_go_changes_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve.WAY_MEMO`: a count that lets go of the ways' last closes every few ways
    finds the same solutions as one that keeps them, in as many nodes (only its closes
    differ)."""
    rng = random.Random(8)
    compared = 0
    for index in range(30):
        maker = (random_partition, backward_board)[index % 2]
        puzzle = maker(rng.randint(8, 14), rng.randint(8, 14), rng)
        kept = solve.count(puzzle)
        monkeypatch.setattr(solve, "WAY_MEMO", 3)
        forgot = solve.count(puzzle)
        monkeypatch.undo()
        assert (forgot.verdict, forgot.solutions, forgot.nodes) == (
            kept.verdict,
            kept.solutions,
            kept.nodes,
        )
        compared += forgot.propagations > kept.propagations
    assert compared > 10, compared
