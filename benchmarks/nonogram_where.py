"""Where the Nonogram counter's time goes on given boards: one count to 2 each, profiled.

    .venv/bin/python benchmarks/nonogram_where.py ID... [--corpus FILE] [--deadline 30]
    .venv/bin/python benchmarks/nonogram_where.py --slowest 3 [--corpus FILE] [--no-sat]

IDs are looked up in `../shared/corpus/tournament-25.json` and `hard-nonograms.json`
(or `--corpus`); `--slowest N` first counts every board of the corpus unprofiled and takes
the N slowest by CPU time. Per board, the phases of `solve.count` as cProfile's cumulative
CPU time: the line tables (`Board`), the root's line solving and its probing, the
learning search (and within it its line solves, the explanations of line deductions, the
conflict analysis, and the search of symmetric solutions when the clues have symmetries),
and the SAT stretch (encoding, solving); then the learning search's
decisions, conflicts and learned clauses, and the stretch's conflicts. cProfile slows the
Python parts (about twice), so the shares matter, not the seconds. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.genres.nonogram import engine, learn, solve, stretch
from gridproof.genres.nonogram.codec import from_json

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
FILES = ("tournament-25.json", "hard-nonograms.json")

PHASES: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("tables", engine.Board.__init__),
    ("root lines", engine.Propagator.run),
    ("root probing", engine.Prober.run),
    ("learning search", learn.Learner.run),
    ("  its propagation (line solves, clauses)", learn.Learner._propagate),
    ("  its conflict analysis", learn.Learner._analyse),
    ("  its explanations (in propagation and analysis)", learn.Learner._explain),
    ("SAT stretch", stretch.Session.run),
    ("  its encoding", stretch.encode),
)
"""(label, function): a phase is its function's cumulative time; indented ones are parts of
the one above. The root's line solving is the propagator's time in the calls `count`
makes itself (the probing calls it too)."""


class _Counted:
    """The searches the last `solve.count` made, kept for their counts: the learning search
    of the whole puzzle, the one of its symmetric solutions (if any ran) and the SAT
    stretch; and the CPU time the symmetric one took (its functions are the whole search's,
    so the profile cannot tell them apart)."""

    learner: Any = None
    mirror: Any = None
    session: Any = None
    mirror_time = 0.0


def _recording() -> None:
    """Make `solve.count` build searches that leave themselves in `_Counted`."""

    class Learner(learn.Learner):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.tied = bool(kwargs.get("ties"))
            if self.tied:
                _Counted.mirror = self
            else:
                _Counted.learner = self

        def run(self, limit: int, pause: int | None = None) -> bool:
            started = time.process_time()
            try:
                return super().run(limit, pause)
            finally:
                if self.tied:
                    _Counted.mirror_time += time.process_time() - started

    class Session(stretch.Session):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            _Counted.session = self

    solve.Learner = Learner  # type: ignore[misc]
    stretch.Session = Session  # type: ignore[misc]


def entries(corpus: Path | None) -> dict[str, dict[str, Any]]:
    files = [corpus] if corpus else [CORPUS / name for name in FILES]
    found: dict[str, dict[str, Any]] = {}
    for path in files:
        if path.exists():
            for entry in json.loads(path.read_text())["puzzles"]:
                found[entry["id"]] = entry
    return found


def slowest(
    chosen: dict[str, dict[str, Any]], n: int, seconds: float, sat: bool = True
) -> list[str]:
    times = []
    for ident, entry in chosen.items():
        cpu = time.process_time()
        solve.count(from_json(entry), 2, Deadline(seconds), sat=sat)
        times.append((time.process_time() - cpu, ident))
    return [ident for _, ident in sorted(times)[-n:]]


def cumulative(
    stats: pstats.Stats, function: Callable[..., Any], caller: Callable[..., Any] | None = None
) -> float:
    """The function's cumulative time in `stats` (0 if it never ran); with `caller`, only
    in the calls that caller made."""
    table: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    row = table.get(_key(function))
    if row is None:
        return 0.0
    if caller is None:
        return float(row[3])
    by_caller = row[4].get(_key(caller))
    return float(by_caller[3]) if by_caller else 0.0


def _key(function: Callable[..., Any]) -> tuple[str, int, str]:
    code = function.__code__
    return code.co_filename, code.co_firstlineno, code.co_name


def where(ident: str, entry: dict[str, Any], seconds: float, sat: bool = True) -> None:
    _Counted.learner = _Counted.mirror = _Counted.session = None
    _Counted.mirror_time = 0.0
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    outcome = solve.count(from_json(entry), 2, Deadline(seconds), sat=sat)
    profile.disable()
    stats = pstats.Stats(profile)
    total = cumulative(stats, solve.count)
    times = {label: cumulative(stats, function) for label, function in PHASES}
    times["root lines"] = cumulative(stats, engine.Propagator.run, solve.count)
    times = {
        **dict(list(times.items())[:7]),
        "  of which the search of symmetric solutions": _Counted.mirror_time,
        **dict(list(times.items())[7:]),
    }
    print(f"## {ident} ({entry['width']}x{entry['height']}): {outcome.verdict.value}, ", end="")
    print(f"{outcome.nodes} nodes, {total:.2f} s profiled CPU\n")
    print("| phase | CPU s (profiled) | share |\n|---|---|---|")
    for label, spent in times.items():
        print(f"| {label} | {spent:.3f} | {spent / total:.0%} |")
    session = _Counted.session
    print()
    for name, learner in (("learning search", _Counted.learner), ("symmetric", _Counted.mirror)):
        if learner is not None:
            print(
                f"{name}: {learner.decisions} decisions, {learner.conflicts} conflicts, "
                f"{len(learner.learnts)} learned clauses kept, {learner.restarts} restarts, "
                f"{learner.solves} line solves, {len(learner.solutions)} solutions"
            )
    if session is not None:
        print(f"SAT stretch: {session.conflicts} conflicts, {session.decisions} decisions")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--deadline", type=float, default=30.0)
    parser.add_argument("--slowest", type=int, default=0)
    parser.add_argument("--no-sat", action="store_true", help="the pure-Python count alone")
    args = parser.parse_args()
    chosen = entries(args.corpus)
    if not chosen:
        print("no corpus file found; nothing to measure")
        return 0
    ids = list(args.ids) + (
        slowest(chosen, args.slowest, args.deadline, not args.no_sat) if args.slowest else []
    )
    unknown = [ident for ident in ids if ident not in chosen]
    if unknown:
        parser.error(f"unknown ids: {', '.join(unknown)}")
    _recording()
    for ident in ids:
        where(ident, chosen[ident], args.deadline, not args.no_sat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
