"""The study's tables and the counting sequences behind them."""

from __future__ import annotations

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.report import format_markdown
from gridproof.genres.nondango import GENRE
from gridproof.genres.nondango import sequences as seq
from gridproof.genres.nondango.study import run_study

A000073 = {4: 13, 6: 44, 8: 149, 10: 504, 12: 1705}  # the note's table
A000124 = {4: 11, 6: 22, 8: 37, 10: 56, 12: 79}
A181218 = [2, 16, 230, 10732, 1495392]


def test_line_counts_match_the_note_and_brute_force() -> None:
    for length, count in A000073.items():
        assert seq.strings_without_run(length) == count
        assert seq.lazy_caterer(length) == A000124[length]
    for length in range(13):
        assert seq.strings_without_run(length) == seq.line_count_brute(
            length, lambda s: "111" not in s
        )
        assert seq.lazy_caterer(length) == seq.line_count_brute(length, lambda s: s.count("1") <= 2)
        assert seq.strings_without_same_run(length) == seq.line_count_brute(
            length, lambda s: "111" not in s and "000" not in s
        )
        assert seq.at_most_two_of_each(length) == seq.line_count_brute(
            length, lambda s: s.count("1") <= 2 and s.count("0") <= 2
        )


def test_the_transfer_matrix_matches_brute_force_and_oeis() -> None:
    for n in range(1, 5):
        assert seq.grid_count(n) == seq.grid_count_brute(n) == A181218[n - 1]
    assert seq.grid_count(5) == A181218[4]
    nine = seq.grid_count(9)
    assert nine is not None
    assert nine > 2**53
    assert seq.grid_count(9, Deadline(0)) is None
    with pytest.raises(ValueError, match="positive"):
        seq.grid_count(0)


# OEIS A181224, T(n, k) read by antidiagonals (n×k grids), and A181219 (its k = 3 column).
A181224 = [2, 4, 4, 7, 16, 7, 13, 49, 49, 13, 24, 169, 230, 169, 24, 44, 576, 1209, 1209]
A181219 = [7, 49, 230, 1209, 6475, 34020, 179097, 944514, 4978956, 26241679, 138316703]


def test_the_transfer_matrix_matches_oeis_rectangles() -> None:
    antidiagonals = [(d - k + 1, k) for d in range(1, 7) for k in range(1, d + 1)]
    for (height, width), value in zip(antidiagonals, A181224, strict=False):
        assert seq.grid_count(width, height=height) == value, (width, height)
    for height, value in enumerate(A181219, start=1):
        assert seq.grid_count(3, height=height) == value
        assert seq.grid_count(height, height=3) == value  # the transpose


def test_grid_terms_stop_within_the_budget() -> None:
    terms = seq.grid_terms(0.3)
    assert [n for n, _, _ in terms] == list(range(1, len(terms) + 1))
    assert [value for _, value, _ in terms[:5]] == A181218[: len(terms[:5])]
    assert len(terms) >= 5


def _tables(markdown: str) -> list[list[str]]:
    """The markdown tables of `markdown`, as lists of lines."""
    tables: list[list[str]] = []
    current: list[str] = []
    for line in [*markdown.splitlines(), ""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables


def test_run_study_returns_every_table() -> None:
    text = format_markdown(run_study(2, 1, 5.0, sequence_s=0.3, sizes=((6, 6),)))
    for heading in (
        "## Dead lines of three",
        "## The screen and the split, checked",
        "## The certificate lemma",
        "## The budget",
        "## Independent groups",
        "## The dial",
        "## The two misreadings",
        "## The ladder",
        "## One line of L circles",
        "## A181218",
    ):
        assert heading in text
    tables = _tables(text)
    assert len(tables) == 11
    for table in tables:
        widths = {line.count("|") for line in table}
        assert len(widths) == 1, table
    assert "DIFFERENT" not in text
    assert "| NO |" not in text
    assert "| 5 | 1,495,392 | 7 |" in text


def test_the_study_is_a_registered_capability() -> None:
    assert GENRE.study is not None
    ticks: list[tuple[int, int]] = []
    report = GENRE.study(1, 2, Deadline(0), lambda *tick: ticks.append(tick))  # out of time
    assert "generation failures: 4" in format_markdown(report)  # failures, not a crash
    assert ticks[-1] == (14, 14)  # 4 boards and 10 parts of the study, told as they went
    assert [done for done, _ in ticks] == list(range(1, 15))
