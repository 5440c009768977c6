"""The web app in-process: the page, every endpoint, and 400s (never 500s) for bad input."""

from __future__ import annotations

import os
import re
import time
import warnings
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from gridproof import __version__, service
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genres
from gridproof.web import app as web
from gridproof.web.routes import tools

with warnings.catch_warnings():
    # starlette's TestClient announces a move to `httpx2`; the project pins httpx.
    warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
    from fastapi.testclient import TestClient

from tests.examples import SOLUTION, URL


@pytest.fixture(scope="module")
def client(bank_path: Path) -> Iterator[TestClient]:
    with TestClient(web.app) as test_client:
        yield test_client


def assert_error(response: Any, *fragments: str, status: int = 400) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["error"]
    message: str = body["error"]
    assert message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message
    return message


# --- the page ------------------------------------------------------------------------------


def test_the_page_is_served_without_external_assets(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "<title>gridproof</title>" in page
    assert '<script type="module" src="/static/js/main.js"></script>' in page
    assert "://" not in page
    assert not re.search(r"""(src|href|action)\s*=\s*["']?//""", page)
    assert "<script>" not in page  # no inline script: the policy allows only our own files


def test_the_page_allows_only_its_own_files(client: TestClient) -> None:
    response = client.get("/")
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy
    assert "script-src 'self';" in policy
    assert "style-src 'self';" in policy
    assert "connect-src 'self';" in policy
    assert response.headers["x-content-type-options"] == "nosniff"


def test_the_static_modules_fetch_nothing_from_outside(client: TestClient) -> None:
    static = resources.files("gridproof.web").joinpath("static")
    names = ["style.css", *(f"js/{f.name}" for f in static.joinpath("js").iterdir())]
    assert {"js/main.js", "js/board.js", "js/game.js", "js/api.js", "js/store.js"} <= set(names)
    for name in names:
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        assert response.headers["content-type"].startswith(kind)
        text = response.text.replace("'http://www.w3.org/2000/svg'", "")  # a name, not a fetch
        assert "://" not in text, name
        assert "@import" not in text, name
        assert "url(" not in text, name


def test_the_css_has_both_themes_and_respects_reduced_motion(client: TestClient) -> None:
    css = client.get("/static/style.css").text
    assert "prefers-color-scheme: dark" in css
    assert ':root[data-theme="dark"]' in css
    assert "prefers-reduced-motion: reduce" in css


def test_no_documentation_page_that_would_load_a_cdn(client: TestClient) -> None:
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").status_code == 200


def test_openapi_describes_the_api(client: TestClient) -> None:
    info = client.get("/openapi.json").json()
    assert info["info"] == {
        "title": "gridproof",
        "version": __version__,
        "description": info["info"]["description"],
    }
    assert {"/api/genres", "/api/count", "/api/convert", "/api/validate"} <= set(info["paths"])
    assert "/" not in info["paths"]


# --- the API -------------------------------------------------------------------------------


def test_genres(client: TestClient, norinori: Genre) -> None:
    response = client.get("/api/genres")
    assert response.status_code == 200
    assert {"name": "norinori", "title": norinori.title, "rungs": list(norinori.rungs)} in (
        response.json()
    )


def test_count(client: TestClient, norinori: Genre) -> None:
    response = client.post("/api/count", json={"source": URL})
    assert response.status_code == 200
    result = response.json()
    assert list(result) == ["id", "genre", "outcome", "solutions", "elapsed_s", "nodes"]
    assert (result["id"], result["outcome"], result["solutions"]) == (URL, "unique", [SOLUTION])


def test_count_takes_the_first_puzzle_of_json_text(client: TestClient, norinori: Genre) -> None:
    source = (
        '{"genre": "norinori", "puzzles": [{"id": "a", "width": 2, "height": 2, '
        '"regions": [[0, 0], [0, 0]]}, {"id": "b", "width": 1, "height": 1, "regions": [[0]]}]}'
    )
    result = client.post("/api/count", json={"source": source, "limit": 3}).json()
    assert (result["id"], result["outcome"], len(result["solutions"])) == ("a", "multiple", 3)


@pytest.mark.parametrize(
    ("asked", "used"), [({}, 5.0), ({"deadline_s": 0.5}, 0.5), ({"deadline_s": 99}, 10.0)]
)
def test_count_always_runs_under_a_deadline_of_at_most_10_s(
    client: TestClient,
    norinori: Genre,
    monkeypatch: pytest.MonkeyPatch,
    asked: dict[str, Any],
    used: float,
) -> None:
    calls: list[tuple[int, float]] = []

    def fake_count(item: service.Loaded, limit: int, deadline: Deadline) -> service.Counted:
        calls.append((limit, deadline.remaining()))
        return service.Counted(item.id, "norinori", Verdict.UNIQUE, (), 0.0, 1)

    monkeypatch.setattr(service, "count", fake_count)
    monkeypatch.setattr(
        tools, "first", lambda source, deadline: service.Loaded("x", norinori, None)
    )
    assert client.post("/api/count", json={"source": "x", **asked}).json()["id"] == "x"
    [(limit, remaining)] = calls
    assert limit == 2
    assert used - 1 < remaining <= used


@pytest.mark.parametrize("to", ["code", "url", "json"])
def test_convert(client: TestClient, norinori: Genre, to: str) -> None:
    response = client.post("/api/convert", json={"source": URL, "to": to})
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["to"]) == (URL, to)
    item = service.load(URL)[0]
    assert body["result"] == service.convert(item, to)


@pytest.mark.parametrize("to", ["tatham", "non", "code", "pzprv3"])
def test_convert_reads_and_writes_a_genre_s_own_formats(client: TestClient, to: str) -> None:
    non = "width 4\nheight 4\nrows\n1,1\n2\n1\n1\ncolumns\n2\n1\n2\n1\n"
    for source in ("4x4:2/1/2/1/1.1/2/1/1", non):
        response = client.post("/api/convert", json={"source": source, "to": to})
        assert response.status_code == 200, response.text
        result = response.json()["result"]
        assert service.load(result)[0].puzzle == service.load(source)[0].puzzle
    too_long = "512x1:" + "/".join(["1"] * 512) + "/512"
    assert_error(
        client.post("/api/convert", json={"source": too_long, "to": "url"}),
        "512x1 cannot be written as url: clue 512 is too large",
    )


def test_convert_reads_and_writes_pzprv3_files(client: TestClient, norinori: Genre) -> None:
    response = client.post("/api/convert", json={"source": URL, "to": "pzprv3"})
    assert response.status_code == 200, response.text
    saved = response.json()["result"]
    assert saved.startswith("pzprv3.1\nnorinori\n5\n5\n")
    back = client.post("/api/convert", json={"source": saved, "to": "url"})
    assert back.json()["result"] == URL
    embedded = "https://puzz.link/p?" + saved.replace(" ", "%20").replace("\n", "/")
    again = client.post("/api/convert", json={"source": embedded, "to": "url"})
    assert again.json()["result"] == URL
    board = service.generate("nondango", 5, 5, 4, options={"rule": "no-three-black"})
    assert_error(
        client.post("/api/convert", json={"source": board.code, "to": "pzprv3"}),
        "no-three-black puzzle has no pzprv3 file",
    )


def test_validate(client: TestClient, norinori: Genre) -> None:
    solved = client.post("/api/validate", json={"source": URL, "grid": SOLUTION}).json()
    assert solved["solved"] is True
    assert solved["violations"] == []
    regions = norinori.parse_url(URL).region_cells()
    assert sorted(g["region_id"] for g in solved["complete"]) == list(range(len(regions)))
    grid = ["#####", ".....", ".....", ".....", "....."]
    broken = client.post("/api/validate", json={"source": URL, "grid": grid}).json()
    assert broken["solved"] is False
    assert broken["violations"]
    keys = {"rule", "text", "cells", "regions", "quota", "group", "final"}
    assert set(broken["violations"][0]) == keys
    counts = [v for v in broken["violations"] if v["rule"] == "region-count"]
    assert counts
    assert {v["quota"] for v in counts} == {2}  # data, never read out of the sentence
    for v in counts:  # judged as a partial grid: '.' undecided
        marks = [grid[c // 5][c % 5] for c in v["group"]]
        has, still = marks.count("#"), marks.count(".")
        assert v["final"] is (has > 2 or has + still < 2)


def test_validate_judges_a_partial_grid_final_or_open(client: TestClient) -> None:
    """A region that cannot get its two shaded cells any more is broken already, one with
    room left only open; a shaded cell with two shaded neighbours is broken, one alone
    with room beside it open; a region holding its two is complete."""
    grid = ["##+++", "+++++", ".....", ".....", "....."]
    judged = client.post("/api/validate", json={"source": URL, "grid": grid}).json()
    puzzle = genres()["norinori"].parse_url(URL)
    for v in judged["violations"]:
        if v["rule"] == "region-count":
            (rid,) = v["regions"]
            cells = [c for c in range(25) if puzzle.regions[c] == rid]
            open_cells = [c for c in cells if grid[c // 5][c % 5] == "."]
            assert v["final"] is (
                len(open_cells) < 2 - sum(grid[c // 5][c % 5] == "#" for c in cells)
            )
    assert not any(v["rule"] == "domino" for v in judged["violations"])
    lone = ["#....", ".....", ".....", ".....", "....."]
    judged = client.post("/api/validate", json={"source": URL, "grid": lone}).json()
    (domino,) = [v for v in judged["violations"] if v["rule"] == "domino"]
    assert domino["final"] is False
    assert domino["quota"] == 1
    boxed = ["#+...", "+....", ".....", ".....", "....."]
    judged = client.post("/api/validate", json={"source": URL, "grid": boxed}).json()
    (domino,) = [v for v in judged["violations"] if v["rule"] == "domino"]
    assert domino["final"] is True
    complete = {g["region_id"] for g in judged["complete"]}
    assert complete == set()


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        ({"source": "norinori.1.5x5.zzz"}, ["code 'norinori.1.5x5.zzz'"]),
        ({"source": "https://puzz.link/p?norinori/5/5/"}, ["URL "]),
        ({"source": "https://puzz.link/p?nosuch/5/5/x"}, ["unknown genre 'nosuch'", "norinori"]),
        ({"source": "/etc/passwd"}, ["file paths are not accepted"]),
        ({"source": "corpus.json"}, ["file paths are not accepted"]),
        ({"source": "{oops"}, ["invalid JSON at line 1, column 2"]),
        ({"source": "   "}, ["empty source"]),
        ({"source": ""}, ["source: String should have at least 1 character"]),
        ({"source": "x" * 100_001}, ["source: String should have at most 100000 characters"]),
        ({"source": 5}, ["source: Input should be a valid string"]),
        ({}, ["source: Field required"]),
        ({"source": URL, "limit": 1}, ["limit: Input should be greater than or equal to 2"]),
        ({"source": URL, "limit": "two"}, ["limit: "]),
        ({"source": URL, "deadline_s": 0}, ["deadline_s: Input should be greater than 0"]),
        ({"source": URL, "deadline_s": -3}, ["deadline_s: "]),
        (
            {"source": URL, "deadline": 3},
            ["unknown key 'deadline'", "keys: source, limit, deadline_s"],
        ),
    ],
)
def test_count_rejects_bad_input_with_400(
    client: TestClient, norinori: Genre, body: dict[str, Any], fragments: list[str]
) -> None:
    assert_error(client.post("/api/count", json=body), *fragments)


@pytest.mark.parametrize(
    ("content", "content_type", "fragment"),
    [
        ("{bad", "application/json", "the body is not valid JSON at character 1"),
        ('{"source": "x", "deadline_s": NaN}', "application/json", "deadline_s: "),
        ('{"source": "x", "deadline_s": 1e999}', "application/json", "deadline_s: "),
        ("[1, 2]", "application/json", "the body must be a JSON object"),
        ('{"source": "x"}', "text/plain", "the body must be a JSON object"),
        ("source=x", "application/x-www-form-urlencoded", "the body must be a JSON object"),
        ("", "application/json", "the body is missing"),
        ('{"source": NaN}', "application/json", "source: "),
    ],
)
def test_malformed_bodies_are_400(
    client: TestClient, content: str, content_type: str, fragment: str
) -> None:
    response = client.post("/api/count", content=content, headers={"content-type": content_type})
    assert_error(response, fragment)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"source": URL, "to": "svg"}, "unknown format 'svg'; formats: code, url, json, non"),
        ({"source": URL, "to": "tatham"}, "unknown format 'tatham' for Norinori"),
        ({"source": "4x4:2/1/2/1/1.1/2/1/1", "to": "nope"}, "unknown format 'nope'"),
        ({"source": URL}, "to: Field required"),
        ({"source": "nothing", "to": "url"}, "'nothing' is not a puzzle code"),
    ],
)
def test_convert_rejects_bad_input_with_400(
    client: TestClient, norinori: Genre, body: dict[str, Any], fragment: str
) -> None:
    assert_error(client.post("/api/convert", json=body), fragment)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"source": URL, "grid": ["##..."]}, "grid for "),
        ({"source": URL, "grid": ["##..x"] * 5}, "grid for "),
        ({"source": URL, "grid": "##.../....."}, "grid: Input should be a valid list"),
        ({"source": URL, "grid": []}, "grid: List should have at least 1 item"),
        ({"source": URL, "grid": [1, 2]}, "grid.0: Input should be a valid string"),
        ({"source": URL, "grid": ["#"] * 1001}, "grid: List should have at most 1000 items"),
        ({"source": URL}, "grid: Field required"),
    ],
)
def test_validate_rejects_bad_input_with_400(
    client: TestClient, norinori: Genre, body: dict[str, Any], fragment: str
) -> None:
    assert_error(client.post("/api/validate", json=body), fragment)


def test_unknown_paths_and_methods_answer_in_the_same_shape(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), "Not Found", status=404)
    assert_error(client.get("/api/count"), "Method Not Allowed", status=405)


def test_the_filler_stocks_the_bank_in_the_background_and_stops_with_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bank.sqlite3"
    monkeypatch.setenv("GRIDPROOF_DB", str(path))
    monkeypatch.setenv("GRIDPROOF_FILL", "1")
    monkeypatch.setenv("GRIDPROOF_FILL_MAX_SIDE", "5")
    monkeypatch.setenv("GRIDPROOF_FILL_TARGET", "1")
    with TestClient(web.app) as client:
        filler = web.app.state.context.filler
        assert filler is not None
        end = time.monotonic() + 60
        boards = 0
        while boards == 0 and time.monotonic() < end:
            time.sleep(0.2)
            boards = sum(key["boards"] for key in client.get("/api/bank").json()["keys"])
        assert boards > 0
    assert not filler.running


def test_serve_passes_the_bank_file_and_the_filler_switch_to_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    from gridproof import cli

    seen: list[tuple[str | None, str | None]] = []
    monkeypatch.setattr(
        uvicorn,
        "run",
        lambda *a, **k: seen.append(
            (os.environ.get("GRIDPROOF_DB"), os.environ.get("GRIDPROOF_FILL"))
        ),
    )
    monkeypatch.delenv("GRIDPROOF_DB", raising=False)
    monkeypatch.delenv("GRIDPROOF_FILL", raising=False)
    assert cli.main(["serve", "--db", str(tmp_path / "b.sqlite3"), "--no-fill"]) == 0
    assert seen == [(str(tmp_path / "b.sqlite3"), "0")]
