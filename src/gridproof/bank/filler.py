"""Bulk filling of the bank: boards for seeds K, K+1, ... of one job, made by workers (this
process, a local process pool, or a Dask cluster) and stored by one writer, this process.

Glossary: a `job` is what a fill makes (genre, size, the grade asked, or None when each seed
picks its own, and the generator version); a `range` is the seeds of one task; an
`attempt` is what one seed gave a worker: a record, or a miss with its reason.

Why the bank comes out the same whatever the number of workers, and whatever kills a fill:
- a seed's attempt depends on the job and the seed alone: every budget that steers a
  generator is counted in solver work, and the wall clock only ends a call. An attempt the
  clock ended is not final: the seed is tried again, and the seeds after it wait (after
  `CLOCK_TRIES` the run stops before it, and the next run starts there);
- the writer stores finished ranges in seed order, whatever order the workers finish them
  in, each batch in one transaction together with the seeds it finished (table `tried`), so
  a kill at any moment leaves a prefix of the seeds stored, and a rerun of the same command
  skips the tried seeds and goes on until the job holds `count` boards;
- a board whose canonical code the bank holds already is a duplicate: the first seed, in
  seed order, keeps it.

Workers only generate and prove (`prove_range`); Dask is imported only for `--scheduler`.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import math
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import islice
from typing import Any

from gridproof import bank
from gridproof.bank import evidence, locks
from gridproof.bank.runners import Runner
from gridproof.core import registry
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError

FILL_SECONDS = 300.0
"""The wall clock for one board in a bulk fill: generous, since a seed it ends holds up the
seeds after it until it is tried again."""
TASK_SEEDS = 25
"""The most seeds in one task (fewer when the fill is small, so that every worker has
several and the progress moves)."""
IN_FLIGHT = 2
"""Ranges per worker submitted ahead of the writer: enough to keep workers busy, few enough
that the ranges finished out of order, which the writer holds, stay few."""
GIVE_UP_SEEDS = (20, 100)
"""A fill gives up after trying 20 seeds per board it still needs, plus 100, in one run."""
CLOCK_TRIES = 3
"""How many times a seed may be ended by the wall clock in one run before the fill stops
before it (a board the clock ended may not be the one the seed makes)."""
_WINDOW = 10_000
"""Seeds read from `tried` at a time when looking for untried ones."""


class Result(StrEnum):
    """What a finished seed came to, as `tried` records it."""

    KEPT = "kept"
    DUPLICATE = "duplicate"
    MISS = "miss"


@dataclass(frozen=True, slots=True)
class Job:
    """What a fill makes: boards of one genre and size, of the grade asked (None: each seed
    picks its own), by one generator version."""

    genre: str
    width: int
    height: int
    difficulty: str | None
    generator: str

    @property
    def fields(self) -> tuple[str, int, int, str, str]:
        """The job's columns in `tried` and `fills` (`asked` is '' when the seed picks)."""
        return self.genre, self.width, self.height, self.difficulty or "", self.generator

    def describe(self) -> str:
        grade = self.difficulty or "grade picked by each seed"
        return f"{self.genre} {self.width}x{self.height} ({grade}, {self.generator})"

    def lock_path(self, bank_path: str) -> str:
        """The lock file that keeps two fills of this job into one bank apart."""
        digest = hashlib.sha256("\0".join(map(str, self.fields)).encode()).hexdigest()[:16]
        return f"{bank_path}.job-{digest}.lock"


def check_job(genre_name: str, width: int, height: int, difficulty: str | None) -> Job:
    """The job of a fill request; `CodeError` naming what is wrong with it."""
    genre = registry.genre(genre_name)
    size = f"{width}x{height}"
    if difficulty is None:
        bank.check_key(genre.name, size, bank.default_difficulty(genre))  # the size alone
    else:
        bank.check_key(genre.name, size, difficulty)
    return Job(genre.name, width, height, difficulty, genre.generator)


@dataclass(frozen=True, slots=True)
class Attempt:
    """What one seed gave: a record, or a miss with its reason. `final` is False when the
    wall clock ended the attempt (not reproducible: the writer asks for the seed again);
    `unchecked` when the board was due an independent check that no oracle could run."""

    seed: int
    record: bank.Record | None = None
    reason: str = ""
    final: bool = True
    unchecked: bool = False


def attempt_seed(job: Job, seed: int, generate_s: float, check_every: int) -> Attempt:
    """Generate and prove the board of `job` and `seed` (see `bank.prove_board`)."""
    deadline = Deadline(generate_s)
    try:
        record = bank.prove_board(
            job.genre, job.width, job.height, seed, job.difficulty, deadline, check_every
        )
    except GenerationError as error:
        clock = deadline.expired() and not deadline.out_of_work()
        return Attempt(seed, reason=" ".join(str(error).split()), final=not clock)
    if job.difficulty is not None and record.difficulty != job.difficulty:
        return Attempt(seed, reason=f"graded {record.difficulty}")
    genre = registry.genre(job.genre)
    due = evidence.wants_check(genre, seed, record.difficulty, check_every)
    return Attempt(seed, record, unchecked=due and len(record.checks) == 1)


@dataclass(frozen=True, slots=True)
class Task:
    """One worker's part: prove the boards of a range of seeds. Plain data, so a process
    pool or a Dask worker can run it (a worker needs only gridproof installed)."""

    job: Job
    generate_s: float = FILL_SECONDS
    check_every: int = evidence.CHECK_EVERY

    def __call__(self, seeds: Sequence[int]) -> list[Attempt]:
        return prove_range(self.job, seeds, self.generate_s, self.check_every)


def prove_range(
    job: Job, seeds: Sequence[int], generate_s: float, check_every: int
) -> list[Attempt]:
    """The attempts of `seeds`, in order."""
    return [attempt_seed(job, seed, generate_s, check_every) for seed in seeds]


# --- the writer ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """A fill: `count` boards of `job` from seeds `start`, `start + 1`, ..."""

    job: Job
    start: int
    count: int
    chunk: int | None = None
    """Seeds per task (None: up to `TASK_SEEDS`, fewer for a small fill)."""
    max_seeds: int | None = None
    """The most seeds this run tries before it gives up (None: `GIVE_UP_SEEDS`)."""


@dataclass(slots=True)
class Tally:
    """What a fill did so far. `before` is the boards the job held from `start` on when it
    began; `retries` the attempts the wall clock ended (each seed tried again)."""

    target: int
    before: int = 0
    kept: int = 0
    duplicates: int = 0
    misses: int = 0
    retries: int = 0
    checked: int = 0
    unchecked: int = 0
    status: str = "running"
    first: int | None = None
    last: int | None = None
    """The first and last seed this run finished."""
    stopped_at: int | None = None
    """The seed the wall clock kept ending, when the fill stopped before it."""
    started: float = field(default_factory=time.monotonic)

    @property
    def total(self) -> int:
        return self.before + self.kept

    @property
    def tried(self) -> int:
        return self.kept + self.duplicates + self.misses

    @property
    def failures(self) -> int:
        return self.misses + self.retries

    def elapsed(self) -> float:
        return time.monotonic() - self.started


def fill(
    store: bank.Bank,
    plan: Plan,
    runner: Runner[list[Attempt]],
    workers: str = "",
    progress: Callable[[Tally], None] = lambda tally: None,
    waiting: Callable[[int | None], None] = lambda holder: None,
) -> Tally:
    """Run `plan` on `runner` and store what it makes; returns the tally, whose `status` is
    `done`, `gave up` (the seed budget ran out), `stopped` (the clock kept ending a seed:
    `stopped_at`), or `interrupted` and `failed` (then the exception is re-raised). One
    fill of a job runs at a time: another fill of the same job into the same bank waits
    (told to `waiting`, with the process id of the fill it waits for) and then finds what
    that one made, so together they store exactly the count asked."""
    try:
        with locks.held(plan.job.lock_path(str(store.path)), waiting):
            return _fill(store, plan, runner, workers, progress)
    finally:
        runner.close()


def _fill(
    store: bank.Bank,
    plan: Plan,
    runner: Runner[list[Attempt]],
    workers: str,
    progress: Callable[[Tally], None],
) -> Tally:
    job = plan.job
    tally = Tally(plan.count, before=kept_since(store, job, plan.start))
    if tally.total >= plan.count:
        tally.status = "done"
        return tally
    fill_id = _start_fill(store, plan, workers)
    try:
        _run(store, plan, runner, fill_id, tally, progress)
    except KeyboardInterrupt:
        tally.status = "interrupted"
        raise
    except BaseException:
        tally.status = "failed"
        raise
    finally:
        runner.close()
        try:
            _update_fill(store, fill_id, tally)
        except sqlite3.Error:  # a full disk: the failure that stopped the fill is what counts
            if tally.status not in ("failed", "interrupted"):
                raise
    return tally


def _run(
    store: bank.Bank,
    plan: Plan,
    runner: Runner[list[Attempt]],
    fill_id: int,
    tally: Tally,
    progress: Callable[[Tally], None],
) -> None:
    needed = plan.count - tally.total
    chunk = plan.chunk or max(1, min(TASK_SEEDS, math.ceil(needed / (runner.workers * 8))))
    budget = plan.max_seeds or GIVE_UP_SEEDS[0] * needed + GIVE_UP_SEEDS[1]
    seeds = islice(untried_seeds(store, plan.job, plan.start), budget)
    writer = _Writer(store, plan, runner, fill_id, tally)
    progress(tally)
    while tally.total < plan.count and tally.status == "running":
        while writer.room() and writer.wants_more():
            batch = tuple(islice(seeds, chunk))
            if not batch:
                break
            writer.submit(batch)
        if writer.idle():
            tally.status = "gave up"
            return
        writer.receive(*runner.done())
        progress(tally)
    if tally.status == "running":
        tally.status = "done"


class _Writer:
    """The writer's book of ranges: submitted in seed order, finished in any order, stored
    in seed order as far as every seed before is final. A seed that the clock ended is
    submitted again, alone, and the ranges after it wait; after `CLOCK_TRIES` the fill
    stops before it (status `stopped`), so that no run leaves a gap."""

    def __init__(
        self,
        store: bank.Bank,
        plan: Plan,
        runner: Runner[list[Attempt]],
        fill_id: int,
        tally: Tally,
    ) -> None:
        self.store = store
        self.plan = plan
        self.runner = runner
        self.fill_id = fill_id
        self.tally = tally
        self.ranges: list[tuple[int, ...]] = []
        self.finished: dict[int, list[Attempt | None]] = {}
        self.tasks: dict[int, tuple[int, int]] = {}  # task -> (range, offset); -1: whole
        self.numbers = itertools.count()
        self.head = self.position = 0  # the next range and seed in it to store
        self.out = 0  # seeds in ranges not stored yet
        self.clock: dict[int, int] = {}  # seed -> attempts the clock ended

    def room(self) -> bool:
        return len(self.ranges) - self.head < self.runner.workers * IN_FLIGHT

    def wants_more(self) -> bool:
        tally = self.tally
        rate = tally.kept / tally.tried if tally.tried else 1.0
        return tally.total + self.out * max(rate, 0.05) < self.plan.count

    def idle(self) -> bool:
        return not self.tasks

    def submit(self, seeds: tuple[int, ...]) -> None:
        self._task(len(self.ranges), -1, seeds)
        self.ranges.append(seeds)
        self.finished[len(self.ranges) - 1] = [None] * len(seeds)
        self.out += len(seeds)

    def _task(self, index: int, offset: int, seeds: tuple[int, ...]) -> None:
        number = next(self.numbers)
        self.tasks[number] = (index, offset)
        self.runner.submit(number, seeds)

    def receive(self, task: int, attempts: list[Attempt]) -> None:
        index, offset = self.tasks.pop(task)
        slots = self.finished[index]
        if offset < 0:
            slots[:] = attempts
        else:
            slots[offset] = attempts[0]
        self._flush()

    def _flush(self) -> None:
        ready: list[Attempt] = []
        while self.head < len(self.ranges):
            slots = self.finished[self.head]
            while self.position < len(slots):
                attempt = slots[self.position]
                if attempt is None:  # not back yet (a range running, or a seed again)
                    break
                if not attempt.final:
                    slots[self.position] = None
                    self._again(attempt.seed)
                    break
                ready.append(attempt)
                self.position += 1
            if self.position < len(slots):
                break
            del self.finished[self.head]
            self.out -= len(self.ranges[self.head])
            self.head, self.position = self.head + 1, 0
        if ready or self.tally.status != "running":
            _store(self.store, self.plan, self.fill_id, ready, self.tally)

    def _again(self, seed: int) -> None:
        self.tally.retries += 1
        self.clock[seed] = self.clock.get(seed, 0) + 1
        if self.clock[seed] >= CLOCK_TRIES:
            self.tally.status = "stopped"
            self.tally.stopped_at = seed
            return
        self._task(self.head, self.position, (seed,))


def _store(
    store: bank.Bank, plan: Plan, fill_id: int, attempts: list[Attempt], tally: Tally
) -> None:
    """One batch, in seed order, in one transaction: its boards, the seeds it finished, and
    the fill's counts. Stops at the board that completes the plan; the seeds after it stay
    untried. The batch is counted in `tally` only once the transaction has committed: a
    batch that fails (a full disk) counts nothing, so the counts are those stored."""
    batch = copy.copy(tally)
    with store.transaction() as db:
        for attempt in attempts:
            if batch.total >= plan.count:
                break
            result, code = _keep(db, attempt, batch)
            db.execute(
                "INSERT OR IGNORE INTO tried (genre, width, height, asked, generator, seed, "
                "outcome, reason, code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*plan.job.fields, attempt.seed, str(result), attempt.reason, code),
            )
            batch.first = attempt.seed if batch.first is None else batch.first
            batch.last = attempt.seed
        _write_fill(db, fill_id, batch)
    for name in _COUNTED:
        setattr(tally, name, getattr(batch, name))


_COUNTED = ("kept", "duplicates", "misses", "checked", "unchecked", "first", "last")
"""What `_store` counts in a tally."""


def _keep(db: Any, attempt: Attempt, tally: Tally) -> tuple[Result, str]:
    record = attempt.record
    if record is None:
        tally.misses += 1
        return Result.MISS, ""
    held = bank.insert(db, record)
    if held is not None:
        tally.duplicates += 1
        return Result.DUPLICATE, held
    tally.kept += 1
    tally.checked += len(record.checks) > 1
    tally.unchecked += attempt.unchecked
    return Result.KEPT, record.code


def untried_seeds(store: bank.Bank, job: Job, start: int) -> Iterator[int]:
    """The seeds from `start` on that no fill of `job` has finished, in order."""
    low = start
    while True:
        with store.reading() as db:
            tried = {
                row[0]
                for row in db.execute(
                    "SELECT seed FROM tried WHERE genre = ? AND width = ? AND height = ? "
                    "AND asked = ? AND generator = ? AND seed >= ? AND seed < ?",
                    (*job.fields, low, low + _WINDOW),
                )
            }
        yield from (seed for seed in range(low, low + _WINDOW) if seed not in tried)
        low += _WINDOW


def kept_since(store: bank.Bank, job: Job, start: int) -> int:
    """How many boards fills of `job` kept from seeds `start` on."""
    with store.reading() as db:
        row = db.execute(
            "SELECT count(*) FROM tried WHERE genre = ? AND width = ? AND height = ? "
            "AND asked = ? AND generator = ? AND seed >= ? AND outcome = ?",
            (*job.fields, start, str(Result.KEPT)),
        ).fetchone()
    return int(row[0])


def _start_fill(store: bank.Bank, plan: Plan, workers: str) -> int:
    now = time.time()
    with store.transaction() as db:
        cursor = db.execute(
            "INSERT INTO fills (genre, width, height, asked, generator, seed_start, target, "
            "workers, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*plan.job.fields, plan.start, plan.count, workers, now, now),
        )
        return int(cursor.lastrowid or 0)


def _write_fill(db: Any, fill_id: int, tally: Tally) -> None:
    db.execute(
        "UPDATE fills SET updated_at = ?, seeds = ?, kept = ?, duplicates = ?, misses = ?, "
        "retries = ?, checked = ?, status = ? WHERE id = ?",
        (
            time.time(),
            tally.tried,
            tally.kept,
            tally.duplicates,
            tally.misses,
            tally.retries,
            tally.checked,
            tally.status,
            fill_id,
        ),
    )


def _update_fill(store: bank.Bank, fill_id: int, tally: Tally) -> None:
    with store.transaction() as db:
        _write_fill(db, fill_id, tally)
