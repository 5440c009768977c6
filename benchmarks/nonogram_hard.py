"""Count the hard Nonogram set with the engine and with the SAT oracle, side by side.

    .venv/bin/python benchmarks/nonogram_hard.py [--deadline 30] [--sat-deadline 30]
        [--tier survey] [--max-cells 4000] [--only ID ...] [--no-sat]

Reads `../shared/corpus/hard-nonograms.json` (webpbn survey puzzles, Domino patterns, large
and random boards). For each puzzle: the engine's verdict under a per-puzzle deadline (count
to 2), whether it matches the label, and how it got there (line solving alone, probing at
the root, or search). Then, over the same puzzles, the SAT oracle (CaDiCaL 1.5.3, count to
2) in a worker process killed at its own deadline (the two counters run one after the other
over the set: see `side_by_side.count_all`). Prints decided / matches label / median / p95 /
max over the puzzles each decided and total wall and CPU time over all, the timeouts by
name, and the slowest puzzles. A benchmark, not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from side_by_side import Run, add_arguments, compare, only

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "hard-nonograms.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--tier", action="append", help="only these tiers (default: all)")
    parser.add_argument("--max-cells", type=int, default=None, help="skip larger boards")
    args = parser.parse_args()
    if not CORPUS.exists():
        print(f"{CORPUS} is absent; nothing to measure")
        return 0
    entries = json.loads(CORPUS.read_text(encoding="utf-8"))["puzzles"]
    entries = [
        e
        for e in only(entries, args)
        if (not args.tier or e.get("tier") in args.tier)
        and (args.max_cells is None or e["width"] * e["height"] <= args.max_cells)
    ]

    def describe(entry: dict[str, Any], ours: Run, theirs: Run) -> str:
        return (
            f"{entry['id']:44} {entry['width']:>3}x{entry['height']:<3} engine {ours.verdict:8} "
            f"{ours.wall:8.3f}s  sat {theirs.verdict:8} {theirs.wall:8.3f}s  "
            f"expected {entry.get('expected')}"
        )

    engine = compare(entries, args, f"{CORPUS.name}: {len(entries)} puzzles", describe)
    how: dict[str, int] = {}
    for run in engine:
        if run.decided:
            how[run.how] = how.get(run.how, 0) + 1
    print("how the engine decided: " + ", ".join(f"{k} {v}" for k, v in sorted(how.items())))
    print("(line = line solving alone, probe = probing at the root, search = branching)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
