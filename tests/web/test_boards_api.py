"""The player's extras: the genre options a player may choose, the bank's list of boards
and the puzzle of the day."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridproof import bank
from gridproof.core.registry import genres
from gridproof.service import games
from gridproof.web import app as web
from tests.web.conftest import small_key
from tests.web.test_app import assert_error

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client(bank_path: Path) -> Iterator[TestClient]:
    with TestClient(web.app) as test_client:
        yield test_client


def test_the_catalog_lists_the_options_a_player_may_choose(client: TestClient) -> None:
    offers = {offer["name"]: offer for offer in client.get("/api/catalog").json()}
    (rule,) = offers["nondango"]["options"]  # "white" is a number for experts: not offered
    assert rule["name"] == "rule"
    assert rule["choices"] == ["no-three-same", "no-three-black"]
    assert rule["default"] == "no-three-same"
    assert offers["norinori"]["options"] == []


def test_a_new_game_with_a_chosen_rule_is_generated_with_it_and_banked_under_it(
    client: TestClient, bank_path: Path
) -> None:
    before = bank.Bank(bank_path).counts()
    body = {
        "genre": "nondango",
        "size": "5x5",
        "difficulty": "easy",
        "options": {"rule": "no-three-black"},
    }
    reply = client.post("/api/new", json=body)
    assert reply.status_code == 200, reply.text
    view = reply.json()
    assert view["origin"] == "generated"
    assert view["data"]["rule"] == "no-three-black"
    key = bank.Key("nondango", 5, 5, "easy", "rule=no-three-black")
    after = bank.Bank(bank_path).counts()
    assert after == {**before, key: before.get(key, 0) + 1}
    assert bank.Bank(bank_path).stock().get(key, 0) == 0  # it was served
    # the same setting again comes from the bank, under its rule; never the default rule's
    again = client.post("/api/new", json=body).json()
    assert (again["origin"], again["data"]["rule"]) == ("bank", "no-three-black")
    default = client.post("/api/new", json={**body, "options": {}}).json()
    assert default["data"]["rule"] == "no-three-same"


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"colour": "red"}, "no option 'colour'"),
        ({"rule": "no-three-white"}, "not one of no-three-same, no-three-black"),
        ({"white": "3"}, "no option 'white'"),
    ],
)
def test_options_a_genre_does_not_offer_are_400(
    client: TestClient, options: dict[str, Any], fragment: str
) -> None:
    body = {"genre": "nondango", "size": "5x5", "difficulty": "easy", "options": options}
    assert_error(client.post("/api/new", json=body), fragment)


def test_the_default_rule_is_served_from_the_bank(client: TestClient) -> None:
    key = small_key(genres()["nondango"])
    body = {
        "genre": "nondango",
        "size": key.size,
        "difficulty": key.difficulty,
        "options": {"rule": "no-three-same"},
    }
    assert client.post("/api/new", json=body).json()["origin"] == "bank"


def test_the_board_list_pages_through_what_new_games_serve(
    client: TestClient, bank_path: Path
) -> None:
    key = small_key(genres()["norinori"])
    query = {"genre": key.genre, "size": key.size, "difficulty": key.difficulty}
    whole = client.get("/api/boards", params=query).json()
    assert whole["total"] == bank.Bank(bank_path).counts()[key] >= 2
    codes = [board["code"] for board in whole["boards"]]
    assert len(codes) == whole["total"]
    first = client.get("/api/boards", params={**query, "limit": 1}).json()
    second = client.get("/api/boards", params={**query, "offset": 1, "limit": 1}).json()
    assert [b["code"] for b in first["boards"] + second["boards"]] == codes[:2]
    for board in whole["boards"]:
        assert set(board) == {"code", "genre", "size", "difficulty", "score", "rating"}
    assert_error(client.get("/api/boards", params={**query, "size": "2x2"}), "outside")


def test_the_puzzle_of_the_day_is_the_same_all_day(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games, "DAILY", ((5, 5), "easy"))  # the size the test bank holds
    first, again = client.get("/api/daily").json(), client.get("/api/daily").json()
    assert first == again
    assert len(first["date"]) == 10
    assert sorted(board["genre"] for board in first["boards"]) == sorted(genres())
    for board in first["boards"]:
        assert board["code"].startswith(board["genre"] + ".")
        assert board["size"] == "5x5"
