"""A bank filled on a real Dask cluster: a scheduler and two workers started here, on
127.0.0.1, from the project's own environment (the `dask scheduler` and `dask worker`
commands the README gives), make row for row the bank of a single-process fill of the
same seeds, and go on to the same rows when a worker is lost mid-way."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import distributed  # noqa: F401  (the `cluster` extra, part of the dev install)
import pytest

from gridproof.bank import filler, runners
from gridproof.core.errors import CodeError
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

pytestmark = pytest.mark.cluster

READY_S = 60.0


@dataclass
class Cluster:
    folder: Path
    address: str = ""
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[IO[bytes]] = field(default_factory=list)

    def start(self, *command: str) -> subprocess.Popen[bytes]:
        log = (self.folder / f"process-{len(self.processes)}.log").open("wb")
        self.logs.append(log)
        process = subprocess.Popen(
            [sys.executable, "-m", "dask", *command],
            env=environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.folder,
        )
        self.processes.append(process)
        return process

    def worker(self) -> subprocess.Popen[bytes]:
        before = self.registered()
        process = self.start(
            "worker",
            self.address,
            "--nthreads",
            "1",
            "--no-nanny",
            "--no-dashboard",
            "--host",
            "127.0.0.1",
            "--memory-limit",
            "0",
            "--local-directory",
            str(self.folder / f"worker-{len(self.processes)}"),
        )
        self.wait(lambda: self.registered() > before, "a worker to register")
        return process

    def registered(self) -> int:
        log = (self.folder / "process-0.log").read_text(encoding="utf-8", errors="replace")
        return log.count("Register worker")

    def wait(self, ready: Any, what: str) -> None:
        deadline = time.monotonic() + READY_S
        while not ready():
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                logs = "\n".join(p.read_text()[-2000:] for p in self.folder.glob("*.log"))
                raise AssertionError(f"waited in vain for {what}:\n{logs}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Kill the cluster at once: it holds nothing worth a graceful close."""
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait(10)
        for log in self.logs:
            log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("dask")
    found = Cluster(folder)
    try:
        found.start(
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(folder / "scheduler.json"),
        )
        info = folder / "scheduler.json"
        found.wait(lambda: info.is_file() and info.stat().st_size > 0, "the scheduler")
        found.address = json.loads(info.read_text())["address"]
        assert found.address.startswith("tcp://127.0.0.1:")
        found.worker()
        found.worker()
        yield found
    finally:
        found.stop()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("single") / "bank.sqlite3"
    assert fill_here(path, count=COUNT, start=START).status == "done"
    return rows(path)


def test_two_dask_workers_make_the_bank_of_one_process(
    cluster: Cluster, tmp_path: Path, reference: dict[str, Any]
) -> None:
    path = tmp_path / "bank.sqlite3"
    command = fill_command(path, COUNT, "--seed-start", str(START), "--scheduler", cluster.address)
    done = subprocess.run(command, env=environment(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"dask {cluster.address} (2 threads)" in _workers(path)
    assert rows(path) == reference
    assert done.stderr == ""  # no progress bar when piped, no warnings


def test_a_lost_worker_loses_nothing(cluster: Cluster, tmp_path: Path) -> None:
    """A third worker joins, takes its share of the ranges, and is killed mid-way: the
    scheduler gives its ranges to the others, and the bank is the single-process one."""
    count = 30
    path, single = tmp_path / "bank.sqlite3", tmp_path / "single.sqlite3"
    doomed = cluster.worker()
    command = fill_command(path, count, "--chunk", "1", "--scheduler", cluster.address)
    fill = subprocess.Popen(command, env=environment(), stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + READY_S
    while stored(path) < 3 and fill.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert fill.poll() is None, "the fill ended before the worker could be lost"
    doomed.send_signal(signal.SIGKILL)
    _, err = fill.communicate(timeout=120)
    assert fill.returncode == 0, err
    assert doomed.wait(10) == -signal.SIGKILL
    fill_here(single, count=count, start=1, chunk=7)
    assert rows(path) == rows(single)


def test_an_unreachable_scheduler_is_named() -> None:
    with pytest.raises(
        CodeError, match=r"cannot reach the Dask scheduler at 'tcp://127\.0\.0\.1:9'"
    ):
        runners.DaskCluster(filler.Task(NONOGRAM), "127.0.0.1:9", timeout_s=0.5)


def _workers(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return str(db.execute("SELECT workers FROM fills").fetchone()[0])
