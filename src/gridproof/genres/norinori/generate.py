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

GENERATOR_VERSION = "norinori/9"
"""What a seed's board depends on besides the request: bump it when a seed's board or its
score changes (norinori/7: the ladder solves in rounds, `core.ladder.run_rounds`: the
same boards, other scores; norinori/8: the counter branches where its probes decided
most, `solve.NorinoriSpace.reach`, so counts spend other work; norinori/9: an easing
climb that stalls near the top goes back once, `steer.RETRY_FROM`)."""
MIN_SIDE, MAX_SIDE = 4, 50
"""The sides generated: at 50×50 most seeds give a board within a minute (CPU s, grade
drawn from the seed, 2026-12-03 on the shared 2-core machine under load; generator
norinori/4: 40×40 seeds 1-3 1.1 / 3.2 / 1.7, 50×50 seeds 1-4 5.8 / 7.7 / 157.6 (14
attempts) / 18.5; norinori/5: 45×45 seeds 1-4 11.5 / 15.7 / 51.5 / 48.4, 50×50 seeds 1-4
5.5 / 7.5 / 104.8 (12 attempts) / 19.3; 2026-12-04, side by side, norinori/5 then /6:
45×45 12.7 / 19.8 / 66.0 / 60.3 and 61.8 / 20.6 / 82.2 / 14.0, 50×50 7.0 / 10.3 / 142.6 /
27.6 and 8.1 / 8.5 / 26.1 / 21.5; norinori/7 then /8, one after the other beside a test
run: 45×45 49.8 / 17.4 / 68.2 / 12.0 and 11.9 / 20.5 / 54.1 / 8.9, 50×50 6.0 / 7.7 / 21.5 /
19.2 and 6.1 / 12.7 / 84.3 / 23.7; 2026-12-04 on a quiet machine, norinori/8 before and
after the easing climb scored only moves of open cells (`steer.CHEAPEST`; the same
boards): 45×45 8.6 / 14.6 / 35.4 / 5.6 and 5.8 / 8.3 / 21.7 / 4.1, 50×50 4.1 / 8.2 / 61.1 /
18.2 and 2.2 / 6.2 / 37.3 / 12.2; 50×50 medium and hard, seeds 1-2, 12.0 / 1.5 / 39.9 /
7.3; later, with verdicts shared across a climb's layouts and a probe re-running only the
trials a change can reach, `benchmarks/generate.py --sizes 45,50 --boards 4`, median / max
by grade: 45×45 easy 6.9 / 19.5, medium 10.1 / 15.3, hard 2.9 / 7.0; 50×50 easy 8.0 /
31.6, medium 11.5 / 18.0, hard 2.8 / 3.8; 60×60 seeds 1-3, two at once: easy 40.9 / 28.1
/ 80.5, medium 58.6 / 43.0 / 93.0, hard 4.9 / 5.0: not yet within a minute; 2026-12-05,
with the easing climb's closes seeded, the bulk close's region pass leaner and AC-3's
revisions read back, the same boards: 45×45 easy 4.8 / 13.2, medium 8.2 / 9.7, hard 2.6 /
5.9; 50×50 easy 5.4 / 21.8, medium 7.8 / 12.8, hard 2.5 / 3.4; 60×60 seeds 1-3, two at
once: easy 21.7 / 14.5 / 43.5, medium 33.0 / 19.5 / 49.0: within a minute for these
seeds, too few to lift the cap on)."""
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
    Measured by `benchmarks/newgame.py` (a New game from an empty bank, CPU s, median /
    p95, 3 to 5 seeds each, 2026-12-02): at most 0.2 / 1.6 up to 10×10; 15×15 0.2-0.8 /
    0.3-1.4; 20×20 0.6-1.1 / 0.7-1.2; 25×25 easy 1.0 / 2.8, medium 3.1 / 4.9, hard
    1.0 / 1.3. At 30×30 (norinori/8, 40 seeds, 2026-12-04, `--sizes 30 --tries 40`): easy
    0.8 / 4.4 (max 5.9), medium 3.4 / 6.7 (max 7.5), hard 0.6 / 5.4 (max 11.7) since a
    candidate is graded knowing its solution (`standing`; 1.0 / 11.0, max 24.3, before);
    later that day, with verdicts shared across a climb's layouts and a probe re-running
    only the trials a change can reach (the same boards): easy 0.7 / 4.2 (max 5.5),
    medium 1.6 / 3.0 (max 4.0), hard 0.6 / 3.4 (max 6.4); 2026-12-05, with the easing
    climb's closes seeded and AC-3's revisions read back (the same boards): easy 0.5 /
    2.7 (max 4.2), medium 1.1 / 1.9 (max 2.8), hard 0.5 / 3.2 (max 5.8)."""
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
