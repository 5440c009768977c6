"""Ambiguous boards of every genre, made by the generators' own machinery before any
uniqueness steering: the workshop's make-unique is tried on them.

- Norinori: the build stage's shading (an induced matching of dominoes) and regions
  grown around it (`build.induced_matching`, `seed_regions`, `grow_regions`), before the
  walk that makes it unique;
- Nondango: a skeleton (regions, one black circle each) with white circles offered at
  random cells where the answer stays one, without `offer_circles`' uniqueness check;
- Nonogram: a picture of the generator's profiles (`pictures.draw`) before the climb that
  flips pixels until its clues are unique;
- Star Battle: the generator's stars (the usual count for the side) and the regions grown
  around them (`place_stars`, `grow_regions`), before its border moves.

Each gives (puzzle, intended solution) for boards the counter finds two or more solutions
of; seeds whose board comes out unique are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genres
from gridproof.core.rng import Rng
from gridproof.genres.nondango.generate import draw_skeleton
from gridproof.genres.nondango.model import Nondango, Variant
from gridproof.genres.nonogram.generate import PROFILES
from gridproof.genres.nonogram.model import clues_of
from gridproof.genres.nonogram.pictures import draw
from gridproof.genres.norinori.build import (
    CROSSING_RATE,
    REFILL_ROUNDS,
    grow_regions,
    induced_matching,
    puzzle_of,
    seed_regions,
)
from gridproof.genres.starbattle.generate import grow_regions as grow_star_regions
from gridproof.genres.starbattle.generate import place_stars
from gridproof.genres.starbattle.model import default_stars
from gridproof.genres.starbattle.model import make_puzzle as star_battle

WHITE_SHARE = 0.35
"""Nondango: the share of empty cells offered a white circle."""


def norinori(side: int, rng: Rng) -> tuple[Any, int]:
    geo = Geometry(side, side)
    dominoes = induced_matching(geo, rng, rounds=REFILL_ROUNDS * geo.size)
    solution = 0
    for a, b in dominoes:
        solution |= (1 << a) | (1 << b)
    labels = grow_regions(geo, seed_regions(geo, dominoes, rng, CROSSING_RATE), rng)
    return puzzle_of(geo, labels), solution


def nondango(side: int, rng: Rng) -> tuple[Any, int] | None:
    genre = genres()["nondango"]
    skeleton = draw_skeleton(side, side, Variant.NO_THREE_SAME, rng)
    if skeleton is None:
        return None
    answer, circles = skeleton.circles, skeleton.circles
    for cell in range(side * side):
        if circles >> cell & 1 or rng.random() >= WHITE_SHARE:
            continue
        board = Nondango(side, side, skeleton.regions, circles | 1 << cell, skeleton.variant)
        if not genre.validate(board, answer):
            circles |= 1 << cell
    return Nondango(side, side, skeleton.regions, circles, skeleton.variant), answer


def nonogram(side: int, rng: Rng) -> tuple[Any, int]:
    profile = rng.choice(PROFILES)
    picture = draw(rng, side, side, profile, 0.45 + 0.1 * rng.random())
    return clues_of(side, side, picture), picture


def starbattle(side: int, rng: Rng) -> tuple[Any, int] | None:
    stars = default_stars(side)
    solution = place_stars(side, stars, rng)
    labels = None if solution is None else grow_star_regions(side, stars, solution, rng)
    if solution is None or labels is None:
        return None
    return star_battle([labels[r * side : (r + 1) * side] for r in range(side)], stars), solution


MAKERS = {
    "norinori": norinori,
    "nondango": nondango,
    "nonogram": nonogram,
    "starbattle": starbattle,
}


def ambiguous(name: str, side: int, boards: int, first_seed: int = 1) -> Iterator[tuple[Any, int]]:
    """`boards` ambiguous boards of genre `name` at side × side, with their intended
    solutions, from seeds `first_seed`, `first_seed + 1`, …"""
    genre = genres()[name]
    made, seed = 0, first_seed
    while made < boards and seed < first_seed + 200 * boards:
        rng = Rng(seed)
        seed += 1
        board = MAKERS[name](side, rng)
        if board is None:
            continue
        puzzle, solution = board
        outcome = genre.count(puzzle, 2, Deadline(work=4000 * side * side))
        if outcome.verdict is Verdict.MULTIPLE:
            made += 1
            yield puzzle, solution
