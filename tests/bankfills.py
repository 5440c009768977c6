"""Shared pieces of the bank-fill tests: a tiny job, an in-process fill, the rows a fill
stored that do not depend on the clock, the command line of a fill in a subprocess, and a
genre's smallest key and first banked record (for the bank and contract tests)."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridproof import bank
from gridproof.bank import filler, runners
from gridproof.core.contract import Genre
from gridproof.core.errors import GenerationError

ROOT = Path(__file__).resolve().parents[1]
NONOGRAM = filler.check_job("nonogram", 5, 5, None)
"""Tiny boards, quick to make, with duplicates among the first seeds."""
START, COUNT = 20, 12
"""Seeds 20 to 33: two of them repeat an earlier board."""


def rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Everything a fill stored that does not depend on the clock: every column of the
    boards but their times, and every tried seed."""
    with sqlite3.connect(path) as db:
        boards = db.execute(
            "SELECT id, code, genre, width, height, difficulty, metrics, health, generator, "
            "seed, solution, verdict, nodes, engine, served, score, canonical, provenance, "
            "checks FROM puzzles ORDER BY id"
        ).fetchall()
        tried = db.execute("SELECT * FROM tried ORDER BY seed").fetchall()
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    timeless = []
    for row in boards:
        health = json.loads(row[7])
        health.pop("milliseconds")
        timeless.append((*row[:7], health, *row[8:]))
    return {"puzzles": timeless, "tried": tried}


def fill_here(
    path: Path,
    count: int = COUNT,
    job: filler.Job = NONOGRAM,
    runner: Callable[[filler.Task], runners.Runner] = runners.InProcess,
    **plan: Any,
) -> filler.Tally:
    task = filler.Task(job, check_every=plan.pop("check_every", 3))
    start = plan.pop("start", START)
    full = filler.Plan(job, start, count, **plan)
    return filler.fill(bank.Bank(path), full, runner(task), "test")


def fill_command(path: Path, count: int, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gridproof",
        "bank",
        "fill",
        "--genre",
        "nonogram",
        "--size",
        "5x5",
        "--count",
        str(count),
        "--check-every",
        "3",
        "--chunk",
        "2",
        "--db",
        str(path),
        *extra,
    ]


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def stored(path: Path) -> int:
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM tried").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def smallest(genre: Genre[Any]) -> bank.Key:
    width, height = bank.offered_sizes(genre)[0]
    return bank.Key(genre.name, width, height, bank.default_difficulty(genre))


def first_record(key: bank.Key, seeds: range = range(1, 30)) -> bank.Record:
    for seed in seeds:
        try:
            record = bank.make_record(key, seed, generate_s=20)
        except GenerationError:
            continue
        if record.difficulty == key.difficulty:
            return record
    raise AssertionError(f"no board for {key}")
