"""The background filler: it keeps a stock of unserved boards per key and tops it up when
boards are served, one filler per bank file (a lock the system releases when its holder
dies), and it dies with its server, a server killed with SIGKILL included."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from gridproof import bank, service
from gridproof.web import workers
from tests.servers import serving

KEY = bank.Key("norinori", 5, 5, "easy")
WAIT_S = 90.0
"""How long a test waits for a filler (a starved machine may be slow; nothing is timed)."""


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state not in ("Z", "X")


def wait_for(condition: Callable[[], bool], seconds: float = WAIT_S) -> bool:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True


def holder(path: Path) -> int | None:
    pid = workers.lock_holder(str(path))
    return pid if pid is not None and alive(pid) else None


def test_the_filler_keeps_the_stock_and_tops_it_up_when_a_board_is_served(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bank.sqlite3"
    store = bank.Bank(path)
    filler = workers.Filler(str(path), [KEY], 2, 20.0)
    filler.start()
    try:
        assert wait_for(lambda: store.stock().get(KEY, 0) == 2)
        assert wait_for(lambda: not filler.running)  # stocked: it waits
        served = store.pick(KEY)
        assert served is not None
        assert store.stock()[KEY] == 1
        filler.nudge()
        assert wait_for(lambda: store.stock().get(KEY, 0) == 2)
        assert store.counts()[KEY] == 3  # the served board is kept, not counted in stock
    finally:
        filler.stop()
    assert not filler.process.is_alive()


def test_one_filler_per_bank_file_and_the_next_takes_over_when_it_dies(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite3"
    bank.Bank(path)
    first = workers.Filler(str(path), [KEY], 1, 20.0)
    second = workers.Filler(str(path), [KEY], 1, 20.0)
    first.start()
    try:
        assert wait_for(lambda: holder(path) == first.process.pid)
        second.start()
        time.sleep(3 * workers.LOCK_RETRY_S)
        assert holder(path) == first.process.pid  # the second waits for the lock
        assert second.process.is_alive()
        assert first.process.pid is not None
        os.kill(first.process.pid, signal.SIGKILL)  # the holder dies: the lock is free
        assert wait_for(lambda: holder(path) == second.process.pid)
    finally:
        first.stop()
        second.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_filler_dies_with_a_killed_server_and_a_restart_runs_one(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite3"
    env = {**os.environ, "GRIDPROOF_DB": str(path), "GRIDPROOF_FILL": "1"}
    command = [sys.executable, "-m", "gridproof", "serve", "--host", "127.0.0.1", "--db", str(path)]
    with serving(command, env, start_s=WAIT_S) as (_, server):
        assert wait_for(lambda: holder(path) is not None)
        filler = holder(path)
        assert filler is not None
        server.send_signal(signal.SIGKILL)
        server.wait()
        assert wait_for(lambda: not alive(filler), 20.0), "the filler outlived its server"
    boards = bank.Bank(path).counts()
    time.sleep(2)
    assert bank.Bank(path).counts() == boards  # nobody writes on
    with serving(command, env, start_s=WAIT_S) as (_, server):
        assert wait_for(lambda: holder(path) is not None)
        fillers = [
            pid
            for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
            if alive(pid) and b"gridproof-bank-filler" in _command(pid) + _name(pid)
        ]
        assert holder(path) != filler
        assert len(fillers) <= 1


def _command(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _name(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/comm").read_bytes()
    except OSError:
        return b""


def _descendants(root: int) -> set[int]:
    """The live processes under `root` (by the parent ids in /proc)."""
    parents: dict[int, int] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            parents[int(entry)] = int(
                Path(f"/proc/{entry}/stat").read_text().rsplit(")")[1].split()[1]
            )
        except (OSError, IndexError, ValueError):
            continue
    found: set[int] = set()
    todo = [root]
    while todo:
        pid = todo.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        found.update(children)
        todo += children
    return {pid for pid in found if alive(pid)}


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_with_two_processes_answers_and_runs_one_filler(tmp_path: Path) -> None:
    """`serve --workers 2`: two server processes on one port and one bank; each starts a
    filler, and the one holding the bank's lock is one of them (the other waits); hints
    from many clients at once are answered; stopping the server ends every process it
    started (fillers and generation workers included)."""
    path = tmp_path / "bank.sqlite3"
    env = {**os.environ, "GRIDPROOF_DB": str(path), "GRIDPROOF_FILL": "1"}
    env["GRIDPROOF_FILL_MAX_SIDE"] = "5"
    command = [sys.executable, "-m", "gridproof", "serve", "--host", "127.0.0.1"]
    command += ["--db", str(path), "--workers", "2"]
    code = service.generate("norinori", 5, 5, 1, deadline=60).code
    with serving(command, env, start_s=WAIT_S) as (base, server):
        assert wait_for(lambda: holder(path) is not None)
        started = _descendants(server.pid)
        servers = [pid for pid in started if b"spawn_main" in _command(pid)]
        assert len(servers) == 2, "two server processes"
        assert holder(path) in started

        async def hints() -> list[int]:
            body = {"code": code, "marks": ["....."] * 5}
            async with httpx.AsyncClient(base_url=base, timeout=WAIT_S) as client:
                replies = await asyncio.gather(
                    *(client.post("/api/hint", json=body) for _ in range(24))
                )
            return [reply.status_code for reply in replies]

        assert asyncio.run(hints()) == [200] * 24
        every = _descendants(server.pid)
    assert wait_for(lambda: not any(alive(pid) for pid in every), 30.0), "a process outlived serve"
