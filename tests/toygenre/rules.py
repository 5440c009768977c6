"""The Lights rule ladder: every deduction the solver makes, cheapest first, and the one
table, `LADDER` at the end, that names the rungs, their grades and their rules.

Rungs (each includes the ones before it):
- `digits`: each digit against its four neighbours, one digit at a time.
- `probe`: assume a cell one way and run `digits`; if that dies, the cell is the other way.

Each rule returns the steps it can take now, or a `Violation` (the contradiction it found).
This file is the only place that spells a rung name or a rule id.
"""

from __future__ import annotations

from gridproof.core.grid import bits
from gridproof.core.ladder import Found, Grade, Ladder, Rule, Rung, rule, run_ladder
from gridproof.core.trace import Step, Violation
from tests.toygenre.position import Position


def _s(mask: int) -> str:
    return "s" if mask & (mask - 1) else ""


def _are(mask: int) -> str:
    return "are" if mask & (mask - 1) else "is"


@rule(
    "digit-done",
    "Digit satisfied",
    "the {digit} at {cell} already has {digit} shaded neighbour{s}, so {free} {are} empty",
    conflict="the {digit} at {cell} has {count} shaded neighbours",
)
def digit_done(pos: Position) -> Found:
    """A digit with as many shaded neighbours as it says: its other neighbours are empty."""
    board, nbrs = pos.board, pos.board.geo.neighbours
    steps: list[Step] = []
    for cell in bits(board.clues_near(pos.changed_since(digit_done.id))):
        digit, around = board.digit[cell], nbrs[cell]
        count = (around & pos.shaded).bit_count()
        name = board.name(cell)
        if count > digit:
            return digit_done.violation(cells=(cell,), digit=digit, cell=name, count=count)
        free = around & pos.unknown
        if count == digit and free:
            steps.append(
                digit_done.step(
                    empty=free,
                    cells=(cell,),
                    digit=digit,
                    cell=name,
                    s="" if digit == 1 else "s",
                    free=board.names(free),
                    are=_are(free),
                )
            )
    return steps


@rule(
    "digit-needs",
    "Digit needs every open neighbour",
    "the {digit} at {cell} needs {need} more shaded neighbour{s} and only {room} can hold {them}",
    conflict="the {digit} at {cell} can reach only {count} shaded neighbours",
)
def digit_needs(pos: Position) -> Found:
    """A digit whose undecided neighbours are exactly the shaded cells it still needs."""
    board, nbrs = pos.board, pos.board.geo.neighbours
    steps: list[Step] = []
    for cell in bits(board.clues_near(pos.changed_since(digit_needs.id))):
        digit, around = board.digit[cell], nbrs[cell]
        room = around & pos.unknown
        reach = (around & pos.shaded).bit_count() + room.bit_count()
        name = board.name(cell)
        if reach < digit:
            return digit_needs.violation(cells=(cell,), digit=digit, cell=name, count=reach)
        if room and reach == digit:
            steps.append(
                digit_needs.step(
                    shaded=room,
                    cells=(cell,),
                    digit=digit,
                    cell=name,
                    need=room.bit_count(),
                    s=_s(room),
                    room=board.names(room),
                    them="them" if room & (room - 1) else "it",
                )
            )
    return steps


DIGITS: tuple[Rule[Position], ...] = (digit_done, digit_needs)
"""The `digits` rung's rules, cheapest first (`solve.close` is their fixpoint in bulk)."""


def refute(pos: Position, cell: int, shade: bool) -> Violation | None:
    """The contradiction the `digits` rules reach if `cell` is assumed shaded (or empty)."""
    trial = pos.copy()
    bit = 1 << cell
    trial.apply(Step(probe.id, "assumption", shaded=bit if shade else 0, empty=0 if shade else bit))
    return run_ladder(DIGITS, trial, pos.deadline).contradiction


@rule("probe", "Probe", "if {cell} were {was}, then {why}; so it is {now}")
def probe(pos: Position) -> Found:
    """Assume an undecided cell shaded (then empty) and run the `digits` rules; a value
    that leads to a contradiction is wrong, so the cell takes the other."""
    board = pos.board
    for cell in bits(pos.unknown):
        for shade in (True, False):
            if pos.deadline.expired():
                return []
            why = refute(pos, cell, shade)
            if why is None:
                continue
            was, now = ("shaded", "empty") if shade else ("empty", "shaded")
            return [
                probe.step(
                    shaded=0 if shade else 1 << cell,
                    empty=1 << cell if shade else 0,
                    cells=(cell, *why.cells),
                    cell=board.name(cell),
                    was=was,
                    why=why.text,
                    now=now,
                )
            ]
    return []


LADDER: Ladder[Position] = Ladder(
    (
        Rung("digits", Grade.EASY, "each digit against its four neighbours", DIGITS),
        Rung(
            "probe",
            Grade.HARD,
            "assume a cell one way and run digits; a dead end decides it",
            (probe,),
        ),
    ),
    beyond=Grade.HARD,
)
"""The Lights ladder: rung, grade, what it adds, its rules (each with id, title, text)."""
