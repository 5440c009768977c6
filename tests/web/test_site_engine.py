"""The static site's Python side: the engine the page's worker calls (gridproof.site.engine)
answers as the HTTP API does, and a bank exported as shards (gridproof.site.export) serves
new games that are never a repeat."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from gridproof import bank
from gridproof.core.codes import fingerprint
from gridproof.service import play
from gridproof.site import engine as site_engine
from gridproof.site import export

KEY = bank.Key("norinori", 5, 5, "easy")


def run(coroutine: Coroutine[Any, Any, str]) -> str:
    """`coroutine` to its end on an event loop of its own, in a thread of its own: the
    browser tests' Playwright keeps an event loop running in this thread for the session."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def call(engine: site_engine.Engine, method: str, body: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(run(engine.handle(method, json.dumps(body))))
    return answer


def folder_reader(root: Path) -> site_engine.Reader:
    def read(path: str) -> str | None:
        target = root / path
        return target.read_text(encoding="utf-8") if target.is_file() else None

    return read


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three 5x5 Norinori boards banked and exported as a site's shards."""
    root = tmp_path_factory.mktemp("site")
    store = bank.Bank(root / "bank.sqlite3")
    for seed in (1, 2, 3):
        store.add(bank.make_record(KEY, seed))
    written = export.export(store, root)
    assert (written.boards, written.shards, written.keys) == (3, 1, 1)
    return root


def test_the_index_names_each_shard_and_a_shard_holds_no_solution(shards: Path) -> None:
    index = json.loads((shards / "bank" / "index.json").read_text())
    (key,) = index["keys"]
    assert (key["genre"], key["size"], key["difficulty"], key["total"]) == (
        "norinori",
        "5x5",
        "easy",
        3,
    )
    boards = json.loads((shards / key["shards"][0]).read_text())
    assert len(boards) == 3
    assert all("solution" not in board and "seed" not in board for board in boards)
    assert all(len(board["solution_digest"]) == 64 for board in boards)
    assert set(index["daily"]) >= {"norinori", "nonogram", "nondango"}


def test_new_games_come_from_the_shards_unseen_then_are_generated(shards: Path) -> None:
    engine = site_engine.Engine(folder_reader(shards))
    seen: list[str] = []
    for _ in range(3):
        view = call(engine, "new", {"genre": "norinori", "size": "5x5", "seen": seen})["ok"]
        assert view["origin"] == "bank"
        assert not view["repeat"]
        assert fingerprint(view["code"]) not in seen
        seen.append(fingerprint(view["code"]))
    made = call(engine, "new", {"genre": "norinori", "size": "5x5", "seen": seen})["ok"]
    assert made["origin"] == "generated"
    assert fingerprint(made["code"]) not in seen
    assert made["solution_digest"]
    assert made["difficulty"] == "easy"


def test_a_hint_names_a_rule_and_check_and_validate_answer(shards: Path) -> None:
    engine = site_engine.Engine(folder_reader(shards))
    view = call(engine, "new", {"genre": "norinori", "size": "5x5"})["ok"]
    blank = ["....."] * 5
    hint = call(engine, "hint", {"code": view["code"], "marks": blank, "version": 7})["ok"]
    assert hint["version"] == 7
    assert hint["status"] == "step"
    assert hint["rule"]
    checked = call(engine, "check", {"code": view["code"], "marks": blank})["ok"]
    assert checked["mistakes"] == 0
    valid = call(engine, "validate", {"source": view["code"], "grid": ["....."] * 5})["ok"]
    assert valid["solved"] is False
    assert valid["violations"]


def test_a_board_is_counted_once_for_its_hints_and_never_when_made_here(
    shards: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted: list[str] = []
    count = play.counted_answer

    def counting(genre: Any, puzzle: Any, deadline: Any) -> play.Answer:
        counted.append(genre.format_code(puzzle))
        return count(genre, puzzle, deadline)

    monkeypatch.setattr(play, "counted_answer", counting)
    engine = site_engine.Engine(folder_reader(shards))
    blank = {"marks": ["....."] * 5}
    banked = call(engine, "new", {"genre": "norinori", "size": "5x5"})["ok"]
    for _ in range(3):
        call(engine, "hint", {"code": banked["code"], **blank})
        call(engine, "check", {"code": banked["code"], **blank})
    assert counted == [banked["code"]]  # a banked board: counted when first asked, once
    seen = [fingerprint(banked["code"])]
    while (made := call(engine, "new", {"genre": "norinori", "size": "5x5", "seen": seen})["ok"])[
        "origin"
    ] == "bank":
        seen.append(fingerprint(made["code"]))
    assert call(engine, "hint", {"code": made["code"], **blank})["ok"]["status"] == "step"
    assert counted == [banked["code"]]  # made here: its generator's answer serves


def test_the_workshop_verdict_and_make_unique(shards: Path) -> None:
    engine = site_engine.Engine(folder_reader(shards))
    view = call(engine, "new", {"genre": "norinori", "size": "5x5"})["ok"]
    verdict = call(engine, "verdict", {"source": view["code"], "version": 2})["ok"]
    assert verdict["outcome"] == "unique"
    assert verdict["version"] == 2
    empty = call(engine, "convert", {"source": view["code"], "to": "json"})["ok"]
    puzzle = json.loads(empty["result"])
    puzzle["regions"] = [[0] * 5 for _ in range(5)]  # one region: any domino
    many = call(engine, "verdict", {"source": json.dumps(puzzle)})["ok"]
    assert many["outcome"] == "multiple"
    made = call(engine, "unique", {"source": json.dumps(puzzle)})["ok"]
    from gridproof import service
    from gridproof.core.deadline import Deadline
    from gridproof.service import workshop

    loaded = service.load(json.dumps(puzzle), files=False)[0]
    direct = workshop.make_unique(loaded, None, Deadline(60)).to_json()
    assert (made["outcome"], made["changed"], made["puzzle"]) == (
        direct["outcome"],
        direct["changed"],
        direct["puzzle"],
    )
    published = call(engine, "keep", {"source": view["code"]})["ok"]
    assert published["code"] == view["code"]
    assert published["stored"] is False


def test_the_daily_puzzle_is_the_servers_choice(shards: Path, tmp_path: Path) -> None:
    index = json.loads((shards / "bank" / "index.json").read_text())
    index["daily"] = {"norinori": {"size": "5x5", "difficulty": "easy"}}
    site = tmp_path / "site"
    (site / "bank").mkdir(parents=True)
    (site / "bank" / "index.json").write_text(json.dumps(index))
    key = index["keys"][0]
    (site / key["shards"][0]).parent.mkdir(parents=True)
    (site / key["shards"][0]).write_text((shards / key["shards"][0]).read_text())
    engine = site_engine.Engine(folder_reader(site))
    day = call(engine, "daily", {"today": "2026-12-03"})["ok"]
    store = bank.Bank(shards / "bank.sqlite3")
    from gridproof.service import games

    served = games.daily(store, "2026-12-03", ((5, 5), "easy"))
    assert [b["code"] for b in day["boards"]] == [served[0].code]


def test_bad_requests_are_one_line_errors_never_tracebacks() -> None:
    engine = site_engine.Engine(lambda path: None)
    bad = call(engine, "hint", {"code": "norinori.1.5x5.zz", "marks": []})
    assert bad["status"] == 400
    assert "\n" not in bad["error"]
    assert call(engine, "nothing", {})["status"] == 400
    answer = json.loads(run(engine.handle("hint", "[1")))
    assert answer["status"] == 400
    assert call(engine, "new", {"genre": "norinori", "size": "5x5", "seed": -1})["status"] == 400


def test_a_file_not_fetched_yet_is_asked_for() -> None:
    def read(path: str) -> str | None:
        raise site_engine.Unread(path)

    answer = call(
        site_engine.Engine(read),
        "boards",
        {"genre": "norinori", "size": "5x5", "difficulty": "easy"},
    )
    assert answer == {"fetch": "bank/index.json"}


def test_the_engine_loads_without_sqlite_platformdirs_or_the_web() -> None:
    """The browser's Python has none of them (nor python-sat: the engine counts in pure
    Python there, as it does here when python-sat is hidden)."""
    script = (
        "import sys\n"
        "sys.modules['pysat'] = None\n"
        "import gridproof.site.engine as e, asyncio, json\n"
        "engine = e.Engine(lambda path: None)\n"
        "body = json.dumps({'genre': 'nonogram', 'size': '5x5', 'seed': 3})\n"
        "view = json.loads(asyncio.run(engine.handle('new', body)))['ok']\n"
        "verdict = json.loads(asyncio.run(engine.handle('verdict', "
        "json.dumps({'source': view['code']}))))['ok']\n"
        "offers = json.loads(asyncio.run(engine.handle('catalog', '{}')))['ok']\n"
        "assert {o['name'] for o in offers} >= {'norinori', 'nonogram', 'nondango'}\n"
        "heavy = ('sqlite3', 'platformdirs', 'gridproof.bank', 'gridproof.web', 'pysat.solvers')\n"
        "print(verdict['outcome'], [m for m in heavy if sys.modules.get(m)])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "unique []"


def test_bank_export_format_site_writes_the_shards(shards: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = [sys.executable, "-m", "gridproof", "bank", "export"]
    command += ["--db", str(shards / "bank.sqlite3")]
    done = subprocess.run(
        [*command, "--format", "site", "--out", str(out)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "3 boards in 1 shards" in done.stdout
    assert (out / "bank" / "index.json").is_file()
    missing = subprocess.run([*command, "--format", "site"], capture_output=True, text=True)
    assert missing.returncode == 2
    assert "--out" in missing.stderr


def test_boards_past_the_first_shard_are_served_and_listed(
    shards: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "PER_SHARD", 2)
    written = export.export(bank.Bank(shards / "bank.sqlite3"), tmp_path)
    assert (written.boards, written.shards) == (3, 2)
    engine = site_engine.Engine(folder_reader(tmp_path))
    seen: list[str] = []
    for _ in range(3):
        view = call(engine, "new", {"genre": "norinori", "size": "5x5", "seen": seen})["ok"]
        assert view["origin"] == "bank"
        seen.append(fingerprint(view["code"]))
    listed = call(engine, "boards", {"genre": "norinori", "size": "5x5", "difficulty": "easy"})
    assert [fingerprint(b["code"]) for b in listed["ok"]["boards"]] == seen
    page = {"genre": "norinori", "size": "5x5", "difficulty": "easy", "offset": 1, "limit": 2}
    assert [b["code"] for b in call(engine, "boards", page)["ok"]["boards"]] == [
        b["code"] for b in listed["ok"]["boards"][1:]
    ]
