"""The design-note study runs, is reproducible, and finds the note's fallback unique."""

from __future__ import annotations

from gridproof.core.contract import Later
from gridproof.core.deadline import Deadline
from gridproof.core.registry import genre
from gridproof.core.report import format_markdown
from gridproof.genres.nonogram.study import border_table, run_study


def test_study_is_reproducible_and_complete() -> None:
    nonogram = genre("nonogram")
    assert isinstance(nonogram.study, Later)
    assert nonogram.study.resolve() is run_study
    first = format_markdown(run_study(3, 11, Deadline(60)))
    for heading in ("### 1.", "### 2.", "### 3."):
        assert heading in first
    # Times differ between runs; the generator table's counts must not.
    table = first.split("### 2.")[0]
    again = format_markdown(run_study(3, 11, Deadline(60))).split("### 2.")[0]
    assert table == again


def test_the_border_fallback_is_unique_at_every_size() -> None:
    table = border_table(Deadline(60))
    assert [row[1].text for row in table.rows] == ["unique"] * 6
