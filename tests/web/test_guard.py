"""What every request passes and every response carries: the Host check, the body limit,
the security headers, and static files that stay in their folder."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridproof.web import app as web
from gridproof.web import models
from gridproof.web.guard import MAX_BODY_BYTES, _host_name
from tests.web.test_app import assert_error

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client(bank_path: Path) -> Iterator[TestClient]:
    with TestClient(web.app) as test_client:
        yield test_client


@pytest.mark.parametrize(
    "path", ["/", "/static/index.html", "/static/js/main.js", "/api/genres", "/api/nothing"]
)
def test_every_response_carries_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert "default-src 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example"])
def test_a_host_header_naming_another_site_is_refused(client: TestClient, host: str) -> None:
    response = client.get("/api/genres", headers={"host": host})
    assert_error(response, "is not served here")
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "[::1]:8000", "LOCALHOST"])
def test_loopback_hosts_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/genres", headers={"host": host}).status_code == 200


def test_host_names_lose_their_port() -> None:
    assert _host_name("[::1]:8000") == "::1"
    assert _host_name("localhost:80") == "localhost"
    assert _host_name("::1") == "::1"


def test_a_body_past_the_limit_is_413_before_it_is_parsed(client: TestClient) -> None:
    body = b'{"source": "' + b"x" * (MAX_BODY_BYTES + 10) + b'"}'
    response = client.post("/api/count", content=body, headers={"content-type": "application/json"})
    assert_error(response, "larger than", status=413)


def test_a_streamed_body_past_the_limit_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"source": "'
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    response = client.post(
        "/api/count", content=chunks(), headers={"content-type": "application/json"}
    )
    assert_error(response, "larger than", status=413)


def test_a_hundred_thousand_unknown_keys_are_one_short_error(client: TestClient) -> None:
    body = {"source": "x", **{f"k{n}": 1 for n in range(100_000)}}
    response = client.post("/api/count", json=body)
    message = assert_error(response, "unknown key 'k0' and 99999 more")
    assert len(message) < 300


@pytest.mark.parametrize(
    "path",
    [
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/%252e%252e/app.py",
        "/static/js/../../app.py",
        "/static/..%2f..%2fpyproject.toml",
        "/static//etc/passwd",
    ],
)
def test_static_files_cannot_escape_their_folder(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (400, 404)
    assert "FastAPI" not in response.text
    assert "import" not in response.text


def test_solver_calls_refuse_boards_larger_than_the_web_solves(client: TestClient) -> None:
    side = models.WEB_MAX_SIDE + 1
    source = '{"genre": "nonogram", "rows": [[1]], "cols": [[1]' + ", []" * (side - 1) + "]}"
    for path in ("/api/count", "/api/workshop/verdict"):
        response = client.post(path, json={"source": source})
        assert_error(response, f"{side}x1", "larger than the web serves")
    converted = client.post("/api/convert", json={"source": source, "to": "code"})
    assert converted.status_code == 200  # converting reads every size the parsers do
