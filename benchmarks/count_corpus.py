"""Count every corpus puzzle with the engine and with the SAT oracle, side by side.

    .venv/bin/python benchmarks/count_corpus.py [--genre norinori] [--deadline 60]

Prints, per genre: puzzles, outcomes that match the corpus label, median / p95 / max
milliseconds (wall, then CPU: the machine may be shared) for the engine (count to 2 under the
deadline) and for the SAT oracle (encode and enumerate to 2, CaDiCaL 1.5.3 through
python-sat) run in the same process, and their ratios; then how many boards each rung of
the ladder completes alone. A benchmark, not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.service import load

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
FILES = {
    "norinori": "janko-norinori.json",
    "nonogram": "janko-nonogram.json",
    "nondango": "janko-nondango.json",
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def summary(times: list[float]) -> tuple[float, float, float]:
    return statistics.median(times), percentile(times, 0.95), max(times)


def timed(run: Callable[..., Any], *args: Any) -> tuple[Any, float, float]:
    """The result, wall seconds and CPU seconds of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    result = run(*args)
    return result, time.perf_counter() - start, time.process_time() - cpu


def bench_genre(name: str, deadline_s: float) -> None:
    path = CORPUS / FILES[name]
    if not path.exists():
        print(f"{name}: {path} is absent; nothing to measure")
        return
    oracle = importlib.import_module(f"gridproof.genres.{name}.sat")
    puzzles = load(str(path))
    yardstick = [oracle.YARDSTICK] if hasattr(oracle, "YARDSTICK") else []
    engine_t, sat_t, engine_cpu, sat_cpu, right, sat_right, search = [], [], [], [], 0, 0, 0
    slowest: list[tuple[float, str, str]] = []
    # The engine counts the whole set, then the oracle does: an oracle run between two
    # engine boards leaves the next one its garbage and cold caches (janko Nonogram, same
    # code, same hour: max 318 and 322 ms interleaved, 275 ms engine first).
    outcomes = []
    for item in puzzles:
        outcome, seconds, cpu = timed(item.genre.count, item.puzzle, 2, Deadline(deadline_s))
        outcomes.append(outcome)
        engine_t.append(seconds)
        engine_cpu.append(cpu)
    verdicts = []
    for item in puzzles:
        # the yardstick where a genre's tests use another solver (Nonogram: CaDiCaL)
        verdict, sat_s, sat_c = timed(oracle.count_sat, item.puzzle, 2, *yardstick)
        verdicts.append(verdict)
        sat_t.append(sat_s)
        sat_cpu.append(sat_c)
    for item, outcome, verdict, seconds in zip(puzzles, outcomes, verdicts, engine_t, strict=True):
        # a unique board's solution must be the recorded one, where one is recorded
        right += outcome.verdict.value == item.expected and (
            item.expected != "unique"
            or item.solution is None
            or outcome.solutions == (item.solution,)
        )
        sat_right += verdict.verdict.value == item.expected
        search += outcome.nodes > 1
        slowest.append((seconds, item.id, outcome.verdict.value))
    e, s = summary(engine_t) + summary(engine_cpu), summary(sat_t) + summary(sat_cpu)
    print(f"## {name}: {len(puzzles)} puzzles from {path.name}\n")
    print(
        "| counter | correct | median ms | p95 ms | max ms "
        "| CPU median ms | CPU p95 ms | CPU max ms |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for counter, correct, row in (
        ("gridproof engine", right, e),
        ("SAT oracle", sat_right, s),
    ):
        print(
            f"| {counter} | {correct}/{len(puzzles)} | "
            + " | ".join(f"{v * 1000:.2f}" for v in row)
            + " |"
        )
    print(
        "| SAT / engine | | "
        + " | ".join(f"{b / a:.2f}x" for a, b in zip(e, s, strict=True))
        + " |"
    )
    print(f"\nboards that needed search (more than one node): {search}")
    print(
        "slowest for the engine: "
        + ", ".join(f"{i} {t:.3f}s ({v})" for t, i, v in sorted(slowest)[-3:])
    )
    rungs = puzzles[0].genre.rungs
    print("\n| rung | completes alone | median s |\n|---|---|---|")
    for rung in rungs:
        done, times = 0, []
        for item in puzzles:
            progress, seconds, _ = timed(item.genre.solve, item.puzzle, rung, Deadline(deadline_s))
            times.append(seconds)
            done += progress.decided_fraction == 1.0 and progress.contradiction is None
        print(f"| {rung} | {done}/{len(puzzles)} | {statistics.median(times):.4f} |")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--genre", choices=sorted(FILES), action="append")
    parser.add_argument("--deadline", type=float, default=60.0)
    args = parser.parse_args()
    for name in args.genre or sorted(FILES):
        bench_genre(name, args.deadline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
