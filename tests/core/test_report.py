"""A study's report as data: one source for markdown, CSV and JSON."""

from __future__ import annotations

import csv
import io

import pytest

from gridproof.core.report import Cell, Chart, Report, format_csv, format_markdown, num, of, pct
from gridproof.core.report import table as make_table


def _report() -> Report:
    first = make_table(
        "shares",
        "1. Shares",
        ["size", "boards", "unique", "note"],
        [["5×5", 3, pct(2, 3), "note, with a comma"], ["6×6", 0, pct(0, 0), "-"]],
        before="Some prose.",
        chart=Chart(("unique",), "% of boards"),
    )
    second = make_table(
        "plain", "no heading", ["n", "value"], [[1, num(1234, "1,234")]], heading=False
    )
    return Report("toy", "Toy study", (first, second), intro="Intro.", outro="### End\nbye")


def test_markdown_is_the_tables_under_their_headings_with_the_prose() -> None:
    assert format_markdown(_report()) == "\n".join(
        [
            "## Toy study",
            "",
            "Intro.",
            "",
            "### 1. Shares",
            "",
            "Some prose.",
            "",
            "| size | boards | unique | note |",
            "|---|---|---|---|",
            "| 5×5 | 3 | 67% | note, with a comma |",
            "| 6×6 | 0 | n/a | - |",
            "",
            "| n | value |",
            "|---|---|",
            "| 1 | 1,234 |",
            "",
            "### End",
            "bye",
        ]
    )


def test_json_gives_numbers_where_cells_are_numbers() -> None:
    shares, plain = _report().to_json()["tables"]
    assert shares["rows"] == [["5×5", 3, 66.67, "note, with a comma"], ["6×6", 0, "n/a", "-"]]
    assert plain["rows"] == [[1, 1234]]


def test_csv_is_every_cell_one_a_line() -> None:
    rows = list(csv.reader(io.StringIO(format_csv(_report()))))
    assert rows[0] == ["table", "row", "column", "value", "text"]
    assert rows[1:5] == [
        ["shares", "1", "size", "", "5×5"],
        ["shares", "1", "boards", "3", "3"],
        ["shares", "1", "unique", "66.67", "67%"],
        ["shares", "1", "note", "", "note, with a comma"],
    ]
    assert len(rows) == 1 + 8 + 2


def test_cells() -> None:
    assert of(2, 5) == Cell("2 of 5", 2)
    assert pct(1, 8, 1) == Cell("12.5%", 12.5)
    assert pct(1, 0, empty="-") == Cell("-")


def test_a_table_refuses_ragged_rows_and_charts_of_missing_columns() -> None:
    with pytest.raises(ValueError, match="row 1: 1 cells, 2 headers"):
        make_table("t", "T", ["a", "b"], [[1]])
    with pytest.raises(ValueError, match="no column 'c'"):
        make_table("t", "T", ["a", "b"], [[1, 2]], chart=Chart(("c",)))
