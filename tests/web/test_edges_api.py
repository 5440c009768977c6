"""The web's edges (issue 26): a bank that cannot be read or written (a full disk) never
blocks hints, checks or new games; `HEAD /`; a 405 names what is allowed."""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridproof import bank
from gridproof.core.registry import genres
from gridproof.web import app as web

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
    from fastapi.testclient import TestClient

from tests.web.test_play_api import new, rows


@pytest.fixture
def client(bank_path: Path) -> Iterator[TestClient]:
    with TestClient(web.app) as test_client:
        yield test_client


def _disk_full(*args: Any, **kwargs: Any) -> Any:
    raise sqlite3.OperationalError("disk I/O error")


def test_a_full_disk_blocks_neither_hints_nor_new_games(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    genre = genres()["norinori"]
    made = new(client, genre)
    for name in ("find", "pick", "add"):
        monkeypatch.setattr(bank.Bank, name, _disk_full)
    body = {"code": made["code"], "marks": rows(made["width"], made["height"])}
    for route in ("/api/hint", "/api/check"):
        response = client.post(route, json=body)
        assert response.status_code == 200, response.text
    assert client.get("/api/puzzle", params={"code": made["code"]}).status_code == 200
    fresh = new(client, genre, deadline_s=20)  # generated now, served though not kept
    assert fresh["code"]


def test_head_of_the_page_and_the_allow_header(client: TestClient) -> None:
    assert client.head("/").status_code == 200
    response = client.put("/")
    assert response.status_code == 405
    assert set(response.headers["allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}
    assert client.get("/api/hint").headers["allow"] == "POST"
