"""The real server under load: hints from many clients at once, new games meanwhile, and
how long the server leaves a tiny request waiting.

    nice -n 10 .venv/bin/python benchmarks/load.py [--clients 1,8,32] [--seconds 10]
        [--size 15] [--genres norinori,nonogram,nondango] [--no-fill] [--new-every 0.5]
        [--workers 1,2]

`python -m gridproof serve --workers N` (uvicorn, N server processes) runs on a free port
and a temporary bank, filling it in the background unless `--no-fill`, once per number of
`--workers`. For each genre, a 15x15 board is generated here first and hinted once (so the
server has counted its answer); then, for each number of clients, that many concurrent
clients ask `POST /api/hint` with the board's code and empty marks, each again as soon as
it has its answer, for `--seconds`. The hint clients are plain asyncio sockets speaking
HTTP/1.1 with keep-alive (about 0.2 ms of CPU a request): httpx took 4 to 8 ms of CPU a
request, more than the server, and on a 2-core machine the benchmark measured itself.
Meanwhile one client (httpx) asks `POST /api/new` for a small board of the genre every
`--new-every` seconds, and a probe in its own process sends `GET /api/genres` every 20 ms:
its worst latency is the event loop's worst stall as a user would feel it.

Printed per number of server processes, genre and number of clients: hints answered,
throughput, p50/p95/p99/max latency, errors (any status but 200, or a transport error),
new games (count, p50, max, errors; a 503 "not proven in time" counts as an error), the
probe's p50/p99/max, and the CPU seconds the server (its processes, the generation workers
and the filler included) and this benchmark's clients used during the row: on a shared
machine, a row whose CPU is far below its wall time times the cores was starved by
others. Times are wall-clock. A benchmark: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import httpx

from gridproof import service
from gridproof.core.errors import GridproofError
from gridproof.core.registry import genres

PROBE_EVERY_S = 0.02


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class Server:
    """`python -m gridproof serve` on a free loopback port and a temporary bank."""

    def __init__(self, fill: bool, workers: int = 1) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="gridproof-load-"))
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        bank = self.root / "bank.sqlite3"
        env = {**os.environ, "GRIDPROOF_DB": str(bank), "GRIDPROOF_FILL": "1" if fill else "0"}
        command = [sys.executable, "-m", "gridproof", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--db", str(bank), "--workers", str(workers)]
        command += [] if fill else ["--no-fill"]
        self.port = port
        self.log = (self.root / "server.log").open("wb")
        self.process = subprocess.Popen(command, env=env, stdout=self.log, stderr=self.log)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                if httpx.get(f"{self.url}/api/genres", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 60 s")

    def cpu_seconds(self) -> float:
        """CPU time so far of the server's processes and of the children they reaped (Linux
        /proc; NaN elsewhere)."""
        return tree_cpu(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)


def tree_cpu(root: int) -> float:
    """The CPU seconds of process `root` and its live descendants, each with its reaped
    children (`/proc/PID/stat`: utime, stime, cutime, cstime); NaN without /proc."""
    try:
        tick = os.sysconf("SC_CLK_TCK")
        stats: dict[int, tuple[int, float]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            stats[int(entry)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / tick)
    except (OSError, ValueError, AttributeError):
        return float("nan")
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats.get(pid, (0, 0.0))[1]
        todo += [child for child, (parent, _) in stats.items() if parent == pid]
    return total


def client_cpu() -> float:
    """CPU seconds of this process and its reaped children (the probe)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _probe(url: str, seconds: float, conn: Connection) -> None:
    """In its own process: GET /api/genres every 20 ms for `seconds`; send the latencies."""
    latencies: list[float] = []
    errors = 0
    end = time.monotonic() + seconds
    with httpx.Client(base_url=url, timeout=60) as client:
        while time.monotonic() < end:
            start = time.perf_counter()
            try:
                ok = client.get("/api/genres").status_code == 200
            except httpx.HTTPError:
                ok = False
            latencies.append(time.perf_counter() - start)
            errors += not ok
            time.sleep(PROBE_EVERY_S)
    conn.send((latencies, errors))
    conn.close()


@dataclass
class Phase:
    genre: str
    clients: int
    seconds: float = 0.0
    hints: list[float] = field(default_factory=list)
    errors: int = 0
    news: list[float] = field(default_factory=list)
    new_errors: int = 0
    probe: list[float] = field(default_factory=list)
    probe_errors: int = 0
    workers: int = 1
    server_cpu: float = float("nan")
    client_cpu: float = float("nan")

    def row(self) -> str:
        ms = [1000 * v for v in self.hints]
        new_ms = [1000 * v for v in self.news]
        probe_ms = [1000 * v for v in self.probe]
        rate = len(ms) / self.seconds if self.seconds else 0.0
        return (
            f"| {self.workers} | {self.genre} | {self.clients} | {len(ms)} | {rate:.0f} "
            f"| {percentile(ms, 0.5):.0f} | {percentile(ms, 0.95):.0f} "
            f"| {percentile(ms, 0.99):.0f} | {max(ms, default=float('nan')):.0f} | {self.errors} "
            f"| {len(new_ms)} | {percentile(new_ms, 0.5):.0f} | {max(new_ms, default=0):.0f} "
            f"| {self.new_errors} | {percentile(probe_ms, 0.5):.0f} "
            f"| {percentile(probe_ms, 0.99):.0f} | {max(probe_ms, default=float('nan')):.0f} "
            f"| {self.server_cpu:.1f} | {self.client_cpu:.1f} |"
        )


HEAD = (
    "| server processes | genre | clients | hints | hints/s | p50 ms | p95 ms | p99 ms "
    "| max ms | errors | new games | new p50 ms | new max ms | new errors | probe p50 ms "
    "| probe p99 ms | worst stall ms | server CPU s | client CPU s |\n"
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
    "|---:|---:|"
)


async def _hinter(port: int, body: dict[str, object], end: float, p: Phase) -> None:
    """One client: `POST /api/hint` on one keep-alive connection, again and again until
    `end` (a new connection after a transport error)."""
    payload = json.dumps(body).encode()
    request = (
        f"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
    ).encode() + payload
    writer: asyncio.StreamWriter | None = None
    while time.monotonic() < end:
        start = time.perf_counter()
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            ok = head[9:12] == b"200"
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            ok = False
            if writer is not None:
                writer.close()
            writer = None
        if ok:
            p.hints.append(time.perf_counter() - start)
        else:
            p.errors += 1
    if writer is not None:
        writer.close()


async def _new_games(
    client: httpx.AsyncClient, genre: str, sizes: list[str], end: float, every: float, p: Phase
) -> None:
    turn = 0
    while time.monotonic() < end:
        size = sizes[turn % len(sizes)]
        turn += 1
        start = time.perf_counter()
        try:
            body = {"genre": genre, "size": size, "deadline_s": 10.0}
            response = await client.post("/api/new", json=body)
            ok = response.status_code == 200
        except httpx.HTTPError:
            ok = False
        p.news.append(time.perf_counter() - start)
        p.new_errors += not ok
        await asyncio.sleep(every)


async def _phase(
    server: Server, board: Board, phase: Phase, sizes: list[str], every: float
) -> None:
    body = {"code": board.code, "marks": list(board.marks)}
    async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
        start = time.monotonic()
        end = start + phase.seconds
        tasks = [_hinter(server.port, body, end, phase) for _ in range(phase.clients)]
        tasks.append(_new_games(client, phase.genre, sizes, end, every, phase))
        await asyncio.gather(*tasks)
        phase.seconds = time.monotonic() - start


def run_phase(server: Server, board: Board, phase: Phase, sizes: list[str], every: float) -> Phase:
    url = server.url
    cpu = server.cpu_seconds(), client_cpu()
    receiver, sender = multiprocessing.get_context("spawn").Pipe(duplex=False)
    probe = multiprocessing.get_context("spawn").Process(
        target=_probe, args=(url, phase.seconds, sender), daemon=True
    )
    probe.start()
    sender.close()
    asyncio.run(_phase(server, board, phase, sizes, every))
    if receiver.poll(phase.seconds + 120):
        phase.probe, phase.probe_errors = receiver.recv()
    probe.join(10)
    phase.server_cpu = server.cpu_seconds() - cpu[0]
    phase.client_cpu = client_cpu() - cpu[1]
    return phase


@dataclass(frozen=True)
class Board:
    code: str
    marks: tuple[str, ...]
    """Empty marks: one row of `.` per row of the board."""


def make_board(genre: str, size: int) -> Board:
    for seed in range(1, 20):
        try:
            board = service.generate(genre, size, size, seed, deadline=120)
        except GridproofError:
            continue
        return Board(board.code, ("." * size,) * size)
    raise RuntimeError(f"no {genre} {size}x{size} board")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--seconds", type=float, default=10.0, help="per genre and clients")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--genres", default=",".join(sorted(genres())))
    parser.add_argument("--no-fill", action="store_true", help="no background bank filler")
    parser.add_argument("--new-every", type=float, default=0.5, help="seconds between new games")
    parser.add_argument(
        "--workers", default="1", help="server processes (serve --workers), one run each"
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.clients.split(",") if n]
    names = [n for n in args.genres.split(",") if n]
    boards = {name: make_board(name, args.size) for name in names}
    print(
        f"load: {args.size}x{args.size} hints, {args.seconds:g} s per row, "
        f"bank filling: {'no' if args.no_fill else 'yes'}, cores: {os.cpu_count()}, "
        f"load average before: {os.getloadavg()[0]:.1f}"
    )
    print(HEAD, flush=True)
    for workers in [int(n) for n in args.workers.split(",") if n]:
        run_server(args, workers, counts, boards)


def run_server(
    args: argparse.Namespace, workers: int, counts: list[int], boards: dict[str, Board]
) -> None:
    names = list(boards)
    server = Server(fill=not args.no_fill, workers=workers)
    try:
        catalog = httpx.get(f"{server.url}/api/catalog", timeout=60).json()
        sizes = {
            offer["name"]: [s for s in offer["sizes"] if int(s.split("x")[0]) <= 10] or ["5x5"]
            for offer in catalog
        }
        with httpx.Client(base_url=server.url, timeout=120) as client:
            for board in boards.values():  # the server counts each answer once, first
                client.post("/api/hint", json={"code": board.code, "marks": list(board.marks)})
        for name in names:
            for clients in counts:
                phase = Phase(name, clients, seconds=args.seconds, workers=workers)
                run_phase(server, boards[name], phase, sizes[name], args.new_every)
                print(phase.row(), flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
