"""Random Star Battle boards for the tests: regions grown by the generator's own walk, but
neither proven nor repaired, so the mix holds boards with no, one and many solutions."""

from __future__ import annotations

from gridproof.core.grid import Geometry
from gridproof.core.rng import Rng
from gridproof.genres.starbattle.generate import grow_patches
from gridproof.genres.starbattle.model import StarBattle, make_puzzle


def random_regions(side: int, rng: Rng) -> list[int]:
    """`side` connected regions grown from random seeds (the generator's own walk)."""
    geo = Geometry(side, side)
    return grow_patches(geo, rng.sample(range(geo.size), side), rng)


def board_mix(count: int, seed: int) -> list[StarBattle]:
    """`count` boards from 4x4 to 8x8, one star (two from 7x7 on, half the time)."""
    rng = Rng(seed)
    out = []
    for _ in range(count):
        side = rng.randint(4, 8)
        stars = 2 if side >= 7 and rng.random() < 0.5 else 1
        labels = random_regions(side, rng)
        out.append(make_puzzle([labels[r * side : (r + 1) * side] for r in range(side)], stars))
    return out
