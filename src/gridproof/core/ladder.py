"""Rule ladders as data: every genre's deductions, rungs and grades in one table.

A genre's `rules.py` declares each deduction with `@rule(id, title, template)` beside the
function that finds it, and ends with one `Ladder` of `Rung`s, cheapest first, in the
manner of Simon Tatham's `DIFFLIST`: each row ties a rung's name to the grade of a board
that rung finishes and the rules it adds. Everything else (the generators' grades, the
player's rule titles, the CLI's rung names, the studies) reads the table; nothing else
spells a rung or a rule name.

A rule returns the steps it can take now, or the `Violation` that shows the position
cannot be completed (a value, not an exception). Its step text is its `template` filled
with the fields the rule names, so the sentence a person reads lives in the table too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, quote
from gridproof.core.grid import Sized, bits
from gridproof.core.trace import Step, Violation


class Grade(StrEnum):
    """The grades a board can have, easiest first: the one vocabulary every ladder draws
    its rungs' grades from, so that the bank, its evidence, the day's puzzle and the web
    compare grades as values, never as spellings. A genre offers some of them
    (`Ladder.grades`); a `Grade` equals its name as a string, so JSON and codes carry it
    unchanged."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"

    def __repr__(self) -> str:
        """Shown as the string it equals (`'hard'`), in a notebook as in JSON."""
        return repr(self.value)


def grade_of(name: str) -> Grade:
    """The `Grade` spelled `name` (`CodeError` naming the grades when it is none)."""
    try:
        return Grade(name)
    except ValueError:
        known = ", ".join(Grade)
        raise CodeError(f"unknown grade {quote(name)}; grades: {known}") from None


class Position(Protocol):
    """A partial solution that rules read and steps change.

    A genre's position may also carry `solution` (None unless the caller knows a solution
    the marks agree with: a hint knows the puzzle's, a generator its candidate's; `offer`
    and `solve` set it): its probe then tries each cell only the way the solution does not
    have it. The other way agrees with a solution, so no sound rule can refute it: the
    step found is the same, found sooner. And it may
    carry `prefer` (None, or a rank of cells, lowest first: a hint's nearness to the
    player's last marks): its probe then tries its cells in that order, so the step it
    finds is one near where the player works (any step it finds is a true deduction)."""

    @property
    def shaded(self) -> int: ...

    @property
    def empty(self) -> int: ...

    def apply(self, step: Step) -> Violation | None: ...


P = TypeVar("P", bound=Position)
Q = TypeVar("Q", bound=Sized)
Found = list[Step] | Violation
"""What a rule returns: the steps it can take now (possibly none), or a contradiction."""


@dataclass(frozen=True, slots=True)
class Rule(Generic[P]):
    """A named deduction: `find(position)` reports what it can deduce now.

    `template` is the sentence of one step, `conflict` the sentence of the contradiction
    the rule can find (if any); both are `str.format` templates over the fields the rule
    passes to `step` and `violation`.
    """

    id: str
    title: str
    template: str
    find: Callable[[P], Found]
    conflict: str = ""
    explain: Callable[[P, Step], Step] | None = None
    """`explain(position, step)`: the step with the cells and regions its conclusion rests
    on, where working them out costs too much to do for every step of a solve; only the
    step a hint shows is explained (`explained`). None: the rule's steps cite them as found."""
    narrow: Callable[[P, Step, int], Step] | None = None
    """`narrow(position, step, keep)`: the step said of only the cells `keep` of those it
    decides (a probe's chain reads some of what a step decides, and its sentence names only
    those: "so its other neighbour r2c5 is empty" where the step found three). None: the
    step is said whole."""
    salience: int = 0
    """How readily a person notices this rule's steps, in cells: when a hint chooses among
    the steps open (`service.play.near`), a step of this rule counts as this many cells
    nearer the player's last marks (negative: further). People fill in around a piece they
    just finished at once (Norinori's completed domino, a star's neighbours) and come to
    some deductions later than their distance says. Each genre's values are measured on
    the tuning part of the janko solve paths (`benchmarks/human.py`); 0 for most rules."""

    def __call__(self, position: P) -> Found:
        return self.find(position)

    def step(
        self,
        *,
        shaded: int = 0,
        empty: int = 0,
        cells: Iterable[int] = (),
        regions: Iterable[int] = (),
        **fields: Any,
    ) -> Step:
        """A step of this rule, its text the template filled with `fields`."""
        return Step(
            self.id,
            self.template.format(**fields),
            shaded=shaded,
            empty=empty,
            cells=tuple(cells),
            regions=tuple(regions),
        )

    def violation(
        self, *, cells: Iterable[int] = (), regions: Iterable[int] = (), **fields: Any
    ) -> Violation:
        """The contradiction this rule found, its text the `conflict` template filled."""
        return Violation(
            self.id, self.conflict.format(**fields), cells=tuple(cells), regions=tuple(regions)
        )


def rule(
    id: str,
    title: str,
    template: str,
    conflict: str = "",
    explain: Callable[[P, Step], Step] | None = None,
    salience: int = 0,
    narrow: Callable[[P, Step, int], Step] | None = None,
) -> Callable[[Callable[[P], Found]], Rule[P]]:
    """Declare the decorated function as the rule `id` (see `Rule`)."""

    def declare(find: Callable[[P], Found]) -> Rule[P]:
        return Rule(id, title, template, find, conflict, explain, narrow, salience)

    return declare


@dataclass(frozen=True, slots=True)
class Rung(Generic[P]):
    """One row of a ladder: its name, the grade of a board it finishes (with the rungs
    before it), what it adds in a sentence, and its rules, cheapest first."""

    name: str
    grade: str
    summary: str
    rules: tuple[Rule[P], ...]


@dataclass(frozen=True)
class Ladder(Generic[P]):
    """A genre's rungs, cheapest first; each rung includes the rules of the rungs before.

    `beyond` is the grade of a board the whole ladder cannot finish alone (a board that
    needs search), where the genre names one.
    """

    rungs: tuple[Rung[P], ...]
    beyond: str | None = None
    _rules: dict[str, tuple[Rule[P], str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.rungs:
            raise ValueError("a ladder needs at least one rung")
        names = [rung.name for rung in self.rungs]
        if len(set(names)) != len(names):
            raise ValueError(f"rung names repeat: {names}")
        rules: dict[str, tuple[Rule[P], str]] = {}
        for rung in self.rungs:
            for each in rung.rules:
                if each.id in rules:
                    raise ValueError(f"rule {each.id!r} appears twice in the ladder")
                rules[each.id] = (each, rung.name)
        object.__setattr__(self, "_rules", rules)
        for grade in [*(rung.grade for rung in self.rungs), self.beyond]:
            if grade is not None and grade not in set(Grade):
                raise ValueError(f"grade {grade!r} is not one of {', '.join(Grade)}")

    @property
    def names(self) -> tuple[str, ...]:
        """The rung names, cheapest first."""
        return tuple(rung.name for rung in self.rungs)

    @property
    def top(self) -> str:
        """The name of the last (strongest) rung."""
        return self.rungs[-1].name

    @property
    def grades(self) -> tuple[Grade, ...]:
        """Every grade a board can have, easiest first (each once)."""
        seen = [Grade(rung.grade) for rung in self.rungs]
        if self.beyond is not None:
            seen.append(Grade(self.beyond))
        return tuple(dict.fromkeys(seen))

    @property
    def rules(self) -> tuple[Rule[P], ...]:
        """Every rule, cheapest first."""
        return tuple(each for rung in self.rungs for each in rung.rules)

    def rung(self, name: str) -> Rung[P]:
        for rung in self.rungs:
            if rung.name == name:
                return rung
        raise CodeError(f"unknown rung {quote(name)}; rungs: {', '.join(self.names)}")

    def rules_to(self, name: str) -> tuple[Rule[P], ...]:
        """The rules of rung `name` and of every rung before it, cheapest first."""
        return tuple(each for rung in self.rungs_to(name) for each in rung.rules)

    def rungs_to(self, name: str) -> tuple[Rung[P], ...]:
        """Rung `name` and every rung before it, cheapest first."""
        return self.rungs[: self.names.index(self.rung(name).name) + 1]

    def rule(self, rule_id: str) -> Rule[P]:
        try:
            return self._rules[rule_id][0]
        except KeyError:
            raise CodeError(f"unknown rule {quote(rule_id)}") from None

    def rung_of(self, rule_id: str) -> str:
        """The rung that adds rule `rule_id`."""
        self.rule(rule_id)
        return self._rules[rule_id][1]

    def title(self, rule_id: str) -> str:
        """The rule's name in words, as the player shows it."""
        return self.rule(rule_id).title

    def grade(self, rung: str | None) -> str:
        """The grade of a board that `rung` finishes (None: no rung does)."""
        if rung is None:
            if self.beyond is None:
                return self.rungs[-1].grade
            return self.beyond
        return self.rung(rung).grade

    def rung_for(self, grade: str) -> str | None:
        """The strongest rung whose boards have `grade`: the one that must finish a board
        of that grade (None for the `beyond` grade, or a grade the ladder lacks)."""
        found = None
        for rung in self.rungs:
            if rung.grade == grade:
                found = rung.name
        return found

    def hardest(self, steps: Iterable[Step]) -> str:
        """The strongest rung any of `steps` needed (the first rung for none)."""
        index = 0
        names = self.names
        for step in steps:
            index = max(index, names.index(self.rung_of(step.rule)))
        return names[index]


class Seen:
    """What each rule last looked at, so a rule reads only what changed since: the one
    "what changed" memory every genre's position keeps (copied with the position)."""

    __slots__ = ("_looked",)

    def __init__(self, looked: dict[str, tuple[int, int]] | None = None) -> None:
        self._looked = {} if looked is None else looked

    def changed(self, rule_id: str, shaded: int, empty: int, everything: int) -> int:
        """The cells decided since rule `rule_id` last looked (`everything` the first
        time), and remember the marks as looked at."""
        before = self._looked.get(rule_id)
        self._looked[rule_id] = (shaded, empty)
        if before is None:
            return everything
        return (shaded ^ before[0]) | (empty ^ before[1])

    def copy(self) -> Seen:
        return Seen(dict(self._looked))


@dataclass(slots=True)
class LadderRun(Generic[P]):
    """How far a ladder got: the final position, the steps in order, and how it stopped."""

    position: P
    steps: list[Step] = field(default_factory=list)
    contradiction: Violation | None = None
    timed_out: bool = False
    choices: list[int] = field(default_factory=list)
    """For each step, how many deductions were open when it was taken: the steps found
    together that decide something new (the steps of one batch share the count; 1 means a
    single way forward)."""
    rounds: list[int] = field(default_factory=list)
    """How many steps each batch took, in order."""


def run_ladder(
    rules: Sequence[Rule[P]],
    position: P,
    deadline: Deadline,
    max_steps: int | None = None,
) -> LadderRun[P]:
    """Apply every step of the cheapest rule that makes progress, then restart from the
    cheapest: how a probe's trial propagates under the rules below it, one rule at a time.

    Stops at a fixpoint, a contradiction, the deadline (checked before every rule and
    every step), or after `max_steps` steps. A step that decides nothing new by the time
    its turn comes (another of its batch decided its cells) is left out.
    """
    return _run([(each,) for each in rules], position, deadline, max_steps)


def run_rounds(
    rungs: Sequence[Rung[P]],
    position: P,
    deadline: Deadline,
    max_steps: int | None = None,
) -> LadderRun[P]:
    """The ladder's solve: in rounds, each applying every step the cheapest rung that can
    make progress offers (all its rules' steps, as `offer` gives them), then starting again
    from the cheapest rung. People take the easy deductions of every kind wherever they
    see them before they reach for a harder kind: a Nonogram solver reading a line marks
    its overlap and its unreachable ends together, not every overlap on the board first.
    The rounds are the dependency depth's (`depth`); otherwise as `run_ladder`. Which rung
    finishes a board, and so its grade, does not depend on the order."""
    return _run([rung.rules for rung in rungs], position, deadline, max_steps)


def _run(
    batches: Sequence[Sequence[Rule[P]]],
    position: P,
    deadline: Deadline,
    max_steps: int | None,
) -> LadderRun[P]:
    """`run_ladder` and `run_rounds`: apply the steps of the first of `batches` whose rules
    decide something new, then restart from the first."""
    run = LadderRun(position)
    while True:
        found = _first_batch(batches, position, deadline)
        if isinstance(found, Violation):
            run.contradiction = found
            return run
        if found is None:
            run.timed_out = True
            return run
        if not found:
            return run
        taken = 0
        for step in found:
            if max_steps is not None and len(run.steps) >= max_steps:
                break
            if deadline.expired():
                run.timed_out = True
                break
            if not _decides_new(step, position):
                continue  # an earlier step of the batch decided its cells
            problem = position.apply(step)
            run.steps.append(step)
            run.choices.append(len(found))
            taken += 1
            if problem is not None:
                run.contradiction = problem
                break
        if taken:
            run.rounds.append(taken)
        if run.contradiction is not None or run.timed_out:
            return run
        if max_steps is not None and len(run.steps) >= max_steps:
            return run


def _first_batch(
    batches: Sequence[Sequence[Rule[P]]], position: P, deadline: Deadline
) -> list[Step] | Violation | None:
    """The steps of the first batch of rules that decide something new at `position`
    ([] when none does: a fixpoint), the contradiction a rule found, or None when the
    deadline ended the search first."""
    for rules in batches:
        steps: list[Step] = []
        for each in rules:
            if deadline.expired():
                return None
            found = each.find(position)
            if isinstance(found, Violation):
                return found
            steps += found
        fresh = [step for step in steps if _decides_new(step, position)]
        if fresh:
            return fresh
    return []


def _decides_new(step: Step, position: Position) -> bool:
    """Whether `step` decides a cell `position` has not decided yet."""
    return bool(step.shaded & ~position.shaded or step.empty & ~position.empty)


@dataclass(frozen=True, slots=True)
class Progress:
    """How far one rung of a genre's ladder gets alone from an empty (or given) grid."""

    rung: str
    shaded: int
    empty: int
    steps: tuple[Step, ...]
    contradiction: Violation | None = None
    timed_out: bool = False
    size: int = 0
    choices: tuple[int, ...] = ()
    """For each step, how many deductions were open when it was taken (see `LadderRun`)."""
    notes: tuple[str, ...] = ()
    """What the rules skipped as too costly, in words (see `Deadline.note`)."""

    @property
    def decided_fraction(self) -> float:
        return (self.shaded | self.empty).bit_count() / self.size if self.size else 1.0

    @property
    def complete(self) -> bool:
        """Whether the rung decided every cell without a contradiction or a timeout."""
        return self.decided_fraction == 1.0 and self.contradiction is None and not self.timed_out


GIVEN = "given"
"""The rule id of the marks a caller starts a ladder from (not a deduction)."""


def given(
    start: Callable[[Q, Deadline], P], puzzle: Q, deadline: Deadline, shaded: int, empty: int
) -> tuple[P, Violation | None]:
    """The position `start` makes of `puzzle`, with the marks given (`shaded`, `empty`)
    applied as one `GIVEN` step, and the clash they make (a cell both ways, a mark where the
    genre allows none), if any."""
    position = start(puzzle, deadline)
    if not shaded | empty:
        return position, None
    return position, position.apply(Step(GIVEN, "the marks given", shaded=shaded, empty=empty))


def solve(
    ladder: Ladder[P],
    start: Callable[[Q, Deadline], P],
    puzzle: Q,
    rung: str,
    deadline: Deadline,
    *,
    shaded: int = 0,
    empty: int = 0,
    max_steps: int | None = None,
    solution: int | None = None,
) -> Progress:
    """Run `ladder` up to `rung` on `puzzle` from the given marks (`shaded`, `empty`),
    starting from `start(puzzle, deadline)`: what that rung alone decides, step by step,
    in the rounds of `run_rounds`. Marks that clash (a cell both shaded and empty, paint
    where the genre allows none) are the contradiction. An unknown rung is a
    `CodeError`. `solution`, a solution the marks agree with (one of several will do),
    lets a probe skip the trials that agree with it, as in `offer`: no sound rule refutes
    them, so the steps are the same, found sooner (a generator grading its candidate)."""
    rungs = ladder.rungs_to(rung)
    deadline = deadline.within()  # its notes are this run's
    position, problem = given(start, puzzle, deadline, shaded, empty)
    if solution is not None and hasattr(position, "solution"):
        position.solution = solution
    steps: tuple[Step, ...] = ()
    choices: tuple[int, ...] = ()
    timed_out = False
    if problem is None:
        run = run_rounds(rungs, position, deadline, max_steps)
        steps, problem, timed_out = tuple(run.steps), run.contradiction, run.timed_out
        choices = tuple(run.choices)
    return Progress(
        rung=rung,
        shaded=position.shaded,
        empty=position.empty,
        steps=steps,
        contradiction=problem,
        timed_out=timed_out,
        size=puzzle.width * puzzle.height,
        choices=choices,
        notes=tuple(deadline.notes),
    )


@dataclass(frozen=True, slots=True)
class Offer:
    """What the cheapest rung that can make progress offers at a position, with the rungs
    of its grade that follow it: every step their rules can take now (rung by rung, rule
    by rule, cheapest first), or the contradiction one of the first rung's rules found;
    `timed_out` when the deadline ended the search before any was found."""

    steps: tuple[Step, ...] = ()
    contradiction: Violation | None = None
    timed_out: bool = False


def offer(
    ladder: Ladder[P],
    start: Callable[[Q, Deadline], P],
    puzzle: Q,
    deadline: Deadline,
    *,
    shaded: int = 0,
    empty: int = 0,
    solution: int | None = None,
    prefer: Callable[[int], int] | None = None,
) -> Offer:
    """The deductions open at the given marks (see `Offer`): what a hint chooses from.
    Every one is a step the ladder could take next; which of them comes first is the
    caller's choice, the grade is the ladder's: rungs of one grade are one kind of
    difficulty for a person (Nondango's region counts and lines of three are both easy),
    so a step of the next rung of that grade near where they work is as open to them as
    one of the first far away (`benchmarks/human.py`: Nondango's next cell in the hint 70%
    / 64% tune / held with the first rung's steps alone, 74% / 67% with its grade's). A
    contradiction or the deadline met in a later rung of the grade ends the offer with
    the steps found. `solution`, when the caller knows it and the marks agree with it,
    lets a probe skip the trials nothing can refute; `prefer` orders the cells a probe
    tries (see `Position`)."""
    deadline = deadline.within()
    position, problem = given(start, puzzle, deadline, shaded, empty)
    if problem is not None:
        return Offer(contradiction=problem)
    if solution is not None and hasattr(position, "solution"):
        position.solution = solution
    if prefer is not None and hasattr(position, "prefer"):
        position.prefer = prefer
    rungs = ladder.rungs
    for index, rung in enumerate(rungs):
        steps: list[Step] = []
        for each in rung.rules:
            if deadline.expired():
                return Offer(tuple(steps), timed_out=not steps)
            found = each.find(position)
            if isinstance(found, Violation):
                return Offer(contradiction=found)
            steps += found
        if steps:
            for later in rungs[index + 1 :]:
                if later.grade != rung.grade:
                    break
                for each in later.rules:
                    found = [] if deadline.expired() else each.find(position)
                    if isinstance(found, Violation):
                        return Offer(tuple(steps))
                    steps += found
            return Offer(tuple(steps))
    return Offer()


def explained(
    ladder: Ladder[P],
    start: Callable[[Q, Deadline], P],
    puzzle: Q,
    deadline: Deadline,
    step: Step,
    *,
    shaded: int = 0,
    empty: int = 0,
) -> Step:
    """`step`, one `offer` gave at the given marks, citing what its conclusion rests on:
    its rule's `explain` at those marks, or the step as it is when the rule has none."""
    explain = ladder.rule(step.rule).explain
    if explain is None:
        return step
    position, problem = given(start, puzzle, deadline.within(), shaded, empty)
    return step if problem is not None else explain(position, step)


def depth(
    ladder: Ladder[P],
    start: Callable[[Q, Deadline], P],
    puzzle: Q,
    deadline: Deadline,
    *,
    shaded: int = 0,
    empty: int = 0,
) -> tuple[int, ...]:
    """How long the solve's chain of dependencies is: the ladder's solve goes in rounds
    (`run_rounds`), each round every deduction the cheapest productive rung offers at the
    position it starts from; a step of round k waited for one of round k-1. The number of
    rounds (the tuple's length; the steps each round took its items) is the dependency
    depth, the second factor of Pelanek's model of Sudoku difficulty (steps that can be
    taken side by side count once). It ends where the ladder stops: a fixpoint, a
    contradiction or the deadline (then the rounds so far); from the given marks, if any
    (none when they clash)."""
    deadline = deadline.within()
    position, problem = given(start, puzzle, deadline, shaded, empty)
    if problem is not None:
        return ()
    return tuple(run_rounds(ladder.rungs, position, deadline).rounds)


def needed_steps(
    steps: Sequence[Step],
    why: Violation,
    assumed: int,
    region: Callable[[int], int] | None = None,
) -> list[Step]:
    """The steps of a probe's trial that its contradiction needs, in order: walking back
    from the cells `why` names (and the cells of the regions it names, `region(id)` a
    region's cell mask, when given), each step that decided a cell still needed is kept
    and the cells it looked at (and its regions') become needed in turn (the `assumed`
    cells need nothing). The chain a probe cites, as short as the steps' cited cells
    allow."""
    return [step for step, _ in chain_parts(steps, why, assumed, region)]


def chain_parts(
    steps: Sequence[Step],
    why: Violation,
    assumed: int,
    region: Callable[[int], int] | None = None,
) -> list[tuple[Step, int]]:
    """`needed_steps`, each with the cells it decides that the steps after it (or `why`)
    read."""

    def looked_at(cells: Iterable[int], regions: Iterable[int]) -> int:
        mask = 0
        for cell in cells:
            mask |= 1 << cell
        if region is not None:
            for rid in regions:
                mask |= region(rid)
        return mask

    needed = looked_at(why.cells, why.regions)
    kept: list[tuple[Step, int]] = []
    for step in reversed(steps):
        decided = step.shaded | step.empty
        if decided & needed:
            kept.append((step, decided & needed))
            needed &= ~decided
            needed |= looked_at(step.cells, step.regions)
            needed &= ~assumed
    return kept[::-1]


def chain_said(
    rules: Iterable[Rule[P]], position: P, parts: Sequence[tuple[Step, int]]
) -> list[Step]:
    """The steps of a chain (`chain_parts`) as its sentence says them: each of only the
    cells the rest of the chain reads, where its rule can say that (`Rule.narrow`), else
    whole."""
    narrow = {each.id: each.narrow for each in rules}
    said = []
    for step, keep in parts:
        how = narrow.get(step.rule)
        whole = keep == step.shaded | step.empty
        said.append(step if how is None or whole or not keep else how(position, step, keep))
    return said


def chain_cited(
    cell: int,
    steps: Sequence[Step],
    why: Violation | None,
    region: Callable[[int], int] | None = None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cells and regions a probe on `cell` cites: the cell, what each step of its chain
    (`needed_steps`) looked at and, of what it decided, what the rest of the chain reads
    (with `region(id)` a region's cell mask, as `needed_steps` takes it; without, all it
    decided), and the contradiction's own, each once and in that order: everything a
    person reads to follow the chain."""
    if why is not None and region is not None:
        return parts_cited(cell, chain_parts(steps, why, 1 << cell, region), why)
    return parts_cited(cell, [(step, step.shaded | step.empty) for step in steps], why)


def parts_cited(
    cell: int, parts: Sequence[tuple[Step, int]], why: Violation | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`chain_cited` of a chain already walked (`chain_parts`: each step with what of it
    the rest reads), for a caller that also says the chain (`chain_said`)."""
    cells: dict[int, None] = {cell: None}
    regions: dict[int, None] = {}
    for step, decided in parts:
        cells.update(dict.fromkeys(step.cells))
        cells.update(dict.fromkeys(bits(decided)))
        regions.update(dict.fromkeys(step.regions))
    if why is not None:
        cells.update(dict.fromkeys(why.cells))
        regions.update(dict.fromkeys(why.regions))
    return tuple(cells), tuple(regions)


def cheapest_rung(
    ladder: Ladder[P],
    start: Callable[[Q, Deadline], P],
    puzzle: Q,
    deadline: Deadline,
    solution: int | None = None,
) -> tuple[str | None, Progress]:
    """The cheapest rung that finishes `puzzle` alone (None if none does), with the
    progress of the last rung tried: the grade is `ladder.grade(rung)`. `solution`, one of
    the puzzle's, spares a probe the trials it bears out (`solve`: the same steps)."""
    progress = None
    for name in ladder.names:
        progress = solve(ladder, start, puzzle, name, deadline, solution=solution)
        if progress.complete:
            return name, progress
        if progress.timed_out:
            break
    assert progress is not None
    return None, progress


@dataclass(frozen=True, slots=True)
class Difficulty:
    """How hard a puzzle is, read off the ladder's own trace.

    `grade` is the grade of the cheapest rung that finishes the puzzle (`rung`; None when
    no rung does, graded `Ladder.beyond`). `score` also counts how much work the solve
    takes, in the spirit of the measures human-difficulty studies found to predict solve
    times (number of steps, the difficulty of each, how many choices were open): every
    step costs `3 ** k` for a rule of the k-th rung (0-based), divided by the number of
    deductions open when it was taken; every cell the ladder leaves undecided costs as a
    step of a rung above the top with a single way forward. `steps`, `hardest` (the rung
    of the hardest step) and `tightest` (the fewest deductions open at any step) are
    the figures behind it.
    """

    grade: str
    score: float
    rung: str | None
    steps: int
    hardest: str
    tightest: int

    def as_dict(self) -> dict[str, object]:
        return {
            "grade": self.grade,
            "score": self.score,
            "rung": self.rung,
            "steps": self.steps,
            "hardest": self.hardest,
            "tightest": self.tightest,
        }


def rate(ladder: Ladder[P], rung: str | None, progress: Progress) -> Difficulty:
    """The difficulty of a puzzle that `rung` finishes (None: none does), from the
    progress of that rung (or of the top rung when none finishes it)."""
    names = ladder.names
    weight = {each.id: 3 ** names.index(name) for each, name in ladder._rules.values()}
    score = sum(
        weight[step.rule] / max(1, open_)
        for step, open_ in zip(progress.steps, progress.choices, strict=False)
    )
    undecided = progress.size - (progress.shaded | progress.empty).bit_count()
    if rung is None:
        score += undecided * 3 ** len(names)
    return Difficulty(
        grade=ladder.grade(rung),
        score=round(score, 1),
        rung=rung,
        steps=len(progress.steps),
        hardest=ladder.hardest(progress.steps),
        tightest=min(progress.choices, default=0),
    )


RATING_BAND = 10.0
"""How wide each grade's band of ratings is: easy 0 to 9.9, medium 10 to 19.9, ..."""


def rating(grades: Sequence[str], grade: str, score: float, cells: int) -> float:
    """The board's rating: its grade and its score on one scale, so that a harder grade
    always rates higher than an easier one, whatever the size. The grade's position among
    `grades` (easiest first) gives the tens, `RATING_BAND` wide; the score per cell `w`
    (the ladder's work per cell: sizes compare) places the board inside its band as
    `RATING_BAND * w / (w + 1)`, below 9.9, rising with the score. One decimal. The raw
    `score` grows with the board's size and ranks boards only within one grade and size.
    A grade the ladder does not list rates above every listed one."""
    band = grades.index(grade) if grade in grades else len(grades)
    per_cell = max(0.0, score) / max(1, cells)
    inside = min(RATING_BAND - 0.1, RATING_BAND * per_cell / (per_cell + 1))
    return round(band * RATING_BAND + math.floor(inside * 10) / 10, 1)


def grade_puzzle(
    ladder: Ladder[P],
    start: Callable[[Q, Deadline], P],
    puzzle: Q,
    deadline: Deadline,
    solution: int | None = None,
) -> Difficulty:
    """The difficulty of `puzzle`: the cheapest rung that finishes it, rated (`solution`:
    as in `cheapest_rung`, the same grade sooner)."""
    rung, progress = cheapest_rung(ladder, start, puzzle, deadline, solution)
    return rate(ladder, rung, progress)
