"""The Star Battle generator: stars first, regions grown around them, borders moved until
the board is unique.

1. place the stars row by row (a random placement per row that touches no star above and
   keeps every column within its count and able to finish);
2. grow one patch from each star over the grid at random, then join touching patches into
   regions of exactly `stars` stars each (a k=1 board keeps its patches);
3. count to 2; while a rival solution exists, hand one of its stars that ours does not
   have to a neighbouring region (the cell is starless in our solution, so our counts hold;
   the region it leaves stays connected), which the rival can no longer satisfy as it was;
4. prove the board unique with the complete counter and grade it with the ladder.

Every board returned was counted unique; a deadline that passes first raises
`GenerationError` with the health record, never an unproven board. Decisions depend on the
seed and counted work only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from itertools import combinations, pairwise
from typing import Any

from gridproof.core.contract import Generated, Option, Request, Tally, in_time, pick_grade
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.grid import Geometry, bits, geometry
from gridproof.core.ladder import cheapest_rung, rate
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.starbattle.model import StarBattle, default_stars, make_puzzle
from gridproof.genres.starbattle.position import start
from gridproof.genres.starbattle.rules import LADDER
from gridproof.genres.starbattle.solve import count

GENERATOR_VERSION = "starbattle/4"
"""starbattle/2: stars placed row by row, patches joined into regions by a budgeted
search, and the counter reading units' placements (its work per count changed).
starbattle/3: from 10x10 up, regions grown skewed around stars tied into groups
(`grow_skewed`). starbattle/4: the ladder solves in rounds (`core.ladder.run_rounds`):
the same boards, other scores."""
MIN_SIDE, MAX_SIDE = 5, 15
GRADES = tuple(grade for grade in LADDER.grades if grade != LADDER.beyond)
STAR_BUDGET = 200
"""Rows the star-placing walk may try before the candidate is drawn again."""
COUNT_WORK = 20000
"""Propagations one count of a candidate may spend before it is given up."""
MAX_MOVES = 200
"""Border moves one candidate may make while breaking rivals."""

OPTIONS = (
    Option(
        "stars",
        "stars in every row, column and region (default: 1 up to 9x9, 2 up to 13x13, 3 above)",
        int,
        (1, 2, 3),
        None,
        label="Stars",
        words=((1, "1 star (Queens)"), (2, "2 stars"), (3, "3 stars")),
    ),
)


def stars_for(width: int, options: Mapping[str, Any]) -> int:
    value = options.get("stars")
    return default_stars(width) if value is None else int(value)


def grades_at(width: int, height: int) -> tuple[str, ...]:
    """The grades `generate` delivers at a size with its default star count."""
    return grades_with(width, height, {})


def grades_with(width: int, height: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The grades `generate` delivers at a size and star count: with one star every grade a
    rung finishes; with two `medium` and `hard` up to `TWO_MEDIUM_UP_TO`, then `hard`; with
    three `hard` from `THREE_FROM` and `medium` too from `THREE_MEDIUM_FROM` (regions
    around several stars each rarely fall to the cheapest rung: 10x10 two-star easy found
    none in 30 s of CPU). A board needing search, `LADDER.beyond`, is never aimed at. Each
    grade offered with the default star count was made within a minute of CPU for seeds
    1-3 (generator starbattle/3, `benchmarks/generate.py --genre starbattle`): two-star
    `medium` and `hard` at 10x10 to 13x13 in 9.3 s at most, three-star at 14x14 in 1.0 s
    and at 15x15 in 12.2 s at most."""
    if width != height or width not in OFFERED_SIDES:
        return ()
    stars = stars_for(width, options)
    if stars == 1:
        return GRADES
    if (stars == 2 and width <= TWO_MEDIUM_UP_TO) or (stars == 3 and width >= THREE_MEDIUM_FROM):
        return ("medium", "hard")
    if stars == 2:
        return ("hard",)
    return ("hard",) if width >= THREE_FROM else ()


TWO_MEDIUM_UP_TO = 13
"""The largest side offered two-star `medium` (`benchmarks/newgame.py --every`: 15x15
two-star medium, an option, failed 7 of 8 seeds within 30 s; hard failed 1 of 8)."""
THREE_MEDIUM_FROM = 14
"""The smallest side offered three-star `medium`."""
THREE_FROM = 12
"""The smallest side offered three stars (11x11, where three fit with no room to spare,
found none in 40 s for seeds 1-3 either way regions were grown; 12x12 and 13x13 hard
within 6 s with even patches). Asked for directly, 11x11 is still attempted."""
OFFERED_SIDES = tuple(range(MIN_SIDE, MAX_SIDE + 1))
"""Every side from 5x5 to 15x15 (13x13 two-star and 15x15 three-star since starbattle/3)."""


def _fail(message: str) -> GenerationError:
    return GenerationError(message, Tally().health(0).as_dict())


def generate(request: Request, seed: int, deadline: Deadline) -> Generated[StarBattle]:
    """A Star Battle proven unique, of the asked difficulty if one is asked for; the same
    request and seed give the same board on every machine."""
    side = request.width
    if request.width != request.height or not MIN_SIDE <= side <= MAX_SIDE:
        raise _fail(
            f"size {request.width}x{request.height} is not square from {MIN_SIDE}x{MIN_SIDE} "
            f"to {MAX_SIDE}x{MAX_SIDE}"
        )
    stars = stars_for(side, request.options)
    if stars not in (1, 2, 3) or (4 * stars > side + 1 and stars > 1):
        raise _fail(f"{stars} stars do not fit a {side}x{side} board (2 need 7x7, 3 need 11x11)")
    offered = grades_with(side, side, {"stars": stars}) or ("hard",)
    wanted = request.difficulty or pick_grade(seed, offered)
    if wanted not in offered:
        raise _fail(
            f"difficulty {wanted!r} is not one the generator makes for {stars}-star "
            f"{side}x{side} boards: {', '.join(offered)}"
        )
    started = deadline.elapsed()
    rng = Rng(seed)
    tally = Tally()
    while not deadline.expired():
        tally.attempts += 1
        built = candidate(side, stars, rng.fork(f"candidate {tally.attempts}"), tally, deadline)
        if built is None:
            continue
        puzzle, solution = built
        rung, progress = cheapest_rung(LADDER, start, puzzle, deadline, solution)
        if progress.timed_out:
            tally.timeout += 1
            continue
        difficulty = rate(LADDER, rung, progress)
        if difficulty.grade != wanted:
            tally.off_grade += 1
            continue
        metrics = {"stars": stars, **difficulty.as_dict()}
        spent = tally.health((deadline.elapsed() - started) * 1000)
        made = Generated(puzzle, solution, seed, difficulty.grade, metrics, spent, difficulty.score)
        return in_time(made, deadline)
    raise GenerationError(
        f"no unique {side}x{side} {stars}-star {wanted} Star Battle proven within the deadline",
        tally.health((deadline.elapsed() - started) * 1000).as_dict(),
    )


def place_stars(side: int, stars: int, rng: Rng) -> int | None:
    """A random star grid with `stars` per row and column, none touching (None if the
    random walk runs past its budget; the caller draws again). Rows are placed top down as
    column masks; a column that needs d more stars in the R rows left (this one included)
    must take this row when 2d - 1 = R, and no placement may leave a column more than it
    can still fit."""
    choices = [
        sum(1 << c for c in cols)
        for cols in combinations(range(side), stars)
        if all(b - a > 1 for a, b in pairwise(cols))
    ]
    counts = [0] * side
    rows: list[int] = []
    budget = [STAR_BUDGET]

    def place(r: int, above: int) -> bool:
        if r == side:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        left = side - r
        blocked = above | (above << 1) | (above >> 1)
        forced = 0
        for c, n in enumerate(counts):
            need = stars - n
            if need <= 0:
                blocked |= 1 << c
            elif 2 * need - 1 == left:
                forced |= 1 << c
        if forced & blocked:
            return False
        order = [m for m in choices if not m & blocked and m & forced == forced]
        rng.shuffle(order)
        for mask in order:
            cols = list(bits(mask))
            for c in cols:
                counts[c] += 1
            fits = all(
                stars - n <= (left - 1 + (not mask >> c & 1)) // 2 for c, n in enumerate(counts)
            )
            if fits and place(r + 1, mask):
                rows.append(mask)
                return True
            for c in cols:
                counts[c] -= 1
        return False

    if not place(0, 0):
        return None
    rows.reverse()
    return sum(mask << (r * side) for r, mask in enumerate(rows))


def grow_patches(geo: Geometry, seeds: list[int], rng: Rng) -> list[int]:
    """Every cell's patch: patch k grown from `seeds[k]` by a random walk of its frontier,
    a free neighbour at a time, until the board is covered (connected patches)."""
    owner = [-1] * geo.size
    for patch, cell in enumerate(seeds):
        owner[cell] = patch
    return _grow(geo, owner, list(seeds), rng)


def _grow(
    geo: Geometry, owner: list[int], frontier: list[int], rng: Rng, pace: list[float] | None = None
) -> list[int]:
    """`owner` filled by a random walk of `frontier` (cells already owned): a frontier cell
    at random hands a free neighbour to its owner, until the board is covered. With `pace`
    (a weight per owner), a cell is taken only with its owner's weight against the fastest
    still growing (re-read after `MISSES` cells passed over in a row)."""
    top = max(pace) if pace else 0.0
    missed = 0
    while frontier:
        index = rng.below(len(frontier))
        cell = frontier[index]
        free = [n for n in bits(geo.neighbours[cell]) if owner[n] < 0]
        if not free:
            frontier[index] = frontier[-1]
            frontier.pop()
            continue
        if pace is not None:
            if rng.random() * top > pace[owner[cell]]:
                missed += 1
                if missed == MISSES:  # the fast owners are walled in: pace the rest anew
                    top = max(pace[owner[each]] for each in frontier)
                    missed = 0
                continue
            missed = 0
        grown = rng.choice(free)
        owner[grown] = owner[cell]
        frontier.append(grown)
    return owner


def grow_regions(side: int, stars: int, solution: int, rng: Rng) -> list[int] | None:
    """Region ids grown around the stars: a patch per star, then the patches partitioned
    into connected groups of `stars` patches each by a randomized backtracking search (the
    patch with the fewest free neighbours first; None past its budget)."""
    geo = geometry(side, side)
    seeds = list(bits(solution))
    owner = grow_patches(geo, seeds, rng)
    if stars == 1:
        return owner
    touching: list[set[int]] = [set() for _ in seeds]
    for cell in range(geo.size):
        for n in bits(geo.neighbours[cell]):
            if owner[n] != owner[cell]:
                touching[owner[cell]].add(owner[n])
    group = [-1] * len(seeds)
    budget = [JOIN_BUDGET]

    def groups_from(patch: int) -> list[tuple[int, ...]]:
        """Every connected set of `stars` free patches holding `patch`."""
        found: set[tuple[int, ...]] = set()

        def grow(chosen: frozenset[int]) -> None:
            if len(chosen) == stars:
                found.add(tuple(sorted(chosen)))
                return
            for each in sorted({n for c in chosen for n in touching[c]} - chosen):
                if group[each] < 0:
                    grow(chosen | {each})

        grow(frozenset((patch,)))
        return sorted(found)

    def join() -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        free = [p for p in range(len(seeds)) if group[p] < 0]
        if not free:
            return True
        patch = min(free, key=lambda p: sum(group[n] < 0 for n in touching[p]))
        options = groups_from(patch)
        rng.shuffle(options)
        for chosen in options:
            for each in chosen:
                group[each] = patch
            if join():
                return True
            for each in chosen:
                group[each] = -1
        return False

    if not join():
        return None
    return [group[owner[cell]] for cell in range(geo.size)]


def grow_skewed(side: int, stars: int, solution: int, rng: Rng) -> list[int] | None:
    """Region ids grown as setters draw large boards: a few small regions and some large
    ones. The stars are first tied into groups of `stars` (a random star, then the nearest
    free stars reached by a shortest path of free starless cells, which joins the group),
    then every group grows a free neighbour at a time, each at its own pace (a weight
    `u ** SKEW`, u uniform: most grow slowly, a few take most of the board). None when a
    group finds no partner within reach."""
    geo = geometry(side, side)
    owner = [-1] * geo.size
    left = list(bits(solution))
    rng.shuffle(left)
    free = set(left)
    groups = 0
    for star in left:
        if star not in free:
            continue
        free.discard(star)
        owner[star] = groups
        group = [star]
        tied = 1
        while tied < stars:
            # ties broken at random, drawn in cell order (never a set's iteration order)
            near = sorted(sorted(free), key=lambda t: (_apart(side, star, t), rng.random()))
            for other in near[:PARTNERS]:
                way = _free_path(geo, owner, group, other, solution)
                if way is not None:
                    for cell in (*way, other):
                        owner[cell] = groups
                    group += [*way, other]
                    tied += 1
                    free.discard(other)
                    break
            else:
                return None
        groups += 1
    pace = [rng.random() ** SKEW for _ in range(groups)]
    frontier = [cell for cell in range(geo.size) if owner[cell] >= 0]
    return _grow(geo, owner, frontier, rng, pace)


SKEWED_FROM = 10
"""From this side up (and with room beside the stars: a side of at least 4k + 2, so
three-star boards from 14x14), regions are grown by `grow_skewed`, as janko's large boards
are drawn (a 13x13 two-star there: twelve regions of 5 cells and one of 109). With patches
grown evenly and joined, every 13x13 two-star candidate of seeds 0-9 had 3,000 solutions
or more, and border moves one rival at a time never broke them all within a minute (13x13
two-star and 15x15 three-star were not offered); grown skewed, most had tens to hundreds.
Smaller boards keep the even patches (their grades were measured with them)."""
SKEW = 12
"""A group's pace is u ** SKEW, u uniform in [0, 1). On 13x13 two-star candidates (seeds
0-9, counted to 3,000) 0, 1 and 2 left nearly all at 3,000 solutions or more, 4 half of
them, 8 and 16 most at tens to hundreds; 12 lies between those two."""
PARTNERS = 4
"""The nearest free stars `grow_skewed` tries to reach from a group, nearest first."""
MISSES = 64
"""Cells `_grow` passes over in a row before it paces the groups still growing by
the fastest of them (so the slow ones finish once the fast ones are walled in)."""


def _apart(side: int, a: int, b: int) -> int:
    return abs(a // side - b // side) + abs(a % side - b % side)


def _free_path(
    geo: Geometry, owner: list[int], group: list[int], goal: int, stars: int
) -> list[int] | None:
    """The cells of a shortest path from `group` to `goal` over cells no group owns and
    no star holds (ends excluded), None when there is none."""
    back: dict[int, int] = dict.fromkeys(group, -1)
    queue = deque(group)
    while queue:
        cell = queue.popleft()
        for n in bits(geo.neighbours[cell]):
            if n in back:
                continue
            if n == goal:
                way = []
                while back.get(cell, -1) != -1:
                    way.append(cell)
                    cell = back[cell]
                return way
            if owner[n] >= 0 or stars >> n & 1:
                continue
            back[n] = cell
            queue.append(n)
    return None


JOIN_BUDGET = 2000
"""Steps the patch-joining search may take before the candidate is drawn again."""


def candidate(
    side: int, stars: int, rng: Rng, tally: Tally, deadline: Deadline
) -> tuple[StarBattle, int] | None:
    """One board and its solution once the counter proved it unique; None (the reason
    counted in `tally`) otherwise."""
    solution = place_stars(side, stars, rng)
    if solution is None:
        tally.contradiction += 1
        return None
    grow = grow_skewed if side >= max(SKEWED_FROM, 4 * stars + 2) else grow_regions
    labels = grow(side, stars, solution, rng)
    if labels is None:
        tally.contradiction += 1
        return None
    geo = geometry(side, side)
    for _ in range(MAX_MOVES):
        if deadline.expired():
            tally.timeout += 1
            return None
        puzzle = make_puzzle([labels[r * side : (r + 1) * side] for r in range(side)], stars)
        outcome = count(puzzle, 2, deadline.within(work=COUNT_WORK))
        if outcome.verdict is Verdict.UNIQUE and outcome.solutions == (solution,):
            return puzzle, solution
        if outcome.verdict is not Verdict.MULTIPLE:
            tally.timeout += outcome.verdict is Verdict.TIMEOUT
            tally.contradiction += outcome.verdict is Verdict.NONE
            return None
        rival = next(s for s in outcome.solutions if s != solution)
        if not _move_border(geo, labels, rival & ~solution, rng):
            break
    tally.ambiguous += 1
    return None


def _move_border(geo: Geometry, labels: list[int], cells: int, rng: Rng) -> bool:
    """Hand one of `cells` to a neighbouring region, keeping the region it leaves
    connected; False if none of them can move."""
    options = list(bits(cells))
    rng.shuffle(options)
    for cell in options:
        home = labels[cell]
        rest = sum(1 << c for c in range(geo.size) if labels[c] == home) & ~(1 << cell)
        if not rest or not geo.connected(rest):
            continue
        others = sorted({labels[n] for n in bits(geo.neighbours[cell]) if labels[n] != home})
        if others:
            labels[cell] = rng.choice(others)
            return True
    return False


def quick_with(width: int, height: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The grades the player offers at a size (`benchmarks/newgame.py --genre starbattle
    --every`, 8 cold seeds, p95 within `NEW_GAME_S`): every grade up to 10x10; at 15x15
    every grade with one star (p95 0.4 / 6.2 / 2.0 s) and `hard` with three (9.3 s), not
    two (hard 29.7 s, medium 7 of 8 seeds failed in 30 s) nor three-star `medium` (2 of 8
    failed). Other sides are not measured (the player offers 5, 7, 10 and 15)."""
    side = max(width, height)
    if side <= 10:
        return GRADES
    if side == 15:
        stars = stars_for(side, options)
        return GRADES if stars == 1 else ("hard",) if stars == 3 else ()
    return ()
