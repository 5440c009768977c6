"""The answer-first Nondango generator: it designs nothing and proves everything.

Draw connected regions, drop one black circle in each so that no line of three is all
black, and the board is already unique (every region holds a single circle). Then offer a
white circle to every other cell in random order and keep it only if the board stays
unique. By the lemma in `theory`, a circle without a certificate would always admit a
second answer, so those offers are turned down unasked. An offer is decided exactly:
the old board had one answer, so the new one has a second exactly when some answer paints
the new circle black, which the complete counter settles. The finished board is counted
again from scratch before it is returned: never an unproven board.

The `white` dial stops the offers once that many white circles are kept. A requested
difficulty (the cheapest rung that finishes the board) is met by retrying, and, for a
board that came out harder, by taking white circles away again while it stays unique.

Glossary: `answer` is the mask of black circles the board is built around; an `offer` is
one cell tried as a white circle; an `attempt` is one set of regions and answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gridproof.core.contract import Generated, Option, Request, Tally
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, quote
from gridproof.core.grid import Geometry, bits
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.nondango import solve, theory
from gridproof.genres.nondango.model import Nondango, Variant, make_puzzle, parse_variant
from gridproof.genres.nondango.position import Position, build_board
from gridproof.genres.nondango.rules import LADDER
from gridproof.genres.nondango.search import has_completion

GENERATOR_VERSION = "nondango/1"
"""What a seed's board depends on besides the request: bump it when that board changes."""
NO_WHITE = LADDER.names[0]
"""The rung of a board without white circles (each region has one circle to paint)."""
SIZES = ((4, 4), (24, 24))
OPTIONS = (
    Option(
        "rule",
        "which lines of three are forbidden: all the same colour, or all black",
        choices=("no-three-same", "no-three-black"),
        default="no-three-same",
    ),
    Option("white", "the number of white circles to ask for (default: as many as fit)", kind=int),
)
MAX_ATTEMPTS = 500
"""Attempts before giving up even without a deadline."""
REGION_CAP = 4
"""Regions stop growing at this many cells unless nothing else can take a cell."""


@dataclass(frozen=True, slots=True)
class Settings:
    """A request, checked."""

    width: int
    height: int
    variant: Variant
    white: int | None
    rung: str | None
    """The rung asked for (the difficulty's rung), if any."""


@dataclass(slots=True)
class Offers:
    """What the offers of one generate call came to (beside the generator's `Tally`)."""

    offers: int = 0
    kept: int = 0
    uncertified: int = 0
    breaks_answer: int = 0
    too_few_white: int = 0


def settings_of(request: Request) -> Settings:
    """The checked settings of `request`; CodeError for anything it cannot ask for."""
    (min_w, min_h), (max_w, max_h) = SIZES
    if not (min_w <= request.width <= max_w and min_h <= request.height <= max_h):
        raise CodeError(
            f"size {request.width}x{request.height} is outside "
            f"{min_w}x{min_h} .. {max_w}x{max_h} for nondango"
        )
    unknown = sorted(set(request.options) - {option.name for option in OPTIONS})
    if unknown:
        raise CodeError(f"nondango has no option {quote(unknown[0])}; options: rule, white")
    variant = parse_variant(request.options.get("rule", OPTIONS[0].default), "option")
    white = request.options.get("white")
    if white is not None and (isinstance(white, bool) or not isinstance(white, int) or white < 0):
        raise CodeError(f"option white {quote(repr(white))} is not a whole number of circles")
    difficulty, grades = request.difficulty, LADDER.grades
    if difficulty is not None and difficulty not in grades:
        raise CodeError(f"difficulty {quote(difficulty)} is not one of {', '.join(grades)}")
    rung = None if difficulty is None else LADDER.rung_for(difficulty)
    plain = LADDER.grade(NO_WHITE)
    if rung == NO_WHITE and white:
        raise CodeError(f"difficulty {plain!r} means no white circles at all")
    if white == 0 and rung not in (None, NO_WHITE):
        raise CodeError(f"a board without white circles is {plain!r}, never {difficulty!r}")
    if rung == NO_WHITE:
        white = 0
    return Settings(request.width, request.height, variant, white, rung)


def generate(request: Request, seed: int, deadline: Deadline) -> Generated[Nondango]:
    """A board proven unique, the same for the same request and seed; `GenerationError`
    (with the health record) when none is proven before the deadline."""
    settings = settings_of(request)
    health = Tally()
    tally = Offers()
    started = deadline.elapsed()
    rng = Rng(seed)
    while health.attempts < MAX_ATTEMPTS and not deadline.expired():
        health.attempts += 1
        built = _attempt(settings, rng.fork(f"attempt {health.attempts}"), deadline, health, tally)
        if built is not None:
            puzzle, answer, rung = built
            spent = health.health((deadline.elapsed() - started) * 1000)
            metrics = {"rung": rung, **_metrics(puzzle, answer, tally)}
            return Generated(puzzle, answer, seed, LADDER.grade(rung), metrics, spent)
    spent = health.health((deadline.elapsed() - started) * 1000)
    raise GenerationError(
        f"no {settings.width}x{settings.height} nondango board was proven unique "
        f"after {health.attempts} attempts",
        {**spent.as_dict(), **dataclasses.asdict(tally)},
    )


def _attempt(
    settings: Settings, rng: Rng, deadline: Deadline, health: Tally, tally: Offers
) -> tuple[Nondango, int, str] | None:
    """One set of regions and answer, offered every cell; None if it does not work out."""
    skeleton = draw_skeleton(settings.width, settings.height, settings.variant, rng.fork("regions"))
    if skeleton is None:
        health.contradiction += 1
        return None
    answer = skeleton.circles
    puzzle = offer_circles(
        skeleton, answer, settings.white, rng.fork("offers"), deadline, health, tally
    )
    if puzzle is None:
        return None
    if not _proven(puzzle, answer, deadline, health):
        return None
    rung = solve.rung_needed(puzzle, deadline)
    if rung is None:
        health.timeout += 1
        return None
    target = settings.rung
    if target is not None and rung != target:
        if settings.white is None and LADDER.names.index(rung) > LADDER.names.index(target):
            trimmed = _trim(puzzle, answer, target, rng.fork("trim"), deadline, health)
            if trimmed is not None:
                return trimmed, answer, target
        health.off_grade += 1
        return None
    return puzzle, answer, rung


def draw_regions(width: int, height: int, rng: Rng) -> list[list[int]]:
    """Connected regions of mostly two to `REGION_CAP` cells (about three on average, as
    on janko.at), flooded from random seeds; rows of region labels."""
    geo = Geometry(width, height)
    size = width * height
    count = max(1, round(size / (2.0 + 0.8 * rng.random())))
    labels = [-1] * size
    sizes = [1] * count
    for rid, cell in enumerate(rng.sample(range(size), count)):
        labels[cell] = rid
    open_cells = [cell for cell in range(size) if labels[cell] < 0]
    while open_cells:
        rng.shuffle(open_cells)
        waiting = []
        for cell in open_cells:
            near = sorted({labels[n] for n in bits(geo.neighbours[cell]) if labels[n] >= 0})
            if not near:
                waiting.append(cell)
                continue
            rid = rng.choice([x for x in near if sizes[x] < REGION_CAP] or near)
            labels[cell] = rid
            sizes[rid] += 1
        open_cells = waiting
    _merge_singletons(labels, sizes, geo, rng)
    return [labels[r * width : (r + 1) * width] for r in range(height)]


def _merge_singletons(labels: list[int], sizes: list[int], geo: Geometry, rng: Rng) -> None:
    """Give every one-cell region to its smallest neighbouring region: seeds that end up
    walled in make many of them, and three in a row would leave no answer at all."""
    for cell in range(len(labels)):
        if sizes[labels[cell]] != 1 or geo.size == 1:
            continue
        near = sorted({labels[n] for n in bits(geo.neighbours[cell])})
        smallest = min(sizes[rid] for rid in near)
        rid = rng.choice([x for x in near if sizes[x] == smallest])
        sizes[labels[cell]] -= 1
        labels[cell] = rid
        sizes[rid] += 1


def draw_skeleton(width: int, height: int, variant: Variant, rng: Rng) -> Nondango | None:
    """Random regions with one circle each, all black, no three black in a row (None if
    the answer search gives up); the answer is the skeleton's circles."""
    region_rows = draw_regions(width, height, rng)
    blank = make_puzzle(region_rows, [[0] * width for _ in range(height)], variant)
    answer = place_answer(blank, rng)
    if answer is None:
        return None
    return dataclasses.replace(blank, circles=answer)


def place_answer(puzzle: Nondango, rng: Rng, budget: int = 20_000) -> int | None:
    """One cell per region, chosen at random, with no three consecutive chosen cells in
    any line: a backtracking search that always fills the region with the fewest cells
    left, a cell being gone once it would complete a line (None after `budget` nodes)."""
    lines = theory.lines_through(puzzle.width, puzzle.height)
    order = []
    for cells in puzzle.region_cells():
        rng.shuffle(cells)
        order.append(cells)
    stack: list[tuple[int, int, frozenset[int]]] = [(0, 0, frozenset(range(len(order))))]
    nodes = 0
    while stack and nodes < budget:
        nodes += 1
        chosen, banned, left = stack.pop()
        if not left:
            return chosen
        rid = min(left, key=lambda r: (sum(not banned >> c & 1 for c in order[r]), r))
        rest = left - {rid}
        for cell in reversed([c for c in order[rid] if not banned >> c & 1]):
            bit = 1 << cell
            grown = banned
            for line in lines[cell]:
                if line & chosen:
                    grown |= line & ~chosen & ~bit
            stack.append((chosen | bit, grown, rest))
    return None


def offer_circles(
    puzzle: Nondango,
    answer: int,
    white: int | None,
    rng: Rng,
    deadline: Deadline,
    health: Tally,
    tally: Offers,
) -> Nondango | None:
    """`puzzle` with white circles added, each kept only if the answer stays the only one;
    None if the deadline runs out or fewer than `white` circles could be kept."""
    cells = [cell for cell in range(puzzle.width * puzzle.height) if not answer >> cell & 1]
    rng.shuffle(cells)
    kept = 0
    for cell in cells:
        if white is not None and kept >= white:
            break
        verdict = judge_offer(puzzle, answer, cell, deadline, tally)
        if verdict is None:
            health.timeout += 1
            return None
        if verdict == "kept":
            puzzle, kept = dataclasses.replace(puzzle, circles=puzzle.circles | 1 << cell), kept + 1
        elif verdict == "breaks":
            health.contradiction += 1
        elif verdict == "ambiguous":
            health.ambiguous += 1
    if white is not None and kept < white:
        tally.too_few_white += 1
        return None
    return puzzle


def judge_offer(
    puzzle: Nondango, answer: int, cell: int, deadline: Deadline, tally: Offers
) -> str | None:
    """'kept', 'breaks' (the white circle `cell` would make three white in a row),
    'uncertified' (no certificate: a second answer exists) or 'ambiguous' (counted: a
    second answer exists); None if the count ran out of time."""
    tally.offers += 1
    verdict = theory.judge_offer(puzzle, answer, cell)
    if verdict == "breaks":
        tally.breaks_answer += 1
        return verdict
    if verdict == "uncertified":
        tally.uncertified += 1
        return verdict
    trial = dataclasses.replace(puzzle, circles=puzzle.circles | 1 << cell)
    pos = Position(build_board(trial), deadline)
    pos.paint(cell)
    found = has_completion(pos)
    if found is None:
        return None
    if found:
        return "ambiguous"
    tally.kept += 1
    return "kept"


def _proven(puzzle: Nondango, answer: int, deadline: Deadline, health: Tally) -> bool:
    """Count the finished board from scratch: exactly one answer, the intended one."""
    outcome = solve.count(puzzle, 2, deadline)
    if outcome.verdict is Verdict.TIMEOUT:
        health.timeout += 1
        return False
    if outcome.verdict is not Verdict.UNIQUE or outcome.solutions != (answer,):
        health.ambiguous += 1  # the offers are exact, so this is a bug; never ship it
        return False
    return True


def _trim(
    puzzle: Nondango, answer: int, target: str, rng: Rng, deadline: Deadline, health: Tally
) -> Nondango | None:
    """Take white circles away at random while the board stays unique, until `target`
    is the rung it needs (None if it skips past `target` or time runs out)."""
    whites = list(bits(puzzle.circles & ~answer))
    rng.shuffle(whites)
    for cell in whites:
        trial = dataclasses.replace(puzzle, circles=puzzle.circles & ~(1 << cell))
        outcome = solve.count(trial, 2, deadline)
        if outcome.verdict is Verdict.TIMEOUT:
            health.timeout += 1
            return None
        if outcome.verdict is not Verdict.UNIQUE:
            continue  # under no-three-same a white circle can be what rules out a rival
        puzzle = trial
        rung = solve.rung_needed(puzzle, deadline)
        if rung is None:
            health.timeout += 1
            return None
        if rung == target:
            return puzzle if _proven(puzzle, answer, deadline, health) else None
        if LADDER.names.index(rung) < LADDER.names.index(target):
            return None
    return None


def _metrics(puzzle: Nondango, answer: int, tally: Offers) -> Mapping[str, Any]:
    board = build_board(puzzle)
    circles = puzzle.circles.bit_count()
    return {
        "rule": puzzle.variant.value,
        "regions": puzzle.region_count,
        "circles": circles,
        "white": circles - answer.bit_count(),
        "geometric_triples": len(board.triples),
        "live_black_triples": len(board.black_nogoods),
        "live_white_triples": len(board.white_nogoods),
        "certifying_lines": theory.certifying_lines(board, answer),
        **dataclasses.asdict(tally),
    }
