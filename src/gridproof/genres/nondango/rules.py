"""The Nondango rule ladder: every deduction the solver makes, cheapest first, and the one
table, `LADDER` at the end, that names the rungs, their grades and their rules.

Rungs (each includes the ones before it), all over the same per-region domains:
- `region`: one black circle per region, counting only: a region with one circle left
  paints it; a region holding its black circle whitens the rest.
- `triple`: the live lines of three read circle by circle: two black circles of a line
  whiten the third; under no-three-same, two white ones blacken the third.
- `confine`: under no-three-same, a line that may not be all white and that only one
  region can still darken, with two of its circles left there: that region's black circle
  is one of them, so its circles outside the line are white. With `triple` this is
  hyper-arc consistency on the lines of three, to a fixpoint (what `propagate` computes).
- `probe`: singleton consistency: assume a circle black, run `confine`; if that alone
  contradicts, the circle is white.
- `search`: the complete solver on one independent group of regions at a time: a circle
  whose group has no completion with it black is white.

Each rule returns the steps it can take now, or a `Violation` (the contradiction it found).
The `search` rule runs the counter's own space (`nondango.search`), which reads positions
only and never this table.
"""

from __future__ import annotations

from gridproof.core.grid import bits, low_bit
from gridproof.core.ladder import (
    Found,
    Ladder,
    Rule,
    Rung,
    chain_cited,
    needed_steps,
    rule,
    run_ladder,
)
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
            area = circles or sum(1 << c for c, r in enumerate(board.region_of) if r == rid)
            return region_black.violation(cells=bits(area), regions=(rid,), region=rid + 1)
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
    "{line} may not all be white and only {cell} can still be black, so it is black",
    conflict="{line} are three white circles in a row",
)
def triple_white(pos: Position) -> Found:
    """No-three-same: a line that may not be all white, two of its circles white and the
    third undecided: the third is black."""
    board = pos.board
    steps = []
    done = 0
    for index, line in enumerate(board.white_nogoods):
        alive = _alive(pos, index)
        if not alive:
            return triple_white.violation(
                cells=bits(line), regions=board.regions_of(line), line=board.names(line)
            )
        if len(alive) > 1:
            continue
        keep = alive[0][1] & ~pos.white
        if keep & (keep - 1) or not keep & pos.unknown & ~done:
            continue
        done |= keep
        steps.append(
            triple_white.step(
                shaded=keep,
                cells=bits(line),
                regions=board.regions_of(line),
                line=board.names(line),
                cell=board.name(low_bit(keep)),
            )
        )
    return steps


@rule(
    "triple-confine",
    "Triple: one region left",
    "{line} may not all be white and only region {region} can still paint one of them, so "
    "its black circle is {either}: {others} {are} white",
)
def triple_confine(pos: Position) -> Found:
    """No-three-same: a line that may not be all white, where only one region can still
    paint one of its circles black and has two of them left: that region's black circle is
    among them, so its circles outside the line are white. (One circle left is the plain
    case, `triple-white`; a line with none left is its contradiction.)"""
    board = pos.board
    steps = []
    done = 0
    for index, line in enumerate(board.white_nogoods):
        alive = _alive(pos, index)
        if len(alive) != 1:
            continue
        rid, part = alive[0]
        keep = part & ~pos.white
        others = board.region_circles[rid] & ~keep & pos.unknown & ~done
        if not keep & (keep - 1) or not others:
            continue
        done |= others
        steps.append(
            triple_confine.step(
                empty=others,
                cells=bits(line),
                regions=(rid,),
                line=board.names(line),
                region=rid + 1,
                either=_either(board, keep),
                others=board.names(others),
                are=_are(others),
            )
        )
    return steps


def _alive(pos: Position, index: int) -> list[tuple[int, int]]:
    """(region, its cells of white nogood `index`) for each region that can still paint
    one of them black."""
    return [(rid, part) for rid, part in pos.board.white_parts[index] if part & ~pos.white]


REGION: tuple[Rule[Position], ...] = (region_black, region_white)
"""The `region` rung's rules."""
LINES: tuple[Rule[Position], ...] = (triple_black, triple_white)
"""The rules the `triple` rung adds."""
CONFINE: tuple[Rule[Position], ...] = (triple_confine,)
"""The rule the `confine` rung adds."""
PROPAGATION: tuple[Rule[Position], ...] = (*REGION, *LINES, *CONFINE)
"""The rules up to the `confine` rung: what `propagate` closes under, and what `probe`
runs on each assumption."""


@rule("probe", "Probe", "if {cell} were black, {chain}{why}; so {cell} is white")
def probe(pos: Position) -> Found:
    """Assume an undecided circle black and propagate (`region`, `triple` and `confine`);
    if that contradicts, the circle is white. The reason is replayed through the named rules."""
    board = pos.board
    base = closed(pos)
    if base is None:
        return []  # the cheaper rungs report this contradiction themselves
    cells = list(bits(base.unknown & ~(pos.solution or 0)))  # black there: nothing refutes it
    if pos.prefer is not None:
        cells.sort(key=pos.prefer)  # a hint's order; the usual one among cells alike
    for cell in cells:
        if pos.deadline.expired():
            return []
        trial = base.copy()
        trial.paint(cell)
        if propagate(trial):
            continue
        why, steps = refutation(pos, cell, PROPAGATION)
        then = "".join(f"then {step.text}; " for step in steps)
        cited, regions = chain_cited(cell, steps, why, board.region_circles.__getitem__)
        return [
            probe.step(
                empty=1 << cell,
                cells=cited,
                regions=regions,
                cell=board.name(cell),
                chain=then,
                why=("and then " if then else "then ")
                + (why.text if why is not None else "the lines of three contradict"),
            )
        ]
    return []


def closed(pos: Position) -> Position | None:
    """A copy of `pos` with every decision propagated afresh (None if that contradicts)."""
    base = pos.copy()
    base.fresh_black, base.fresh_white = base.black, base.board.circles
    return base if propagate(base) else None


def refutation(
    pos: Position, cell: int, rules: tuple[Rule[Position], ...]
) -> tuple[Violation | None, list[Step]]:
    """The contradiction `rules` reach once `cell` is assumed black, if any, with the
    steps that lead to it (`core.ladder.needed_steps`)."""
    trial = pos.copy()
    trial.apply(Step(probe.id, "assumption", shaded=1 << cell))
    run = run_ladder(rules, trial, pos.deadline)
    if run.contradiction is None:
        return None, []
    return run.contradiction, needed_steps(
        run.steps, run.contradiction, 1 << cell, pos.board.region_circles.__getitem__
    )


@rule(
    "search",
    "Search",
    "if {cell} were black, a complete search of its group of regions ({group}) finds no "
    "way to finish it; so {cell} is white",
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
        Rung("region", "easy", "one black circle per region, counting only", REGION),
        Rung(
            "triple",
            "easy",
            "the lines of three: two black circles whiten the third, two white ones blacken it",
            LINES,
        ),
        Rung(
            "confine",
            "medium",
            "a line that may not be all white and only one region can still darken confines "
            "that region's black circle to it",
            CONFINE,
        ),
        Rung(
            "probe",
            "hard",
            "assume a circle black and run confine; a contradiction makes it white",
            (probe,),
        ),
        Rung(
            "search",
            "expert",
            "a complete search of one independent group of regions at a time",
            (group_search,),
        ),
    ),
    beyond=None,
)
"""The Nondango ladder: rung, grade, what it adds, its rules (each with id, title, text).

A board's grade is named after the cheapest rung that finishes it alone: `easy` boards
fall to counting and the lines of three read one line at a time (a board without white
circles is easy too: each region has one circle to paint), `medium` ones need a line of
three to confine a region's black circle, `hard` ones a probe, and `expert` ones a search.
Confinement needs the all-white side of a line, so under no-three-black no board is
`medium`. Nothing in the janko.at bank needs search, and the generator never makes such a
board (see `generate`). `search` is complete, so no board lies beyond the ladder."""
