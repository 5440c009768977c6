"""The generic engine loops: a ladder of rules run to a fixpoint, and a counting search.

A genre supplies the rules and a `Space` (propagate, branch, read off a solution); these
loops supply the limit, the deadline and the bookkeeping, once for every genre.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, verdict_for
from gridproof.core.trace import Step

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Contradiction:
    """A position that cannot be completed, and why (a value, not an exception)."""

    rule: str
    text: str
    cells: tuple[int, ...] = ()
    regions: tuple[int, ...] = ()


Found = list[Step] | Contradiction
"""What a rule returns: the steps it can take now (possibly none), or a contradiction."""


@dataclass(frozen=True, slots=True)
class Rule(Generic[S]):
    """A named deduction rule: `find(position)` reports what it can deduce."""

    id: str
    title: str
    find: Callable[[S], Found]


class Position(Protocol):
    """A partial solution that rules read and steps change."""

    def apply(self, step: Step) -> Contradiction | None: ...


P = TypeVar("P", bound=Position)


@dataclass(slots=True)
class LadderRun(Generic[P]):
    """How far a ladder got: the final position, the steps in order, and how it stopped."""

    position: P
    steps: list[Step] = field(default_factory=list)
    contradiction: Contradiction | None = None
    timed_out: bool = False


def run_ladder(
    rules: Sequence[Rule[P]],
    position: P,
    deadline: Deadline,
    max_steps: int | None = None,
) -> LadderRun[P]:
    """Apply the cheapest rule that makes progress, then restart from the cheapest.

    Stops at a fixpoint, a contradiction, the deadline, or after `max_steps` steps (a hint
    asks for one). The hardest rule used is the difficulty evidence.
    """
    run = LadderRun(position)
    while True:
        if deadline.expired():
            run.timed_out = True
            return run
        for rule in rules:
            found = rule.find(position)
            if isinstance(found, Contradiction):
                run.contradiction = found
                return run
            if found:
                break
        else:
            return run
        for step in found:
            if max_steps is not None and len(run.steps) >= max_steps:
                return run
            problem = position.apply(step)
            run.steps.append(step)
            if problem is not None:
                run.contradiction = problem
                return run


class Space(Protocol[S]):
    """What a counting search needs from a genre."""

    propagations: int

    def propagate(self, state: S) -> S | None:
        """`state` closed under the genre's propagation, or None on a contradiction."""

    def split(self, state: S) -> Sequence[S]:
        """Independent parts of a propagated state (no constraint links two parts), each a
        state whose search stays inside its part; `[state]` when it does not fall apart."""

    def branches(self, state: S) -> Sequence[S] | None:
        """Sub-states that partition `state`'s solutions, or None when `state` is solved."""

    def solution(self, state: S) -> int:
        """The shaded cells decided in `state` (all of them once it is solved)."""


class _Counter(Generic[S]):
    """Depth-first counting that multiplies independent parts instead of nesting them."""

    def __init__(self, space: Space[S], deadline: Deadline) -> None:
        self.space = space
        self.deadline = deadline
        self.nodes = 0

    def count(self, root: S, limit: int) -> tuple[list[int], bool]:
        """Up to `limit` solutions below `root`, and whether the search finished."""
        space = self.space
        solutions: list[int] = []
        stack = [root]
        while stack:
            if self.deadline.expired():
                return solutions, False
            self.nodes += 1
            state = space.propagate(stack.pop())
            if self.deadline.expired():  # a propagation cut short proves nothing
                return solutions, False
            if state is None:
                continue
            parts = space.split(state)
            if len(parts) > 1:
                found, finished = self.product(state, parts, limit - len(solutions))
                solutions += found
                if not finished or len(solutions) >= limit:
                    return solutions, finished
                continue
            children = space.branches(state)
            if children is None:
                solutions.append(space.solution(state))
                if len(solutions) >= limit:
                    return solutions, True
                continue
            stack.extend(reversed(children))
        return solutions, True

    def product(self, state: S, parts: Sequence[S], need: int) -> tuple[list[int], bool]:
        """Up to `need` solutions of a state made of independent parts, counted one part at
        a time in the order given (a genre lists its cheapest parts first): a part with no
        solution ends the node before the rest are searched."""
        per_part = []
        for part in parts:
            found, finished = self.count(part, need)
            if not finished:
                return [], False
            if not found:
                return [], True
            per_part.append(found)
        combined = [self.space.solution(state)]
        for found in per_part:
            combined = [whole | piece for whole in combined for piece in found][:need]
        return combined, True


def count_solutions(space: Space[S], root: S, limit: int, deadline: Deadline) -> Outcome:
    """Count solutions of `root` up to `limit` by propagation, splitting into independent
    parts, and depth-first branching. The deadline is checked at every node; running out
    gives `timeout`, never a guess."""
    if limit < 2:
        raise ValueError(
            f"limit must be at least 2 (uniqueness needs a second search), got {limit}"
        )
    started = deadline.elapsed()
    counter = _Counter(space, deadline)
    solutions, finished = counter.count(root, limit)
    return Outcome(
        verdict=verdict_for(len(solutions), finished),
        solutions=tuple(solutions[:limit]),
        limit=limit,
        nodes=counter.nodes,
        propagations=space.propagations,
        elapsed=deadline.elapsed() - started,
    )
