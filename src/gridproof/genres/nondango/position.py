"""The solver's view of a Nondango board: its lines of three, screened, and a partial answer.

A region is a variable whose domain is its circles that are not yet white; a line of three
circles is a constraint that forbids one colouring of it. Two screens drop the forbidden
colourings that can never happen, so that the rest (the `live` ones) are the whole puzzle:
- a line with two circles in one region can never be all black (a region paints one);
- a line that holds every circle of some region can never be all white (that region's
  black circle is in it).
Under `no-three-black` only the all-black side exists at all.

Glossary: `black`, `white` are masks of decided circles (the ladder reads them as
`shaded`, the black circles, and `empty`, the white ones and every cell without a
circle), `unknown` the circles left; `nogood` is the mask of a line's three cells;
`black_nogoods` and `white_nogoods` are the live ones; a `part` of a white nogood is one
region's share of its cells; `focus` is the cells a search of a position may branch on;
`fresh_*` are the decisions propagation has not followed yet. `Reading` names how the
rule is read: correctly, or with one of the two misreadings the study measures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import combinations

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, geometry, low_bit
from gridproof.core.trace import Step, Violation
from gridproof.genres.nondango.model import DIRECTIONS, Nondango, Variant


class Reading(StrEnum):
    """How the line rule is read: as written, without its diagonals, or as "no three
    anywhere in one line" (any three circles of a row, column or diagonal)."""

    RULE = "rule"
    NO_DIAGONALS = "no-diagonals"
    ANYWHERE = "anywhere"


@dataclass(frozen=True, slots=True)
class Board:
    """Everything about a puzzle that never changes while solving it."""

    geo: Geometry
    variant: Variant
    region_of: tuple[int, ...]
    region_circles: tuple[int, ...]
    circles: int
    triples: tuple[int, ...]
    """Every line of three circles the reading names, screened or not."""
    black_nogoods: tuple[int, ...]
    white_nogoods: tuple[int, ...]
    black_partners: tuple[tuple[int, ...], ...]
    """Per cell: the other two cells of each live black nogood through it."""
    white_of: tuple[tuple[int, ...], ...]
    """Per cell: the indices of the live white nogoods through it."""
    white_parts: tuple[tuple[tuple[int, int], ...], ...]
    """Per white nogood: (region, that region's cells of it) for each region it touches."""
    circleless: tuple[int, ...]
    """Regions without a circle: no answer can exist."""

    def name(self, cell: int) -> str:
        return self.geo.name(cell)

    def names(self, mask: int) -> str:
        return ", ".join(self.geo.name(c) for c in bits(mask))

    def regions_of(self, mask: int) -> list[int]:
        return sorted({self.region_of[c] for c in bits(mask)})


Line = tuple[int, int, int, int]
"""A line of three circles: its mask and its three cells."""


@lru_cache(maxsize=4)
def windows(width: int, height: int, diagonals: bool) -> tuple[Line, ...]:
    """Every three consecutive cells of the grid, across and down (and diagonally)."""
    out = []
    for r in range(height):
        for c in range(width):
            for dr, dc in DIRECTIONS if diagonals else DIRECTIONS[:2]:
                if 0 <= r + 2 * dr < height and 0 <= c + 2 * dc < width:
                    a, b, d = ((r + k * dr) * width + c + k * dc for k in range(3))
                    out.append(((1 << a) | (1 << b) | (1 << d), a, b, d))
    return tuple(out)


@lru_cache(maxsize=32)
def _full_lines(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """The cells of every row, column, diagonal and anti-diagonal."""
    w, h = width, height
    lines: list[list[int]] = [[r * w + c for c in range(w)] for r in range(h)]
    lines += [[r * w + c for r in range(h)] for c in range(w)]
    for start in range(-(h - 1), w):
        lines.append([r * w + r + start for r in range(h) if 0 <= r + start < w])
        lines.append([r * w + start + h - 1 - r for r in range(h) if 0 <= start + h - 1 - r < w])
    return tuple(tuple(line) for line in lines)


def line_triples(puzzle: Nondango, reading: Reading) -> list[Line]:
    """The lines of three circles that `reading` forbids colourings of: three consecutive
    cells (with or without the diagonals), or any three circles of one full line."""
    circles = puzzle.circles
    if reading is not Reading.ANYWHERE:
        found = windows(puzzle.width, puzzle.height, reading is Reading.RULE)
        return [line for line in found if line[0] & circles == line[0]]
    out = []
    for cells in _full_lines(puzzle.width, puzzle.height):
        held = [cell for cell in cells if circles >> cell & 1]
        out += [((1 << a) | (1 << b) | (1 << c), a, b, c) for a, b, c in combinations(held, 3)]
    return out


def build_board(puzzle: Nondango, reading: Reading = Reading.RULE) -> Board:
    """The tables of `puzzle` under `reading` (see `board_of` for the cached form).

    The screens: a line is live on its all-black side when its circles lie in three
    regions, and on its all-white side (no-three-same only) when every region it touches
    has a circle outside it."""
    region_of = puzzle.regions
    region_circles = tuple(puzzle.region_circles())
    lines = line_triples(puzzle, reading)
    partners: list[list[int]] = [[] for _ in region_of]
    black = []
    for mask, a, b, c in lines:
        ra, rb, rc = region_of[a], region_of[b], region_of[c]
        if ra != rb and rb != rc and ra != rc:
            black.append(mask)
            partners[a].append(mask ^ (1 << a))
            partners[b].append(mask ^ (1 << b))
            partners[c].append(mask ^ (1 << c))
    white_of: list[list[int]] = [[] for _ in region_of]
    white: list[int] = []
    parts: list[tuple[tuple[int, int], ...]] = []
    if puzzle.variant is Variant.NO_THREE_SAME:
        counts = [m.bit_count() for m in region_circles]  # small ints, not board masks
        for mask, a, b, c in lines:
            ra, rb, rc = region_of[a], region_of[b], region_of[c]
            if (
                counts[ra] > (rb == ra) + (rc == ra) + 1
                and counts[rb] > (ra == rb) + (rc == rb) + 1
                and counts[rc] > (ra == rc) + (rb == rc) + 1
            ):  # every region the line touches has a circle outside it
                for cell in (a, b, c):
                    white_of[cell].append(len(white))
                white.append(mask)
                parts.append(_parts([a, b, c], region_of))
    return Board(
        geo=geometry(puzzle.width, puzzle.height),
        variant=puzzle.variant,
        region_of=region_of,
        region_circles=region_circles,
        circles=puzzle.circles,
        triples=tuple(line[0] for line in lines),
        black_nogoods=tuple(black),
        white_nogoods=tuple(white),
        black_partners=tuple(map(tuple, partners)),
        white_of=tuple(map(tuple, white_of)),
        white_parts=tuple(parts),
        circleless=tuple(rid for rid, mask in enumerate(region_circles) if not mask),
    )


def _parts(cells: list[int], region_of: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(region, its cells of the line) for each region a line touches."""
    by_region: dict[int, int] = {}
    for cell in cells:
        by_region[region_of[cell]] = by_region.get(region_of[cell], 0) | 1 << cell
    return tuple(sorted(by_region.items()))


LARGE_CELLS = 2500
"""Boards with more cells keep only the last one built: the tables of a 100x100 board hold
hundreds of thousands of board-sized masks (a quarter of a gigabyte)."""
_large: list[tuple[tuple[Nondango, Reading], Board]] = []


def board_of(puzzle: Nondango, reading: Reading = Reading.RULE) -> Board:
    """`build_board`, cached: a puzzle is counted, solved and hinted many times (one cache
    key however the reading is passed; one large board at a time, the old one let go
    before the next is built)."""
    if puzzle.width * puzzle.height <= LARGE_CELLS:
        return _cached_board(puzzle, reading)
    key = (puzzle, reading)
    held = list(_large)
    if held and held[0][0] == key:
        return held[0][1]
    _large.clear()
    board = build_board(puzzle, reading)
    _large[:] = [(key, board)]
    return board


@lru_cache(maxsize=16)
def _cached_board(puzzle: Nondango, reading: Reading) -> Board:
    return build_board(puzzle, reading)


class Position:
    """A partial answer that rules read and steps extend; cheap to copy for search."""

    __slots__ = (
        "black",
        "board",
        "deadline",
        "focus",
        "fresh_black",
        "fresh_white",
        "prefer",
        "solution",
        "white",
    )

    def __init__(self, board: Board, deadline: Deadline | None = None) -> None:
        self.board = board
        self.black = 0
        self.white = 0
        self.fresh_black = 0
        self.fresh_white = board.circles  # the first propagation looks at everything
        self.deadline = deadline or Deadline.never()
        self.focus = board.geo.full
        self.solution: int | None = None  # known to a hint: see `core.ladder.Position`
        self.prefer: Callable[[int], int] | None = None  # a hint's order of cells, likewise

    @property
    def unknown(self) -> int:
        return self.board.circles & ~(self.black | self.white)

    @property
    def shaded(self) -> int:
        """The black circles (what the ladder reports as shaded)."""
        return self.black

    @property
    def empty(self) -> int:
        """Cells decided not black: white circles and every cell without a circle."""
        return self.white | (self.board.geo.full & ~self.board.circles)

    def copy(self) -> Position:
        twin = Position.__new__(Position)
        twin.board = self.board
        twin.black = self.black
        twin.white = self.white
        twin.fresh_black = self.fresh_black
        twin.fresh_white = self.fresh_white
        twin.deadline = self.deadline
        twin.focus = self.focus
        twin.solution = self.solution
        twin.prefer = self.prefer
        return twin

    def apply(self, step: Step) -> Violation | None:
        """Decide the step's circles (cells without a circle are white already): paint on
        a cell without a circle, or a circle decided both ways, is a contradiction."""
        board = self.board
        painted = step.shaded & ~board.circles
        if painted:
            cell = low_bit(painted)
            return Violation(step.rule, f"{board.name(cell)} holds no circle to paint", (cell,))
        white = step.empty & board.circles
        clash = (step.shaded & (self.white | white)) | (white & self.black)
        if clash:
            cell = low_bit(clash)
            return Violation(
                step.rule, f"{board.name(cell)} would be both black and white", (cell,)
            )
        self.fresh_black |= step.shaded & ~self.black
        self.fresh_white |= white & ~self.white
        self.black |= step.shaded
        self.white |= white
        return None

    def paint(self, cell: int) -> None:
        """Assume `cell` black (for probes and branches); propagation checks it."""
        self.black |= 1 << cell
        self.fresh_black |= 1 << cell


def start(puzzle: Nondango, deadline: Deadline) -> Position:
    """The empty position of `puzzle` that the ladder's rules read."""
    return Position(board_of(puzzle), deadline)


def propagate(pos: Position, confine: bool = True) -> bool:
    """Close `pos` under the `region`, `triple` and `confine` rungs (one black per region;
    no live nogood completed), following only the fresh decisions; `confine=False` stops
    at `triple` (a line that one region alone can still darken decides only when one
    circle of it is left). False on a contradiction."""
    board = pos.board
    if pos.black & pos.white or board.circleless:
        return False
    black, white = pos.black, pos.white
    fresh_b, fresh_w = pos.fresh_black, pos.fresh_white
    region_of, region_circles = board.region_of, board.region_circles
    partners, white_of, parts = board.black_partners, board.white_of, board.white_parts
    # the counter's innermost loop: the low-bit scan stays inline, as a call to
    # `grid.low_bit` per decision costs this loop a fifth of its time
    while fresh_b or fresh_w:
        if fresh_b:
            low = fresh_b & -fresh_b
            fresh_b ^= low
            cell = low.bit_length() - 1
            mates = region_circles[region_of[cell]] & ~low
            if mates & black:
                return False
            fresh_w |= mates & ~white
            white |= mates
            for other in partners[cell]:
                hit = other & black
                if hit == other:
                    return False
                if hit and not (other & white):
                    fresh_w |= other ^ hit
                    white |= other ^ hit
            continue
        low = fresh_w & -fresh_w
        fresh_w ^= low
        cell = low.bit_length() - 1
        left = region_circles[region_of[cell]] & ~white
        if not left:
            return False
        if not left & (left - 1) and not left & black:
            black |= left
            fresh_b |= left
        for index in white_of[cell]:
            alive = None
            for part in parts[index]:
                if part[1] & ~white:
                    if alive is not None:
                        break
                    alive = part
            else:
                if alive is None:
                    return False
                if confine:
                    kill = region_circles[alive[0]] & ~alive[1] & ~white
                    if kill & black:
                        return False
                    fresh_w |= kill
                    white |= kill
                    continue
                keep = alive[1] & ~white
                if not keep & (keep - 1) and not keep & black:
                    black |= keep
                    fresh_b |= keep
    pos.black, pos.white = black, white
    pos.fresh_black = pos.fresh_white = 0
    return True
