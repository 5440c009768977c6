"""Steering a unique Norinori to a grade: single-cell moves between regions.

A move takes one cell the solution leaves empty out of its region and into a neighbouring
one, keeping both connected. The solution stays a solution (no region's count changes),
so a climb never loses it; what changes is how far each rung gets. Two climbs:

- `ease` makes a board easier: moves after which the target rung decides more, until it
  decides every cell (a board that sound deductions complete has no other solution, so
  the boards on the way need not be unique);
- `harden` makes a board harder: moves after which the rung below the target still
  finishes the board but `local` decides no more (a plateau walk towards boards that lean
  on the stronger rules), until the rung below stalls while the board stays unique by the
  complete counter and the target rung finishes it.

Every loop is bounded by counts (steps, moves tried) and every count by a work budget, so
a seed steers the same way on every machine. Glossary: `labels` as in `build`, `areas`
the region masks by label, a `Move` is (cell, new label).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import islice

from gridproof.core.contract import Tally
from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, geometry
from gridproof.core.ladder import Progress
from gridproof.core.ladder import solve as solve_rung
from gridproof.core.rng import Rng
from gridproof.genres.norinori.build import (
    find_rivals,
    prove,
    puzzle_of,
    walk_round,
)
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.position import cell_neighbours, region_masks, start
from gridproof.genres.norinori.rules import LADDER, close_marks

CHEAPEST = LADDER.names[0]
"""The rung `close_marks` computes in bulk, which a climb can score every move with.

Only moves of cells it leaves open can gain: a move takes a cell the solution leaves
empty out of one region into another, a cell it marked empty counts in neither region's
quota, and its cell rules read no regions at all; so from the marks it closed before, it
decides nothing more after moving cells it had decided."""
EASE_SAMPLE = 32
"""Moves tried before each step of an easing climb by a rung slower than `local`."""
HARDEN_SAMPLE = 32
"""Moves tried before each step of a hardening climb."""
SIDEWAYS_SAMPLE = 32
"""Moves tried for a step along a plateau, when no move gains."""
PLATEAU = 32
"""Steps along a plateau in a row before an easing climb gives up."""
TWO_MOVES = 48
"""First and second moves tried when no single move helps `local` (so up to its square)."""
RETRY_FROM = 0.9
"""The share of the board an easing climb has decided where it keeps a layout to go back
to once, should it stall later: a climb that far up has done most of its work, and
climbing on from there with other moves costs less than a new candidate, which starts
again from the bottom. Easy, seeds side by side, CPU s in all (slowest): 45×45 seeds
1-12 61 against 81 (12 against 15), 6 of 13 stalled climbs then finishing and none after
a second try when three were allowed; 50×50 seeds 1-8 49 against 52 (13 against 21);
60×60 seeds 1-12 366 against 384 (93 against 114); 30×30, where a candidate is cheap,
even (seeds 1-40 27 against 28, seeds 1001-1040 42 against 41)."""

Move = tuple[int, int]
Marks = tuple[int, int]
"""What a rung decides: (shaded, empty)."""
Seed = tuple[int, int, int]
"""What `local` decides on a layout with the quotas of some regions left out, and those
regions' cells: (shaded, empty, loose); see `Layout.seed_for`."""


def solve(
    puzzle: Norinori,
    rung: str,
    deadline: Deadline,
    shaded: int = 0,
    empty: int = 0,
    solution: int | None = None,
) -> Progress:
    """How far `rung` of the ladder gets alone on `puzzle` (from the marks given); with
    `solution` (one the marks agree with), its probes skip the trials it bears out (the
    same steps, sooner: `core.ladder.solve`)."""
    return solve_rung(
        LADDER, start, puzzle, rung, deadline, shaded=shaded, empty=empty, solution=solution
    )


class Layout:
    """A labelling with its region masks, moved one cell at a time."""

    __slots__ = ("areas", "geo", "inherited", "joined", "labels", "listed", "stale")

    def __init__(
        self,
        geo: Geometry,
        labels: list[int],
        areas: list[int] | None = None,
        joined: dict[int, bool] | None = None,
        inherited: dict[int, tuple[Move, ...]] | None = None,
        stale: int = 0,
    ) -> None:
        self.geo = geo
        self.labels = labels
        self.areas = region_masks(labels) if areas is None else areas
        self.joined = {} if joined is None else joined
        """Whether each area met so far is connected, shared by the layouts moved from
        this one: a step lists every move again, and most regions are as they were."""
        self.listed: dict[int, tuple[Move, ...]] = {}
        """The moves of each cell listed so far (`_moves_of`)."""
        self.inherited = inherited
        """The moves the layout this one was moved from listed, which hold here for every
        cell outside `stale`: a cell's moves read its region, whether that region stays
        connected without it and its neighbours' regions, and a move changes those only
        for the moved cell, its neighbours and the cells of the two regions it is moved
        between."""
        self.stale = stale

    def moved(self, move: Move) -> Layout:
        cell, new = move
        labels, areas = list(self.labels), list(self.areas)
        bit = 1 << cell
        old = labels[cell]
        stale = areas[old] | areas[new] | bit | self.geo.spread(bit)
        areas[old] &= ~bit
        areas[new] |= bit
        labels[cell] = new
        return Layout(self.geo, labels, areas, self.joined, self.listed, stale)

    def key(self) -> tuple[int, ...]:
        return tuple(self.labels)

    def puzzle(self) -> Norinori:
        return puzzle_of(self.geo, self.labels)

    def local(self, seed: Seed | None = None) -> Marks | None:
        """What the `local` rules decide on this board from nothing (None: a
        contradiction); with `seed`, a seed for the layout (`seed_for`), from the seed's
        marks, which is the same at a fraction of the rounds."""
        if seed is None:
            return close_marks(self.geo, self.labels, self.areas, 0, 0, self.geo.full)
        shaded, empty, loose = seed
        return close_marks(self.geo, self.labels, self.areas, shaded, empty, loose)

    def seed_for(self, cells: int) -> Seed:
        """A seed for every layout reached from this one by moves of cells of `cells`,
        each to a region holding a neighbour: what `local` decides here with the quotas
        of the regions within one step of `cells` left out (their cells are `loose`).

        Such moves take cells between loose regions only, so the other regions and the
        cell rules are the same on the layout reached, and what they decide from
        nothing is part of what `local` decides there from nothing; closing from it, with
        the loose regions' quotas looked at, reaches the same fixpoint (the rules are
        monotone). Two moves in a row, both of cells of `cells`, keep to the loose
        regions too: the second takes its cell out of a loose region or the first's
        target, into a region holding a neighbour of a cell of `cells`, which is loose
        (or the first's target again)."""
        geo = self.geo
        loose = self.regions_around(cells)
        closed = close_marks(geo, self.labels, self.areas, 0, 0, geo.full, loose)
        if closed is None:  # only when `local` dies here already: close from nothing
            return 0, 0, geo.full
        return closed[0], closed[1], loose

    def bound(
        self, rung: str, marks: Marks, moved: int, deadline: Deadline, solution: int | None = None
    ) -> int:
        """At least as many cells as `rung` decides on this board from nothing: what it
        decides from `marks`, any marks the solution agrees with (what `rung` decided
        before the moves of cells `moved`). The rules are monotone, so what they decide
        from more marks holds what they decide from none; starting from nearly
        everything, this takes a fraction of the time."""
        if rung != CHEAPEST:
            shaded, empty = marks
            progress = solve(self.puzzle(), rung, deadline, shaded, empty, solution)
            return (progress.shaded | progress.empty).bit_count()
        touched = self.regions_around(moved)  # the regions the moved cells joined and left
        closed = close_marks(self.geo, self.labels, self.areas, marks[0], marks[1], touched)
        return self.geo.size if closed is None else (closed[0] | closed[1]).bit_count()

    def regions_around(self, cells: int) -> int:
        """The cells of every region that holds a cell of `cells` or a neighbour of one."""
        labels, areas = self.labels, self.areas
        found = 0
        for label in {labels[cell] for cell in bits(cells | self.geo.spread(cells))}:
            found |= areas[label]
        return found

    def moves(self, solution: int, rng: Rng, first: int = 0, near: int = -1) -> Iterator[Move]:
        """Every move of a cell of `near` that the solution leaves empty into a neighbouring
        region that keeps its old region connected, in random order, but those of cells in
        `first` before the rest (which are listed only if the caller gets that far)."""
        free = self.geo.full & near & ~solution
        for group in (free & first, free & ~first):
            listed = self._moves_of(group)
            rng.shuffle(listed)
            yield from listed

    def _moves_of(self, cells: int) -> list[Move]:
        listed, inherited, stale = self.listed, self.inherited, self.stale
        out: list[Move] = []
        for cell in bits(cells):
            found = listed.get(cell)
            if found is None:
                if inherited is not None and not stale >> cell & 1:
                    found = inherited.get(cell)
                if found is None:
                    found = self._moves_of_cell(cell)
                listed[cell] = found
            out.extend(found)
        return out

    def _moves_of_cell(self, cell: int) -> tuple[Move, ...]:
        geo, labels, areas, joined = self.geo, self.labels, self.areas, self.joined
        old = labels[cell]
        rest = areas[old] & ~(1 << cell)
        news = sorted({labels[n] for n in cell_neighbours(geo.width, geo.height)[cell]} - {old})
        if not news or not rest:
            return ()
        whole = joined.get(rest)
        if whole is None:
            whole = joined[rest] = geo.connected(rest)
        return tuple((cell, new) for new in news) if whole else ()


def marks(
    layout: Layout,
    rung: str,
    deadline: Deadline,
    solution: int | None = None,
    seed: Seed | None = None,
) -> Marks | None:
    """What `rung` alone decides on the board; None on a contradiction. `solution`: one of
    the board's, which makes a probe quicker (`solve`); `seed`: one for the board, which
    makes `local` quicker (`Layout.seed_for`)."""
    if rung == CHEAPEST:
        return layout.local(seed)
    progress = solve(layout.puzzle(), rung, deadline, solution=solution)
    return None if progress.contradiction else (progress.shaded, progress.empty)


def decided(layout: Layout, rung: str, deadline: Deadline) -> int:
    """The cells `rung` alone decides on the board (-1 on a contradiction)."""
    found = marks(layout, rung, deadline)
    return -1 if found is None else (found[0] | found[1]).bit_count()


@dataclass(frozen=True, slots=True)
class Climb:
    """Where an easing climb stands: the layout, its solution, what the climb's rung
    decides there, and how many plateau steps led to it in a row."""

    layout: Layout
    solution: int
    marks: Marks
    flat: int = 0

    @property
    def score(self) -> int:
        return (self.marks[0] | self.marks[1]).bit_count()

    @property
    def open(self) -> int:
        return self.layout.geo.full & ~(self.marks[0] | self.marks[1])


def _climb(
    layout: Layout,
    solution: int,
    rung: str,
    deadline: Deadline,
    flat: int = 0,
    seed: Seed | None = None,
) -> Climb:
    found = marks(layout, rung, deadline, solution, seed)
    return Climb(layout, solution, (0, 0) if found is None else found, flat)


def ease(
    puzzle: Norinori,
    solution: int,
    rung: str,
    rng: Rng,
    deadline: Deadline,
    work: int,
    steps: int,
) -> tuple[Norinori, int] | None:
    """A board that `rung` alone completes, and its solution, reached from `puzzle` by
    moves; None when the climb stalls for good, or after `steps` steps.

    Each step takes the first move after which `rung` decides more, trying the moves of
    cells it leaves open first (every move for `local`, which is cheap in bulk;
    `EASE_SAMPLE` of them for the slower rungs). When no move gains, the board is often
    ambiguous somewhere that `rung` cannot see into: a round of the rival walk (counts of
    `work` closes) breaks that. On a unique board `local` tries pairs of moves around the
    cells it leaves open, then any rung a step along the plateau (`PLATEAU` in a row at
    most) from which the next step may find a gain. A climb that stalls after deciding
    `RETRY_FROM` of the board goes back once to where it first did and climbs on from
    there, away from the layouts it has seen."""
    geo = geometry(puzzle.width, puzzle.height)
    here = _climb(Layout(geo, list(puzzle.regions)), solution, rung, deadline)
    visited = {here.layout.key()}
    back: Climb | None = None  # where a stall goes back to
    retried = False
    for _ in range(steps):
        if here.score == geo.size or deadline.expired():
            break
        after = _ease_step(here, rung, rng, deadline, work, visited)
        if after is None:
            if back is None or retried:
                return None
            after, retried = back, True
        elif back is None and after.score >= RETRY_FROM * geo.size:
            back = replace(after, flat=0)
        here = after
        visited.add(here.layout.key())
    if here.score < geo.size:
        return None
    return here.layout.puzzle(), here.solution


def _ease_step(
    here: Climb,
    rung: str,
    rng: Rng,
    deadline: Deadline,
    work: int,
    visited: set[tuple[int, ...]],
) -> Climb | None:
    """The next step of `ease` from `here` (see there), or None when it has none."""
    layout, solution, score, open_cells = here.layout, here.solution, here.score, here.open
    geo = layout.geo
    moves = layout.moves(solution, rng, first=open_cells)
    seed = None  # for `local`, which scores only moves of open cells
    for move in moves if rung == CHEAPEST else islice(moves, EASE_SAMPLE):
        if rung == CHEAPEST and not open_cells >> move[0] & 1:
            continue  # a decided cell: `bound` would find no gain (see `CHEAPEST`)
        moved = layout.moved(move)
        if moved.key() in visited:
            continue
        if moved.bound(rung, here.marks, 1 << move[0], deadline, solution) <= score:
            continue  # the bound shows no gain, so the rung from nothing has none
        if rung == CHEAPEST and seed is None:
            seed = layout.seed_for(open_cells)
        after = _climb(moved, solution, rung, deadline, seed=seed)
        if after.score > score:
            return after
    found = find_rivals(geo, layout.labels, solution, deadline.within(work=work))
    if found is None:
        return None
    if found:
        walked = walk_round(geo, layout.labels, solution, found, rng, visited)
        if walked is None:
            return None
        labels, solution, _ = walked
        return _climb(Layout(geo, labels), solution, rung, deadline, here.flat)
    if rung == CHEAPEST and here.flat == 0:
        twice = _two_moves(here, rng)
        if twice is not None:
            return twice
    if here.flat == PLATEAU:
        return None
    return _sideways(here, rung, rng, deadline, visited)


def _sideways(
    here: Climb, rung: str, rng: Rng, deadline: Deadline, visited: set[tuple[int, ...]]
) -> Climb | None:
    """A climb one move away, to a layout not seen before, on which `rung` decides as many
    cells as now: a step along a plateau, from which the next may find a gain. Moves of
    cells in or next to the part `rung` leaves open are tried, `SIDEWAYS_SAMPLE` at most."""
    layout, open_cells = here.layout, here.open
    near = open_cells | layout.geo.spread(open_cells)
    moves = layout.moves(here.solution, rng, first=open_cells, near=near)
    seed = None
    for move in islice(moves, SIDEWAYS_SAMPLE):
        moved = layout.moved(move)
        if moved.key() in visited:
            continue
        if rung == CHEAPEST and seed is None:
            seed = layout.seed_for(near)
        after = _climb(moved, here.solution, rung, deadline, here.flat + 1, seed)
        if after.score >= here.score:
            return after
    return None


def _two_moves(here: Climb, rng: Rng) -> Climb | None:
    """A climb two moves away on which `local` decides more than at `here` (else None):
    both move cells in or next to the part of the board `local` leaves open, and at most
    `TWO_MOVES` of each are tried."""
    layout, solution, score = here.layout, here.solution, here.score
    near = here.open | layout.geo.spread(here.open)
    never = Deadline.never()
    seed = None
    for first in islice(layout.moves(solution, rng, near=near), TWO_MOVES):
        once = layout.moved(first)
        opened = here.open >> first[0] & 1
        for second in islice(once.moves(solution, rng, near=near), TWO_MOVES):
            if not opened and not here.open >> second[0] & 1:
                continue  # a decided cell: `bound` would find no gain (see `CHEAPEST`)
            twice = once.moved(second)
            moved = (1 << first[0]) | (1 << second[0])
            if twice.bound(CHEAPEST, here.marks, moved, never) <= score:
                continue
            if seed is None:
                seed = layout.seed_for(near)
            after = _climb(twice, solution, CHEAPEST, never, seed=seed)
            if after.score > score:
                return after
    return None


def harden(
    puzzle: Norinori,
    solution: int,
    rung: str,
    rng: Rng,
    deadline: Deadline,
    work: int,
    steps: int,
) -> tuple[Norinori, int] | None:
    """A board that `rung` finishes and the rung below it does not, unique by the complete
    counter, reached from `puzzle` (which the rung below finishes) by moves, and its
    solution; None after `steps` steps, or when no move of a step's `HARDEN_SAMPLE` keeps
    the climb going.

    Each step tries moves in random order. A move after which the rung below stalls is the
    goal if the counter proves the board unique (in `work` closes) and `rung` finishes it.
    A move after which the rung below still finishes the board (so it is still unique),
    and `local` decides no more cells than before, is taken as the next step: the board
    leans less on the cheap rules, and the stronger ones carry more of it."""
    geo = geometry(puzzle.width, puzzle.height)
    below = LADDER.names[LADDER.names.index(rung) - 1]
    layout = Layout(geo, list(puzzle.regions))
    score = decided(layout, CHEAPEST, deadline)
    visited = {layout.key()}
    tally = Tally()  # a move tried is not a candidate: its failures stay out of the health
    for _ in range(steps):
        if deadline.expired():
            return None
        step = None
        for move in islice(layout.moves(solution, rng), HARDEN_SAMPLE):
            moved = layout.moved(move)
            if moved.key() in visited:
                continue
            local = decided(moved, CHEAPEST, deadline)
            board = moved.puzzle()
            if below == CHEAPEST:
                finished = local == geo.size
            else:
                finished = solve(board, below, deadline).complete
            if not finished:
                if (
                    prove(board, solution, tally, deadline.within(work=work))
                    and solve(board, rung, deadline, solution=solution).complete
                ):
                    return board, solution
                continue
            if local <= score:
                step = (moved, local)
                break
        if step is None:
            return None
        layout, score = step
        visited.add(layout.key())
    return None
