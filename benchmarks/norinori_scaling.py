"""Norinori counting on large boards: the engine and the SAT oracle side by side, by size.

    .venv/bin/python benchmarks/norinori_scaling.py [--sizes 10 20 40 60 80 100] [--boards 5]
        [--boards-file FILE] [--repeat 3] [--slowest 3] [--corpus]

Boards are unique boards from the project's own construction (`build.build_candidate`,
seeds 1.., the generator's work budgets, and beyond its size cap a larger walk budget:
`walk_moves`), built once and kept in
`--boards-file` (codes with their size and seed; by default a file in the temporary
directory named after the generator version, whose counted work decides what a seed
builds) so later runs measure the same boards: a 100×100 board takes minutes to build.
`--build-only` builds them and stops.
Each board is counted to 2 by the engine, then by the SAT oracle (CaDiCaL through
python-sat, `sat.count_sat`: encode and enumerate), in this process, CPU time
(`time.process_time`), the pair `--repeat` times in turn (default 3) and each counter's
least time kept: a single run charges whichever count comes first in the process with
warming up (the oracle's first 20×20 count took 21 ms where its next ones took 6) and
lets a stray pause decide a board's ratio. Every answer is checked untimed: both must say
`unique` with the same solution, which the validator accepts. The table gives per size the
median, p95 and max of each and their ratios (engine / oracle, below 1 is ahead), the
board with the worst ratio of its own, and the growth exponent of each fitted on the
medians (least squares of log time on log cells). Then, for the `--slowest` boards of
each size (3 by default), where the engine's count goes: its nodes and closes, and the
closes its root propagation spent and the cells it left to the search, and the oracle's
time split into building its CNF in Python and CaDiCaL's solving. `--corpus` adds
the same table for the real janko boards. A benchmark, not a test: it never fails on time.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
import time
from pathlib import Path

from gridproof.core.contract import Tally
from gridproof.core.deadline import Deadline
from gridproof.core.oracle import count_models
from gridproof.core.outcome import Outcome
from gridproof.core.rng import Rng
from gridproof.genres.norinori import build, generate
from gridproof.genres.norinori.codec import format_code, parse_code
from gridproof.genres.norinori.model import Norinori, validate
from gridproof.genres.norinori.position import board_of
from gridproof.genres.norinori.sat import count_sat, encode
from gridproof.genres.norinori.solve import NorinoriSpace, count
from gridproof.service import load

BOARDS_FILE = Path(tempfile.gettempdir()) / (
    f"gridproof-norinori-scaling-{generate.GENERATOR_VERSION.replace('/', '-')}.json"
)
"""Where built boards are kept between runs unless `--boards-file` says otherwise."""
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "janko-norinori.json"


def build_board(size: int, seed: int, seconds: float, moves: int | None = None) -> Norinori | None:
    """A unique size × size board built as the generator builds one (before steering),
    with `moves` walk moves per candidate instead of the generator's budget if given."""
    rng, tally, deadline = Rng(seed), Tally(), Deadline(seconds)
    while not deadline.expired():
        tally.attempts += 1
        built = build.build_candidate(
            size,
            size,
            rng.fork(f"candidate {tally.attempts}"),
            tally,
            deadline,
            generate.COUNT_WORK * size * size,
            moves or walk_moves(size),
        )
        if built is not None:
            return built[0]
    return None


BEYOND_CAP_MOVES = 40
"""Walk moves per side a candidate may make beyond the generator's size cap, where the
generator's own budget (2 per cell of the perimeter) is too small: at 100×100 the first
round's rivals alone exceed its 400 moves and every attempt ends ambiguous, where 4,000
build a board in about 20 s."""


def walk_moves(size: int) -> int:
    """The walk budget of a size × size candidate: the generator's up to its size cap."""
    if size <= generate.MAX_SIDE:
        return generate.WALK_MOVES * 2 * size
    return BEYOND_CAP_MOVES * size


def boards_for(
    sizes: list[int], per_size: int, path: Path, seconds: float, moves: int | None = None
) -> dict[int, list]:
    """The boards of each size, from `path` where it holds them, else built and saved."""
    kept: dict[str, list[list]] = json.loads(path.read_text()) if path.exists() else {}
    out: dict[int, list] = {}
    for size in sizes:
        rows = kept.setdefault(str(size), [])
        seed = max((s for s, _ in rows), default=0)
        while len(rows) < per_size:
            seed += 1
            cpu = time.process_time()
            puzzle = build_board(size, seed, seconds, moves)
            print(
                f"built {size}x{size} seed {seed}: {time.process_time() - cpu:.1f} s CPU"
                + ("" if puzzle else " (none in time)"),
                flush=True,
            )
            if puzzle is not None:
                rows.append([seed, format_code(puzzle)])
                path.write_text(json.dumps(kept))
        out[size] = [(seed, parse_code(code)) for seed, code in rows[:per_size]]
    return out


def timed_counts(puzzle: Norinori, repeat: int = 1) -> tuple[float, float, str, Outcome]:
    """Engine CPU s, oracle CPU s (each the least of `repeat` counts, the two in turn),
    what is wrong with their answers ("" if nothing), and the engine's outcome."""
    engine = oracle = math.inf
    for _ in range(repeat):
        cpu = time.process_time()
        mine = count(puzzle, 2)
        engine = min(engine, time.process_time() - cpu)
        cpu = time.process_time()
        theirs = count_sat(puzzle, 2)
        oracle = min(oracle, time.process_time() - cpu)
    wrong = ""
    if mine.verdict != theirs.verdict:
        wrong = f"engine {mine.verdict.value}, oracle {theirs.verdict.value}"
    elif set(mine.solutions) != set(theirs.solutions):
        wrong = "different solutions"
    elif any(validate(puzzle, s) for s in mine.solutions):
        wrong = "a solution fails the validator"
    return engine, oracle, wrong, mine


def oracle_parts(puzzle: Norinori, repeat: int = 1) -> tuple[float, float]:
    """The oracle's CPU s split in two, each the least of `repeat`: building the CNF in
    Python (`sat.encode`), and CaDiCaL's loading and solving it to 2 (`count_models`)."""
    building = solving = math.inf
    cells = range(puzzle.width * puzzle.height)
    for _ in range(repeat):
        cpu = time.process_time()
        clauses = encode(puzzle)
        building = min(building, time.process_time() - cpu)
        cpu = time.process_time()
        count_models(clauses, cells, 2)
        solving = min(solving, time.process_time() - cpu)
    return building, solving


def tail_line(
    size: int,
    seed: int,
    puzzle: Norinori,
    times: tuple[float, float],
    tree: Outcome,
    repeat: int = 1,
) -> str:
    """Where a board's count goes: its times, the search's nodes and closes, and how many
    of those closes the root's propagation spent and how many cells it left open (the
    rest of the closes are the search's); and the oracle's time split into building its
    CNF and CaDiCaL's solving (`oracle_parts`)."""
    board = board_of(puzzle)
    full = board.geo.full
    space = NorinoriSpace(board, Deadline.never())
    root = space.propagate((0, 0, full, full))
    left = 0 if root is None else (full & ~(root[0] | root[1])).bit_count()
    engine, oracle = times
    building, solving = oracle_parts(puzzle, repeat)
    return (
        f"  {size}x{size} seed {seed}: {engine * 1000:.1f} ms against {oracle * 1000:.1f} "
        f"({engine / max(oracle, 1e-9):.2f}), {tree.nodes} node{'s' * (tree.nodes != 1)}, "
        f"{tree.propagations} closes, "
        f"of which the root {space.propagations} ({left} of {size * size} cells left open); "
        f"oracle: CNF {building * 1000:.1f} ms, CaDiCaL {solving * 1000:.1f} ms"
    )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def exponent(cells: list[int], times: list[float]) -> float:
    """The slope of log time on log cells, least squares (time ~ cells ** slope)."""
    xs, ys = [math.log(c) for c in cells], [math.log(t) for t in times]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def row(label: str, engine: list[float], oracle: list[float]) -> str:
    e = (statistics.median(engine), percentile(engine, 0.95), max(engine))
    o = (statistics.median(oracle), percentile(oracle, 0.95), max(oracle))
    ms = " ".join(f"{v * 1000:9.1f}" for v in (*e, *o))
    ratios = " ".join(f"{a / b:6.2f}" for a, b in zip(e, o, strict=True))
    return f"{label:>9} {len(engine):3} {ms} {ratios}"


HEADER = (
    f"{'size':>9} {'n':>3} {'eng med':>9} {'eng p95':>9} {'eng max':>9} "
    f"{'sat med':>9} {'sat p95':>9} {'sat max':>9} {'r med':>6} {'r p95':>6} {'r max':>6}"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40, 60, 80, 100])
    parser.add_argument("--boards", type=int, default=5)
    parser.add_argument("--boards-file", type=Path, default=BOARDS_FILE)
    parser.add_argument("--build-seconds", type=float, default=1800.0)
    parser.add_argument("--corpus", action="store_true", help="add the janko boards' table")
    parser.add_argument(
        "--walk-moves",
        type=int,
        help="walk moves a candidate may make (default `walk_moves`: the generator's, 2 per "
        "cell of the perimeter, up to its size cap, 40 per side beyond it)",
    )
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="count each board this many times with each counter, in turn, and keep the "
        "least CPU time of each (default 3)",
    )
    parser.add_argument(
        "--slowest",
        type=int,
        default=3,
        help="after the table, where the count goes on this many of each size's slowest "
        "boards for the engine: nodes, closes, the root's share, the oracle's CNF and "
        "CaDiCaL times (default 3, 0 for none)",
    )
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    if args.slowest < 0:
        parser.error(f"--slowest must be 0 or more, got {args.slowest}")
    boards = boards_for(
        args.sizes, args.boards, args.boards_file, args.build_seconds, args.walk_moves
    )
    if args.build_only:
        return 0
    print("CPU ms; r = engine / oracle (below 1: the engine is ahead)")
    print(HEADER)
    cells, engine_medians, oracle_medians, problems, worsts = [], [], [], [], []
    tails: list[str] = []
    for size, made in boards.items():
        engine, oracle = [], []
        worst = (0.0, 0)
        counted = []
        for seed, puzzle in made:
            e, o, wrong, tree = timed_counts(puzzle, args.repeat)
            engine.append(e)
            oracle.append(o)
            counted.append((e, o, seed, puzzle, tree))
            worst = max(worst, (e / max(o, 1e-9), seed))
            if wrong:
                problems.append(f"{size}x{size} seed {seed}: {wrong}")
        print(row(f"{size}x{size}", engine, oracle), flush=True)
        worsts.append(f"{size}x{size} seed {worst[1]} {worst[0]:.2f}")
        cells.append(size * size)
        engine_medians.append(statistics.median(engine))
        oracle_medians.append(statistics.median(oracle))
        counted.sort(key=lambda c: (-c[0], c[2]))
        for e, o, seed, puzzle, tree in counted[: args.slowest]:
            tails.append(tail_line(size, seed, puzzle, (e, o), tree, args.repeat))
    if worsts:
        print("worst board's own ratio (engine / oracle): " + ", ".join(worsts))
    if len(cells) > 1:
        print(
            f"growth exponent (medians on cells): engine {exponent(cells, engine_medians):.2f}, "
            f"oracle {exponent(cells, oracle_medians):.2f}"
        )
    if tails:
        print("the slowest boards for the engine, where their counts go:")
        print("\n".join(tails))
    if args.corpus and CORPUS.exists():
        engine, oracle = [], []
        for puzzle in load(str(CORPUS)):
            e, o, wrong, _ = timed_counts(puzzle.puzzle, args.repeat)
            engine.append(e)
            oracle.append(o)
            if wrong:
                problems.append(f"janko {puzzle.id}: {wrong}")
        print(row("janko", engine, oracle))
    print("answers checked: " + ("; ".join(problems) if problems else "all agree"))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
