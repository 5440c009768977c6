"""The counter's bulk rules against the named ones, and its region ways against solutions."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import pytest

from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits
from gridproof.core.ladder import run_ladder
from gridproof.core.trace import Step
from gridproof.genres.norinori.brute import count_by_regions
from gridproof.genres.norinori.model import Norinori
from gridproof.genres.norinori.position import Position, board_of
from gridproof.genres.norinori.rules import LOCAL, close_local
from gridproof.genres.norinori.solve import region_ways, rivals
from tests.genres.norinori.boards import backward_board, board_mix, random_partition

EVERYTHING = 10**6


def _boards(count: int, seed: int) -> list[Norinori]:
    rng = random.Random(seed)
    makers = (random_partition, backward_board)
    return [makers[i % 2](rng.randint(4, 7), rng.randint(4, 7), rng) for i in range(count)]


def _marks(puzzle: Norinori, rng: random.Random, share: float) -> tuple[int, int]:
    """Random shaded and empty cells, consistent with nothing in particular."""
    shaded = empty = 0
    for cell in range(puzzle.width * puzzle.height):
        roll = rng.random()
        if roll < share / 3:
            shaded |= 1 << cell
        elif roll < share:
            empty |= 1 << cell
    return shaded, empty


def _ladder(puzzle: Norinori, shaded: int, empty: int) -> tuple[int, int] | None:
    pos = Position(board_of(puzzle))
    pos.shaded, pos.empty = shaded, empty
    run = run_ladder(LOCAL, pos, Deadline.never())
    return None if run.contradiction else (pos.shaded, pos.empty)


def test_close_local_reaches_the_fixpoint_of_the_local_rules() -> None:
    """The bulk form and the six named rules decide the same cells and die together, from
    random marks (mostly contradictory) and from marks taken from real solutions."""
    rng = random.Random(7)
    dead = alive = 0
    for puzzle in _boards(120, seed=11):
        board = board_of(puzzle)
        solutions = count_by_regions(puzzle, 8).solutions
        starts = [(0, 0)] + [_marks(puzzle, rng, rng.uniform(0.05, 0.4)) for _ in range(6)]
        for solution in solutions:
            keep = rng.getrandbits(puzzle.width * puzzle.height)
            starts.append((solution & keep, board.geo.full & ~solution & keep >> 1))
        for shaded, empty in starts:
            if shaded & empty:
                continue
            expected = _ladder(puzzle, shaded, empty)
            assert close_local(board, shaded, empty, board.geo.full) == expected
            dead += expected is None
            alive += expected is not None
    assert dead > 50, dead
    assert alive > 50, alive


@pytest.mark.slow
def test_region_ways_keep_every_solution() -> None:
    """Whatever has been decided in line with a solution, each region's part of that
    solution is still among its ways: the filter drops only ways that cannot work."""
    rng = random.Random(3)
    checked = 0
    for puzzle in _boards(80, seed=5):
        board = board_of(puzzle)
        for solution in count_by_regions(puzzle, EVERYTHING).solutions[:6]:
            keep = rng.getrandbits(puzzle.width * puzzle.height)
            closed = close_local(
                board, solution & keep, board.geo.full & ~solution & keep, board.geo.full
            )
            assert closed is not None
            shaded, empty = closed
            for rid, area in enumerate(board.region_mask):
                room = area & ~(shaded | empty)
                if not room:
                    continue
                ways = region_ways(board, shaded, empty, rid)
                assert (solution & room, room & ~solution) in ways
                checked += 1
    assert checked > 300


def test_rivals_are_other_solutions_and_none_means_unique() -> None:
    """`rivals` gives real solutions other than the one it is handed, and none exactly
    when that one is the only solution."""
    seen_unique = seen_multiple = 0
    for puzzle in board_mix(90, seed=4):
        every = count_by_regions(puzzle, EVERYTHING).solutions
        for solution in every[:3]:
            found = rivals(puzzle, solution, Deadline(30))
            assert found is not None
            assert (found == []) == (len(every) == 1)
            for rival in found:
                assert rival != solution
                assert rival in every
            seen_unique += len(every) == 1
            seen_multiple += len(every) > 1
    assert seen_unique > 5, seen_unique
    assert seen_multiple > 5, seen_multiple


def test_rivals_refuses_a_board_without_solutions() -> None:
    puzzle = next(p for p in _boards(40, seed=13) if not count_by_regions(p, 2).solutions)
    with pytest.raises(ValueError, match="does not solve"):
        rivals(puzzle, 0, Deadline(10))


def test_a_probe_cites_the_steps_its_contradiction_needs() -> None:
    from gridproof.core.ladder import needed_steps as chain
    from gridproof.core.trace import Violation

    # the assumption at cell 0 lets a step decide cell 1, another cell 2 from 1, an
    # unrelated step 5; the contradiction is at 2: the chain keeps the first two, in order
    first = Step("a", "first", shaded=1 << 1, cells=(0, 1))
    second = Step("b", "second", empty=1 << 2, cells=(1, 2))
    aside = Step("c", "aside", empty=1 << 5, cells=(4, 5))
    assert chain([first, aside, second], Violation("d", "broken", cells=(2,)), 1 << 0) == [
        first,
        second,
    ]
    assert chain([aside], Violation("d", "broken", cells=(0,)), 1 << 0) == []


def test_probe_sentences_name_the_cell_and_the_chain() -> None:
    import gridproof as gp

    texts = []
    for seed in (1, 2, 3):
        board = gp.generate("norinori", size=(10, 10), seed=seed, difficulty="hard").loaded
        progress = board.genre.solve(board.puzzle, board.genre.ladder.top, Deadline(30))
        texts += [step.text for step in progress.steps if step.rule == "probe"]
    assert texts
    for text in texts:
        cell = text.split(" ")[1]
        assert text.startswith(f"if {cell} were ")
        assert text.endswith((f"so {cell} is empty", f"so {cell} is shaded"))
        assert ", then " in text


def test_a_probe_sentence_names_only_cells_it_cites(monkeypatch: pytest.MonkeyPatch) -> None:
    """Of what each step of a probe's chain decides, the sentence names only what the rest
    of the chain reads (`Rule.narrow`), as the highlight shows only that: every cell the
    words name is a cited cell. Said whole, most of these sentences name cells the
    highlight leaves out."""
    import re

    import gridproof as gp
    from gridproof.genres.norinori import rules

    def outside() -> tuple[int, int]:
        probes = named_elsewhere = 0
        for seed in (1, 2, 3):
            board = gp.generate("norinori", size=(10, 10), seed=seed, difficulty="hard").loaded
            width = board.puzzle.width
            progress = board.genre.solve(board.puzzle, board.genre.ladder.top, Deadline(30))
            for step in progress.steps:
                if step.rule == rules.probe.id:
                    cited = {f"r{c // width + 1}c{c % width + 1}" for c in step.cells}
                    probes += 1
                    named_elsewhere += bool(set(re.findall(r"r\d+c\d+", step.text)) - cited)
        return probes, named_elsewhere

    probes, named_elsewhere = outside()
    assert probes
    assert not named_elsewhere
    monkeypatch.setattr(rules, "chain_said", lambda _rules, _pos, parts: [s for s, _ in parts])
    assert outside()[1] > probes // 2


def test_explanations_leave_out_the_cells_their_view_does_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Arc consistency over a Region pairs step's regions, or a probe's chain, can cite a
    cell that exact reasoning over the cells in view does without: the last pass leaves
    it out (`view.enough_and_fewest`). With the pass given no work, every Region pairs and
    Probe step of these solves cites a superset, some of them more; or else cites cells
    that do not imply the step (which the pass finds short and grows)."""
    from gridproof.genres.norinori import rules, view

    kinds = {rules.pairs.id, rules.probe.id}
    boards = ((6, 0), (6, 1), (8, 0), (8, 1))
    exact = [shown for _, shown, *_ in _explained_offers(boards, kinds)]
    monkeypatch.setattr(view, "VIEW_WORK", 0)
    loose = list(_explained_offers(boards, kinds))
    monkeypatch.undo()
    assert [step.rule for step in exact] == [rule for rule, *_ in loose]
    fewer: dict[str, int] = dict.fromkeys(kinds, 0)
    grown = 0
    for step, (rule, shown, puzzle, shaded, empty) in zip(exact, loose, strict=True):
        if set(step.cells) <= set(shown.cells):
            fewer[rule] += len(step.cells) < len(shown.cells)
            continue
        decided = dict.fromkeys(bits(shown.shaded), 1) | dict.fromkeys(bits(shown.empty), 0)
        short = [False]
        monkeypatch.setattr(view, "GROW", 0)
        tries = [(shown.cells, shown.regions)]
        assert (
            view.enough_and_fewest(board_of(puzzle), tries, shaded, empty, decided, short) is None
        )
        monkeypatch.undo()
        assert short[0], (rule, shown.text)
        grown += 1
    assert all(fewer.values()), f"no step cites fewer cells with the pass: {fewer}"
    assert grown <= len(exact) // 10, (grown, len(exact))


def _arcs(puzzle: Norinori) -> list[tuple[int, int]]:
    board = board_of(puzzle)
    return [(i, j) for i, near in enumerate(board.region_neighbours) for j in near if i < j]


def test_a_verdict_reads_only_the_marks_of_its_arcs_zone() -> None:
    """Two pairs side by side, or a region's pair alone (the region as its own arc), fit
    or not alike at any two marks that agree on the arc's zone (`Board.arc_zone`), however
    the rest of the board differs: what lets `rules.VERDICTS` keep a verdict for those
    marks only. (A zone one step narrower fails this.)"""
    from gridproof.genres.norinori.rules import Verdicts, checker_at, region_pairs

    rng = random.Random(5)
    compared = differ = 0
    for n, puzzle in enumerate(_boards(40, seed=21)):
        board = board_of(puzzle)
        geo = board.geo
        alone = [(i, i) for i in range(len(board.region_mask))]
        for i, j in _arcs(puzzle) + alone:
            pos = Position(board)
            Verdicts(limit=0).table(pos, i, j)  # fills the arc's zone
            zone = board.arc_zone[i, j]
            area = board.region_mask[i] | board.region_mask[j]
            halo = (board.region_halo[i] | board.region_halo[j]) & ~area
            sides = (region_pairs(board.region_mask[i]), region_pairs(board.region_mask[j]))
            if i == j:
                shades = list(sides[0] or ())
            else:
                shades = [p | q for p in sides[0] or () for q in sides[1] or ()]
            for _ in range(3):
                shaded, empty = _marks(puzzle, rng, rng.uniform(0.2, 0.7))
                other_shaded, other_empty = _marks(puzzle, rng, rng.uniform(0.2, 0.7))
                there = (
                    shaded & zone | other_shaded & ~zone,
                    empty & zone | other_empty & ~zone & ~(shaded & zone),
                )
                here = checker_at(geo, shaded, empty, area, halo)
                elsewhere = checker_at(geo, *there, area, halo)
                for shade in shades:
                    assert here(shade) == elsewhere(shade), (n, i, j, shade)
                compared += len(shades)
                differ += (shaded, empty) != there
    assert compared > 10_000, compared
    assert differ > 100, differ


def test_pairs_decide_alike_with_verdicts_kept_across_runs_or_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Region pairs ladder takes the same steps and finds the same contradictions on
    one board's positions one after another whether each run finds its verdicts and its
    arcs' revisions afresh or reuses those earlier runs kept (`rules.VERDICTS`)."""
    from gridproof.genres.norinori import rules

    class Counted(rules.Verdicts):
        reused = revisited = 0

        def table(
            self, pos: Position, i: int, j: int, key: rules.ArcKey | None = None
        ) -> dict[int, bool]:
            tables = len(self.tables)
            known = super().table(pos, i, j, key)
            self.reused += len(self.tables) == tables and bool(known)
            return known

        def revisions(
            self, pos: Position, i: int, j: int, key: rules.ArcKey | None = None
        ) -> dict[tuple[rules.Domain, rules.Domain], rules.Domain]:
            found = super().revisions(pos, i, j, key)
            self.revisited += bool(found)
            return found

    rng = random.Random(9)
    reused = revisited = 0
    for puzzle in _boards(16, seed=31):
        board = board_of(puzzle)
        solutions = count_by_regions(puzzle, 2).solutions
        starts = [_marks(puzzle, rng, rng.uniform(0.0, 0.3)) for _ in range(4)]
        for solution in solutions:
            for _ in range(4):
                keep = rng.getrandbits(puzzle.width * puzzle.height)
                starts.append((solution & keep, board.geo.full & ~solution & keep >> 1))
        kept = Counted(limit=EVERYTHING * 10**3)
        for shaded, empty in starts:
            if shaded & empty:
                continue
            runs = []
            for verdicts in (kept, rules.Verdicts(limit=0)):
                monkeypatch.setattr(rules, "VERDICTS", verdicts)
                pos = Position(board_of(puzzle))
                pos.shaded, pos.empty = shaded, empty
                run = run_ladder(rules.PAIRS, pos, Deadline.never())
                runs.append((run.steps, run.contradiction, pos.shaded, pos.empty))
            assert runs[0] == runs[1]
        reused += kept.reused
        revisited += kept.revisited
    assert reused > 30, reused
    assert revisited > 30, revisited


def test_an_arcs_revision_is_what_its_domains_and_verdicts_give_however_often_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """AC-3's revision of an arc keeps exactly the region's pairs that some pair of the
    neighbour's fits beside (the checker's verdicts), whether it is worked out or read back
    (`Verdicts.revisions`): asked again and again at the same marks with the neighbour's
    domain narrowed to different subsets, on fresh runs that share the kept verdicts."""
    from gridproof.genres.norinori import rules

    monkeypatch.setattr(rules, "VERDICTS", rules.Verdicts(limit=EVERYTHING * 10**3))
    rng = random.Random(12)
    asked = read_back = 0
    for puzzle in _boards(12, seed=41):
        board = board_of(puzzle)
        shaded, empty = _marks(puzzle, rng, rng.uniform(0.0, 0.2))
        if shaded & empty:
            continue
        arcs_of = [
            (i, j) for i in range(len(board.region_mask)) for j in board.region_neighbours[i]
        ]
        for i, j in rng.sample(arcs_of, min(8, len(arcs_of))):
            full = rules.lifted_domains(Position(board))
            mine, theirs = full[i], full[j]
            assert mine is not None
            assert theirs is not None
            subsets = [tuple(q for q in theirs if rng.random() < 0.5) for _ in range(3)]
            for partners in subsets + subsets[::-1]:
                pos = Position(board)
                pos.shaded, pos.empty = shaded, empty
                pos.domains = list(full)
                pos.domains[j] = partners
                arcs = rules._Arcs(pos)
                before = len(rules.VERDICTS.revisions(pos, i, j))
                fits = arcs._checker(i, j)
                expected = tuple(p for p in mine if any(fits(p | q) for q in partners))
                assert arcs.revise(i, j) == expected
                asked += 1
                read_back += len(rules.VERDICTS.revisions(pos, i, j)) == before
    assert asked > 200, asked
    assert read_back > asked // 3, read_back


def test_a_probe_citation_found_short_is_explained_again_with_more_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the cells a probe's explanation cites are found not to imply it (`short`),
    its chain is explained again within the next of `PROBE_EXPLAIN_WORK`, and that is
    what it cites; otherwise it is explained once. Here the first work is none (no Region
    pairs step of a chain explained): some first citations are found short by themselves,
    then every one is reported short."""
    from gridproof.genres.norinori import rules

    real = rules._without_idle
    checks: list[int] = []
    forced = [False]

    def without_idle(
        pos: Position, step: Step, found: Step, short: list[bool] | None = None
    ) -> Step:
        checks.append(len(step.cells))
        cited = real(pos, step, found, short)
        if forced[0] and short is not None and len(checks) == 1:
            short[0] = True
        return cited

    monkeypatch.setattr(rules, "_without_idle", without_idle)

    def probes(work: tuple[int, ...], force: bool) -> list[tuple[tuple[int, ...], int]]:
        monkeypatch.setattr(rules, "PROBE_EXPLAIN_WORK", work)
        forced[0] = force
        found = []
        checks.clear()
        for _, shown, *_ in _explained_offers(((8, 1), (8, 2)), {rules.probe.id}):
            found.append((shown.cells, len(checks)))
            checks.clear()
        return found

    once = probes((0, 4000), force=False)
    assert sorted({count for _, count in once}) == [1, 2]  # some found short with no work
    again = probes((0, 4000), force=True)
    assert all(count == 2 for _, count in again)
    assert [cells for cells, _ in again] == [cells for cells, _ in probes((4000,), False)]
    assert [cells for cells, _ in again] != [cells for cells, _ in once]


def _explained_offers(
    boards: Iterable[tuple[int, int]], kinds: set[str]
) -> Iterator[tuple[str, Step, Norinori, int, int]]:
    """Along the solve of each generated hard board (size, seed), every step of the rules
    `kinds` that `offer` gives at each position, as `explained` shows it, with the puzzle
    and the marks it was offered at."""
    from gridproof.core import registry
    from gridproof.core.contract import Request
    from gridproof.core.ladder import explained, offer

    genre = registry.genre("norinori")
    for size, seed in boards:
        puzzle = genre.generate(Request(size, size, "hard"), seed, Deadline(60)).puzzle
        shaded = empty = 0
        for step in genre.solve(puzzle, genre.rungs[-1], Deadline(60)).steps:
            offered = offer(
                genre.ladder, genre.position, puzzle, Deadline(60), shaded=shaded, empty=empty
            )
            for each in offered.steps:
                if each.rule in kinds:
                    shown = explained(
                        genre.ladder,
                        genre.position,
                        puzzle,
                        Deadline(60),
                        each,
                        shaded=shaded,
                        empty=empty,
                    )
                    yield each.rule, shown, puzzle, shaded, empty
            shaded |= step.shaded
            empty |= step.empty
