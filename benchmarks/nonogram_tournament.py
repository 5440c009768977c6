"""Count tournament-style random 25×25 Nonograms with the engine and the SAT oracle, side
by side.

    .venv/bin/python benchmarks/nonogram_tournament.py [--deadline 30] [--sat-deadline 30]
        [--only ID ...] [--no-sat] [--native]
    .venv/bin/python benchmarks/nonogram_tournament.py --generate 1000 --seed 1 [--no-sat]
        [--ratio 0.5] [--with-pure]

Without `--generate` it reads `../shared/corpus/tournament-25.json` (40 boards, most with
several solutions, so counting to 2 must find a second one). With `--generate N --seed S`
it makes N boards the way the computer-Nonogram tournaments (TAAI/TCGA) make their sets:
random 25×25 pixels, each black with a probability falling linearly from 0.50 on the first
board to 0.35 on the last (`--ratio R`: R for every board), drawn from `core.rng.Rng(S)`;
and prints the boards decided and
the total time beside the tournament winners' (about 650 s for 1,000 boards, C/C++, one
solution each rather than a count to 2).

Per board: the engine's verdict and time under the deadline (count to 2); then, once the
engine has counted the whole set, the SAT oracle's (CaDiCaL 1.5.3, count to 2, in a worker
process killed at its deadline; see `side_by_side.count_all`). Then
decided / matches label / median / p95 / max over the decided boards and total wall and
CPU time over all, the timeouts by name, and whether the two counters agree wherever both
decided. `--with-pure` adds the engine without its SAT stretch (`count --no-sat`, what a
browser build runs) as a third row, and each engine's CPU against the oracle's as ratios
(per board: median, p95, max; and the totals). A benchmark, not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from gridproof.core.rng import Rng
from gridproof.genres.nonogram.codec import to_json
from gridproof.genres.nonogram.model import clues_of
from side_by_side import Run, add_arguments, compare, only

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "tournament-25.json"
SIDE = 25
WINNERS_S = 650.0
"""The tournament winners' time for a 1,000-board set (LalaFrogKK, Requiem)."""


def generated(count: int, seed: int, fixed: float | None = None) -> list[dict[str, Any]]:
    """`count` random 25×25 boards, black ratio 0.50 down to 0.35 (or `fixed` for all), as
    corpus entries."""
    rng = Rng(seed)
    entries = []
    for index in range(count):
        ratio = fixed if fixed is not None else 0.50 - 0.15 * index / max(1, count - 1)
        shaded = sum(1 << cell for cell in range(SIDE * SIDE) if rng.random() < ratio)
        entry = to_json(clues_of(SIDE, SIDE, shaded))
        entry["id"] = f"generated-{seed}-{index:04d}"
        entry["ratio"] = round(ratio, 3)
        entries.append(entry)
    return entries


def ratio_of(entry: dict[str, Any]) -> str:
    """The black ratio a board was drawn with, from `ratio` or its corpus `origin`."""
    if "ratio" in entry:
        return f"{entry['ratio']:.3f}"
    words = str(entry.get("origin", "")).replace(",", " ").split()
    return next((b for a, b in itertools.pairwise(words) if a == "ratio"), "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--generate", type=int, metavar="N", help="N generated boards instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ratio", type=float, help="every generated board at this black ratio (e.g. 0.5)"
    )
    args = parser.parse_args()
    if args.generate:
        entries = generated(args.generate, args.seed, args.ratio)
        title = f"generated tournament-style, seed {args.seed}"
        if args.ratio is not None:
            title += f", black ratio {args.ratio}"
    elif CORPUS.exists():
        entries = json.loads(CORPUS.read_text(encoding="utf-8"))["puzzles"]
        title = CORPUS.name
    else:
        print(f"{CORPUS} is absent; nothing to measure")
        return 0
    entries = only(entries, args)

    def describe(entry: dict[str, Any], ours: Run, theirs: Run) -> str:
        return (
            f"{entry['id']:24} {ratio_of(entry):5} engine {ours.verdict:8} {ours.wall:8.3f}s "
            f"{ours.nodes:7} nodes  sat {theirs.verdict:8} {theirs.wall:8.3f}s  "
            f"expected {entry.get('expected')}"
        )

    engine = compare(entries, args, f"{title}: {len(entries)} boards", describe)
    if args.generate:
        decided = sum(run.decided for run in engine)
        total = sum(run.wall for run in engine)
        print(
            f"\nengine: {decided}/{len(engine)} boards decided in {total:.0f} s "
            f"(count to 2); tournament winners: about {WINNERS_S:.0f} s per 1,000 boards "
            "(C/C++, one solution each)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
