"""The Norinori generator: shading first, regions around it, rivals walked away.

There are no clues to remove: the partition is the puzzle. So the generator builds
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
   two in each. Each round takes one rival from every part of the board that propagation
   leaves open (`solve.rivals`), so a big board fixes its far-apart ambiguities together.
   When no move can break a rival (it differs from the solution inside a pocket of one
   region), the rival becomes the solution and the old solution is walked away instead.
   The board is returned only once the complete counter proves it unique;
4. for an asked difficulty easier than the board came out, climb: move single empty
   cells between regions while the cheaper rung decides more, until it decides every
   cell (which makes the board unique; the counter proves it again).

Every board returned was counted unique by the complete counter under the deadline; a
timeout rejects the candidate. Glossary: `labels[cell]` is a region label while building,
`solution` the intended shading mask.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from gridproof.core.contract import Generated, Request, Tally
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.grid import Geometry, bits
from gridproof.core.ladder import Progress, cheapest_rung
from gridproof.core.ladder import solve as solve_rung
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.genres.norinori.model import Norinori, make_puzzle
from gridproof.genres.norinori.position import region_masks, start
from gridproof.genres.norinori.rules import LADDER, close_marks
from gridproof.genres.norinori.solve import count, rivals

GENERATOR_VERSION = "norinori/2"
CHEAPEST = LADDER.names[0]
"""The rung `close_marks` computes in bulk, which the climb can score every move with."""
CLIMB_TO = {
    grade: rung
    for grade in LADDER.grades
    if (rung := LADDER.rung_for(grade)) is not None and rung != LADDER.top
}
"""The grades a harder board can be steered down to, and the rung that must complete it."""
MIN_SIDE, MAX_SIDE = 4, 30
CROSSING_RATE = 0.35
"""How often a domino is offered a partner domino to share two regions with."""
REFILL_ROUNDS = 16
"""Remove-one-and-refill rounds per cell: about 49% shaded up to 10×10, 45% at 20×20."""
COUNT_BUDGET = 5.0
"""Seconds one count of one candidate may take before the candidate is rejected."""
STEER_STEPS = 0.5
"""Moves per cell a board may take towards an easier grade before it is given up."""
STEER_SAMPLE = 32
"""Moves tried before each step of a climb by a rung slower than `local`."""
TWO_MOVES = 48
"""First and second moves tried when no single move helps `local` (so up to its square)."""


@dataclass(frozen=True, slots=True)
class Grading:
    difficulty: str
    metrics: dict[str, int]


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

    def refill(dominoes: list[tuple[int, int]], shaded: int, area: int) -> int:
        blocked = shaded | geo.spread(shaded)
        order = [edge for cell in bits(area) for edge in starting[cell]]
        rng.shuffle(order)
        for a, b in order:
            if not (blocked >> a & 1 or blocked >> b & 1):
                dominoes.append((a, b))
                piece = (1 << a) | (1 << b)
                shaded |= piece
                blocked |= piece | geo.spread(piece)
        return shaded

    best: list[tuple[int, int]] = []
    best_shaded = refill(best, 0, geo.full)
    for _ in range(rounds):
        trimmed = list(best)
        a, b = trimmed.pop(rng.below(len(trimmed)))
        piece = (1 << a) | (1 << b)
        hole = piece | geo.spread(piece)
        hole |= geo.spread(hole)
        shaded = refill(trimmed, best_shaded & ~piece, hole)
        if len(trimmed) >= len(best):
            best, best_shaded = trimmed, shaded
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
    """Give every unlabelled cell to a neighbouring region, smallest region first."""
    labels = list(labels)
    sizes = Counter(label for label in labels if label >= 0)
    while True:
        frontier = []
        for cell, label in enumerate(labels):
            if label < 0:
                around = [labels[n] for n in bits(geo.neighbours[cell]) if labels[n] >= 0]
                if around:
                    frontier.append((min(sizes[x] for x in around), cell, around))
        if not frontier:
            return labels
        smallest = min(size for size, _, _ in frontier)
        choices = [(cell, around) for size, cell, around in frontier if size == smallest]
        cell, around = choices[rng.below(len(choices))]
        best = min(sizes[x] for x in around)
        options = sorted({x for x in around if sizes[x] == best})
        label = options[rng.below(len(options))]
        labels[cell] = label
        sizes[label] += 1


def _rows(geo: Geometry, labels: list[int]) -> list[list[int]]:
    w = geo.width
    return [labels[r * w : (r + 1) * w] for r in range(geo.height)]


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
        for path in _paths_out(geo, labels, areas[old] & ~solution, cell):
            moving = 0
            for step in path:
                moving |= 1 << step
            rest = areas[old] & ~moving
            if not rest or not _connected(geo, rest):
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


def _paths_out(geo: Geometry, labels: list[int], free: int, start: int) -> list[list[int]]:
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


def _connected(geo: Geometry, area: int) -> bool:
    seen = area & -area
    while True:
        grown = (seen | geo.spread(seen)) & area
        if grown == seen:
            return seen == area
        seen = grown


def grade(puzzle: Norinori, deadline: Deadline) -> Grading:
    """The cheapest rung that solves the puzzle alone, and its events counted by rule."""
    rung, progress = cheapest_rung(LADDER, start, puzzle, deadline)
    return Grading(LADDER.grade(rung), dict(Counter(step.rule for step in progress.steps)))


def solve(puzzle: Norinori, rung: str, deadline: Deadline) -> Progress:
    """How far `rung` of the ladder gets alone on `puzzle`."""
    return solve_rung(LADDER, start, puzzle, rung, deadline)


def steer(
    puzzle: Norinori, solution: int, rung: str, rng: Rng, deadline: Deadline, steps: int
) -> tuple[Norinori, int] | None:
    """A board that `rung` alone completes, and its solution, reached from `puzzle` by
    moving one cell the solution leaves empty at a time into a neighbouring region. The
    solution stays a solution, and a board that sound deductions complete has no other,
    so the boards on the way need not be unique. Each step takes the first move, in a
    random order, after which `rung` decides more (among every move for `local`, which is
    cheap in bulk; among `STEER_SAMPLE` of them for the slower rungs). When no move
    gains, the board is often ambiguous somewhere that `rung` cannot see into: a round of
    the rival walk breaks that, and the climb goes on. On a unique board `local` gets one
    more chance: pairs of moves around the cells it leaves open. None if that fails too."""
    geo = Geometry(puzzle.width, puzzle.height)
    labels = list(puzzle.regions)
    score = _decided(geo, labels, rung, deadline)
    visited = {tuple(labels)}
    for _ in range(steps):
        if score == geo.size or deadline.expired():
            break
        moves = _moves(geo, labels, solution, rng)
        if rung != CHEAPEST:
            moves = moves[:STEER_SAMPLE]
        best, best_score = labels, score
        for moved in moves:
            decided = _decided(geo, moved, rung, deadline)
            if decided > best_score:
                best, best_score = moved, decided
                break
        if best is labels:
            board = make_puzzle(_rows(geo, labels))
            found = rivals(board, solution, deadline.within(COUNT_BUDGET))
            if found:
                walked = walk_round(geo, labels, solution, found, rng, visited)
                if walked is None:
                    return None
                labels, solution, _ = walked
                score = _decided(geo, labels, rung, deadline)
                continue
            if found is None or rung != CHEAPEST:
                return None
            best, best_score = _two_moves(geo, labels, solution, score, rng, deadline)
            if best is labels:
                return None
        labels, score = best, best_score
        visited.add(tuple(labels))
    if score < geo.size:
        return None
    return make_puzzle(_rows(geo, labels)), solution


def _decided(geo: Geometry, labels: list[int], rung: str, deadline: Deadline) -> int:
    """How many cells `rung` alone decides on the board `labels` describes."""
    if rung == CHEAPEST:
        closed = _local_marks(geo, labels)
        return -1 if closed is None else (closed[0] | closed[1]).bit_count()
    progress = solve(make_puzzle(_rows(geo, labels)), rung, deadline)
    return -1 if progress.contradiction else (progress.shaded | progress.empty).bit_count()


def _local_marks(geo: Geometry, labels: list[int]) -> tuple[int, int] | None:
    """What the `local` rules decide on the board `labels` describes, from nothing."""
    return close_marks(geo, labels, region_masks(labels), 0, 0, geo.full)


def _two_moves(
    geo: Geometry, labels: list[int], solution: int, score: int, rng: Rng, deadline: Deadline
) -> tuple[list[int], int]:
    """A labelling two moves away on which `local` decides more than `score` (else
    `labels`): both move cells in or next to the part of the board `local` leaves open,
    and at most `TWO_MOVES` of each are tried."""
    closed = _local_marks(geo, labels)
    open_cells = geo.full & ~(closed[0] | closed[1]) if closed else geo.full
    near = open_cells | geo.spread(open_cells)
    for first in _moves(geo, labels, solution, rng, near)[:TWO_MOVES]:
        if deadline.expired():
            break
        for second in _moves(geo, first, solution, rng, near)[:TWO_MOVES]:
            decided = _decided(geo, second, CHEAPEST, deadline)
            if decided > score:
                return second, decided
    return labels, score


def _moves(
    geo: Geometry, labels: list[int], solution: int, rng: Rng, near: int = -1
) -> list[list[int]]:
    """Every labelling with one cell of `near` that the solution leaves empty moved into
    a neighbouring region, every region kept connected, in random order."""
    areas = region_masks(labels)
    out = []
    for cell in bits(geo.full & near & ~solution):
        old = labels[cell]
        rest = areas[old] & ~(1 << cell)
        news = sorted({labels[n] for n in bits(geo.neighbours[cell])} - {old})
        if not news or not rest or not _connected(geo, rest):
            continue
        for new in news:
            moved = list(labels)
            moved[cell] = new
            out.append(moved)
    rng.shuffle(out)
    return out


def build_candidate(
    width: int, height: int, rng: Rng, health: Tally, deadline: Deadline, max_moves: int
) -> tuple[Norinori, int, int] | None:
    """One candidate: shading, regions, walk. Returns (puzzle, solution, moves) once it is
    proven unique; None (with the reason counted in `health`) otherwise."""
    geo = Geometry(width, height)
    dominoes = induced_matching(geo, rng, rounds=REFILL_ROUNDS * geo.size)
    solution = 0
    for a, b in dominoes:
        solution |= (1 << a) | (1 << b)
    labels = grow_regions(geo, seed_regions(geo, dominoes, rng, CROSSING_RATE), rng)
    moves, visited = 0, {tuple(labels)}
    while moves <= max_moves:
        puzzle = make_puzzle(_rows(geo, labels))
        found = rivals(puzzle, solution, deadline.within(COUNT_BUDGET))
        if found is None:
            health.timeout += 1
            return None
        if not found:
            return _proven(puzzle, solution, moves, health, deadline)
        walked = walk_round(geo, labels, solution, found, rng, visited)
        if walked is None:
            break
        labels, solution, made = walked
        moves += made
    health.ambiguous += 1
    return None


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
    for index, rival in enumerate(found):
        if not _solves(labels, rival):
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


def _proven(
    puzzle: Norinori, solution: int, moves: int, health: Tally, deadline: Deadline
) -> tuple[Norinori, int, int] | None:
    """The candidate, once the complete counter has proven it unique (the proof every
    returned board gets, whatever found it first)."""
    outcome = count(puzzle, 2, deadline.within(COUNT_BUDGET))
    if outcome.verdict is Verdict.UNIQUE and outcome.solutions == (solution,):
        return puzzle, solution, moves
    if outcome.verdict is Verdict.TIMEOUT:
        health.timeout += 1
    elif outcome.verdict is Verdict.NONE:  # impossible by construction; counted, not hidden
        health.contradiction += 1
    else:
        health.ambiguous += 1
    return None


def _solves(labels: list[int], shading: int) -> bool:
    """Whether `shading` puts exactly two shaded cells in every region of `labels` (its
    dominoes do not depend on the regions)."""
    counts: Counter[int] = Counter(labels[cell] for cell in bits(shading))
    return len(counts) == len(set(labels)) and set(counts.values()) == {2}


def generate(request: Request, seed: int, deadline: Deadline) -> Generated[Norinori]:
    """A Norinori proven unique, of the asked difficulty if one is asked for.

    The same request and seed give the same board on every machine (unless a count runs
    out of time, which the health record then shows). Raises `GenerationError` with the
    health record when the deadline passes first, `CodeError` for a size or grade it lacks.
    """
    width, height = request.width, request.height
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise CodeError(
            f"size {width}x{height} is outside {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}"
        )
    if request.difficulty not in (None, *LADDER.grades):
        raise CodeError(
            f"difficulty {request.difficulty!r} is not one of {', '.join(LADDER.grades)}"
        )
    started = deadline.elapsed()
    rng = Rng(seed)
    health = Tally()
    max_moves = 2 * (width + height)
    while not deadline.expired():
        health.attempts += 1
        built = build_candidate(
            width, height, rng.fork(f"candidate {health.attempts}"), health, deadline, max_moves
        )
        if built is None:
            continue
        puzzle, solution, moves = built
        wanted = request.difficulty
        rung = CLIMB_TO.get(wanted or "")
        geo = Geometry(width, height)
        if rung and _decided(geo, list(puzzle.regions), rung, deadline) < geo.size:
            # harder than asked (found without grading on the slower rungs first): climb
            steered = steer(
                puzzle,
                solution,
                rung,
                rng.fork(f"steer {health.attempts}"),
                deadline,
                max(40, int(STEER_STEPS * width * height)),
            )
            if steered is None:
                health.off_grade += 1
                continue
            if not _proven(*steered, moves, health, deadline):
                continue
            puzzle, solution = steered
        grading = grade(puzzle, deadline)
        if wanted is not None and grading.difficulty != wanted:
            health.off_grade += 1
            continue
        metrics = {
            **grading.metrics,
            "walk_moves": moves,
            "regions": puzzle.region_count,
            "shaded": solution.bit_count(),
        }
        spent = health.health((deadline.elapsed() - started) * 1000)
        return Generated(puzzle, solution, seed, grading.difficulty, metrics, spent)
    raise GenerationError(
        f"no unique {width}x{height} Norinori proven within the deadline",
        health.health((deadline.elapsed() - started) * 1000).as_dict(),
    )
