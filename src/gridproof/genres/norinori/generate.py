"""The Norinori generator: a unique board built (`build`), then steered to its grade
(`steer`), by construction rather than by drawing until lucky.

Each attempt builds a board proven unique, finds where it stands against the grade aimed
at (the one asked for, or with none asked `pick_grade` of the seed), and climbs towards
it: `ease` when a harder rung is needed than the grade's, `harden` when a cheaper rung
already finishes it. The board returned is proven unique again by the complete counter
and graded by the ladder: `core.ladder.rate` on the progress of the cheapest rung that
finishes it, as `core.ladder.grade_puzzle` would grade it.

Determinism: every budget that decides anything is counted in the counter's closes
(`COUNT_WORK` per cell for each count) or in steps and moves; the wall-clock deadline only
ends the call (`in_time`), so a seed gives the same board on every machine at any load.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridproof.core.contract import Generated, Request, Tally, in_time, pick_grade
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.ladder import Difficulty, rate
from gridproof.core.rng import Rng
from gridproof.genres.norinori.build import build_candidate, prove
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.rules import LADDER
from gridproof.genres.norinori.steer import ease, harden, solve

GENERATOR_VERSION = "norinori/10"
"""What a seed's board depends on besides the request: bump it when a seed's board or its
score changes (norinori/7: the ladder solves in rounds, `core.ladder.run_rounds`: the
same boards, other scores; norinori/8: the counter branches where its probes decided
most, `solve.NorinoriSpace.reach`, so counts spend other work; norinori/9: an easing
climb that stalls near the top goes back once, `steer.RETRY_FROM`; norinori/10: a probe
reuses what a way closed to last time, `solve.NorinoriSpace.way_closed`, so a count
spends fewer closes of its budget)."""
MIN_SIDE, MAX_SIDE = 4, 55
"""The sides generated: up to the largest at which a board of any grade mostly comes
within a minute of CPU (`benchmarks/generate.py --genre norinori --sizes 55 --boards 12`,
norinori/9, 2026-12-05, beside other runs, median / max s: 55×55 easy 20.0 / 82.0, the
one seed past a minute, the next 31.9; medium 17.9 / 34.5; hard 3.6 / 18.8). At 60×60
medium and hard keep within it too (norinori/8, seeds 1-12: at most 49 and 8 s), but 3
of 12 easy seeds took 63-93 s: easy climbs stall near the top more often there (10 of
16 for seeds 1-6), and a climb that stalls twice costs a new candidate."""
COUNT_WORK = 100
"""Closes per cell one count may spend before its candidate is given up: about ten times
the most a count of a walk took on boards up to 30×30."""
WALK_MOVES = 2
"""Moves of the rival walk per cell of the board's perimeter before a candidate is given
up as ambiguous."""
EASE_STEPS = 0.5
"""Moves per cell an easing climb may take before it is given up."""
HARDEN_STEPS = 0.5
"""Moves per cell a hardening climb may take before it is given up."""
MIN_STEPS = 40
"""Moves any climb may take, however small the board."""
LEGS = 3
"""Climbs one attempt may make (an easing climb can overshoot below a middle grade)."""
GRADES = tuple(dict.fromkeys(rung.grade for rung in LADDER.rungs))
"""The grades of boards some rung finishes: what the generator can steer to."""


def grades_at(width: int, height: int) -> tuple[str, ...]:
    """The grades `generate` delivers at `width` × `height`: every grade a rung of the
    ladder finishes, at every size. `LADDER.beyond` (a board that `probe` cannot finish)
    is a grade the solver can give a pasted board, but the generator never aims at it:
    it would be a board that needs search, which no climb here steers to."""
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        return ()
    return GRADES


QUICK_SIDE = 30
"""The largest side at which a New game from an empty bank gets a board within
`core.contract.NEW_GAME_S` (see `quick_with`)."""


def quick_with(width: int, height: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The grades the player offers at a size: every grade up to `QUICK_SIDE`, none above.
    A New game from an empty bank at 30×30 (`benchmarks/newgame.py --genre norinori
    --every --sizes 30 --tries 40`, norinori/10, 2026-12-05, CPU s, median / p95 / max):
    easy 0.5 / 3.1 / 4.6, medium 1.2 / 2.0 / 2.8, hard 0.5 / 3.2 / 5.7 (norinori/9: 0.5 /
    3.2 / 4.9, 1.2 / 2.2 / 2.8, 0.5 / 3.4 / 5.9)."""
    return GRADES if max(width, height) <= QUICK_SIDE else ()


def standing(
    puzzle: Norinori, rung: str, deadline: Deadline, solution: int | None = None
) -> tuple[int, Difficulty | None]:
    """Where the board stands against the grade of `rung`: -1 if a cheaper rung finishes
    it, 0 if `rung` is the cheapest that does, 1 if `rung` does not; with 0, the board's
    difficulty, rated on the progress of that rung (what `grade_puzzle` would find, without
    running the slowest rung twice). `solution`, one of the board's, spares the probe
    rung the trials it bears out (the same steps)."""
    names = LADDER.names
    for name in names[: names.index(rung) + 1]:
        progress = solve(puzzle, name, deadline, solution=solution)
        if progress.complete:
            return (0, rate(LADDER, name, progress)) if name == rung else (-1, None)
    return 1, None


def attempt(
    width: int, height: int, target: str, rng: Rng, tally: Tally, deadline: Deadline
) -> tuple[Norinori, int, int, Difficulty] | None:
    """One candidate built and steered to `target`: (puzzle, solution, walk moves, its
    difficulty), or None with the reason counted in `tally`."""
    cells = width * height
    work = COUNT_WORK * cells
    index = tally.attempts
    built = build_candidate(
        width,
        height,
        rng.fork(f"candidate {index}"),
        tally,
        deadline,
        work,
        WALK_MOVES * (width + height),
    )
    if built is None:
        return None
    puzzle, solution, moves = built
    rung = LADDER.rung_for(target)
    assert rung is not None, f"{target} is not a grade a rung finishes"
    steering = rng.fork(f"steer {index}")
    (side, difficulty), legs = standing(puzzle, rung, deadline, solution), 0
    while side:
        if legs == LEGS:
            tally.off_grade += 1
            return None
        legs += 1
        climb, per_cell = (ease, EASE_STEPS) if side > 0 else (harden, HARDEN_STEPS)
        steps = max(MIN_STEPS, int(per_cell * cells))
        steered = climb(puzzle, solution, rung, steering, deadline, work, steps)
        if steered is None:
            tally.off_grade += 1
            return None
        puzzle, solution = steered
        side, difficulty = standing(puzzle, rung, deadline, solution)
    if legs and not prove(puzzle, solution, tally, deadline.within(work=work)):
        return None
    assert difficulty is not None  # `standing` rates the board once it is on grade
    return puzzle, solution, moves, difficulty


def generate(request: Request, seed: int, deadline: Deadline) -> Generated[Norinori]:
    """A Norinori proven unique, of the asked grade, or with none asked of the grade
    `pick_grade` draws from the seed among those offered at the size.

    The same request and seed give the same board on every machine, under any deadline
    long enough to reach it. Raises `GenerationError` with the health record when the
    deadline passes first, `CodeError` for a size or grade it lacks.
    """
    width, height = request.width, request.height
    offered = grades_at(width, height)
    if not offered:
        raise CodeError(
            f"size {width}x{height} is outside {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}"
        )
    if request.difficulty is not None and request.difficulty not in offered:
        raise CodeError(
            f"difficulty {request.difficulty!r} is not offered at {width}x{height}; "
            f"it has {', '.join(offered)}"
        )
    target = request.difficulty or pick_grade(seed, offered)
    started = deadline.elapsed()
    rng = Rng(seed)
    tally = Tally()
    while not deadline.expired():
        tally.attempts += 1
        made = attempt(width, height, target, rng, tally, deadline)
        if made is None:
            continue
        puzzle, solution, moves, difficulty = made
        metrics = {
            "rung": difficulty.rung,
            "steps": difficulty.steps,
            "hardest": difficulty.hardest,
            "tightest": difficulty.tightest,
            "walk_moves": moves,
            "regions": puzzle.region_count,
            "shaded": solution.bit_count(),
        }
        spent = tally.health((deadline.elapsed() - started) * 1000)
        made_board = Generated(
            puzzle, solution, seed, difficulty.grade, metrics, spent, difficulty.score
        )
        return in_time(made_board, deadline)
    raise GenerationError(
        f"no unique {width}x{height} Norinori proven within the deadline",
        tally.health((deadline.elapsed() - started) * 1000).as_dict(),
    )
