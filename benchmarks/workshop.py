"""The workshop while a setter edits: how long a verdict takes, and what "Make unique" does.

    .venv/bin/python benchmarks/workshop.py [--genre norinori ...] [--sizes 10,20]
                                            [--boards 4] [--edits 12] [--deadline 10]
    .venv/bin/python benchmarks/workshop.py --walk [--genre ...] [--sizes 5,7,10,15,30]
                                            [--boards 4] [--deadline 10]

An editing session starts from a generated unique board (seeds 1, 2, ...) and applies
`--edits` of the genre's own single edits one after another (the first edit the genre
lists for the board as it is, each at a cell further on), asking for the live verdict
(`workshop.examine`: the count to two plus its explanation) after every edit, as the
Edit mode does. Each verdict's time is set beside the SAT oracle's count of the same board
in the same run. Then each ambiguous board met on the way is given to "Make unique": how
many edits it applied and how long it took. Times are CPU milliseconds of this process
(the machine may be shared). A benchmark, not a test: it asserts nothing.

With `--walk`, "Make unique" alone on ambiguous boards the generators' machinery makes
before any uniqueness steering (`tests/ambiguous.py`), the intended solution pinned:
how many end unique within `--deadline` seconds, the edits they needed (median and max),
the boards the walk stood on, the Nonogram picture's drift, and CPU seconds (median,
p95, max).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridproof import service
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.registry import genres
from gridproof.service import Loaded, workshop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the ambiguous boards are made in tests/ambiguous.py

from tests.ambiguous import ambiguous  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def oracle(genre: Genre[Any]) -> Callable[[Any, int], Outcome]:
    sat = importlib.import_module(f"gridproof.genres.{genre.name}.sat")
    counter: Callable[[Any, int], Outcome] = sat.count_sat
    return counter


def cpu_ms(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    result = work()
    return 1000 * (time.process_time() - start), result


def session(genre: Genre[Any], side: int, seed: int, edits: int) -> list[Any]:
    """The boards of one editing session: a generated board and `edits` edits of it, each
    keeping the setter's intended solution a solution (a Norinori cell the solution
    leaves empty moved across a border, a white Nondango circle removed or a circle
    added, a Nonogram pixel flipped), so the board stays solvable: unique or not."""
    board = service.generate(genre.name, side, side, seed, deadline=120)
    assert genre.edits is not None
    boards, puzzle, keep, start = [board.puzzle], board.puzzle, board.solution, seed
    full = (1 << side * side) - 1
    for step in range(edits):
        listed = [
            edit
            for edit in genre.edits(puzzle, keep, full & ~keep, full)
            if edit.keep is not None and not genre.validate(edit.puzzle, edit.keep)
        ]
        if not listed:
            break
        start = (start + 7 * step + 3) % len(listed)
        puzzle, keep = listed[start].puzzle, listed[start].keep
        boards.append(puzzle)
    return boards


def run(genre: Genre[Any], side: int, boards: int, edits: int, deadline_s: float) -> str:
    engine: list[float] = []
    sat: list[float] = []
    outcomes: Counter[str] = Counter()
    ambiguous: list[Any] = []
    count_sat = oracle(genre)
    for seed in range(1, boards + 1):
        for puzzle in session(genre, side, seed, edits):
            loaded = Loaded("bench", genre, puzzle)
            ms, report = cpu_ms(
                lambda loaded=loaded: workshop.examine(loaded, None, Deadline(deadline_s))
            )
            engine.append(ms)
            outcomes[str(report.outcome)] += 1
            if report.outcome is Verdict.MULTIPLE:
                ambiguous.append(loaded)
            sat_ms, _ = cpu_ms(lambda puzzle=puzzle: count_sat(puzzle, 2))
            sat.append(sat_ms)
    made_edits: list[int] = []
    made_ms: list[float] = []
    unique = 0
    for loaded in ambiguous[: boards * 2]:
        ms, made = cpu_ms(
            lambda loaded=loaded: workshop.make_unique(loaded, None, Deadline(deadline_s * 3))
        )
        made_ms.append(ms)
        made_edits.append(len(made.applied))
        unique += made.report.outcome is Verdict.UNIQUE
    ratio = statistics.median(engine) / statistics.median(sat) if statistics.median(sat) else 0
    mix = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
    made_text = (
        f"{unique}/{len(made_edits)} unique, edits median {statistics.median(made_edits):g} "
        f"max {max(made_edits)}, {statistics.median(made_ms):.0f} ms median"
        if made_edits
        else "no ambiguous board met"
    )
    return (
        f"| {genre.name} | {side}x{side} | {len(engine)} | {statistics.median(engine):.1f} | "
        f"{percentile(engine, 0.95):.1f} | {max(engine):.1f} | {statistics.median(sat):.1f} | "
        f"{ratio:.2f} | {mix} | {made_text} |"
    )


class CpuDeadline(Deadline):
    """A deadline on this process's CPU seconds (the machine may be shared): `--walk`
    gives each board `--deadline` CPU seconds, and the wall clock `WALL_SLACK` times more."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds * WALL_SLACK)
        self.cpu_end = time.process_time() + seconds

    def expired(self) -> bool:
        return time.process_time() >= self.cpu_end or super().expired()


WALL_SLACK = 6
"""`--walk` judges `--deadline` in CPU seconds; the wall clock allows this many times more
(the machine may be shared), and a walk unique only after the CPU deadline counts as a
failure."""


def walk_row(genre: Genre[Any], side: int, boards: int, deadline_s: float) -> str:
    """One table row of `--walk`: make unique on `boards` ambiguous boards."""
    unique = 0
    edits: list[int] = []
    stood: list[int] = []
    seconds: list[float] = []
    drift: list[int] = []
    stops: Counter[str] = Counter()
    for puzzle, solution in ambiguous(genre.name, side, boards):
        loaded = Loaded("bench", genre, puzzle)
        ms, made = cpu_ms(
            lambda loaded=loaded, solution=solution: workshop.make_unique(
                loaded, solution, CpuDeadline(deadline_s)
            )
        )
        seconds.append(ms / 1000)
        edits.append(len(made.applied))
        stood.append(made.visited)
        drift.append(0 if made.keep is None else (made.keep ^ solution).bit_count())
        if made.report.outcome is Verdict.UNIQUE and ms > 1000 * deadline_s:
            stops[f"unique after {len(made.applied)} edits, but over the CPU deadline"] += 1
        elif made.report.outcome is Verdict.UNIQUE:
            unique += 1
        else:
            stops[(made.stopped or "?").split(";")[0].split(" in ")[0]] += 1
    if not seconds:
        return f"| {genre.name} | {side}x{side} | no ambiguous board made |"
    why = ", ".join(f"{k} ({v})" for k, v in stops.items()) or "-"
    return (
        f"| {genre.name} | {side}x{side} | {unique}/{len(seconds)} | "
        f"{statistics.median(edits):g} / {max(edits)} | {statistics.median(stood):g} | "
        f"{max(drift)} | {statistics.median(seconds):.1f} | {percentile(seconds, 0.95):.1f} | "
        f"{max(seconds):.1f} | {why} |"
    )


def walk_table(names: list[str], sides: list[int], boards: int, deadline_s: float) -> None:
    print(
        "| genre | size | unique | edits median / max | boards stood on | max drift | "
        "CPU s median | p95 | max | stopped |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        for side in sides:
            print(walk_row(genres()[name], side, boards, deadline_s), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--genre", action="append", choices=sorted(genres()))
    parser.add_argument("--sizes", default="10,20")
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--edits", type=int, default=12)
    parser.add_argument("--deadline", type=float, default=10.0)
    parser.add_argument("--walk", action="store_true", help="make unique on ambiguous boards")
    args = parser.parse_args(argv)
    sides = [int(s) for s in args.sizes.split(",")]
    if args.walk:
        walk_table(args.genre or sorted(genres()), sides, args.boards, args.deadline)
        return 0
    print(
        "| genre | size | verdicts | median ms | p95 ms | max ms | SAT median ms | "
        "engine/SAT | outcomes | Make unique |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in args.genre or sorted(genres()):
        genre = genres()[name]
        for side in sides:
            print(run(genre, side, args.boards, args.edits, args.deadline), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
