"""The Nondango rule ladder: every deduction the solver makes, cheapest first, and the one
table, `LADDER` at the end, that names the rungs, their grades and their rules.

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

Each rule returns the steps it can take now, or a `Violation` (the contradiction it found).
The `search` rule runs the counter's own space (`nondango.search`), which reads positions
only and never this table.
"""

from __future__ import annotations

from gridproof.core.grid import bits, low_bit
from gridproof.core.ladder import Found, Ladder, Rule, Rung, rule, run_ladder
from gridproof.core.trace import Step, Violation
from gridproof.genres.nondango.position import Board, Position, propagate
from gridproof.genres.nondango.search import has_completion, independent_parts


@rule(
    "region-black",
    "Region: last circle",
    "region {region} paints one circle black, and {cell} is {which}",
    conflict="region {region} has no circle left to paint black",
)
def region_black(pos: Position) -> Found:
    """A region with one circle that is not white: that circle is black."""
    board = pos.board
    steps = []
    for rid, circles in enumerate(board.region_circles):
        left = circles & ~pos.white
        if not left:
            return region_black.violation(cells=bits(circles), regions=(rid,), region=rid + 1)
        if left & (left - 1) or left & pos.black:
            continue
        steps.append(
            region_black.step(
                shaded=left,
                cells=bits(circles),
                regions=(rid,),
                region=rid + 1,
                cell=board.name(low_bit(left)),
                which="its only circle" if left == circles else "the only circle it has left",
            )
        )
    return steps


@rule(
    "region-white",
    "Region: black circle found",
    "region {region} already has its black circle {black}, so {rest} {are} white",
    conflict="region {region} holds two black circles, {painted}",
)
def region_white(pos: Position) -> Found:
    """A region holding its black circle: its other circles are white."""
    board = pos.board
    steps = []
    for rid, circles in enumerate(board.region_circles):
        painted = circles & pos.black
        if painted & (painted - 1):
            return region_white.violation(
                cells=bits(painted), regions=(rid,), region=rid + 1, painted=board.names(painted)
            )
        rest = circles & pos.unknown
        if painted and rest:
            steps.append(
                region_white.step(
                    empty=rest,
                    cells=bits(circles),
                    regions=(rid,),
                    region=rid + 1,
                    black=board.name(low_bit(painted)),
                    rest=board.names(rest),
                    are=_are(rest),
                )
            )
    return steps


@rule(
    "triple-black",
    "Triple: two black",
    "{black} are black, so {third} is white: {line} may not all be black",
    conflict="{line} are three black circles in a row",
)
def triple_black(pos: Position) -> Found:
    """Two black circles of a live line of three: the third is white."""
    board = pos.board
    steps = []
    done = 0
    for line in board.black_nogoods:
        hit = line & pos.black
        if hit == line:
            return triple_black.violation(
                cells=bits(line), regions=board.regions_of(line), line=board.names(line)
            )
        third = line ^ hit
        if hit.bit_count() == 2 and third & pos.unknown & ~done:
            done |= third
            steps.append(
                triple_black.step(
                    empty=third,
                    cells=bits(line),
                    regions=board.regions_of(line),
                    black=board.names(hit),
                    third=board.name(low_bit(third)),
                    line=board.names(line),
                )
            )
    return steps


@rule(
    "triple-white",
    "Triple: not all white",
    "{line} may not all be white and only {who} can still {can}, so {then}",
    conflict="{line} are three white circles in a row",
)
def triple_white(pos: Position) -> Found:
    """No-three-same: a line that may not be all white, where only one region can still
    paint one of its circles black: that region's black circle is among them."""
    board = pos.board
    steps = []
    done = 0
    for index, line in enumerate(board.white_nogoods):
        alive = [(rid, part) for rid, part in board.white_parts[index] if part & ~pos.white]
        if not alive:
            return triple_white.violation(
                cells=bits(line), regions=board.regions_of(line), line=board.names(line)
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
        return triple_white.step(
            shaded=keep,
            cells=bits(line),
            regions=board.regions_of(line),
            line=board.names(line),
            who=board.name(low_bit(keep)),
            can="be black",
            then="it is",
        )
    if single or not others:
        return None
    return triple_white.step(
        empty=others,
        cells=bits(line),
        regions=(rid,),
        line=board.names(line),
        who=f"region {rid + 1}",
        can="paint one of them",
        then=f"its black circle is {_either(board, keep)}: {board.names(others)} "
        f"{_are(others)} white",
    )


REGION: tuple[Rule[Position], ...] = (region_black, region_white)
"""The `region` rung's rules."""
LINES: tuple[Rule[Position], ...] = (triple_black, triple_white)
"""The rules the `triple` rung adds."""
TRIPLE: tuple[Rule[Position], ...] = (*REGION, *LINES)
"""The rules up to the `triple` rung, which `probe` runs on each assumption."""


@rule("probe", "Probe", "if {cell} were black, then {why}; so it is white")
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
        return [
            probe.step(
                empty=1 << cell,
                cells=(cell, *(why.cells if why else ())),
                regions=why.regions if why else (),
                cell=board.name(cell),
                why=why.text if why is not None else "the lines of three contradict",
            )
        ]
    return []


def closed(pos: Position) -> Position | None:
    """A copy of `pos` with every decision propagated afresh (None if that contradicts)."""
    base = pos.copy()
    base.fresh_black, base.fresh_white = base.black, base.board.circles
    return base if propagate(base) else None


def refute(pos: Position, cell: int, rules: tuple[Rule[Position], ...]) -> Violation | None:
    """The contradiction `rules` reach once `cell` is assumed black, if any."""
    trial = pos.copy()
    trial.apply(Step(probe.id, "assumption", shaded=1 << cell))
    return run_ladder(rules, trial, pos.deadline).contradiction


@rule(
    "search",
    "Search",
    "if {cell} were black, a complete search of its group of regions ({group}) finds no "
    "way to finish it; so it is white",
)
def group_search(pos: Position) -> Found:
    """Assume an undecided circle black and count its independent group of regions with
    the complete solver; a group with no completion makes the circle white."""
    board = pos.board
    for part in independent_parts(pos):
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
            return [
                group_search.step(
                    empty=1 << cell,
                    cells=bits(part),
                    regions=regions,
                    cell=board.name(cell),
                    group=", ".join(str(rid + 1) for rid in regions),
                )
            ]
    return []


def _are(mask: int) -> str:
    return "are" if mask & (mask - 1) else "is"


def _either(board: Board, mask: int) -> str:
    return " or ".join(board.name(c) for c in bits(mask))


LADDER: Ladder[Position] = Ladder(
    (
        Rung("region", "trivial", "one black circle per region, counting only", REGION),
        Rung(
            "triple",
            "easy",
            "the live lines of three, kept hyper-arc consistent to a fixpoint",
            LINES,
        ),
        Rung(
            "probe",
            "medium",
            "assume a circle black and run triple; a contradiction makes it white",
            (probe,),
        ),
        Rung(
            "search",
            "hard",
            "a complete search of one independent group of regions at a time",
            (group_search,),
        ),
    ),
    beyond=None,
)
"""The Nondango ladder: rung, grade, what it adds, its rules (each with id, title, text).

A board's grade is named after the cheapest rung that finishes it alone: `trivial` boards
have no white circle, `easy` ones fall to the lines of three, `medium` ones need a probe,
and `hard` ones a search (rare: none in thousands of generated boards, and none in the
janko.at bank, so a request for one usually ends in GenerationError). `search` is
complete, so no board lies beyond the ladder."""
