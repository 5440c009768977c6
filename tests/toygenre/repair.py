"""The workshop's single edits of a Lights board (`core.repair`): a digit put in a cell, a
digit taken away or changed by one.

For an ambiguous board, a new digit in a cell the pinned solution `keep` leaves empty,
counting `keep`'s shaded neighbours, keeps `keep` a solution; it is listed only if the
rival breaks it (shades that cell, or gives it another count). For a board without a
solution, each digit among the `focus` cells is taken away or moved up or down by one:
the edits that may give a solution back.
"""

from __future__ import annotations

from collections.abc import Iterator

from gridproof.core.grid import Geometry, bits, cell_name
from gridproof.core.repair import Edit
from tests.toygenre.model import MAX_DIGIT, Lights


def edits(
    puzzle: Lights, keep: int | None, rival: int | None, focus: int
) -> Iterator[Edit[Lights]]:
    """The single edits worth listing (see the module docstring), digits put first."""
    geo = Geometry(puzzle.width, puzzle.height)
    if keep is not None:
        yield from _added(puzzle, geo, keep, rival)
        return
    cells = focus or geo.full
    for cell in bits(cells & puzzle.clue_mask):
        digit = puzzle.clues[cell]
        assert digit is not None
        name = cell_name(cell, puzzle.width)
        yield Edit(f"take the {digit} out of {name}", _with(puzzle, cell, None), None, (cell,))
        for other in (digit - 1, digit + 1):
            if 0 <= other <= MAX_DIGIT:
                changed = _with(puzzle, cell, other)
                yield Edit(f"{name}: {digit} → {other}", changed, None, (cell,))


def _added(puzzle: Lights, geo: Geometry, keep: int, rival: int | None) -> Iterator[Edit[Lights]]:
    """A digit counting `keep`'s shaded neighbours in each cell `keep` leaves empty and no
    digit holds, where `rival` (if any) breaks it."""
    for cell in bits(geo.full & ~keep & ~puzzle.clue_mask):
        digit = (geo.neighbours[cell] & keep).bit_count()
        if rival is not None and not (
            rival >> cell & 1 or (geo.neighbours[cell] & rival).bit_count() != digit
        ):
            continue
        text = f"put a {digit} in {cell_name(cell, puzzle.width)}"
        yield Edit(text, _with(puzzle, cell, digit), keep, (cell,))


def _with(puzzle: Lights, cell: int, digit: int | None) -> Lights:
    clues = list(puzzle.clues)
    clues[cell] = digit
    return Lights(puzzle.width, puzzle.height, tuple(clues))
