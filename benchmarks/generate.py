"""Generation throughput per genre and size: boards per minute and the health counts.

    .venv/bin/python benchmarks/generate.py [--genre norinori] [--sizes 6,8,10,12,15,20]
                                            [--boards 10] [--deadline 120]
                                            [--difficulty easy|medium|hard]

Each board is generated from its own seed (1, 2, ...) under a per-board deadline; every
board returned was proven unique by the complete counter. With `--difficulty`, only boards
of that grade count, and `off grade` says how many proven boards came out otherwise.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.registry import genres

DEFAULT_SIZES = {"norinori": "6,8,10,12,15,20"}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench(
    name: str, sizes: list[int], boards: int, deadline_s: float, difficulty: str | None
) -> None:
    genre = genres()[name]
    asked = f", difficulty {difficulty}" if difficulty else ""
    print(f"## {genre.title}: {boards} boards per size, {deadline_s:.0f} s deadline each{asked}\n")
    print(
        "| size | boards | per minute | median s | p95 s | max s | attempts | ambiguous "
        "| contradiction | timeout | off grade | failed | difficulties |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        times: list[float] = []
        totals = dict.fromkeys(
            ("attempts", "ambiguous", "contradiction", "timeout", "off_grade"), 0
        )
        grades: dict[str, int] = {}
        failed = 0
        for seed in range(1, boards + 1):
            start = time.perf_counter()
            try:
                request = Request(size, size, difficulty)
                made = genre.generate(request, seed, Deadline(deadline_s))
                health = made.health.as_dict()
                grades[made.difficulty] = grades.get(made.difficulty, 0) + 1
            except GenerationError as error:
                health, failed = error.health, failed + 1
            times.append(time.perf_counter() - start)
            for key in totals:
                totals[key] += int(health.get(key, 0))
        per_minute = 60 * (boards - failed) / sum(times)
        mix = ", ".join(f"{k} {v}" for k, v in sorted(grades.items()))
        print(
            f"| {size}×{size} | {boards - failed} | {per_minute:.1f} | "
            f"{statistics.median(times):.2f} | {percentile(times, 0.95):.2f} | {max(times):.2f} | "
            f"{totals['attempts']} | {totals['ambiguous']} | {totals['contradiction']} | "
            f"{totals['timeout']} | {totals['off_grade']} | {failed} | {mix} |",
            flush=True,
        )
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--genre", action="append", choices=sorted(genres()))
    parser.add_argument("--sizes", help="comma-separated board sides")
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--deadline", type=float, default=120.0)
    parser.add_argument("--difficulty", help="ask every board for this grade")
    args = parser.parse_args()
    for name in args.genre or sorted(DEFAULT_SIZES):
        sizes = args.sizes or DEFAULT_SIZES.get(name, "6,8,10")
        bench(name, [int(s) for s in sizes.split(",")], args.boards, args.deadline, args.difficulty)
    return 0


if __name__ == "__main__":
    sys.exit(main())
