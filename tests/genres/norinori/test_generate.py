"""The Norinori generator: every board proven unique, steered to its grade, reproducible."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from gridproof.core.contract import Generated, Request, Tally, pick_grade
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.grid import Geometry
from gridproof.core.ladder import grade_puzzle, rate, run_ladder
from gridproof.core.outcome import Verdict
from gridproof.core.rng import Rng
from gridproof.core.symmetry import Symmetry
from gridproof.genres.norinori import (
    GENRE,
    brute,
    build,
    codec,
    generate,
    model,
    rules,
    sat,
    solve,
    steer,
)
from gridproof.genres.norinori.position import Trials, start
from gridproof.genres.norinori.rules import LADDER

FIXTURES = Path(__file__).with_name("fixtures.json")
GRADES = ("easy", "medium", "hard")


def _sat_unique(made: Generated[model.Norinori]) -> None:
    """The board is unique by the SAT oracle, with the generator's solution."""
    puzzle = made.puzzle
    assert model.validate(puzzle, made.solution) == []
    oracle = sat.count_sat(puzzle, 2)
    assert oracle.verdict is Verdict.UNIQUE
    assert oracle.solutions == (made.solution,)


def _finishes(made: Generated[model.Norinori], rung: str) -> bool:
    return steer.solve(made.puzzle, rung, Deadline(60)).complete


def test_every_rung_grade_is_offered_at_every_size() -> None:
    assert GENRE.grades_at is generate.grades_at
    low, high = generate.MIN_SIDE, generate.MAX_SIDE
    for width, height in ((low, low), (low, high), (high, low), (17, 9), (30, 30), (high, high)):
        assert GENRE.offered(width, height) == GRADES
    assert LADDER.beyond not in GENRE.offered(10, 10)  # needs search: never generated
    assert generate.grades_at(low - 1, 10) == ()
    assert generate.grades_at(10, high + 1) == ()


@pytest.mark.parametrize("difficulty", GRADES)
@pytest.mark.parametrize(
    ("width", "height", "seed"), [(4, 4, 1), (6, 6, 2), (7, 5, 3), (8, 8, 4), (10, 10, 5)]
)
def test_every_grade_is_delivered_unique_by_the_sat_oracle(
    width: int, height: int, seed: int, difficulty: str
) -> None:
    made = generate.generate(Request(width, height, difficulty), seed, Deadline(120))
    assert (made.puzzle.width, made.puzzle.height) == (width, height)
    assert made.difficulty == difficulty
    _sat_unique(made)
    graded = grade_puzzle(LADDER, start, made.puzzle, Deadline(60))
    assert graded.grade == difficulty
    assert made.score == graded.score > 0
    assert made.metrics["steps"] == graded.steps
    assert made.metrics["hardest"] == graded.hardest
    assert made.metrics["tightest"] == graded.tightest
    assert made.metrics["regions"] == made.puzzle.region_count
    assert made.health.attempts >= 1


@pytest.mark.parametrize("seed", range(1, 7))
def test_each_grade_means_what_its_rungs_say(seed: int) -> None:
    easy, medium, hard = (
        generate.generate(Request(7, 7, grade), seed, Deadline(120)) for grade in GRADES
    )
    local, pairs, probe = LADDER.names
    assert _finishes(easy, local)
    assert not _finishes(medium, local)
    assert _finishes(medium, pairs)
    assert not _finishes(hard, pairs)  # pairs alone does not finish a hard board...
    assert _finishes(hard, probe)  # ...and probe does


@pytest.mark.parametrize(
    ("width", "height", "difficulty", "seed"),
    [(15, 15, "easy", 1), (14, 18, "medium", 3), (20, 16, "hard", 4), (16, 16, None, 2)],
)
def test_big_boards_of_every_grade_are_unique_by_the_sat_oracle(
    width: int, height: int, difficulty: str | None, seed: int
) -> None:
    made = generate.generate(Request(width, height, difficulty), seed, Deadline(120))
    _sat_unique(made)
    assert grade_puzzle(LADDER, start, made.puzzle, Deadline(60)).grade == made.difficulty


@pytest.mark.parametrize("seed", range(1, 10))
def test_with_no_grade_asked_the_seed_picks_one(seed: int) -> None:
    made = generate.generate(Request(6, 6), seed, Deadline(120))
    assert made.difficulty == pick_grade(seed, GENRE.offered(6, 6))
    _sat_unique(made)


def test_same_seed_same_board_under_any_clock_deadline() -> None:
    """Only work budgets decide: a seed gives one board whatever the clock allows."""
    for request in (Request(9, 9, "easy"), Request(9, 9, "hard"), Request(8, 10)):
        boards = {
            (codec.format_code(made.puzzle), made.solution, made.difficulty, made.score)
            for made in (
                generate.generate(request, 11, deadline)
                for deadline in (Deadline(30), Deadline(600), Deadline.never())
            )
        }
        assert len(boards) == 1
    first = generate.generate(Request(7, 7), 11, Deadline(120))
    other = generate.generate(Request(7, 7), 12, Deadline(120))
    assert codec.format_code(other.puzzle) != codec.format_code(first.puzzle)


def test_a_work_budget_decides_not_the_clock() -> None:
    """A count that runs out of work rejects its candidate the same way every time, and
    the health record says so; the board then comes from a later candidate."""
    tally = Tally()
    built = build.build_candidate(12, 12, Rng(3).fork("candidate 1"), tally, Deadline(60), 1, 50)
    assert built is None
    assert tally.timeout == 1
    again = Tally()
    assert (
        build.build_candidate(12, 12, Rng(3).fork("candidate 1"), again, Deadline(), 1, 50) is None
    )
    assert again == tally


def test_regions_stay_readable() -> None:
    made = generate.generate(Request(9, 9), 21, Deadline(120))
    for cells in made.puzzle.region_cells():
        assert len(cells) >= 2  # no one-cell slivers: every region holds two shaded cells


def test_out_of_time_raises_with_health() -> None:
    with pytest.raises(GenerationError) as raised:
        generate.generate(Request(12, 12), 1, Deadline(0))
    assert set(raised.value.health) >= {"attempts", "ambiguous", "contradiction", "timeout"}


@pytest.mark.parametrize("size", [(3, 3), (generate.MAX_SIDE + 1, 5), (5, 0)])
def test_sizes_outside_the_range_are_refused(size: tuple[int, int]) -> None:
    with pytest.raises(CodeError, match="outside"):
        generate.generate(Request(*size), 1, Deadline(5))


@pytest.mark.parametrize("difficulty", ["expert", "trivial", "Easy", ""])
def test_grades_not_offered_are_refused_with_the_grades_there_are(difficulty: str) -> None:
    with pytest.raises(CodeError, match="it has easy, medium, hard"):
        generate.generate(Request(6, 6, difficulty), 1, Deadline(5))


def test_induced_matching_is_induced_and_dense() -> None:
    geo = Geometry(10, 10)
    greedy = build.greedy_matching(geo, Rng(5))
    dense = build.induced_matching(geo, Rng(5), rounds=400)
    for dominoes in (greedy, dense):
        shaded = 0
        for a, b in dominoes:
            assert geo.neighbours[a] >> b & 1
            shaded |= (1 << a) | (1 << b)
        for a, b in dominoes:
            others = shaded & ~((1 << a) | (1 << b))
            assert not geo.spread((1 << a) | (1 << b)) & others, "dominoes may not touch"
    assert len(dense) > len(greedy)


def _drawn(size: int, seed: int) -> tuple[Geometry, list[int], int]:
    rng = Rng(seed)
    geo = Geometry(size, size)
    dominoes = build.induced_matching(geo, rng, rounds=20 * size)
    solution = sum((1 << a) | (1 << b) for a, b in dominoes)
    labels = build.grow_regions(geo, build.seed_regions(geo, dominoes, rng, 0.3), rng)
    return geo, labels, solution


def test_walking_a_rival_kills_it_and_keeps_the_solution() -> None:
    rng = Rng(8)
    geo, labels, solution = _drawn(8, 8)
    for _ in range(30):
        puzzle = build.puzzle_of(geo, labels)
        assert model.validate(puzzle, solution) == []
        outcome = solve.count(puzzle, 2, Deadline(30))
        if outcome.verdict is Verdict.UNIQUE:
            break
        rival = next(s for s in outcome.solutions if s != solution)
        walked = build.walk_rival(geo, labels, solution, [rival], rng)
        if walked is None:
            break
        labels = walked
        moved = build.puzzle_of(geo, labels)
        assert model.validate(moved, rival) != []
        assert model.validate(moved, solution) == []


@pytest.mark.parametrize("seed", range(6))
def test_slides_and_split_rivals_are_rivals(seed: int) -> None:
    geo, labels, solution = _drawn(10, seed)
    puzzle = build.puzzle_of(geo, labels)
    slid = build.slides(geo, labels, solution)
    for rival in slid:
        assert (rival ^ solution).bit_count() == 2
        assert model.validate(puzzle, rival) == []
    found = solve.rivals(puzzle, solution, Deadline(60))
    assert found is not None
    for rival in build.split_rivals(puzzle, solution, found):
        assert rival != solution
        assert model.validate(puzzle, rival) == []


@pytest.mark.parametrize("seed", range(4))
def test_the_climbs_bound_never_undercounts(seed: int) -> None:
    """A move is skipped when the bound shows no gain: the bound must hold the truth."""
    geo, labels, solution = _drawn(9, seed)
    layout = steer.Layout(geo, labels)
    for rung in LADDER.names[:2]:
        before = steer.marks(layout, rung, Deadline(30))
        assert before is not None
        for move in list(layout.moves(solution, Rng(seed)))[:12]:
            moved = layout.moved(move)
            exact = steer.decided(moved, rung, Deadline(30))
            assert moved.bound(rung, before, 1 << move[0], Deadline(30)) >= exact


@pytest.mark.parametrize("seed", range(4))
def test_local_from_a_seed_decides_what_it_decides_from_nothing(seed: int) -> None:
    """`Layout.seed_for`: on every layout one or two moves of the seed's cells away,
    `local` closed from the seed's marks reaches what it reaches from nothing. The cells
    are a patch of the board (as a climb's open part is), on boards drawn afresh and on
    easy ones; the moves keep the solution, so neither close dies, and the seed leaves
    cells for the close from it to decide."""
    rng = Rng(seed)
    drawn = _drawn(10, seed)
    made = generate.generate(Request(10, 10, "easy"), seed, Deadline(60))
    boards = [drawn, (Geometry(10, 10), list(made.puzzle.regions), made.solution)]
    compared = left = 0
    for geo, labels, solution in boards:
        layout = steer.Layout(geo, labels)
        for _ in range(6):
            corner = rng.below(geo.size)
            patch = 1 << corner
            for _ in range(rng.below(3) + 1):
                patch |= geo.spread(patch)
            seeded = layout.seed_for(patch)
            for first in islice(layout.moves(solution, rng, near=patch), 8):
                once = layout.moved(first)
                assert once.local(seeded) == once.local()
                for second in islice(once.moves(solution, rng, near=patch), 4):
                    twice = once.moved(second)
                    exact = twice.local()
                    assert exact is not None
                    assert twice.local(seeded) == exact
                    compared += 1
                    left += exact != seeded[:2]
    assert compared > 150
    assert left > compared // 4


@pytest.mark.parametrize("seed", range(3))
def test_a_moved_layout_lists_the_moves_a_fresh_one_lists(seed: int) -> None:
    """A layout reads the moves its parent listed for cells a move leaves as they were
    (`steer.Layout.inherited`): along a walk of moves, two and three deep from layouts
    that listed their moves, every listing equals that of a layout built afresh from the
    same labels, in the same order and under the same draws."""
    geo, labels, solution = _drawn(9, seed)
    rng = Rng(seed)
    layout = steer.Layout(geo, labels)
    compared = 0
    for _ in range(12):
        listed = list(layout.moves(solution, Rng(1)))
        assert listed == list(steer.Layout(geo, list(layout.labels)).moves(solution, Rng(1)))
        for move in listed[:6]:
            once = layout.moved(move)
            for again in list(once.moves(solution, Rng(2)))[:4]:
                twice = once.moved(again)
                fresh = steer.Layout(geo, list(twice.labels))
                assert list(twice.moves(solution, Rng(3))) == list(fresh.moves(solution, Rng(3)))
                compared += 1
        layout = layout.moved(listed[rng.below(len(listed))])
    assert compared > 200


REAL_EASE_STEP = steer._ease_step


def _stalling(monkeypatch: pytest.MonkeyPatch, stalls: int) -> tuple[list[steer.Climb], list[int]]:
    """Make `steer.ease` stall (its step finds nothing) at its second step past
    `RETRY_FROM`, and at each later step until it has stalled `stalls` times: the climbs
    its steps started from, and the indices of those that stalled."""
    seen: list[steer.Climb] = []
    stalled: list[int] = []

    def step(here: steer.Climb, *args: Any) -> steer.Climb | None:
        seen.append(here)
        past = [c for c in seen if c.score >= steer.RETRY_FROM * here.layout.geo.size]
        if len(past) >= 2 and len(stalled) < stalls:
            stalled.append(len(seen) - 1)
            return None
        return REAL_EASE_STEP(here, *args)

    monkeypatch.setattr(steer, "_ease_step", step)
    return seen, stalled


def test_an_easing_climb_that_stalls_near_the_top_goes_back_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`steer.ease`: a climb that stalls once it has decided `RETRY_FROM` of the board
    climbs on from the first layout where it had (with no plateau steps behind it), to
    layouts it has not seen, and ends on a board `local` completes; a second stall ends
    it."""
    geo, labels, solution = _drawn(12, 2)
    puzzle = build.puzzle_of(geo, labels)
    local, work = LADDER.names[0], generate.COUNT_WORK * geo.size

    seen, stalled = _stalling(monkeypatch, 1)
    made = steer.ease(puzzle, solution, local, Rng(2), Deadline(60), work, geo.size)
    assert made is not None
    assert steer.solve(made[0], local, Deadline(60)).complete
    [stall] = stalled
    back = next(c for c in seen if c.score >= steer.RETRY_FROM * geo.size)
    assert seen[stall].layout.key() != back.layout.key()
    assert seen[stall + 1].layout is back.layout
    assert seen[stall + 1].flat == 0
    before = {c.layout.key() for c in seen[: stall + 1]}
    assert all(c.layout.key() not in before for c in seen[stall + 2 :])
    assert len(seen) > stall + 2

    seen, stalled = _stalling(monkeypatch, 2)
    assert steer.ease(puzzle, solution, local, Rng(2), Deadline(60), work, geo.size) is None
    assert len(stalled) == 2
    assert seen[stalled[0] + 1].layout.key() == back.layout.key()
    assert len(seen) == stalled[1] + 1  # the second stall ended the climb


@pytest.mark.parametrize("seed", range(4))
def test_only_moves_of_cells_local_leaves_open_can_gain(seed: int) -> None:
    """The easing climb skips moves of cells `local` decided without scoring them (see
    `steer.CHEAPEST`): from the marks it closed, such a move decides nothing more (its
    bound is the score, so the exact count from nothing is no higher); the moves of open
    cells hold every gain. The board is where a climb stands: one move from an easy
    board, which `local` no longer finishes."""
    made = generate.generate(Request(12, 12, "easy"), seed, Deadline(60))
    geo, solution = Geometry(12, 12), made.solution
    easy = steer.Layout(geo, list(made.puzzle.regions))
    for first in easy.moves(solution, Rng(seed)):
        layout = easy.moved(first)
        before = steer.marks(layout, steer.CHEAPEST, Deadline(30))
        if before is not None and geo.full & ~(before[0] | before[1]):
            break
    assert before is not None
    score = (before[0] | before[1]).bit_count()
    open_cells = geo.full & ~(before[0] | before[1])
    assert open_cells
    kept = skipped = gains = 0
    for move in layout.moves(solution, Rng(seed)):
        moved = layout.moved(move)
        bound = moved.bound(steer.CHEAPEST, before, 1 << move[0], Deadline(30))
        if open_cells >> move[0] & 1:
            kept += 1
            gains += bound > score
            continue
        skipped += 1
        assert bound == score
        assert steer.decided(moved, steer.CHEAPEST, Deadline(30)) <= score
    assert skipped
    assert kept
    assert gains


def test_grading_with_the_solution_takes_the_same_steps_with_fewer_trials(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A generator grades its candidate knowing a solution (`standing`): the probe rung
    then skips the trials that agree with it, which no sound rule refutes, so the solve
    takes the same steps in the same order (and the board the same grade and score)."""
    trials = _count_trials(monkeypatch)
    spent = [0, 0]
    for seed in range(3):
        made = generate.generate(Request(10, 10, "hard"), seed, Deadline(60))
        runs = []
        for index, known in enumerate((None, made.solution)):
            trials.clear()
            runs.append(steer.solve(made.puzzle, "probe", Deadline(60), solution=known))
            spent[index] += len(trials)
        plain, known_run = runs
        assert plain.complete
        assert any(s.rule == rules.probe.id for s in plain.steps)
        assert [(s.rule, s.shaded, s.empty, s.cells) for s in known_run.steps] == [
            (s.rule, s.shaded, s.empty, s.cells) for s in plain.steps
        ]
        assert known_run.choices == plain.choices
        assert rate(LADDER, "probe", known_run) == rate(LADDER, "probe", plain)
    assert spent[1] < spent[0]


def _count_trials(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets an item for each probe trial run from here on."""
    trials: list[int] = []
    run_ladder = rules.run_ladder

    def counted(*args: Any) -> Any:
        trials.append(1)
        return run_ladder(*args)

    monkeypatch.setattr(rules, "run_ladder", counted)
    return trials


def test_a_probe_runs_again_only_the_trials_what_was_decided_since_reaches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A solve runs the probe rung again after each step; a trial that found no
    contradiction runs again only if it could now end otherwise: the marks decided since
    reach what it decided and are not all among them (`position.Trials`). The same steps
    in the same order as running every trial each time, with fewer trials."""
    trials = _count_trials(monkeypatch)
    spent = [0, 0]
    for seed in range(4):
        made = generate.generate(Request(20, 20, "hard"), seed, Deadline(60))
        runs = []
        for index, every in enumerate((True, False)):
            trials.clear()
            with monkeypatch.context() as patch:
                if every:
                    patch.setattr(Trials, "idle", lambda *_: False)
                runs.append(steer.solve(made.puzzle, "probe", Deadline(60)))
            spent[index] += len(trials)
        plain, kept = runs
        assert plain.complete
        assert any(s.rule == rules.probe.id for s in plain.steps)
        assert [(s.rule, s.shaded, s.empty, s.cells, s.text) for s in kept.steps] == [
            (s.rule, s.shaded, s.empty, s.cells, s.text) for s in plain.steps
        ]
        assert kept.choices == plain.choices
    assert spent[1] < spent[0]


def test_a_position_set_back_forgets_its_trials() -> None:
    """The trials a probe keeps hold only while the position gains marks: one that loses a
    mark (or a narrowing) runs every trial again."""
    made = generate.generate(Request(12, 12, "hard"), 5, Deadline(60))  # its probe keeps some
    pos = start(made.puzzle, Deadline(60))
    run_ladder(rules.PAIRS, pos, Deadline(60))
    rules.probe(pos)
    assert pos.trials is not None
    assert len(pos.trials)
    kept = len(pos.trials)
    pos.trials.look(pos)  # the same state: kept
    assert len(pos.trials) == kept
    assert pos.domains is not None
    widened = pos.copy()
    widened.trials = pos.trials
    rid = next(r for r, d in enumerate(pos.domains) if d is not None)
    widened.domains = list(pos.domains)
    widened.domains[rid] = (*pos.domains[rid], 0)  # a pair it had lost, say
    widened.trials.look(widened)
    assert not len(pos.trials)
    rules.probe(pos)
    assert len(pos.trials) == kept
    decided = pos.shaded | pos.empty
    assert decided
    pos.shaded &= ~(decided & -decided)  # a mark taken back
    pos.empty &= ~(decided & -decided)
    pos.trials.look(pos)
    assert not len(pos.trials)


def test_the_retained_fixtures_stay_unique_forever() -> None:
    data = json.loads(FIXTURES.read_text())
    assert {board["symmetry"] for board in data["boards"]} == {s.value for s in Symmetry}
    for board in data["boards"]:
        puzzle = codec.parse_code(board["code"])
        rows = board["solution"]
        answer = sum(
            1 << (r * puzzle.width + c)
            for r, row in enumerate(rows)
            for c, ch in enumerate(row)
            if ch == "#"
        )
        for counter in (solve.count, brute.count_by_cells, brute.count_by_regions):
            assert counter(puzzle, 2, Deadline(30)).solutions == (answer,), board["id"]
        assert sat.count_sat(puzzle, 2).solutions == (answer,)
