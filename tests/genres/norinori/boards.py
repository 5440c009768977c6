"""Deterministic random Norinori boards for tests (a helper module, not a test file).

Two makers with different outcome profiles:

- `random_partition`: connected regions grown from random seeds; mostly no solution,
  sometimes several, rarely one.
- `backward_board`: a random induced matching of dominoes drawn first, one region grown
  around each domino; always at least one solution, usually several, and often exactly
  one after a counterexample walk (which asks the SAT oracle for rival shadings).

Every maker takes its own `random.Random`, so a seed pins the board.
"""

from __future__ import annotations

import random

from gridproof.genres.norinori.model import Norinori, make_puzzle
from gridproof.genres.norinori.sat import count_sat

Domino = tuple[int, int]

RIVALS = 32
"""How many rival shadings one counterexample step looks at for a cell to move."""

WALK = 12
"""Counterexample steps for the walked boards of `board_mix`."""


def random_partition(width: int, height: int, rng: random.Random) -> Norinori:
    """Connected regions of mostly 2..6 cells, flooded from random seeds."""
    size = width * height
    seeds = rng.sample(range(size), max(1, round(size / rng.uniform(3.0, 5.0))))
    labels = [-1] * size
    for region, cell in enumerate(seeds):
        labels[cell] = region
    _flood(labels, width, height, rng, cap=6)
    _merge_singletons(labels, width, height, rng)
    return _puzzle(labels, width)


def backward_board(width: int, height: int, rng: random.Random, walk: int = 0) -> Norinori:
    """A board built around a random induced matching, so it has at least one solution.

    With `walk` > 0, up to that many counterexample moves then try to make the intended
    solution the only one (see `walk_counterexamples`).
    """
    dominoes = induced_matching(width, height, rng, refills=rng.choice((0, 5, 20, 40)))
    labels = [-1] * width * height
    for region, (a, b) in enumerate(dominoes):
        labels[a] = labels[b] = region
    _flood(labels, width, height, rng, cap=None)
    if walk:
        intended = sum(1 << a | 1 << b for a, b in dominoes)
        walk_counterexamples(labels, width, height, intended, rng, walk)
    return _puzzle(labels, width)


def walk_counterexamples(
    labels: list[int], width: int, height: int, intended: int, rng: random.Random, steps: int
) -> None:
    """Move cells between regions so that rivals of `intended` die, in place.

    Each step finds rival shadings (with the SAT oracle) and moves a path of cells, none
    shaded in `intended` and at least one shaded in a rival, from its region into a
    neighbouring one, keeping the old region connected. Every rival shading a moved cell
    dies (its old region loses a shaded cell), while `intended` keeps two shaded cells in
    every region. The move killing the most rivals wins; moving a cell back is not allowed,
    so the walk cannot oscillate.
    """
    left: set[tuple[int, int]] = set()
    for _ in range(steps):
        found = count_sat(_puzzle(labels, width), limit=RIVALS + 1).solutions
        rivals = [shaded for shaded in found if shaded != intended]
        if not rivals:
            return
        moves = []
        for cell in range(width * height):
            if intended >> cell & 1 or not any(rival >> cell & 1 for rival in rivals):
                continue
            for path, label in _escapes(labels, width, height, cell, intended):
                if any((c, label) in left for c in path):
                    continue
                if _stays_connected(labels, width, height, set(path)):
                    kills = sum(any(rival >> c & 1 for c in path) for rival in rivals)
                    moves.append((kills, -len(path), path, label))
        if not moves:
            return
        best = max(move[:2] for move in moves)
        _, _, path, label = rng.choice([move for move in moves if move[:2] == best])
        for c in path:
            left.add((c, labels[c]))
            labels[c] = label


def _escapes(
    labels: list[int], width: int, height: int, start: int, intended: int
) -> list[tuple[list[int], int]]:
    """Shortest paths from `start` through its region's cells unshaded in `intended` to a
    cell with a neighbour in another region, each with that other region's label."""
    region = labels[start]
    parent = {start: start}
    todo = [start]
    out = []
    for here in todo:
        path = [here]
        while path[-1] != start:
            path.append(parent[path[-1]])
        for other in _neighbours(here, width, height):
            if labels[other] != region:
                out.append((path, labels[other]))
            elif other not in parent and not intended >> other & 1:
                parent[other] = here
                todo.append(other)
    return out


def _stays_connected(labels: list[int], width: int, height: int, moved: set[int]) -> bool:
    """Whether the region of the `moved` cells is still connected (and not empty) without
    them."""
    region = labels[next(iter(moved))]
    rest = [i for i, label in enumerate(labels) if label == region and i not in moved]
    if not rest:
        return False
    seen = {rest[0]}
    todo = [rest[0]]
    while todo:
        here = todo.pop()
        for other in _neighbours(here, width, height):
            if other not in moved and labels[other] == region and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(rest)


def induced_matching(width: int, height: int, rng: random.Random, refills: int) -> list[Domino]:
    """Dominoes no two of which touch orthogonally, greedily packed, then improved by
    `refills` rounds of dropping one domino and greedily refilling."""
    edges = _domino_edges(width, height)
    best = _refill([], edges, width, height, rng)
    for _ in range(refills):
        trimmed = list(best)
        del trimmed[rng.randrange(len(trimmed))]
        grown = _refill(trimmed, edges, width, height, rng)
        if len(grown) >= len(best):
            best = grown
    return best


def board_mix(count: int, seed: int) -> list[Norinori]:
    """`count` boards from 4x4 to 6x6 (square and not), alternating the two makers, half
    the backward boards walked towards uniqueness.

    The mix holds boards with no solution, one, and several (the tests check how many).
    """
    rng = random.Random(seed)
    boards = []
    for index in range(count):
        width, height = rng.randint(4, 6), rng.randint(4, 6)
        if index % 2:
            boards.append(random_partition(width, height, rng))
        else:
            boards.append(backward_board(width, height, rng, walk=rng.choice((0, WALK))))
    return boards


def _refill(
    start: list[Domino], edges: list[Domino], width: int, height: int, rng: random.Random
) -> list[Domino]:
    dominoes = list(start)
    blocked = [False] * (width * height)
    for a, b in dominoes:
        _block(blocked, (a, b), width, height)
    order = list(edges)
    rng.shuffle(order)
    for a, b in order:
        if not blocked[a] and not blocked[b]:
            dominoes.append((a, b))
            _block(blocked, (a, b), width, height)
    return dominoes


def _block(blocked: list[bool], domino: Domino, width: int, height: int) -> None:
    """Mark a domino's cells and their neighbours as unusable for further dominoes."""
    for cell in domino:
        blocked[cell] = True
        for other in _neighbours(cell, width, height):
            blocked[other] = True


def _domino_edges(width: int, height: int) -> list[Domino]:
    edges = []
    for cell in range(width * height):
        r, c = divmod(cell, width)
        if c + 1 < width:
            edges.append((cell, cell + 1))
        if r + 1 < height:
            edges.append((cell, cell + width))
    return edges


def _flood(labels: list[int], width: int, height: int, rng: random.Random, cap: int | None) -> None:
    """Give every unlabelled cell the label of a neighbour, one random cell at a time.

    Prefers neighbouring regions below `cap` cells (any region when none is), and among
    those picks the smallest half the time and a random one otherwise.
    """
    sizes: dict[int, int] = {}
    for label in labels:
        if label >= 0:
            sizes[label] = sizes.get(label, 0) + 1
    while -1 in labels:
        frontier = [
            cell
            for cell, label in enumerate(labels)
            if label < 0 and any(labels[o] >= 0 for o in _neighbours(cell, width, height))
        ]
        cell = rng.choice(frontier)
        options = sorted({labels[o] for o in _neighbours(cell, width, height) if labels[o] >= 0})
        small = [label for label in options if cap is None or sizes[label] < cap]
        options = small or options
        if rng.random() < 0.5:
            label = min(options, key=lambda x: (sizes[x], x))
        else:
            label = rng.choice(options)
        labels[cell] = label
        sizes[label] += 1


def _merge_singletons(labels: list[int], width: int, height: int, rng: random.Random) -> None:
    for cell, label in enumerate(labels):
        if labels.count(label) == 1:
            labels[cell] = rng.choice([labels[o] for o in _neighbours(cell, width, height)])


def _neighbours(cell: int, width: int, height: int) -> list[int]:
    r, c = divmod(cell, width)
    out = []
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < height and 0 <= cc < width:
            out.append(rr * width + cc)
    return out


def _puzzle(labels: list[int], width: int) -> Norinori:
    return make_puzzle([labels[i : i + width] for i in range(0, len(labels), width)])
