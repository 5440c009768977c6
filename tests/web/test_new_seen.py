"""New game and what the player has seen (`seen`, fingerprints of codes, and `exclude`):
never served again while the bank or the generator has an unseen board in time; a repeat
only when nothing else can be had, and said so; a malformed or oversized `seen` is a 400
that quotes the entry or the limit; the catalog offers per option value exactly what New
game accepts."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridproof import bank
from gridproof.core import registry
from gridproof.core.codes import fingerprint
from gridproof.core.errors import GenerationError
from gridproof.service import games
from gridproof.web import app as web
from gridproof.web import models
from gridproof.web.routes import puzzles

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
    from fastapi.testclient import TestClient

KEY = bank.Key("norinori", 5, 5, "easy")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> bank.Bank:
    path = tmp_path / "bank.sqlite3"
    monkeypatch.setenv("GRIDPROOF_DB", str(path))
    monkeypatch.setenv("GRIDPROOF_FILL", "0")
    return bank.Bank(path)


@pytest.fixture
def client(store: bank.Bank) -> Iterator[TestClient]:
    with TestClient(web.app) as test_client:
        yield test_client


def stock(store: bank.Bank, key: bank.Key, boards: int) -> list[bank.Record]:
    kept: list[bank.Record] = []
    seed = 0
    while len(kept) < boards:
        seed += 1
        try:
            record = bank.make_record(key, seed, generate_s=20)
        except Exception:
            continue
        if record.difficulty == key.difficulty and store.add(record):
            kept.append(record)
    return kept


def new(client: TestClient, **more: Any) -> dict[str, Any]:
    body = {"genre": KEY.genre, "size": KEY.size, "difficulty": KEY.difficulty, **more}
    response = client.post("/api/new", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_new_game_serves_every_unseen_bank_board_before_any_repeat(
    client: TestClient, store: bank.Bank
) -> None:
    kept = stock(store, KEY, 4)
    seen: list[str] = []
    for _ in kept:
        body = new(client, seen=seen)
        assert body["origin"] == "bank"
        assert body["repeat"] is False
        assert fingerprint(body["code"]) not in seen
        seen.append(fingerprint(body["code"]))
    assert sorted(seen) == sorted(r.fingerprint for r in kept)
    # all four seen: a fresh board is generated (and kept), not one of them
    fresh = new(client, seen=seen, deadline_s=20)
    assert fresh["origin"] == "generated"
    assert fresh["repeat"] is False
    assert fingerprint(fresh["code"]) not in seen
    assert store.find(fresh["code"]) is not None
    assert store.counts()[KEY] == 5
    assert store.stock().get(KEY, 0) == 0  # served, in the same transaction as kept


def test_unserved_boards_come_first_and_serving_is_recorded(store: bank.Bank) -> None:
    kept = stock(store, KEY, 3)
    assert store.stock()[KEY] == 3
    first = store.pick(KEY)
    assert first is not None
    assert store.stock()[KEY] == 2
    others = {store.pick(KEY).code, store.pick(KEY).code}  # type: ignore[union-attr]
    assert first.code not in others
    assert len(others) == 2
    assert store.stock().get(KEY, 0) == 0
    assert store.counts()[KEY] == len(kept)
    # nobody's stock left: the least served again, but never a seen or excluded one
    again = store.pick(KEY, exclude=[first.code], seen=[r.fingerprint for r in kept[:1]])
    assert again is not None
    assert again.code != first.code
    assert again.code != kept[0].code


def test_a_repeat_only_when_nothing_unseen_can_be_made_in_time(
    client: TestClient, store: bank.Bank, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = stock(store, KEY, 2)
    every = [r.fingerprint for r in kept]

    async def nothing(*args: Any) -> bank.Record:
        raise GenerationError("no board proven in time", {"attempts": 1})

    monkeypatch.setattr(puzzles, "_generated", nothing)
    body = new(client, seen=every)
    assert body["repeat"] is True
    assert body["code"] in {r.code for r in kept}
    # with the generator out and the bank empty of this key, the generator's 503 stands
    other = {"genre": "norinori", "size": "6x6", "difficulty": "easy", "seen": every}
    assert client.post("/api/new", json=other).status_code == 503


def test_a_generated_board_the_player_has_seen_is_made_again(
    client: TestClient, store: bank.Bank, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = stock(bank.Bank(store.path.with_name("other.sqlite3")), KEY, 3)
    store.add(first)
    store.add(second)
    made: list[bank.Record] = []

    def generator(boards: list[bank.Record]) -> Any:
        async def generated(*args: Any) -> bank.Record:
            made.append(boards[len(made)])
            return made[-1]

        return generated

    # the bank has nothing unseen; the generator's first board was seen: a second seed
    monkeypatch.setattr(puzzles, "_generated", generator([first, third]))
    body = new(client, seen=[first.fingerprint], exclude=[second.code])
    assert (body["code"], body["origin"], body["repeat"]) == (third.code, "generated", False)
    # every board made is seen: after NEW_ATTEMPTS, a seen one from the bank, said so
    made.clear()
    monkeypatch.setattr(puzzles, "_generated", generator([first] * games.NEW_ATTEMPTS))
    body = new(client, seen=[first.fingerprint, second.fingerprint])
    assert len(made) == games.NEW_ATTEMPTS
    assert body["repeat"] is True
    assert body["code"] in {first.code, second.code}


@pytest.mark.parametrize(
    ("seen", "fragments"),
    [
        (["811c9dc5", "ABCDEF01"], ["seen", "entry 1", "'ABCDEF01'", "8 lower-case hex"]),
        (["811c9dc"], ["entry 0", "'811c9dc'"]),
        (["811c9dc5x"], ["'811c9dc5x'"]),
        ([7], ["entry 0 7"]),
        (
            ["0" * 8] * (models.MAX_SEEN + 1),
            [f"{models.MAX_SEEN + 1} entries", f"at most {models.MAX_SEEN}"],
        ),
        ("811c9dc5", ["seen: "]),
    ],
)
def test_a_malformed_seen_is_a_400_that_quotes_it(
    client: TestClient, seen: Any, fragments: list[str]
) -> None:
    body = {"genre": "norinori", "size": "5x5", "seen": seen}
    response = client.post("/api/new", json=body)
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert "Value error" not in message
    for fragment in fragments:
        assert fragment in message, message


def test_a_full_seen_is_taken(client: TestClient, store: bank.Bank) -> None:
    stock(store, KEY, 1)
    seen = [f"{n:08x}" for n in range(models.MAX_SEEN)]
    assert new(client, seen=seen)["origin"] == "bank"


def test_a_new_game_rates_its_board_within_its_grades_band(
    client: TestClient, store: bank.Bank
) -> None:
    grades = ("easy", "medium", "hard")
    for band, grade in enumerate(grades):
        key = bank.Key("norinori", 5, 5, grade)
        (record,) = stock(store, key, 1)
        body = client.post(
            "/api/new", json={"genre": "norinori", "size": "5x5", "difficulty": grade}
        ).json()
        assert body["code"] == record.code
        assert body["rating"] == record.rating
        assert 10 * band <= body["rating"] < 10 * (band + 1)
        assert body["score"] == record.score  # the raw score is still there


def test_every_setting_the_catalog_offers_is_accepted_by_new_game(
    client: TestClient, store: bank.Bank, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per option value: the catalog's settings are the keys the bank stocks, and New game
    takes each (the generator is stubbed out: a 503 says the request was accepted)."""

    async def nothing(*args: Any) -> bank.Record:
        raise GenerationError("not generated in this test", {"attempts": 0})

    monkeypatch.setattr(puzzles, "_generated", nothing)
    asked = 0
    for offer in client.get("/api/catalog").json():
        genre = registry.genre(offer["name"])
        settings = offer["settings"]
        assert settings[0] == {"options": {}, "grades_by_size": offer["grades_by_size"]}
        listed = {
            bank.Key(genre.name, *map(int, size.split("x")), grade, bank.options_text(s["options"]))
            for s in settings
            for size, grades in s["grades_by_size"].items()
            for grade in grades
        }
        assert listed == set(bank.offered_keys(genre))
        for key in listed:
            body = {
                "genre": key.genre,
                "size": key.size,
                "difficulty": key.difficulty,
                "options": key.settings(),
            }
            reply = client.post("/api/new", json=body)
            assert reply.status_code == 503, (body, reply.text)
            asked += 1
    assert asked >= 100


def test_nondango_no_three_black_lists_only_what_it_delivers(client: TestClient) -> None:
    (offer,) = [o for o in client.get("/api/catalog").json() if o["name"] == "nondango"]
    black = next(s for s in offer["settings"] if s["options"] == {"rule": "no-three-black"})
    assert black["grades_by_size"]["5x5"] == ["easy"]
    assert all("medium" not in grades for grades in black["grades_by_size"].values())
    body = {
        "genre": "nondango",
        "size": "7x7",
        "difficulty": "medium",
        "options": {"rule": "no-three-black"},
    }
    reply = client.post("/api/new", json=body)
    assert reply.status_code == 400
    assert "under rule no-three-black offers easy, hard, not 'medium'" in reply.json()["error"]
