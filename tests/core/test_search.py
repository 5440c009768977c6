"""The generic counting loop and ladder, on a toy genre small enough to count by hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict, verdict_for
from gridproof.core.search import count_solutions


@dataclass(frozen=True)
class Toy:
    """Bits 0..n-1 each set or not; a solution sets exactly `ones[g]` bits of each group g."""

    decided: int
    value: int
    focus: int


class ToySpace:
    """Groups of bits that never interact, so `split` may hand each group out alone."""

    def __init__(self, groups: Sequence[int], ones: Sequence[int], split: bool) -> None:
        self.groups, self.ones, self.splits = groups, ones, split
        self.propagations = 0

    def propagate(self, s: Toy) -> Toy | None:
        self.propagations += 1
        for group, want in zip(self.groups, self.ones, strict=True):
            have = (s.value & group).bit_count()
            open_ = (group & ~s.decided).bit_count()
            if have > want or have + open_ < want:
                return None
        return s

    def split(self, s: Toy) -> Sequence[Toy]:
        if not self.splits:
            return [s]
        parts = [g & s.focus for g in self.groups if g & s.focus & ~s.decided]
        if len(parts) < 2:
            return [s]
        return [Toy(s.decided, s.value, part) for part in parts]

    def branches(self, s: Toy) -> Sequence[Toy] | None:
        open_ = s.focus & ~s.decided
        if not open_:
            return None
        bit = open_ & -open_
        return [
            Toy(s.decided | bit, s.value | bit, s.focus),
            Toy(s.decided | bit, s.value, s.focus),
        ]

    def solution(self, s: Toy) -> int:
        return s.value


def brute(groups: Sequence[int], ones: Sequence[int]) -> list[int]:
    n = max(groups).bit_length()
    return [
        v
        for v in range(1 << n)
        if all((v & g).bit_count() == k for g, k in zip(groups, ones, strict=True))
    ]


CASES = [
    ([0b111, 0b111000], [1, 2]),  # 3 * 3 = 9 solutions
    ([0b11, 0b1100, 0b110000], [2, 2, 2]),  # exactly one
    ([0b11, 0b1100], [2, 3]),  # none
    ([0b1111], [2]),  # six
]


@pytest.mark.parametrize(("groups", "ones"), CASES)
@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("limit", [2, 3, 100])
def test_counts_match_brute_force(
    groups: list[int], ones: list[int], split: bool, limit: int
) -> None:
    full = (1 << max(groups).bit_length()) - 1
    space = ToySpace(groups, ones, split)
    outcome = count_solutions(space, Toy(0, 0, full), limit, Deadline.never())
    expected = brute(groups, ones)
    assert outcome.verdict is verdict_for(min(len(expected), limit), True)
    assert len(outcome.solutions) == min(len(expected), limit)
    assert set(outcome.solutions) <= set(expected)
    assert len(set(outcome.solutions)) == len(outcome.solutions)


def test_split_multiplies_instead_of_nesting() -> None:
    groups = [0b111 << (3 * k) for k in range(6)]
    ones = [1] * 6
    full = (1 << 18) - 1
    nested = count_solutions(
        ToySpace(groups, ones, False), Toy(0, 0, full), 10**6, Deadline.never()
    )
    split = count_solutions(ToySpace(groups, ones, True), Toy(0, 0, full), 10**6, Deadline.never())
    assert len(nested.solutions) == len(split.solutions) == 3**6
    assert set(nested.solutions) == set(split.solutions)
    assert split.nodes < nested.nodes


def test_expired_deadline_is_timeout_never_unique() -> None:
    space = ToySpace([0b11], [2], False)
    outcome = count_solutions(space, Toy(0, 0, 0b11), 2, Deadline(0))
    assert outcome.verdict is Verdict.TIMEOUT
    assert outcome.solutions == ()


def test_cancelled_deadline_stops_at_once() -> None:
    deadline = Deadline.never()
    deadline.cancel()
    outcome = count_solutions(ToySpace([0b1111], [2], False), Toy(0, 0, 0b1111), 2, deadline)
    assert outcome.verdict is Verdict.TIMEOUT


def test_limit_below_two_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        count_solutions(ToySpace([1], [1], False), Toy(0, 0, 1), 1, Deadline.never())


@pytest.mark.parametrize(
    ("found", "finished", "verdict"),
    [
        (0, True, Verdict.NONE),
        (1, True, Verdict.UNIQUE),
        (2, True, Verdict.MULTIPLE),
        (0, False, Verdict.TIMEOUT),
        (1, False, Verdict.TIMEOUT),
        (2, False, Verdict.MULTIPLE),
    ],
)
def test_verdicts(found: int, finished: bool, verdict: Verdict) -> None:
    assert verdict_for(found, finished) is verdict


def test_the_cases_cover_none_unique_and_multiple() -> None:
    assert {min(len(brute(g, k)), 2) for g, k in CASES} == {0, 1, 2}


def test_every_propagation_is_charged_to_the_deadline() -> None:
    groups = [0b111 << (3 * k) for k in range(4)]
    space = ToySpace(groups, [1] * 4, False)
    parent = Deadline.never()
    child = parent.within(work=10**6)
    outcome = count_solutions(space, Toy(0, 0, (1 << 12) - 1), 10**6, child)
    assert len(outcome.solutions) == 3**4
    assert outcome.propagations == space.propagations > 0
    assert child.used == parent.used == space.propagations


def test_a_spent_work_budget_stops_the_count_reproducibly() -> None:
    groups = [0b111 << (3 * k) for k in range(4)]
    outcomes = []
    for _ in range(2):
        space = ToySpace(groups, [1] * 4, False)
        budget = Deadline.never().within(work=10)
        outcomes.append(count_solutions(space, Toy(0, 0, (1 << 12) - 1), 10**6, budget))
        assert budget.out_of_work()
        assert space.propagations == 10  # stopped right after the propagation that spent it
    assert outcomes[0].verdict is Verdict.TIMEOUT
    assert outcomes[0].solutions == outcomes[1].solutions
    assert outcomes[0].nodes == outcomes[1].nodes
