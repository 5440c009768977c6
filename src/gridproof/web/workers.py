"""Work the web app does off its event loop, stopped when nobody waits for it any more.

- `in_process`: one freshly spawned process per call (generation), killed as soon as the
  client disconnects or the hard time limit passes; at most `slots` run at once.
- `in_thread`: a short solver call in the thread pool under a `Deadline` that is cancelled
  when the client disconnects (the engine checks its deadline in every loop).
- `Filler`: the background process that keeps the bank's stock, at low priority; it dies
  with the server (a pipe from the server: its end closes when the server dies, however it
  dies), and one at most runs per bank file (a lock on a file beside it that the system
  releases when its holder dies).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import resource
import sqlite3
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from starlette.concurrency import run_in_threadpool

from gridproof.bank import Bank, Key, Record, fill, locks, make_record
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError, GridproofError

T = TypeVar("T")
POLL_SECONDS = 0.05
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["gridproof.bank", "gridproof.web.workers"])
"""Workers fork from a server process that has imported the engine once (a spawned
process would import it again, a second or more of a request's deadline on a busy
machine), and that never ran the web server's threads."""


def warm() -> None:
    """Start the fork server now (it imports the engine once), so that the first request
    that needs a worker does not pay for it out of its deadline."""
    forkserver.ensure_running()


class Gone(Exception):
    """The client went away before the work finished; the work was stopped."""


class WorkerFailed(Exception):
    """A worker process died or overran its hard limit without an answer."""


class Overran(WorkerFailed):
    """The caller's limit passed before the worker answered (or before a slot was free)."""


MEMORY_LIMIT = 1024 * 2**20
"""The address space a worker process may take (RLIMIT_AS): a board that needs more ends
the worker's call with a clear 503, never the machine's memory."""


def _child(conn: Connection, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """A worker's body: run `function(*args)` under the memory limit and send back what
    happened."""
    _limit_memory()
    reply: tuple[str, Any, Any]
    try:
        result = function(*args)
    except MemoryError:
        reply = ("memory", f"the work needs more than {MEMORY_LIMIT // 2**20} MB", None)
    except GenerationError as error:
        reply = ("generation", str(error), error.health)
    except GridproofError as error:
        reply = ("input", str(error), None)
    except Exception as error:  # a bug: report it rather than die silently
        reply = ("bug", f"{type(error).__name__}: {error}", None)
    else:
        reply = ("ok", result, None)
    try:
        conn.send(reply)
    except OSError:  # the server stopped waiting (a client gone, a limit passed): say nothing
        pass
    finally:
        conn.close()


class Processes:
    """At most `slots` worker processes at once, each killed when its caller is gone."""

    def __init__(self, slots: int) -> None:
        self.slots = asyncio.Semaphore(max(1, slots))
        self.running: set[BaseProcess] = set()
        self._reapers: set[asyncio.Task[None]] = set()

    async def run(
        self,
        function: Callable[..., T],
        args: tuple[Any, ...] | Callable[[], tuple[Any, ...]],
        limit_s: float,
        gone: Callable[[], Awaitable[bool]],
        grace_s: float = 0.0,
    ) -> T:
        """`function(*args)` in a new process; `Gone` if `gone()` turns true first (the
        process is killed), `WorkerFailed` if it dies, `Overran` if no answer came within
        `limit_s` seconds from this call: the wait for a free slot counts, and the caller
        hears by then. A worker still running then has `grace_s` more to end on its own,
        in the background (its slot stays taken), and is killed after. `args` may be a
        function, called once a slot is free (to hand the worker what remains of its
        caller's deadline then). A `GenerationError` or `GridproofError` raised in the
        worker is raised here."""
        end = time.monotonic() + limit_s
        await self._slot(end, gone)
        handed = False
        try:
            if await gone():
                raise Gone()
            left = end - time.monotonic()
            if left <= 0:
                raise Overran("every worker was busy for the whole deadline; try again")
            if callable(args):
                args = args()
            receiver, sender = _CONTEXT.Pipe(duplex=False)
            process = _CONTEXT.Process(target=_child, args=(sender, function, args), daemon=True)
            process.start()
            sender.close()
            self.running.add(process)
            try:
                return await self._wait(process, receiver, left, gone)  # type: ignore[no-any-return]
            except Overran:
                if grace_s > 0 and process.is_alive():
                    handed = True  # the reaper ends the process and frees the slot
                    reaper = asyncio.ensure_future(self._reap(process, receiver, grace_s))
                    self._reapers.add(reaper)
                    reaper.add_done_callback(self._reapers.discard)
                raise
            finally:
                if not handed:
                    self.running.discard(process)
                    receiver.close()
                    _stop(process)
        finally:
            if not handed:
                self.slots.release()

    async def _slot(self, end: float, gone: Callable[[], Awaitable[bool]]) -> None:
        """Take a slot, waiting at most until `end` (`Overran`) or until `gone()`."""
        while True:
            try:
                await asyncio.wait_for(
                    self.slots.acquire(), max(0.0, min(POLL_SECONDS * 2, end - time.monotonic()))
                )
                return
            except TimeoutError:
                if time.monotonic() >= end:
                    raise Overran(
                        "every worker was busy for the whole deadline; try again"
                    ) from None
                if await gone():
                    raise Gone() from None

    async def _reap(self, process: BaseProcess, receiver: Connection, grace_s: float) -> None:
        """Give an overrun worker `grace_s` to end on its own, then kill it; free its slot."""
        try:
            end = time.monotonic() + grace_s
            while process.is_alive() and time.monotonic() < end:
                await asyncio.sleep(POLL_SECONDS)
        finally:
            self.running.discard(process)
            receiver.close()
            _stop(process)
            self.slots.release()

    async def _wait(
        self,
        process: BaseProcess,
        receiver: Connection,
        limit_s: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> Any:
        end = time.monotonic() + limit_s
        while True:
            if receiver.poll():
                try:
                    kind, value, health = receiver.recv()
                except EOFError:
                    raise WorkerFailed("the worker process ended without an answer") from None
                return _unpack(kind, value, health)
            if not process.is_alive() and not receiver.poll():
                raise WorkerFailed(f"the worker process died (exit code {process.exitcode})")
            if time.monotonic() > end:
                raise Overran(f"the worker ran past its limit of {limit_s:.3g} s")
            if await gone():
                raise Gone()
            await asyncio.sleep(POLL_SECONDS)

    def kill_all(self) -> None:
        for reaper in list(self._reapers):
            reaper.cancel()
        for process in list(self.running):
            _stop(process)
        self.running.clear()


def _limit_memory() -> None:
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):  # a platform without the limit: the algorithms' caps remain
        pass


def _unpack(kind: str, value: Any, health: Any) -> Any:
    if kind == "ok":
        return value
    if kind == "generation":
        raise GenerationError(value, health or {})
    if kind == "input":
        raise GridproofError(value)
    if kind == "memory":
        raise WorkerFailed(value)
    raise WorkerFailed(value)


def _stop(process: BaseProcess) -> None:
    if process.is_alive():
        process.kill()
    process.join(timeout=2)


LONG_CALLS = 4
"""Threads the long calls (the workshop's, up to 30 s each) may hold at once: they wait for
one of these, never for the pool the quick routes use (45 long calls at once made every
other route wait 9.7 s)."""
_long: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
    weakref.WeakKeyDictionary()
)


def long_calls() -> anyio.CapacityLimiter:
    """The limiter of the long calls' threads, one per event loop (the tests run several)."""
    loop = asyncio.get_running_loop()
    if loop not in _long:
        _long[loop] = anyio.CapacityLimiter(LONG_CALLS)
    return _long[loop]


async def in_thread(
    work: Callable[[Deadline], T],
    seconds: float,
    gone: Callable[[], Awaitable[bool]],
    *,
    long: bool = False,
) -> T:
    """`work(deadline)` in the thread pool (`long`: one of the `LONG_CALLS` threads); the
    deadline is `seconds` long from now, waiting for a thread included, and is cancelled
    if `gone()` turns true meanwhile, so the engine stops promptly."""
    deadline = Deadline(seconds)
    if long:
        limiter = long_calls()
        task = asyncio.ensure_future(anyio.to_thread.run_sync(work, deadline, limiter=limiter))
    else:
        task = asyncio.ensure_future(run_in_threadpool(work, deadline))
    while not task.done():
        await asyncio.wait({task}, timeout=POLL_SECONDS * 2)
        if not task.done() and not deadline.expired() and await gone():
            deadline.cancel()
    return task.result()


def record_until(key: Key, seed: int, end: float, options: dict[str, Any] | None = None) -> Record:
    """`bank.make_record` in a worker, with its budget ending at `end` on the monotonic
    clock (one clock for every process of the machine): starting the process takes time,
    and that time comes out of the caller's deadline, not on top of it."""
    left = max(0.01, end - time.monotonic())
    return make_record(key, seed, left, options=options)


FILL_NICE = 10
"""How much lower than the server's the filler's priority is (`os.nice`)."""
TOP_UP_S = 60.0
"""How long a filler with every key stocked waits before it looks again, unless a board is
served before (the server says so)."""
LOCK_RETRY_S = 1.0
"""How often a filler waiting for another's lock tries again."""


class Filler:
    """The background process that keeps the bank's stock (see `bank.fill`): it fills
    at start-up, then again whenever the server says boards were served (`nudge`), and
    every `TOP_UP_S`. Several server processes on one bank each start one; the first to
    lock `<bank>.fill-lock` fills, the others wait for the lock (taking over if the holder
    dies). Each dies with its server: it watches a pipe whose other end only the server
    holds, and ends itself at once when that end closes (a server killed with SIGKILL
    included), whatever it was doing: every write is one transaction, so the bank keeps
    whole rows and exact counts."""

    def __init__(
        self,
        path: str,
        plan: Sequence[Key],
        target: int | Callable[[Key], int],
        generate_s: float,
    ) -> None:
        self.lock_path = f"{path}.fill-lock"
        self.active = _CONTEXT.Event()
        self.watch, self.server_end = _CONTEXT.Pipe(duplex=False)
        self.process: BaseProcess = _CONTEXT.Process(
            target=keep_stocked,
            args=(path, list(plan), target, generate_s, self.watch, self.active),
            daemon=True,
            name="gridproof-bank-filler",
        )

    def start(self) -> None:
        self.process.start()
        self.watch.close()  # the filler's end: the server keeps only its own

    @property
    def running(self) -> bool:
        """Whether the filler is filling now (not waiting for a lock or for work)."""
        return self.process.is_alive() and self.active.is_set()

    def nudge(self) -> None:
        """Tell the filler a board was served (it tops the stock up). Never blocks for
        long: the filler reads every message at once."""
        with contextlib.suppress(OSError, ValueError):
            self.server_end.send_bytes(b"served")

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.server_end.close()
        if self.process.pid is not None:
            _stop(self.process)


def keep_stocked(
    path: str,
    plan: Sequence[Key],
    target: int | Callable[[Key], int],
    generate_s: float,
    server: Connection,
    active: Any,
) -> None:
    """The filler's process body (see `Filler`)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(FILL_NICE)
    wake = threading.Event()
    threading.Thread(target=_watch, args=(server, wake), daemon=True).start()
    lock = locks.take(f"{path}.fill-lock")
    while lock is None:
        time.sleep(LOCK_RETRY_S)
        lock = locks.take(f"{path}.fill-lock")
    try:
        store = Bank(path)
        while True:
            active.set()
            wake.clear()
            try:
                fill(store, plan, target, generate_s=generate_s)
            except sqlite3.Error as error:  # a bank busy past its timeout: try again later
                logging.getLogger("gridproof.web").warning("the filler paused: %s", error)
            active.clear()
            wake.wait(TOP_UP_S)
    except KeyboardInterrupt:  # the server is stopping
        return


def _watch(server: Connection, wake: threading.Event) -> None:
    """Wake the filler for each message of the server; end the process when the server's
    end of the pipe closes (the server is gone)."""
    try:
        while True:
            server.recv_bytes()
            wake.set()
    except (EOFError, OSError):
        os._exit(0)


def lock_holder(bank_path: str) -> int | None:
    """The process id the filler lock of `bank_path` names, if any (for tests and people)."""
    return locks.holder(f"{bank_path}.fill-lock")
