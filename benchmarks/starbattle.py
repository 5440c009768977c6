"""Star Battle: the engine's counter against the SAT oracle on the janko corpus, and the
generator's time per size, star count and grade.

    .venv/bin/python benchmarks/starbattle.py [--deadline 10] [--seeds 3] [--no-generate]

Counts every board of ../shared/corpus/janko-starbattle.json to 2 with the engine (tables
built from scratch each time) and with the SAT oracle (CaDiCaL 1.5.3 through python-sat,
its clauses built each time), CPU time per board (time.process_time); prints agreement with
the labels and median / p95 / max per star count and overall. Then generates `--seeds`
boards per size and grade and prints the median and slowest CPU seconds. A benchmark, not a
test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.genres.starbattle import codec, generate, solve
from gridproof.genres.starbattle.position import board_of
from gridproof.genres.starbattle.sat import count_sat

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"


def _stats(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{statistics.median(ordered) * 1000:8.1f} {p95 * 1000:8.1f} {ordered[-1] * 1000:8.1f}"


def corpus(deadline: float) -> None:
    puzzles = json.loads((CORPUS / "janko-starbattle.json").read_text())["puzzles"]
    engine: dict[str, list[float]] = defaultdict(list)
    sat: dict[str, list[float]] = defaultdict(list)
    right = timeouts = wrong = 0
    for entry in puzzles:
        puzzle = codec.from_json(entry)
        group = f"{entry['stars']} star"
        board_of.cache_clear()
        start = time.process_time()
        outcome = solve.count(puzzle, 2, Deadline.never().within(deadline))
        spent = time.process_time() - start
        start = time.process_time()
        oracle = count_sat(puzzle, 2)
        sat_spent = time.process_time() - start
        for key in (group, "all"):
            engine[key].append(spent)
            sat[key].append(sat_spent)
        if outcome.verdict == "timeout":
            timeouts += 1
        elif outcome.verdict == entry["expected"] == oracle.verdict:
            right += 1
        else:
            wrong += 1
    print(f"janko Star Battle: {right} right, {timeouts} timeouts ({deadline} s), {wrong} wrong")
    print(
        f"{'':8} {'engine ms: median':>17} {'p95':>8} {'max':>8} | {'SAT ms: median':>14} p95 max"
    )
    for key in sorted(engine):
        print(f"{key:8} {len(engine[key]):4} {_stats(engine[key])} | {_stats(sat[key])}")


def generation(seeds: int) -> None:
    print("generation, CPU s per board (median / max), seeds 1..N")
    for side in (5, 6, 8, 10, 12, 15):
        for grade in generate.grades_at(side, side):
            times, failed = [], 0
            for seed in range(1, seeds + 1):
                start = time.process_time()
                try:
                    generate.generate(Request(side, side, grade), seed, Deadline.never().within(60))
                except GenerationError:
                    failed += 1
                times.append(time.process_time() - start)
            stars = generate.stars_for(side, {})
            print(
                f"{side:2}x{side:<2} {stars} star {grade:7} {statistics.median(times):6.2f} "
                f"{max(times):6.2f}  failed {failed}/{seeds}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deadline", type=float, default=10.0)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--no-generate", action="store_true")
    args = parser.parse_args()
    corpus(args.deadline)
    if not args.no_generate:
        generation(args.seeds)


if __name__ == "__main__":
    main()
