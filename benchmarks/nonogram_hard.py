"""Count the hard Nonogram set with the engine and with the SAT oracle, side by side.

    .venv/bin/python benchmarks/nonogram_hard.py [--deadline 30] [--sat-deadline 30]
        [--tier survey] [--max-cells 4000]

Reads `../shared/corpus/hard-nonograms.json` (webpbn survey puzzles, Domino patterns, large
and random boards). For each puzzle: the engine's verdict under a per-puzzle deadline (count
to 2), whether it matches the label, and how it got there (line solving alone, probing at
the root, or search); then the SAT oracle (CaDiCaL 1.5.3, count to 2) in a worker process
killed at its own deadline. Prints median / p95 / max over the puzzles each decided, the
decided counts, and the slowest puzzles. A benchmark, not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome
from gridproof.core.search import count_solutions
from gridproof.genres.nonogram.codec import from_json
from gridproof.genres.nonogram.engine import Board, Grid
from gridproof.genres.nonogram.model import Nonogram
from gridproof.genres.nonogram.solve import NonogramSpace

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "hard-nonograms.json"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _sat_worker(entry: dict[str, Any], out: Any) -> None:
    from gridproof.genres.nonogram.sat import count_sat

    start = time.perf_counter()
    verdict = count_sat(from_json(entry), 2).verdict.value
    out.put((verdict, time.perf_counter() - start))


def sat_count(entry: dict[str, Any], seconds: float) -> tuple[str, float]:
    """The SAT oracle's verdict and time, or ('timeout', seconds) past the deadline."""
    queue: Any = multiprocessing.Queue()
    worker = multiprocessing.Process(target=_sat_worker, args=(entry, queue))
    start = time.perf_counter()
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        worker.kill()
        worker.join()
        return "timeout", time.perf_counter() - start
    result: tuple[str, float] = queue.get()
    return result


def engine_count(puzzle: Nonogram, seconds: float) -> tuple[Outcome, str]:
    """Count to 2 with the engine; and how it decided (line, probe or search)."""
    deadline = Deadline(seconds)
    board = Board(puzzle)
    space = NonogramSpace(board, deadline)
    outcome = count_solutions(space, Grid.blank(board), 2, deadline)
    if outcome.nodes > 1:
        return outcome, "search"
    probed = space.prober.refuted + space.prober.learned
    return outcome, "probe" if probed else "line"


def row(name: str, times: list[float], decided: int, right: int, total: int) -> str:
    if not times:
        return f"| {name} | {decided}/{total} | {right} | - | - | - |"
    med, p95, top = statistics.median(times), percentile(times, 0.95), max(times)
    return f"| {name} | {decided}/{total} | {right} | {med:.4f} | {p95:.4f} | {top:.4f} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deadline", type=float, default=30.0)
    parser.add_argument("--sat-deadline", type=float, default=30.0)
    parser.add_argument("--tier", action="append", help="only these tiers (default: all)")
    parser.add_argument("--max-cells", type=int, default=None, help="skip larger boards")
    parser.add_argument("--no-sat", action="store_true")
    args = parser.parse_args()
    if not CORPUS.exists():
        print(f"{CORPUS} is absent; nothing to measure")
        return 0
    entries = json.loads(CORPUS.read_text(encoding="utf-8"))["puzzles"]
    entries = [
        e
        for e in entries
        if (not args.tier or e.get("tier") in args.tier)
        and (args.max_cells is None or e["width"] * e["height"] <= args.max_cells)
    ]
    engine_t: list[float] = []
    sat_t: list[float] = []
    decided = right = sat_decided = sat_right = 0
    how: dict[str, int] = {}
    lines = []
    for entry in entries:
        puzzle = from_json(entry)
        start = time.perf_counter()
        outcome, technique = engine_count(puzzle, args.deadline)
        seconds = time.perf_counter() - start
        verdict = outcome.verdict.value
        expected = entry.get("expected")
        if verdict != "timeout":
            decided += 1
            engine_t.append(seconds)
            how[technique] = how.get(technique, 0) + 1
        right += verdict == expected
        sat_v, sat_s = ("-", 0.0) if args.no_sat else sat_count(entry, args.sat_deadline)
        if sat_v not in ("timeout", "-"):
            sat_decided += 1
            sat_t.append(sat_s)
        sat_right += sat_v == expected
        lines.append(
            (seconds, entry["id"], entry["width"], entry["height"], verdict, expected, sat_v, sat_s)
        )
        print(
            f"{entry['id']:44} {entry['width']:>3}x{entry['height']:<3} engine {verdict:8} "
            f"{seconds:8.3f}s  sat {sat_v:8} {sat_s:8.3f}s  expected {expected}",
            flush=True,
        )
    total = len(entries)
    print(
        f"\n## hard-nonograms.json: {total} puzzles, engine deadline {args.deadline}s, "
        f"SAT deadline {args.sat_deadline}s\n"
    )
    print("| counter | decided | matches label | median s | p95 s | max s |")
    print("|---|---|---|---|---|---|")
    print(row("gridproof engine", engine_t, decided, right, total))
    if not args.no_sat:
        print(row("SAT oracle", sat_t, sat_decided, sat_right, total))
    print("\nhow the engine decided: " + ", ".join(f"{k} {v}" for k, v in sorted(how.items())))
    print("(line = line solving alone, probe = probing at the root, search = branching)")
    wrong = [(i, v, e) for _, i, _, _, v, e, _, _ in lines if v != "timeout" and e and v != e]
    print(f"decided against the label: {wrong or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
