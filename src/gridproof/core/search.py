"""The generic counting search (the ladder's loop is in `core.ladder`).

A genre supplies a `Space` (propagate, split, branch, read off a solution); this loop
supplies the limit, the deadline, the work count and the bookkeeping, once for every genre.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, verdict_for

S = TypeVar("S")


class Space(Protocol[S]):
    """What a counting search needs from a genre."""

    propagations: int
    """Propagation work done so far (line solves, closes): what the deadline is charged."""

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
            before = space.propagations
            state = space.propagate(stack.pop())
            # the work a count may spend is counted in propagations, never in seconds
            self.deadline.charge(space.propagations - before)
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
