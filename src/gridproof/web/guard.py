"""What every request passes before the app sees it, and every response gets on its way out.

- The Host header must name this server (`GRIDPROOF_HOSTS`, set by `gridproof serve` from
  the address it binds): a page on another site that rebinds its DNS name to 127.0.0.1
  cannot talk to a local server. Anything else is a 400.
- A request body larger than `MAX_BODY_BYTES` is a 413 before any of it is parsed (by its
  Content-Length, or as it streams in when it has none).
- Every response, the API and the static files as much as the page, carries the security
  headers: the content security policy, `nosniff` and no referrer.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 2 * 1024 * 1024
"""The largest request body: a 100,000-character source and 1,000 rows of marks fit."""
TOO_LARGE = f"the request body is larger than {MAX_BODY_BYTES:,} bytes"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Hosts always served (the in-process test client's `testserver` only when named: the
tests name it)."""
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; manifest-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = (
    (b"content-security-policy", POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def allowed_hosts() -> frozenset[str]:
    """The host names served: `GRIDPROOF_HOSTS` (comma-separated; `*` for any) and the
    loopback names."""
    named = os.environ.get("GRIDPROOF_HOSTS", "")
    return frozenset(LOCAL_HOSTS) | {h.strip().lower() for h in named.split(",") if h.strip()}


class Guard:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: App, hosts: frozenset[str] | None = None) -> None:
        self.app = app
        self.hosts = allowed_hosts() if hosts is None else hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        host = _host_name(headers.get(b"host", b"").decode("latin-1"))
        if "*" not in self.hosts and host not in self.hosts:
            await _reply(send, 400, f"host {host[:60]!r} is not served here")
            return
        length = headers.get(b"content-length", b"")
        if length.isdigit() and int(length) > MAX_BODY_BYTES:
            await _reply(send, 413, TOO_LARGE)
            return
        replied = started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if replied:
                return  # the 413 went out already: whatever the app says next is dropped
            if message["type"] == "http.response.start":
                started = True
                sent = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in HEADERS if name not in sent]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        received = 0

        async def guarded_receive() -> Message:
            nonlocal received, replied
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY_BYTES and not replied:
                    await _reply(
                        send, 413, f"the request body is larger than {MAX_BODY_BYTES} bytes"
                    )
                    replied = True
                    return {"type": "http.disconnect"}  # the app stops reading
            return message

        await self.app(scope, guarded_receive, guarded_send)


def _host_name(header: str) -> str:
    """The host of a Host header, without its port (`[::1]:8000` is `::1`)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


async def _reply(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
