"""Steering a board to a grade with the white dial: white circles are kept only while the
board stays unique and no harder than the grade, until the cheapest rung that finishes
it is one of the grade's.

The design note's dial is the number of white circles: more of them, more choice, a
harder board. Steering reads the dial one offer at a time. Every offer (one empty cell,
or a small group of them) is judged by the ladder's fast path (`solve.rung_index`) with
the grade's top rung as a cap: a rung up to `probe` that finishes the board proves it
unique, so the same test keeps the answer the only one and the board within the grade.
- `fill`: offer every empty cell once, in random order; keep what stays within the cap,
  and, once the board has reached the grade, only what keeps it there.
- `moves`: a board still below the grade gets offers of two or three circles at once:
  `confinements` (the pattern the `confine` rung reads: a line of three through a region's
  black circle and another of its cells, and a third circle of that region outside the
  line) and `pairs` (two empty cells near each other). One circle alone often has no
  certificate where two have one each, or leaves the board as easy as it was.
- `kick`: still below the grade, take one white circle away for good and steer again, a
  few times.

Under no-three-same a kept white circle may complete a line of three white ones and so
hand its region's black to another circle: the board is still unique (its rung says so),
with another answer, which steering follows from then on.

Every loop is bounded by counts of offers, never by a clock, so the same skeleton, aim and
random stream give the same board on any machine.

Glossary: an `aim` is the grade's rungs as indices into `LADDER.names` (`floor` its first,
`cap` its last) and the number of white circles asked for, if any; `rung` is the index of
the cheapest rung that finishes the current board; `answer` the mask of black circles.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits
from gridproof.core.rng import Rng
from gridproof.genres.nondango import solve, theory
from gridproof.genres.nondango.model import Nondango, Variant
from gridproof.genres.nondango.position import build_board
from gridproof.genres.nondango.rules import LADDER

KICKS = 10
"""How many times a board stuck below its grade loses a white circle and is steered again."""
MOVES = 600
"""The most offers of two or three circles one round of `moves` makes."""
REACH = 2
"""Two cells of a pair are at most this many rows and columns apart."""


class OutOfTime(Exception):
    """The wall clock (or a cancel) ended the run: no board may come of it."""


@dataclass(frozen=True, slots=True)
class Aim:
    """Where steering goes: the rungs of one grade, and the white circles asked for."""

    floor: int
    cap: int
    white: int | None = None

    @classmethod
    def of(cls, grade: str, white: int | None = None) -> Aim:
        """The aim of `grade`: its first and last rung in the ladder."""
        rungs = [i for i, rung in enumerate(LADDER.rungs) if rung.grade == grade]
        return cls(rungs[0], rungs[-1], white)


@dataclass(slots=True)
class Dial:
    """What the offers of one generate call came to."""

    offers: int = 0
    kept: int = 0
    uncertified: int = 0
    breaks_answer: int = 0
    """Offers of the dial turned down because they make three white circles in a row."""
    too_hard: int = 0
    """Offers turned down because the board would need a rung above the grade's (or
    would lose its single answer, which the fast path cannot tell apart)."""
    too_easy: int = 0
    """Offers turned down because a board already at its grade would drop below it."""
    group_offers: int = 0
    kicks: int = 0
    too_few_white: int = 0


@dataclass(slots=True)
class Steering:
    """One board on its way to an aim."""

    puzzle: Nondango
    answer: int
    aim: Aim
    deadline: Deadline
    dial: Dial
    rung: int = 0
    kicked: int = 0
    """Cells a kick took a white circle from: not offered again."""

    @property
    def white(self) -> int:
        return (self.puzzle.circles & ~self.answer).bit_count()

    @property
    def reached(self) -> bool:
        return self.aim.floor <= self.rung <= self.aim.cap

    def room(self) -> int | None:
        """How many more white circles may be kept (None: no limit)."""
        return None if self.aim.white is None else self.aim.white - self.white

    def judge(self, circles: int) -> tuple[int, int] | None:
        """The rung the board would need with `circles`, and its answer, if that keeps it
        within the aim (None otherwise)."""
        trial = dataclasses.replace(self.puzzle, circles=circles)
        found = solve.settle(build_board(trial), self.deadline, self.aim.cap)
        if found is None or self.deadline.expired():
            raise OutOfTime
        rung, answer = found
        if rung > self.aim.cap:
            self.dial.too_hard += 1
            return None
        if self.reached and rung < self.aim.floor:
            self.dial.too_easy += 1
            return None
        return rung, answer

    def change(self, circles: int) -> bool:
        """Give the board `circles` if `judge` allows."""
        found = self.judge(circles)
        if found is None:
            return False
        self.puzzle = dataclasses.replace(self.puzzle, circles=circles)
        self.rung, self.answer = found
        return True

    def offer(self, add: int) -> bool:
        """Offer the empty cells `add` as white circles; keep them if `judge` allows."""
        room = self.room()
        if room is not None and add.bit_count() > room:
            return False
        self.dial.offers += 1
        if not self.change(self.puzzle.circles | add):
            return False
        self.dial.kept += add.bit_count()
        return True


def steer(
    puzzle: Nondango, aim: Aim, rng: Rng, deadline: Deadline, dial: Dial
) -> tuple[Nondango, int] | None:
    """`puzzle` (a skeleton: one black circle per region, which is the answer) with white
    circles added until the cheapest rung that finishes it is one of the aim's, and its
    answer; None if steering ends elsewhere. Raises `OutOfTime` when the clock runs out.

    Every board on the way is unique (the rung that finishes it proves so), but a white
    circle may complete a line of three white ones and hand the one answer to another
    circle of a region: the answer is followed, not fixed."""
    state = Steering(puzzle, puzzle.circles, aim, deadline, dial)
    for round_ in range(KICKS + 1):
        if round_:
            if not kick(state, rng.fork(f"kick {round_}")):
                break
            dial.kicks += 1
        fill(state, rng.fork(f"fill {round_}"))
        if not state.reached:
            moves(state, rng.fork(f"moves {round_}"))
        if state.reached:
            fill(state, rng.fork(f"more {round_}"))
            break
    if not state.reached:
        return None
    if aim.white is not None and state.white != aim.white:
        dial.too_few_white += 1
        return None
    return state.puzzle, state.answer


def fill(state: Steering, rng: Rng) -> None:
    """Offer every empty cell once, in random order, as one white circle. The design
    note's lemma turns down a circle without a certificate unasked: it always admits a
    second answer."""
    size = state.puzzle.width * state.puzzle.height
    cells = [cell for cell in range(size) if not (state.puzzle.circles | state.kicked) >> cell & 1]
    rng.shuffle(cells)
    for cell in cells:
        if state.room() == 0:
            return
        if state.puzzle.circles >> cell & 1:
            continue
        if theory.judge_offer(state.puzzle, state.answer, cell) == "uncertified":
            state.dial.uncertified += 1
        else:
            state.offer(1 << cell)


def moves(state: Steering, rng: Rng) -> None:
    """Offer groups of two or three empty cells until the board reaches its grade:
    `confinements` first, then `pairs`, at most `MOVES` of each. Not under no-three-black:
    there a white circle never rules out an answer, so a group is unique only if each of
    its circles is, and `fill` has offered those already."""
    if state.puzzle.variant is Variant.NO_THREE_BLACK:
        return
    for make in (confinements, pairs):
        candidates = make(state.puzzle, state.answer)
        rng.fork(make.__name__).shuffle(candidates)
        for add in candidates[:MOVES]:
            if state.reached:
                return
            add &= ~state.puzzle.circles
            if add:
                state.dial.group_offers += 1
                state.offer(add)


def kick(state: Steering, rng: Rng) -> bool:
    """Take one white circle away (the first, in random order, that keeps the board within
    the aim) for good: its cell is not offered again, so the next fill has to go
    elsewhere. False if none can go."""
    whites = list(bits(state.puzzle.circles & ~state.answer))
    rng.shuffle(whites)
    for cell in whites:
        if state.change(state.puzzle.circles & ~(1 << cell)):
            state.kicked |= 1 << cell
            return True
    return False


def confinements(puzzle: Nondango, answer: int) -> list[int]:
    """The empty cells that would complete a confinement: for a region's black circle,
    a line of three through it and another cell of its region, and a cell of the region
    outside that line (the cells of each such pattern that hold no circle yet)."""
    lines = theory.lines_through(puzzle.width, puzzle.height)
    cells = puzzle.region_cells()
    out: set[int] = set()
    for black in bits(answer):
        region = puzzle.regions[black]
        own = sum(1 << cell for cell in cells[region])
        for line in lines[black]:
            if (line & own).bit_count() < 2:
                continue
            for outside in bits(own & ~line):
                add = (line | 1 << outside) & ~puzzle.circles
                if add and not add & answer:
                    out.add(add)
    return sorted(out)


def pairs(puzzle: Nondango, answer: int) -> list[int]:
    """Every two empty cells at most `REACH` rows and columns apart."""
    width = puzzle.width
    empty = list(bits(~puzzle.circles & ~answer & ((1 << width * puzzle.height) - 1)))
    out = []
    for index, first in enumerate(empty):
        row, col = divmod(first, width)
        for second in empty[index + 1 :]:
            if second // width - row > REACH:
                break
            if abs(second % width - col) <= REACH:
                out.append(1 << first | 1 << second)
    return out
