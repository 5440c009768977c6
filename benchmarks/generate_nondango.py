"""Generate Nondango boards per size and rule; report boards per minute, health, and the
cost of proving each board with the engine beside the SAT oracle.

    .venv/bin/python benchmarks/generate_nondango.py [--sizes 6 8 12 16 20 24] [--boards 20]
        [--rule no-three-same --rule no-three-black] [--white N] [--difficulty easy]
        [--deadline 60]

For each size and rule: `--boards` boards with seeds 0, 1, ... under a per-board deadline;
prints boards per minute, the median and slowest board, the difficulty mix, the mean number
of white circles, failures, the summed health counts (attempts, ambiguous, contradiction,
timeout, off-grade) and offers (made, kept, turned down unasked for want of a
certificate). A second table counts every generated board to 2 again with the engine and
with the SAT oracle (CaDiCaL 1.5.3 through python-sat) in the same process, each
building its own tables or clauses from scratch. A benchmark,
not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from typing import Any

from gridproof.core.contract import Generated, Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.genres.nondango import solve
from gridproof.genres.nondango.generate import generate
from gridproof.genres.nondango.position import board_of
from gridproof.genres.nondango.sat import count_sat

HEALTH = ("attempts", "ambiguous", "contradiction", "timeout", "off_grade")
OFFERS = ("offers", "kept", "uncertified")


def bench(size: int, rule: str, args: argparse.Namespace) -> tuple[str, list[Generated]]:
    times: list[float] = []
    grades: Counter[str] = Counter()
    health: Counter[str] = Counter()
    offers: Counter[str] = Counter()
    made_boards: list[Generated] = []
    options: dict[str, Any] = {"rule": rule}
    if args.white is not None:
        options["white"] = args.white
    for seed in range(args.boards):
        request = Request(size, size, args.difficulty, options)
        start = time.perf_counter()
        try:
            made = generate(request, seed, Deadline(args.deadline))
            record: dict[str, Any] = {**made.health.as_dict(), **made.metrics}
            grades[made.difficulty] += 1
            made_boards.append(made)
        except GenerationError as error:
            record = error.health
        times.append(time.perf_counter() - start)
        for key in (*HEALTH, *OFFERS):
            (offers if key in OFFERS else health)[key] += int(record.get(key) or 0)
    whites = [int(m.metrics["white"]) for m in made_boards]
    row = (
        f"| {size}x{size} | {rule} | {args.boards} | {60 * args.boards / sum(times):.1f} | "
        f"{statistics.median(times):.3f} | {max(times):.3f} | "
        f"{' '.join(f'{k} {v}' for k, v in sorted(grades.items()))} | "
        f"{statistics.fmean(whites) if whites else 0:.1f} | {args.boards - len(made_boards)} | "
        f"{' / '.join(str(health[k]) for k in HEALTH)} | "
        f"{' / '.join(str(offers[k]) for k in OFFERS)} |"
    )
    return row, made_boards


def proof_row(size: int, rule: str, boards: list[Generated]) -> str:
    engine, oracle = [], []
    for made in boards:
        board_of.cache_clear()  # generation counted this board: build its tables again
        start = time.perf_counter()
        outcome = solve.count(made.puzzle, 2, Deadline(60))
        engine.append(time.perf_counter() - start)
        start = time.perf_counter()
        check = count_sat(made.puzzle, 2)
        oracle.append(time.perf_counter() - start)
        assert outcome.solutions == check.solutions == (made.solution,)
    if not boards:
        return f"| {size}x{size} | {rule} | 0 | | | | |"
    e, s = statistics.median(engine), statistics.median(oracle)
    return (
        f"| {size}x{size} | {rule} | {len(boards)} | {e * 1000:.2f} | {max(engine) * 1000:.2f} "
        f"| {s * 1000:.2f} | {max(oracle) * 1000:.2f} | {s / e:.2f}x |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 12, 16, 20, 24])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--rule", action="append", choices=["no-three-same", "no-three-black"])
    parser.add_argument("--white", type=int, default=None)
    parser.add_argument("--difficulty", default=None)
    parser.add_argument("--deadline", type=float, default=60.0)
    args = parser.parse_args()
    rules = args.rule or ["no-three-same", "no-three-black"]
    print(
        f"## nondango generation, difficulty {args.difficulty or 'any'}, white "
        f"{args.white if args.white is not None else 'as many as fit'}, "
        f"deadline {args.deadline}s per board\n"
    )
    print(
        "| size | rule | boards | boards/min | median s | max s | difficulty mix | white | "
        "failed | attempts / ambiguous / contradiction / timeout / off-grade | "
        "offers / kept / uncertified |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    proofs = []
    for size in args.sizes:
        for rule in rules:
            row, boards = bench(size, rule, args)
            print(row, flush=True)
            proofs.append(proof_row(size, rule, boards))
    print("\n## proving the generated boards again: engine and SAT oracle, count to 2\n")
    print(
        "| size | rule | boards | engine median ms | engine max ms | SAT median ms | SAT max ms "
        "| SAT / engine |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(proofs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
