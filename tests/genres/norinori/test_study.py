from __future__ import annotations

from itertools import product

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry
from gridproof.core.report import format_markdown
from gridproof.genres.norinori import study


def _brute_induced_matchings(size: int) -> int:
    """Shadings where every shaded cell has exactly one shaded neighbour, by trying all."""
    geo = Geometry(size, size)
    total = 0
    for cells in product((0, 1), repeat=geo.size):
        shaded = sum(bit << i for i, bit in enumerate(cells))
        if all((geo.neighbours[c] & shaded).bit_count() == 1 for c in range(geo.size) if cells[c]):
            total += 1
    return total


def test_induced_matchings_agree_with_brute_force() -> None:
    for size in (1, 2, 3, 4):
        assert study.induced_matchings(size) == _brute_induced_matchings(size)


def test_the_note_figure_for_5x5() -> None:
    assert study.induced_matchings(5) == 7358


def test_the_report_has_every_table() -> None:
    report = format_markdown(study.run_study(boards=2, seed=3, deadline=Deadline(120)))
    for heading in ("### 1.", "### 2.", "### 3.", "### 4.", "### 5.", "### 6.", "differ"):
        assert heading in report
    assert "| 0 / 30 | 0 / 900 |" in report  # local never sees what the lifting misses
    assert "7358 on every board" in report
