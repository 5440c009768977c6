"""Deterministic random Nondango boards for tests (a helper module, not a test file).

- `random_board`: connected regions flooded from random seeds, each cell a circle with a
  random probability; mostly no answer or several, sometimes one.
- `planted_board`: regions first, then one black circle per region placed so no line of
  three is all black, plus random extra circles: at least one answer under no-three-black,
  often several.
- `generated`: the generator's board for a request and seed, re-counted unique by the SAT
  oracle (every board a test generates goes through it).

Every maker takes its own `random.Random`, so a seed pins the board.
"""

from __future__ import annotations

import dataclasses
import random

from gridproof.core.contract import Generated, Request
from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.genres.nondango.generate import generate
from gridproof.genres.nondango.model import Nondango, Variant, make_puzzle
from gridproof.genres.nondango.sat import count_sat


def generated(request: Request, seed: int, seconds: float = 60.0) -> Generated[Nondango]:
    """`generate(request, seed)`, its board re-counted by the SAT oracle: exactly one
    answer, the one the generator returned."""
    made = generate(request, seed, Deadline(seconds))
    oracle = count_sat(made.puzzle, 2)
    assert oracle.verdict is Verdict.UNIQUE, (request, seed)
    assert oracle.solutions == (made.solution,), (request, seed)
    return made


def random_labels(width: int, height: int, rng: random.Random, cap: int = 5) -> list[int]:
    """Connected regions of mostly 1..`cap` cells, flooded from random seeds."""
    size = width * height
    seeds = rng.sample(range(size), max(1, round(size / rng.uniform(2.0, 4.0))))
    labels = [-1] * size
    for region, cell in enumerate(seeds):
        labels[cell] = region
    while -1 in labels:
        open_ = [c for c in range(size) if labels[c] == -1]
        rng.shuffle(open_)
        for cell in open_:
            near = [labels[n] for n in _neighbours(cell, width, height) if labels[n] >= 0]
            small = [x for x in near if labels.count(x) < cap] or near
            if small:
                labels[cell] = rng.choice(small)
    return labels


def random_board(
    width: int, height: int, rng: random.Random, density: float | None = None
) -> Nondango:
    labels = random_labels(width, height, rng)
    p = rng.uniform(0.4, 0.9) if density is None else density
    circles = [1 if rng.random() < p else 0 for _ in labels]
    variant = rng.choice(list(Variant))
    return _puzzle(labels, circles, width, variant)


def planted_board(width: int, height: int, rng: random.Random, extra: float = 0.4) -> Nondango:
    """A board whose regions each hold a planted black circle with no black line of three."""
    labels = random_labels(width, height, rng)
    black: set[int] = set()
    for rid in sorted(set(labels)):
        cells = [c for c, x in enumerate(labels) if x == rid]
        rng.shuffle(cells)
        fits = [c for c in cells if not _completes_line(black | {c}, c, width, height)]
        black.add((fits or cells)[0])
    circles = [1 if c in black or rng.random() < extra else 0 for c in range(len(labels))]
    return _puzzle(labels, circles, width, Variant.NO_THREE_BLACK)


def both_variants(puzzle: Nondango) -> list[Nondango]:
    return [dataclasses.replace(puzzle, variant=v) for v in Variant]


def _completes_line(black: set[int], cell: int, width: int, height: int) -> bool:
    r, c = divmod(cell, width)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = [(r + k * dr, c + k * dc) for k in range(-2, 3)]
        flags = [
            0 <= rr < height and 0 <= cc < width and rr * width + cc in black for rr, cc in run
        ]
        if any(all(flags[i : i + 3]) for i in range(3)):
            return True
    return False


def _neighbours(cell: int, width: int, height: int) -> list[int]:
    r, c = divmod(cell, width)
    out = []
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < height and 0 <= cc < width:
            out.append(rr * width + cc)
    return out


def _puzzle(labels: list[int], circles: list[int], width: int, variant: Variant) -> Nondango:
    height = len(labels) // width
    return make_puzzle(
        [labels[r * width : (r + 1) * width] for r in range(height)],
        [circles[r * width : (r + 1) * width] for r in range(height)],
        variant,
    )
