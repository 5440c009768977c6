"""What the pairs rule does on boards too big to compare region by region: it skips, says
so in words, and stays sound (what it decides is still true)."""

from __future__ import annotations

from gridproof.core.deadline import Deadline
from gridproof.genres.norinori import GENRE
from gridproof.genres.norinori.model import make_puzzle
from gridproof.genres.norinori.rules import ARC_LIMIT, LIFT_TOTAL


def test_regions_past_the_lift_budget_are_left_to_the_local_rules_and_noted() -> None:
    stripes = make_puzzle([[r] * 100 for r in range(100)])  # 100 regions of 4,950 pairs
    progress = GENRE.solve(stripes, "pairs", Deadline(60))
    assert not progress.timed_out
    assert any("region" in note and "4,950 pairs" in note for note in progress.notes)
    assert LIFT_TOTAL < 100 * 4950  # the premise: not every region could be listed


def test_arcs_too_costly_to_compare_are_skipped_and_noted() -> None:
    two = make_puzzle([[0] * 80, [1] * 80])  # two regions of 3,160 pairs side by side
    progress = GENRE.solve(two, "pairs", Deadline(60))
    assert ARC_LIMIT < 3160 * 3160
    assert any("more than 250,000 ways" in note for note in progress.notes)
    assert progress.contradiction is None


def test_small_boards_say_nothing() -> None:
    small = make_puzzle(
        [[0, 0, 1, 2, 2], [1, 1, 1, 2, 2], [1, 3, 3, 2, 2], [3] * 5, [4, 4, 3, 3, 3]]
    )
    progress = GENRE.solve(small, "probe", Deadline(60))
    assert progress.complete
    assert progress.notes == ()
