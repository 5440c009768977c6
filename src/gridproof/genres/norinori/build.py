"""Building a unique Norinori: shading first, regions around it, rivals walked away.

There are no clues to remove: the partition is the puzzle. So the builder works
backwards (see the design note `001`):

1. draw the shading as an induced matching (dominoes no two of which touch), raised to
   about half the board by remove-one-and-refill rounds (greedy alone stalls near 36%,
   which forces 5-cell regions and boards with hundreds of solutions);
2. seed one region per domino, or, for some neighbouring pairs of dominoes, two regions
   that each take one cell of both (a domino crossing a border), and grow the regions
   over the empty cells, smallest first, so every region is connected;
3. while a rival solution exists, move a cell that the rival shades and the intended
   solution does not into a neighbouring region. The rival then has one shaded cell in
   the old region and three in the new one, so it dies, while the intended solution keeps
   two in each. Rivals come from three places, cheapest first: `slides` lists the rivals
   two cells away (a domino sliding or turning onto a free cell of its region) without
   any search; otherwise `solve.rivals` takes one rival from every part of the board that
   propagation leaves open, and `split_rivals` cuts each into the far-apart changes it is
   made of, each a rival by itself. A round walks them all, so a big board fixes its
   far-apart ambiguities together. When no move can break a rival (it differs from the
   solution inside a pocket of one region), the rival becomes the solution and the old
   solution is walked away instead. The board is returned only once the complete counter
   proves it unique.

Every count runs on a work budget (closes, see `generate.COUNT_WORK`): what a seed builds
does not depend on the machine. Glossary: `labels[cell]` is a region label while
building, `solution` the intended shading mask.
"""

from __future__ import annotations

from collections import Counter

from gridproof.core.contract import Tally
from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, geometry, low_bit
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.norinori.model import Norinori, make_puzzle
from gridproof.genres.norinori.position import board_of, region_masks
from gridproof.genres.norinori.solve import count, independent_parts, rivals

CROSSING_RATE = 0.35
"""How often a domino is offered a partner domino to share two regions with."""
REFILL_ROUNDS = 16
"""Remove-one-and-refill rounds per cell: about 49% shaded up to 10×10, 45% at 20×20."""


def induced_matching(geo: Geometry, rng: Rng, rounds: int) -> list[tuple[int, int]]:
    """Dominoes no two of which touch orthogonally, densified by remove-one-and-refill.

    Greedy placement along a shuffled edge list first; then each round drops a random
    domino and greedily refills around the hole (only there can a new domino fit), and
    keeps the result unless it lost a domino.
    """
    starting: list[list[tuple[int, int]]] = [[] for _ in range(geo.size)]
    for c in range(geo.size):
        if c % geo.width < geo.width - 1:
            starting[c].append((c, c + 1))
        if c + geo.width < geo.size:
            starting[c].append((c, c + geo.width))

    width = geo.width

    def refill(dominoes: list[tuple[int, int]], shaded: int, area: int) -> int:
        # bit tests on a window of the board from the area's lowest cell to a row past
        # its highest: they cost what the area holds, not the board (a bit of a
        # 10,000-cell mask read by shifting the whole mask); the window's blocked cells
        # are read off the shaded cells of whole rows from one below it to one above
        low = (area & -area).bit_length() - 1
        top = area.bit_length() + width  # the window's last cell
        within = (1 << (top - low + 1)) - 1
        start = max(0, low // width - 1) * width
        rows = (shaded >> start) & ((1 << (top + width + 1 - start)) - 1)
        window = ((rows | geo.spread(rows)) >> (low - start)) & within
        order = [
            edge
            for cell in bits((area >> low) & ~window)
            for edge in starting[cell + low]
            if not window >> (edge[1] - low) & 1
        ]  # only the edges free now can ever take a domino: shuffling them alone is enough
        rng.shuffle(order)
        for a, b in order:
            if not (window >> (a - low) & 1 or window >> (b - low) & 1):
                dominoes.append((a, b))
                piece = (1 << a) | (1 << b)
                shaded |= piece
                window |= ((piece | geo.spread(piece)) >> low) & within
        return shaded

    best: list[tuple[int, int]] = []
    best_shaded = refill(best, 0, geo.full)
    for _ in range(rounds):
        kept = len(best)
        index = rng.below(kept)
        a, b = dropped = best.pop(index)
        piece = (1 << a) | (1 << b)
        hole = piece | geo.spread(piece)
        hole |= geo.spread(hole)
        shaded = refill(best, best_shaded ^ piece, hole)
        if len(best) >= kept:
            best_shaded = shaded
        else:  # the round lost a domino: back as it was
            del best[kept - 1 :]
            best.insert(index, dropped)
    return best


def greedy_matching(geo: Geometry, rng: Rng) -> list[tuple[int, int]]:
    """Plain greedy matching, no refill: the baseline the study compares against."""
    return induced_matching(geo, rng, rounds=0)


def seed_regions(
    geo: Geometry, dominoes: list[tuple[int, int]], rng: Rng, crossing_rate: float
) -> list[int]:
    """Labels for the shaded cells (and the connectors of crossing dominoes); -1 elsewhere.

    Each region label ends up on exactly two shaded cells: both cells of one domino, or,
    for a crossing pair of dominoes a1a2 and b1b2, {a1, b1} and {a2, b2} joined through a
    free cell each of them touches.
    """
    labels = [-1] * geo.size
    shaded = 0
    for a, b in dominoes:
        shaded |= (1 << a) | (1 << b)
    where = {cell: index for index, (a, b) in enumerate(dominoes) for cell in (a, b)}
    order = list(range(len(dominoes)))
    rng.shuffle(order)
    done: set[int] = set()
    taken = shaded
    next_label = 0
    for d in order:
        if d in done:
            continue
        done.add(d)
        joined = None
        if rng.random() < crossing_rate:
            joined = _crossing(geo, dominoes, d, where, done, taken, shaded)
        if joined is None:
            for cell in dominoes[d]:
                labels[cell] = next_label
            next_label += 1
            continue
        e, first, second = joined
        done.add(e)
        for group in (first, second):
            for cell in group:
                labels[cell] = next_label
                taken |= 1 << cell
            next_label += 1
    return labels


def _crossing(
    geo: Geometry,
    dominoes: list[tuple[int, int]],
    d: int,
    where: dict[int, int],
    done: set[int],
    taken: int,
    shaded: int,
) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """A partner domino for `d` and the two cell groups of a crossing, if one fits."""
    nbrs = geo.neighbours
    free = geo.full & ~taken
    a1, a2 = dominoes[d]
    near = geo.spread(geo.spread((1 << a1) | (1 << a2)) & free) & shaded
    for e in sorted({where[c] for c in bits(near)} - done - {d}):
        b1, b2 = dominoes[e]
        for x, y in ((b1, b2), (b2, b1)):
            link1 = nbrs[a1] & nbrs[x] & free
            link2 = nbrs[a2] & nbrs[y] & free & ~link1
            if link1 and link2:
                c1 = (link1 & -link1).bit_length() - 1
                c2 = (link2 & -link2).bit_length() - 1
                if c1 != c2:
                    return e, (a1, x, c1), (a2, y, c2)
    return None


def grow_regions(geo: Geometry, labels: list[int], rng: Rng) -> list[int]:
    """Give every unlabelled cell to a neighbouring region, smallest region first: each
    step draws among the unlabelled cells whose smallest labelled neighbour is smallest,
    then among those neighbours. `key` keeps each such cell's smallest neighbour size, and
    only the cells around the region that grew need it again."""
    labels = list(labels)
    sizes = Counter(label for label in labels if label >= 0)
    areas = [0] * (max(labels) + 1)
    for cell, label in enumerate(labels):
        if label >= 0:
            areas[label] |= 1 << cell
    nbrs = geo.neighbours
    unlabelled = sum(1 << cell for cell, label in enumerate(labels) if label < 0)
    key: dict[int, int] = {}

    def around(cell: int) -> list[int]:
        return [labels[n] for n in bits(nbrs[cell]) if labels[n] >= 0]

    def rekey(mask: int) -> None:
        for cell in bits(mask & unlabelled):
            near = around(cell)
            if near:
                key[cell] = min(sizes[x] for x in near)

    rekey(geo.spread(geo.full & ~unlabelled))
    while key:
        smallest = min(key.values())
        choices = sorted(cell for cell, size in key.items() if size == smallest)
        cell = choices[rng.below(len(choices))]
        near = around(cell)
        best = min(sizes[x] for x in near)
        options = sorted({x for x in near if sizes[x] == best})
        label = options[rng.below(len(options))]
        labels[cell] = label
        sizes[label] += 1
        unlabelled &= ~(1 << cell)
        del key[cell]
        areas[label] |= 1 << cell
        rekey(geo.spread(areas[label]))
    return labels


def puzzle_of(geo: Geometry, labels: list[int]) -> Norinori:
    """The puzzle whose regions `labels` describes."""
    w = geo.width
    return make_puzzle([labels[r * w : (r + 1) * w] for r in range(geo.height)])


def walk_rival(
    geo: Geometry,
    labels: list[int],
    solution: int,
    rivals: list[int],
    rng: Rng,
    visited: set[tuple[int, ...]] | None = None,
) -> list[int] | None:
    """Labels with a cell the first rival shades (and the solution does not) moved into a
    neighbouring region, so that rival breaks a region's count; None if no move keeps
    every region connected.

    No move may lead back to a labelling in `visited` (the walk so far): undoing a move
    brings back the rival it killed, and a walk that allowed it could swing between two
    ambiguous boards for ever. The labelling moved to is added to it.

    A cell deep inside its region travels with the shortest path of cells the solution
    leaves empty that leads from it to another region: the solution's counts stay as they
    are (no shaded cell moves). Among the moves, the one that also kills the most of the
    other known rivals wins; ties are broken at random.
    """
    visited = set() if visited is None else visited
    areas = region_masks(labels)
    best: tuple[tuple[int, int], list[int]] | None = None
    for cell in bits(rivals[0] & ~solution):
        old = labels[cell]
        for path in paths_out(geo, labels, areas[old] & ~solution, cell):
            moving = 0
            for step in path:
                moving |= 1 << step
            rest = areas[old] & ~moving
            if not rest or not geo.connected(rest):
                continue
            for new in sorted({labels[n] for n in bits(geo.neighbours[path[-1]])} - {old}):
                moved = list(labels)
                for step in path:
                    moved[step] = new
                if tuple(moved) in visited:
                    continue
                grown = areas[new] | moving
                killed = sum(
                    (rest & r).bit_count() != 2 or (grown & r).bit_count() != 2 for r in rivals
                )
                score = (-killed, rng.below(1 << 30))
                if best is None or score < best[0]:
                    best = (score, moved)
    if best is None:
        return None
    visited.add(tuple(best[1]))
    return best[1]


def paths_out(geo: Geometry, labels: list[int], free: int, start: int) -> list[list[int]]:
    """Shortest paths through `free` (cells of one region) from `start` to each cell that
    touches another region, nearest first."""
    region = labels[start]
    parents = {start: -1}
    queue = [start]
    ends = []
    for cell in queue:
        if any(labels[n] != region for n in bits(geo.neighbours[cell])):
            ends.append(cell)
        for n in bits(geo.neighbours[cell] & free):
            if n not in parents:
                parents[n] = cell
                queue.append(n)
    paths = []
    for end in ends:
        path, here = [], end
        while here >= 0:
            path.append(here)
            here = parents[here]
        paths.append(path[::-1])
    return paths


def slides(geo: Geometry, labels: list[int], solution: int) -> list[int]:
    """The rivals two cells away from `solution`, found without search: a domino whose
    cell `a` gives way to a free cell `c` of the same region beside its other cell, where
    `c` touches no other shaded cell (the domino slides along, or turns about that cell)."""
    nbrs = geo.neighbours
    found = []
    for a in bits(solution):
        b = low_bit(nbrs[a] & solution)
        for c in bits(nbrs[b] & ~solution):
            if labels[c] == labels[a] and not nbrs[c] & solution & ~(1 << b):
                found.append(solution ^ (1 << a) ^ (1 << c))
    return found


def split_rivals(puzzle: Norinori, solution: int, found: list[int]) -> list[int]:
    """Each rival cut into the far-apart changes it makes to `solution`, each change
    applied alone. Two changes that share no region and lie more than two steps apart
    check no rule together, so each alone is a rival too, and a round can kill them all."""
    board = board_of(puzzle)
    out = []
    for rival in found:
        change = rival ^ solution
        out += [solution ^ (change & part) for part in independent_parts(board, change)]
    return out


def walk_round(
    geo: Geometry,
    labels: list[int],
    solution: int,
    found: list[int],
    rng: Rng,
    visited: set[tuple[int, ...]],
) -> tuple[list[int], int, int] | None:
    """One round of the walk: a move for each rival in `found` that the moves before it
    left alive. When no move breaks a rival (it differs from the solution inside a pocket
    of one region), the rival becomes the solution and the old one is walked away. Returns
    (labels, solution, moves made), or None when neither can move."""
    moves = 0
    solves = _solves_beside if _solves(labels, solution) else _solves_all
    for index, rival in enumerate(found):
        if not solves(labels, solution, rival):
            continue  # an earlier move of this round already broke it
        walked = walk_rival(geo, labels, solution, found[index:], rng, visited)
        if walked is None:
            walked = walk_rival(geo, labels, rival, [solution], rng, visited)
            solution = rival
        if walked is None:
            return None
        labels = walked
        moves += 1
    return labels, solution, moves


def find_rivals(
    geo: Geometry, labels: list[int], solution: int, deadline: Deadline
) -> list[int] | None:
    """Rivals of `solution` on the board `labels` describes, cheapest source first (see
    the module's step 3): empty when it is the only solution, None when the count ran out
    of work (or time)."""
    found = slides(geo, labels, solution)
    if found:
        return found
    puzzle = puzzle_of(geo, labels)
    counted = rivals(puzzle, solution, deadline)
    return None if counted is None else split_rivals(puzzle, solution, counted)


def build_candidate(
    width: int,
    height: int,
    rng: Rng,
    tally: Tally,
    deadline: Deadline,
    work: int,
    max_moves: int,
) -> tuple[Norinori, int, int] | None:
    """One candidate: shading, regions, walk. Returns (puzzle, solution, moves) once it is
    proven unique; None (with the reason counted in `tally`) otherwise. Each count may
    spend `work` closes: that budget decides. `deadline` is the caller's clock, which can
    only cut the call short (the generator then fails it, see `in_time`)."""
    geo = geometry(width, height)
    dominoes = induced_matching(geo, rng, rounds=REFILL_ROUNDS * geo.size)
    solution = 0
    for a, b in dominoes:
        solution |= (1 << a) | (1 << b)
    labels = grow_regions(geo, seed_regions(geo, dominoes, rng, CROSSING_RATE), rng)
    moves, visited = 0, {tuple(labels)}
    while moves <= max_moves:
        found = find_rivals(geo, labels, solution, deadline.within(work=work))
        if found is None:
            tally.timeout += 1
            return None
        if not found:
            puzzle = puzzle_of(geo, labels)
            if prove(puzzle, solution, tally, deadline.within(work=work)):
                return puzzle, solution, moves
            return None
        walked = walk_round(geo, labels, solution, found, rng, visited)
        if walked is None:
            break
        labels, solution, made = walked
        moves += made
    tally.ambiguous += 1
    return None


def prove(puzzle: Norinori, solution: int, tally: Tally, deadline: Deadline) -> bool:
    """Whether the complete counter proves `solution` the puzzle's only solution within
    `deadline` (the proof every returned board gets, whatever found it first); a failure
    is counted in `tally` by its reason."""
    outcome = count(puzzle, 2, deadline)
    if outcome.verdict is Verdict.UNIQUE and outcome.solutions == (solution,):
        return True
    if outcome.verdict is Verdict.TIMEOUT:
        tally.timeout += 1
    elif outcome.verdict is Verdict.NONE:  # impossible by construction; counted, not hidden
        tally.contradiction += 1
    else:
        tally.ambiguous += 1
    return False


def _solves_all(labels: list[int], solution: int, shading: int) -> bool:
    """`_solves(labels, shading)` (`solution` unread)."""
    return _solves(labels, shading)


def _solves_beside(labels: list[int], solution: int, shading: int) -> bool:
    """`_solves(labels, shading)` for a `solution` that solves `labels`: only the regions
    where `shading` differs from it need counting (a walk's moves keep the solution's
    counts, so this holds through a round once it holds at its start; the whole board
    counted for every rival was a quarter of building a 100×100 board)."""
    change = shading ^ solution
    regions = {labels[cell] for cell in bits(change)}
    counts = Counter(labels[cell] for cell in bits(shading & ~solution))
    for cell in bits(solution & change):
        counts[labels[cell]] -= 1
    return all(counts[label] == 0 for label in regions)


def _solves(labels: list[int], shading: int) -> bool:
    """Whether `shading` puts exactly two shaded cells in every region of `labels` (its
    dominoes do not depend on the regions)."""
    counts: Counter[int] = Counter(labels[cell] for cell in bits(shading))
    return len(counts) == len(set(labels)) and set(counts.values()) == {2}
