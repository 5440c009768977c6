"""Work off the event loop stops when nobody waits for it: worker processes are killed when
the client is gone or overruns, thread work has its deadline cancelled."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
import warnings
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from gridproof.bank import locks
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.web import app as web
from gridproof.web import models, workers
from tests.web.conftest import LiveServer

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
    from fastapi.testclient import TestClient

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: the browser tests' Playwright session keeps an
    event loop running in the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def sleep_and_report(path: str, seconds: float) -> str:
    """A worker body: write this process's id to `path`, then sleep."""
    Path(path).write_text(str(os.getpid()))
    time.sleep(seconds)
    return "finished"


def fail_to_generate() -> None:
    raise GenerationError("no board in time", {"attempts": 3})


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def gone_once(started: Path) -> Callable[[], Awaitable[bool]]:
    """The client leaves once the worker has started (it wrote `started`), however long
    starting took on a busy machine."""

    async def gone() -> bool:
        return started.exists()

    return gone


def gone_after(seconds: float) -> Callable[[], Awaitable[bool]]:
    start = time.monotonic()

    async def gone() -> bool:
        return time.monotonic() - start > seconds

    return gone


async def never_gone() -> bool:
    return False


def test_a_worker_returns_its_result() -> None:
    async def main() -> str:
        return await workers.Processes(1).run(str.upper, ("board",), 30, never_gone)

    assert run(main()) == "BOARD"


def test_a_worker_is_killed_when_the_client_is_gone(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    processes = workers.Processes(2)

    async def main() -> None:
        with pytest.raises(workers.Gone):
            await processes.run(sleep_and_report, (str(pid_file), 60), 120, gone_once(pid_file))

    started = time.monotonic()
    run(main())
    assert time.monotonic() - started < 10
    assert not alive(int(pid_file.read_text()))
    assert not processes.running


def test_a_worker_that_overruns_is_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"

    async def main() -> None:
        with pytest.raises(workers.WorkerFailed, match=r"limit of 5 s"):
            await workers.Processes(1).run(sleep_and_report, (str(pid_file), 60), 5, never_gone)

    run(main())
    assert not alive(int(pid_file.read_text()))


def test_a_generation_error_in_a_worker_keeps_its_health() -> None:
    async def main() -> None:
        await workers.Processes(1).run(fail_to_generate, (), 30, never_gone)

    with pytest.raises(GenerationError, match="no board in time") as caught:
        run(main())
    assert caught.value.health == {"attempts": 3}


def test_an_overrun_worker_is_answered_on_time_and_killed_after_its_grace(tmp_path: Path) -> None:
    """The caller hears `Overran` at its limit while the worker is still in its grace (it
    sleeps 60 s: the answer did not wait for it to end or be killed); the worker is killed
    in the background once the grace has passed, and its slot is free again."""
    pid_file = tmp_path / "pid"
    processes = workers.Processes(1)

    async def main() -> tuple[bool, bool]:
        with pytest.raises(workers.Overran, match=r"limit of"):
            await processes.run(
                sleep_and_report, (str(pid_file), 60), 3, gone_once_written(pid_file), 2.0
            )
        in_grace = alive(int(pid_file.read_text())) and bool(processes.running)
        end = time.monotonic() + 60  # generous: a starved machine reaps late, never early
        while processes.running and time.monotonic() < end:
            await asyncio.sleep(0.05)
        return in_grace, processes.slots.locked()

    in_grace, slot_taken = run(main())
    assert in_grace, "the answer waited for the worker's grace"
    assert not alive(int(pid_file.read_text()))
    assert not slot_taken


def gone_once_written(path: Path) -> Callable[[], Awaitable[bool]]:
    """Never gone; but once the worker is started (every call after the first, which comes
    before the start), the wait lasts until it wrote `path` (at most 60 s), so the limit
    passes with the worker running however long starting took on a busy machine."""
    calls: list[int] = []

    async def gone() -> bool:
        calls.append(1)
        end = time.monotonic() + 60
        while len(calls) > 1 and not path.exists() and time.monotonic() < end:
            await asyncio.sleep(0.05)
        return False

    return gone


def test_a_call_queued_behind_a_busy_worker_is_answered_at_its_limit(tmp_path: Path) -> None:
    """With the only slot taken by a 60-s worker, a second call is told `Overran` at its
    own limit (1 s), not when the slot frees up."""
    pid_file = tmp_path / "pid"
    processes = workers.Processes(1)

    async def main() -> bool:
        first = asyncio.ensure_future(
            processes.run(sleep_and_report, (str(pid_file), 60), 120, never_gone)
        )
        while not pid_file.exists():
            await asyncio.sleep(0.05)
        with pytest.raises(workers.Overran, match="every worker was busy"):
            await processes.run(str.upper, ("board",), 1, never_gone)
        holder_alive = alive(int(pid_file.read_text()))
        first.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await first
        return holder_alive

    assert run(main()), "the queued call waited for the busy worker"
    assert not alive(int(pid_file.read_text()))


def test_a_new_game_past_its_deadline_is_a_503_with_health(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/api/new` turns a worker that overran the request's deadline into the generator's
    503 (with a health record), at once (an empty bank: no board seen before to give)."""
    monkeypatch.setenv("GRIDPROOF_DB", str(tmp_path / "empty.sqlite3"))
    monkeypatch.setenv("GRIDPROOF_FILL", "0")

    async def overran(*args: Any, **kwargs: Any) -> Any:
        assert kwargs["grace_s"] == models.KILL_GRACE_S
        limit_s = args[3]  # (self, function, args, limit_s, gone)
        assert limit_s <= 3.0  # the request's deadline, no grace on top
        raise workers.Overran("the worker ran past its limit of 3 s")

    monkeypatch.setattr(workers.Processes, "run", overran)
    with TestClient(web.app) as client:
        body = {"genre": "norinori", "size": "5x5", "seed": 7, "deadline_s": 3}
        reply = client.post("/api/new", json=body)
    assert reply.status_code == 503
    assert "no board was proven within the deadline" in reply.json()["error"]
    assert set(reply.json()["health"]) >= {"attempts", "milliseconds"}


def test_thread_work_has_its_deadline_cancelled_when_the_client_is_gone() -> None:
    def work(deadline: Deadline) -> float:
        start = time.monotonic()
        while not deadline.expired():
            time.sleep(0.01)
        return time.monotonic() - start

    waited = run(workers.in_thread(work, 60, gone_after(0.3)))
    assert waited < 5


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except FileNotFoundError:
            continue
    return found


def spawned_workers(pid: int) -> list[int]:
    """The worker processes of server process `pid`: the children of its multiprocessing
    fork server (a child of the server)."""
    found = []
    for child in _children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except FileNotFoundError:
            continue
        if b"forkserver" in command:
            found += _children(child)
    return found


def test_the_real_server_kills_generation_when_the_client_disconnects(
    live_server: LiveServer,
) -> None:
    """A request for a board that takes long is abandoned by its client; the server's
    worker process must be gone soon after.

    The request is for seed 1 of an expert 20×20 Nonogram, which takes many seconds to
    steer to (hard boards of any genre now come back within a few seconds, before the
    client gives up)."""
    if not Path("/proc/self/task").is_dir():
        pytest.skip("counting worker processes needs Linux /proc")
    body = {
        "genre": "nonogram",
        "size": "20x20",
        "difficulty": "expert",
        "seed": 1,
        "deadline_s": 60,
    }
    outcome: list[BaseException] = []

    def impatient_client() -> None:
        try:
            httpx.post(f"{live_server.url}/api/new", json=body, timeout=3)
        except httpx.ReadTimeout as error:
            outcome.append(error)

    client = threading.Thread(target=impatient_client)
    client.start()
    seen: list[int] = []
    end = time.monotonic() + 3
    while not seen and time.monotonic() < end:
        seen = spawned_workers(live_server.pid)
        time.sleep(0.05)
    client.join()
    assert seen, "no worker process was started"
    assert outcome, "the request should have timed out on the client: ask for a slower board"
    end = time.monotonic() + 10
    while any(alive(pid) for pid in seen) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in seen)
    assert spawned_workers(live_server.pid) == []


def test_the_filler_lock_is_held_by_one_process_and_released_with_it(tmp_path: Path) -> None:
    path = str(tmp_path / "bank.sqlite3.fill-lock")
    first = locks.take(path)
    assert first is not None
    assert first >= 0
    assert workers.lock_holder(str(tmp_path / "bank.sqlite3")) == os.getpid()
    # the lock is per open file: another handle, as another process would take, waits
    assert locks.take(path) is None
    os.close(first)  # what the system does when the holder dies
    second = locks.take(path)
    assert second is not None
    os.close(second)


def allocate_too_much() -> int:
    return len(bytearray(4 * workers.MEMORY_LIMIT))


def test_a_worker_that_needs_too_much_memory_fails_clearly() -> None:
    async def main() -> None:
        with pytest.raises(workers.WorkerFailed, match="needs more than 1024 MB"):
            await workers.Processes(1).run(allocate_too_much, (), 60, never_gone)

    run(main())


def test_a_worker_whose_server_stopped_waiting_ends_quietly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: a worker answering a server that closed its end (a client gone, a limit
    passed) printed a BrokenPipe traceback; it ends without a word."""
    import multiprocessing

    monkeypatch.setattr(workers, "_limit_memory", lambda: None)  # not on the test process
    receiver, sender = multiprocessing.Pipe(duplex=False)
    receiver.close()
    workers._child(sender, lambda: "an answer nobody reads", ())
