"""Where the work of a bulk fill runs: here, in a pool of local processes, or on a Dask
cluster. Each runner takes numbered ranges of seeds and gives back the task's result for
each range, in whatever order the ranges finish; the caller puts them in order.

A task is plain data with a `__call__` (see `gridproof.bank.filler.Task`), so that a spawned
process or a Dask worker, which has gridproof installed, can run it. Dask is imported only
when a `DaskCluster` is made, so `import gridproof` stays light.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, Protocol, TypeVar

from gridproof.core.errors import CodeError, quote

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
Task = Callable[[tuple[int, ...]], R]
"""What a runner runs on each range of seeds."""
MAX_POOL_RESTARTS = 3
"""How many times a local pool whose worker died is started again before the fill stops."""
_WATCH_S = 0.5
"""How often a pool worker checks that the writer is still there."""


class Runner(Protocol[R_co]):
    """Runs a task somewhere: `submit` a numbered range of seeds, `done` blocks until some
    range is finished and returns its number and the task's result, in any order."""

    workers: int

    def submit(self, index: int, seeds: tuple[int, ...]) -> None: ...

    def done(self) -> tuple[int, R_co]: ...

    def close(self) -> None: ...


class InProcess(Generic[R]):
    """Runs each range here, when the writer asks for it (`--jobs 1`)."""

    def __init__(self, task: Task[R]) -> None:
        self.workers = 1
        self._task = task
        self._queue: deque[tuple[int, tuple[int, ...]]] = deque()

    def submit(self, index: int, seeds: tuple[int, ...]) -> None:
        self._queue.append((index, seeds))

    def done(self) -> tuple[int, R]:
        index, seeds = self._queue.popleft()
        return index, self._task(seeds)

    def close(self) -> None:
        self._queue.clear()


def _start_worker(writer: int) -> None:
    """A pool worker leaves Ctrl+C to the writer, which stops the pool itself, and ends
    when the writer is gone (killed with SIGKILL, say), rather than wait for work forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == writer:
            time.sleep(_WATCH_S)
        os._exit(1)

    threading.Thread(target=watch, name="gridproof-writer-watch", daemon=True).start()


class LocalPool(Generic[R]):
    """A pool of `jobs` fresh processes (spawned, not forked) on this machine. A worker that
    dies breaks the pool: a new pool takes over the unfinished ranges."""

    def __init__(self, task: Task[R], jobs: int) -> None:
        self.workers = jobs
        self._task = task
        self._pool = self._start()
        self._futures: dict[Future[R], tuple[int, tuple[int, ...]]] = {}
        self._restarts = 0

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )

    def submit(self, index: int, seeds: tuple[int, ...]) -> None:
        self._futures[self._pool.submit(self._task, seeds)] = (index, seeds)

    def done(self) -> tuple[int, R]:
        while True:
            finished, _ = wait(self._futures, return_when=FIRST_COMPLETED)
            future = min(finished, key=lambda each: self._futures[each][0])
            index, _ = self._futures[future]
            try:
                result = future.result()
            except BrokenProcessPool:
                self._restart()
                continue
            del self._futures[future]
            return index, result

    def _restart(self) -> None:
        self._restarts += 1
        if self._restarts > MAX_POOL_RESTARTS:
            raise RuntimeError(f"the local pool's workers died {self._restarts} times")
        unfinished = sorted(self._futures.values())
        self._kill()
        self._pool = self._start()
        self._futures = {}
        for index, seeds in unfinished:
            self.submit(index, seeds)

    def _kill(self) -> None:
        """Stop the pool now: ranges still running are abandoned (their seeds stay untried)."""
        # The executor keeps its processes private; without them shutdown would wait for
        # every running range to finish.
        workers = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(5)

    def close(self) -> None:
        self._kill()


class DaskCluster(Generic[R]):
    """The workers of a Dask distributed scheduler at `address`. The scheduler hands the
    ranges of a lost worker to the others."""

    def __init__(self, task: Task[R], address: str, timeout_s: float = 10.0) -> None:
        try:  # untyped, and only for this runner: imported here, as a plain module
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise CodeError(
                "--scheduler needs dask.distributed: pip install 'gridproof[cluster]'"
            ) from None
        self.address = address if "://" in address else f"tcp://{address}"
        try:
            self._client = distributed.Client(self.address, timeout=timeout_s)
        except (OSError, TimeoutError) as error:
            raise CodeError(
                f"cannot reach the Dask scheduler at {quote(self.address)}: {error}"
            ) from None
        self.workers = max(1, sum(self._client.nthreads().values()))
        self._task = task
        self._done = distributed.as_completed()
        self._futures: dict[Any, tuple[int, Any]] = {}

    def submit(self, index: int, seeds: tuple[int, ...]) -> None:
        future = self._client.submit(self._task, seeds, pure=False, retries=2)
        self._futures[future.key] = (index, future)
        self._done.add(future)

    def done(self) -> tuple[int, R]:
        future = next(self._done)
        index, _ = self._futures.pop(future.key)
        result: R = future.result()
        return index, result

    def close(self) -> None:
        for _, future in self._futures.values():
            future.cancel()
        self._futures.clear()
        self._client.close()
