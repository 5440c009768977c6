"""The Lights generator: a shading, every other cell a digit, then digits taken away.

1. draw a random shading, and clear every shaded cell that no unshaded cell touches (no
   digit could see it);
2. put the digit that counts its shaded neighbours in every unshaded cell: the shading
   is then the only solution (every digit's free neighbours are all shaded);
3. take digits away in a random order while the board stays unique (for an easier grade
   asked for: while the rung of that grade still finishes it). A count that spends its
   work budget keeps the digit, a reason to stop that every machine shares;
4. prove the board unique with the complete counter and grade it with the ladder.

Every board returned was counted unique; a deadline that passes first raises
`GenerationError` with the health record, never an unproven board.
"""

from __future__ import annotations

from gridproof.core.contract import Generated, Request, Tally
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.grid import Geometry, bits
from gridproof.core.ladder import cheapest_rung, rate, solve
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from tests.toygenre.model import Lights
from tests.toygenre.position import start
from tests.toygenre.rules import LADDER
from tests.toygenre.solve import count

GENERATOR_VERSION = "lights/1"
MIN_SIDE, MAX_SIDE = 3, 8
DENSITY = 0.35
"""The chance that a cell of the drawn shading is shaded."""
COUNT_WORK = 2000
"""Propagations one count of a trial board may spend before the digit is kept."""


def generate(request: Request, seed: int, deadline: Deadline) -> Generated[Lights]:
    """A Lights proven unique, of the asked difficulty if one is asked for; the same
    request and seed give the same board on every machine."""
    width, height = request.width, request.height
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise GenerationError(
            f"size {width}x{height} is outside {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}",
            Tally().health(0).as_dict(),
        )
    if request.difficulty not in (None, *LADDER.grades):
        raise GenerationError(
            f"difficulty {request.difficulty!r} is not one of {', '.join(LADDER.grades)}",
            Tally().health(0).as_dict(),
        )
    started = deadline.elapsed()
    rng = Rng(seed)
    tally = Tally()
    while not deadline.expired():
        tally.attempts += 1
        built = candidate(
            width,
            height,
            request.difficulty,
            rng.fork(f"candidate {tally.attempts}"),
            tally,
            deadline,
        )
        if built is None:
            continue
        puzzle, solution = built
        rung, progress = cheapest_rung(LADDER, start, puzzle, deadline)
        if progress.timed_out:
            tally.timeout += 1
            continue
        difficulty = rate(LADDER, rung, progress)
        if request.difficulty not in (None, difficulty.grade):
            tally.off_grade += 1
            continue
        metrics = {"clues": puzzle.clue_mask.bit_count(), **difficulty.as_dict()}
        spent = tally.health((deadline.elapsed() - started) * 1000)
        return Generated(puzzle, solution, seed, difficulty.grade, metrics, spent, difficulty.score)
    raise GenerationError(
        f"no unique {width}x{height} Lights proven within the deadline",
        tally.health((deadline.elapsed() - started) * 1000).as_dict(),
    )


def candidate(
    width: int, height: int, difficulty: str | None, rng: Rng, tally: Tally, deadline: Deadline
) -> tuple[Lights, int] | None:
    """One board and its solution once the counter proved it unique; None (the reason
    counted in `tally`) otherwise."""
    geo = Geometry(width, height)
    solution = sum(1 << cell for cell in range(geo.size) if rng.random() < DENSITY)
    while unseen := solution & ~geo.spread(geo.full & ~solution):
        solution &= ~(unseen & -unseen)
    digits = [
        None if solution >> cell & 1 else (geo.neighbours[cell] & solution).bit_count()
        for cell in range(geo.size)
    ]
    keep = LADDER.rung_for(difficulty) if difficulty is not None else None
    order = list(bits(geo.full & ~solution))
    rng.shuffle(order)
    for cell in order:
        trial = list(digits)
        trial[cell] = None
        board = Lights(width, height, tuple(trial))
        if keep is not None and keep != LADDER.top:
            if solve(LADDER, start, board, keep, deadline).complete:
                digits = trial
        else:
            outcome = count(board, 2, deadline.within(work=COUNT_WORK))
            if outcome.verdict is Verdict.UNIQUE:
                digits = trial
        if deadline.expired():
            tally.timeout += 1
            return None
    puzzle = Lights(width, height, tuple(digits))
    outcome = count(puzzle, 2, deadline)
    if outcome.verdict is Verdict.UNIQUE and outcome.solutions == (solution,):
        return puzzle, solution
    if outcome.verdict is Verdict.TIMEOUT:
        tally.timeout += 1
    elif outcome.verdict is Verdict.NONE:  # impossible by construction; counted, not hidden
        tally.contradiction += 1
    else:
        tally.ambiguous += 1
    return None
