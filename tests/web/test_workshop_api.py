"""The workshop's endpoints in-process: verdicts, repairs, "Make unique" and keeping a
board, with 400s (never 500s) for boards and grids that are wrong."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridproof import bank
from gridproof.core.outcome import Verdict
from gridproof.genres.norinori.sat import count_sat
from gridproof.web import app as web
from tests.examples import REGIONS, SOLUTION
from tests.test_workshop import ambiguous
from tests.web.test_app import assert_error

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def own_bank(bank_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A bank of this module's own: keeping a board must not change the shared one that
    the player's tests pick from."""
    path = tmp_path_factory.mktemp("workshop-bank") / "bank.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GRIDPROOF_DB", str(path))
        yield path


@pytest.fixture(scope="module")
def client(own_bank: Path) -> Iterator[TestClient]:
    with TestClient(web.app) as test_client:
        yield test_client


def norinori(regions: list[list[int]]) -> str:
    rows = len(regions)
    return json.dumps(
        {"genre": "norinori", "width": len(regions[0]), "height": rows, "regions": regions}
    )


def post(client: TestClient, path: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"/api/workshop/{path}", json=body)
    assert response.status_code == 200, response.text
    reply: dict[str, Any] = response.json()
    return reply


def test_the_verdict_on_a_unique_board_has_grade_score_path_and_links(client: TestClient) -> None:
    reply = post(client, "verdict", source=norinori(REGIONS), version=7)
    assert reply["version"] == 7
    assert reply["outcome"] == "unique"
    assert reply["solutions"] == [SOLUTION]
    assert reply["grade"] in ("easy", "medium", "hard", "expert")
    assert reply["score"] > 0
    assert reply["path"]
    assert {"rule", "title", "text", "cells", "shaded", "empty"} <= set(reply["path"][0])
    assert reply["url"].startswith("https://puzz.link/p?norinori/5/5/")
    assert reply["code"].startswith("norinori.")
    assert reply["text"].startswith("Unique")


def test_the_verdict_on_an_ambiguous_board_shows_where(client: TestClient) -> None:
    loaded = ambiguous("norinori", 6, 1)
    source = json.dumps(loaded.genre.to_json(loaded.puzzle))
    reply = post(client, "verdict", source=source)
    assert reply["outcome"] == "multiple"
    first, second = reply["solutions"]
    differ = [r * 6 + c for r in range(6) for c in range(6) if first[r][c] != second[r][c]]
    assert reply["differ"] == differ


def test_a_board_without_a_solution_says_why(client: TestClient) -> None:
    regions = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 4]]
    reply = post(client, "verdict", source=norinori(regions))
    assert reply["outcome"] == "none"
    assert reply["reason"]["cells"] == [15]
    assert "region 5" in reply["reason"]["text"]


def test_repair_lists_edits_that_the_oracle_confirms(client: TestClient) -> None:
    loaded = ambiguous("norinori", 7, 2)
    source = json.dumps(loaded.genre.to_json(loaded.puzzle))
    reply = post(client, "repair", source=source, limit=3)
    assert reply["outcome"] == "multiple"
    assert reply["complete"] is True
    assert 1 <= len(reply["edits"]) <= 3
    best = reply["edits"][0]
    assert best["outcome"] == "unique"
    assert {"text", "cells", "code", "puzzle", "keep", "outcome", "grade"} <= set(best)
    puzzle = loaded.genre.from_json(best["puzzle"])
    assert loaded.genre.format_code(puzzle) == best["code"]
    assert count_sat(puzzle, 2).verdict is Verdict.UNIQUE


def test_make_unique_answers_the_board_it_made(client: TestClient) -> None:
    loaded = ambiguous("nonogram", 8, 3)
    source = json.dumps(loaded.genre.to_json(loaded.puzzle))
    reply = post(client, "unique", source=source)
    assert reply["outcome"] == "unique"
    assert reply["changed"] == len(reply["edits"]) >= 1
    made = loaded.genre.from_json(reply["puzzle"])
    assert loaded.genre.format_code(made) == reply["code"]
    assert reply["keep"] == reply["solutions"][0]


def test_a_pinned_picture_stays_the_solution(client: TestClient) -> None:
    loaded = ambiguous("nonogram", 7, 2)
    first = post(client, "verdict", source=json.dumps(loaded.genre.to_json(loaded.puzzle)))
    rival = first["solutions"][1]
    source = json.dumps(loaded.genre.to_json(loaded.puzzle))
    reply = post(client, "repair", source=source, keep=rival)
    assert reply["solutions"][0] == rival
    for edit in reply["edits"]:
        changed = sum(
            a != b
            for row, new in zip(rival, edit["keep"], strict=True)
            for a, b in zip(row, new, strict=True)
        )
        assert changed == 1  # one pixel of the pinned picture flipped


def test_keep_stores_a_unique_board_made_by_hand_and_refuses_others(
    client: TestClient, own_bank: Path
) -> None:
    regions = [[0, 0, 1, 2, 2], [1, 1, 1, 2, 2], [1, 3, 3, 2, 2], [3, 3, 3, 3, 3], [4, 4, 3, 3, 3]]
    reply = post(client, "keep", source=norinori(regions))
    assert reply["outcome"] == "unique"
    assert reply["provenance"] == "made by hand"
    record = bank.Bank(own_bank).find(reply["code"])
    assert record is not None
    assert record.generator == bank.MADE_BY_HAND
    assert record.provenance == bank.MADE_BY_HAND
    assert record.checks == ("count",)
    assert record.seed == -1
    again = post(client, "keep", source=norinori(regions))
    assert again["stored"] is False
    loaded = ambiguous("norinori", 6, 1)
    source = json.dumps(loaded.genre.to_json(loaded.puzzle))
    assert_error(client.post("/api/workshop/keep", json={"source": source}), "multiple")


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"source": norinori([[0, 1, 0]])}, "region"),  # one label on two areas
        ({"source": norinori(REGIONS), "keep": ["##"]}, "keep grid"),
        ({"source": norinori(REGIONS), "deadline_s": -1}, "deadline_s"),
        ({"source": norinori(REGIONS), "limit": 0}, "limit"),
        ({"source": json.dumps({"genre": "nonogram", "rows": [[3]], "cols": [[1]]})}, "row 1"),
        ({"source": "{"}, "JSON"),
    ],
)
@pytest.mark.parametrize("path", ["verdict", "repair", "unique"])
def test_bad_boards_and_grids_are_400(
    client: TestClient, path: str, body: dict[str, Any], fragment: str
) -> None:
    assert_error(client.post(f"/api/workshop/{path}", json=body), fragment)


def test_minimize_lists_the_givens_a_unique_board_can_lose(client: TestClient) -> None:
    reply = post(client, "minimize", source=norinori(REGIONS))
    assert reply["outcome"] == "unique"
    assert reply["complete"] is True
    assert isinstance(reply["spares"], list)
    assert reply["minimize_text"]
    for spare in reply["spares"]:
        assert spare["text"].startswith("the border between r")


def test_a_stopped_make_unique_says_why_and_returns_the_board_to_go_on_from(
    client: TestClient,
) -> None:
    loaded = ambiguous("norinori", 6, 1)
    source = loaded.genre.format_code(loaded.puzzle)
    reply = post(client, "unique", source=source)
    assert reply["outcome"] == "unique"
    assert reply["stopped"] is None
    assert reply["visited"] >= 2
    assert reply["made_text"].startswith("Unique after")
