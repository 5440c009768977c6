"""The puzzle bank: proven boards in SQLite, each with the evidence that it is unique.

Glossary: a `key` is (genre, width, height, difficulty, options), what a player asks "new game"
for (`options`: the generator options other than the defaults, as `options_text` writes
them, '' at the defaults); a
`record` is one banked board with everything needed to reproduce and trust it (code, seed,
generator version, metrics, the generator's health record, its provenance, and `checks`, the
counts that proved it: the generator's own complete counter, and on a sample and on every
board above the hard grade an independent counter, the genre's SAT oracle or brute force).
The `canonical` code of a board is the least code of its images under the symmetries of
the grid that keep its size: two boards with one canonical code are the same puzzle, and
the bank keeps one of them. The solution is kept here, on the server, so hints and checks
need no recount; nothing in this module sends it anywhere.

The file is `$GRIDPROOF_DB` when set, else `bank.sqlite3` in the user's data directory as
`platformdirs` names it (`$XDG_DATA_HOME/gridproof`, by default `~/.local/share/gridproof`,
on Linux; `~/Library/Application Support/gridproof` on macOS; `%LOCALAPPDATA%\\gridproof`
on Windows), else in the working directory when that cannot be created. Every call opens
its own connection (WAL journal, a busy timeout), so web processes, the background filler
and a bulk fill (`gridproof.bank.filler`) share the file safely; every write is one
transaction, so a process killed at any moment leaves whole rows only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from gridproof import service
from gridproof.bank.evidence import (
    CHECK_EVERY,
    COUNT_CHECK,
    GENERATOR_CHECK,
    canonical_code,
    independent_check,
    wants_check,
)
from gridproof.bank.schema import MIGRATIONS, SCHEMA_VERSION, TABLES, TABLES_3
from gridproof.core import registry
from gridproof.core.codes import fingerprint, parse_size
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, quote
from gridproof.core.ladder import Grade, grade_of, grade_puzzle, rating
from gridproof.core.outcome import Verdict
from gridproof.service.settings import (
    check_options,
    choices,
    offered_sizes,
)
from gridproof.version import ENGINE_VERSION

BUSY_TIMEOUT_S = 30.0
"""How long a connection waits for another process's write to finish before it fails."""
GENERATE_SECONDS = 30.0
"""The default budget for generating one board (on demand's, and `fill`'s)."""
FILL_SECONDS = 300.0
"""The background filler's wall clock for one board: it runs at low priority, so on a busy
machine a board takes many times its CPU time."""
VERIFY_SECONDS = 30.0
"""The budget for counting an imported board before banking it, and the most a board's
independent check adds to its generation."""
MISSES_BEFORE_SKIP = 3
"""The filler gives up on a key after this many failed boards with the genre's current
generator beyond the boards it made (so a key whose boards mostly come keeps going)."""
STOCK = ((7, 30), (10, 24), (15, 10), (20, 6), (30, 4))
"""How many boards nobody was served yet the filler keeps per key, by the key's largest
side: a day of play at the small sizes, a handful at the largest (`stock_depth`)."""


@dataclass(frozen=True, slots=True)
class Key:
    """What a new game is asked for."""

    genre: str
    width: int
    height: int
    difficulty: Grade
    """A `Grade`; its spelling (from the database, a form) is read as one, or refused."""
    options: str = ""
    """The generator options other than the genre's defaults (`options_text`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "difficulty", grade_of(self.difficulty))

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    def settings(self) -> dict[str, str]:
        """The options as the generator takes them."""
        return options_of(self.options)


def options_text(options: Mapping[str, Any] | None) -> str:
    """The options of a key as the bank writes them: `name=value` pairs sorted by name and
    joined by `,`; '' for none (the genre's defaults)."""
    return ",".join(f"{name}={value}" for name, value in sorted((options or {}).items()))


def options_of(text: str) -> dict[str, str]:
    """The options `options_text` wrote."""
    return dict(pair.split("=", 1) for pair in text.split(",")) if text else {}


@dataclass(frozen=True, slots=True)
class Record:
    """One banked board. `solution` is a shaded-cell mask and never leaves the server."""

    code: str
    genre: str
    width: int
    height: int
    difficulty: Grade
    """A `Grade`, read from its spelling as `Key` reads it."""
    seed: int
    generator: str
    """The generator's version (`Genre.generator`): what the board depends on besides the
    key and the seed."""
    metrics: Mapping[str, Any]
    health: Mapping[str, Any]
    solution: int
    verdict: str
    nodes: int
    elapsed_s: float
    engine: str
    """`verdict`, `nodes`, `elapsed_s` and `engine`: the last count that proved the board
    (the independent counter's where it ran; else nodes 0 and the generation's time, of
    which the generator's proof is part)."""
    score: float = 0.0
    """The ladder's numeric difficulty of the board (0 for boards banked before it)."""
    canonical: str = ""
    """The least code of the board's images under the grid's symmetries (`canonical_code`)."""
    provenance: str = ""
    """Where the board comes from: `generated <generator> seed <seed>`, `imported from
    <file>`, or what another maker writes (e.g. `made by hand`)."""
    checks: tuple[str, ...] = ()
    """The counts that proved it unique, each with the generator's solution: `generator`
    (the generator's complete counter), an oracle's name (`sat`, `brute`), `recount` (the
    same engine again, before schema 3) or `count` (the engine, when imported)."""
    options: str = ""
    """The generator options it was made with, other than the defaults (`options_text`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "difficulty", grade_of(self.difficulty))

    @property
    def key(self) -> Key:
        return Key(self.genre, self.width, self.height, self.difficulty, self.options)

    @property
    def rating(self) -> float:
        """The grade and score on one scale (`core.ladder.rating`): a harder grade always
        rates higher."""
        genre = registry.genres().get(self.genre)
        grades = genre.difficulties if genre is not None else ()
        return rating(grades, self.difficulty, self.score, self.width * self.height)

    @property
    def fingerprint(self) -> str:
        """`core.codes.fingerprint` of the code: what a player's `seen` names."""
        return fingerprint(self.code)

    def verification(self) -> dict[str, Any]:
        """The counted evidence, as the API shows it."""
        return {
            "verdict": self.verdict,
            "nodes": self.nodes,
            "elapsed_s": self.elapsed_s,
            "engine": self.engine,
            "checks": list(self.checks),
        }


def default_path() -> Path:
    """Where the bank lives when `$GRIDPROOF_DB` is not set (see the module docstring)."""
    configured = os.environ.get("GRIDPROOF_DB", "").strip()
    if configured:
        return Path(configured).expanduser()
    folder = Path(platformdirs.user_data_dir("gridproof", appauthor=False))
    # where versions before platformdirs kept it on every system (on Linux, the same place)
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    earlier = (Path(base).expanduser() if base else Path.home() / ".local" / "share") / "gridproof"
    kept, new = earlier / "bank.sqlite3", folder / "bank.sqlite3"
    if earlier != folder and kept.exists() and not new.exists():
        return kept
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path.cwd() / "gridproof-bank.sqlite3"
    return folder / "bank.sqlite3"


# --- making a proven record ----------------------------------------------------------------


def make_record(
    key: Key,
    seed: int,
    generate_s: float | Deadline = GENERATE_SECONDS,
    check_every: int = CHECK_EVERY,
    options: Mapping[str, Any] | None = None,
) -> Record:
    """Generate the board of `key` and `seed` and return its record (`options`: the
    key's own when not given).

    The generator proves the board unique with its complete counter; an independent counter
    (`independent_check`) counts it again when `wants_check` says so, and a disagreement is
    a `GenerationError` (it would be a bug in one of them). Raises `GenerationError` too
    when no board is proven in time. Top level and plain data, so a worker process can run
    it.
    """
    chosen = key.settings() if options is None else options
    return prove_board(
        key.genre, key.width, key.height, seed, key.difficulty, generate_s, check_every, chosen
    )


def prove_board(
    genre_name: str,
    width: int,
    height: int,
    seed: int,
    difficulty: str | None,
    generate_s: float | Deadline = GENERATE_SECONDS,
    check_every: int = CHECK_EVERY,
    options: Mapping[str, Any] | None = None,
) -> Record:
    """The record of the board `gridproof generate` makes from these arguments (the seed
    picks the grade when `difficulty` is None), with its evidence (see `make_record`)."""
    board = service.generate(genre_name, width, height, seed, difficulty, generate_s, options)
    genre = board.genre
    puzzle = genre.parse_code(board.code)  # what is banked is the code: check that
    checks = [GENERATOR_CHECK]
    nodes, elapsed_s = 0, board.health.milliseconds / 1000
    if wants_check(genre, seed, board.difficulty, check_every):
        checked = independent_check(genre, puzzle, board.solution)
        if checked is not None:
            checks.append(checked[0])
            nodes, elapsed_s = checked[1].nodes, checked[1].elapsed
    return Record(
        code=board.code,
        genre=genre.name,
        width=width,
        height=height,
        difficulty=grade_of(board.difficulty),
        seed=seed,
        generator=genre.generator,
        metrics=dict(board.metrics),
        health=board.health.as_dict(),
        solution=board.solution,
        verdict=str(Verdict.UNIQUE),
        nodes=nodes,
        elapsed_s=round(elapsed_s, 6),
        engine=ENGINE_VERSION,
        score=board.score,
        canonical=canonical_code(genre, puzzle),
        provenance=f"generated {genre.generator} seed {seed}",
        checks=tuple(checks),
        options=options_text(_chosen(genre, options)),
    )


def _chosen(genre: Genre[Any], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """`options` without those at the genre's default (what a key names)."""
    defaults = {option.name: option.default for option in genre.options}
    return {
        name: value
        for name, value in (options or {}).items()
        if value is not None and value != defaults.get(name)
    }


MADE_BY_HAND = "made by hand"
"""The generator field and the provenance of a board a setter made in the workshop (it has
no seed: -1)."""


def hand_made_record(genre: Genre[Any], puzzle: Any, deadline: Deadline) -> Record:
    """The record of a board a setter drew: counted to 2 (it must be unique, else a
    `CodeError` saying what it is) and graded by the ladder. Never served as a new game:
    `pick` serves the generator's boards only."""
    outcome = genre.count(puzzle, 2, deadline)
    if outcome.verdict is not Verdict.UNIQUE:
        raise CodeError(
            f"only a unique puzzle can be kept; this one is {outcome.verdict} "
            "(see the workshop's verdict)"
        )
    difficulty = grade_puzzle(genre.ladder, genre.position, puzzle, deadline)
    return Record(
        code=genre.format_code(puzzle),
        genre=genre.name,
        width=puzzle.width,
        height=puzzle.height,
        difficulty=grade_of(difficulty.grade),
        seed=-1,
        generator=MADE_BY_HAND,
        metrics=difficulty.as_dict(),
        health={},
        solution=outcome.solutions[0],
        verdict=str(outcome.verdict),
        nodes=outcome.nodes,
        elapsed_s=round(outcome.elapsed, 6),
        engine=ENGINE_VERSION,
        score=difficulty.score,
        canonical=canonical_code(genre, puzzle),
        provenance=MADE_BY_HAND,
        checks=(COUNT_CHECK,),
    )


# --- the store -----------------------------------------------------------------------------


class Bank:
    """The SQLite store of records at `path` (created, or brought up to this schema, on
    first use)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            if self._version(db) == SCHEMA_VERSION:
                return
        with self.transaction() as db:  # one migration at a time, all of it or none
            version = self._version(db)
            if version is None:  # the tables of schema 3, then what came after
                for statement in (*TABLES, *TABLES_3):
                    db.execute(statement)
                version = 3
            if version > SCHEMA_VERSION:
                raise CodeError(
                    f"bank {quote(str(self.path))} has schema version {version}, newer than "
                    f"this gridproof's {SCHEMA_VERSION}: upgrade gridproof to use it"
                )
            for old in range(max(version, 1), SCHEMA_VERSION):
                for step in MIGRATIONS[old]:
                    if callable(step):
                        step(db)
                    else:
                        db.execute(step)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @staticmethod
    def _version(db: sqlite3.Connection) -> int | None:
        """The schema version of the file, None for a file without the bank's tables."""
        if not db.execute("SELECT name FROM sqlite_master WHERE name = 'puzzles'").fetchone():
            return None
        return int(db.execute("PRAGMA user_version").fetchone()[0])

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)) as db:
            db.row_factory = sqlite3.Row
            db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            db.execute("PRAGMA journal_mode = WAL")
            with db:  # one transaction, committed on success
                yield db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A connection inside one write transaction, taken at once (`BEGIN IMMEDIATE`, so
        what it reads cannot change before it writes), committed on success and rolled back
        on any exception: for the modules that keep their own tables here (`bankfill`)."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            yield db

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A connection to read from (rows as `sqlite3.Row`)."""
        with self._connect() as db:
            yield db

    def add(self, record: Record, served: bool = False) -> bool:
        """Keep `record`; False when the bank already holds it, or a copy of it under a
        symmetry (its canonical code). With `served`, count it served in the same
        transaction (a board generated for a player: never part of the stock)."""
        with self.transaction() as db:
            held = insert(db, record)
            if served:
                db.execute(
                    "UPDATE puzzles SET served = served + 1 WHERE code = ?", (held or record.code,)
                )
            return held is None

    def holder(self, record: Record) -> str | None:
        """The code of the banked board that `record` is (the same code, or the same
        canonical code), if there is one."""
        with self.reading() as db:
            return _holder(db, record)

    def miss(self, key: Key, seed: int, reason: str) -> None:
        """Note that `key` failed with `seed` (the filler skips keys that keep failing)."""
        with self._connect() as db:
            db.execute(
                "INSERT INTO misses (genre, width, height, difficulty, seed, engine, reason, at, "
                "generator, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key.genre,
                    key.width,
                    key.height,
                    key.difficulty,
                    seed,
                    ENGINE_VERSION,
                    reason,
                    time.time(),
                    _generator(key.genre),
                    key.options,
                ),
            )

    def pick(
        self, key: Key, exclude: Iterable[str] = (), seen: Iterable[str] = ()
    ) -> Record | None:
        """A board of `key` made by the genre's current generator (older generators graded
        on other scales) whose code is not in `exclude` and whose fingerprint is not in
        `seen`, the least served first (a board never served, the stock, before any other),
        and count it served; None if there is none."""
        with self._connect() as db:
            row = db.execute(
                "SELECT * FROM puzzles WHERE genre = ? AND width = ? AND height = ? "
                "AND difficulty = ? AND options = ? AND generator = ? "
                "AND code NOT IN (SELECT value FROM json_each(?)) "
                "AND fingerprint NOT IN (SELECT value FROM json_each(?)) "
                "ORDER BY served, random() LIMIT 1",
                (
                    *_key_fields(key),
                    _generator(key.genre),
                    json.dumps(sorted(set(exclude))),
                    json.dumps(sorted(set(seen))),
                ),
            ).fetchone()
            if row is None:
                return None
            db.execute("UPDATE puzzles SET served = served + 1 WHERE id = ?", (row["id"],))
        return _record(row)

    def served(self, code: str) -> None:
        """Count the board of `code` served once more (prefer `add(record, served=True)`
        for a board kept and served at once: one transaction)."""
        with self._connect() as db:
            db.execute("UPDATE puzzles SET served = served + 1 WHERE code = ?", (code,))

    def find(self, code: str) -> Record | None:
        """The record of `code`, if the bank holds it."""
        with self._connect() as db:
            row = db.execute("SELECT * FROM puzzles WHERE code = ?", (code,)).fetchone()
        return None if row is None else _record(row)

    def listed(
        self,
        genre: str,
        width: int,
        height: int,
        difficulty: str,
        offset: int,
        limit: int,
        options: str = "",
    ) -> tuple[int, list[Record]]:
        """The boards a player may be served at a key (the genre's current generator's),
        in the order they were banked: how many there are, and `limit` from `offset`."""
        where = (
            "genre = ? AND width = ? AND height = ? AND difficulty = ? AND options = ? "
            "AND generator = ?"
        )
        args = (genre, width, height, difficulty, options, _generator(genre))
        with self._connect() as db:
            total = db.execute(f"SELECT count(*) FROM puzzles WHERE {where}", args).fetchone()[0]
            rows = db.execute(
                f"SELECT * FROM puzzles WHERE {where} ORDER BY id LIMIT ? OFFSET ?",
                (*args, limit, offset),
            ).fetchall()
        return total, [_record(row) for row in rows]

    def each(self, key: Key, page: int = 1000) -> Iterator[Record]:
        """Every board `listed` gives at `key`, in the order they were banked, read `page`
        at a time by id (an export of millions never skips rows with OFFSET)."""
        where = (
            "genre = ? AND width = ? AND height = ? AND difficulty = ? AND options = ? "
            "AND generator = ?"
        )
        args = (*_key_fields(key), _generator(key.genre))
        last = 0
        while True:
            with self._connect() as db:
                rows = db.execute(
                    f"SELECT * FROM puzzles WHERE {where} AND id > ? ORDER BY id LIMIT ?",
                    (*args, last, page),
                ).fetchall()
            if not rows:
                return
            last = rows[-1]["id"]
            yield from (_record(row) for row in rows)

    def counts(self, stock: bool = False) -> dict[Key, int]:
        """How many boards of each genre's current generator the bank holds per key (with
        `stock`, only those never served yet). Hand-made boards are not counted: they are
        never served."""
        where = "WHERE served = 0" if stock else ""
        return self._per_key("puzzles", where)

    def stock(self) -> dict[Key, int]:
        """How many boards nobody has been served yet the bank holds per key."""
        return self.counts(stock=True)

    def misses(self) -> dict[Key, int]:
        """How many boards failed per key with each genre's current generator."""
        return self._per_key("misses", "")

    def _per_key(self, table: str, where: str) -> dict[Key, int]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT genre, width, height, difficulty, options, generator, count(*) AS n "
                f"FROM {table} {where} "
                "GROUP BY genre, width, height, difficulty, options, generator"
            ).fetchall()
        return {
            Key(r["genre"], r["width"], r["height"], r["difficulty"], r["options"]): r["n"]
            for r in rows
            if r["generator"] == _generator(r["genre"])
        }

    def last_seed(self, key: Key) -> int:
        """The highest seed tried for `key` so far (0 before the first): the filler goes on
        from the next one, so every banked board's seed is recorded and none is reused."""
        with self._connect() as db:
            row = db.execute(
                "SELECT max(seed) FROM (SELECT seed FROM puzzles WHERE genre = ? AND width = ? "
                "AND height = ? AND difficulty = ? AND options = ? UNION ALL SELECT seed FROM "
                "misses WHERE genre = ? AND width = ? AND height = ? AND difficulty = ? "
                "AND options = ?)",
                (*_key_fields(key), *_key_fields(key)),
            ).fetchone()
        return int(row[0] or 0)

    def summary(self) -> list[dict[str, Any]]:
        """Boards, the stock (boards never served) and misses per key, as the API shows
        them."""
        counts, stock, misses = self.counts(), self.stock(), self.misses()
        keys = sorted(set(counts) | set(misses), key=_key_order)
        return [
            {
                "genre": k.genre,
                "size": k.size,
                "difficulty": k.difficulty,
                "options": k.settings(),
                "boards": counts.get(k, 0),
                "stock": stock.get(k, 0),
                "misses": misses.get(k, 0),
            }
            for k in keys
        ]


def insert(db: sqlite3.Connection, record: Record) -> str | None:
    """Insert `record` inside the caller's transaction unless the bank holds it already;
    the code of the board that holds it then, None when it was inserted."""
    held = _holder(db, record)
    if held is not None:
        return held
    db.execute(
        "INSERT INTO puzzles (code, genre, width, height, difficulty, metrics, health, "
        "generator, seed, solution, verdict, nodes, elapsed_s, engine, created_at, score, "
        f"canonical, provenance, checks, fingerprint, options) VALUES ({', '.join('?' * 21)})",
        (
            record.code,
            record.genre,
            record.width,
            record.height,
            record.difficulty,
            json.dumps(dict(record.metrics), sort_keys=True),
            json.dumps(dict(record.health), sort_keys=True),
            record.generator,
            record.seed,
            format(record.solution, "x"),
            record.verdict,
            record.nodes,
            record.elapsed_s,
            record.engine,
            time.time(),
            record.score,
            record.canonical or record.code,
            record.provenance,
            json.dumps(list(record.checks)),
            record.fingerprint,
            record.options,
        ),
    )
    return None


def _holder(db: sqlite3.Connection, record: Record) -> str | None:
    row = db.execute(
        "SELECT code FROM puzzles WHERE code = ? OR canonical = ? ORDER BY id LIMIT 1",
        (record.code, record.canonical or record.code),
    ).fetchone()
    return None if row is None else str(row[0])


def _record(row: sqlite3.Row) -> Record:
    return Record(
        code=row["code"],
        genre=row["genre"],
        width=row["width"],
        height=row["height"],
        difficulty=row["difficulty"],
        seed=row["seed"],
        generator=row["generator"],
        metrics=json.loads(row["metrics"]),
        health=json.loads(row["health"]),
        solution=int(row["solution"], 16),
        verdict=row["verdict"],
        nodes=row["nodes"],
        elapsed_s=row["elapsed_s"],
        engine=row["engine"],
        score=row["score"],
        canonical=row["canonical"],
        provenance=row["provenance"],
        checks=tuple(json.loads(row["checks"])),
        options=row["options"],
    )


def _generator(genre_name: str) -> str:
    """The current generator version of a genre ('' for a genre no longer registered)."""
    genre = registry.genres().get(genre_name)
    return genre.generator if genre is not None else ""


def _key_fields(key: Key) -> tuple[str, int, int, str, str]:
    return key.genre, key.width, key.height, key.difficulty, key.options


def _key_order(key: Key) -> tuple[int, str, int, str]:
    genre = registry.genres().get(key.genre)
    order = (
        genre.difficulties.index(key.difficulty)
        if genre and (key.difficulty in genre.difficulties)
        else 99
    )
    return key.width * key.height, key.genre, order, key.options


# --- filling -------------------------------------------------------------------------------


def offered_keys(genre: Genre[Any], max_side: int | None = None) -> list[Key]:
    """Every key the player offers for `genre` (each setting of its options, each offered
    size up to `max_side`, each grade offered there under those options)."""
    return [
        Key(genre.name, w, h, difficulty, options_text(options))
        for options in choices(genre)
        for (w, h) in offered_sizes(genre)
        if max_side is None or max(w, h) <= max_side
        for difficulty in genre.playable(w, h, options)
    ]


def fill_plan(max_side: int = 10, genres: Sequence[str] | None = None) -> list[Key]:
    """Every key the filler keeps stocked: each genre's offered keys (every setting of its
    options) up to sides of `max_side`, smallest boards first."""
    known = registry.genres()
    names = sorted(known) if genres is None else list(genres)
    keys = [key for name in names for key in offered_keys(known[name], max_side)]
    return sorted(keys, key=_key_order)


def stock_depth(key: Key) -> int:
    """The stock the filler keeps at `key` (`STOCK`)."""
    side = max(key.width, key.height)
    return next((depth for most, depth in STOCK if side <= most), STOCK[-1][1])


def fill(
    bank: Bank,
    plan: Sequence[Key],
    target: int | Callable[[Key], int] = stock_depth,
    seeds: Callable[[], int] | None = None,
    generate_s: float = GENERATE_SECONDS,
    stop: Callable[[], bool] = lambda: False,
) -> dict[str, int]:
    """Stock every key of `plan` with `target` boards nobody was served yet (`target` a
    number, or one per key: by default `stock_depth`), breadth first: one board for every
    key, then a second, and so on, so that every key is playable as soon as possible.

    Seeds come from `seeds` if given, else each key goes on from the highest seed it has
    tried (`Bank.last_seed`), so every banked board can be made again with `gridproof
    generate` from its record (genre, size, grade, seed, generator). A key that fails
    `MISSES_BEFORE_SKIP` times more than it made boards (in the bank's memory, for the
    genre's current generator) is left alone; a seed the wall clock ended (a busy machine,
    not the seed) is no miss. Returns what happened:
    boards added, duplicates, misses, seeds the clock ended.
    """
    depth = (lambda key: target) if isinstance(target, int) else target
    depths = {key: depth(key) for key in plan}
    cursors: dict[Key, int] = {}

    def next_seed(key: Key) -> int:
        if seeds is not None:
            return seeds()
        cursors[key] = cursors.get(key, bank.last_seed(key)) + 1
        return cursors[key]

    tally = {"added": 0, "duplicates": 0, "misses": 0, "clock": 0}
    for round_ in range(1, max(depths.values(), default=0) + 1):
        counts, stock, misses = bank.counts(), bank.stock(), bank.misses()
        for key in plan:
            if stop():
                return tally
            if depths[key] < round_ or stock.get(key, 0) >= round_:
                continue
            if misses.get(key, 0) >= MISSES_BEFORE_SKIP + counts.get(key, 0):
                continue
            seed = next_seed(key)
            deadline = Deadline(generate_s)
            try:
                record = make_record(key, seed, deadline)
            except GenerationError as error:
                if deadline.expired() and not deadline.out_of_work():
                    # the clock ended it (a busy machine): not the seed's board, not a miss;
                    # the key is not held against it
                    tally["clock"] += 1
                    continue
                bank.miss(key, seed, str(error))
                misses[key] = misses.get(key, 0) + 1
                tally["misses"] += 1
                continue
            if record.difficulty != key.difficulty:  # a generator that graded it otherwise
                bank.miss(key, seed, f"graded {record.difficulty}")
                tally["misses"] += 1
                continue
            added = bank.add(record)
            tally["added" if added else "duplicates"] += 1
    return tally


def check_key(
    genre_name: str,
    size: str,
    difficulty: str | None,
    options: Mapping[str, str] | None = None,
) -> Key:
    """The key of a player's request (`options`: the genre's settings with choices, by
    name); `CodeError` naming what is wrong with it."""
    genre = registry.genre(genre_name)
    chosen_options = check_options(genre, options or {})
    width, height = parse_size(size, "size")
    (min_w, min_h), (max_w, max_h) = genre.sizes
    if not (min_w <= width <= max_w and min_h <= height <= max_h):
        raise CodeError(
            f"size {width}x{height} is outside {genre.title}'s range "
            f"{min_w}x{min_h} to {max_w}x{max_h}"
        )
    offered = genre.offered(width, height, chosen_options)
    chosen = difficulty
    if chosen is None:
        chosen = Grade.EASY if Grade.EASY in offered else offered[0] if offered else Grade.EASY
    if chosen not in genre.difficulties:
        known = ", ".join(genre.difficulties)
        raise CodeError(f"difficulty {quote(chosen)} is not one of {genre.title}'s: {known}")
    if chosen not in offered:
        under = "".join(f" under {name} {value}" for name, value in chosen_options.items())
        raise CodeError(
            f"{genre.title} at {width}x{height}{under} offers {', '.join(offered)}, "
            f"not {quote(chosen)}"
        )
    return Key(genre.name, width, height, grade_of(chosen), options_text(chosen_options))
