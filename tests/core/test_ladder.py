"""Rule ladders as data (`core.ladder`), on a row of cells small enough to follow by hand.

The toy: a row of `width` cells. `seed` (the expensive rule) shades the first undecided
cell; `copy` (the cheap one) gives an undecided cell the colour of its left neighbour;
`guard` finds a shaded cell that the puzzle forbids.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.grid import bits, low_bit
from gridproof.core.ladder import (
    GIVEN,
    Found,
    Ladder,
    Progress,
    Rule,
    Rung,
    Seen,
    cheapest_rung,
    depth,
    offer,
    rating,
    rule,
    run_ladder,
    run_rounds,
    solve,
)
from gridproof.core.trace import Step, Violation


@dataclass(frozen=True)
class Row:
    """The puzzle: `width` cells in a row, `forbidden` the cells that may not be shaded."""

    width: int
    forbidden: int = 0
    height: int = 1


class Line:
    """A position over a `Row`."""

    def __init__(self, puzzle: Row, deadline: Deadline) -> None:
        self.puzzle = puzzle
        self.deadline = deadline
        self.shaded = 0
        self.empty = 0
        self.applied: list[Step] = []

    @property
    def unknown(self) -> int:
        return ((1 << self.puzzle.width) - 1) & ~(self.shaded | self.empty)

    def apply(self, step: Step) -> Violation | None:
        self.applied.append(step)
        clash = (step.shaded & self.empty) | (step.empty & self.shaded) | (step.shaded & step.empty)
        if clash:
            return Violation(step.rule, f"cell {low_bit(clash)} would be both", (low_bit(clash),))
        self.shaded |= step.shaded
        self.empty |= step.empty
        return None


def start(puzzle: Row, deadline: Deadline) -> Line:
    return Line(puzzle, deadline)


@rule("guard", "Forbidden cell", "never a step", conflict="cell {cell} may not be shaded")
def guard(pos: Line) -> Found:
    bad = pos.shaded & pos.puzzle.forbidden
    if bad:
        return guard.violation(cells=(low_bit(bad),), cell=low_bit(bad))
    return []


@rule("copy", "Copy the left neighbour", "cell {cell} is {colour} like cell {left}")
def copy_left(pos: Line) -> Found:
    steps = []
    for cell in bits(pos.unknown):
        if cell and not pos.unknown >> (cell - 1) & 1:
            shaded = bool(pos.shaded >> (cell - 1) & 1)
            steps.append(
                copy_left.step(
                    shaded=(1 << cell) if shaded else 0,
                    empty=0 if shaded else 1 << cell,
                    cells=(cell - 1, cell),
                    cell=cell,
                    left=cell - 1,
                    colour="shaded" if shaded else "empty",
                )
            )
    return steps


@rule("seed", "Seed", "shade cell {cell}, the first undecided one")
def seed(pos: Line) -> Found:
    if not pos.unknown:
        return []
    cell = low_bit(pos.unknown)
    return [seed.step(shaded=1 << cell, cells=(cell,), cell=cell)]


LADDER: Ladder[Line] = Ladder(
    (
        Rung("copying", "easy", "copy a neighbour", (guard, copy_left)),
        Rung("seeding", "hard", "shade the first cell", (seed,)),
    ),
    beyond="expert",
)


# --- rules --------------------------------------------------------------------------------


def test_rule_makes_a_named_rule_whose_steps_fill_the_template() -> None:
    assert isinstance(seed, Rule)
    assert (seed.id, seed.title) == ("seed", "Seed")
    assert seed.template == "shade cell {cell}, the first undecided one"
    step = seed.step(shaded=0b100, cells=[2], regions=iter([5]), cell=2)
    assert step == Step("seed", "shade cell 2, the first undecided one", 0b100, 0, (2,), (5,))
    position = start(Row(3), Deadline.never())
    first = seed.step(shaded=1, cells=(0,), cell=0)
    assert seed(position) == seed.find(position) == [first]


def test_violation_fills_the_conflict_template() -> None:
    found = guard.violation(cells=[4], cell=4)
    assert found == Violation("guard", "cell 4 may not be shaded", (4,))


def test_a_template_field_left_out_is_an_error() -> None:
    with pytest.raises(KeyError):
        seed.step(shaded=1)


# --- the table ----------------------------------------------------------------------------


def test_ladder_names_rules_and_grades() -> None:
    assert LADDER.names == ("copying", "seeding")
    assert LADDER.top == "seeding"
    assert LADDER.rules == (guard, copy_left, seed)
    assert LADDER.grades == ("easy", "hard", "expert")
    assert LADDER.rung("seeding").rules == (seed,)
    assert LADDER.rules_to("copying") == (guard, copy_left)
    assert LADDER.rules_to("seeding") == (guard, copy_left, seed)
    assert LADDER.rule("copy") is copy_left
    assert LADDER.rung_of("copy") == "copying"
    assert LADDER.rung_of("seed") == "seeding"
    assert LADDER.title("seed") == "Seed"


def test_grades_and_the_rungs_for_them() -> None:
    assert LADDER.grade("copying") == "easy"
    assert LADDER.grade("seeding") == "hard"
    assert LADDER.grade(None) == "expert"
    assert LADDER.rung_for("easy") == "copying"
    assert LADDER.rung_for("hard") == "seeding"
    assert LADDER.rung_for("expert") is None
    assert LADDER.rung_for("no-such-grade") is None


def test_a_ladder_without_beyond() -> None:
    plain = Ladder((Rung("one", "easy", "", (guard,)), Rung("two", "easy", "", (seed,))))
    assert plain.grades == ("easy",)
    assert plain.grade(None) == "easy"
    assert plain.rung_for("easy") == "two"  # the strongest rung of that grade
    same = Ladder((Rung("one", "easy", "", (guard,)), Rung("two", "hard", "", (seed,))), "hard")
    assert same.grades == ("easy", "hard")


def test_hardest_is_the_strongest_rung_any_step_needed() -> None:
    copied = copy_left.step(cell=1, left=0, colour="empty")
    seeded = seed.step(cell=0)
    assert LADDER.hardest([]) == "copying"
    assert LADDER.hardest([copied]) == "copying"
    assert LADDER.hardest([copied, seeded, copied]) == "seeding"
    with pytest.raises(CodeError, match="unknown rule 'given'"):
        LADDER.hardest([Step(GIVEN, "the marks given")])


@pytest.mark.parametrize(
    "ask",
    [
        lambda: LADDER.rung("nope"),
        lambda: LADDER.rules_to("nope"),
        lambda: LADDER.grade("nope"),
    ],
)
def test_an_unknown_rung_is_a_code_error_listing_the_rungs(ask: object) -> None:
    with pytest.raises(CodeError, match="unknown rung 'nope'; rungs: copying, seeding"):
        ask()  # type: ignore[operator]


@pytest.mark.parametrize(
    "ask",
    [lambda: LADDER.rule("nope"), lambda: LADDER.rung_of("nope"), lambda: LADDER.title("nope")],
)
def test_an_unknown_rule_is_a_code_error(ask: object) -> None:
    with pytest.raises(CodeError, match="unknown rule 'nope'"):
        ask()  # type: ignore[operator]


def test_a_ladder_is_checked_when_made() -> None:
    with pytest.raises(ValueError, match="at least one rung"):
        Ladder(())
    with pytest.raises(ValueError, match="rung names repeat"):
        Ladder((Rung("a", "easy", "", (guard,)), Rung("a", "hard", "", (seed,))))
    with pytest.raises(ValueError, match="rule 'seed' appears twice"):
        Ladder((Rung("a", "easy", "", (seed,)), Rung("b", "hard", "", (seed,))))
    with pytest.raises(ValueError, match="rule 'seed' appears twice"):
        Ladder((Rung("a", "easy", "", (seed, seed)),))


# --- running a ladder ---------------------------------------------------------------------


def test_run_ladder_restarts_from_the_cheapest_rule_to_a_fixpoint() -> None:
    position = start(Row(3), Deadline.never())
    run = run_ladder(LADDER.rules, position, Deadline.never())
    assert [step.rule for step in run.steps] == ["seed", "copy", "copy"]
    assert [step.text for step in run.steps] == [
        "shade cell 0, the first undecided one",
        "cell 1 is shaded like cell 0",
        "cell 2 is shaded like cell 1",
    ]
    assert run.position is position
    assert (position.shaded, position.empty) == (0b111, 0)
    assert run.contradiction is None
    assert not run.timed_out


@rule("copy-right", "Copy the right neighbour", "cell {cell} is {colour} like cell {right}")
def copy_right(pos: Line) -> Found:
    steps = []
    for cell in bits(pos.unknown):
        right = cell + 1
        if right < pos.puzzle.width and not pos.unknown >> right & 1:
            shaded = bool(pos.shaded >> right & 1)
            steps.append(
                copy_right.step(
                    shaded=(1 << cell) if shaded else 0,
                    empty=0 if shaded else 1 << cell,
                    cells=(right, cell),
                    cell=cell,
                    right=right,
                    colour="shaded" if shaded else "empty",
                )
            )
    return steps


def test_run_rounds_takes_every_rule_of_the_cheapest_rung_before_starting_again() -> None:
    # cell 2 empty: copying to the right reaches 3, then 4; to the left 1, then 0
    rungs = (Rung("both", "easy", "copy either neighbour", (copy_left, copy_right)),)
    alone = start(Row(5), Deadline.never())
    alone.empty = 0b00100
    by_rule = run_ladder(rungs[0].rules, alone, Deadline.never())
    assert [[*bits(step.empty)] for step in by_rule.steps] == [[3], [4], [1], [0]]
    position = start(Row(5), Deadline.never())
    position.empty = 0b00100
    rounds = run_rounds(rungs, position, Deadline.never())
    assert [[*bits(step.empty)] for step in rounds.steps] == [[3], [1], [4], [0]]
    assert rounds.rounds == [2, 2]
    assert rounds.choices == [2, 2, 2, 2]
    assert position.empty == 0b11111


def test_a_step_that_decides_nothing_new_is_left_out() -> None:
    # cells 0 and 2 empty: both rules decide cell 1 in the same round; one step says so
    rungs = (Rung("both", "easy", "copy either neighbour", (copy_left, copy_right)),)
    position = start(Row(3), Deadline.never())
    position.empty = 0b101
    run = run_rounds(rungs, position, Deadline.never())
    assert [step.text for step in run.steps] == ["cell 1 is empty like cell 0"]
    assert (run.rounds, run.choices, len(position.applied)) == ([1], [2], 1)


def test_an_offer_holds_the_steps_of_every_rung_of_the_first_productive_one_s_grade() -> None:
    """A hint chooses among the steps of the cheapest productive rung and the rungs of its
    grade after it (one kind of difficulty for a person), never of a harder grade."""

    def offered(ladder: Ladder[Line], empty: int) -> list[tuple[str, list[int]]]:
        found = offer(ladder, start, Row(5), Deadline.never(), empty=empty)
        return [(step.rule, [*bits(step.shaded | step.empty)]) for step in found.steps]

    def ladder(right_grade: str) -> Ladder[Line]:
        return Ladder(
            (
                Rung("left", "easy", "copy the left neighbour", (copy_left,)),
                Rung("right", right_grade, "copy the right neighbour", (copy_right,)),
                Rung("seeding", "hard", "shade the first cell", (seed,)),
            ),
        )

    # cell 2 empty: copying from the left decides cell 3, from the right cell 1
    assert offered(ladder("easy"), 0b00100) == [("copy", [3]), ("copy-right", [1])]
    assert offered(ladder("medium"), 0b00100) == [("copy", [3])]
    # cell 4 empty: only the second rung can copy; the hard rung after it stays out
    assert offered(ladder("easy"), 0b10000) == [("copy-right", [3])]
    assert offered(ladder("hard"), 0b10000) == [("copy-right", [3]), ("seed", [0])]


def test_run_ladder_without_the_expensive_rule_stops_at_once() -> None:
    run = run_ladder(LADDER.rules_to("copying"), start(Row(3), Deadline.never()), Deadline.never())
    assert run.steps == []
    assert run.contradiction is None


def test_run_ladder_stops_after_max_steps() -> None:
    for limit in (0, 1, 2):
        position = start(Row(5), Deadline.never())
        run = run_ladder(LADDER.rules, position, Deadline.never(), max_steps=limit)
        assert len(run.steps) == limit
        assert len(position.applied) == limit
        assert not run.timed_out


def test_run_ladder_stops_at_a_rule_contradiction() -> None:
    position = start(Row(4, forbidden=0b0100), Deadline.never())
    run = run_ladder(LADDER.rules, position, Deadline.never())
    assert [step.rule for step in run.steps] == ["seed", "copy", "copy"]
    assert run.contradiction == Violation("guard", "cell 2 may not be shaded", (2,))
    assert position.shaded == 0b0111  # the last cell was never reached


def test_run_ladder_stops_at_a_step_that_clashes() -> None:
    @rule("clash", "Clash", "cell {cell} both ways")
    def clash(pos: Line) -> Found:
        return [clash.step(shaded=1, empty=1, cell=0), clash.step(shaded=2, cell=1)]

    position = start(Row(2), Deadline.never())
    run = run_ladder([clash], position, Deadline.never())
    assert [step.text for step in run.steps] == ["cell 0 both ways"]  # the second never ran
    assert run.contradiction == Violation("clash", "cell 0 would be both", (0,))


def test_run_ladder_stops_at_the_deadline() -> None:
    run = run_ladder(LADDER.rules, start(Row(3), Deadline(0)), Deadline(0))
    assert run.timed_out
    assert run.steps == []
    cancelled = Deadline.never()

    @rule("cancel", "Cancel", "cell {cell}")
    def cancel_after(pos: Line) -> Found:
        cancelled.cancel()
        return [cancel_after.step(shaded=1, cell=0), cancel_after.step(shaded=2, cell=1)]

    run = run_ladder([cancel_after], start(Row(3), cancelled), cancelled)
    assert run.timed_out
    assert run.steps == []  # checked before every step, not only before every rule
    spent = Deadline.never().within(work=1)
    spent.charge(1)
    assert run_ladder(LADDER.rules, start(Row(3), spent), spent).timed_out


# --- solve, the one wrapper ---------------------------------------------------------------


def test_solve_reports_progress() -> None:
    progress = solve(LADDER, start, Row(3), "seeding", Deadline.never())
    assert isinstance(progress, Progress)
    assert progress.rung == "seeding"
    assert (progress.shaded, progress.empty, progress.size) == (0b111, 0, 3)
    assert [step.rule for step in progress.steps] == ["seed", "copy", "copy"]
    assert progress.decided_fraction == 1.0
    assert progress.complete
    stuck = solve(LADDER, start, Row(3), "copying", Deadline.never())
    assert stuck.steps == ()
    assert stuck.decided_fraction == 0.0
    assert not stuck.complete


def test_solve_applies_the_given_marks_first() -> None:
    progress = solve(LADDER, start, Row(4), "copying", Deadline.never(), empty=0b0001)
    assert (progress.shaded, progress.empty) == (0, 0b1111)
    assert [step.text for step in progress.steps] == [
        "cell 1 is empty like cell 0",
        "cell 2 is empty like cell 1",
        "cell 3 is empty like cell 2",
    ]
    half = solve(LADDER, start, Row(4), "copying", Deadline.never(), shaded=0b0100)
    assert (half.shaded, half.empty) == (0b1100, 0)
    assert half.decided_fraction == 0.5
    given: list[Step] = []

    def recording(puzzle: Row, deadline: Deadline) -> Line:
        line = start(puzzle, deadline)
        line.applied = given  # every step the position takes, the given marks first
        return line

    solve(LADDER, recording, Row(4), "copying", Deadline.never(), shaded=0b0001, max_steps=1)
    assert given[0] == Step(GIVEN, "the marks given", shaded=0b0001, empty=0)
    assert len(given) == 2


def test_solve_reports_marks_that_clash() -> None:
    progress = solve(LADDER, start, Row(3), "seeding", Deadline.never(), shaded=0b10, empty=0b11)
    assert progress.contradiction == Violation(GIVEN, "cell 1 would be both", (1,))
    assert progress.steps == ()
    assert not progress.complete
    forbidden = solve(LADDER, start, Row(3, forbidden=0b1), "copying", Deadline.never(), shaded=1)
    assert forbidden.contradiction == Violation("guard", "cell 0 may not be shaded", (0,))


def test_solve_stops_at_max_steps_and_the_deadline() -> None:
    one = solve(LADDER, start, Row(5), "seeding", Deadline.never(), max_steps=1)
    assert len(one.steps) == 1
    assert not one.complete
    late = solve(LADDER, start, Row(5), "seeding", Deadline(0))
    assert late.timed_out
    assert not late.complete


def test_solve_refuses_an_unknown_rung() -> None:
    with pytest.raises(CodeError, match="unknown rung 'hardest'"):
        solve(LADDER, start, Row(3), "hardest", Deadline.never())


def test_cheapest_rung() -> None:
    assert cheapest_rung(LADDER, start, Row(3), Deadline.never())[0] == "seeding"
    rung, progress = cheapest_rung(LADDER, start, Row(1), Deadline.never())
    assert rung == "seeding"
    assert progress.complete
    none, failed = cheapest_rung(LADDER, start, Row(3, forbidden=0b100), Deadline.never())
    assert none is None
    assert failed.contradiction is not None
    assert LADDER.grade(none) == "expert"
    late, _ = cheapest_rung(LADDER, start, Row(3), Deadline(0))
    assert late is None


def test_progress_of_an_empty_board_is_complete() -> None:
    assert Progress("copying", 0, 0, ()).decided_fraction == 1.0
    assert Progress("copying", 0, 0, ()).complete
    assert not Progress("copying", 0, 0, (), timed_out=True).complete


# --- Seen ---------------------------------------------------------------------------------


def test_seen_reports_what_changed_since_a_rule_last_looked() -> None:
    seen = Seen()
    assert seen.changed("a", 0b0001, 0b0010, 0b1111) == 0b1111  # the first look: everything
    assert seen.changed("a", 0b0001, 0b0010, 0b1111) == 0
    assert seen.changed("b", 0b0101, 0b0010, 0b1111) == 0b1111  # each rule has its own
    assert seen.changed("a", 0b0101, 0b1010, 0b1111) == 0b1100
    twin = seen.copy()
    assert twin.changed("a", 0b0111, 0b1010, 0b1111) == 0b0010
    assert seen.changed("a", 0b0101, 0b1010, 0b1111) == 0  # the copy did not write back


@given(
    st.integers(min_value=0, max_value=3),
    st.integers(min_value=0, max_value=3),
    st.floats(min_value=0, max_value=1e6),
    st.floats(min_value=0, max_value=1e6),
    st.integers(min_value=1, max_value=10_000),
    st.integers(min_value=1, max_value=10_000),
)
def test_a_harder_grade_always_rates_higher_and_a_higher_score_never_lower(
    easier: int, harder: int, score: float, other: float, cells: int, other_cells: int
) -> None:
    grades = ("easy", "medium", "hard", "expert")
    low = rating(grades, grades[min(easier, harder)], score, cells)
    high = rating(grades, grades[max(easier, harder)], other, other_cells)
    if easier != harder:
        assert low < high
    assert 10 * grades.index(grades[min(easier, harder)]) <= low < 10 * (min(easier, harder) + 1)
    # inside one grade and size, the rating follows the score
    assert rating(grades, "medium", min(score, other), cells) <= rating(
        grades, "medium", max(score, other), cells
    )


def test_the_rating_examples_of_the_readme() -> None:
    grades = ("easy", "medium", "hard", "expert")
    assert rating(grades, "easy", 11, 25) == 3.0  # 0.44 per cell: 10 * 0.44 / 1.44
    assert rating(grades, "medium", 6, 25) == 11.9  # 0.24 per cell: 10 * 0.24 / 1.24
    assert rating(grades, "hard", 0, 100) == 20.0
    assert rating(grades, "expert", 1e9, 1) == 39.9
    assert rating(grades, "beyond", 0, 1) == 40.0  # not listed: above every listed grade


# --- dependency depth ---------------------------------------------------------------------


def test_depth_counts_rounds_of_steps_taken_side_by_side() -> None:
    # seed cell 0, then each copy waits for the one before: a chain of four
    assert depth(LADDER, start, Row(4), Deadline.never()) == (1, 1, 1, 1)
    # cells 0 and 2 empty: cells 1 and 3 copy at once, cell 4 waits for cell 3
    assert depth(LADDER, start, Row(5), Deadline.never(), empty=0b00101) == (2, 1)
    # as many steps as the ladder's own solve, which reaches the same end
    progress = solve(LADDER, start, Row(5), "seeding", Deadline.never(), empty=0b00101)
    assert len(progress.steps) == sum(depth(LADDER, start, Row(5), Deadline.never(), empty=0b00101))


def test_depth_stops_at_a_contradiction_a_clash_and_the_deadline() -> None:
    # seeding the forbidden cell 0 is one round; the guard then objects
    assert depth(LADDER, start, Row(3, forbidden=0b1), Deadline.never()) == (1,)
    assert depth(LADDER, start, Row(3), Deadline.never(), shaded=0b1, empty=0b1) == ()
    assert depth(LADDER, start, Row(3), Deadline(0)) == ()


def test_needed_steps_walk_back_from_the_contradiction() -> None:
    from gridproof.core.ladder import needed_steps

    # the assumption at cell 0 lets one step decide cell 1 and another cell 2 from it; a
    # third decides cell 5 from cell 4, which the contradiction at cell 2 does not need
    first = Step("a", "first", shaded=1 << 1, cells=(0, 1))
    aside = Step("c", "aside", empty=1 << 5, cells=(4, 5))
    second = Step("b", "second", empty=1 << 2, cells=(1, 2))
    broken = Violation("d", "broken", cells=(2,))
    assert needed_steps([first, aside, second], broken, 1 << 0) == [first, second]
    assert needed_steps([aside], Violation("d", "broken", cells=(0,)), 1 << 0) == []


def test_a_chain_cites_of_what_a_step_decides_only_what_the_rest_reads() -> None:
    from gridproof.core.ladder import chain_cited

    # from the assumption at cell 0 one step decides cells 1, 3 and 6 (looking at 0);
    # the next reads cell 1 and decides cell 2, where the contradiction is; region 7 is
    # cells 8 and 9, which the contradiction names too, and the first step decided 9
    first = Step("a", "first", shaded=1 << 1 | 1 << 9, empty=1 << 3 | 1 << 6, cells=(0,))
    second = Step("b", "second", empty=1 << 2, cells=(1,))
    broken = Violation("d", "broken", cells=(2,), regions=(7,))

    def region(rid: int) -> int:
        return 0b11 << 8 if rid == 7 else 0

    cells, regions = chain_cited(0, [first, second], broken, region)
    assert set(cells) == {0, 1, 9, 2}
    assert regions == (7,)
    everything, _ = chain_cited(0, [first, second], broken)  # without regions: all decided
    assert set(everything) == {0, 1, 3, 6, 9, 2}


def test_a_chain_says_of_each_step_only_what_the_rest_reads() -> None:
    from gridproof.core.ladder import chain_parts, chain_said

    def fewer(_position: object, step: Step, keep: int) -> Step:
        return Step(step.rule, f"{step.rule} decides {[*bits(keep)]}", empty=keep)

    said_whole = Rule("a", "A", "", lambda _: [])
    narrowed = Rule("b", "B", "", lambda _: [], narrow=fewer)
    first = Step("a", "a decides 1 and 3", empty=1 << 1 | 1 << 3, cells=(0,))
    second = Step("b", "b decides 2 and 4", empty=1 << 2 | 1 << 4, cells=(1,))
    third = Step("b", "b decides 5", empty=1 << 5, cells=(2,))
    parts = chain_parts([first, second, third], Violation("d", "broken", cells=(5,)), 1)
    assert [keep for _, keep in parts] == [1 << 1, 1 << 2, 1 << 5]
    said = chain_said([said_whole, narrowed], None, parts)
    # a rule without `narrow` says its step whole; one with it, of what is read; a step
    # read whole is said as it is
    assert [step.text for step in said] == ["a decides 1 and 3", "b decides [2]", "b decides 5"]


def test_grades_are_one_vocabulary_of_values() -> None:
    """Every ladder's grades are `Grade` values, easiest first; a grade spelled as a string
    equals its value (JSON, SQLite and codes carry it unchanged)."""
    from gridproof.core.ladder import Grade, grade_of
    from gridproof.core.registry import genres

    order = list(Grade)
    for genre in genres().values():
        grades = genre.difficulties
        assert all(isinstance(grade, Grade) for grade in grades)
        assert [order.index(grade) for grade in grades] == sorted(order.index(g) for g in grades)
    assert grade_of("hard") is Grade.HARD
    assert Grade.HARD == "hard"
    assert {"hard": 1}[Grade.HARD] == 1
    with pytest.raises(CodeError, match="unknown grade 'tough'; grades: easy, medium"):
        grade_of("tough")


def test_a_ladder_grades_only_in_the_shared_vocabulary() -> None:
    with pytest.raises(ValueError, match="grade 'fiendish' is not one of easy, medium"):
        Ladder((Rung("copying", "easy", "copy a neighbour", (guard, copy_left)),), "fiendish")
