"""Exposure (issue 26): writes need the token on a server other machines reach, per-client
limits on writes and expensive calls, long calls on their own bounded threads, and the
test client's Host name served only when named."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from gridproof.core.deadline import Deadline
from gridproof.web import guard, workers
from gridproof.web.limits import Limits, Policy

KEEP = "/api/workshop/keep"


class _App:
    """An ASGI app that answers 200, once `release` is set if there is one (validating at
    once)."""

    def __init__(self) -> None:
        self.release: asyncio.Event | None = None
        self.entered = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.entered += 1
        if self.release is not None and scope["path"] != "/api/validate":
            await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


async def _status(
    app: Any, path: str, client: str = "192.0.2.9", headers: list[tuple[bytes, bytes]] = ()
) -> tuple[int, dict[bytes, bytes]]:
    scope = {"type": "http", "method": "POST", "path": path, "client": (client, 1234)}
    scope["headers"] = list(headers)
    sent: list[Any] = []

    async def receive() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], dict(sent[0]["headers"])


def test_an_exposed_server_keeps_boards_only_with_its_token() -> None:
    open_server = Limits(_App(), Policy(exposed=True))
    assert asyncio.run(_status(open_server, KEEP))[0] == 403
    assert asyncio.run(_status(open_server, "/api/hint"))[0] == 200
    assert asyncio.run(_status(open_server, KEEP, client="127.0.0.1"))[0] == 403  # a proxy
    tokened = Limits(_App(), Policy(token="s3cret", exposed=True))
    assert asyncio.run(_status(tokened, KEEP))[0] == 403
    wrong = [(b"x-gridproof-token", b"guess")]
    assert asyncio.run(_status(tokened, KEEP, headers=wrong))[0] == 403
    right = [(b"x-gridproof-token", b"s3cret")]
    assert asyncio.run(_status(tokened, KEEP, headers=right))[0] == 200
    assert asyncio.run(_status(Limits(_App(), Policy()), KEEP))[0] == 200  # loopback-bound


def test_writes_per_client_are_limited_a_minute() -> None:
    limits = Limits(_App(), Policy(writes_per_minute=3))
    statuses = [asyncio.run(_status(limits, KEEP))[0] for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    status, headers = asyncio.run(_status(limits, KEEP))
    assert status == 429
    assert int(headers[b"retry-after"]) >= 1
    assert asyncio.run(_status(limits, KEEP, client="192.0.2.10"))[0] == 200  # another client


def test_expensive_calls_at_once_are_limited_per_client() -> None:
    async def scenario() -> list[int]:
        app = _App()
        app.release = asyncio.Event()
        limits = Limits(app, Policy(busy_per_client=2))
        held = [asyncio.ensure_future(_status(limits, "/api/count")) for _ in range(2)]
        while app.entered < 2:
            await asyncio.sleep(0)
        third = (await _status(limits, "/api/workshop/unique"))[0]
        other = asyncio.ensure_future(_status(limits, "/api/count", client="192.0.2.10"))
        quick = (await _status(limits, "/api/validate"))[0]  # not an expensive call
        app.release.set()
        return [third, quick, *[(await h)[0] for h in held], (await other)[0]]

    assert asyncio.run(scenario()) == [429, 200, 200, 200, 200]


def test_long_calls_never_hold_the_quick_routes_threads() -> None:
    """More long calls than `LONG_CALLS` wait for their own threads; a quick call made
    meanwhile runs at once (it used to wait behind 45 workshop calls)."""
    release = threading.Event()

    def long_work(deadline: Deadline) -> str:
        release.wait(30)
        return "long"

    async def never_gone() -> bool:
        return False

    async def scenario() -> list[str]:
        long_calls = [
            asyncio.ensure_future(workers.in_thread(long_work, 60, never_gone, long=True))
            for _ in range(workers.LONG_CALLS + 3)
        ]
        await asyncio.sleep(0.2)
        quick = await workers.in_thread(lambda d: "quick", 60, never_gone)
        running = sum(not call.done() for call in long_calls)
        release.set()
        return [quick, str(running), *[await call for call in long_calls]]

    results = asyncio.run(scenario())
    assert results[:2] == ["quick", str(workers.LONG_CALLS + 3)]
    assert results[2:] == ["long"] * (workers.LONG_CALLS + 3)


def test_the_test_clients_host_is_served_only_when_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDPROOF_HOSTS", "")
    assert "testserver" not in guard.allowed_hosts()
    monkeypatch.setenv("GRIDPROOF_HOSTS", "pz.lan,testserver")
    assert {"testserver", "pz.lan", "127.0.0.1"} <= guard.allowed_hosts()
