"""The player's API in-process, for every registered genre: catalog, new puzzle, puzzle by
code, hint, check, validate, bank; malformed input is a 400 that says what is wrong, and no
response ever carries a solution."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridproof import ENGINE_VERSION, service
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genres
from gridproof.service import play
from gridproof.web import app as web
from gridproof.web import models
from tests.web.conftest import BOARDS_PER_GENRE, small_key

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
    from fastapi.testclient import TestClient

GENRES = sorted(genres().values(), key=lambda g: g.name)
AMBIGUOUS = '{"genre": "norinori", "width": 2, "height": 2, "regions": [[0, 0], [0, 0]]}'


@pytest.fixture(scope="module")
def client(bank_path: Path) -> Iterator[TestClient]:
    with TestClient(web.app) as test_client:
        yield test_client


@pytest.fixture(params=GENRES, ids=lambda g: g.name)
def genre(request: pytest.FixtureRequest) -> Genre:
    chosen: Genre = request.param
    return chosen


def new(client: TestClient, genre: Genre, **more: Any) -> dict[str, Any]:
    key = small_key(genre)
    body = {"genre": genre.name, "size": key.size, "difficulty": key.difficulty, **more}
    response = client.post("/api/new", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def solution_of(genre: Genre, code: str) -> int:
    outcome = genre.count(genre.parse_code(code), 2, Deadline(30))
    assert outcome.verdict is Verdict.UNIQUE
    return outcome.solutions[0]


def rows(width: int, height: int, shaded: int = 0, empty: int = 0) -> list[str]:
    return play.format_marks(_Size(width, height), play.Marks(shaded, empty))


class _Size:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height


def assert_no_solution(body: Any, genre: Genre, code: str) -> None:
    """No key named like a solution, and not the solution's text anywhere."""
    text = json.dumps(body)
    assert '"solution"' not in text
    puzzle = genre.parse_code(code)
    answer = "".join(genre.format_grid(puzzle, solution_of(genre, code)))
    assert answer not in text.replace('", "', "")


def assert_error(response: Any, *fragments: str, status: int = 400) -> str:
    assert response.status_code == status, response.text
    message: str = response.json()["error"]
    assert message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message
    return message


# --- catalog and bank ----------------------------------------------------------------------


def test_the_catalog_lists_every_genre_with_lessons_sizes_and_difficulties(
    client: TestClient,
) -> None:
    listed = {entry["name"]: entry for entry in client.get("/api/catalog").json()}
    assert set(listed) == set(genres())
    for name, entry in listed.items():
        genre = genres()[name]
        assert entry["title"] == genre.title
        assert entry["lessons"] == list(genre.lessons)
        assert len(entry["lessons"]) >= 2  # taught in layers
        assert entry["difficulties"] == list(genre.difficulties)
        assert entry["default_difficulty"] in genre.difficulties
        assert small_key(genre).size in entry["sizes"]
        # what the page draws, as data: the layers are keys of the genre's JSON
        assert entry["look"] == genre.look.to_json()
        assert entry["look"]["layers"]
        for option, sent in zip(
            (o for o in genre.options if o.choices), entry["options"], strict=True
        ):
            # the menus are labelled in the genre's words: the page knows no option
            assert sent["label"] == option.title
            assert set(sent["words"]) <= {str(choice) for choice in option.choices or ()}
            assert all(words for words in sent["words"].values())


def test_the_bank_reports_what_it_holds(client: TestClient) -> None:
    body = client.get("/api/bank").json()
    assert body["filling"] is False
    held = {
        (k["genre"], k["size"], k["difficulty"]): k["boards"]
        for k in body["keys"]
        if not k["options"]  # the default options (a key with others is a key of its own)
    }
    for genre in GENRES:
        key = small_key(genre)
        assert held[(genre.name, key.size, key.difficulty)] >= BOARDS_PER_GENRE


# --- new puzzles ---------------------------------------------------------------------------


def test_a_new_puzzle_comes_from_the_bank_verified_and_without_its_solution(
    client: TestClient, genre: Genre
) -> None:
    key = small_key(genre)
    body = new(client, genre)
    assert body["origin"] == "bank"
    assert (body["genre"], body["width"], body["height"]) == (genre.name, key.width, key.height)
    assert body["difficulty"] == key.difficulty
    assert body["code"].startswith(f"{genre.name}.")
    assert body["verification"]["verdict"] == "unique"
    assert body["verification"]["engine"] == ENGINE_VERSION
    assert body["engine"] == ENGINE_VERSION
    assert body["generator"]
    assert "seed" not in body  # the seed rebuilds the solution: the player needs none of it
    puzzle = genre.parse_code(body["code"])
    assert body["data"] == {
        k: v for k, v in genre.to_json(puzzle).items() if k not in ("id", "genre")
    }
    assert_no_solution(body, genre, body["code"])


def test_new_game_excludes_the_puzzle_it_replaces(client: TestClient, genre: Genre) -> None:
    first = new(client, genre)["code"]
    for _ in range(5):
        assert new(client, genre, exclude=[first])["code"] != first


def test_a_seed_generates_that_board_in_a_worker_and_banks_it(
    client: TestClient, genre: Genre
) -> None:
    key = small_key(genre)
    expected = service.generate(genre.name, key.width, key.height, 11, key.difficulty, 30)
    body = new(client, genre, seed=11)
    assert (body["origin"], body["code"]) == ("generated", expected.code)
    assert "seed" not in body
    assert body["generator"] == genre.generator
    assert_no_solution(body, genre, body["code"])
    again = client.get("/api/puzzle", params={"code": body["code"]}).json()
    assert again["origin"] == "bank"


def test_no_board_in_time_is_503_with_the_generators_health(client: TestClient) -> None:
    body = {"genre": "norinori", "size": "30x30", "difficulty": "easy", "deadline_s": 0.05}
    response = client.post("/api/new", json=body)
    message = assert_error(response, status=503)
    assert "30x30" in message or "30×30" in message or "proven" in message
    assert set(response.json()["health"]) >= {"attempts", "timeout", "milliseconds"}


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        ({"genre": "chess", "size": "5x5"}, ["unknown genre 'chess'", "norinori"]),
        ({"genre": "norinori", "size": "5by5"}, ["size: size '5by5' is not WIDTHxHEIGHT"]),
        ({"genre": "norinori", "size": "2x2"}, ["size 2x2 is outside Norinori's range"]),
        ({"genre": "norinori", "size": "999x999"}, ["outside"]),
        ({"genre": "norinori", "size": "5x5", "difficulty": "brutal"}, ["'brutal'", "easy"]),
        ({"genre": "norinori"}, ["size: Field required"]),
        ({"size": "5x5"}, ["genre: Field required"]),
        ({"genre": "norinori", "size": "5x5", "seed": -1}, ["seed: "]),
        ({"genre": "norinori", "size": "5x5", "deadline_s": 0}, ["deadline_s: "]),
        ({"genre": "norinori", "size": "5x5", "exclude": "x"}, ["exclude: "]),
        ({"genre": "norinori", "size": "5x5", "colour": 1}, ["unknown key 'colour'"]),
    ],
)
def test_new_rejects_bad_requests_with_400(
    client: TestClient, body: dict[str, Any], fragments: list[str]
) -> None:
    assert_error(client.post("/api/new", json=body), *fragments)


# --- puzzles by code -----------------------------------------------------------------------


def test_a_puzzle_by_code_and_by_puzzlink_url(client: TestClient, genre: Genre) -> None:
    made = new(client, genre)
    by_code = client.get("/api/puzzle", params={"code": made["code"]}).json()
    assert made.pop("repeat") is False  # a New game's own field
    assert by_code == made
    url = made["url"]
    if url is None:
        return
    imported = client.get("/api/puzzle", params={"code": url}).json()
    assert imported["code"] == made["code"]
    assert imported["data"] == made["data"]


def test_the_player_imports_a_pattern_id_and_non_text(client: TestClient) -> None:
    pattern = "4x4:2/1/2/1/1.1/2/1/1"
    non = "width 4\nheight 4\nrows\n1,1\n2\n1\n1\ncolumns\n2\n1\n2\n1\n"
    by_pattern = client.get("/api/puzzle", params={"code": pattern}).json()
    assert by_pattern["verification"]["verdict"] == "unique"
    assert by_pattern["code"].startswith("nonogram.")
    assert client.get("/api/puzzle", params={"code": non}).json()["code"] == by_pattern["code"]


def test_an_imported_puzzle_is_counted_and_may_be_ambiguous(client: TestClient) -> None:
    url = "https://puzz.link/p?norinori/5/5/cag4ocjo"
    body = client.get("/api/puzzle", params={"code": url}).json()
    assert (body["origin"], body["verification"]["verdict"]) == ("code", "unique")
    assert body["difficulty"] is None
    ambiguous = client.get("/api/puzzle", params={"code": AMBIGUOUS}).json()
    assert ambiguous["verification"]["verdict"] == "multiple"


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({}, "code: Field required"),
        ({"code": ""}, "code: String should have at least 1 character"),
        ({"code": "nothing"}, "'nothing' is not a puzzle code"),
        ({"code": "norinori.1.5x5.@@@"}, "code 'norinori.1.5x5.@@@'"),
        ({"code": "/etc/passwd"}, "file paths are not accepted"),
        ({"code": "https://puzz.link/p?nosuch/5/5/x"}, "unknown genre 'nosuch'"),
    ],
)
def test_puzzle_rejects_bad_codes_with_400(
    client: TestClient, params: dict[str, str], fragment: str
) -> None:
    assert_error(client.get("/api/puzzle", params=params), fragment)


# --- hints ---------------------------------------------------------------------------------


def test_a_hint_names_a_rule_and_the_cells_to_look_at(client: TestClient, genre: Genre) -> None:
    made = new(client, genre)
    w, h = made["width"], made["height"]
    body = {"code": made["code"], "marks": rows(w, h), "version": 7}
    answer = client.post("/api/hint", json=body).json()
    assert answer["version"] == 7
    assert answer["status"] == "step"
    assert answer["rule"]
    assert answer["title"] == genre.ladder.title(answer["rule"])
    assert answer["text"]
    assert answer["cells"]
    assert answer["shaded"] or answer["empty"]
    solution = solution_of(genre, made["code"])
    for cell in answer["shaded"]:
        assert solution >> cell & 1
    for cell in answer["empty"]:
        assert not solution >> cell & 1


def test_following_the_hints_solves_every_puzzle(client: TestClient, genre: Genre) -> None:
    made = new(client, genre)
    w, h, code = made["width"], made["height"], made["code"]
    shaded = empty = 0
    for version in range(w * h + 1):
        body = {"code": code, "marks": rows(w, h, shaded, empty), "version": version}
        answer = client.post("/api/hint", json=body).json()
        assert answer["version"] == version
        if answer["status"] == "solved":
            break
        assert answer["status"] in ("step", "reveal"), answer
        for cell in answer["shaded"]:
            shaded |= 1 << cell
        for cell in answer["empty"]:
            empty |= 1 << cell
    else:
        pytest.fail("the hints did not solve the puzzle")
    assert genre.validate(genre.parse_code(code), shaded) == []


def test_following_hints_near_the_last_marks_solves_every_puzzle(
    client: TestClient, genre: Genre
) -> None:
    """With `recent` (the cells set last, as the player sends them) every hint is still a
    true deduction and they still solve the puzzle."""
    made = new(client, genre)
    w, h, code = made["width"], made["height"], made["code"]
    solution = solution_of(genre, code)
    shaded = empty = 0
    recent: list[int] = []
    for version in range(w * h + 1):
        body = {"code": code, "marks": rows(w, h, shaded, empty), "recent": recent[:8]}
        answer = client.post("/api/hint", json={**body, "version": version}).json()
        if answer["status"] == "solved":
            break
        assert answer["status"] in ("step", "reveal"), answer
        for cell in answer["shaded"]:
            assert solution >> cell & 1
            shaded |= 1 << cell
        for cell in answer["empty"]:
            assert not solution >> cell & 1
            empty |= 1 << cell
        recent = [*reversed(answer["shaded"] + answer["empty"]), *recent]
    else:
        pytest.fail("the hints did not solve the puzzle")


def test_recent_cells_off_the_board_are_a_400(client: TestClient, genre: Genre) -> None:
    made = new(client, genre)
    w, h = made["width"], made["height"]
    body = {"code": made["code"], "marks": rows(w, h), "recent": [0, w * h]}
    assert_error(client.post("/api/hint", json=body), f"recent: entry 1 ({w * h}) is not a cell")
    too_many = {**body, "recent": [0] * 65}
    assert client.post("/api/hint", json=too_many).status_code == 400


def test_a_hint_reports_mistakes_first_without_saying_where(
    client: TestClient, genre: Genre
) -> None:
    made = new(client, genre)
    w, h, code = made["width"], made["height"], made["code"]
    solution = solution_of(genre, code)
    shaded_cell = next(c for c in range(w * h) if solution >> c & 1)
    body = {"code": code, "marks": rows(w, h, empty=1 << shaded_cell), "version": 1}
    answer = client.post("/api/hint", json=body).json()
    assert (answer["status"], answer["mistakes"], answer["cells"]) == ("mistakes", 1, [])
    assert "1 mark contradicts the solution" in answer["text"]
    shown = client.post("/api/hint", json={**body, "reveal": True}).json()
    assert shown["cells"] == [shaded_cell]


def test_a_hint_on_the_solution_says_solved(client: TestClient, genre: Genre) -> None:
    made = new(client, genre)
    solution = solution_of(genre, made["code"])
    marks = rows(made["width"], made["height"], shaded=solution)
    answer = client.post("/api/hint", json={"code": made["code"], "marks": marks}).json()
    assert answer["status"] == "solved"
    assert answer["version"] == 0


def test_hints_on_an_ambiguous_puzzle_cannot_check_marks(client: TestClient) -> None:
    answer = client.post("/api/hint", json={"code": AMBIGUOUS, "marks": ["..", ".."]}).json()
    assert answer["status"] in ("step", "stuck", "contradiction")
    checked = client.post("/api/check", json={"code": AMBIGUOUS, "marks": ["..", ".."]}).json()
    assert checked["mistakes"] is None
    assert "more than one solution" in checked["text"]


def test_every_hint_runs_under_a_deadline(
    client: TestClient, genre: Genre, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = new(client, genre)
    seen: list[float] = []
    original = play.offer

    def spy(ladder: Any, start: Any, puzzle: Any, deadline: Deadline, **kw: Any) -> Any:
        seen.append(deadline.remaining())
        return original(ladder, start, puzzle, deadline, **kw)

    monkeypatch.setattr(play, "offer", spy)
    marks = rows(made["width"], made["height"])
    client.post("/api/hint", json={"code": made["code"], "marks": marks})
    assert seen
    assert 0 < seen[0] <= models.HINT_S


# --- checks --------------------------------------------------------------------------------


def test_check_counts_contradicting_marks_and_reveals_them_only_when_asked(
    client: TestClient, genre: Genre
) -> None:
    made = new(client, genre)
    w, h, code = made["width"], made["height"], made["code"]
    solution = solution_of(genre, code)
    fine = client.post("/api/check", json={"code": code, "marks": rows(w, h)}).json()
    assert (fine["mistakes"], fine["text"], fine["solved"]) == (0, "No mistakes so far.", False)
    shaded_cells = [c for c in range(w * h) if solution >> c & 1][:2]
    wrong = sum(1 << c for c in shaded_cells)
    body = {"code": code, "marks": rows(w, h, empty=wrong), "version": 3}
    checked = client.post("/api/check", json=body).json()
    assert (checked["version"], checked["mistakes"], checked["cells"]) == (3, 2, None)
    assert checked["text"] == "2 marks contradict the solution."
    revealed = client.post("/api/check", json={**body, "reveal": True}).json()
    assert revealed["cells"] == shaded_cells
    done = client.post("/api/check", json={"code": code, "marks": rows(w, h, solution)}).json()
    assert (done["mistakes"], done["solved"]) == (0, True)


@pytest.mark.parametrize("path", ["/api/hint", "/api/check"])
@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"marks": ["....."] * 4}, "marks: 4 rows given, the puzzle has 5"),
        ({"marks": ["...."] + ["....."] * 4}, "marks: row 1 '....' has 4 cells, the puzzle 5"),
        (
            {"marks": ["..x.."] + ["....."] * 4},
            "marks: row 1, column 3: 'x' is not one of '#', '+', '.'",
        ),
        ({"marks": "....."}, "marks: Input should be a valid list"),
        ({"marks": []}, "marks: List should have at least 1 item"),
        ({"marks": [5]}, "marks.0: Input should be a valid string"),
        ({"version": -1}, "version: Input should be greater than or equal to 0"),
        ({"version": "new"}, "version: "),
        ({"reveal": "perhaps"}, "reveal: "),
        ({"code": "norinori.1.5x5.zzz"}, "code 'norinori.1.5x5.zzz'"),
        ({"code": ""}, "code: String should have at least 1 character"),
        ({"extra": 1}, "unknown key 'extra'"),
    ],
)
def test_play_requests_reject_bad_states_with_400(
    client: TestClient, path: str, change: dict[str, Any], fragment: str
) -> None:
    body = {"code": "https://puzz.link/p?norinori/5/5/cag4ocjo", "marks": ["....."] * 5}
    assert_error(client.post(path, json={**body, **change}), fragment)


# --- validate ------------------------------------------------------------------------------


def test_the_validator_recognises_a_finished_grid_in_marks(
    client: TestClient, genre: Genre
) -> None:
    made = new(client, genre)
    w, h, code = made["width"], made["height"], made["code"]
    solution = solution_of(genre, code)
    full = (1 << (w * h)) - 1
    marks = rows(w, h, shaded=solution, empty=full & ~solution)
    body = client.post("/api/validate", json={"source": code, "grid": marks}).json()
    assert (body["solved"], body["violations"]) == (True, [])
    partial = rows(w, h, shaded=solution & (solution - 1))
    body = client.post("/api/validate", json={"source": code, "grid": partial}).json()
    assert body["solved"] is False
