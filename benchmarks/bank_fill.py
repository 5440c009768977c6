"""Bulk bank filling: boards per minute on one worker, two local workers and a two-worker
Dask cluster on this machine, the scaling ratio, and the projected cost of a million boards
per genre at 10×10 and 20×20.

    .venv/bin/python benchmarks/bank_fill.py [--genre norinori] [--size 8x8] [--boards 120]
                                             [--sample 4] [--sizes 10,20] [--no-dask]

Each runner fills a fresh bank with the same `--boards` boards of one job (seeds 1, 2, ...;
the grade picked by each seed) through `gridproof.bank.filler.fill`, the code `gridproof bank
fill` runs, and the banks are compared (they must be the same). Boards per minute are wall
clock, worker start-up included; the Dask cluster is a `dask scheduler` and two `dask
worker` processes started here on 127.0.0.1. The projection times `--sample` boards per
genre and size in this process (CPU seconds, the independent check's 1-in-100 sample
included) and multiplies by a million. On a shared machine the wall-clock figures move with
the load: a benchmark prints figures, it asserts none.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from gridproof import bank
from gridproof.bank import evidence, filler, runners
from gridproof.core.codes import parse_size
from gridproof.core.registry import genres

ROOT = Path(__file__).resolve().parents[1]


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended."""
    spent = os.times()
    return spent.user + spent.system + spent.children_user + spent.children_system


def fill_once(
    folder: Path, name: str, job: filler.Job, boards: int, runner: runners.Runner
) -> tuple[float, list[tuple[object, ...]]]:
    """Seconds to fill a fresh bank with `boards` boards of `job`, and what it holds."""
    path = folder / f"{name}.sqlite3"
    plan = filler.Plan(job, 1, boards)
    start = time.perf_counter()
    tally = filler.fill(bank.Bank(path), plan, runner, name)  # closes the runner
    seconds = time.perf_counter() - start
    if tally.status != "done":
        raise SystemExit(f"{name}: the fill {tally.status} at {tally.total} boards")
    with sqlite3.connect(path) as db:
        held = db.execute("SELECT code, seed, canonical FROM puzzles ORDER BY id").fetchall()
    return seconds, held


@contextmanager
def dask_cluster(folder: Path, workers: int) -> Iterator[str]:
    """A scheduler and `workers` one-thread workers on 127.0.0.1; yields its address."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    info = folder / "scheduler.json"
    logs = [(folder / f"dask-{n}.log").open("wb") for n in range(workers + 1)]
    command = [sys.executable, "-m", "dask"]
    processes = [
        subprocess.Popen(
            [*command, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(info)],
            env=env, stdout=logs[0], stderr=subprocess.STDOUT,
        )
    ]  # fmt: skip
    try:
        wait_for(lambda: info.is_file() and info.stat().st_size > 0, "the scheduler")
        address = json.loads(info.read_text())["address"]
        for n in range(1, workers + 1):
            processes.append(
                subprocess.Popen(
                    [*command, "worker", address, "--nthreads", "1", "--no-nanny",
                     "--no-dashboard", "--host", "127.0.0.1", "--memory-limit", "0",
                     "--local-directory", str(folder / f"worker-{n}")],
                    env=env, stdout=logs[n], stderr=subprocess.STDOUT,
                )
            )  # fmt: skip
        log = folder / "dask-0.log"
        wait_for(lambda: log.read_text().count("Register worker") >= workers, "the workers")
        yield address
    finally:
        for process in processes:
            process.kill()
            process.wait()
        for handle in logs:
            handle.close()


def wait_for(ready: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit(f"waited in vain for {what}")
        time.sleep(0.05)


def cpu_per_board(name: str, side: int, sample: int, deadline_s: float) -> tuple[float, int]:
    """Mean CPU seconds per board (misses included in the cost) and the boards made."""
    job = filler.check_job(name, side, side, None)
    start = time.process_time()
    made = 0
    for seed in range(1, sample + 1):
        made += filler.attempt_seed(job, seed, deadline_s, evidence.CHECK_EVERY).record is not None
    spent = time.process_time() - start
    return (spent / made if made else float("inf")), made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--genre", default="norinori")
    parser.add_argument("--size", default="8x8")
    parser.add_argument("--boards", type=int, default=120)
    parser.add_argument("--sample", type=int, default=4, help="boards per genre and size")
    parser.add_argument("--sizes", default="10,20", help="square sides to project")
    parser.add_argument("--deadline", type=float, default=300.0)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    width, height = parse_size(args.size, "--size")
    job = filler.check_job(args.genre, width, height, None)
    task = filler.Task(job)
    results: list[tuple[str, float, float]] = []  # runner, wall seconds, CPU seconds
    same = []
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        local: list[tuple[str, Callable[[], runners.Runner[list[filler.Attempt]]]]] = [
            ("1 worker (in process)", lambda: runners.InProcess(task)),
            ("1 local worker (pool)", lambda: runners.LocalPool(task, 1)),
            ("2 local workers", lambda: runners.LocalPool(task, 2)),
        ]
        reference = None
        for number, (name, make) in enumerate(local):
            cpu = cpu_seconds()
            seconds, held = fill_once(folder, f"local-{number}", job, args.boards, make())
            results.append((name, seconds, cpu_seconds() - cpu))
            reference = held if reference is None else reference
            same.append(held == reference)
        if not args.no_dask:
            cpu = cpu_seconds()
            with dask_cluster(folder, 2) as address:
                runner = runners.DaskCluster(task, address)
                seconds, held = fill_once(folder, "dask-2", job, args.boards, runner)
            results.append(("2 Dask workers", seconds, cpu_seconds() - cpu))
            same.append(held == reference)
    print(f"bank fill: {job.describe()}, {args.boards} boards from seed 1; "
          f"{os.cpu_count()} cores, load average {load:.1f} when it began")  # fmt: skip
    print(f"{'runner':<24}{'seconds':>9}{'boards/min':>12}{'CPU s/board':>13}")
    for name, seconds, cpu in results:
        print(f"{name:<24}{seconds:>9.2f}{60 * args.boards / seconds:>12.1f}"
              f"{cpu / args.boards:>13.4f}")  # fmt: skip
    one, pool_1, pool_2 = (seconds for _, seconds, _ in results[:3])
    print(f"scaling: 2 local workers / 1 local worker {pool_1 / pool_2:.2f}x, "
          f"/ in process {one / pool_2:.2f}x"
          + (f"; 2 Dask workers / 1 local worker {pool_1 / results[3][1]:.2f}x"
             if not args.no_dask else ""))  # fmt: skip
    print(f"every runner made the same bank: {'yes' if all(same) else 'NO'}")
    print("(CPU s/board counts every process of the runner, its start-up included; the")
    print(" Dask row includes the scheduler's and the workers' start-up)")
    print()
    print(f"projected CPU cost of a million boards per genre "
          f"(mean of {args.sample} seeds, grade picked by each seed, one worker):")  # fmt: skip
    print(f"{'genre':<10}{'size':>7}{'CPU s/board':>13}{'CPU-hours/million':>19}")
    for name in sorted(genres()):
        for side in (int(each) for each in args.sizes.split(",")):
            cost, made = cpu_per_board(name, side, args.sample, args.deadline)
            hours = cost * 1_000_000 / 3600
            note = "" if made == args.sample else f"  ({args.sample - made} missed)"
            print(f"{name:<10}{f'{side}x{side}':>7}{cost:>13.3f}{hours:>19,.0f}{note}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
