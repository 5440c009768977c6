"""Two exhaustive Norinori counters that share no code with the propagating solver.

They take deliberately different routes through the same rules, so they can disagree only
if the translation between cells and regions is wrong somewhere:

- `count_by_cells` walks the cells in row-major order, deciding each shaded or not, and
  prunes only incrementally: a region with too many shaded cells or too few cells left to
  reach two, and a shaded cell without exactly one shaded neighbour once all four of its
  neighbours are decided.
- `count_by_regions` walks the regions by id, picking which two of its cells are shaded,
  and prunes a shaded cell with two shaded neighbours, or one whose every neighbouring
  region is decided and still has no shaded neighbour; a full check closes every leaf.

Glossary: `shaded` is the int mask of shaded cells so far (bit `row * width + col`);
`index` is how far a walk has got (a cell or a region id); `nbrs[cell]` is the mask of a
cell's orthogonal neighbours. Both read only the puzzle value and core types. They are
oracles for tests and small boards, not fast solvers.
"""

from __future__ import annotations

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, verdict_for
from gridproof.genres.norinori.model import Norinori

CHECK_EVERY = 1024
"""Nodes between deadline checks (the first node is always checked)."""


def count_by_cells(puzzle: Norinori, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count shadings of `puzzle` up to `limit` by deciding the cells in row-major order.

    Stops at `limit` solutions; an expired deadline gives `timeout` (or `multiple` if two
    solutions were already found), never `unique`.
    """
    clock = _clock(limit, deadline)
    started = clock.elapsed()
    size = puzzle.width * puzzle.height
    nbrs = _neighbour_masks(puzzle.width, puzzle.height)
    region_masks = _region_masks(puzzle)
    regions = puzzle.regions
    # How many cells of the cell's region come after it in the walk.
    later = [(region_masks[regions[cell]] >> (cell + 1)).bit_count() for cell in range(size)]
    ready = _cells_ready_after(nbrs, size)
    solutions: list[int] = []
    nodes = 0
    complete = True
    stack = [(0, 0)]
    while stack:
        if nodes % CHECK_EVERY == 0 and clock.expired():
            complete = False
            break
        nodes += 1
        index, shaded = stack.pop()
        if index == size:
            solutions.append(shaded)
            if len(solutions) >= limit:
                break
            continue
        region_mask = region_masks[regions[index]]
        for choice in (shaded, shaded | 1 << index):
            count = (choice & region_mask).bit_count()
            if count > 2 or count + later[index] < 2:
                continue
            if any(
                choice >> cell & 1 and (choice & nbrs[cell]).bit_count() != 1
                for cell in ready[index]
            ):
                continue
            stack.append((index + 1, choice))
    return _outcome(solutions, complete, limit, nodes, clock.elapsed() - started)


def count_by_regions(puzzle: Norinori, limit: int = 2, deadline: Deadline | None = None) -> Outcome:
    """Count shadings of `puzzle` up to `limit` by picking a pair of cells in each region.

    Stops at `limit` solutions; an expired deadline gives `timeout` (or `multiple` if two
    solutions were already found), never `unique`.
    """
    clock = _clock(limit, deadline)
    started = clock.elapsed()
    nbrs = _neighbour_masks(puzzle.width, puzzle.height)
    cells_of = _region_cell_lists(puzzle)
    pairs = [[(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]] for cells in cells_of]
    settled = _cells_settled_by_region(puzzle, nbrs, len(cells_of))
    solutions: list[int] = []
    nodes = 0
    complete = True
    stack = [(0, 0)]
    while stack:
        if nodes % CHECK_EVERY == 0 and clock.expired():
            complete = False
            break
        nodes += 1
        index, shaded = stack.pop()
        if index == len(cells_of):
            if _all_dominoes(shaded, nbrs):
                solutions.append(shaded)
                if len(solutions) >= limit:
                    break
            continue
        for a, b in pairs[index]:
            choice = shaded | 1 << a | 1 << b
            if _crowded(choice, nbrs, a) or _crowded(choice, nbrs, b):
                continue
            if any(choice >> cell & 1 and not choice & nbrs[cell] for cell in settled[index]):
                continue
            stack.append((index + 1, choice))
    return _outcome(solutions, complete, limit, nodes, clock.elapsed() - started)


def _crowded(shaded: int, nbrs: list[int], cell: int) -> bool:
    """Whether `cell` or a shaded neighbour of it has two or more shaded neighbours."""
    around = shaded & nbrs[cell]
    if around.bit_count() > 1:
        return True
    while around:
        low = around & -around
        if (shaded & nbrs[low.bit_length() - 1]).bit_count() > 1:
            return True
        around ^= low
    return False


def _all_dominoes(shaded: int, nbrs: list[int]) -> bool:
    """Whether every shaded cell has exactly one shaded neighbour."""
    rest = shaded
    while rest:
        low = rest & -rest
        if (shaded & nbrs[low.bit_length() - 1]).bit_count() != 1:
            return False
        rest ^= low
    return True


def _neighbour_masks(width: int, height: int) -> list[int]:
    out = []
    for row in range(height):
        for col in range(width):
            mask = 0
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < height and 0 <= c < width:
                    mask |= 1 << (r * width + c)
            out.append(mask)
    return out


def _region_masks(puzzle: Norinori) -> list[int]:
    masks = [0] * (max(puzzle.regions) + 1)
    for cell, region in enumerate(puzzle.regions):
        masks[region] |= 1 << cell
    return masks


def _region_cell_lists(puzzle: Norinori) -> list[list[int]]:
    cells: list[list[int]] = [[] for _ in range(max(puzzle.regions) + 1)]
    for cell, region in enumerate(puzzle.regions):
        cells[region].append(cell)
    return cells


def _cells_ready_after(nbrs: list[int], size: int) -> list[list[int]]:
    """`ready[i]`: the cells whose neighbours (and themselves) are all decided at cell i."""
    ready: list[list[int]] = [[] for _ in range(size)]
    for cell in range(size):
        ready[max(cell, nbrs[cell].bit_length() - 1)].append(cell)
    return ready


def _cells_settled_by_region(puzzle: Norinori, nbrs: list[int], count: int) -> list[list[int]]:
    """`settled[k]`: the cells whose own and neighbouring regions are all decided at k."""
    settled: list[list[int]] = [[] for _ in range(count)]
    regions = puzzle.regions
    for cell, region in enumerate(regions):
        last = region
        rest = nbrs[cell]
        while rest:
            low = rest & -rest
            last = max(last, regions[low.bit_length() - 1])
            rest ^= low
        settled[last].append(cell)
    return settled


def _clock(limit: int, deadline: Deadline | None) -> Deadline:
    if limit < 2:
        raise ValueError(
            f"limit must be at least 2 (uniqueness needs a second search), got {limit}"
        )
    return Deadline.never() if deadline is None else deadline


def _outcome(
    solutions: list[int], complete: bool, limit: int, nodes: int, elapsed: float
) -> Outcome:
    return Outcome(
        verdict=verdict_for(len(solutions), complete),
        solutions=tuple(solutions),
        limit=limit,
        nodes=nodes,
        propagations=0,
        elapsed=elapsed,
    )
