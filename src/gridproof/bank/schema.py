"""The bank's SQLite schema and the migrations that bring an older bank up to it.

Schema 3 adds to each board its canonical code (indexed), its provenance and the checks it
passed, and two tables of the bulk filler (`gridproof.bank.filler`): `tried`, every seed a
fill finished with (what a rerun skips), and `fills`, one row per fill, its throughput.
A migration keeps every row: boards of schema 2 were generated and counted again by the
same engine, which their provenance and checks now say.

Schema 4 adds to each board its `fingerprint` (`core.codes.fingerprint` of its code: what a
player's `seen` names) and its `options` (the generator options it was made with, other
than the defaults, as `options_text` writes them: '' for the defaults), and to each miss
its options, so that a setting with options is a key of its own, stocked and served like
the others. `served` (how many times New game gave the board; 0: never, the stock) has
been there since schema 1.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from gridproof.bank.evidence import GENERATOR_CHECK, RECOUNT_CHECK, canonical_code
from gridproof.core import registry
from gridproof.core.codes import fingerprint
from gridproof.core.errors import CodeError

SCHEMA_VERSION = 4

TABLES = (
    """CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    genre TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    difficulty TEXT NOT NULL,
    metrics TEXT NOT NULL,
    health TEXT NOT NULL,
    generator TEXT NOT NULL,
    seed INTEGER NOT NULL,
    solution TEXT NOT NULL,
    verdict TEXT NOT NULL,
    nodes INTEGER NOT NULL,
    elapsed_s REAL NOT NULL,
    engine TEXT NOT NULL,
    created_at REAL NOT NULL,
    served INTEGER NOT NULL DEFAULT 0,
    score REAL NOT NULL DEFAULT 0,
    canonical TEXT NOT NULL DEFAULT '',
    provenance TEXT NOT NULL DEFAULT '',
    checks TEXT NOT NULL DEFAULT '[]'
)""",
    "CREATE INDEX IF NOT EXISTS puzzles_by_key "
    "ON puzzles (genre, width, height, difficulty, served)",
    """CREATE TABLE IF NOT EXISTS misses (
    id INTEGER PRIMARY KEY,
    genre TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    difficulty TEXT NOT NULL,
    seed INTEGER NOT NULL,
    engine TEXT NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL,
    generator TEXT NOT NULL DEFAULT ''
)""",
)
"""The tables of a schema 2 bank (with the columns schema 3 added)."""
TABLES_3 = (
    "CREATE INDEX IF NOT EXISTS puzzles_by_canonical ON puzzles (canonical)",
    # Every seed a bulk fill has finished with, per job (`asked` is '' when the seed picks
    # the grade): what a rerun skips. `outcome` is kept, duplicate or miss.
    """CREATE TABLE IF NOT EXISTS tried (
    genre TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    asked TEXT NOT NULL,
    generator TEXT NOT NULL,
    seed INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    code TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (genre, width, height, asked, generator, seed)
) WITHOUT ROWID""",
    # One row per bulk fill, updated with every batch it stores: the throughput history.
    """CREATE TABLE IF NOT EXISTS fills (
    id INTEGER PRIMARY KEY,
    genre TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    asked TEXT NOT NULL,
    generator TEXT NOT NULL,
    seed_start INTEGER NOT NULL,
    target INTEGER NOT NULL,
    workers TEXT NOT NULL,
    started_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    seeds INTEGER NOT NULL DEFAULT 0,
    kept INTEGER NOT NULL DEFAULT 0,
    duplicates INTEGER NOT NULL DEFAULT 0,
    misses INTEGER NOT NULL DEFAULT 0,
    retries INTEGER NOT NULL DEFAULT 0,
    checked INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'running'
)""",
)
"""What schema 3 adds beside the columns: the canonical index, the tried seeds, the fills."""


def fingerprints(db: sqlite3.Connection) -> None:
    """Give every row the fingerprint of its code."""
    rows = db.execute("SELECT id, code FROM puzzles WHERE fingerprint = ''").fetchall()
    db.executemany(
        "UPDATE puzzles SET fingerprint = ? WHERE id = ?",
        [(fingerprint(code), row_id) for row_id, code in rows],
    )


def canonical_codes(db: sqlite3.Connection) -> None:
    """Give every row its canonical code (its own code where its genre is not registered
    or its code no longer parses)."""
    rows = db.execute("SELECT id, genre, code FROM puzzles WHERE canonical = ''").fetchall()
    known = registry.genres()
    for row_id, genre_name, code in rows:
        genre = known.get(genre_name)
        try:
            canonical = code if genre is None else canonical_code(genre, genre.parse_code(code))
        except CodeError:
            canonical = code
        db.execute("UPDATE puzzles SET canonical = ? WHERE id = ?", (canonical, row_id))


Migration = str | Callable[[sqlite3.Connection], None]
MIGRATIONS: dict[int, tuple[Migration, ...]] = {
    1: (
        "ALTER TABLE puzzles ADD COLUMN score REAL NOT NULL DEFAULT 0",
        "ALTER TABLE misses ADD COLUMN generator TEXT NOT NULL DEFAULT ''",
    ),
    2: (
        "ALTER TABLE puzzles ADD COLUMN canonical TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE puzzles ADD COLUMN provenance TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE puzzles ADD COLUMN checks TEXT NOT NULL DEFAULT '[]'",
        # Every board of schema 2 was generated and counted again by the same engine.
        "UPDATE puzzles SET provenance = 'generated ' || generator || ' seed ' || seed, "
        f"checks = '{json.dumps([GENERATOR_CHECK, RECOUNT_CHECK])}'",
        canonical_codes,
        *TABLES_3,
    ),
    3: (
        "ALTER TABLE puzzles ADD COLUMN fingerprint TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE puzzles ADD COLUMN options TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE misses ADD COLUMN options TEXT NOT NULL DEFAULT ''",
        fingerprints,
        "CREATE INDEX IF NOT EXISTS puzzles_by_setting "
        "ON puzzles (genre, width, height, difficulty, options, served)",
    ),
}
"""What brings a bank of each older schema version up to the next one."""
