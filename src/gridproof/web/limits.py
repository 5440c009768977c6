"""What a server reachable from other machines holds back (issue 26), as ASGI middleware:

- Writes (`POST /api/workshop/keep`, the only route that stores what a client sends) need
  the token `GRIDPROOF_TOKEN` in the `X-Gridproof-Token` header when one is configured;
  without one they are refused (403) on a server bound to a non-loopback address
  (`GRIDPROOF_EXPOSED=1`, set by `gridproof serve`), allowed on a loopback one.
- Per client (its address): at most `GRIDPROOF_WRITES_PER_MINUTE` writes a minute
  (default 20) and at most `GRIDPROOF_BUSY_PER_CLIENT` expensive calls at once (counts,
  hints, checks, new games, the workshop; default 4); beyond either a 429 with
  `Retry-After`, before any work starts. Loopback clients (the machine's own user, a
  benchmark) are not counted unless `GRIDPROOF_LIMIT_LOCAL=1`.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field

from gridproof.web.guard import HEADERS, App, Receive, Scope, Send

TOKEN_HEADER = b"x-gridproof-token"
WRITES = frozenset({"/api/workshop/keep"})
EXPENSIVE_PREFIXES = ("/api/workshop/", "/api/count", "/api/hint", "/api/check", "/api/new")
WINDOW_S = 60.0


def _number(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, "") or default))
    except ValueError:
        return default


@dataclass
class Policy:
    """The limits, read from the environment when the app starts."""

    token: str | None = None
    exposed: bool = False
    writes_per_minute: int = 20
    busy_per_client: int = 4
    limit_local: bool = False

    @classmethod
    def from_env(cls) -> Policy:
        env = os.environ
        return cls(
            token=env.get("GRIDPROOF_TOKEN") or None,
            exposed=env.get("GRIDPROOF_EXPOSED", "0").strip() in ("1", "yes", "true", "on"),
            writes_per_minute=_number("GRIDPROOF_WRITES_PER_MINUTE", 20),
            busy_per_client=_number("GRIDPROOF_BUSY_PER_CLIENT", 4),
            limit_local=env.get("GRIDPROOF_LIMIT_LOCAL", "0").strip() in ("1", "yes", "true"),
        )


@dataclass
class _Clients:
    writes: defaultdict[str, deque[float]] = field(default_factory=lambda: defaultdict(deque))
    busy: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))


class Limits:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: App, policy: Policy | None = None) -> None:
        self.app = app
        self.policy = Policy.from_env() if policy is None else policy
        self.clients = _Clients()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        if path in WRITES:
            refused = self._write_refused(scope, client)
            if refused is not None:
                await _reply(send, *refused)
                return
        if not path.startswith(EXPENSIVE_PREFIXES) or self._exempt(client):
            await self.app(scope, receive, send)
            return
        if self.clients.busy[client] >= self.policy.busy_per_client:
            limit = self.policy.busy_per_client
            await _reply(send, 429, f"at most {limit} expensive calls at once per client", 1)
            return
        self.clients.busy[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.clients.busy[client] -= 1
            if not self.clients.busy[client]:
                del self.clients.busy[client]

    def _exempt(self, client: str) -> bool:
        return not self.policy.limit_local and _is_loopback(client)

    def _write_refused(self, scope: Scope, client: str) -> tuple[int, str, float] | None:
        policy = self.policy
        if policy.token is not None:
            sent = dict(scope.get("headers") or []).get(TOKEN_HEADER, b"")
            if not secrets.compare_digest(sent, policy.token.encode()):
                return 403, "keeping boards needs the server's token (X-Gridproof-Token)", 0
        elif policy.exposed:
            return (
                403,
                "this server is reachable from other machines: keeping boards needs "
                "GRIDPROOF_TOKEN set where it runs (sent as X-Gridproof-Token)",
                0,
            )
        if self._exempt(client):
            return None
        now = time.monotonic()
        recent = self.clients.writes[client]
        while recent and recent[0] <= now - WINDOW_S:
            recent.popleft()
        if len(recent) >= policy.writes_per_minute:
            wait = recent[0] + WINDOW_S - now
            return 429, f"at most {policy.writes_per_minute} boards kept a minute", wait
        recent.append(now)
        return None


LOOPBACK = ("127.0.0.1", "::1", "localhost", "testclient")


def _is_loopback(client: str) -> bool:
    return client in LOOPBACK or client.startswith("127.")


async def _reply(send: Send, status: int, message: str, retry_s: float) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *HEADERS,
    ]
    if status == 429:
        headers.append((b"retry-after", str(max(1, round(retry_s))).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
