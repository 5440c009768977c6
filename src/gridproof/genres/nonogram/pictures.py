"""Pictures for the Nonogram generator, all drawn from `core.rng.Rng` (deterministic).

Profiles (the seed picks one unless asked):
  blobs   a few elliptical bumps plus value noise, thresholded at the density quantile
  mirror  the same field made left-right symmetric
  rotate  the same field made 180-degree symmetric
After thresholding, the shaded bounding box is stretched to the whole board (the field is
re-sampled over the box, at most twice), specks are removed, then any line still empty
gets its best cell shaded and any full line loses its worst cell (partners too, so the
symmetry stays).
"""

from __future__ import annotations

import math

from gridproof.core.grid import Geometry, geometry
from gridproof.core.rng import Rng

PROFILES = ("blobs", "mirror", "rotate")

Box = tuple[float, float, float, float]


class Field:
    """A smooth scalar field on the unit square: bumps plus two octaves of value noise."""

    def __init__(self, rng: Rng, side: int) -> None:
        self.bumps: list[tuple[float, float, float, float]] = []
        for _ in range(rng.randint(2, 3 + side // 6)):
            cy, cx = 0.1 + 0.8 * rng.random(), 0.1 + 0.8 * rng.random()
            ry, rx = 0.10 + 0.22 * rng.random(), 0.10 + 0.22 * rng.random()
            self.bumps.append((cy, cx, ry, rx))
        self.octaves: list[tuple[int, list[list[float]], float]] = []
        for cells, weight in ((max(2.0, side / 3), 0.7), (max(1.5, side / 7), 0.3)):
            n = int(side / cells) + 3
            lattice = [[rng.random() for _ in range(n)] for _ in range(n)]
            self.octaves.append((n - 2, lattice, weight))
        self.mix = 0.45 + 0.35 * rng.random()

    def at(self, y: float, x: float) -> float:
        v = 0.0
        for cy, cx, ry, rx in self.bumps:
            d = ((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2
            if d < 30:
                v = max(v, math.exp(-d))
        noise = 0.0
        for per, lat, weight in self.octaves:
            yy, xx = min(max(y, 0.0), 1.0) * per, min(max(x, 0.0), 1.0) * per
            y0, x0 = int(yy), int(xx)
            fy, fx = yy - y0, xx - x0
            a = lat[y0][x0] * (1 - fx) + lat[y0][x0 + 1] * fx
            b = lat[y0 + 1][x0] * (1 - fx) + lat[y0 + 1][x0 + 1] * fx
            noise += weight * (a * (1 - fy) + b * fy)
        return (1 - self.mix) * v + self.mix * noise


def partner(cell: int, width: int, height: int, profile: str) -> int:
    """The cell the profile's symmetry pairs with `cell` (itself without a symmetry)."""
    r, c = divmod(cell, width)
    if profile == "mirror":
        return r * width + width - 1 - c
    if profile == "rotate":
        return (height - 1 - r) * width + width - 1 - c
    return cell


def _orbit(cell: int, width: int, height: int, profile: str) -> int:
    return min(cell, partner(cell, width, height, profile))


def _sample(field: Field, width: int, height: int, box: Box, profile: str) -> list[float]:
    """Field values per cell; the cells of one symmetry orbit get the same value."""
    y0, y1, x0, x1 = box
    values = [0.0] * (width * height)
    for r in range(height):
        y = y0 + (r + 0.5) / height * (y1 - y0)
        for c in range(width):
            cell = r * width + c
            if _orbit(cell, width, height, profile) != cell:
                continue
            x = x0 + (c + 0.5) / width * (x1 - x0)
            v = field.at(y, x)
            if profile == "mirror":
                v += field.at(y, x0 + x1 - x)
            elif profile == "rotate":
                v += field.at(y0 + y1 - y, x0 + x1 - x)
            values[cell] = v
    for cell in range(width * height):
        values[cell] = values[_orbit(cell, width, height, profile)]
    return values


def _threshold(values: list[float], width: int, height: int, density: float, profile: str) -> int:
    """The `density` share of cells with the highest values, whole orbits at a time."""
    n = width * height
    members: dict[int, list[int]] = {}
    for cell in range(n):
        members.setdefault(_orbit(cell, width, height, profile), []).append(cell)
    picture, count, want = 0, 0, round(density * n)
    for rep in sorted(members, key=lambda i: (-values[i], i)):
        if count >= want:
            break
        for cell in members[rep]:
            picture |= 1 << cell
            count += 1
    return picture


def _bbox(picture: int, width: int, height: int) -> tuple[int, int, int, int]:
    rows = [r for r in range(height) if picture >> (r * width) & ((1 << width) - 1)]
    cols = [c for c in range(width) if any(picture >> (r * width + c) & 1 for r in range(height))]
    return rows[0], rows[-1] + 1, cols[0], cols[-1] + 1


def draw(rng: Rng, width: int, height: int, profile: str, density: float) -> int:
    """A picture of the profile at about `density` (see the module docstring)."""
    geo = geometry(width, height)
    field = Field(rng, min(width, height))
    box: Box = (0.0, 1.0, 0.0, 1.0)
    values: list[float] = []
    picture = 0
    for _ in range(3):
        values = _sample(field, width, height, box, profile)
        picture = _threshold(values, width, height, density, profile)
        r0, r1, c0, c1 = _bbox(picture, width, height)
        if (r0, r1, c0, c1) == (0, height, 0, width):
            break
        y0, y1, x0, x1 = box
        sy, sx = (y1 - y0) / height, (x1 - x0) / width
        box = (y0 + r0 * sy, y0 + r1 * sy, x0 + c0 * sx, x0 + c1 * sx)
        if profile == "mirror":
            half = max(0.5 - box[2], box[3] - 0.5)
            box = (box[0], box[1], 0.5 - half, 0.5 + half)
        elif profile == "rotate":
            hy, hx = max(0.5 - box[0], box[1] - 0.5), max(0.5 - box[2], box[3] - 0.5)
            box = (0.5 - hy, 0.5 + hy, 0.5 - hx, 0.5 + hx)
    return _fix_lines(despeck(geo, picture), values, width, height, profile)


def _fix_lines(picture: int, values: list[float], width: int, height: int, profile: str) -> int:
    """Shade the best cell of each empty line (beside a shaded cell where possible), clear
    the worst of each full line; their partners too."""
    geo = geometry(width, height)
    lines = [[r * width + c for c in range(width)] for r in range(height)]
    lines += [[r * width + c for r in range(height)] for c in range(width)]
    for _ in range(3):
        changed = False
        for cells in lines:
            on = [i for i in cells if picture >> i & 1]
            if not on:
                near = geo.spread(picture)
                pick = max(cells, key=lambda i: (near >> i & 1, values[i], -i))
                picture |= 1 << pick | 1 << partner(pick, width, height, profile)
                changed = True
            elif len(on) == len(cells):
                pick = min(cells, key=lambda i: (values[i], i))
                picture &= ~(1 << pick | 1 << partner(pick, width, height, profile))
                changed = True
        if not changed:
            break
    return picture


def despeck(geo: Geometry, picture: int) -> int:
    """Shaded cells with no shaded neighbour are cleared; empty ones fully surrounded are
    filled."""
    lonely = picture & ~geo.spread(picture)
    holes = ~picture & geo.full & ~geo.spread(geo.full & ~picture)
    return (picture & ~lonely) | holes


def components(geo: Geometry, picture: int) -> int:
    """The number of orthogonally connected shapes in the picture."""
    count = 0
    rest = picture
    while rest:
        shape = rest & -rest
        while True:
            grown = (shape | geo.spread(shape)) & picture
            if grown == shape:
                break
            shape = grown
        rest &= ~shape
        count += 1
    return count


def lines_ok(picture: int, width: int, height: int) -> bool:
    """No empty and no full row or column."""
    row = (1 << width) - 1
    for r in range(height):
        if (picture >> (r * width) & row) in (0, row):
            return False
    col = sum(1 << (r * width) for r in range(height))
    return all(picture & col << c not in (0, col << c) for c in range(width))


def max_shapes(width: int, height: int) -> int:
    return max(3, width * height // 60)


def acceptable(picture: int, width: int, height: int, density: float) -> bool:
    """The picture filter: fill near the target, no empty or full line, few shapes."""
    fill = picture.bit_count() / (width * height)
    if abs(fill - density) > 0.15 or not lines_ok(picture, width, height):
        return False
    return components(geometry(width, height), picture) <= max_shapes(width, height)
