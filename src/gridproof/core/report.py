"""A study's results as data (`gridproof study`): tables of cells under headers, the prose
around them, and how each is best drawn. One `Report` is written as markdown, CSV or JSON
here and drawn as charts by `gridproof.output.charts`, so every form shows the same numbers.

Glossary: a `Cell` is what one table cell shows (`text`) and the number it stands for
(`value`, None for a label or a placeholder such as `n/a`); a `Chart` names the columns
drawn as bars; a `Tick(done, total)` is told how far a long study has got.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Number = int | float
Tick = Callable[[int, int], None]
"""Told `(done, total)` as a study goes: the command line draws it as a progress bar."""


def no_tick(done: int, total: int) -> None:
    """A `Tick` that shows nothing."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One table cell: the text markdown shows and, for a number, its value."""

    text: str
    value: Number | None = None

    def to_json(self) -> Number | str:
        """The value where the cell is a number, else its text."""
        return self.text if self.value is None else self.value


def num(value: Number, text: str | None = None) -> Cell:
    """A number shown as `text` (default: as Python prints it)."""
    return Cell(str(value) if text is None else text, value)


def pct(part: Number, whole: Number, digits: int = 0, empty: str = "n/a") -> Cell:
    """`part` of `whole` as a percentage (`62%`); `empty` when `whole` is 0."""
    if not whole:
        return Cell(empty)
    share = 100 * part / whole
    return Cell(f"{share:.{digits}f}%", round(share, digits + 2))


def of(part: int, whole: int) -> Cell:
    """`part of whole`, whose value is `part`."""
    return Cell(f"{part} of {whole}", part)


CellLike = Cell | str | int | float


def as_cell(item: object) -> Cell:
    """`item` as a cell: a `Cell` as it is, a number as `num` shows it, else its text."""
    if isinstance(item, Cell):
        return item
    if isinstance(item, bool) or not isinstance(item, int | float):
        return Cell(str(item))
    return num(item)


@dataclass(frozen=True, slots=True)
class Chart:
    """How a table is drawn: one bar per row for each column of `series` (values in
    `unit`, on a log scale if `log`), rows labelled by the texts of `labels` (default:
    the leading columns that are not all numbers)."""

    series: tuple[str, ...]
    unit: str = ""
    log: bool = False
    labels: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """One table: `key` names it in files (`partitions`), `title` heads it (no heading
    when `heading` is false), `before`/`after` are the prose around it."""

    key: str
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    before: str = ""
    after: str = ""
    chart: Chart | None = None
    heading: bool = True

    def column(self, header: str) -> int:
        return self.headers.index(header)

    def label_columns(self) -> tuple[int, ...]:
        """The columns whose texts label a row in a chart: the chart's `labels`, else the
        leading columns that are not all numbers."""
        if self.chart is not None and self.chart.labels is not None:
            return tuple(self.column(h) for h in self.chart.labels)
        leading = []
        for i in range(len(self.headers)):
            if all(row[i].value is not None for row in self.rows):
                break
            leading.append(i)
        return tuple(leading)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "headers": list(self.headers),
            "rows": [[cell.to_json() for cell in row] for row in self.rows],
            "before": self.before,
            "after": self.after,
        }


def table(
    key: str,
    title: str,
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    **extra: Any,
) -> Table:
    """A `Table` whose cells may be given as plain strings and numbers."""
    cells = tuple(tuple(as_cell(item) for item in row) for row in rows)
    for number, row in enumerate(cells, 1):
        if len(row) != len(headers):
            raise ValueError(
                f"table {key!r} row {number}: {len(row)} cells, {len(headers)} headers"
            )
    chart: Chart | None = extra.get("chart")
    named = (*chart.series, *(chart.labels or ())) if chart is not None else ()
    for header in named:
        if header not in headers:
            raise ValueError(f"table {key!r}: its chart names no column {header!r}")
    return Table(key, title, tuple(headers), cells, **extra)


@dataclass(frozen=True, slots=True)
class Report:
    """A study: a title at markdown heading `level` (tables one level below), the prose
    under it, its tables in order, and closing prose in markdown (`outro`)."""

    genre: str
    title: str
    tables: tuple[Table, ...]
    intro: str = ""
    outro: str = ""
    level: int = 2

    def to_json(self) -> dict[str, Any]:
        return {
            "genre": self.genre,
            "title": self.title,
            "intro": self.intro,
            "tables": [t.to_json() for t in self.tables],
            "outro": self.outro,
        }


def format_markdown(report: Report) -> str:
    """The report as the design note's markdown."""
    head = "#" * report.level + " " + report.title
    parts = [head + (f"\n\n{report.intro}" if report.intro else "")]
    parts += [_markdown_table(t, report.level + 1) for t in report.tables]
    if report.outro:
        parts.append(report.outro)
    return "\n\n".join(parts)


def _markdown_table(t: Table, level: int) -> str:
    lines = ["| " + " | ".join(t.headers) + " |", "|" + "---|" * len(t.headers)]
    lines += ["| " + " | ".join(cell.text for cell in row) + " |" for row in t.rows]
    parts = [f"{'#' * level} {t.title}"] if t.heading else []
    parts += [t.before] if t.before else []
    parts.append("\n".join(lines))
    parts += [t.after] if t.after else []
    return "\n\n".join(parts)


CSV_HEADERS = ("table", "row", "column", "value", "text")


def format_csv(report: Report) -> str:
    """Every cell of every table, one a line (`table,row,column,value,text`): `value` is
    the number where the cell is one (else empty), `text` what markdown shows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADERS)
    for t in report.tables:
        for number, row in enumerate(t.rows, 1):
            for header, cell in zip(t.headers, row, strict=True):
                value = "" if cell.value is None else cell.value
                writer.writerow([t.key, number, header, value, cell.text])
    return out.getvalue()
