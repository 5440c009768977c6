"""Measuring Nonogram counters side by side: the engine in this process, the SAT oracle
(the yardstick, CaDiCaL 1.5.3 on `sat.py`'s encoding) in a worker process killed at its
deadline, and one table for both.

Shared by `nonogram_hard.py` and `nonogram_tournament.py`. Every figure is a count to 2, and
every answer of the engine is checked untimed: its solutions distinct and valid. The engine
counts the whole set first, then the SAT oracle (see `count_all`).
Wall time is the counter's own (the engine's call; the worker's encode and solve, without
starting the process); CPU time is the same process's `time.process_time()` over it. A
timeout is charged its full wall time in the totals.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.genres.nonogram.codec import from_json
from gridproof.genres.nonogram.engine import Board, Grid, Propagator
from gridproof.genres.nonogram.model import Nonogram, validate
from gridproof.genres.nonogram.solve import count


@dataclass(frozen=True, slots=True)
class Run:
    """One counter on one board."""

    id: str
    verdict: str  # none / unique / multiple / timeout, or "-" when not run
    wall: float
    cpu: float
    how: str = ""  # the engine: line, probe or search
    nodes: int = 0
    checked: str = ""  # the engine: what was wrong with the solutions it returned, if anything

    @property
    def decided(self) -> bool:
        return self.verdict not in ("timeout", "-")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class CpuDeadline(Deadline):
    """A deadline `seconds` of this process's CPU time from now: what `--cpu-deadline`
    gives the engine, so that a loaded machine does not turn a board into a timeout."""

    __slots__ = ("_cpu_end",)

    def __init__(self, seconds: float) -> None:
        super().__init__(None)
        self._cpu_end = time.process_time() + seconds

    def expired(self) -> bool:
        return time.process_time() >= self._cpu_end or super().expired()


CPU_DEADLINE = False
"""Whether `engine_run` times the engine by CPU (`--cpu-deadline`)."""


def engine_run(ident: str, puzzle: Nonogram, seconds: float, sat: bool = True) -> Run:
    """Count to 2 with the engine (`solve.count`; with `sat` false, the pure-Python path
    alone) under a `seconds` deadline; and how it decided (line solving alone, probing at
    the root, or search), found out untimed."""
    wall, cpu = time.perf_counter(), time.process_time()
    # (`sat` is passed only when off, so the same script measures engines without it)
    deadline = CpuDeadline(seconds) if CPU_DEADLINE else Deadline(seconds)
    outcome = count(puzzle, 2, deadline, **({} if sat else {"sat": False}))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    checked = solutions_wrong(puzzle, outcome.verdict.value, outcome.solutions)
    if outcome.nodes > 1:
        how = "search"
    else:
        board = Board(puzzle)
        grid = Grid.blank(board)
        alive = Propagator(board, Deadline(seconds)).run(grid)
        how = "line" if not alive or grid.decided(board) == board.width * board.height else "probe"
    return Run(ident, outcome.verdict.value, wall, cpu, how, outcome.nodes, checked)


def _cold_plans() -> None:
    """Forget the line plans of the clues seen so far (`lines.plan_of`, memoised by
    length and clue), so that of two runs on one board the second does not find the first
    one's plans made: each starts as a first count of the board does in use. (A 25×25
    board's plans take under a millisecond; the rest of the spread between the two on
    the smallest boards is the machine: the same run repeated moves either by as much.)"""
    from gridproof.genres.nonogram.lines import plan_of

    plan_of.cache_clear()


def stretch_alone_run(ident: str, puzzle: Nonogram, seconds: float) -> Run:
    """`engine_run` with the learning searches given no turns after the root: the root's
    probing, then the SAT stretch alone (the yardstick the turns must not lose to)."""
    from gridproof.genres.nonogram import solve

    names = ("SAT_NATIVE_FIRST", "SAT_NATIVE_PER_CONFLICT", "MIRROR_SHARE")
    saved = [getattr(solve, name) for name in names]
    for name in names:
        setattr(solve, name, type(getattr(solve, name))(0))
    try:
        return engine_run(ident, puzzle, seconds)
    finally:
        for name, value in zip(names, saved, strict=True):
            setattr(solve, name, value)


def solutions_wrong(puzzle: Nonogram, verdict: str, solutions: tuple[int, ...]) -> str:
    """What is wrong with the solutions a verdict came with ("" when nothing): a `unique`
    needs one and a `multiple` two distinct ones, each passing the validator."""
    wanted = {"unique": 1, "multiple": 2}.get(verdict, 0)
    if len(set(solutions)) < wanted:
        return f"{verdict} with {len(set(solutions))} distinct solutions"
    broken = [index for index, shaded in enumerate(solutions) if validate(puzzle, shaded)]
    return f"solutions {broken} fail the validator" if broken else ""


def _sat_worker(entry: dict[str, Any], out: Any) -> None:
    from gridproof.genres.nonogram import sat

    # the yardstick solver where the module names one (older ones always ran CaDiCaL)
    solver = [sat.YARDSTICK] if hasattr(sat, "YARDSTICK") else []
    wall, cpu = time.perf_counter(), time.process_time()
    verdict = sat.count_sat(from_json(entry), 2, *solver).verdict.value
    out.put((verdict, time.perf_counter() - wall, time.process_time() - cpu))


def sat_run(ident: str, entry: dict[str, Any], seconds: float) -> Run:
    """The SAT oracle's verdict and times, or a timeout charged `seconds` past the deadline."""
    # Not forked from this process: a fork leaves every page of the engine's process
    # copy-on-write, and the engine's next board paid the faults (measured, boards and
    # workers taking turns: a hard-set engine median of 13.8 ms beside forked workers,
    # 10.8 ms beside workers from the fork server).
    context = multiprocessing.get_context("forkserver")
    queue: Any = context.Queue()
    worker = context.Process(target=_sat_worker, args=(entry, queue))
    start = time.perf_counter()
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        worker.kill()
        worker.join()
        spent = time.perf_counter() - start
        return Run(ident, "timeout", spent, spent)
    if worker.exitcode != 0:
        raise RuntimeError(f"the SAT worker failed on {ident} (exit code {worker.exitcode})")
    verdict, wall, cpu = queue.get()
    return Run(ident, verdict, wall, cpu)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options both side-by-side benchmarks take: the two deadlines, `--only`,
    `--no-sat` and `--native`."""
    parser.add_argument("--deadline", type=float, default=30.0)
    parser.add_argument("--sat-deadline", type=float, default=30.0)
    parser.add_argument("--only", action="append", help="only these ids (repeatable)")
    parser.add_argument("--no-sat", action="store_true", help="skip the SAT oracle")
    parser.add_argument(
        "--native", action="store_true", help="the engine without its SAT stretch (pure Python)"
    )
    parser.add_argument(
        "--cpu-deadline",
        action="store_true",
        help="the engine's deadline counts its CPU time, not the wall clock (a loaded machine)",
    )
    parser.add_argument(
        "--with-stretch",
        action="store_true",
        help="also the engine's SAT stretch alone (root probing, then CaDiCaL, no turns)",
    )
    parser.add_argument(
        "--with-pure",
        action="store_true",
        help="also the engine without its SAT stretch (count --no-sat), a row of its own",
    )


def only(entries: list[dict[str, Any]], args: argparse.Namespace) -> list[dict[str, Any]]:
    """The entries `--only` names (each value may list several ids, comma-separated); all
    of them without it."""
    if not args.only:
        return entries
    wanted = {ident for item in args.only for ident in item.split(",")}
    return [e for e in entries if e["id"] in wanted]


WARM_UP = 1.0
"""Seconds each counter runs on the first board before anything is timed."""


def compare(
    entries: list[dict[str, Any]],
    args: argparse.Namespace,
    title: str,
    describe: Callable[[dict[str, Any], Run, Run], str],
) -> list[Run]:
    """`count_all` under the options of `add_arguments`, then the heading (`title`, then
    the deadlines) and `print_table`; the engine's runs, for what a benchmark adds."""
    global CPU_DEADLINE
    CPU_DEADLINE = getattr(args, "cpu_deadline", False)
    with_stretch = getattr(args, "with_stretch", False) and not args.native
    with_pure = getattr(args, "with_pure", False) and not args.native
    if entries:  # untimed (a second at most), so no counter's first board pays its imports
        ident, first = entries[0]["id"], from_json(entries[0])
        engine_run(ident, first, WARM_UP, not args.native)
        if with_stretch:
            stretch_alone_run(ident, first, WARM_UP)
        if with_pure:
            engine_run(ident, first, WARM_UP, False)
    alone: list[Run] = []
    engine, sat = count_all(
        entries,
        args.deadline,
        args.sat_deadline,
        native=args.native,
        no_sat=args.no_sat,
        describe=describe,
        alone=alone if with_stretch else None,
    )
    pure: list[Run] = []
    if with_pure:
        print("\nthe engine without its SAT stretch (count --no-sat):", flush=True)
        for entry in entries:
            pure.append(engine_run(entry["id"], from_json(entry), args.deadline, False))
            print(f"{entry['id']:44} pure   {pure[-1].verdict:8} {pure[-1].cpu:8.3f}s", flush=True)
    expected = {e["id"]: e.get("expected") for e in entries}
    print(f"\n## {title}; engine deadline {args.deadline}s, SAT deadline {args.sat_deadline}s\n")
    print_table(engine, None if args.no_sat else sat, expected, args.native, pure, alone)
    return engine


def count_all(
    entries: list[dict[str, Any]],
    deadline: float,
    sat_deadline: float,
    *,
    native: bool,
    no_sat: bool,
    describe: Callable[[dict[str, Any], Run, Run], str],
    alone: list[Run] | None = None,
) -> tuple[list[Run], list[Run]]:
    """Every board counted by the engine (with its SAT stretch unless `native`), a line
    each as it ends; then every board by the SAT oracle (unless `no_sat`: a "-" run), the
    board's line with both counters as it ends.

    The two counters run one after the other over the whole set, not board by board: a
    worker process run between two engine boards leaves the engine's next board starting
    from cold caches, which measured a third on the hard set's median (9.8 ms interleaved,
    7.4 ms alone): a cost neither counter pays in use. With `alone` (a list to fill), the
    engine's stretch alone (`stretch_alone_run`) runs right after the engine on each board,
    in the same process: the two compared under the same load, each from cold line plans
    (`_cold_plans`)."""
    engine: list[Run] = []
    for entry in entries:
        if alone is not None:
            _cold_plans()
        ours = engine_run(entry["id"], from_json(entry), deadline, not native)
        engine.append(ours)
        if not no_sat:
            print(f"{entry['id']:44} engine {ours.verdict:8} {ours.wall:8.3f}s", flush=True)
        else:
            print(describe(entry, ours, Run(entry["id"], "-", 0.0, 0.0)), flush=True)
        if alone is not None:
            _cold_plans()
            alone.append(stretch_alone_run(entry["id"], from_json(entry), deadline))
            print(
                f"{entry['id']:44} alone  {alone[-1].verdict:8} {alone[-1].cpu:8.3f}s", flush=True
            )
    if no_sat:
        return engine, [Run(entry["id"], "-", 0.0, 0.0) for entry in entries]
    print("\nthe SAT oracle:", flush=True)
    sat: list[Run] = []
    for entry, ours in zip(entries, engine, strict=True):
        theirs = sat_run(entry["id"], entry, sat_deadline)
        sat.append(theirs)
        print(describe(entry, ours, theirs), flush=True)
    return engine, sat


def table_row(name: str, runs: list[Run], expected: dict[str, str | None]) -> str:
    """`| counter | decided | matches label | median | p95 | max | CPU median | CPU p95 |
    total s | CPU s |`, the times over the decided boards, the totals over all."""
    times = [run.wall for run in runs if run.decided]
    cpus = [run.cpu for run in runs if run.decided]
    labelled = any(expected.get(run.id) for run in runs)
    right = sum(run.verdict == expected.get(run.id) for run in runs) if labelled else "-"
    total = sum(run.wall for run in runs)
    cpu = sum(run.cpu for run in runs)
    head = f"| {name} | {len(times)}/{len(runs)} | {right} |"
    if not times:
        return f"{head} - | - | - | - | - | {total:.1f} | {cpu:.1f} |"
    med, p95, top = statistics.median(times), percentile(times, 0.95), max(times)
    cpu_med, cpu_p95 = statistics.median(cpus), percentile(cpus, 0.95)
    return (
        f"{head} {med:.4f} | {p95:.4f} | {top:.4f} | {cpu_med:.4f} | {cpu_p95:.4f} |"
        f" {total:.1f} | {cpu:.1f} |"
    )


def cpu_ratios(label: str, runs: list[Run], sat: list[Run]) -> str:
    """A counter's CPU against the oracle's: per board (median, p95, max of the ratios over
    the boards both decided) and in total (over all boards, timeouts charged in full)."""
    ratios = [
        r.cpu / max(s.cpu, 1e-6) for r, s in zip(runs, sat, strict=True) if r.decided and s.decided
    ]
    total = sum(r.cpu for r in runs) / max(sum(s.cpu for s in sat), 1e-6)
    if not ratios:
        return f"{label} / SAT oracle CPU: total {total:.2f}x"
    return (
        f"{label} / SAT oracle CPU: per board median {statistics.median(ratios):.2f}x, "
        f"p95 {percentile(ratios, 0.95):.2f}x, max {max(ratios):.2f}x; total {total:.2f}x"
    )


def print_table(
    engine: list[Run],
    sat: list[Run] | None,
    expected: dict[str, str | None],
    native: bool,
    pure: list[Run] | None = None,
    alone: list[Run] | None = None,
) -> None:
    """The side-by-side table (with `pure`, a row for the engine without its SAT stretch,
    and the CPU ratios to the oracle), the timeouts by name and the disagreements."""
    print(
        "| counter | decided | matches label | median s | p95 s | max s | CPU median s"
        " | CPU p95 s | total s | CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    name = "gridproof engine, pure Python" if native else "gridproof engine"
    print(table_row(name, engine, expected))
    if alone:
        print(table_row("the engine's SAT stretch alone", alone, expected))
    if pure:
        print(table_row("gridproof engine, count --no-sat", pure, expected))
    if sat is not None:
        print(table_row("SAT oracle (CaDiCaL)", sat, expected))
    print()
    if sat is not None:
        for label, runs in ((name, engine), ("count --no-sat", pure or [])):
            if runs:
                print(cpu_ratios(label, runs, sat))
    if alone:
        ratios = [
            e.cpu / max(a.cpu, 1e-6)
            for e, a in zip(engine, alone, strict=True)
            if e.decided and a.decided
        ]
        total = sum(e.cpu for e in engine) / max(sum(a.cpu for a in alone), 1e-6)
        if ratios:
            print(
                f"{name} / the stretch alone, CPU: per board median "
                f"{statistics.median(ratios):.2f}x, p95 {percentile(ratios, 0.95):.2f}x, "
                f"max {max(ratios):.2f}x; total {total:.2f}x"
            )
    if pure:
        differ = [
            (e.id, e.verdict, p.verdict)
            for e, p in zip(engine, pure, strict=True)
            if e.decided and p.decided and e.verdict != p.verdict
        ]
        print(f"engine and count --no-sat differ on: {differ or 'none'}")
        wrong = [f"{r.id}: {r.checked}" for r in pure if r.checked]
        print(f"count --no-sat solutions wrong: {'; '.join(wrong) or 'none'}")
        print(
            "count --no-sat timeouts: " + (", ".join(r.id for r in pure if not r.decided) or "none")
        )
    print("engine timeouts: " + (", ".join(r.id for r in engine if not r.decided) or "none"))
    if sat is not None:
        print("SAT timeouts: " + (", ".join(r.id for r in sat if not r.decided) or "none"))
        both = [(e, s) for e, s in zip(engine, sat, strict=True) if e.decided and s.decided]
        differ = [(e.id, e.verdict, s.verdict) for e, s in both if e.verdict != s.verdict]
        print(f"decided by both: {len(both)}; verdicts differ on: {differ or 'none'}")
    wrong = [
        (r.id, r.verdict, expected[r.id])
        for r in engine
        if r.decided and expected.get(r.id) and r.verdict != expected[r.id]
    ]
    print(f"engine decided against the label: {wrong or 'none'}")
    checked = [f"{r.id}: {r.checked}" for r in engine if r.checked]
    answered = sum(r.verdict in ("unique", "multiple") for r in engine)
    print(
        f"solutions checked (unique: one, multiple: two distinct, each passing the validator):"
        f" {answered} answers, wrong: {'; '.join(checked) or 'none'}"
    )
    slowest = sorted(engine, key=lambda r: r.wall)[-3:]
    print(
        "slowest for the engine: "
        + ", ".join(f"{r.id} {r.wall:.3f}s ({r.verdict}, {r.nodes} nodes)" for r in slowest)
    )
