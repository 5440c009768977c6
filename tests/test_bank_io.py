"""The `gridproof bank` commands, run in-process: fill, stats, export and import round
trips, provenance kept, boards counted before they are kept, and exit status 2 with one
clear line on bad input."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gridproof import bank, cli
from gridproof.bank import evidence
from gridproof.bank import io as bankio
from gridproof.core import registry
from gridproof.service import games
from tests.bankfills import COUNT, START, fill_here, rows

AMBIGUOUS = "nonogram.1.5x5.Veq8"
"""Two shaded cells on a diagonal of a 2×2 corner, either diagonal: two solutions."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def assert_usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 2, err
    assert out == []
    assert err.startswith("gridproof: error: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err
    return err


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("filled") / "bank.sqlite3"
    assert fill_here(path).status == "done"
    return path


def test_fill_prints_what_it_did_and_a_rerun_has_nothing_to_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "bank.sqlite3")
    argv = ["bank", "fill", "--genre", "nonogram", "--size", "5x5", "--count", "4", "--db", db]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    [line] = out
    version = registry.genre("nonogram").generator
    assert line.startswith(f"nonogram 5x5 (grade picked by each seed, {version}): 4 of 4 boards")
    assert "this run 4 new from seeds 1-4" in line
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 0
    summary = json.loads(out[0])
    assert (summary["boards"], summary["kept"], summary["status"]) == (4, 0, "done")
    status, out, _ = run(capsys, *argv[:-4], "--count", "6", "--db", db, "--json")
    assert json.loads(out[0])["seeds"] == [5, 6]


def test_a_fill_that_gives_up_exits_1_and_says_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gridproof.bank import filler

    monkeypatch.setattr(filler, "GIVE_UP_SEEDS", (0, 3))
    db = str(tmp_path / "bank.sqlite3")
    status, _, err = run(
        capsys, "bank", "fill", "--genre", "nonogram", "--size", "5x5", "--count", "9", "--db", db
    )
    assert status == 1
    assert "gave up" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--genre", "go", "--size", "5x5", "--count", "3"], "unknown genre 'go'"),
        (["--genre", "nonogram", "--size", "big", "--count", "3"], "is not WIDTHxHEIGHT"),
        (["--genre", "nonogram", "--size", "2x2", "--count", "3"], "outside Nonogram's range"),
        (
            ["--genre", "nonogram", "--size", "5x5", "--difficulty", "medium", "--count", "3"],
            "offers easy, hard, not 'medium'",
        ),
        (["--genre", "nonogram", "--size", "5x5", "--count", "0"], "must be at least 1"),
        (["--genre", "nonogram", "--size", "5x5"], "required: --count"),
        (
            ["--genre", "nonogram", "--size", "5x5", "--count", "3", "--seed-start", "-1"],
            "must be between 0 and 2**62",
        ),
        (
            [
                "--genre",
                "nonogram",
                "--size",
                "5x5",
                "--count",
                "3",
                "--jobs",
                "2",
                "--scheduler",
                "tcp://127.0.0.1:1",
            ],
            "not allowed with argument --jobs",
        ),
        (["--genre", "nonogram", "--size", "5x5", "--count", "3", "--jobs", "x"], "'x' is not"),
    ],
)
def test_fill_refuses_bad_input_with_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    err = assert_usage_error(capsys, "bank", "fill", *argv, "--db", str(tmp_path / "b.sqlite3"))
    assert message in err


def test_stats_show_boards_failures_and_the_fills(
    capsys: pytest.CaptureFixture[str], filled: Path
) -> None:
    status, out, _ = run(capsys, "bank", "stats", "--db", str(filled), "--json")
    assert status == 0
    found = json.loads(out[0])
    assert sum(b["boards"] for b in found["boards"]) == COUNT
    assert {b["made"] for b in found["boards"]} == {"generated"}
    assert sum(b["checked"] for b in found["boards"]) >= 1
    [fill] = found["fills"]
    assert (fill["kept"], fill["duplicates"], fill["status"]) == (COUNT, 2, "done")
    assert (fill["seed_start"], fill["target"], fill["difficulty"]) == (START, COUNT, "any")
    assert fill["boards_per_minute"] > 0
    assert found["failures"] == []
    status, out, _ = run(capsys, "bank", "stats", "--db", str(filled))
    assert out[0] == "boards:"
    assert f"  {COUNT} boards in all" in out
    assert "fills:" in out
    assert any(line.split()[:3] == ["1", "nonogram", "5x5"] for line in out)


def test_stats_count_the_misses_of_fills_and_of_the_server(tmp_path: Path) -> None:
    store = bank.Bank(tmp_path / "bank.sqlite3")
    store.miss(bank.Key("norinori", 6, 6, "hard"), 5, "no board in time")
    found = bankio.stats(store)
    assert found.failures == [
        {
            "genre": "norinori",
            "size": "6x6",
            "difficulty": "hard",
            "reason": "no board in time",
            "count": 1,
        }
    ]
    assert any("no board in time" in line for line in bankio.format_stats(found))


@pytest.mark.parametrize("form", ["jsonl", "urls"])
def test_export_then_import_round_trips(
    capsys: pytest.CaptureFixture[str], filled: Path, tmp_path: Path, form: str
) -> None:
    status, out, _ = run(capsys, "bank", "export", "--db", str(filled), "--format", form)
    assert status == 0
    assert len(out) == COUNT
    exported = tmp_path / f"boards.{form}"
    exported.write_text("\n".join(out) + "\n", encoding="utf-8")
    fresh = tmp_path / "fresh.sqlite3"
    status, lines, err = run(capsys, "bank", "import", str(exported), "--db", str(fresh))
    assert status == 0, err
    assert lines[-1].startswith(f"{COUNT} boards read: {COUNT} kept, 0 already banked, 0 not kept")
    original = {row[1]: row for row in rows(filled)["puzzles"]}
    imported = bank.Bank(fresh)
    for code, row in original.items():
        record = imported.find(code)
        assert record is not None
        assert (record.solution, record.canonical) == (int(row[10], 16), row[16])
        assert record.checks[0] == evidence.COUNT_CHECK
        assert record.provenance.endswith(f"imported from boards.{form}")
        if form == "jsonl":  # an export's line keeps what rebuilds the board
            assert record.provenance == f"{row[17]}; imported from boards.{form}"
            assert record.difficulty == row[5]  # graded again by the same ladder
            original_record = bank.Bank(filled).find(code)
            assert original_record is not None
            assert (record.seed, record.generator, record.options) == (
                original_record.seed,
                original_record.generator,
                original_record.options,
            )
            assert record.seed > 0
        else:  # a bare URL says nothing of where it came from
            assert (record.seed, record.generator) == (0, "")
    status, lines, _ = run(capsys, "bank", "import", str(exported), "--db", str(fresh))
    assert lines[-1].startswith(f"{COUNT} boards read: 0 kept, {COUNT} already banked")


def test_export_writes_json_lines_with_what_rebuilds_each_board(
    capsys: pytest.CaptureFixture[str], filled: Path
) -> None:
    _, out, _ = run(capsys, "bank", "export", "--db", str(filled), "--genre", "nonogram")
    first: dict[str, Any] = json.loads(out[0])
    assert set(first) == {
        "code",
        "url",
        "genre",
        "size",
        "difficulty",
        "score",
        "seed",
        "generator",
        "options",
        "provenance",
        "checks",
    }
    assert "solution" not in out[0]
    assert first["url"].startswith("https://puzz.link/p?nonogram/5/5/")
    _, none, _ = run(capsys, "bank", "export", "--db", str(filled), "--genre", "norinori")
    assert none == []


def test_import_counts_each_board_and_keeps_only_unique_ones(
    capsys: pytest.CaptureFixture[str], filled: Path, tmp_path: Path
) -> None:
    good = next(iter(rows(filled)["puzzles"]))[1]
    source = tmp_path / "mixed.jsonl"
    source.write_text(
        f'"{good}"\n\n{json.dumps({"code": AMBIGUOUS})}\nhttps://puzz.link/p?nonogram/5/5/1h1q1h1q\n',
        encoding="utf-8",
    )
    fresh = tmp_path / "fresh.sqlite3"
    status, out, _ = run(capsys, "bank", "import", str(source), "--db", str(fresh))
    assert status == 1
    assert out == [
        "mixed.jsonl line 3: not kept: has several solutions",
        "mixed.jsonl line 4: not kept: has several solutions",
        f"3 boards read: 1 kept, 0 already banked, 2 not kept; bank {fresh}",
    ]
    record = bank.Bank(fresh).find(good)
    assert record is not None
    assert record.provenance == "imported from mixed.jsonl"
    assert (record.seed, record.generator) == (0, "")
    assert bank.Bank(fresh).find(AMBIGUOUS) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"code": 3}\n', "line 1: expected a code or a URL"),
        ("nonogram.1.5x5.SVJNNUk3SQA\n{not json\n", "line 2: not JSON"),
        ("\n\nnot a puzzle at all\n", "line 3:"),
        ("\n\n", "holds no puzzles"),
    ],
)
def test_import_refuses_a_file_it_cannot_read_before_counting_anything(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(text, encoding="utf-8")
    fresh = tmp_path / "fresh.sqlite3"
    err = assert_usage_error(capsys, "bank", "import", str(source), "--db", str(fresh))
    assert message in err
    assert not fresh.exists()


def test_bank_commands_refuse_bad_input_with_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "bank.sqlite3")
    assert "unknown genre 'go'" in assert_usage_error(
        capsys, "bank", "export", "--db", db, "--genre", "go"
    )
    assert "invalid choice: 'xml'" in assert_usage_error(
        capsys, "bank", "export", "--db", db, "--format", "xml"
    )
    assert "cannot read import file" in assert_usage_error(
        capsys, "bank", "import", str(tmp_path / "missing.jsonl"), "--db", db
    )
    assert "required" in assert_usage_error(capsys, "bank")
    newer = tmp_path / "newer.sqlite3"
    bank.Bank(newer)
    with sqlite3.connect(newer) as raw:
        raw.execute(f"PRAGMA user_version = {bank.SCHEMA_VERSION + 1}")
    assert "newer than this gridproof's" in assert_usage_error(
        capsys, "bank", "stats", "--db", str(newer)
    )


def test_every_bank_command_defaults_to_the_servers_bank(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRIDPROOF_DB", str(tmp_path / "server.sqlite3"))
    status, _, _ = run(capsys, "bank", "stats")
    assert status == 0
    assert (tmp_path / "server.sqlite3").is_file()


def test_stats_report_the_stock_per_offered_setting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bank.sqlite3"
    store = bank.Bank(path)
    key = bank.Key("nondango", 5, 5, "easy", "rule=no-three-black")
    bank.fill(store, [key], 2)
    assert store.pick(key) is not None
    status, out, _ = run(capsys, "bank", "stats", "--db", str(path), "--json")
    assert status == 0
    rows = {
        (s["genre"], s["size"], s["difficulty"], tuple(s["options"].items())): s
        for s in json.loads(out[0])["stock"]
    }
    mine = rows[("nondango", "5x5", "easy", (("rule", "no-three-black"),))]
    assert (mine["boards"], mine["stock"], mine["target"]) == (2, 1, bank.stock_depth(key))
    assert rows[("norinori", "25x25", "easy", ())]["stock"] == 0  # every offered setting
    assert ("norinori", "30x30", "hard", ()) in rows
    assert ("nonogram", "20x20", "medium", ()) not in rows  # not offered: slower than 10 s
    # the catalog never offers no-three-black medium: neither does the stock
    assert ("nondango", "5x5", "medium", (("rule", "no-three-black"),)) not in rows
    status, out, _ = run(capsys, "bank", "stats", "--db", str(path))
    assert "stock (boards nobody was served yet) per setting:" in out
    assert any(
        line.split()[:6]
        == ["nondango", "5x5", "easy", "rule=no-three-black", "1", str(bank.stock_depth(key))]
        for line in out
    )


def test_a_board_no_url_can_hold_is_exported_in_jsonl_and_left_out_of_urls(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # a no-three-black Nondango (banked since the bank keeps every option value) has no
    # puzz.link URL: the export used to stop at it with exit 2
    path = tmp_path / "variant.sqlite3"
    store = bank.Bank(path)
    key = bank.check_key("nondango", "5x5", "easy", {"rule": "no-three-black"})
    record = bank.make_record(key, 1)
    store.add(record)
    status, lines, _ = run(capsys, "bank", "export", "--db", str(path))
    assert status == 0
    (exported,) = [json.loads(line) for line in lines]
    assert (exported["code"], exported["url"]) == (record.code, None)
    status, lines, err = run(capsys, "bank", "export", "--db", str(path), "--format", "urls")
    assert (status, lines) == (0, [])
    assert "1 board(s) left out: a puzz.link URL cannot hold them" in err


def test_daily_prints_the_day_s_boards_as_the_player_gets_them(
    capsys: pytest.CaptureFixture[str], filled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`bank daily` and `/api/daily` share `service.games.daily`: one board per genre the
    bank holds at the day's setting, the same all day, another on another day."""
    store = bank.Bank(filled)
    grade = min(key.difficulty for key in store.counts())  # a grade the fill banked
    monkeypatch.setattr(games, "DAILY", ((5, 5), grade))
    status, out, err = run(capsys, "bank", "daily", "--date", "2026-12-02", "--db", str(filled))
    assert status == 0, err
    [line] = out  # the bank holds Nonograms only
    expected = games.daily(store, "2026-12-02")
    assert [each.code for each in expected] == [line.split()[-1]]
    assert line.startswith(f"2026-12-02 nonogram 5x5 {grade} nonogram.")
    status, out, _ = run(capsys, "bank", "daily", "--date", "2026-12-02", "--db", str(filled))
    assert out == [line]
    status, out, _ = run(
        capsys, "bank", "daily", "--date", "2026-12-2", "--json", "--db", str(filled)
    )
    shown = json.loads(out[0])
    assert shown["date"] == "2026-12-02"
    assert shown["boards"] == [each.to_json() for each in expected]


def test_daily_refuses_a_bad_date_and_says_when_the_bank_has_none(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "empty.sqlite3")
    err = assert_usage_error(capsys, "bank", "daily", "--date", "2026-13-40", "--db", db)
    assert "'2026-13-40' is not a date" in err
    status, out, err = run(capsys, "bank", "daily", "--db", db)
    assert (status, out) == (0, [])
    assert "holds no board of the day's setting (10x10 medium)" in err


def _exported(capsys: pytest.CaptureFixture[str], filled: Path, tmp_path: Path) -> Path:
    _, out, _ = run(capsys, "bank", "export", "--db", str(filled))
    exported = tmp_path / "boards.jsonl"
    exported.write_text("\n".join(out) + "\n", encoding="utf-8")
    return exported


def test_an_import_with_jobs_banks_the_same_boards_in_the_same_order(
    capsys: pytest.CaptureFixture[str], filled: Path, tmp_path: Path
) -> None:
    exported = _exported(capsys, filled, tmp_path)
    banks = []
    for jobs in ("1", "2"):
        db = tmp_path / f"jobs{jobs}.sqlite3"
        status, lines, err = run(
            capsys, "bank", "import", str(exported), "--db", str(db), "--jobs", jobs
        )
        assert status == 0, err
        assert lines[-1].startswith(f"{COUNT} boards read: {COUNT} kept")
        with sqlite3.connect(db) as con:
            banks.append(
                con.execute("SELECT code, seed, generator FROM puzzles ORDER BY id").fetchall()
            )
    assert banks[0] == banks[1]
    assert [code for code, _, _ in banks[0]] == [
        json.loads(x)["code"] for x in exported.read_text().splitlines()
    ]


def test_an_import_refuses_boards_of_another_generator_version_unless_asked(
    capsys: pytest.CaptureFixture[str], filled: Path, tmp_path: Path
) -> None:
    lines = _exported(capsys, filled, tmp_path).read_text(encoding="utf-8").splitlines()
    old = json.loads(lines[1])
    genre, _, version = old["generator"].partition("/")
    old["generator"] = f"{genre}/{int(version) - 1}"
    source = tmp_path / "older.jsonl"
    source.write_text("\n".join([lines[0], json.dumps(old)]) + "\n", encoding="utf-8")
    db = tmp_path / "older.sqlite3"
    err = assert_usage_error(capsys, "bank", "import", str(source), "--db", str(db))
    assert f"older.jsonl line 2: made by the generator {old['generator']}" in err
    assert "--mixed-generators" in err
    assert not db.exists()
    status, _, _ = run(capsys, "bank", "import", str(source), "--db", str(db), "--mixed-generators")
    assert status == 0
    kept = bank.Bank(db).find(old["code"])
    assert kept is not None
    assert kept.generator == old["generator"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"seed": -1}, "'seed' must be a whole number from 0"),
        ({"seed": "7"}, "'seed' must be a whole number from 0"),
        ({"generator": 3}, "'generator' must be a string"),
        ({"generator": "norinori/3"}, "'generator' 'norinori/3' is not a Nonogram one"),
        ({"generator": None, "seed": 4}, "'seed' without 'generator'"),
    ],
)
def test_an_import_line_s_seed_and_generator_are_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: dict[str, Any], message: str
) -> None:
    line = {"code": "nonogram.1.5x5.SVJNNUk3SQA", "seed": 1, "generator": "nonogram/1"} | extra
    source = tmp_path / "bad.jsonl"
    source.write_text(json.dumps(line) + "\n", encoding="utf-8")
    err = assert_usage_error(capsys, "bank", "import", str(source), "--db", str(tmp_path / "b"))
    assert message in err


def test_a_bank_merged_from_exports_is_rebuilt_from_its_seeds(
    capsys: pytest.CaptureFixture[str], filled: Path, tmp_path: Path
) -> None:
    """Two banks' exports imported into one: every board comes back from its genre, size,
    grade, options and seed alone, as the fill made it (#31)."""
    other = tmp_path / "other.sqlite3"
    argv = ["bank", "fill", "--genre", "nondango", "--size", "6x6", "--count", "3"]
    status, _, err = run(capsys, *argv, "--db", str(other))
    assert status == 0, err
    # a board of a setting with options, as the server's filler stocks them
    made = bank.prove_board("nondango", 6, 6, 9, None, options={"rule": "no-three-black"})
    assert bank.Bank(other).add(made)
    merged = tmp_path / "merged.sqlite3"
    for source in (filled, other):
        _, out, _ = run(capsys, "bank", "export", "--db", str(source))
        exported = tmp_path / f"{source.stem}.jsonl"
        exported.write_text("\n".join(out) + "\n", encoding="utf-8")
        status, _, err = run(capsys, "bank", "import", str(exported), "--db", str(merged))
        assert status == 0, err
    with sqlite3.connect(merged) as db:
        kept = db.execute(
            "SELECT code, genre, width, height, difficulty, seed, generator, options, provenance "
            "FROM puzzles ORDER BY id"
        ).fetchall()
    assert len(kept) == COUNT + 4
    assert "rule=no-three-black" in {row[7] for row in kept}
    for code, genre, width, height, grade, seed, generator, options, provenance in kept:
        assert generator == registry.genre(genre).generator
        assert provenance.startswith(f"generated {generator} seed {seed}; imported from ")
        again = bank.prove_board(
            genre, width, height, seed, grade, options=bank.options_of(options)
        )
        assert again.code == code


def test_a_fill_without_python_sat_warns_only_where_boards_go_unchecked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(evidence, "_installed", lambda module: module != "pysat")
    db = str(tmp_path / "bank.sqlite3")
    argv = ["bank", "fill", "--genre", "nonogram", "--count", "1", "--db", db]
    status, _, err = run(capsys, *argv, "--size", "5x5", "--check-every", "1")
    assert (status, err) == (0, "")  # brute force counts them again: nothing to say
    with sqlite3.connect(db) as con:
        (checks,) = con.execute("SELECT checks FROM puzzles").fetchone()
    assert json.loads(checks)[1:] == ["brute"]
    status, _, err = run(capsys, *argv, "--size", "11x11", "--difficulty", "easy")
    assert status == 0
    assert err.startswith("gridproof: the independent counters of Nonogram 11x11 boards need")
    assert "no independent check" in err
    status, _, err = run(capsys, *argv, "--size", "11x11", "--difficulty", "easy")
    assert (status, err) == (0, "")  # the job is done: this fill banks nothing
