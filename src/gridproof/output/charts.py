"""A study's tables drawn as SVG bar charts (`gridproof study --plots DIR`), one file per
table, with matplotlib (the optional `plots` extra).

Charts are drawn on a bare `Figure` (no pyplot, no window, no global state) and written
with a fixed hash salt and no date, so the same tables give byte-identical files.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Any

from gridproof.core.errors import CodeError, quote
from gridproof.core.report import Chart, Report, Table

INSTALL = "pip install 'gridproof[plots]'"
SALT = "gridproof"
"""The SVG id salt: matplotlib otherwise draws it at random, and ids would differ."""


def require() -> None:
    """Raise `CodeError` naming the extra to install unless matplotlib can be imported
    (checked before a long study starts, not after)."""
    _matplotlib()


def chart_of(t: Table) -> Chart | None:
    """How `t` is drawn: its own `Chart`, else bars of every column that holds numbers in
    every row (None when no column does)."""
    if t.chart is not None:
        return t.chart
    labels = set(t.label_columns())
    series = tuple(
        header
        for i, header in enumerate(t.headers)
        if i not in labels and t.rows and all(row[i].value is not None for row in t.rows)
    )
    return Chart(series) if series else None


def file_name(report: Report, number: int, t: Table) -> str:
    """`GENRE-NN-KEY.svg`: tables in their order in the report, named by their key."""
    return f"{report.genre}-{number:02}-{t.key}.svg"


def draw(report: Report, directory: Path) -> list[Path]:
    """Write one SVG per table that has something to draw into `directory` (made if
    missing); the paths written, in table order."""
    _matplotlib()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CodeError(f"cannot make {quote(str(directory))}: {error.strerror}") from None
    written = []
    for number, t in enumerate(report.tables, 1):
        chart = chart_of(t)
        if chart is None:
            continue
        path = directory / file_name(report, number, t)
        figure = _figure(t, chart)
        try:
            _save(figure, path)
        except OSError as error:
            raise CodeError(f"cannot write {quote(str(path))}: {error.strerror}") from None
        written.append(path)
    return written


def _figure(t: Table, chart: Chart) -> Any:
    from matplotlib.figure import Figure

    labels = _row_labels(t)
    columns = [t.column(header) for header in chart.series]
    width = min(16.0, max(6.0, 1.5 + 0.3 * len(t.rows) * len(columns)))
    figure = Figure(figsize=(width, 4.8))
    axes = figure.add_subplot()
    step = 0.8 / len(columns)
    for index, (header, column) in enumerate(zip(chart.series, columns, strict=True)):
        values = [_height(row[column].value, chart.log) for row in t.rows]
        offsets = [x - 0.4 + step * (index + 0.5) for x in range(len(t.rows))]
        axes.bar(offsets, values, step, label=header)
    axes.set_xticks(range(len(t.rows)), labels, rotation=30 if len(t.rows) > 6 else 0)
    if chart.log:
        axes.set_yscale("log")
    axes.set_ylabel(chart.unit)
    axes.set_title(textwrap.fill(t.title, 70), fontsize=10)
    if len(columns) > 1:
        axes.legend(fontsize=8)
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return figure


def _row_labels(t: Table) -> list[str]:
    columns = t.label_columns()
    return [" ".join(row[i].text for i in columns) or str(n) for n, row in enumerate(t.rows, 1)]


def _height(value: float | None, log: bool) -> float:
    """A bar's height: nan (no bar) for a cell without a number, or at or below 0 on a log
    scale."""
    if value is None or (log and value <= 0):
        return math.nan
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _save(figure: Any, path: Path) -> None:
    import matplotlib

    settings: dict[Any, Any] = {"svg.hashsalt": SALT, "svg.fonttype": "path"}
    with matplotlib.rc_context(settings):
        figure.savefig(path, format="svg", metadata={"Date": None})


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise CodeError(f"drawing charts needs matplotlib: {INSTALL}") from None
    return matplotlib
