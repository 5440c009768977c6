"""The design note's lemma as code: certificates, certifying lines and region groups.

Move a region's black circle onto another circle of the same region: no other region is
touched, so the only line the move can break is one through a circle that changed colour.
Under no-three-black that is a line through the new black circle whose other two circles
were already black: the new circle's `certificate`. Under no-three-same a line through
the old black circle whose other two are white breaks too, and certifies every other
circle of that region at once. A unique answer needs a certificate for every white circle;
a line with two black circles holds exactly one white one, so under no-three-black
`circles - regions <= certifying lines <= live lines`.

Glossary: `answer` is the mask of black circles of a solution; `line` is the mask of a
line of three circles; `groups` are sets of regions that no live line joins to another.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gridproof.core.grid import bits
from gridproof.genres.nondango.model import Nondango, Variant, validate
from gridproof.genres.nondango.position import Board, board_of, windows


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """Every one-circle move of every region's black in one answer, checked."""

    moves: int
    illegal: int
    certified_black: int
    """Moves explained by a line through the new black circle with two black circles."""
    certified_white: int
    """Moves explained only by a line through the old black circle with two white ones."""

    @property
    def certified(self) -> int:
        return self.certified_black + self.certified_white


def black_certificates(board: Board, answer: int, cell: int) -> list[int]:
    """Live lines through `cell` whose other two circles are black in `answer`."""
    bit = 1 << cell
    return [line for line in board.black_nogoods if line & bit and line & answer == line ^ bit]


def white_certificates(board: Board, answer: int, cell: int) -> list[int]:
    """No-three-same: lines through `cell`'s region's black circle whose other two circles
    are white in `answer` and do not include `cell`: moving the black onto `cell` makes
    them all white."""
    if board.variant is not Variant.NO_THREE_SAME:
        return []
    old = board.region_circles[board.region_of[cell]] & answer
    return [
        line
        for line in board.triples
        if line & old and not line >> cell & 1 and not line & answer & ~old
    ]


def is_certified(board: Board, answer: int, cell: int) -> bool:
    """Whether moving `cell`'s region's black circle onto `cell` provably breaks a line."""
    return bool(black_certificates(board, answer, cell) or white_certificates(board, answer, cell))


def breaks_answer(board: Board, answer: int, cell: int) -> bool:
    """Whether the white circle `cell` of `board` completes a line of three white circles
    (only no-three-same forbids that; a white circle never breaks a no-three-black answer)."""
    if board.variant is not Variant.NO_THREE_SAME:
        return False
    return any(line >> cell & 1 and not line & answer for line in board.triples)


def check_moves(puzzle: Nondango, answer: int) -> MoveCheck:
    """Make every one-circle move in `answer`, judge it with the independent validator,
    and look for its certificate."""
    board = board_of(puzzle)
    moves = illegal = by_black = by_white = 0
    for circles in board.region_circles:
        old = circles & answer
        for cell in bits(circles & ~answer):
            moved = answer ^ old ^ (1 << cell)
            moves += 1
            illegal += bool(validate(puzzle, moved))
            if black_certificates(board, answer, cell):
                by_black += 1
            elif white_certificates(board, answer, cell):
                by_white += 1
    return MoveCheck(moves, illegal, by_black, by_white)


@lru_cache(maxsize=16)
def lines_through(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, the masks of the lines of three consecutive cells through it."""
    out: list[list[int]] = [[] for _ in range(width * height)]
    for mask, *cells in windows(width, height, diagonals=True):
        for cell in cells:
            out[cell].append(mask)
    return tuple(tuple(masks) for masks in out)


def judge_offer(puzzle: Nondango, answer: int, cell: int) -> str:
    """What a white circle on the empty cell `cell` would be, without building a board:
    'breaks' (three white in a row, no-three-same only), 'uncertified' (the lemma says a
    second answer exists) or 'certified' (worth a count)."""
    lines = lines_through(puzzle.width, puzzle.height)[cell]
    bit = 1 << cell
    whites = puzzle.circles & ~answer
    same = puzzle.variant is Variant.NO_THREE_SAME
    if same and any(line & whites == line ^ bit for line in lines):
        return "breaks"
    region = puzzle.regions[cell]
    for line in lines:
        rest = line ^ bit
        if rest & answer == rest and all(puzzle.regions[c] != region for c in bits(rest)):
            return "certified"
    if same:
        old = next(c for c in bits(answer) if puzzle.regions[c] == region)
        through = lines_through(puzzle.width, puzzle.height)[old]
        if any(not line & bit and line & whites == line ^ (1 << old) for line in through):
            return "certified"
    return "uncertified"


def certifying_lines(board: Board, answer: int) -> int:
    """Live lines with exactly two black circles in `answer` (each certifies its third)."""
    return sum((line & answer).bit_count() == 2 for line in board.black_nogoods)


def static_groups(board: Board) -> list[list[int]]:
    """Regions grouped by the live lines joining them, before anything is decided; a
    region that no live line touches is a group of its own. Sorted by first region."""
    parent = list(range(len(board.region_circles)))

    def root(rid: int) -> int:
        while parent[rid] != rid:
            parent[rid] = parent[parent[rid]]
            rid = parent[rid]
        return rid

    for line in (*board.black_nogoods, *board.white_nogoods):
        first, *rest = (board.region_of[c] for c in bits(line))
        for rid in rest:
            parent[root(rid)] = root(first)
    groups: dict[int, list[int]] = {}
    for rid in range(len(parent)):
        groups.setdefault(root(rid), []).append(rid)
    return sorted(groups.values())
