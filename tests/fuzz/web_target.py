"""The web API under fuzz: every endpoint, body, query string, method and content type
through FastAPI's TestClient on a temporary bank, and the checks of what the API promises
(status 200, 400, 404, 405, 413 or 503, never 500; errors as `{"error": one line}`).
`benchmarks/fuzz.py` sends the same calls to a real uvicorn server too.

Bound (cost, not correctness): at most `new_budget` `/api/new` bodies that would start a
generation worker (a process, seconds each); past that such a body asks for a board the
bank holds.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote as url_quote

from gridproof import bank, service
from gridproof.core import registry
from gridproof.core.contract import Genre
from gridproof.core.errors import GenerationError
from tests.fuzz.cli_target import rng_pick
from tests.fuzz.harness import (
    ACCEPTED,
    REJECTED,
    Failure,
    Target,
    mutated_rows,
    mutated_source,
    seeds,
    short,
)
from tests.fuzz.mutate import dump_json, mutate_json, mutate_text

API_STATUSES = frozenset({200, 400, 404, 405, 413, 503})
ERROR_ONLY_STATUSES = frozenset({400, 404, 405, 413})
"""Statuses whose body must be exactly `{"error": message}` (503 may add `health`)."""
MAX_QUERY_CHARS = 60_000
"""httpx refuses to build a URL of more than 65,536 characters (so does every browser
long before), so query strings are cut to this."""


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    query: str = ""
    body: bytes | None = None
    content_type: str | None = "application/json"

    @property
    def url(self) -> str:
        return self.path + ("?" + self.query if self.query else "")

    @property
    def headers(self) -> dict[str, str]:
        return {} if self.content_type is None else {"content-type": self.content_type}


_POSTS = (
    "/api/count",
    "/api/convert",
    "/api/validate",
    "/api/new",
    "/api/hint",
    "/api/check",
    "/api/workshop/verdict",
    "/api/workshop/repair",
    "/api/workshop/unique",
    "/api/workshop/keep",
)
_GETS = ("/api/genres", "/api/catalog", "/api/bank", "/", "/openapi.json", "/api/puzzle")
_STATIC = (
    "/static/js/main.js",
    "/static/style.css",
    "/static/../app.py",
    "/static/%2e%2e/app.py",
    "/static/%252e%252e/app.py",
    "/static/..%2f..%2fservice.py",
    "/static//etc/passwd",
    "/static/js/../../app.py",
    "/static/index.html",
    "/static/js/main.js%00",
    "/static/",
    "//api/genres",
    "/api/genres/",
    "/API/genres",
)


def api_bodies(board: service.Board) -> dict[str, dict[str, Any]]:
    """A valid body for every POST endpoint, on `board`."""
    code, genre = board.code, board.genre
    marks = ["." * board.puzzle.width] * board.puzzle.height
    keep = list(board.solution_rows)
    return {
        "/api/count": {"source": code, "limit": 2, "deadline_s": 1.0},
        "/api/convert": {"source": code, "to": rng_pick(_targets(genre), len(code))},
        "/api/validate": {"source": code, "grid": keep},
        "/api/new": {"genre": genre.name, "size": "5x5", "difficulty": None, "exclude": []},
        "/api/hint": {"code": code, "marks": marks, "version": 3, "reveal": False},
        "/api/check": {"code": code, "marks": keep, "version": 1, "reveal": True},
        "/api/workshop/verdict": {"source": code, "keep": keep, "deadline_s": 1.0, "version": 2},
        "/api/workshop/repair": {"source": code, "deadline_s": 1.0, "limit": 3},
        "/api/workshop/unique": {"source": code, "keep": None, "deadline_s": 1.0},
        "/api/workshop/keep": {"source": code},
    }


_SOURCE_KEYS = ("source", "code")


class WebCalls:
    """Mutated API calls: bodies, query strings, methods, paths and content types."""

    def __init__(self, new_budget: int, prefilled: set[tuple[str, str]]) -> None:
        self.new_budget = new_budget
        self.prefilled = prefilled

    def make(self, rng: random.Random) -> Call:
        roll = rng.random()
        if roll < 0.08:
            return self._get(rng)
        if roll < 0.16:
            return self._query(rng)
        if roll < 0.2:
            return self._odd(rng)
        return self._post(rng)

    def _post(self, rng: random.Random) -> Call:
        board = rng.choice(seeds().boards)
        path = rng.choice(_POSTS)
        body: Any = api_bodies(board)[path]
        if rng.random() < 0.35:
            key = next((k for k in _SOURCE_KEYS if k in body), None)
            if key is not None:
                kind = rng.choice(("code", "url", "json"))
                body = {**body, key: mutated_source(rng, kind)}
        if rng.random() < 0.15:
            for key in ("marks", "grid", "keep"):
                if body.get(key):
                    body = {**body, key: mutated_rows(rng, board)}
        if rng.random() < 0.6:
            body = mutate_json(rng, body, 2)
        if path == "/api/new":
            body = self._bounded_new(body)
        if rng.random() < 0.03 and isinstance(body, dict):
            body = {**body, **{f"k{n}": n for n in range(rng.choice((50, 5000)))}}
        text = dump_json(rng, body, edit=rng.random() < 0.85)
        content_type: str | None = "application/json"
        if rng.random() < 0.05:
            content_type = rng.choice((None, "text/plain", "application/x-www-form-urlencoded"))
        raw = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.03:
            raw = rng.choice((b"", b"\xff\xfe", raw[: len(raw) // 2], b"\x00" * 10, raw + raw))
        return Call("POST", path, body=raw, content_type=content_type)

    def _bounded_new(self, body: Any) -> Any:
        """At most `new_budget` bodies that would start a generation worker (seconds each);
        past that, such a body asks for a board the bank holds."""
        if not isinstance(body, dict):
            return body
        genre, size = body.get("genre"), body.get("size")
        if not (isinstance(genre, str) and isinstance(size, str)):
            return body
        difficulty = body.get("difficulty")
        try:
            key = bank.check_key(genre, size, difficulty if isinstance(difficulty, str) else None)
        except Exception:
            return body
        seed = body.get("seed")
        asks_seed = isinstance(seed, int) and not isinstance(seed, bool)
        excludes = isinstance(body.get("exclude"), list) and bool(body.get("exclude"))
        if (key.genre, key.size) in self.prefilled and not asks_seed and not excludes:
            return body
        if self.new_budget > 0:
            self.new_budget -= 1
            return {**body, "deadline_s": 1.0}
        return {"genre": key.genre, "size": "5x5"}

    def _get(self, rng: random.Random) -> Call:
        path = rng.choice(_GETS + _STATIC)
        method = "GET" if rng.random() < 0.8 else rng.choice(("HEAD", "PUT", "DELETE", "PATCH"))
        if rng.random() < 0.3:
            path = mutate_text(rng, path, 1)
            path = "/" + "".join(ch for ch in path.lstrip("/") if 32 < ord(ch) < 127 and ch != "#")
        return Call(method, path, content_type=None)

    def _query(self, rng: random.Random) -> Call:
        kind = rng.choice(("code", "url", "json", "code"))
        value = mutated_source(rng, kind) if rng.random() < 0.7 else rng.choice(seeds().codes)
        encoded = url_quote(value.encode("utf-8", "surrogatepass"), safe="")
        params = [f"code={encoded}"]
        roll = rng.random()
        if roll < 0.15:
            params.append(f"code={url_quote(rng.choice(seeds().codes))}")
        elif roll < 0.3:
            params.append(rng.choice(("x=1", "code", "=", "&&", "%", "%zz", "%ff%fe", "a=%00")))
        elif roll < 0.4:
            params = []
        query = "&".join(params)
        if rng.random() < 0.2:
            query = "".join(ch for ch in mutate_text(rng, query, 1) if 32 < ord(ch) < 127)
        query = query[:MAX_QUERY_CHARS]
        path = "/api/puzzle" if rng.random() < 0.9 else rng.choice(_POSTS)
        method = "GET" if path == "/api/puzzle" else rng.choice(("GET", "POST"))
        return Call(method, path, query=query, content_type=None)

    def _odd(self, rng: random.Random) -> Call:
        path = rng.choice(_POSTS)
        method = rng.choice(("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "POST"))
        body = rng.choice(
            (
                None,
                b"",
                b"null",
                b"[]",
                b"1",
                b'"x"',
                b"{",
                b"[" * 10_000 + b"]" * 10_000,
                b'{"source": "' + b"A" * 200_000 + b'"}',
                json.dumps({"source": "\ud800"}).encode(),
            )
        )
        return Call(method, path, body=body)


def check_response(call: Call, status: int, text: str) -> str:
    """The API's promise: a known status, never 500; errors as `{"error": one line}`."""
    if status not in API_STATUSES:
        raise Failure(f"HTTP {status}: {short(text[:300])}")
    if status == 200:
        if (call.path.startswith("/api/") and call.method == "GET") or call.method == "POST":
            try:
                json.loads(text)
            except ValueError:
                raise Failure(
                    f"HTTP 200 with a body that is not JSON: {short(text[:200])}"
                ) from None
        if call.path.startswith("/static/") and ("root:x:" in text or '"""The FastAPI' in text):
            raise Failure("a static path served a file from outside the static folder")
        return ACCEPTED
    if call.method == "HEAD":
        return REJECTED
    try:
        body = json.loads(text)
    except ValueError:
        raise Failure(f"HTTP {status} with a body that is not JSON: {short(text[:200])}") from None
    if not isinstance(body, dict) or not isinstance(body.get("error"), str):
        raise Failure(f"HTTP {status} without an 'error' message: {short(text[:200])}")
    message: str = body["error"]
    if not message or "\n" in message or "\r" in message:
        raise Failure(f"HTTP {status} error message is not one line: {short(message[:200])}")
    if status in ERROR_ONLY_STATUSES and set(body) != {"error"}:
        raise Failure(f"HTTP {status} body has keys {sorted(body)}, expected only 'error'")
    return REJECTED


class WebBank:
    """A temporary bank with two small boards per genre, and the environment that points
    the app at it (the filler off, generation capped at a few seconds, one worker)."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="gridproof-fuzz-bank-"))
        self.path = self.root / "bank.sqlite3"
        store = bank.Bank(self.path)
        self.prefilled: set[tuple[str, str]] = set()
        for name, genre in sorted(registry.genres().items()):
            (min_w, min_h), _ = genre.sizes
            w, h = max(5, min_w), max(5, min_h)
            key = bank.Key(name, w, h, bank.default_difficulty(genre, w, h))
            stored = 0
            for seed in range(1, 30):
                if stored == 2:
                    break
                try:
                    record = bank.make_record(key, seed, generate_s=20)
                except GenerationError:
                    continue
                if record.difficulty == key.difficulty:
                    stored += store.add(record)
            self.prefilled.add((name, key.size))
        self.env = {
            "GRIDPROOF_DB": str(self.path),
            "GRIDPROOF_FILL": "0",
            "GRIDPROOF_WORKERS": "1",
            "GRIDPROOF_GENERATE_S": "2",
        }
        self._saved = {k: os.environ.get(k) for k in self.env}
        os.environ.update(self.env)

    def close(self) -> None:
        for key, value in self._saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(self.root, ignore_errors=True)


def test_client(app: Any) -> Any:
    """FastAPI's TestClient for `app` (imported quietly: starlette announces a move)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
        from fastapi.testclient import TestClient
    return TestClient(app)


class ApiTarget(Target):
    """Every endpoint in-process through TestClient; a server exception is a finding (the
    client re-raises it), and so is any status or body the API does not promise."""

    name = "api"
    cap_s = None  # the app's work runs in its own threads; every call has its own deadline

    def __init__(self, new_budget: int = 5) -> None:
        from gridproof.web import app as web

        self.bank = WebBank()
        self.calls = WebCalls(new_budget, self.bank.prefilled)
        self.client = test_client(web.app)
        self.client.__enter__()

    def make(self, rng: random.Random) -> Call:
        return self.calls.make(rng)

    def run(self, case: Call) -> str:
        response = self.client.request(
            case.method, case.url, content=case.body, headers=case.headers
        )
        return check_response(case, response.status_code, response.text)

    def reproduce(self, case: Call) -> str:
        return reproduce_call(case)

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.bank.close()


def reproduce_call(case: Call) -> str:
    body = "" if case.body is None else f", content={case.body[:600]!r}"
    headers = f", headers={case.headers!r}" if case.headers else ""
    return f"client.request({case.method!r}, {case.url!r}{body}{headers})"


def _targets(genre: Genre[Any]) -> tuple[str, ...]:
    """The formats `convert` writes for `genre`: codes, URLs, JSON and its own."""
    return (*service.FORMATS, *(fmt.name for fmt in genre.formats))


class ApiBodiesTarget(ApiTarget):
    """Only POST bodies, their source in the genres' own formats as often as not: mutated
    Pattern IDs (with prefilled squares, checked by a count under the request's deadline),
    `.non` text and pzprv3 files, which the `api` target's codes, URLs and JSON miss."""

    name = "api:bodies"

    def make(self, rng: random.Random) -> Call:
        call = self.calls._post(rng)
        if call.path == "/api/new" or rng.random() < 0.5 or call.body is None:
            return call
        try:
            body = json.loads(call.body)
        except (ValueError, RecursionError):  # a body made to be refused: sent as it is
            return call
        key = next((k for k in _SOURCE_KEYS if isinstance(body, dict) and k in body), None)
        if key is None:
            return call
        pick = rng.choice((seeds().patterns, seeds().nons, seeds().pzprv3s))
        body[key] = mutate_text(rng, rng.choice(pick))
        return Call(
            "POST", call.path, body=json.dumps(body).encode(), content_type="application/json"
        )
