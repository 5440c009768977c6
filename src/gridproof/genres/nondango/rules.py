"""The Nondango rule ladder: every deduction the solver makes, cheapest first.

Rungs (each includes the ones before it), all over the same per-region domains:
- `region`: one black circle per region, counting only: a region with one circle left
  paints it; a region holding its black circle whitens the rest.
- `triple`: hyper-arc consistency on the live lines of three, to a fixpoint: two black
  circles of a live line whiten the third; under no-three-same, a line that may not be all
  white and can only still be darkened by one region confines that region's black circle.
- `probe`: singleton consistency: assume a circle black, run `triple`; if that alone
  contradicts, the circle is white.
- `search`: the complete solver on one independent group of regions at a time: a circle
  whose group has no completion with it black is white.

Each rule returns the steps it can take now, or a `Contradiction`.
"""

from __future__ import annotations

from collections.abc import Callable

from gridproof.core.grid import bits
from gridproof.core.search import Contradiction, Found, Rule, run_ladder
from gridproof.core.trace import Step
from gridproof.genres.nondango.position import Board, Position, propagate

RUNGS = ("region", "triple", "probe", "search")


def region_black(pos: Position) -> Found:
    """A region with one circle that is not white: that circle is black."""
    board = pos.board
    steps = []
    for rid, circles in enumerate(board.region_circles):
        left = circles & ~pos.white
        if not left:
            return Contradiction(
                "region-black",
                f"region {rid + 1} has no circle left to paint black",
                tuple(bits(circles)),
                (rid,),
            )
        if left & (left - 1) or left & pos.black:
            continue
        why = "its only circle" if left == circles else "the only circle it has left"
        steps.append(
            Step(
                "region-black",
                f"region {rid + 1} paints one circle black, and {board.name(_low(left))} is {why}",
                shaded=left,
                cells=tuple(bits(circles)),
                regions=(rid,),
            )
        )
    return steps


def region_white(pos: Position) -> Found:
    """A region holding its black circle: its other circles are white."""
    board = pos.board
    steps = []
    for rid, circles in enumerate(board.region_circles):
        painted = circles & pos.black
        if painted & (painted - 1):
            return Contradiction(
                "region-white",
                f"region {rid + 1} holds two black circles, {board.names(painted)}",
                tuple(bits(painted)),
                (rid,),
            )
        rest = circles & pos.unknown
        if painted and rest:
            steps.append(
                Step(
                    "region-white",
                    f"region {rid + 1} already has its black circle {board.name(_low(painted))}, "
                    f"so {board.names(rest)} {_are(rest)} white",
                    empty=rest,
                    cells=tuple(bits(circles)),
                    regions=(rid,),
                )
            )
    return steps


def triple_black(pos: Position) -> Found:
    """Two black circles of a live line of three: the third is white."""
    board = pos.board
    steps = []
    done = 0
    for line in board.black_nogoods:
        hit = line & pos.black
        if hit == line:
            return Contradiction(
                "triple-black",
                f"{board.names(line)} are three black circles in a row",
                tuple(bits(line)),
                tuple(board.regions_of(line)),
            )
        third = line ^ hit
        if hit.bit_count() == 2 and third & pos.unknown & ~done:
            done |= third
            steps.append(
                Step(
                    "triple-black",
                    f"{board.names(hit)} are black, so {board.name(_low(third))} is white: "
                    f"{board.names(line)} may not all be black",
                    empty=third,
                    cells=tuple(bits(line)),
                    regions=tuple(board.regions_of(line)),
                )
            )
    return steps


def triple_white(pos: Position) -> Found:
    """No-three-same: a line that may not be all white, where only one region can still
    paint one of its circles black: that region's black circle is among them."""
    board = pos.board
    steps = []
    done = 0
    for index, line in enumerate(board.white_nogoods):
        alive = [(rid, part) for rid, part in board.white_parts[index] if part & ~pos.white]
        if not alive:
            return Contradiction(
                "triple-white",
                f"{board.names(line)} are three white circles in a row",
                tuple(bits(line)),
                tuple(board.regions_of(line)),
            )
        if len(alive) > 1:
            continue
        rid, part = alive[0]
        step = _confine(pos, line, rid, part & ~pos.white, done)
        if step is not None:
            done |= step.decided()
            steps.append(step)
    return steps


def _confine(pos: Position, line: int, rid: int, keep: int, done: int) -> Step | None:
    """The step that keeps region `rid`'s black circle within `keep` (cells of `line`)."""
    board = pos.board
    others = board.region_circles[rid] & ~keep & pos.unknown & ~done
    single = not keep & (keep - 1)
    if single and keep & pos.unknown & ~done:
        return Step(
            "triple-white",
            f"{board.names(line)} may not all be white and only {board.name(_low(keep))} "
            "can still be black, so it is",
            shaded=keep,
            cells=tuple(bits(line)),
            regions=tuple(board.regions_of(line)),
        )
    if single or not others:
        return None
    return Step(
        "triple-white",
        f"{board.names(line)} may not all be white and only region {rid + 1} can still paint "
        f"one of them, so its black circle is {_either(board, keep)}: "
        f"{board.names(others)} {_are(others)} white",
        empty=others,
        cells=tuple(bits(line)),
        regions=(rid,),
    )


def probe(pos: Position) -> Found:
    """Assume an undecided circle black and propagate (`region` and `triple`); if that
    contradicts, the circle is white. The reason is replayed through the named rules."""
    board = pos.board
    base = closed(pos)
    if base is None:
        return []  # the cheaper rungs report this contradiction themselves
    for cell in bits(base.unknown):
        if pos.deadline.expired():
            return []
        trial = base.copy()
        trial.paint(cell)
        if propagate(trial):
            continue
        why = refute(pos, cell, TRIPLE)
        reason = why.text if why is not None else "the lines of three contradict"
        return [
            Step(
                "probe",
                f"if {board.name(cell)} were black, then {reason}; so it is white",
                empty=1 << cell,
                cells=(cell, *(why.cells if why else ())),
                regions=why.regions if why else (),
            )
        ]
    return []


def closed(pos: Position) -> Position | None:
    """A copy of `pos` with every decision propagated afresh (None if that contradicts)."""
    base = pos.copy()
    base.fresh_black, base.fresh_white = base.black, base.board.circles
    return base if propagate(base) else None


def refute(pos: Position, cell: int, ladder: tuple[Rule[Position], ...]) -> Contradiction | None:
    """The contradiction `ladder` reaches once `cell` is assumed black, if any."""
    trial = pos.copy()
    trial.apply(Step("probe", "assumption", shaded=1 << cell))
    return run_ladder(ladder, trial, pos.deadline).contradiction


def search_rule(
    has_completion: Callable[[Position], bool | None],
    parts: Callable[[Position], list[int]],
) -> Rule[Position]:
    """The `search` rule, given the complete solver (which lives in `solve`)."""

    def search(pos: Position) -> Found:
        board = pos.board
        for part in parts(pos):
            for cell in bits(part):
                trial = pos.copy()
                trial.focus = part
                trial.paint(cell)
                found = has_completion(trial)
                if found is None:
                    return []
                if found:
                    continue
                regions = board.regions_of(part)
                group = ", ".join(str(rid + 1) for rid in regions)
                return [
                    Step(
                        "search",
                        f"if {board.name(cell)} were black, a complete search of its group of "
                        f"regions ({group}) finds no way to finish it; so it is white",
                        empty=1 << cell,
                        cells=tuple(bits(part)),
                        regions=tuple(regions),
                    )
                ]
        return []

    return Rule("search", "search", search)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _are(mask: int) -> str:
    return "are" if mask & (mask - 1) else "is"


def _either(board: Board, mask: int) -> str:
    return " or ".join(board.name(c) for c in bits(mask))


REGION: tuple[Rule[Position], ...] = (
    Rule("region-black", "region: last circle", region_black),
    Rule("region-white", "region: black circle found", region_white),
)
TRIPLE: tuple[Rule[Position], ...] = (
    *REGION,
    Rule("triple-black", "triple: two black", triple_black),
    Rule("triple-white", "triple: not all white", triple_white),
)
PROBE: tuple[Rule[Position], ...] = (*TRIPLE, Rule("probe", "probe", probe))

RUNG_OF = {
    "region-black": "region",
    "region-white": "region",
    "triple-black": "triple",
    "triple-white": "triple",
    "probe": "probe",
    "search": "search",
}
