"""The full fuzz run: mutated inputs thrown at every parser and entry point, a table of what
happened, and a reproducer for everything that is neither an acceptance nor a clean
rejection (a `CodeError`, exit status 2, HTTP 400...). Anything else is a bug.

    nice -n 10 .venv/bin/python benchmarks/fuzz.py [--inputs 100000] [--seed 1]
        [--targets load:code,cli,...] [--cli-procs 2000] [--http 3000] [--jobs 1]
        [--shards 1]

In-process targets (`tests/fuzz/targets.py`): `load:code`, `load:url`, `load:json`
(`service.load`, every genre), `nonogram:pattern`, `nonogram:non`, `grid:validate`,
`grid:marks`, `workshop:keep`, `cli` (`cli.main`) and `api` (TestClient), `--inputs` each.
Then, unless their counts are 0, the same kinds of command lines through a real
`python -m gridproof` (`cli:process`, `--cli-procs` of them; `serve` left out, it would
start a server) and the same kinds of API calls to a real uvicorn server on a temporary
bank (`http:uvicorn`, `--http` of them; the server's stderr must hold no traceback). The
CI runs a fixed-seed slice of the in-process targets (`tests/fuzz/test_slice.py`).
A benchmark: it prints, and exits 1 only when something else was found.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the harness lives in tests/fuzz

import httpx  # noqa: E402
from tests.fuzz.cli_target import Ran, Workspace, check_cli, cli_seeds, mutated_argv  # noqa: E402
from tests.fuzz.harness import (  # noqa: E402
    Finding,
    Tally,
    Target,
    classify,
    merged,
    report,
    table,
)
from tests.fuzz.targets import TARGETS, fuzz  # noqa: E402
from tests.fuzz.web_target import (  # noqa: E402
    Call,
    WebBank,
    WebCalls,
    check_response,
    reproduce_call,
)


def _fuzz_one(job: tuple[str, int, int, int, int]) -> Tally:
    name, inputs, seed, index, shards = job
    return fuzz(name, inputs, seed, full=True, shard=(index, shards))


def done(tally: Tally) -> Tally:
    """Print a finished target's row and its findings at once (a long run may be cut)."""
    print(table([tally]).splitlines()[-1], flush=True)
    if tally.other:
        print(report([tally]), flush=True)
    return tally


def run_in_process(names: list[str], inputs: int, seed: int, jobs: int, shards: int) -> list[Tally]:
    """Every target, each cut into `shards` (same inputs, every k-th run per process), on
    `jobs` processes."""
    work = [(name, inputs, seed, i, shards) for name in names for i in range(shards)]
    if jobs <= 1 and shards == 1:
        return [done(_fuzz_one(job)) for job in work]
    tallies = []
    # Not multiprocessing.Pool: its workers are daemons, and a daemon cannot start the
    # generation worker /api/new starts.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max(1, jobs), mp_context=context) as pool:
        parts = pool.map(_fuzz_one, work)
        for _ in names:
            tallies.append(done(merged([next(parts) for _ in range(shards)])))
    return tallies


# --- the real command line -----------------------------------------------------------------


class ProcessCli(Target):
    """`python -m gridproof ARGS` in a subprocess: the real streams, the real exit status."""

    name = "cli:process"
    cap_s = None  # each process has its own timeout

    def __init__(self) -> None:
        self.space = Workspace()
        self.valid = [argv for argv in cli_seeds(self.space) if "serve" not in argv]

    def make(self, rng: random.Random) -> list[str]:
        while True:
            argv = mutated_argv(rng, self.valid)
            if "serve" not in argv and all(_encodable(token) for token in argv):
                return argv

    def run(self, case: list[str]) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "gridproof", *case],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
            cwd=self.space.root,
            check=False,
        )
        stdout = done.stdout.decode("utf-8", "replace")
        stderr = done.stderr.decode("utf-8", "replace")
        return check_cli(Ran(done.returncode, stdout, stderr))

    def reproduce(self, case: list[str]) -> str:
        return f"subprocess.run([sys.executable, '-m', 'gridproof', *{case!r}])"

    def close(self) -> None:
        self.space.close()


def _encodable(token: str) -> bool:
    try:
        os.fsencode(token)
    except UnicodeError:
        return False
    return True


def run_parallel(target: Target, inputs: int, seed: int, jobs: int) -> Tally:
    """Like `harness.run_target`, with `jobs` calls in flight (each call is a process or a
    request, so threads overlap their waiting)."""
    rng = random.Random(f"{seed}:{target.name}")
    cases = [target.make(rng) for _ in range(inputs)]
    tally = Tally(target.name)
    start = time.perf_counter()
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        for verdict, finding in pool.map(lambda case: classify(target, case), cases):
            tally.add(verdict, finding)
    tally.seconds = time.perf_counter() - start
    return tally


# --- the real server ---------------------------------------------------------------------


class Server:
    """`python -m gridproof serve` on a free port and a temporary bank, stderr to a file."""

    def __init__(self, bank: WebBank) -> None:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = bank.root / "server.log"
        self._log = self.log.open("wb")
        env = {**os.environ, **bank.env}
        command = [sys.executable, "-m", "gridproof", "serve", "--host", "127.0.0.1"]
        self.process = subprocess.Popen(
            [*command, "--port", str(self.port), "--db", str(bank.path), "--no-fill"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/genres", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 60 s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()


class Http(Target):
    """The API calls of the `api` target, sent to the real server over HTTP."""

    name = "http:uvicorn"
    cap_s = None

    def __init__(self) -> None:
        self.bank = WebBank()
        self.calls = WebCalls(new_budget=20, prefilled=self.bank.prefilled)
        self.server = Server(self.bank)
        self.client = httpx.Client(base_url=self.server.url, timeout=120, follow_redirects=True)

    def make(self, rng: random.Random) -> Call:
        return self.calls.make(rng)

    def run(self, case: Call) -> str:
        response = self.client.request(
            case.method, case.url, content=case.body, headers=case.headers
        )
        return check_response(case, response.status_code, response.text)

    def reproduce(self, case: Call) -> str:
        return reproduce_call(case).replace("client.", "httpx.Client(base_url=SERVER).", 1)

    def closing_findings(self) -> list[Finding]:
        """What the server said on stderr: a traceback there is a bug even behind a 4xx."""
        alive = self.server.process.poll() is None
        self.server.stop()
        text = self.server.log.read_text("utf-8", "replace")
        found = []
        if not alive:
            found.append(Finding(self.name, "server died", "the server exited during the run", ""))
        for block in text.split("Traceback (most recent call last):")[1:]:
            lines = [line for line in block.splitlines() if line.strip()]
            last = next((line for line in lines if not line.startswith(" ")), "?")
            found.append(Finding(self.name, f"server traceback: {last[:120]}", last, block[-1500:]))
        return found

    def close(self) -> None:
        self.client.close()
        self.bank.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="per in-process target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--targets", default=",".join(TARGETS), help="in-process targets")
    parser.add_argument("--cli-procs", type=int, default=2000, help="real CLI processes")
    parser.add_argument("--http", type=int, default=3000, help="requests to a real server")
    parser.add_argument("--jobs", type=int, default=1, help="processes (or calls) in parallel")
    parser.add_argument("--shards", type=int, default=1, help="processes per target's inputs")
    args = parser.parse_args()
    names = [name for name in args.targets.split(",") if name]  # "" runs none in-process
    unknown = sorted(set(names) - set(TARGETS))
    if unknown:
        parser.error(f"unknown targets {unknown}; known: {', '.join(TARGETS)}")
    print(f"fuzz: seed {args.seed}, {args.inputs:,} inputs per in-process target", flush=True)
    print(table([]), flush=True)
    tallies = run_in_process(names, args.inputs, args.seed, args.jobs, max(1, args.shards))
    if args.cli_procs > 0:
        target = ProcessCli()
        try:
            tallies.append(done(run_parallel(target, args.cli_procs, args.seed, args.jobs)))
        finally:
            target.close()
    if args.http > 0:
        http = Http()
        try:
            tally = run_parallel(http, args.http, args.seed, args.jobs)
            for finding in http.closing_findings():
                tally.keep(finding)
        finally:
            http.close()
        tallies.append(done(tally))
    print()
    print(table(tallies))
    print()
    print(report(tallies))
    return 1 if any(t.other for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
