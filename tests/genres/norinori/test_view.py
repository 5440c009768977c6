"""What a hint's view implies (`view.implies`), against every shading of the view's open
cells read straight from the rules; and the citation it leaves (`view.enough_and_fewest`)."""

from __future__ import annotations

import random
from itertools import product

import pytest

from gridproof.core.grid import bits, low_bit
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.position import Board, board_of
from gridproof.genres.norinori.view import VIEW_WORK, enough_and_fewest, implies
from tests.genres.norinori.boards import backward_board, random_partition


def _keeps_rules(board: Board, view: int, read: list[int], shaded: int) -> bool:
    """Whether a shading of the view keeps the rules a person reads there: each region read
    holds two shaded cells; each shaded cell in view has one shaded neighbour, where a
    neighbour outside the view may be whatever that cell needs."""
    if any((shaded & board.region_mask[rid]).bit_count() != 2 for rid in read):
        return False
    for cell in bits(shaded):
        around = board.geo.neighbours[cell]
        mates = (shaded & around & view).bit_count()
        if mates > 1 or (mates == 0 and not around & ~view):
            return False
    return True


def _values(
    board: Board, view: int, read: list[int], shaded: int, empty: int, cell: int
) -> set[int]:
    """The values the shadings of the view that keep its rules give `cell` (none when no
    shading keeps them: the marks contradict the view's rules, which then imply anything)."""
    open_ = list(bits(view & ~(shaded | empty)))
    seen = set()
    for values in product((0, 1), repeat=len(open_)):
        shading = shaded & view
        for c, v in zip(open_, values, strict=True):
            shading |= v << c
        if _keeps_rules(board, view, read, shading):
            seen.add(shading >> cell & 1)
    return seen


def _views(count: int, seed: int) -> list[tuple[Norinori, int, list[int], int, int]]:
    """Small views on random boards: a few regions read and cells around them, with random
    marks among them."""
    rng = random.Random(seed)
    made = []
    while len(made) < count:
        maker = (random_partition, backward_board)[len(made) % 2]
        puzzle = maker(rng.randint(4, 6), rng.randint(4, 6), rng)
        board = board_of(puzzle)
        read = rng.sample(range(len(board.region_mask)), rng.randint(0, 2))
        view = 0
        for rid in read:
            view |= board.region_mask[rid]
        for cell in rng.sample(range(board.geo.size), rng.randint(2, 6)):
            view |= 1 << cell
        if view.bit_count() > 14:
            continue
        shaded = empty = 0
        for cell in bits(view):
            roll = rng.random()
            if roll < 0.15:
                shaded |= 1 << cell
            elif roll < 0.4:
                empty |= 1 << cell
        made.append((puzzle, view, read, shaded, empty))
    return made


def test_a_view_implies_what_every_shading_keeping_its_rules_agrees_on() -> None:
    implied = not_implied = 0
    for puzzle, view, read, shaded, empty in _views(150, 11):
        board = board_of(puzzle)
        if not _values(board, view, read, shaded, empty, low_bit(view)):
            continue  # marks no solution could have: a hint never reads such a view
        for cell in bits(view & ~(shaded | empty)):
            values = _values(board, view, read, shaded, empty, cell)
            for asked in (0, 1):
                says = implies(board, view, read, shaded, empty, {cell: asked}, [VIEW_WORK])
                assert says == (1 - asked not in values), (puzzle, view, read, shaded, empty, cell)
            implied += len(values) == 1
            not_implied += len(values) == 2
    # both answers were put to the test
    assert implied > 50
    assert not_implied > 50


def test_a_citation_keeps_what_its_conclusion_needs_and_drops_a_far_idle_mark() -> None:
    """On a 4×4 of four 2×2 regions, r1c1 shaded and r1c2 empty: r2c1 must be shaded (the
    corner's only partner left, both its neighbours in view); a far mark cited beside them
    is idle and goes, and the two marks it rests on stay."""
    puzzle = Norinori(4, 4, (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3))
    board = board_of(puzzle)
    r1c1, r1c2, r2c1, r4c4 = 0, 1, 4, 15
    shaded, empty = 1 << r1c1 | 1 << r4c4, 1 << r1c2
    cited = enough_and_fewest(board, [((r1c1, r1c2, r4c4), ())], shaded, empty, {r2c1: 1})
    assert cited == ((r1c1, r1c2), ())


def test_a_citation_that_falls_short_takes_the_next_try_or_the_cells_around_it() -> None:
    """Without r1c2 in view r1c1 might pair with it: citing r1c1 alone does not settle
    r2c1. The next try is taken when its view does; else the cells around the first are
    taken in and what is idle of them dropped again."""
    puzzle = Norinori(4, 4, (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3))
    board = board_of(puzzle)
    r1c1, r1c2, r2c1, r4c4 = 0, 1, 4, 15
    shaded, empty = 1 << r1c1, 1 << r1c2
    view = 1 << r1c1 | 1 << r2c1
    assert implies(board, view, (), shaded, empty, {r2c1: 1}, [VIEW_WORK]) is False
    tries = [((r1c1,), ()), ((r1c1, r1c2, r4c4), ())]
    assert enough_and_fewest(board, tries, shaded, empty, {r2c1: 1}) == ((r1c1, r1c2), ())
    assert enough_and_fewest(board, tries[:1], shaded, empty, {r2c1: 1}) == ((r1c1, r1c2), ())
    short = [False]
    assert enough_and_fewest(board, [((r4c4,), ())], 1 << r4c4, 0, {r2c1: 1}, short) is None
    assert short == [True]  # found not to imply it, grown as it was


def test_a_check_out_of_work_is_not_found_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the work runs out before a try is settled, the check cannot tell: it answers
    None without saying the citation falls short."""
    from gridproof.genres.norinori import view as module

    puzzle = Norinori(4, 4, (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3))
    board = board_of(puzzle)
    r2c1, r4c4 = 4, 15
    monkeypatch.setattr(module, "VIEW_WORK", 0)
    short = [False]
    assert enough_and_fewest(board, [((r4c4,), ())], 1 << r4c4, 0, {r2c1: 1}, short) is None
    assert short == [False]
