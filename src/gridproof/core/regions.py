"""Grids cut into regions: read rows of region labels into canonical region ids."""

from __future__ import annotations

from collections.abc import Sequence

from gridproof.core.errors import CodeError


def grid_shape(rows: Sequence[Sequence[object]], max_side: int, what: str = "") -> tuple[int, int]:
    """(width, height) of a rectangular grid of rows; `CodeError` for an empty, ragged or
    oversized grid (`what` names the rows in messages, e.g. "circle")."""
    height = len(rows)
    if height == 0 or len(rows[0]) == 0:
        raise CodeError("the grid is empty")
    width = len(rows[0])
    if width > max_side or height > max_side:
        raise CodeError(f"grid {width}x{height} is larger than {max_side}x{max_side}")
    for r, row in enumerate(rows):
        if len(row) != width:
            named = f"{what} row" if what else "row"
            raise CodeError(f"{named} {r + 1} has {len(row)} cells, expected {width}")
    return width, height


def region_ids(
    rows: Sequence[Sequence[object]], max_side: int, what: str = ""
) -> tuple[int, int, tuple[int, ...]]:
    """(width, height, region id of each cell, row-major) from rows of any hashable labels,
    ids numbered 0.. in order of first appearance, so equal partitions compare equal.

    `CodeError` for a bad shape, or a region that is not connected (a label used for two
    separate areas would be two regions on paper).
    """
    width, height = grid_shape(rows, max_side, what)
    labels = [label for row in rows for label in row]
    renumber: dict[object, int] = {}
    for label in labels:
        renumber.setdefault(label, len(renumber))
    ids = tuple(renumber[label] for label in labels)
    cells_of: dict[int, list[int]] = {}
    for cell, rid in enumerate(ids):
        cells_of.setdefault(rid, []).append(cell)
    for rid, cells in cells_of.items():
        if len(_component(width, height, ids, cells[0])) != len(cells):
            label = next(k for k, v in renumber.items() if v == rid)
            r, c = divmod(cells[0], width)
            raise CodeError(
                f"region {label!r} (first at row {r + 1}, column {c + 1}) is not connected"
            )
    return width, height, ids


def _component(width: int, height: int, ids: tuple[int, ...], start: int) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        r, c = divmod(cell, width)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            other = rr * width + cc
            inside = 0 <= rr < height and 0 <= cc < width
            if inside and other not in seen and ids[other] == ids[cell]:
                seen.add(other)
                todo.append(other)
    return seen
