"""The bulk filler: the same seeds give the same bank whatever the workers, the task size or
the interruptions; tried seeds (boards, duplicates, misses) are skipped by a rerun; a seed
the clock ended is tried again and never leaves a gap; a fill killed with SIGKILL resumes
to the rows of an uninterrupted one; readers share the file with a running fill."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from gridproof import bank
from gridproof.bank import filler, locks, runners
from gridproof.core.errors import CodeError, GenerationError
from tests.bankfills import (
    COUNT,
    NONOGRAM,
    START,
    environment,
    fill_command,
    fill_here,
    rows,
    stored,
)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Any, ...]]]:
    """The bank of one uninterrupted in-process fill of `COUNT` boards from `START`."""
    path = tmp_path_factory.mktemp("reference") / "bank.sqlite3"
    tally = fill_here(path)
    assert (tally.status, tally.total, tally.first) == ("done", COUNT, START)
    return rows(path)


def test_the_reference_fill_holds_what_it_says(reference: dict[str, list[Any]]) -> None:
    boards, tried = reference["puzzles"], reference["tried"]
    assert len(boards) == COUNT
    assert [row[0] for row in boards] == list(range(1, COUNT + 1))
    assert len({row[16] for row in boards}) == COUNT  # no two copies of one board
    outcomes = [row[6] for row in tried]
    assert outcomes.count("kept") == COUNT
    assert outcomes.count("duplicate") == 2
    assert [row[5] for row in tried] == list(range(START, START + len(tried)))  # no gap
    assert {row[17] for row in boards} == {
        f"generated {NONOGRAM.generator} seed {r[9]}" for r in boards
    }
    assert any("sat" in json.loads(row[18]) for row in boards)  # the 1-in-3 sample


@pytest.mark.parametrize("chunk", [1, 5])
def test_the_task_size_changes_nothing(
    tmp_path: Path, chunk: int, reference: dict[str, list[Any]]
) -> None:
    fill_here(tmp_path / "bank.sqlite3", chunk=chunk)
    assert rows(tmp_path / "bank.sqlite3") == reference


def test_two_local_workers_make_the_same_bank(
    tmp_path: Path, reference: dict[str, list[Any]]
) -> None:
    tally = fill_here(
        tmp_path / "bank.sqlite3", runner=lambda task: runners.LocalPool(task, 2), chunk=2
    )
    assert tally.status == "done"
    assert rows(tmp_path / "bank.sqlite3") == reference


def test_a_rerun_goes_on_where_the_last_run_stopped(
    tmp_path: Path, reference: dict[str, list[Any]]
) -> None:
    path = tmp_path / "bank.sqlite3"
    assert fill_here(path, count=5).total == 5
    again = fill_here(path)
    assert (again.before, again.kept, again.status) == (5, COUNT - 5, "done")
    assert rows(path) == reference
    done = fill_here(path)  # the same command once more: nothing to do
    assert (done.kept, done.first, done.status) == (0, None, "done")
    assert rows(path) == reference


def test_seeds_start_where_asked_and_jobs_are_kept_apart(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite3"
    tally = fill_here(path, count=3, start=1000)
    assert tally.first == 1000
    easy = filler.check_job("nonogram", 5, 5, "easy")
    graded = fill_here(path, count=3, job=easy, start=1000)
    assert graded.before == 0  # another job, its own tried seeds
    with sqlite3.connect(path) as db:
        asked = {row[0] for row in db.execute("SELECT DISTINCT asked FROM tried")}
        grades = {row[0] for row in db.execute("SELECT difficulty FROM puzzles WHERE seed > 0")}
    assert asked == {"", "easy"}
    assert "easy" in grades


def test_misses_are_recorded_and_not_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bank.prove_board
    called: list[int] = []

    def failing(*args: Any) -> bank.Record:
        called.append(args[3])
        if args[3] % 4 == 0:
            raise GenerationError("no board (a test's miss)", {"attempts": 1})
        return real(*args)

    monkeypatch.setattr(bank, "prove_board", failing)
    path = tmp_path / "bank.sqlite3"
    tally = fill_here(path, count=6)
    assert tally.misses >= 1
    with sqlite3.connect(path) as db:
        misses = db.execute("SELECT seed, reason FROM tried WHERE outcome = 'miss'").fetchall()
    assert misses
    assert all(seed % 4 == 0 and reason == "no board (a test's miss)" for seed, reason in misses)
    called.clear()
    fill_here(path, count=8)
    assert not set(called) & {seed for seed, _ in misses}  # tried seeds are skipped


def test_a_seed_the_clock_ended_is_tried_again_and_leaves_no_gap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: dict[str, list[Any]]
) -> None:
    real = bank.prove_board
    ended: list[int] = []

    def slow_once(*args: Any) -> bank.Record:
        seed, deadline = args[3], args[5]
        if seed == START + 3 and not ended:
            ended.append(seed)
            deadline.cancel()  # as if the wall clock ran out on a loaded machine
            raise GenerationError("ran out of time", {})
        return real(*args)

    monkeypatch.setattr(bank, "prove_board", slow_once)
    tally = fill_here(tmp_path / "bank.sqlite3", chunk=4)
    assert (tally.retries, tally.status) == (1, "done")
    assert rows(tmp_path / "bank.sqlite3") == reference


def test_a_seed_the_clock_keeps_ending_stops_the_fill_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: dict[str, list[Any]]
) -> None:
    real = bank.prove_board

    def always_slow(*args: Any) -> bank.Record:
        if args[3] == START + 4:
            args[5].cancel()
            raise GenerationError("ran out of time", {})
        return real(*args)

    monkeypatch.setattr(bank, "prove_board", always_slow)
    path = tmp_path / "bank.sqlite3"
    tally = fill_here(path, chunk=3)
    assert (tally.status, tally.stopped_at) == ("stopped", START + 4)
    assert tally.retries == filler.CLOCK_TRIES
    tried = [row[5] for row in rows(path)["tried"]]
    assert tried == list(range(START, START + 4))  # nothing after the seed
    monkeypatch.undo()
    assert fill_here(path).status == "done"
    assert rows(path) == reference


def test_a_fill_that_finds_too_few_boards_gives_up(tmp_path: Path) -> None:
    tally = fill_here(tmp_path / "bank.sqlite3", count=50, max_seeds=10)
    assert (tally.status, tally.tried) == ("gave up", 10)


def test_check_job_names_what_is_wrong() -> None:
    assert filler.check_job("norinori", 6, 6, None).difficulty is None
    with pytest.raises(CodeError, match="unknown genre 'go'"):
        filler.check_job("go", 5, 5, None)
    with pytest.raises(CodeError, match="outside Norinori's range"):
        filler.check_job("norinori", 2, 2, None)
    with pytest.raises(CodeError, match="offers easy, hard, not 'medium'"):
        filler.check_job("nonogram", 5, 5, "medium")


# --- killed and shared ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fill_killed_with_sigkill_resumes_to_the_uninterrupted_rows(
    tmp_path: Path, jobs: str
) -> None:
    count = 30
    whole, killed = tmp_path / "whole.sqlite3", tmp_path / "killed.sqlite3"
    command = fill_command(killed, count, "--jobs", jobs)
    process = subprocess.Popen(command, env=environment(), stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while stored(killed) < 4 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    assert process.returncode == -signal.SIGKILL, "the fill ended before it was killed"
    partial = rows(killed)  # integrity_check passes
    assert 0 < len(partial["puzzles"]) < count
    seeds = [row[5] for row in partial["tried"]]
    assert seeds == list(range(1, len(seeds) + 1))  # a prefix of the seeds, no gap
    subprocess.run(command, env=environment(), check=True, capture_output=True, timeout=120)
    fill_here(whole, count, start=1, chunk=5)  # uninterrupted, in this process
    assert rows(killed) == rows(whole)


@pytest.mark.slow
def test_ctrl_c_stops_a_fill_and_says_how_to_go_on(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite3"
    process = subprocess.Popen(
        # far more than a loaded machine finishes before the signal (400 once did)
        fill_command(path, 20_000, "--jobs", "2"),
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a shell's background job (`make test &`) ignores SIGINT, and its children inherit
        # that: the command is to meet Ctrl+C as a terminal sends it
        preexec_fn=_default_sigint,
    )
    try:
        deadline = time.monotonic() + 60
        while stored(path) < 2 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        assert process.poll() is None, "the fill ended before it was interrupted"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert "interrupted: the job holds" in err
    assert "the same command goes on from there" in err
    assert "Traceback" not in err
    with sqlite3.connect(path) as db:
        status = db.execute("SELECT status FROM fills").fetchone()
    assert status == ("interrupted",)


@pytest.mark.slow
def test_a_lost_local_worker_is_replaced(tmp_path: Path, reference: dict[str, Any]) -> None:
    """A pool worker killed mid-way breaks the pool; a new pool takes its ranges over."""
    task = filler.Task(NONOGRAM, check_every=3)

    class Sabotaged(runners.LocalPool):
        killed = False

        def done(self) -> tuple[int, list[filler.Attempt]]:
            if not self.killed:
                Sabotaged.killed = True
                workers = list(self._pool._processes.values())  # type: ignore[union-attr]
                os.kill(workers[0].pid, signal.SIGKILL)
            return super().done()

    plan = filler.Plan(NONOGRAM, START, COUNT, chunk=2)
    tally = filler.fill(bank.Bank(tmp_path / "bank.sqlite3"), plan, Sabotaged(task, 2))
    assert Sabotaged.killed
    assert tally.status == "done"
    assert rows(tmp_path / "bank.sqlite3") == reference


@pytest.mark.slow
def test_readers_share_the_bank_with_a_running_fill(tmp_path: Path) -> None:
    """What a web process does (pick, which writes too, find, counts) while a fill in another
    process writes batch after batch: no call fails with 'database is locked'."""
    path = tmp_path / "bank.sqlite3"
    reader = bank.Bank(path)
    process = subprocess.Popen(
        fill_command(path, 20, "--chunk", "1"), env=environment(), stdout=subprocess.DEVNULL
    )
    errors: list[BaseException] = []
    reads = 0

    def read() -> None:
        nonlocal reads
        key = bank.Key("nonogram", 5, 5, "easy")
        while process.poll() is None:
            try:
                reader.pick(key)
                reader.counts()
                reader.find("nonogram.1.5x5.none")
                reads += 1
            except sqlite3.Error as error:
                errors.append(error)

    thread = threading.Thread(target=read)
    thread.start()
    process.wait(120)
    thread.join(10)
    assert process.returncode == 0
    assert errors == []
    assert reads > 0
    assert len(rows(path)["puzzles"]) == 20


def test_a_fill_stopped_by_a_full_disk_counts_exactly_what_it_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch whose transaction fails (sqlite's disk-full error, raised before the commit
    as a full disk would) is counted nowhere: the tally the fill shows and the counts it
    records in `fills` are the boards the bank holds (a fill killed by a full disk once
    recorded 296 kept for 272 stored)."""
    real = bank.Bank.transaction
    transactions: list[int] = []

    @contextmanager
    def full_at_the_fourth(self: bank.Bank) -> Iterator[sqlite3.Connection]:
        with real(self) as db:
            yield db
            transactions.append(1)
            if len(transactions) == 4:  # the fill's start, batches, then the disk is full
                raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(bank.Bank, "transaction", full_at_the_fourth)
    path = tmp_path / "bank.sqlite3"
    seen: list[tuple[int, int]] = []
    task = filler.Task(NONOGRAM, check_every=3)
    plan = filler.Plan(NONOGRAM, START, COUNT, chunk=2)
    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        filler.fill(
            bank.Bank(path),
            plan,
            runners.InProcess(task),
            "test",
            lambda tally: seen.append((tally.kept, tally.tried)),
        )
    with sqlite3.connect(path) as db:
        kept = db.execute("SELECT count(*) FROM tried WHERE outcome = 'kept'").fetchone()[0]
        tried = db.execute("SELECT count(*) FROM tried").fetchone()[0]
        boards = db.execute("SELECT count(*) FROM puzzles").fetchone()[0]
        recorded = db.execute("SELECT kept, seeds, status FROM fills").fetchall()
    assert 0 < kept == boards <= tried < COUNT  # what the batches before the full disk stored
    assert recorded == [(kept, tried, "failed")]
    assert seen[-1] == (kept, tried)


def test_an_attempt_the_wall_clock_ended_is_not_final() -> None:
    attempt = filler.attempt_seed(filler.check_job("norinori", 30, 30, None), 1, 0.001, 100)
    assert (attempt.record, attempt.final) == (None, False)
    assert "deadline" in attempt.reason


def test_dask_is_imported_only_for_a_cluster() -> None:
    """`import gridproof` and the command line stay light: no Dask until `--scheduler`."""
    probe = (
        "import sys, gridproof, gridproof.cli, gridproof.bank.filler, gridproof.bank.runners; "
        "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=environment(), capture_output=True, text=True
    )
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_two_fills_of_one_job_store_exactly_the_count(tmp_path: Path) -> None:
    """Started together, the second waits for the first's job lock, then finds the job
    done: the bank holds the count asked, not the sum of both (#31)."""
    path = tmp_path / "bank.sqlite3"
    bank.Bank(path)  # both find the schema made
    count = 12
    both = [
        subprocess.Popen(
            fill_command(path, count, "--jobs", jobs),
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for jobs in ("1", "2")
    ]
    for process in both:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT count(*) FROM puzzles").fetchone()
    assert stored == count


def test_a_fill_waits_for_the_job_s_lock_and_says_for_whom(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite3"
    bank.Bank(path)
    job = filler.check_job("nonogram", 5, 5, None)
    handle = locks.take(job.lock_path(str(path)))
    assert handle is not None
    assert handle >= 0
    waiting = subprocess.Popen(
        fill_command(path, 3),
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert waiting.stderr is not None
        note = waiting.stderr.readline()
        assert f"another fill of this job into this bank is running (process {os.getpid()})" in note
        assert waiting.poll() is None  # still waiting
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM puzzles").fetchone() == (0,)
    finally:
        locks.release(handle)
    _, rest = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, rest
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM puzzles").fetchone() == (3,)
