"""Hint CPU on the largest boards the player offers (#28: every hint within 100 ms at 30×30).

    .venv/bin/python benchmarks/hints.py [--seeds 3] [--points 12] [--size 30] [--hardest]

For each genre: `--seeds` boards generated at `--size` (or the largest size below it that
the generator makes within a minute; with `--hardest`, of the hardest grade it offers
there), each solved by its ladder from the empty grid; at `--points` places spread over
that solve, a hint (`gridproof.hint`) from the marks decided so far, with the last 8
decided cells as `recent` (as the player sends them). Prints CPU per hint (median, p95,
max), how many were within 100 ms (a count: a share rounded to 100% once hid a miss), and
how many hints came from a rung above the first (where the costlier rules, and the
explanations of their steps, run). The board's count, which the player's server and the
library do once a board and remember (the bank's boards not even once), is timed on its
own before the hints (`count ms`, the median over the boards).
Generation and the solve are not timed. A benchmark, not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gridproof as gp
from gridproof.core import registry
from gridproof.core.grid import bits

TARGET_MS = 100.0


def marks_at(width: int, height: int, shaded: int, empty: int) -> list[str]:
    """The player's rows for the given decided cells."""
    rows = []
    for r in range(height):
        row = ""
        for c in range(width):
            cell = r * width + c
            row += "#" if shaded >> cell & 1 else "+" if empty >> cell & 1 else "."
        rows.append(row)
    return rows


def hint_times(
    genre: str, size: int, seed: int, points: int, grade: str | None
) -> tuple[float, list[tuple[float, str | None]]]:
    """CPU seconds of the count of one generated board, and of `points` hints spread over
    the ladder's solve of it, each with the rung of its rule (None: not a deduction)."""
    ladder = registry.genre(genre).ladder
    board = gp.generate(genre, size=(size, size), seed=seed, difficulty=grade, deadline=60)
    loaded = gp.load(board.code)
    solved = gp.solve(loaded, deadline=600)
    started = time.process_time()
    gp.check(loaded, ["." * size] * size, deadline=600)  # counts it; hints then know it
    counting = time.process_time() - started
    order: list[tuple[int, bool]] = []  # each decided cell, shaded or not, in solve order
    for step in solved.steps:
        order += [(cell, True) for cell in bits(step.shaded)]
        order += [(cell, False) for cell in bits(step.empty)]
    times = []
    for k in range(points):
        upto = len(order) * k // points
        shaded = empty = 0
        for cell, is_shaded in order[:upto]:
            if is_shaded:
                shaded |= 1 << cell
            else:
                empty |= 1 << cell
        recent = [cell for cell, _ in reversed(order[max(0, upto - 8) : upto])]
        rows = marks_at(size, size, shaded, empty)
        started = time.process_time()
        given = gp.hint(loaded, rows, recent=recent, deadline=30)
        spent = time.process_time() - started
        rule = given.rule if given.rule in {each.id for each in ladder.rules} else None
        times.append((spent, None if rule is None else ladder.rung_of(rule)))
    return counting, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--points", type=int, default=12)
    parser.add_argument("--size", type=int, default=30)
    parser.add_argument(
        "--hardest", action="store_true", help="boards of the hardest grade offered at the size"
    )
    parser.add_argument(
        "--genre", action="append", choices=registry.names(), help="only this genre (repeatable)"
    )
    args = parser.parse_args()
    print(
        "| genre | size | grade | hints | median ms | p95 ms | max ms | within 100 ms "
        "| above the first rung | count ms |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.genre or registry.names():
        genre = registry.genre(name)
        (low, _), (high, _) = genre.sizes  # the smallest and largest sizes it offers
        side = min(args.size, high)
        while True:
            grade = str(genre.offered(side, side)[-1]) if args.hardest else None
            try:
                runs = [
                    hint_times(genre.name, side, seed, args.points, grade)
                    for seed in range(1, args.seeds + 1)
                ]
                break
            except gp.GenerationError:
                if side == low:
                    raise
                side -= 1  # the largest size at most --size the generator makes
        timed = [t for _, times in runs for t in times]
        counting = statistics.median(c for c, _ in runs) * 1000
        ms = sorted(t * 1000 for t, _ in timed)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        within = sum(t <= TARGET_MS for t in ms)  # a count: a rounded share hid one miss
        above = sum(rung not in (None, genre.rungs[0]) for _, rung in timed)
        print(
            f"| {genre.name} | {side}×{side} | {grade or 'any'} | {len(ms)} | "
            f"{statistics.median(ms):.1f} | {p95:.1f} | {ms[-1]:.1f} | {within}/{len(ms)} "
            f"| {above} | {counting:.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
