"""Generate Nonograms per size and report boards per minute and the generator's health.

    .venv/bin/python benchmarks/generate_nonogram.py [--sizes 10 15 20 25 30] [--boards 20]
        [--difficulty medium] [--deadline 30]

For each size: `--boards` boards with seeds 0, 1, ... under a per-board deadline; prints
boards per minute, the median and slowest board, the difficulty mix, how many came from the
fallback bank or failed, and the summed health counts (attempts, ambiguous, contradiction,
timeout, off-grade). A benchmark, not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.genres.nonogram.generate import generate

HEALTH = ("attempts", "ambiguous", "contradiction", "timeout", "off_grade")


def bench_size(size: int, boards: int, difficulty: str | None, deadline: float) -> str:
    times: list[float] = []
    grades: Counter[str] = Counter()
    health: Counter[str] = Counter()
    fallback = failed = 0
    for seed in range(boards):
        start = time.perf_counter()
        try:
            made = generate(Request(size, size, difficulty), seed, Deadline(deadline))
            record = made.health.as_dict()
            grades[made.difficulty] += 1
            fallback += made.health.fallback is not None
        except GenerationError as error:
            record = error.health
            failed += 1
        times.append(time.perf_counter() - start)
        for key in HEALTH:
            health[key] += int(record.get(key) or 0)
    per_minute = 60 * boards / sum(times)
    mix = " ".join(f"{k} {v}" for k, v in sorted(grades.items()))
    counts = " / ".join(str(health[k]) for k in HEALTH)
    return (
        f"| {size}x{size} | {boards} | {per_minute:.1f} | {statistics.median(times):.3f} | "
        f"{max(times):.3f} | {mix} | {fallback} | {failed} | {counts} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 15, 20, 25, 30])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--difficulty", default=None)
    parser.add_argument("--deadline", type=float, default=30.0)
    args = parser.parse_args()
    print(
        f"## nonogram generation, difficulty {args.difficulty or 'any'}, "
        f"deadline {args.deadline}s per board\n"
    )
    print(
        "| size | boards | boards/min | median s | max s | difficulty mix | fallback | "
        "failed | attempts / ambiguous / contradiction / timeout / off-grade |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        print(bench_size(size, args.boards, args.difficulty, args.deadline), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
