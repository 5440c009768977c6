"""The Nonogram generator: pictures that look like something, proven unique, graded.

Every attempt draws a picture from its own RNG stream (noise at a density profile,
smoothed by a majority rule, sometimes mirrored, specks removed), runs cheap filters
(fill ratio, no empty or full line, few connected shapes), then the complete counter
under a work budget counted in line solves, so the same request and seed give the same
board on any machine. An ambiguous picture is repaired a few times (a cell the solver
could not decide is flipped to agree with its neighbours) before the attempt is dropped.

Every return path passes the uniqueness gate: a fresh board is returned only when the
counter said `unique`; when the wall-clock deadline runs out first, a board from the
verified bank (`bank.py`, each entry counted in the tests) is counted again and returned
with its id in `health.fallback`, or `GenerationError` is raised with the health record.

Glossary: `picture` is the int mask of shaded cells (bit `row * width + col`); a `profile`
names a target density.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridproof.core.contract import Generated, Option, Request, Tally
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.grid import Geometry, bits
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.core.symmetry import Symmetry
from gridproof.genres.nonogram import bank
from gridproof.genres.nonogram.engine import Board, Grid, Propagator
from gridproof.genres.nonogram.lines import LineCache
from gridproof.genres.nonogram.model import Nonogram, clues_of, transform
from gridproof.genres.nonogram.rules import LADDER
from gridproof.genres.nonogram.solve import grade

GENERATOR_VERSION = "nonogram/1"
"""What a seed's board depends on besides the request: bump it when a seed's board changes."""
SIZES = ((5, 5), (40, 40))
PROFILES = {"sparse": 0.40, "balanced": 0.50, "dense": 0.58}
OPTIONS = (
    Option(
        "profile",
        "how much of the picture is shaded",
        str,
        tuple(PROFILES),
        "balanced",
    ),
)
WORK_PER_CELL = 400
"""Line solves one attempt may spend per cell before it counts as a timeout."""
REPAIRS = 6
SMOOTHING = dict(zip(LADDER.grades, ((2, 4), (1, 2), (1, 1)), strict=True))
"""Rounds of smoothing by target grade, easiest first: rougher pictures need deeper
reasoning. A board asked for at no grade is drawn as for the easiest."""
MAX_ATTEMPTS = 10_000


@dataclass(frozen=True, slots=True)
class Candidate:
    picture: int
    puzzle: Nonogram


def generate(request: Request, seed: int, deadline: Deadline) -> Generated[Nonogram]:
    """A board proven unique for `request`; see the module docstring for every path."""
    started = deadline.elapsed()
    width, height = _check(request)
    profile = str(request.options.get("profile", "balanced"))
    tally = Tally()
    filtered = 0
    cache = LineCache()
    root = Rng(seed)
    smoothing = SMOOTHING[request.difficulty or LADDER.grades[0]]
    while tally.attempts < MAX_ATTEMPTS and not deadline.expired():
        rng = root.fork(f"attempt {tally.attempts + filtered}")
        picture = draw(rng, width, height, PROFILES[profile], smoothing)
        if not looks_good(picture, width, height, PROFILES[profile]):
            filtered += 1
            continue
        tally.attempts += 1
        found = _attempt(picture, width, height, request, deadline, cache, tally)
        if found is not None:
            health = tally.health((deadline.elapsed() - started) * 1000)
            metrics = {**found.metrics, "filtered": filtered, "profile": profile}
            return Generated(found.puzzle, found.solution, seed, found.difficulty, metrics, health)
    return _fallback(request, seed, tally, filtered, deadline, started)


@dataclass(frozen=True, slots=True)
class _Found:
    puzzle: Nonogram
    solution: int
    difficulty: str
    metrics: dict[str, Any]


def _attempt(
    picture: int,
    width: int,
    height: int,
    request: Request,
    deadline: Deadline,
    cache: LineCache,
    tally: Tally,
) -> _Found | None:
    """Count the picture's puzzle (repairing it a few times while it is ambiguous); the
    board if it is unique and of the requested difficulty."""
    for repair in range(REPAIRS + 1):
        puzzle = clues_of(width, height, picture)
        graded = grade(puzzle, deadline.within(work=WORK_PER_CELL * width * height), cache)
        verdict = graded.outcome.verdict
        if verdict is Verdict.UNIQUE:
            if request.difficulty not in (None, graded.difficulty):
                tally.off_grade += 1
                return None
            metrics = {
                **graded.metrics,
                "repairs": repair,
                **picture_metrics(picture, width, height),
            }
            return _Found(puzzle, graded.outcome.solutions[0], graded.difficulty, metrics)
        if verdict is Verdict.TIMEOUT:
            tally.timeout += 1
            return None
        if verdict is Verdict.NONE:  # cannot happen for clues read off a picture
            tally.contradiction += 1
            return None
        tally.ambiguous += 1
        if repair < REPAIRS:
            picture = _repair(puzzle, picture, graded.outcome.solutions, cache)
    return None


def _repair(puzzle: Nonogram, picture: int, solutions: tuple[int, ...], cache: LineCache) -> int:
    """Flip one cell where two solutions differ, the one most at odds with its neighbours,
    so the picture stays smooth while the ambiguity is broken."""
    geo = Geometry(puzzle.width, puzzle.height)
    differ = solutions[0] ^ solutions[1] if len(solutions) > 1 else 0
    if not differ:
        board = Board(puzzle, cache)
        grid = Grid.blank(board)
        Propagator(board, Deadline.never()).run(grid)
        differ = geo.full & ~(grid.shaded_mask(board) | grid.empty_mask(board))
    best, best_score = -1, -1
    for cell in bits(differ):
        around = geo.neighbours[cell]
        same = (around & (picture if picture >> cell & 1 else ~picture)).bit_count()
        score = around.bit_count() - same
        if score > best_score:
            best, best_score = cell, score
    return picture ^ (1 << best) if best >= 0 else picture


def draw(
    rng: Rng, width: int, height: int, density: float, smoothing: tuple[int, int] = (2, 4)
) -> int:
    """A picture: noise at `density`, smoothed by a 3×3 majority rule (a number of rounds
    in the `smoothing` range), maybe mirrored, specks removed."""
    geo = Geometry(width, height)
    picture = 0
    for cell in range(width * height):
        if rng.random() < density:
            picture |= 1 << cell
    for _ in range(rng.randint(*smoothing)):
        picture = _smooth(geo, picture)
    if rng.below(3) == 0:
        picture = _mirror(picture, width, height)
    return _despeck(geo, picture)


def _smooth(geo: Geometry, picture: int) -> int:
    """Each cell takes the majority of its 3×3 neighbourhood (ties keep the cell)."""
    w = geo.width
    out = 0
    for cell in range(geo.size):
        r, c = divmod(cell, w)
        votes = total = 0
        for rr in range(max(0, r - 1), min(geo.height, r + 2)):
            for cc in range(max(0, c - 1), min(w, c + 2)):
                total += 1
                votes += picture >> (rr * w + cc) & 1
        if votes * 2 > total or (votes * 2 == total and picture >> cell & 1):
            out |= 1 << cell
    return out


def _mirror(picture: int, width: int, height: int) -> int:
    """The left half reflected onto the right half."""
    out = 0
    for r in range(height):
        for c in range(width):
            source = c if c < (width + 1) // 2 else width - 1 - c
            if picture >> (r * width + source) & 1:
                out |= 1 << (r * width + c)
    return out


def _despeck(geo: Geometry, picture: int) -> int:
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


def looks_good(picture: int, width: int, height: int, density: float) -> bool:
    """The cheap filters: fill ratio near the profile, no empty or full line, and a few
    connected shapes rather than scattered ones."""
    geo = Geometry(width, height)
    fill = picture.bit_count() / geo.size
    if abs(fill - density) > 0.15:
        return False
    row = (1 << width) - 1
    for r in range(height):
        line = picture >> (r * width) & row
        if line in (0, row):
            return False
    col = sum(1 << (r * width) for r in range(height))
    for c in range(width):
        line = picture & (col << c)
        if line in (0, col << c):
            return False
    return components(geo, picture) <= max(3, geo.size // 40)


def picture_metrics(picture: int, width: int, height: int) -> dict[str, Any]:
    geo = Geometry(width, height)
    return {
        "fill": round(picture.bit_count() / geo.size, 3),
        "shapes": components(geo, picture),
    }


def _check(request: Request) -> tuple[int, int]:
    (lo_w, lo_h), (hi_w, hi_h) = SIZES
    w, h = request.width, request.height
    nothing = Tally().health(0).as_dict()
    if not (lo_w <= w <= hi_w and lo_h <= h <= hi_h):
        raise GenerationError(
            f"nonogram sizes run from {lo_w}x{lo_h} to {hi_w}x{hi_h}, not {w}x{h}", nothing
        )
    if request.difficulty is not None and request.difficulty not in LADDER.grades:
        raise GenerationError(
            f"unknown difficulty {request.difficulty!r}; nonogram has {', '.join(LADDER.grades)}",
            nothing,
        )
    profile = request.options.get("profile", "balanced")
    if profile not in PROFILES:
        raise GenerationError(
            f"unknown profile {profile!r}; nonogram has {', '.join(PROFILES)}", nothing
        )
    return w, h


def _fallback(
    request: Request, seed: int, tally: Tally, filtered: int, deadline: Deadline, started: float
) -> Generated[Nonogram]:
    """A verified bank board of the requested size (and difficulty), counted again."""
    entry = bank.find(request.width, request.height, request.difficulty)
    if entry is None:
        raise GenerationError(
            f"no unique {request.width}x{request.height} nonogram found in time "
            "and the verified bank has none of that size and difficulty",
            tally.health((deadline.elapsed() - started) * 1000).as_dict(),
        )
    puzzle = bank.puzzle(entry)
    if (puzzle.width, puzzle.height) != (request.width, request.height):
        puzzle = transform(puzzle, Symmetry.TRANSPOSE)
    choices = [s for s in Symmetry if not s.swaps_axes or puzzle.width == puzzle.height]
    puzzle = transform(puzzle, Rng(seed).choice(choices))
    graded = grade(puzzle, Deadline(bank.RECOUNT_SECONDS))
    tally.fallback = entry.id
    health = tally.health((deadline.elapsed() - started) * 1000)
    if graded.outcome.verdict is not Verdict.UNIQUE:  # the bank tests make this unreachable
        raise GenerationError(f"bank board {entry.id} failed its recount", health.as_dict())
    metrics = {**graded.metrics, "filtered": filtered, "bank": entry.id}
    return Generated(puzzle, graded.outcome.solutions[0], seed, graded.difficulty, metrics, health)
