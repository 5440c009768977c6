"""`gridproof study norinori`: the design note's measurements, remade with this engine.

Each table stands beside the figure the note (`001`) published. Everything is drawn from
the project's RNG, so a seed reproduces the whole report.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable
from math import comb

from gridproof.core.contract import Generated, Tally
from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, bits, geometry
from gridproof.core.ladder import grade_puzzle, solve
from gridproof.core.outcome import Verdict
from gridproof.core.report import Cell, Chart, Report, Table, Tick, no_tick, num, pct, table
from gridproof.core.rng import Rng
from gridproof.genres.norinori import build, generate
from gridproof.genres.norinori.model import Norinori, make_puzzle, region_cycles
from gridproof.genres.norinori.position import start
from gridproof.genres.norinori.rules import LADDER
from gridproof.genres.norinori.solve import count

NOTE_PARTITIONS = {5: (62, 5, 33), 6: (77, 2, 22), 7: (93, 0, 7)}
NOTE_DENSITY = {6: (37, 50), 7: (38, 49), 8: (35, 48), 10: (36, 48)}
NOTE_RUNGS = {5: (0, 55, 100), 6: (3, 53, 100), 7: (0, 33, 100), 8: (0, 62, 100)}


def random_partition(size: int, rng: Rng) -> Norinori:
    """Regions of about four cells grown at random from random seeds: a partition drawn
    with no shading in mind, as the note's first experiment did."""
    geo = geometry(size, size)
    labels = [-1] * geo.size
    for label, cell in enumerate(rng.sample(range(geo.size), max(1, geo.size // 4))):
        labels[cell] = label
    return make_puzzle(_rows(geo, build.grow_regions(geo, labels, rng)))


def _rows(geo: Geometry, labels: list[int]) -> list[list[int]]:
    return [labels[r * geo.width : (r + 1) * geo.width] for r in range(geo.height)]


def partitions_table(boards: int, rng: Rng, deadline: Deadline) -> Table:
    rows = []
    for size in (5, 6, 7):
        tally: Counter[Verdict] = Counter()
        for _ in range(boards):
            budget = deadline.within(work=generate.COUNT_WORK * size * size)
            tally[count(random_partition(size, rng), 2, budget).verdict] += 1
        n = sum(tally.values())
        none, one, many = NOTE_PARTITIONS[size]
        timed_out = tally[Verdict.TIMEOUT]
        rows.append(
            [
                f"{size}×{size}",
                n,
                pct(tally[Verdict.NONE], n),
                pct(tally[Verdict.UNIQUE], n),
                pct(tally[Verdict.MULTIPLE], n),
                f"{none}/{one}/{many}%" + (f" ({timed_out} timed out)" if timed_out else ""),
            ]
        )
    return table(
        "partitions",
        "1. Random partitions: how many shadings?",
        ["size", "boards", "no shading", "exactly one", "two or more", "note"],
        rows,
        chart=Chart(("no shading", "exactly one", "two or more"), "% of boards"),
    )


def density_table(boards: int, rng: Rng) -> Table:
    rows = []
    for size in (6, 7, 8, 10):
        geo = geometry(size, size)
        greedy = [2 * len(build.greedy_matching(geo, rng)) / geo.size for _ in range(boards)]
        refill = [
            2 * len(build.induced_matching(geo, rng, build.REFILL_ROUNDS * geo.size)) / geo.size
            for _ in range(boards)
        ]
        g, r = statistics.mean(greedy), statistics.mean(refill)
        note_g, note_r = NOTE_DENSITY[size]
        rows.append(
            [
                f"{size}×{size}",
                num(round(100 * g, 2), f"{g:.0%}"),
                num(round(100 * r, 2), f"{r:.0%}"),
                f"{2 / g:.2f} → {2 / r:.2f}",
                f"{note_g}% → {note_r}%",
            ]
        )
    return table(
        "density",
        "2. Shaded density: plain greedy matching vs remove-one-and-refill",
        [
            "size",
            "greedy shaded",
            "refill shaded",
            "forced mean region size (2 / density)",
            "note",
        ],
        rows,
        chart=Chart(("greedy shaded", "refill shaded"), "% of cells shaded"),
    )


def rungs_table(made: dict[int, list[Generated[Norinori]]], deadline: Deadline) -> Table:
    rows = []
    for size, boards in made.items():
        done = dict.fromkeys(LADDER.names, 0)
        for board in boards:
            for rung in done:
                progress = solve(LADDER, start, board.puzzle, rung, deadline.within(30))
                done[rung] += progress.complete
        n = len(boards)
        regions = statistics.mean(b.puzzle.region_count for b in boards) if boards else 0.0
        local, pairs, probe = NOTE_RUNGS.get(size, (0, 0, 0))
        rows.append(
            [
                f"{size}×{size}",
                n,
                *(pct(done[r], n) for r in LADDER.names),
                num(round(regions, 2), f"{regions:.1f}"),
                _mean_size(size, regions),
                f"{local}/{pairs}/{probe}%",
            ]
        )
    return table(
        "rungs",
        "3. Which rung completes unique boards generated with no solvability filter",
        ["size", "boards", *LADDER.names, "regions", "mean region size", "note"],
        rows,
        chart=Chart(LADDER.names, "% of boards completed"),
    )


def _mean_size(size: int, regions: float) -> Cell:
    mean = size * size / regions if regions else 0
    return num(round(mean, 3), f"{mean:.2f}")


def cycles_table(made: dict[int, list[Generated[Norinori]]]) -> Table:
    lengths: Counter[int] = Counter()
    dominoes = crossing = 0
    for boards in made.values():
        for board in boards:
            puzzle, solution = board.puzzle, board.solution
            for cycle in region_cycles(puzzle, solution):
                lengths[len(cycle)] += 1
            w = puzzle.width
            for cell in bits(solution):
                for other in (cell + 1, cell + w):
                    east = other == cell + 1 and cell % w < w - 1
                    if (east or other == cell + w) and solution >> other & 1:
                        dominoes += 1
                        crossing += puzzle.regions[cell] != puzzle.regions[other]
    total = sum(lengths.values())
    note = {1: "87%", 2: "11%", 3: "2%", 4: "0%"}
    rows = [
        [length, lengths[length], pct(lengths[length], total), note.get(length, "-")]
        for length in sorted(lengths)
    ]
    return table(
        "cycles",
        "4. Region cycles and dominoes crossing a border",
        ["cycle length", "cycles", "share", "note"],
        rows,
        before=f"dominoes: {dominoes}; crossing a region border: {crossing} "
        f"({pct(crossing, dominoes).text}; note: 25%)",
        chart=Chart(("share",), "% of cycles", labels=("cycle length",)),
    )


def induced_matchings(size: int) -> int:
    """Shadings of a size × size grid in which every shaded cell has exactly one shaded
    neighbour (all induced matchings, the empty one included), by plain search."""
    geo = geometry(size, size)
    total = 0

    def walk(cell: int, shaded: int) -> None:
        nonlocal total
        if cell == geo.size:
            total += 1
            return
        nbrs = geo.neighbours
        if shaded >> cell & 1:  # already placed as the second cell of a domino
            walk(cell + 1, shaded)
            return
        walk(cell + 1, shaded)  # leave it empty
        for partner in (cell + 1, cell + size):
            if partner < geo.size and nbrs[cell] >> partner & 1:
                piece = (1 << cell) | (1 << partner)
                if not geo.spread(piece) & shaded and not shaded & piece:
                    walk(cell + 1, shaded | piece)

    walk(0, 0)
    return total


def knockout_table(boards: list[Generated[Norinori]]) -> Table:
    matchings = induced_matchings(5)
    products = sorted(
        _product(comb(len(cells), 2) for cells in b.puzzle.region_cells()) for b in boards
    )
    median = statistics.median(products) if products else 0
    rows = [
        [
            "region counts",
            num(matchings, f"{matchings} on every board (the induced matchings of the 5×5 grid)"),
            num(0, f"0 / {len(boards)}"),
            "7358, 0 / 40",
        ],
        [
            "domino rule",
            num(
                median,
                f"median {median:.0f}, worst {max(products, default=0)} "
                "(product of C(size, 2) over regions)",
            ),
            num(sum(p == 1 for p in products), f"{sum(p == 1 for p in products)} / {len(boards)}"),
            "median 54000, worst 77760",
        ],
    ]
    return table(
        "knockout",
        "5. Both rules are load-bearing (5×5 boards)",
        ["rule dropped", "shadings", "still unique", "note"],
        rows,
        chart=Chart(("shadings",), "shadings (median)", log=True, labels=("rule dropped",)),
    )


def _product(values: object) -> int:
    out = 1
    for value in values:  # type: ignore[attr-defined]
        out *= value
    return out


def lifted_table(made: dict[int, list[Generated[Norinori]]], positions: int, rng: Rng) -> Table:
    """The note's 900 random partial positions: reveal part of a unique board's answer,
    then see what `local` alone and `pairs` add."""
    boards = [b for group in made.values() for b in group]
    local_only = pairs_only = 0
    advantage: list[int] = []
    for _ in range(positions if boards else 0):
        board = boards[rng.below(len(boards))]
        size = board.puzzle.width * board.puzzle.height
        shown = 0
        for cell in range(size):
            if rng.random() < 0.3:
                shown |= 1 << cell
        shaded, empty = board.solution & shown, shown & ~board.solution
        cheap, lifting = LADDER.names[:2]
        never = Deadline.never()
        local = solve(LADDER, start, board.puzzle, cheap, never, shaded=shaded, empty=empty)
        lifted = solve(LADDER, start, board.puzzle, lifting, never, shaded=shaded, empty=empty)
        a = (local.shaded | local.empty) & ~shown
        b = (lifted.shaded | lifted.empty) & ~shown
        local_only += bool(a & ~b)
        pairs_only += bool(b & ~a)
        advantage.append((b & ~a).bit_count() - (a & ~b).bit_count())
    n = len(advantage)
    mean = statistics.mean(advantage) if advantage else 0.0
    rows = [
        [
            "local rules saw a cell the lifting missed",
            num(local_only, f"{local_only} / {n}"),
            "0 / 900",
        ],
        [
            "the lifting saw a cell the local rules missed",
            num(pairs_only, f"{pairs_only} / {n} ({pct(pairs_only, n).text})"),
            "509 / 900 (57%)",
        ],
        [
            "average advantage over all positions",
            num(round(mean, 3), f"{mean:+.1f} cells"),
            "+11.4 cells",
        ],
    ]
    return table(
        "lifted",
        f"6. Local vs lifted rules over {n} random partial positions",
        ["measure", "ours", "note"],
        rows,
        chart=Chart(("ours",), "positions, or cells on average", labels=("measure",)),
    )


def _generate_boards(
    sizes: tuple[int, ...], boards: int, seed: int, deadline: Deadline, tick: Tick = no_tick
) -> dict[int, list[Generated[Norinori]]]:
    """Unique boards straight from the builder, before any steering to a grade (what the
    note's "no solvability filter" measured), one seed each."""
    made: dict[int, list[Generated[Norinori]]] = {}
    for size in sizes:
        made[size] = []
        for index in range(boards):
            rng, tally = Rng(seed + index), Tally()
            built = None
            while built is None and not deadline.expired():
                tally.attempts += 1
                built = build.build_candidate(
                    size,
                    size,
                    rng.fork(f"candidate {tally.attempts}"),
                    tally,
                    deadline,
                    generate.COUNT_WORK * size * size,
                    generate.WALK_MOVES * 2 * size,
                )
            tick(len(made) * boards - boards + index + 1, len(sizes) * boards)
            if built is None:
                break
            puzzle, solution, _ = built
            grade = grade_puzzle(LADDER, start, puzzle, deadline).grade
            made[size].append(Generated(puzzle, solution, seed + index, grade))
    return made


def run_study(
    boards: int, seed: int, deadline: Deadline | None = None, tick: Tick = no_tick
) -> Report:
    """The six tables of the design note with `boards` boards per size; `tick` is told
    how far it has got (boards made, then tables done)."""
    deadline = deadline or Deadline.never()
    rng = Rng(seed)
    sizes = (5, 6, 7, 8)
    parts: list[Callable[[], Table]] = [
        lambda: partitions_table(boards, rng.fork("partitions"), deadline),
        lambda: density_table(boards, rng.fork("density")),
        lambda: rungs_table(made, deadline),
        lambda: cycles_table(made),
        lambda: knockout_table(made[5]),
        lambda: lifted_table(made, 900 if boards >= 60 else 15 * boards, rng.fork("positions")),
    ]
    total = len(sizes) * boards + len(parts)
    made = _generate_boards(sizes, boards, seed, deadline, lambda done, _: tick(done, total))
    tables = []
    for number, part in enumerate(parts, 1):
        tables.append(part())
        tick(len(sizes) * boards + number, total)
    return Report(
        "norinori",
        "Norinori: the design note's figures, remade",
        tuple(tables),
        intro=f"{boards} boards per size, seed {seed}, generator {generate.GENERATOR_VERSION}.",
        outro=_WHY,
    )


_WHY = """### Where our figures differ, and why
- Table 1 depends on how a random partition is drawn; ours grows about n/4 regions from
  random seeds (mean region size near 4, the size a solvable board needs).
- Table 3: our builder walks rivals with paths of cells and crossing seeds, so its
  boards differ from the note's; the rung shares measure those boards, before the
  generator steers them to a grade. `probe` runs
  `pairs` inside each assumption, as the note's did, and should reach 100%.
- Table 4: the crossing share follows our `CROSSING_RATE` seeding choice; the cycles
  are measured, not chosen.
- Table 6: `pairs` runs every `local` rule, so its first row is 0 by construction, as in
  the note; the other rows depend on which boards and how much of each is revealed (30%)."""
