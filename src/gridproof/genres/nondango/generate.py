"""The answer-first Nondango generator: it designs nothing and proves everything.

Draw connected regions, drop one black circle in each so that no line of three is all
black, and the board is already unique (every region holds a single circle). Then white
circles are offered; the `white` dial (how many there are) is what makes a board hard.

- A grade (`easy`, `medium`, `hard`) is reached by construction (`steer`): each white
  circle is kept only while the board stays unique and no harder than the grade, and once
  the board is of the grade, only while it stays there; a board still too easy gets
  offers of two or three circles at once and loses a circle to try again. An `easy` board
  keeps every circle that leaves it to the `triple` rung. With no difficulty asked, the
  seed picks the grade among those the size offers (`grades_for`).
- `expert` (a board only `search` finishes) is never offered: no such unique board came
  out of thousands of generated ones, nor is one in the janko.at bank, and no offer of a
  white circle is known to steer towards one.
- The `white` option without a difficulty runs the design note's dial instead
  (`generate_dial`, also what the study measures): every cell is offered and kept only if
  the board stays unique, up to that many white circles, and the board is graded as it
  comes. An offer is decided exactly there: the old board had one answer, so the new one
  has a second exactly when some answer paints the new circle black, which the complete
  counter settles. By the lemma in `theory`, a circle without a certificate would always
  admit a second answer, so those offers are turned down unasked.

The finished board is counted again from scratch before it is returned, and graded by the
ladder itself (`core.ladder.grade_puzzle`): never an unproven board, never a guessed grade.
Every budget that decides anything is counted in offers or in the counter's nodes; the
wall clock only ends the call (`in_time`), so a seed gives its board on any machine.

Glossary: `answer` is the mask of black circles the board is built around; an `offer` is
one cell (or a group of cells) tried as white circles; an `attempt` is one set of regions
and answer; the `aim` is the grade steered to.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gridproof.core.contract import Generated, Option, Request, Tally, in_time, pick_grade
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, quote
from gridproof.core.grid import Geometry, bits, geometry
from gridproof.core.ladder import Difficulty, grade_puzzle
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.nondango import solve, theory
from gridproof.genres.nondango.model import Nondango, Variant, make_puzzle, parse_variant
from gridproof.genres.nondango.position import Position, build_board, start
from gridproof.genres.nondango.rules import LADDER
from gridproof.genres.nondango.search import has_completion
from gridproof.genres.nondango.steer import Aim, Dial, OutOfTime, steer

GENERATOR_VERSION = "nondango/3"
"""What a seed's board depends on besides the request: bump it when that board or its
score changes (nondango/3: the ladder solves in rounds, `core.ladder.run_rounds`: the
same boards, other scores)."""
SIZES = ((4, 4), (30, 30))
OPTIONS = (
    Option(
        "rule",
        "which lines of three are forbidden: all the same colour, or all black",
        choices=("no-three-same", "no-three-black"),
        default="no-three-same",
        label="Rule",
        words=(
            ("no-three-same", "no three alike in a line"),
            ("no-three-black", "no three black in a line"),
        ),
    ),
    Option(
        "white",
        "the number of white circles to ask for (default: as many as the grade allows)",
        kind=int,
    ),
)
EASY, MEDIUM, HARD, EXPERT = LADDER.grades
BLACK_HARD_AREA = 36
"""The smallest board (in cells) offered as `hard` under no-three-black: smaller ones have
too few lines with two black circles for a knot that needs a probe (a 5×5 board reaches
one in about one attempt of five)."""
MAX_ATTEMPTS = 40
"""Attempts (sets of regions and answer) before giving up even without a deadline."""
COUNT_WORK = 20_000
"""The counter's nodes one offer of the dial may cost; past that it is turned down."""
PROOF_WORK = 500_000
"""The counter's nodes the final count of a board may cost; past that it is dropped."""
REGION_CAP = 4
"""Regions stop growing at this many cells unless nothing else can take a cell."""


def grades_for(width: int, height: int, variant: Variant) -> tuple[str, ...]:
    """The grades the generator delivers at `width` × `height` under `variant`. Under
    no-three-same: `easy`, `medium` and `hard` at every size. Under no-three-black: no
    `medium` (its rung, `confine`, reads the all-white side of a line, which that variant
    does not have), and `hard` from `BLACK_HARD_AREA` cells. Never `expert` (see the
    module docstring)."""
    if variant is Variant.NO_THREE_SAME:
        return (EASY, MEDIUM, HARD)
    return (EASY, HARD) if width * height >= BLACK_HARD_AREA else (EASY,)


def grades_at(width: int, height: int) -> tuple[str, ...]:
    """The grades offered at a size under the default rule (the catalog's view; the
    no-three-black variant offers the same without `medium`)."""
    return grades_for(width, height, Variant.NO_THREE_SAME)


def grades_with(width: int, height: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The grades offered at a size under the rule in `options` (the default if unset)."""
    return grades_for(width, height, parse_variant(options.get("rule", OPTIONS[0].default), "rule"))


@dataclass(frozen=True, slots=True)
class Settings:
    """A request, checked."""

    width: int
    height: int
    variant: Variant
    white: int | None
    grade: str | None
    """The grade steered to (asked for, or picked by the seed); None runs the dial."""


def settings_of(request: Request, seed: int, dial: bool = False) -> Settings:
    """The checked settings of `request`; CodeError for anything it cannot ask for."""
    (min_w, min_h), (max_w, max_h) = SIZES
    width, height = request.width, request.height
    if not (min_w <= width <= max_w and min_h <= height <= max_h):
        raise CodeError(
            f"size {width}x{height} is outside {min_w}x{min_h} .. {max_w}x{max_h} for nondango"
        )
    unknown = sorted(set(request.options) - {option.name for option in OPTIONS})
    if unknown:
        raise CodeError(f"nondango has no option {quote(unknown[0])}; options: rule, white")
    variant = parse_variant(request.options.get("rule", OPTIONS[0].default), "option")
    white = request.options.get("white")
    if white is not None and (isinstance(white, bool) or not isinstance(white, int) or white < 0):
        raise CodeError(f"option white {quote(repr(white))} is not a whole number of circles")
    difficulty, offered = request.difficulty, grades_for(width, height, variant)
    if difficulty is not None and difficulty not in LADDER.grades:
        raise CodeError(f"difficulty {quote(difficulty)} is not one of {', '.join(LADDER.grades)}")
    if difficulty is not None and difficulty not in offered:
        raise CodeError(
            f"nondango at {width}x{height} under {variant.value} offers "
            f"{', '.join(offered)}, not {quote(difficulty)}"
        )
    if white == 0 and difficulty not in (None, EASY):
        raise CodeError(f"a board without white circles is {EASY!r}, never {difficulty!r}")
    grade = difficulty
    if grade is None and white is None and not dial:
        grade = pick_grade(seed, offered)
    return Settings(width, height, variant, white, grade)


def generate(request: Request, seed: int, deadline: Deadline) -> Generated[Nondango]:
    """A board proven unique and of the grade asked for (with none asked: of the grade the
    seed picks among those the size offers; with only `white` asked: the dial's board),
    the same for the same request and seed; `GenerationError` (with the health record)
    when none is proven before the deadline."""
    return _generate(settings_of(request, seed), seed, deadline)


def generate_dial(request: Request, seed: int, deadline: Deadline) -> Generated[Nondango]:
    """The design note's generator, for the study: every cell offered once and kept only
    if the board stays unique (up to `white` circles if asked), graded as it comes out."""
    return _generate(settings_of(request, seed, dial=True), seed, deadline)


def _generate(settings: Settings, seed: int, deadline: Deadline) -> Generated[Nondango]:
    health = Tally()
    dial = Dial()
    started = deadline.elapsed()
    rng = Rng(seed)
    try:
        while health.attempts < MAX_ATTEMPTS and not deadline.expired():
            health.attempts += 1
            fork = rng.fork(f"attempt {health.attempts}")
            built = _attempt(settings, fork, deadline, health, dial)
            if built is not None:
                puzzle, answer, difficulty = built
                spent = health.health((deadline.elapsed() - started) * 1000)
                metrics = _metrics(puzzle, answer, settings, difficulty, dial)
                made = Generated(
                    puzzle, answer, seed, difficulty.grade, metrics, spent, difficulty.score
                )
                return in_time(made, deadline)
    except OutOfTime:
        pass
    spent = health.health((deadline.elapsed() - started) * 1000)
    aimed = f"{settings.grade} " if settings.grade else ""
    raise GenerationError(
        f"no {aimed}{settings.width}x{settings.height} nondango board was proven unique "
        f"after {health.attempts} attempts",
        {**spent.as_dict(), **dataclasses.asdict(dial)},
    )


def _attempt(
    settings: Settings, rng: Rng, deadline: Deadline, health: Tally, dial: Dial
) -> tuple[Nondango, int, Difficulty] | None:
    """One set of regions and answer, steered to the grade (or offered every cell); None
    if it does not work out. Raises `OutOfTime` when the clock runs out."""
    steered = settings.grade is not None
    skeleton = draw_skeleton(
        settings.width,
        settings.height,
        settings.variant,
        rng.fork("regions"),
        pairs=steered,
        deadline=deadline,
    )
    if skeleton is None:
        health.contradiction += 1
        return None
    answer = skeleton.circles
    if not steered:
        puzzle = offer_circles(
            skeleton, answer, settings.white, rng.fork("offers"), deadline, health, dial
        )
    else:
        aim = Aim.of(str(settings.grade), settings.white)
        found = steer(skeleton, aim, rng.fork("steer"), deadline, dial)
        if found is None:
            health.off_grade += 1
            return None
        puzzle, answer = found
    if puzzle is None or not _proven(puzzle, answer, deadline, health):
        return None
    difficulty = grade_puzzle(LADDER, start, puzzle, deadline, answer)
    if deadline.expired():
        raise OutOfTime
    if settings.grade is not None and difficulty.grade != settings.grade:
        health.off_grade += 1  # the ladder disagrees with its fast path: a bug; never ship it
        return None
    return puzzle, answer, difficulty


def draw_regions(width: int, height: int, rng: Rng) -> list[list[int]]:
    """Connected regions of mostly two to `REGION_CAP` cells (about three on average, as
    on janko.at), flooded from random seeds; rows of region labels."""
    geo = geometry(width, height)
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


def draw_skeleton(
    width: int,
    height: int,
    variant: Variant,
    rng: Rng,
    pairs: bool = False,
    deadline: Deadline | None = None,
) -> Nondango | None:
    """Random regions with one circle each, all black, no three black in a row (None if
    the answer search gives up); the answer is the skeleton's circles. `pairs` leans the
    answer towards black circles two in a line (see `place_answer`)."""
    region_rows = draw_regions(width, height, rng)
    blank = make_puzzle(region_rows, [[0] * width for _ in range(height)], variant)
    answer = place_answer(blank, rng, pairs=pairs, deadline=deadline)
    if answer is None:
        return None
    return dataclasses.replace(blank, circles=answer)


def place_answer(
    puzzle: Nondango,
    rng: Rng,
    budget: int = 20_000,
    pairs: bool = False,
    deadline: Deadline | None = None,
) -> int | None:
    """One cell per region, chosen at random, with no three consecutive chosen cells in
    any line: a backtracking search that always fills the region with the fewest cells
    left, a cell being gone once it would complete a line (None after `budget` nodes).

    With `pairs`, a region tries first the cells on the most lines of three through a
    black circle already placed: two black circles in a line are what certifies a white
    circle (`theory`), so such answers hold more white circles and more knots of them,
    which the steering to `medium` and `hard` needs (on small boards about twice as often
    reached in one attempt)."""
    lines = theory.lines_through(puzzle.width, puzzle.height)
    order = []
    for cells in puzzle.region_cells():
        rng.shuffle(cells)
        order.append(cells)
    stack: list[tuple[int, int, frozenset[int]]] = [(0, 0, frozenset(range(len(order))))]
    nodes = 0
    while stack and nodes < budget:
        nodes += 1
        if deadline is not None and nodes % 64 == 0 and deadline.expired():
            raise OutOfTime()  # the clock only ends the call: the nodes counted decide
        chosen, banned, left = stack.pop()
        if not left:
            return chosen
        rid = min(left, key=lambda r: (sum(not banned >> c & 1 for c in order[r]), r))
        rest = left - {rid}
        open_cells = [c for c in order[rid] if not banned >> c & 1]
        if pairs:  # the stack pops the last first: most lines through a black last
            open_cells.sort(key=lambda c: sum(1 for line in lines[c] if line & chosen))
        else:
            open_cells.reverse()
        for cell in open_cells:
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
    dial: Dial,
) -> Nondango | None:
    """The dial: `puzzle` with white circles added, each kept only if the answer stays
    the only one; None if fewer than `white` circles could be kept."""
    cells = [cell for cell in range(puzzle.width * puzzle.height) if not answer >> cell & 1]
    rng.shuffle(cells)
    kept = 0
    for cell in cells:
        if white is not None and kept >= white:
            break
        verdict = judge_offer(puzzle, answer, cell, deadline, dial)
        if verdict == "kept":
            puzzle, kept = dataclasses.replace(puzzle, circles=puzzle.circles | 1 << cell), kept + 1
        elif verdict == "breaks":
            health.contradiction += 1
        elif verdict == "ambiguous":
            health.ambiguous += 1
        elif verdict == "over budget":
            health.timeout += 1
    if white is not None and kept < white:
        dial.too_few_white += 1
        return None
    return puzzle


def judge_offer(puzzle: Nondango, answer: int, cell: int, deadline: Deadline, dial: Dial) -> str:
    """'kept', 'breaks' (the white circle `cell` would make three white in a row),
    'uncertified' (no certificate: a second answer exists), 'ambiguous' (counted: a
    second answer exists) or 'over budget' (the count needed more than `COUNT_WORK`
    nodes). Raises `OutOfTime` when the clock runs out."""
    dial.offers += 1
    verdict = theory.judge_offer(puzzle, answer, cell)
    if verdict == "breaks":
        dial.breaks_answer += 1
        return verdict
    if verdict == "uncertified":
        dial.uncertified += 1
        return verdict
    trial = dataclasses.replace(puzzle, circles=puzzle.circles | 1 << cell)
    pos = Position(build_board(trial), deadline.within(work=COUNT_WORK))
    pos.paint(cell)
    found = has_completion(pos)
    if found is None:
        if deadline.expired():
            raise OutOfTime
        return "over budget"
    if found:
        return "ambiguous"
    dial.kept += 1
    return "kept"


def _proven(puzzle: Nondango, answer: int, deadline: Deadline, health: Tally) -> bool:
    """Count the finished board from scratch: exactly one answer, the intended one.
    Raises `OutOfTime` when the clock runs out."""
    outcome = solve.count(puzzle, 2, deadline.within(work=PROOF_WORK))
    if outcome.verdict is Verdict.TIMEOUT:
        if deadline.expired():
            raise OutOfTime
        health.timeout += 1
        return False
    if outcome.verdict is not Verdict.UNIQUE or outcome.solutions != (answer,):
        health.ambiguous += 1  # the offers are exact, so this is a bug; never ship it
        return False
    return True


def _metrics(
    puzzle: Nondango, answer: int, settings: Settings, difficulty: Difficulty, dial: Dial
) -> Mapping[str, Any]:
    board = build_board(puzzle)
    circles = puzzle.circles.bit_count()
    return {
        "rule": puzzle.variant.value,
        "aim": settings.grade,
        "rung": difficulty.rung,
        "steps": difficulty.steps,
        "hardest": difficulty.hardest,
        "tightest": difficulty.tightest,
        "regions": puzzle.region_count,
        "circles": circles,
        "white": circles - answer.bit_count(),
        "geometric_triples": len(board.triples),
        "live_black_triples": len(board.black_nogoods),
        "live_white_triples": len(board.white_nogoods),
        "certifying_lines": theory.certifying_lines(board, answer),
        **dataclasses.asdict(dial),
    }
