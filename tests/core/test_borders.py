"""Border edits: every redraw leaves connected regions, names its cells in the r4c2 form,
and the vocabulary holds each kind of edit."""

from __future__ import annotations

import re

from gridproof.core.borders import border_edits, region_areas
from gridproof.core.grid import Geometry

LABELS = (
    0, 0, 1, 1, 1,
    0, 0, 2, 1, 1,
    3, 3, 2, 2, 4,
    3, 3, 5, 2, 4,
    5, 5, 5, 5, 4,
)  # fmt: skip


def test_every_redraw_keeps_regions_connected_and_names_cells() -> None:
    geo = Geometry(5, 5)
    kinds: set[str] = set()
    for redraw in border_edits(geo, LABELS):
        assert redraw.labels != LABELS
        assert all(area == 0 or geo.connected(area) for area in region_areas(redraw.labels))
        assert re.search(r"\br\dc\d\b", redraw.text)
        changed = {cell for cell in range(25) if redraw.labels[cell] != LABELS[cell]}
        assert changed == set(redraw.cells)
        kinds.add(redraw.text.split()[0] + (" with" if " with " in redraw.text else ""))
    assert kinds == {"move", "move with", "erase", "split"}


def test_a_stretch_of_border_moves_as_one_edit() -> None:
    stretches = [r for r in border_edits(Geometry(5, 5), LABELS) if "the border so that" in r.text]
    assert any(len(r.cells) >= 2 for r in stretches)
    assert all(len({LABELS[c] for c in r.cells}) == 1 for r in stretches)
