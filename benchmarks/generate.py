"""Generation per genre, size and grade: boards per minute, seconds per board and health.

    .venv/bin/python benchmarks/generate.py [--genre norinori ...] [--sizes 6,10,15,20,30]
                                            [--boards 8] [--deadline 180]

For every genre, size and grade the genre offers at that size (and for no grade asked),
`--boards` boards are generated from seeds 1, 2, ... under a per-board deadline. Every
board returned was proven unique by the complete counter. Times are CPU seconds of this
process (the machine may be shared); boards per minute are per CPU minute. Columns:
attempts, ambiguous, contradiction, timeout and off-grade are the generators' health
counts summed over the boards; `fallback` counts boards from a verified fallback bank;
`failed` boards not proven within the deadline; `grades` the grades that came out (for
"any": the share of each grade when none is asked). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from typing import Any

from gridproof.core.contract import Genre, Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.registry import genres

DEFAULT_SIZES = "6,10,15,20,30"
HEALTH = ("attempts", "ambiguous", "contradiction", "timeout", "off_grade")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def row(genre: Genre[Any], size: int, grade: str | None, boards: int, deadline_s: float) -> str:
    """One table row: `boards` boards of `grade` (None: any) at size × size."""
    times: list[float] = []
    totals = dict.fromkeys(HEALTH, 0)
    grades: Counter[str] = Counter()
    failed = fallback = 0
    for seed in range(1, boards + 1):
        start = time.process_time()
        try:
            made = genre.generate(Request(size, size, grade), seed, Deadline(deadline_s))
            health: dict[str, Any] = made.health.as_dict()
            grades[made.difficulty] += 1
            fallback += made.health.fallback is not None
        except GenerationError as error:
            health, failed = dict(error.health), failed + 1
        times.append(time.process_time() - start)
        for key in totals:
            totals[key] += int(health.get(key, 0))
    made_n = boards - failed
    per_minute = 60 * made_n / sum(times) if sum(times) else 0.0
    mix = ", ".join(
        f"{name} {100 * grades[name] / made_n:.0f}%" if grade is None else f"{name} {grades[name]}"
        for name in genre.difficulties
        if grades[name]
    )
    return (
        f"| {size}×{size} | {grade or 'any'} | {made_n} | {per_minute:.1f} | "
        f"{statistics.median(times):.2f} | {percentile(times, 0.95):.2f} | {max(times):.2f} | "
        + " | ".join(str(totals[key]) for key in HEALTH)
        + f" | {fallback} | {failed} | {mix} |"
    )


def bench(genre: Genre[Any], sizes: list[int], boards: int, deadline_s: float) -> None:
    print(
        f"## {genre.title} ({genre.generator}): {boards} boards per row, "
        f"{deadline_s:.0f} s deadline each\n"
    )
    print(
        "| size | grade | boards | per CPU minute | median s | p95 s | max s | attempts "
        "| ambiguous | contradiction | timeout | off grade | fallback | failed | grades |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    (min_w, min_h), (max_w, max_h) = genre.sizes
    for size in sizes:
        if not (min_w <= size <= max_w and min_h <= size <= max_h):
            print(f"| {size}×{size} | - | outside the generator's sizes |" + " |" * 12)
            continue
        for grade in (None, *genre.offered(size, size)):
            print(row(genre, size, grade, boards, deadline_s), flush=True)
        lacking = [g for g in genre.difficulties if g not in genre.offered(size, size)]
        if lacking:
            print(f"| {size}×{size} | {', '.join(lacking)}: not offered |" + " |" * 13)
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--genre", action="append", choices=sorted(genres()))
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="comma-separated board sides")
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--deadline", type=float, default=180.0)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for name in args.genre or sorted(genres()):
        bench(genres()[name], sizes, args.boards, args.deadline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
