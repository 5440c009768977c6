"""The Nonogram generator: pictures that look like something, steered to the asked grade.

A call draws a picture with the seed-chosen profile (`pictures.py`: smooth blobs, mirrored
or rotated) and climbs from it: each step evaluates a few candidate flips (the cells where
two solutions differ, else where the rung that matters stalled, else the shape boundary;
smoothest first) and takes the one closest to the asked grade, until the board has that
grade, the climb stalls (a local minimum) or spends its budget; then it restarts from a
fresh picture. A picture is evaluated lazily and remembered: line logic first, then the
`simple` closure (`quick.py`) or root probing, then the count to 2, only as far as the
asked grade needs.

Grades (the ladder's, `rules.LADDER`): easy, the `simple` rung finishes the board; medium,
complete line logic (`line`) does; hard, probing (`probe`) does; expert, none does and the
board is unique. The board found is counted to 2 and graded by the ladder itself
(`core.ladder.grade_puzzle`), and only a board of the asked grade is returned.

Every budget is work (line solves, simple-rule line calls, and fixed charges per picture
drawn, per candidate ranked and per evaluation looked up), charged to one child of the
caller's deadline, so the same request and seed give the same board on any machine under
any deadline long enough to reach it. When the call's work budget is spent, a board from
the verified bank (`bank.py`) is counted again and returned with its id in
`health.fallback`; when the clock runs out first, the call raises `GenerationError`.

Glossary: `picture` is the int mask of shaded cells (bit `row * width + col`); a `profile`
names how pictures are drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gridproof.core.contract import Generated, Option, Request, Tally, in_time, pick_grade
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.grid import bits, geometry
from gridproof.core.ladder import Difficulty, grade_puzzle
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.rng import Rng
from gridproof.core.symmetry import Symmetry
from gridproof.genres.nonogram import bank
from gridproof.genres.nonogram.engine import Board, Grid, Prober, Propagator
from gridproof.genres.nonogram.lines import Clue, LineCache
from gridproof.genres.nonogram.model import Nonogram, clues_of, transform
from gridproof.genres.nonogram.pictures import (
    PROFILES,
    acceptable,
    components,
    draw,
    lines_ok,
    max_shapes,
    partner,
)
from gridproof.genres.nonogram.position import start as position_start
from gridproof.genres.nonogram.quick import SimpleLines, close, line_only, rounds
from gridproof.genres.nonogram.rules import LADDER
from gridproof.genres.nonogram.solve import count

GENERATOR_VERSION = "nonogram/5"
"""What a seed's board depends on besides the request: bump it when a seed's board or its
score changes (nonogram/5: the ladder solves in rounds, `core.ladder.run_rounds`: the
same boards, other scores)."""
SIZES = ((5, 5), (40, 40))
OPTIONS = (
    Option(
        "profile",
        "how pictures are drawn: blobs, mirrored or rotated (the seed picks one if unset)",
        str,
        PROFILES,
        None,
        label="Pictures",
        words=(("blobs", "blobs"), ("mirror", "mirrored"), ("rotate", "rotated")),
    ),
)

EASY, MEDIUM, HARD, EXPERT = LADDER.grades
"""The grades, easiest first: the cheapest rung, complete line logic, probing, beyond."""

WIDTH: dict[str, int] = {EASY: 24, MEDIUM: 48, HARD: 24, EXPERT: 24}
"""Candidate flips evaluated per climbing step."""
WORK_PER_CELL: dict[str, int] = {EASY: 2000, MEDIUM: 40000, HARD: 12000, EXPERT: 12000}
"""The whole call's work budget per board cell: past it the call falls back to the bank.
Medium climbs hit local minima most often, so they get the most restarts (measured: at
12000 one 10x10 seed in ten and one 15x15 seed in three fell back; at 40000 both made it)."""
WORK_CAP: dict[str, int] = {MEDIUM: 8_000_000}
"""The whole call's work budget at most, whatever the size: about 25 s of CPU before a
20x20 medium call that keeps stalling falls back to the bank."""
ATTEMPT_WORK_PER_CELL = 600
"""One climb's work budget per cell; then the climb restarts from a fresh picture."""
COUNT_WORK_PER_CELL = 200
"""Budget of one count to 2 (and of one root probing) per cell; past it: `timeout`."""
TEXTURE = 0.6
"""Expert: side fraction of the window whose cells are redrawn as noise."""
TEXTURE_DENSITY = 0.5
FLIP_SHARE = 1 / 16
"""A climb stops once it has changed this share of the cells (at least 8)."""
DRAW_WORK_PER_CELL = 25
CANDIDATE_WORK = 4
"""Drawing a picture and ranking a candidate flip are charged too (calibrated against the
CPU time of a line solve), so a call that spends its time drawing or ranking still ends."""
DRAWS = 1000
"""Pictures one climb may draw before one passes the filter (none has needed many)."""
BIG = 10**9
"""The `probed` figure of a picture whose probing ran out of its budget."""


def grades_at(width: int, height: int) -> tuple[str, ...]:
    """The grades the generator delivers at `width` × `height` within the targets
    (median at most 10 s of CPU up to 20×20, 60 s at the largest size), easiest first.

    Measured (CPU s, median / max over 3-8 seeds): easy 0.0-0.1 everywhere up to 40×40;
    hard 0.03 / 0.03 at 10, 0.4 / 9.0 at 20, 2.8 / 4.0 at 30, 2.4 / 20 at 40; medium
    0.4 / 3.6 at 10, 1.7 / 27 at 20 (one 20×20 seed in eight falls back to the bank; none
    at 5×5, where line logic rarely leaves the simple rules anything; weak past 20);
    expert 2.0 / 2.2 at 15, 10.0 / 12.8 at 20 (slower past 20)."""
    small, large = min(width, height), max(width, height)
    offered = [EASY]
    if small >= 8 and large <= 20:
        offered.append(MEDIUM)
    offered.append(HARD)
    if small >= 15 and large <= 20:
        offered.append(EXPERT)
    return tuple(grade for grade in LADDER.grades if grade in offered)


QUICK = {MEDIUM: 10, HARD: 15, EXPERT: 0}
"""The largest side at which a New game from an empty bank gets a board of each grade
within `core.contract.NEW_GAME_S` (easy: every size; expert: none; see `quick_with`)."""


def quick_with(width: int, height: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The grades the player offers at a size, whatever the picture kind: easy everywhere,
    medium up to 10×10, hard up to 15×15, never expert (of those `grades_at` delivers).
    Measured by `benchmarks/newgame.py` (a New game from an empty bank: a seed that gives
    no board is followed by another; CPU s, median / p95, 2026-12-02): easy at most 0.1
    everywhere; medium at 10×10 0.8 / 5.8 (8 New games; each picture kind 0.4-3.6 / 1.1-5.8),
    at 15×15 1.3 / 11.9 (8, one without a board in time; mirrored 12.4); hard 0.3-4.3 /
    6.9-8.3 at 15×15 (13; each picture kind at most 8.1), 0.8 / 16.6 at 20×20 (6, one
    without a board), 1.4 / 11.5 at 25×25 (6, two without); expert 2.8 / 11.5 at 15×15
    (8), 10.0 / 12.8 at 20×20 (`grades_at`); easy at 30×30 at most 0.2."""
    large = max(width, height)
    return tuple(grade for grade in LADDER.grades if large <= QUICK.get(grade, large))


@dataclass(slots=True)
class Eval:
    """What line logic, the simple closure, probing and the counter say about one
    picture, filled in lazily (-1: not computed yet)."""

    picture: int
    puzzle: Nonogram
    lined: int = -1
    """Cells complete line logic leaves undecided."""
    simple: int = -1
    """Cells the simple rung leaves undecided (computed when `lined` is 0)."""
    probed: int = -1
    """Cells root probing leaves undecided (when `lined` > 0); BIG when cut by the budget."""
    verdict: Verdict | None = None
    nodes: int = 0
    solutions: tuple[int, ...] = ()
    open: int = 0
    """The cells the last rung run left undecided."""
    line_only: int = 0
    """Medium hint: cells only complete line logic decided, summed over the line solves."""
    line_only_cells: int = 0
    rounds: int = 0
    """Medium hint: rounds of the simple closure."""
    board: Board | None = field(default=None, repr=False)
    grid: Grid | None = field(default=None, repr=False)


class _Charged(Propagator):
    """A propagator that charges its line solves to its deadline after every run, so a
    work budget stops probing."""

    __slots__ = ()

    def run(self, grid: Grid) -> bool:
        before = self.solves
        alive = super().run(grid)
        self.deadline.charge(self.solves - before)
        return alive


@dataclass(frozen=True, slots=True)
class Climbed:
    picture: int
    drawn: int
    flips: int
    textured: int
    evaluation: Eval


class Steer:
    """One call's climb toward `grade`: the memo of evaluations and the work budget."""

    def __init__(
        self, width: int, height: int, grade: str, profile: str, density: float, budget: Deadline
    ) -> None:
        self.w, self.h, self.n = width, height, width * height
        self.grade = grade
        self.profile = profile
        self.density = density
        self.geo = geometry(width, height)
        self.budget = budget
        self.cache = LineCache()
        self.simple_lines = SimpleLines()
        self.memo: dict[int, Eval] = {}
        self.evaluations = 0
        self.max_flips = max(8, round(FLIP_SHARE * self.n))

    # ----- evaluation -----
    def _settle_line(self, n: int, clue: Clue, filled: int, empty: int) -> tuple[int, int] | None:
        self.budget.charge(1)
        return self.cache.table(n, clue).settle(filled, empty)

    def _undecided(self, filled: list[int], empty: list[int]) -> int:
        known = 0
        for r in range(self.h):
            known |= (filled[r] | empty[r]) << (r * self.w)
        return self.geo.full & ~known

    def evaluate(self, picture: int) -> Eval:
        """The picture's evaluation, computed as far as the asked grade needs."""
        self.budget.charge(1)  # every look costs, so every loop ends
        ev = self.memo.get(picture)
        if ev is None:
            ev = self.memo[picture] = Eval(picture, clues_of(self.w, self.h, picture))
        if ev.lined < 0:
            self.evaluations += 1
            board = Board(ev.puzzle, self.cache)
            grid = Grid.blank(board)
            lines = _Charged(board, self.budget)
            lines.run(grid)
            ev.board, ev.grid = board, grid
            ev.lined = self.n - grid.decided(board)
            ev.open = self._undecided(grid.filled[: self.h], grid.empty[: self.h])
            if ev.lined == 0:
                before = self.simple_lines.work
                closed = close(ev.puzzle, self.simple_lines.settle)
                if closed is not None:
                    ev.open = self._undecided(*closed)
                ev.simple = ev.open.bit_count()
                if ev.simple == 0 and self.grade == MEDIUM:
                    ev.line_only, ev.line_only_cells = line_only(
                        ev.puzzle, self.simple_lines, self._settle_line
                    )
                    ev.rounds = rounds(ev.puzzle, self.simple_lines.settle)
                self.budget.charge(self.simple_lines.work - before)
        if ev.lined == 0 or self.grade in (EASY, MEDIUM):
            return ev
        if ev.probed < 0:
            assert ev.board is not None
            assert ev.grid is not None
            within = self.budget.within(work=COUNT_WORK_PER_CELL * self.n)
            prober = Prober(_Charged(ev.board, within))
            trial = ev.grid.copy()
            trial.dirty = []
            out = prober.run(trial)
            if out is None or within.out_of_work():
                ev.probed = BIG
            else:
                ev.probed = self.n - out.decided(ev.board)
                ev.open = self._undecided(out.filled[: self.h], out.empty[: self.h])
        if ev.probed == 0 or self.grade == HARD or ev.verdict is not None or ev.probed == BIG:
            return ev
        outcome = count(
            ev.puzzle, 2, self.budget.within(work=COUNT_WORK_PER_CELL * self.n), self.cache
        )
        ev.verdict, ev.nodes, ev.solutions = outcome.verdict, outcome.nodes, outcome.solutions
        return ev

    def grade_of(self, ev: Eval) -> str | None:
        """The grade the evaluation shows (None: not unique, or not known)."""
        if ev.lined == 0:
            return EASY if ev.simple == 0 else MEDIUM
        if ev.probed == 0:
            return HARD
        return EXPERT if ev.verdict is Verdict.UNIQUE else None

    def distance(self, ev: Eval) -> float:
        """0 at the asked grade; the climb takes no step that increases it."""
        n = self.n
        if self.grade == EASY:
            return ev.simple if ev.lined == 0 else n + ev.lined
        if self.grade == MEDIUM:
            if ev.lined == 0:
                return 0 if ev.simple > 0 else 1 + 1 / (1 + 3 * ev.line_only + ev.rounds)
            return 2 + ev.lined / n
        if self.grade == HARD:
            return 1 if ev.lined == 0 else ev.probed
        if ev.lined == 0:
            return 3
        if ev.probed == 0:
            return 2
        if ev.verdict is Verdict.UNIQUE:
            return 0
        return 1 + min(ev.probed, n) / n

    # ----- moves -----
    def orbit(self, cell: int) -> int:
        """The cell and its partner under the profile's symmetry (flips keep it)."""
        return 1 << cell | 1 << partner(cell, self.w, self.h, self.profile)

    def _agree_after(self, picture: int, cell: int) -> int:
        """How many of the 8 neighbours share the cell's colour once it is flipped."""
        w, h = self.w, self.h
        r, c = divmod(cell, w)
        new = not picture >> cell & 1
        return sum(
            1
            for rr in range(max(0, r - 1), min(h, r + 2))
            for cc in range(max(0, c - 1), min(w, c + 2))
            if (rr, cc) != (r, c) and bool(picture >> (rr * w + cc) & 1) == new
        )

    def _cross(self, cells: int) -> int:
        """Every cell sharing a row or a column with one of `cells`."""
        w, h = self.w, self.h
        column = sum(1 << (rr * w) for rr in range(h))
        out = 0
        for cell in bits(cells):
            r, c = divmod(cell, w)
            out |= ((1 << w) - 1) << (r * w) | column << c
        return out

    def candidates(self, ev: Eval, rng: Rng, tabu: int) -> list[int]:
        """Where to flip: where two solutions differ, else where the rung that matters
        stalled (for medium, the lines through the cells only line logic decided), else the
        shape boundary; smoothest flips first, ties in seeded order."""
        geo, picture = self.geo, ev.picture
        boundary = geo.full & (
            geo.spread(picture) & ~picture | geo.spread(geo.full & ~picture) & picture
        )
        region = 0
        if len(ev.solutions) > 1:
            region = ev.solutions[0] ^ ev.solutions[1]
        elif self.grade == EASY and (ev.lined > 0 or ev.simple > 0):
            region = ev.open
        elif self.grade == MEDIUM:
            if ev.lined > 0:
                region = ev.open
            elif ev.line_only_cells:
                region = self._cross(ev.line_only_cells) & boundary
        elif self.grade == HARD and ev.lined > 0 and ev.probed not in (0, BIG):
            region = ev.open
        region = (region or boundary) & ~tabu
        cells = list(bits(region))
        self.budget.charge(CANDIDATE_WORK * len(cells))
        keys = {cell: (-self._agree_after(picture, cell), rng.random()) for cell in cells}
        cells.sort(key=keys.__getitem__)
        return cells[: WIDTH[self.grade]]

    def picture_ok(self, picture: int) -> bool:
        if not lines_ok(picture, self.w, self.h):
            return False
        if self.grade == EXPERT:
            return True  # texture: the shape-count filter does not apply
        return components(self.geo, picture) <= max_shapes(self.w, self.h)

    # ----- pictures -----
    def start(self, rng: Rng) -> tuple[int, int] | None:
        """(drawn picture, picture to climb from), None if no draw passes the filter."""
        for k in range(DRAWS):
            self.budget.charge(DRAW_WORK_PER_CELL * self.n)
            picture = draw(rng.fork(f"draw {k}"), self.w, self.h, self.profile, self.density)
            if not acceptable(picture, self.w, self.h, self.density):
                continue
            if self.grade != EXPERT:
                return picture, picture
            textured = self._texture(rng.fork(f"texture {k}"), picture)
            if lines_ok(textured, self.w, self.h):
                return picture, textured
        return None

    def _texture(self, rng: Rng, picture: int) -> int:
        """Redraw a window of TEXTURE × each side as noise, orbit by orbit."""
        w, h = self.w, self.h
        ww, hh = max(2, round(TEXTURE * w)), max(2, round(TEXTURE * h))
        r0, c0 = rng.below(h - hh + 1), rng.below(w - ww + 1)
        for r in range(r0, r0 + hh):
            for c in range(c0, c0 + ww):
                bit = self.orbit(r * w + c)
                picture = picture | bit if rng.random() < TEXTURE_DENSITY else picture & ~bit
        return picture

    # ----- the climb -----
    def climb(self, rng: Rng) -> Climbed | None:
        """One climb from a fresh picture: the board if it reached the asked grade."""
        started = self.start(rng)
        if started is None:
            return None
        drawn, picture = started
        ev = self.evaluate(picture)
        d = self.distance(ev)
        tabu = flips = 0
        end = self.budget.used + ATTEMPT_WORK_PER_CELL * self.n
        while d > 0 and self.budget.used < end and flips < self.max_flips:
            if self.budget.expired():
                return None
            best: tuple[float, int, Eval] | None = None
            for cell in self.candidates(ev, rng, tabu):
                new = ev.picture ^ self.orbit(cell)
                if not self.picture_ok(new):
                    continue
                trial = self.evaluate(new)
                d2 = self.distance(trial)
                if best is None or d2 < best[0]:
                    best = (d2, cell, trial)
                if d2 == 0 or self.budget.used >= end or self.budget.expired():
                    break
            if best is None or best[0] > d:
                break  # a local minimum: restart from a fresh picture
            d, cell, ev = best
            tabu |= self.orbit(cell)
            flips += self.orbit(cell).bit_count()
        if d > 0 or self.budget.expired():
            return None
        return Climbed(
            ev.picture, drawn, (ev.picture ^ picture).bit_count(), (picture ^ drawn).bit_count(), ev
        )


def generate(request: Request, seed: int, deadline: Deadline) -> Generated[Nonogram]:
    """A board proven unique of the asked grade (or, with none asked, of the seed-picked
    grade the size offers); see the module docstring for every path."""
    started = deadline.elapsed()
    width, height, profile_asked = _check(request)
    target = request.difficulty or pick_grade(seed, grades_at(width, height))
    root = Rng(seed)
    choose = root.fork("profile")
    picked = choose.choice(PROFILES)  # expert needs symmetry: symmetric boards defeat probing
    profile = profile_asked or ("rotate" if target == EXPERT else picked)
    density = 0.45 + 0.1 * choose.random()
    tally = Tally()
    work = WORK_PER_CELL[target] * width * height
    budget = deadline.within(work=min(work, WORK_CAP.get(target, work)))
    steer = Steer(width, height, target, profile, density, budget)
    while not budget.expired():
        climbed = steer.climb(root.fork(f"attempt {tally.attempts}"))
        tally.attempts += 1
        if climbed is None:
            continue
        puzzle = clues_of(width, height, climbed.picture)
        outcome = count(puzzle, 2, budget.within(work=COUNT_WORK_PER_CELL * width * height))
        if outcome.verdict is not Verdict.UNIQUE:  # the ladder is sound: cannot happen
            _note(tally, outcome)
            continue
        difficulty = grade_puzzle(LADDER, position_start, puzzle, deadline)
        if difficulty.grade != target:
            tally.off_grade += 1  # probing with learning finished it, the probe rung did not
            continue
        metrics = {
            **_metrics(difficulty, outcome),
            "profile": profile,
            "flips": climbed.flips,
            "textured": climbed.textured,
            "evaluations": steer.evaluations,
            "work": budget.used,
            **picture_metrics(climbed.picture, width, height),
        }
        health = tally.health((deadline.elapsed() - started) * 1000)
        made = Generated(
            puzzle, outcome.solutions[0], seed, difficulty.grade, metrics, health, difficulty.score
        )
        return in_time(made, deadline)
    if not budget.out_of_work():
        raise GenerationError(
            f"ran out of time before a {width}x{height} {target} nonogram was proven (the "
            "same seed gives the same board with a longer deadline)",
            tally.health((deadline.elapsed() - started) * 1000).as_dict(),
        )
    return _fallback(request, target, seed, tally, deadline, started)


def _note(tally: Tally, outcome: Outcome) -> None:
    if outcome.verdict is Verdict.TIMEOUT:
        tally.timeout += 1
    elif outcome.verdict is Verdict.NONE:
        tally.contradiction += 1
    else:
        tally.ambiguous += 1


def _metrics(difficulty: Difficulty, outcome: Outcome) -> dict[str, Any]:
    return {
        "technique": difficulty.rung or "search",
        "steps": difficulty.steps,
        "hardest": difficulty.hardest,
        "tightest": difficulty.tightest,
        "search_nodes": outcome.nodes,
        "line_solves": outcome.propagations,
    }


def picture_metrics(picture: int, width: int, height: int) -> dict[str, Any]:
    geo = geometry(width, height)
    return {
        "fill": round(picture.bit_count() / geo.size, 3),
        "shapes": components(geo, picture),
    }


def _check(request: Request) -> tuple[int, int, str | None]:
    """The size and the asked profile; a request the generator cannot serve is a
    `CodeError` naming what it offers."""
    (lo_w, lo_h), (hi_w, hi_h) = SIZES
    w, h = request.width, request.height
    if not (lo_w <= w <= hi_w and lo_h <= h <= hi_h):
        raise CodeError(f"nonogram sizes run from {lo_w}x{lo_h} to {hi_w}x{hi_h}, not {w}x{h}")
    offered = grades_at(w, h)
    if request.difficulty is not None and request.difficulty not in offered:
        known = "unknown difficulty" if request.difficulty not in LADDER.grades else "difficulty"
        raise CodeError(
            f"{known} {request.difficulty!r} is not offered at {w}x{h}; "
            f"nonogram offers {', '.join(offered)} there"
        )
    profile = request.options.get("profile")
    if profile is not None and profile not in PROFILES:
        raise CodeError(f"unknown profile {profile!r}; nonogram has {', '.join(PROFILES)}")
    return w, h, None if profile is None else str(profile)


def _fallback(
    request: Request, target: str, seed: int, tally: Tally, deadline: Deadline, started: float
) -> Generated[Nonogram]:
    """A verified bank board of the requested size and grade, counted and graded again."""
    entry = bank.find(request.width, request.height, target)
    if entry is None:
        raise GenerationError(
            f"no unique {request.width}x{request.height} {target} nonogram found within the "
            "work budget and the verified bank has none of that size and grade",
            tally.health((deadline.elapsed() - started) * 1000).as_dict(),
        )
    puzzle = bank.puzzle(entry)
    if (puzzle.width, puzzle.height) != (request.width, request.height):
        puzzle = transform(puzzle, Symmetry.TRANSPOSE)
    choices = [s for s in Symmetry if not s.swaps_axes or puzzle.width == puzzle.height]
    puzzle = transform(puzzle, Rng(seed).choice(choices))
    outcome = count(puzzle, 2, deadline)
    difficulty = grade_puzzle(LADDER, position_start, puzzle, deadline)
    tally.fallback = entry.id
    health = tally.health((deadline.elapsed() - started) * 1000)
    if outcome.verdict is not Verdict.UNIQUE or difficulty.grade != target:
        # the bank tests make this unreachable (short of the clock running out)
        raise GenerationError(f"bank board {entry.id} failed its recount", health.as_dict())
    metrics = {**_metrics(difficulty, outcome), "bank": entry.id}
    made = Generated(
        puzzle, outcome.solutions[0], seed, difficulty.grade, metrics, health, difficulty.score
    )
    return in_time(made, deadline)
