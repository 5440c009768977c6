"""The puzzle bank: verified records in SQLite, picked least-served first, filled breadth
first with misses remembered; and where the file lives."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gridproof import bank
from gridproof.bank import evidence
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.ladder import Grade
from gridproof.core.registry import genres
from tests.bankfills import first_record, smallest

GENRES = sorted(genres().values(), key=lambda g: g.name)


def test_without_python_sat_the_check_falls_back_to_brute_force_and_warns_only_past_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gridproof.genres.nonogram import GENRE as nonogram

    monkeypatch.setattr(evidence, "_installed", lambda module: module != "pysat")
    small, large = evidence.oracle_for(nonogram, 5, 5), evidence.oracle_for(nonogram, 15, 15)
    assert small is not None
    assert small.name == "brute"
    assert large is None
    assert evidence.oracle_gap(nonogram, 5, 5) is None  # brute force checks them: no warning
    assert "'pysat', which is not installed" in (evidence.oracle_gap(nonogram, 15, 15) or "")
    assert "no independent check" in (evidence.oracle_gap(nonogram, 15, 15) or "")
    record = bank.make_record(bank.Key("nonogram", 15, 15, "easy"), 1, 30, check_every=1)
    assert record.checks == (evidence.GENERATOR_CHECK,)
    monkeypatch.undo()
    assert evidence.oracle_gap(nonogram, 15, 15) is None
    assert evidence.oracle_for(nonogram, 15, 15) is not None


def test_pick_excludes_codes_and_serves_the_least_served_first(tmp_path: Path) -> None:
    genre = GENRES[0]
    key = smallest(genre)
    store = bank.Bank(tmp_path / "bank.sqlite3")
    records = [first_record(key, range(seed, seed + 30)) for seed in (1, 100)]
    if records[0].code == records[1].code:
        pytest.skip("the two seeds made the same board")
    for record in records:
        store.add(record)
    first = store.pick(key)
    assert first is not None
    second = store.pick(key)
    assert second is not None
    assert second.code != first.code  # the other one has been served fewer times
    assert store.pick(key, exclude=[r.code for r in records]) is None
    only = store.pick(key, exclude=[first.code])
    assert only is not None
    assert only.code == second.code
    assert store.pick(bank.Key(genre.name, 99, 99, key.difficulty)) is None


def test_the_schema_is_versioned_and_the_journal_is_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "bank.sqlite3"
    bank.Bank(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == bank.SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_fill_stocks_every_key_breadth_first_and_remembers_misses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = bank.Bank(tmp_path / "bank.sqlite3")
    genre = GENRES[0]
    good = smallest(genre)
    (_, _), (max_w, max_h) = genre.sizes
    hopeless = bank.Key(genre.name, max_w, max_h, genre.offered(max_w, max_h)[-1])
    made = bank.make_record

    def make(key: bank.Key, seed: int, generate_s: object, *more: object) -> bank.Record:
        if key == hopeless:  # a reproducible failure (a work budget), not the clock
            raise GenerationError("no board within the work budget", {})
        return made(key, seed, 20)

    monkeypatch.setattr("gridproof.bank.store.make_record", make)
    seeds = iter(range(1, 1000))
    tally = bank.fill(store, [good, hopeless], target=3, seeds=lambda: next(seeds))
    assert store.counts()[good] >= 1
    assert store.counts().get(hopeless, 0) == 0
    assert store.misses()[hopeless] == bank.MISSES_BEFORE_SKIP
    assert tally["misses"] >= bank.MISSES_BEFORE_SKIP
    # The hopeless key is now skipped: another fill does not try it again.
    before = store.misses()[hopeless]
    bank.fill(store, [hopeless], target=3, seeds=lambda: next(seeds))
    assert store.misses()[hopeless] == before
    summary = {(k["genre"], k["size"], k["difficulty"]): k for k in store.summary()}
    assert summary[(genre.name, hopeless.size, hopeless.difficulty)]["boards"] == 0


def test_a_seed_the_clock_ended_is_no_miss(tmp_path: Path) -> None:
    """A busy machine is not the key's fault: the filler does not give up on it."""
    store = bank.Bank(tmp_path / "bank.sqlite3")
    genre = genres()["norinori"]
    large = bank.Key(genre.name, 30, 30, "hard")
    tally = bank.fill(store, [large], target=2, generate_s=0.01)
    assert tally["clock"] == 2
    assert tally["misses"] == 0
    assert store.misses() == {}


def test_a_key_keeps_being_stocked_while_its_boards_outnumber_its_misses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = bank.Bank(tmp_path / "bank.sqlite3")
    key = bank.Key("norinori", 5, 5, "easy")
    bank.fill(store, [key], target=1)
    for seed in range(100, 100 + bank.MISSES_BEFORE_SKIP):
        store.miss(key, seed, "no board")
    bank.fill(store, [key], target=2)
    assert store.stock()[key] == 2  # three misses, but it made a board: not skipped
    store.miss(key, 200, "no board")  # misses now outnumber its two boards by three
    store.miss(key, 201, "no board")
    bank.fill(store, [key], target=3)
    assert store.stock()[key] == 2


def test_fill_stops_when_asked(tmp_path: Path) -> None:
    store = bank.Bank(tmp_path / "bank.sqlite3")
    tally = bank.fill(store, bank.fill_plan(), target=3, stop=lambda: True)
    assert tally == {"added": 0, "duplicates": 0, "misses": 0, "clock": 0}
    assert store.counts() == {}


def test_the_fill_plan_puts_small_boards_first() -> None:
    plan = bank.fill_plan(max_side=10)
    areas = [key.width * key.height for key in plan]
    assert areas == sorted(areas)
    assert {key.genre for key in plan} == set(genres())
    for genre in GENRES:
        first = (genre.name, *bank.offered_sizes(genre)[0])
        stocked = {k.difficulty for k in plan if (k.genre, k.width, k.height) == first}
        assert stocked == set(genre.offered(*bank.offered_sizes(genre)[0]))
    assert max(max(key.width, key.height) for key in plan) <= 10


def test_the_file_is_configurable_and_has_a_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRIDPROOF_DB", str(tmp_path / "x.sqlite3"))
    assert bank.default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("GRIDPROOF_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert bank.default_path() == tmp_path / "data" / "gridproof" / "bank.sqlite3"
    assert (tmp_path / "data" / "gridproof").is_dir()
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    monkeypatch.chdir(tmp_path)
    assert bank.default_path() == tmp_path / "gridproof-bank.sqlite3"


def test_a_bank_in_the_earlier_default_folder_is_still_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before platformdirs the bank was in ~/.local/share/gridproof on every system; where
    the system's data folder is elsewhere (macOS, Windows), that file is kept in use."""
    monkeypatch.delenv("GRIDPROOF_DB", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    elsewhere = tmp_path / "Library" / "gridproof"
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *a, **k: str(elsewhere))
    assert bank.default_path() == elsewhere / "bank.sqlite3"  # nothing saved before
    earlier = tmp_path / ".local" / "share" / "gridproof" / "bank.sqlite3"
    earlier.parent.mkdir(parents=True)
    earlier.write_bytes(b"")
    assert bank.default_path() == earlier
    (elsewhere / "bank.sqlite3").write_bytes(b"")  # once the new one exists, it wins
    assert bank.default_path() == elsewhere / "bank.sqlite3"


def test_fill_draws_seeds_in_sequence_and_every_record_regenerates(tmp_path: Path) -> None:
    """Seeds go on per key from the highest one tried, so a rerun never repeats one, and
    `gridproof generate` rebuilds every banked board from its record."""
    from gridproof import service

    store = bank.Bank(tmp_path / "bank.sqlite3")
    key = smallest(GENRES[-1])
    bank.fill(store, [key], target=2)
    first = store.last_seed(key)
    assert first >= 2
    bank.fill(store, [key], target=3)
    assert store.last_seed(key) > first
    with sqlite3.connect(store.path) as db:
        seeds = [row[0] for row in db.execute("SELECT seed FROM puzzles ORDER BY seed")]
    assert len(seeds) == len(set(seeds)) == 3
    for _ in seeds:
        record = store.pick(key)
        assert record is not None
        again = service.generate(
            record.genre, record.width, record.height, record.seed, record.difficulty, 60
        )
        assert again.code == record.code
        assert again.generator == record.generator
        assert record.score == again.score > 0


_SCHEMA_1 = (
    "CREATE TABLE puzzles (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, "
    "genre TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, "
    "difficulty TEXT NOT NULL, metrics TEXT NOT NULL, health TEXT NOT NULL, "
    "generator TEXT NOT NULL, seed INTEGER NOT NULL, solution TEXT NOT NULL, "
    "verdict TEXT NOT NULL, nodes INTEGER NOT NULL, elapsed_s REAL NOT NULL, "
    "engine TEXT NOT NULL, created_at REAL NOT NULL, served INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE misses (id INTEGER PRIMARY KEY, genre TEXT NOT NULL, "
    "width INTEGER NOT NULL, height INTEGER NOT NULL, difficulty TEXT NOT NULL, "
    "seed INTEGER NOT NULL, engine TEXT NOT NULL, reason TEXT NOT NULL, at REAL NOT NULL);"
)
_SCHEMA_2 = (
    _SCHEMA_1
    + "ALTER TABLE puzzles ADD COLUMN score REAL NOT NULL DEFAULT 0;"
    + "ALTER TABLE misses ADD COLUMN generator TEXT NOT NULL DEFAULT '';"
    + "CREATE INDEX puzzles_by_key ON puzzles (genre, width, height, difficulty, served);"
)


def test_a_schema_1_bank_is_migrated_and_a_newer_one_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(
            _SCHEMA_1 + "INSERT INTO puzzles VALUES (1, 'norinori.1.4x4.x', 'norinori', 4, 4, "
            "'easy', '{}', '{}', 'norinori/1', 9, '0', 'unique', 1, 0.1, '0.0.1', 0, 0);"
            "PRAGMA user_version = 1;"
        )
    store = bank.Bank(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == bank.SCHEMA_VERSION
        assert db.execute("SELECT score, seed FROM puzzles").fetchone() == (0, 9)
        assert db.execute("SELECT canonical FROM puzzles").fetchone() == ("norinori.1.4x4.x",)
    assert store.last_seed(bank.Key("norinori", 4, 4, "easy")) == 9
    # a board of an older generator is kept but never served for a new game
    assert store.pick(bank.Key("norinori", 4, 4, "easy")) is None
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {bank.SCHEMA_VERSION + 1}")
    with pytest.raises(CodeError, match="newer"):
        bank.Bank(path)


def test_a_schema_2_bank_keeps_every_row_and_gains_canonical_codes(tmp_path: Path) -> None:
    """Rows are kept as they are, two copies of one board under a symmetry included; each
    gets its canonical code, its provenance and the checks it had (a same-engine recount)."""
    from gridproof.core.symmetry import Symmetry
    from gridproof.genres.norinori import GENRE as norinori

    record = first_record(bank.Key("norinori", 6, 6, "easy"))
    puzzle = norinori.parse_code(record.code)
    turned = norinori.format_code(norinori.transform(puzzle, Symmetry.ROTATE_90))
    assert turned != record.code
    path = tmp_path / "v2.sqlite3"
    insert = (
        "INSERT INTO puzzles (code, genre, width, height, difficulty, metrics, health, "
        "generator, seed, solution, verdict, nodes, elapsed_s, engine, created_at, score) "
        "VALUES (?, ?, 6, 6, 'easy', '{}', '{}', ?, ?, '1f', 'unique', 5, 0.1, '0.1.0', 0, 2.5)"
    )
    with sqlite3.connect(path) as db:
        db.executescript(_SCHEMA_2 + "PRAGMA user_version = 2;")
        db.execute(insert, (record.code, "norinori", norinori.generator, 7))
        db.execute(insert, (turned, "norinori", norinori.generator, 8))
        db.execute(insert, ("gone.1.6x6.abc", "gone", "gone/1", 9))
    store = bank.Bank(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = db.execute(
            "SELECT code, seed, canonical, provenance, checks, score FROM puzzles ORDER BY id"
        ).fetchall()
        indexes = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    canonical = evidence.canonical_code(norinori, puzzle)
    recount = '["generator", "recount"]'
    assert rows == [
        (record.code, 7, canonical, f"generated {norinori.generator} seed 7", recount, 2.5),
        (turned, 8, canonical, f"generated {norinori.generator} seed 8", recount, 2.5),
        ("gone.1.6x6.abc", 9, "gone.1.6x6.abc", "generated gone/1 seed 9", recount, 2.5),
    ]
    assert {"puzzles_by_canonical", "tried", "fills"} <= indexes
    found = store.find(record.code)
    assert found is not None
    assert found.checks == (evidence.GENERATOR_CHECK, evidence.RECOUNT_CHECK)
    assert store.add(record) is False


def test_every_connection_waits_for_a_busy_bank(tmp_path: Path) -> None:
    store = bank.Bank(tmp_path / "bank.sqlite3")
    with store.reading() as db:
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] == bank.BUSY_TIMEOUT_S * 1000
    with store.transaction() as db:
        assert db.in_transaction


def test_check_key_refuses_a_grade_the_size_does_not_offer() -> None:
    for genre in GENRES:
        for width, height in bank.offered_sizes(genre):
            missing = [g for g in genre.difficulties if g not in genre.offered(width, height)]
            for grade in missing:
                with pytest.raises(CodeError, match="offers"):
                    bank.check_key(genre.name, f"{width}x{height}", grade)
            for grade in genre.offered(width, height):
                assert bank.check_key(genre.name, f"{width}x{height}", grade).difficulty == grade


def test_a_schema_3_bank_keeps_every_row_its_served_counts_and_gains_fingerprints(
    tmp_path: Path,
) -> None:
    """Schema 4: each board's fingerprint (what `seen` names) and options ('' for the
    defaults: every board of schema 3 was made with them); the served counts, and so the
    stock, are kept."""
    from gridproof.bank.schema import TABLES, TABLES_3
    from gridproof.core.codes import fingerprint

    key = bank.Key("norinori", 6, 6, "easy")
    records = [first_record(key), first_record(key, range(40, 80))]
    path = tmp_path / "v3.sqlite3"
    with sqlite3.connect(path) as db:
        for statement in (*TABLES, *TABLES_3):
            db.execute(statement)
        for served, record in enumerate(records):
            db.execute(
                "INSERT INTO puzzles (code, genre, width, height, difficulty, metrics, health, "
                "generator, seed, solution, verdict, nodes, elapsed_s, engine, created_at, "
                "score, served, canonical) VALUES (?, 'norinori', 6, 6, 'easy', '{}', '{}', ?, "
                "?, '1f', 'unique', 5, 0.1, '0.1.0', 0, 2.5, ?, ?)",
                (record.code, record.generator, record.seed, served, record.canonical),
            )
        db.execute("PRAGMA user_version = 3")
    store = bank.Bank(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == bank.SCHEMA_VERSION == 4
        rows = db.execute("SELECT code, served, fingerprint, options FROM puzzles ORDER BY id")
        assert rows.fetchall() == [
            (records[0].code, 0, fingerprint(records[0].code), ""),
            (records[1].code, 1, fingerprint(records[1].code), ""),
        ]
    assert store.counts() == {key: 2}
    assert store.stock() == {key: 1}
    assert store.pick(key, seen=[fingerprint(records[0].code)]) == store.find(records[1].code)
    # a new bank is made at once at the newest schema, the same columns as a migrated one
    fresh = tmp_path / "new.sqlite3"
    bank.Bank(fresh)
    with sqlite3.connect(fresh) as new, sqlite3.connect(path) as old:
        for table in ("puzzles", "misses", "tried", "fills"):
            columns = f"SELECT name, type, dflt_value FROM pragma_table_info('{table}')"
            assert new.execute(columns).fetchall() == old.execute(columns).fetchall()


def test_a_key_and_a_record_hold_grades_not_spellings(tmp_path: Path) -> None:
    """A grade spelled in the database or a form is read as a `Grade`; a spelling that is
    none is refused where the key is made, naming the grades."""
    key = bank.Key("norinori", 6, 6, "medium")  # as a form spells it
    assert key.difficulty is Grade.MEDIUM
    with pytest.raises(CodeError, match="unknown grade 'tricky'; grades: easy, medium"):
        bank.Key("norinori", 6, 6, "tricky")
    store = bank.Bank(tmp_path / "b.sqlite3")
    record = bank.prove_board("norinori", 6, 6, 1, "medium", Deadline(60))
    store.add(record)
    read = store.find(record.code)
    assert read is not None
    assert read.difficulty is Grade.MEDIUM
    assert read.key == key
    assert list(store.counts()) == [key]
