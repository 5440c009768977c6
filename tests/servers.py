"""A real `gridproof serve` for the tests that need one (the browser tests' live server, the
installed wheel's): started on a free loopback port, waited for, and stopped."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serving(
    command: Sequence[str],
    env: Mapping[str, str],
    cwd: Path | None = None,
    start_s: float = 30.0,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`command` (a `gridproof serve` without `--port`) run on a free port: its base URL and
    process once `/api/genres` answers, stopped (terminated, else killed) afterwards."""
    port = free_port()
    process = subprocess.Popen(
        [*command, "--port", str(port)],
        env=dict(env),
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base, process, start_s)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


def _wait_until_up(base: str, process: subprocess.Popen[bytes], start_s: float) -> None:
    end = time.monotonic() + start_s
    while time.monotonic() < end:
        if process.poll() is not None:
            err = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"the server exited with {process.returncode}: {err[-2000:]}")
        try:
            if httpx.get(f"{base}/api/genres", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server did not start within {start_s:g} s")
