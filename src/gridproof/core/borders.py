"""Border edits of a board cut into regions: the vocabulary a setter redraws regions with.

Every edit here is a new labelling of the cells (`labels[cell]` is a region id) with every
region still one connected piece, and a sentence naming the cells it touches in the `r4c2`
form. The region genres (Norinori, Nondango) turn each labelling into their puzzle; the
workshop counts them. The vocabulary, in the order `border_edits` lists it:

- move one cell into a neighbouring region;
- move a cell with its neighbours of the same region into a neighbouring region;
- move a stretch of border: two to `MAX_STRETCH` cells in a straight line along a border
  cross it together (the border steps over by one cell);
- merge two neighbouring regions (erase the border between them);
- split a region along a straight line between two rows or two columns (a piece on one
  side of the line becomes a region of its own).

A region is never emptied by a move (that would be a merge, listed as one). Moves,
stretches and splits redraw regions of at most `MAX_REDRAWN` cells: each must check that
what stays behind is one piece, a walk of the region, and on a board of a few huge regions
those walks alone would outlast any call's deadline (the enumeration cannot stop early,
since it yields nothing until a walk succeeds). Merges apply to regions of any size.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gridproof.core.grid import Geometry, bits, cell_name

MAX_STRETCH = 4
"""The longest stretch of border moved in one edit (longer stretches are several edits)."""
MAX_REDRAWN = 400
"""The largest region that moves, stretches and splits redraw (a setter's regions are far
smaller; see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Redraw:
    """One border edit: what it says, the new labels and the cells whose region changed."""

    text: str
    labels: tuple[int, ...]
    cells: tuple[int, ...]


def region_areas(labels: Sequence[int]) -> list[int]:
    """The cells of each region id, as masks."""
    areas = [0] * (max(labels) + 1)
    for cell, rid in enumerate(labels):
        areas[rid] |= 1 << cell
    return areas


def border_edits(
    geo: Geometry, labels: Sequence[int], cells: int | None = None
) -> Iterator[Redraw]:
    """Every border edit of the vocabulary (see the module docstring); with `cells`, only
    those that move, merge or split at a cell of `cells`."""
    areas = region_areas(labels)
    near = geo.full if cells is None else cells
    redrawn = near & sum(area for area in areas if area.bit_count() <= MAX_REDRAWN)
    yield from single_moves(geo, labels, areas, redrawn)
    yield from cluster_moves(geo, labels, areas, redrawn)
    yield from stretch_moves(geo, labels, areas, redrawn)
    yield from merges(geo, labels, areas, near)
    yield from splits(geo, labels, areas, redrawn)


def relabel(labels: Sequence[int], moving: int, new: int) -> tuple[int, ...]:
    out = list(labels)
    for cell in bits(moving):
        out[cell] = new
    return tuple(out)


def into(geo: Geometry, labels: Sequence[int], moving: int, new: int) -> str:
    """`the region of r3c4`: a cell of region `new` beside `moving` names it."""
    touching = geo.spread(moving) & ~moving
    for cell in bits(touching):
        if labels[cell] == new:
            return f"the region of {cell_name(cell, geo.width)}"
    return f"region {new + 1}"


def names(geo: Geometry, mask: int) -> str:
    return ", ".join(cell_name(cell, geo.width) for cell in bits(mask))


def moved(
    geo: Geometry, labels: Sequence[int], areas: list[int], moving: int, text: str
) -> Iterator[Redraw]:
    """`moving` (cells of one region) moved into each region beside it, when what stays
    behind is a non-empty connected region."""
    old = labels[(moving & -moving).bit_length() - 1]
    beside = sorted({labels[n] for n in bits(geo.spread(moving) & ~areas[old])})
    rest = areas[old] & ~moving
    # the connectivity check walks the whole region: only for a move that has somewhere to go
    if not beside or not rest or rest.bit_count() >= MAX_REDRAWN or not geo.connected(rest):
        return
    for new in beside:
        sentence = f"{text} into {into(geo, labels, moving, new)}"
        yield Redraw(sentence, relabel(labels, moving, new), tuple(bits(moving)))


def single_moves(
    geo: Geometry, labels: Sequence[int], areas: list[int], near: int
) -> Iterator[Redraw]:
    for cell in bits(near):
        yield from moved(geo, labels, areas, 1 << cell, f"move {cell_name(cell, geo.width)}")


def cluster_moves(
    geo: Geometry, labels: Sequence[int], areas: list[int], near: int
) -> Iterator[Redraw]:
    """A cell and its orthogonal neighbours of its own region (two or more cells)."""
    for cell in bits(near):
        mates = geo.neighbours[cell] & areas[labels[cell]]
        if not mates:
            continue
        moving = mates | 1 << cell
        where = cell_name(cell, geo.width)
        text = f"move {where} with its neighbours {names(geo, mates)}"
        yield from moved(geo, labels, areas, moving, text)


def stretch_moves(
    geo: Geometry, labels: Sequence[int], areas: list[int], near: int
) -> Iterator[Redraw]:
    """Straight runs of two to `MAX_STRETCH` cells of one region, each with a cell of the
    same other region on the same side, crossing that border together."""
    w, h = geo.width, geo.height
    seen: set[tuple[int, int]] = set()
    for step, along, side in ((1, w, h), (w, h, w)):
        # step: along a row (1) or a column (w); the other region lies one line over
        for offset in (-w if step == 1 else -1, w if step == 1 else 1):
            crossing = _crossing(geo, labels, offset)
            for area in areas:
                if area.bit_count() > MAX_REDRAWN:
                    crossing &= ~area  # too big to redraw: no stretch starts there
            for line in range(side):
                for start_pos in range(along):
                    first = line * w + start_pos if step == 1 else start_pos * w + line
                    if not crossing >> first & 1:
                        continue  # no border on that side of the run's first cell
                    for length in range(2, MAX_STRETCH + 1):
                        if start_pos + length > along:
                            break
                        run = _run(geo, step, line, start_pos, length)
                        if run is None or not run & near:
                            continue
                        target = _across(geo, labels, run, offset, step)
                        if target is None or (run, target) in seen:
                            continue
                        seen.add((run, target))
                        yield from _stretch(geo, labels, areas, run, target)


def _crossing(geo: Geometry, labels: Sequence[int], offset: int) -> int:
    """The cells whose neighbour at `offset` (one row or column over) is of another region."""
    w, h = geo.width, geo.height
    dr, dc = (offset // w, 0) if offset in (-w, w) else (0, offset)
    mask = 0
    for cell, rid in enumerate(labels):
        r, c = divmod(cell, w)
        rr, cc = r + dr, c + dc
        if 0 <= rr < h and 0 <= cc < w and labels[rr * w + cc] != rid:
            mask |= 1 << cell
    return mask


def _run(geo: Geometry, step: int, line: int, start: int, length: int) -> int | None:
    w = geo.width
    first = line * w + start if step == 1 else start * w + line
    return sum(1 << (first + k * step) for k in range(length))


def _across(geo: Geometry, labels: Sequence[int], run: int, offset: int, step: int) -> int | None:
    """The one region every cell of `run` (all of one region) touches at `offset`."""
    w, h = geo.width, geo.height
    cells = list(bits(run))
    old = labels[cells[0]]
    found: set[int] = set()
    for cell in cells:
        if labels[cell] != old:
            return None
        r, c = divmod(cell, w)
        if offset in (-w, w):
            rr, cc = r + (1 if offset > 0 else -1), c
        else:
            rr, cc = r, c + (1 if offset > 0 else -1)
        if not (0 <= rr < h and 0 <= cc < w):
            return None
        found.add(labels[rr * w + cc])
    if len(found) != 1 or old in found:
        return None
    return found.pop()


def _stretch(
    geo: Geometry, labels: Sequence[int], areas: list[int], run: int, target: int
) -> Iterator[Redraw]:
    old = labels[(run & -run).bit_length() - 1]
    rest = areas[old] & ~run
    if not rest or rest.bit_count() >= MAX_REDRAWN or not geo.connected(rest):
        return
    text = f"move the border so that {names(geo, run)} join {into(geo, labels, run, target)}"
    yield Redraw(text, relabel(labels, run, target), tuple(bits(run)))


def merges(geo: Geometry, labels: Sequence[int], areas: list[int], near: int) -> Iterator[Redraw]:
    """Each pair of neighbouring regions made one (the lower id keeps its number)."""
    done: set[tuple[int, int]] = set()
    for cell in bits(near):
        a = labels[cell]
        for n in bits(geo.neighbours[cell]):
            b = labels[n]
            pair = (min(a, b), max(a, b))
            if a == b or pair in done:
                continue
            done.add(pair)
            first, second = cell_name(cell, geo.width), cell_name(n, geo.width)
            text = f"erase the border between {first} and {second} (merging their regions)"
            yield Redraw(
                text, relabel(labels, areas[pair[1]], pair[0]), tuple(bits(areas[pair[1]]))
            )


def splits(geo: Geometry, labels: Sequence[int], areas: list[int], near: int) -> Iterator[Redraw]:
    """A connected piece of a region on one side of a line between two rows (or columns)
    made a region of its own, when the rest stays connected."""
    w, h = geo.width, geo.height
    fresh = len(areas)
    done: set[int] = set()
    for area in areas:
        if not area & near or area.bit_count() > MAX_REDRAWN:
            continue
        for horizontal, count in ((True, h), (False, w)):
            for cut in range(1, count):
                before = _side(geo, cut, horizontal) & area
                for half in (before, area & ~before):
                    for piece in pieces(geo, half):
                        rest = area & ~piece
                        if not rest or piece in done or not geo.connected(rest):
                            continue
                        done.add(piece)
                        line = (
                            f"rows {cut} and {cut + 1}"
                            if horizontal
                            else f"columns {cut} and {cut + 1}"
                        )
                        text = f"split {names(geo, piece)} off their region between {line}"
                        yield Redraw(text, relabel(labels, piece, fresh), tuple(bits(piece)))


def _side(geo: Geometry, cut: int, horizontal: bool) -> int:
    """The cells above row line `cut` (or left of column line `cut`)."""
    w = geo.width
    if horizontal:
        return (1 << (cut * w)) - 1
    out = 0
    for r in range(geo.height):
        out |= ((1 << cut) - 1) << (r * w)
    return out


def pieces(geo: Geometry, area: int) -> Iterator[int]:
    """The connected pieces of `area`."""
    while area:
        seen = area & -area
        while True:
            grown = (seen | geo.spread(seen)) & area
            if grown == seen:
                break
            seen = grown
        yield seen
        area &= ~seen
