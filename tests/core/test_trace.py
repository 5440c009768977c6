"""The judgement of a partial grid (`core.trace.settled`, a genre's `settled`, through
`service.judge`): a violation judged broken already survives every way of deciding the
undecided cells, and one judged open is repaired by at least one; the groups called
complete are exactly those the validator does not name."""

from __future__ import annotations

from typing import Any

import pytest

from gridproof import service
from gridproof.core.contract import Genre, Request
from gridproof.core.deadline import Deadline
from gridproof.core.registry import genres
from gridproof.core.rng import Rng
from gridproof.core.trace import Violation, settled
from gridproof.service import Loaded

UNDECIDED = 7
"""Undecided cells in each judged grid: every completion of them is validated."""
GRIDS = 20


def test_a_counting_rule_is_broken_once_too_full_or_too_short_of_room() -> None:
    row = Violation("row-count", "row 1", (0,), quota=2, group=(0, 1, 2, 3))
    assert not settled(row, shaded=0b0001, empty=0b0000)  # one star, three open
    assert not settled(row, shaded=0b0001, empty=0b0110)  # one star, one open
    assert settled(row, shaded=0b0001, empty=0b1110)  # one star, nowhere for the second
    assert settled(row, shaded=0b0111, empty=0b0000)  # three already


def test_any_other_rule_is_broken_once_its_cells_are_decided() -> None:
    touch = Violation("touch", "stars touch", (0, 1))
    assert settled(touch, shaded=0b11, empty=0)
    three = Violation("three-white", "three white", (0, 1, 2))
    assert not settled(three, shaded=0, empty=0b011)
    assert settled(three, shaded=0, empty=0b111)


def _key(violation: Violation) -> tuple[str, tuple[int, ...]]:
    """What a violation is about, the same in every completion of a grid."""
    return violation.rule, violation.group or violation.cells


def _rows(genre: Genre[Any], puzzle: Any, shaded: int, empty: int) -> list[str]:
    w = puzzle.width
    return [
        "".join(
            "#" if shaded >> (r * w + c) & 1 else "+" if empty >> (r * w + c) & 1 else "."
            for c in range(w)
        )
        for r in range(puzzle.height)
    ]


def _playable(genre: Genre[Any], puzzle: Any) -> list[int]:
    data = genre.to_json(puzzle)
    if "circles" in genre.look.layers:
        return [i for i, on in enumerate(v for row in data["circles"] for v in row) if on]
    return list(range(puzzle.width * puzzle.height))


@pytest.mark.parametrize("name", sorted(genres()))
def test_final_means_no_completion_repairs_it(name: str) -> None:
    genre = genres()[name]
    (w, h), _ = genre.sizes
    made = genre.generate(Request(w, h), 1, Deadline(60))
    puzzle, solution = made.puzzle, made.solution
    cells = _playable(genre, puzzle)
    rng = Rng(7)
    kinds: set[bool] = set()
    for _ in range(GRIDS):
        undecided = rng.sample(cells, min(UNDECIDED, len(cells) // 3))
        shaded = empty = 0
        for cell in cells:
            if cell in undecided:
                continue
            # mostly the solution's marks, some wrong: both kinds of violation appear
            right = bool(solution >> cell & 1)
            star = right if rng.random() < 0.8 else not right
            shaded |= star << cell
            empty |= (not star) << cell
        judged = service.judge(Loaded("t", genre, puzzle), _rows(genre, puzzle, shaded, empty))
        seen = [
            {_key(v) for v in genre.validate(puzzle, shaded | _spread(undecided, fill))}
            for fill in range(1 << len(undecided))
        ]
        for violation, final in judged.violations:
            present = [_key(violation) in keys for keys in seen]
            assert final is all(present), (violation, final)
            kinds.add(final)
        named = {v.group for v, _ in judged.violations if v.group}
        groups = genre.groups(puzzle) if genre.groups else []
        assert {g.cells for g in judged.complete} == {g.cells for g in groups} - named
    assert kinds == {True, False}  # both judgements were put to the test


def _spread(cells: list[int], fill: int) -> int:
    return sum(1 << cell for i, cell in enumerate(cells) if fill >> i & 1)
