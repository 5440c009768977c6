"""The bank in and out: its statistics, an export of its boards (JSON lines or puzz.link
URLs), and an import of boards from elsewhere, each counted before it is kept.

An import reads a file of lines, each a puzzle code or a puzz.link URL, bare or as a JSON
string, or a JSON object with a `code` or `url` (what `export --format jsonl` writes). Every
line is read before any is counted, and a line that cannot be read is a `CodeError` naming
it. A board is kept when the engine counts it unique within the deadline; it is graded by
the ladder, counted again by an independent counter where one can run, and its provenance
says where it came from. No solution leaves the bank: exports carry codes, not answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TextIO

from gridproof import bank, service
from gridproof.bank import evidence
from gridproof.bank.runners import Runner
from gridproof.core import registry
from gridproof.core.codes import format_size
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, quote
from gridproof.core.ladder import cheapest_rung, grade_of, rate
from gridproof.core.outcome import Verdict
from gridproof.version import ENGINE_VERSION

EXPORT_FORMATS = ("jsonl", "urls")
MAX_IMPORT_BYTES = 200 * 1024 * 1024
IMPORT_SECONDS = bank.VERIFY_SECONDS
"""The default budget for counting (and for grading) one imported board."""
_ORIGINS = (evidence.GENERATOR_CHECK, evidence.RECOUNT_CHECK, evidence.COUNT_CHECK)


# --- statistics ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stats:
    """What the bank holds and what filling it cost: boards per genre, size, grade and
    provenance (with how many an independent counter checked), failures per job and
    reason, every bulk fill with its throughput, and the stock per setting (boards nobody
    was served yet, against what the background filler keeps)."""

    boards: list[dict[str, Any]]
    failures: list[dict[str, Any]]
    fills: list[dict[str, Any]]
    stock: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "boards": self.boards,
            "failures": self.failures,
            "fills": self.fills,
            "stock": self.stock,
        }


def stats(store: bank.Bank) -> Stats:
    """The bank's statistics (see `Stats`)."""
    origins = ", ".join(f"'{name}'" for name in _ORIGINS)
    with store.reading() as db:
        boards = db.execute(
            "SELECT genre, width, height, difficulty, "
            "CASE WHEN provenance LIKE 'generated %' THEN 'generated' WHEN provenance LIKE "
            "'imported %' THEN 'imported' ELSE provenance END AS made, count(*) AS boards, "
            "sum(EXISTS (SELECT 1 FROM json_each(checks) WHERE value NOT IN "
            f"({origins}))) AS checked FROM puzzles GROUP BY genre, width, height, "
            "difficulty, made ORDER BY genre, width * height, width, difficulty, made"
        ).fetchall()
        failures = db.execute(
            "SELECT genre, width, height, asked AS difficulty, reason, count(*) AS n "
            "FROM tried WHERE outcome = 'miss' GROUP BY genre, width, height, asked, reason "
            "UNION ALL SELECT genre, width, height, difficulty, reason, count(*) FROM misses "
            "GROUP BY genre, width, height, difficulty, reason "
            "ORDER BY genre, width, height, difficulty, n DESC"
        ).fetchall()
        fills = db.execute("SELECT * FROM fills ORDER BY id").fetchall()
    return Stats(
        boards=[_board_row(row) for row in boards],
        failures=[
            {**_size_fields(row), "reason": row["reason"], "count": row["n"]} for row in failures
        ],
        fills=[_fill_row(row) for row in fills],
        stock=stock(store),
    )


def stock(store: bank.Bank) -> list[dict[str, Any]]:
    """Per setting the player is offered (and any other the bank holds boards of): the
    boards new games may serve (the genre's current generator's), how many of them nobody
    was served yet, and the stock the background filler keeps (`bank.stock_depth`)."""
    held, left = store.counts(), store.stock()
    keys = [
        key for name, genre in sorted(registry.genres().items()) for key in bank.offered_keys(genre)
    ]
    keys += sorted(set(held) - set(keys), key=lambda k: (k.genre, k.width * k.height, k.difficulty))
    return [
        {
            "genre": key.genre,
            "size": key.size,
            "difficulty": key.difficulty,
            "options": key.settings(),
            "boards": held.get(key, 0),
            "stock": left.get(key, 0),
            "target": bank.stock_depth(key),
        }
        for key in keys
    ]


def _size_fields(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "genre": row["genre"],
        "size": format_size(row["width"], row["height"]),
        "difficulty": row["difficulty"] or "any",
    }


def _board_row(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **_size_fields(row),
        "made": row["made"] or "?",
        "boards": row["boards"],
        "checked": row["checked"],
    }


def _fill_row(row: Mapping[str, Any]) -> dict[str, Any]:
    seconds = max(0.0, row["updated_at"] - row["started_at"])
    return {
        "id": row["id"],
        "started_at": row["started_at"],
        **_size_fields({**dict(row), "difficulty": row["asked"]}),
        "generator": row["generator"],
        "seed_start": row["seed_start"],
        "target": row["target"],
        "workers": row["workers"],
        "seeds": row["seeds"],
        "kept": row["kept"],
        "duplicates": row["duplicates"],
        "misses": row["misses"],
        "retries": row["retries"],
        "checked": row["checked"],
        "seconds": round(seconds, 3),
        "boards_per_minute": round(row["kept"] / seconds * 60, 1) if seconds > 0 else None,
        "status": row["status"],
    }


def format_stats(found: Stats) -> list[str]:
    """The statistics as text tables."""
    lines = ["boards:"]
    lines += _table(
        ("genre", "size", "grade", "made", "boards", "checked"),
        [
            (b["genre"], b["size"], b["difficulty"], b["made"], b["boards"], b["checked"])
            for b in found.boards
        ],
    )
    total = sum(b["boards"] for b in found.boards)
    lines.append(f"  {total} boards in all")
    lines.append("failures:")
    lines += _table(
        ("genre", "size", "grade", "count", "reason"),
        [
            (f["genre"], f["size"], f["difficulty"], f["count"], f["reason"][:70])
            for f in found.failures
        ],
    )
    lines.append("stock (boards nobody was served yet) per setting:")
    lines += _table(
        ("genre", "size", "grade", "options", "stock", "target", "boards"),
        [
            (
                s["genre"],
                s["size"],
                s["difficulty"],
                ",".join(f"{k}={v}" for k, v in sorted(s["options"].items())) or "-",
                s["stock"],
                s["target"],
                s["boards"],
            )
            for s in found.stock
        ],
    )
    low = sum(s["stock"] < s["target"] for s in found.stock)
    lines.append(
        f"  {sum(s['stock'] for s in found.stock)} boards in stock; {low} settings below target"
    )
    lines.append("fills:")
    lines += _table(
        (
            "#",
            "genre",
            "size",
            "grade",
            "workers",
            "seeds",
            "kept",
            "dup",
            "miss",
            "seconds",
            "boards/min",
            "status",
        ),
        [
            (
                f["id"],
                f["genre"],
                f["size"],
                f["difficulty"],
                f["workers"],
                f["seeds"],
                f["kept"],
                f["duplicates"],
                f["misses"],
                f"{f['seconds']:.1f}",
                "-" if f["boards_per_minute"] is None else f"{f['boards_per_minute']:,.1f}",
                "running or killed" if f["status"] == "running" else f["status"],
            )
            for f in found.fills
        ],
    )
    return lines


def _table(head: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[str]:
    if not rows:
        return ["  (none)"]
    cells = [tuple(str(each) for each in row) for row in [head, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(head))]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in cells
    ]


# --- export --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export wrote: the boards written, and those a puzz.link URL cannot hold
    (a no-three-black Nondango), which `urls` leaves out and `jsonl` writes with `url` null."""

    written: int
    without_url: int


def export(store: bank.Bank, out: TextIO, form: str, genre: str | None = None) -> Exported:
    """Write every board (of `genre`, if given) to `out`, one line each in bank order: a JSON
    object (`jsonl`) or a puzz.link URL (`urls`)."""
    if form not in EXPORT_FORMATS:
        raise CodeError(f"export format {quote(form)} is not one of {', '.join(EXPORT_FORMATS)}")
    if genre is not None:
        registry.genre(genre)
    written = without_url = 0
    for row in _rows(store, genre):
        url = _url(row)
        without_url += url is None
        if form == "urls":
            if url is None:
                continue
            out.write(url + "\n")
        else:
            out.write(json.dumps(_exported(row, url)) + "\n")
        written += 1
    return Exported(written, without_url)


def _rows(store: bank.Bank, genre: str | None) -> Iterator[Any]:
    """The bank's rows in id order, read a page at a time (a bank can hold millions)."""
    last = 0
    while True:
        with store.reading() as db:
            page = db.execute(
                "SELECT id, code, genre, width, height, difficulty, score, seed, generator, "
                "options, provenance, checks FROM puzzles "
                "WHERE id > ? AND (? IS NULL OR genre = ?) ORDER BY id LIMIT 1000",
                (last, genre, genre),
            ).fetchall()
        if not page:
            return
        yield from page
        last = page[-1]["id"]


def _url(row: Any) -> str | None:
    """The board's puzz.link URL; None when the format cannot hold the board."""
    genre = registry.genre(row["genre"])
    try:
        return genre.format_url(genre.parse_code(row["code"]))
    except CodeError:
        return None


def _exported(row: Any, url: str | None) -> dict[str, Any]:
    return {
        "code": row["code"],
        "url": url,
        "genre": row["genre"],
        "size": format_size(row["width"], row["height"]),
        "difficulty": row["difficulty"],
        "score": row["score"],
        "seed": row["seed"],
        "generator": row["generator"],
        "options": row["options"],
        "provenance": row["provenance"],
        "checks": json.loads(row["checks"]),
    }


# --- import --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Incoming:
    """One line of an import file, read."""

    line: int
    item: service.Loaded
    provenance: str = ""
    """The provenance the line carried (an export's), kept before where it was imported from."""
    seed: int = 0
    generator: str = ""
    """An export's seed and generator version: with the key they rebuild the board
    (`gridproof generate`), so a merged bank can still be rebuilt from seeds."""
    options: str = ""
    """An export's generator options (`options_text`), part of the board's key."""


@dataclass(slots=True)
class Imported:
    """What an import did: boards kept, copies of banked boards, and the lines not kept,
    each with why."""

    kept: int = 0
    duplicates: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)


def read_import(path: Path, mixed: bool = False) -> list[Incoming]:
    """Every puzzle of the file at `path`, read before any is counted; `CodeError` naming
    the first line that cannot be read, and unless `mixed`, the first board made by another
    version of its genre's generator than this gridproof's (its seed would not rebuild it
    here, and new games never serve it)."""
    try:
        if path.stat().st_size > MAX_IMPORT_BYTES:
            raise CodeError(f"import file {quote(str(path))} is larger than 200 MB")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CodeError(f"cannot read import file {quote(str(path))}: {error}") from None
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                found.append(_read_line(number, line.strip()))
            except CodeError as error:
                raise CodeError(f"{path.name} line {number}: {error}") from None
    if not found:
        raise CodeError(f"import file {quote(str(path))} holds no puzzles")
    if not mixed:
        for each in found:
            ours = each.item.genre.generator
            if each.generator and each.generator != ours:
                raise CodeError(
                    f"{path.name} line {each.line}: made by the generator {each.generator}, "
                    f"not this gridproof's {ours}: its seed would not rebuild it here and new "
                    "games would not serve it (--mixed-generators keeps such boards as they are)"
                )
    return found


def _read_line(number: int, text: str) -> Incoming:
    made: dict[str, Any] = {}
    if text[0] in '{"':
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise CodeError(f"not JSON: {error.msg} at column {error.colno}") from None
        if isinstance(value, dict):
            made = _made(value)
            value = value.get("code") or value.get("url")
        if not isinstance(value, str):
            raise CodeError('expected a code or a URL, as a string or in "code" or "url"')
        text = value
    items = service.load(text, files=False)
    if len(items) != 1:
        raise CodeError(f"holds {len(items)} puzzles, not one")
    if made.get("generator") and made["generator"].partition("/")[0] != items[0].genre.name:
        raise CodeError(
            f"'generator' {quote(made['generator'])} is not a {items[0].genre.title} one"
        )
    return Incoming(number, items[0], **made)


def _shown(value: object) -> str:
    return quote(json.dumps(value))


def _made(line: Mapping[str, Any]) -> dict[str, Any]:
    """What an export line says of where its board comes from: provenance, seed,
    generator and options, each checked."""
    made: dict[str, Any] = {}
    for key in ("provenance", "generator", "options", "seed"):
        value = line.get(key)
        if value is None:
            continue
        if key == "seed":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise CodeError(f"'seed' must be a whole number from 0, found {_shown(value)}")
        elif not isinstance(value, str):
            raise CodeError(f"{key!r} must be a string, found {_shown(value)}")
        made[key] = value
    if "seed" in made and not made.get("generator"):
        raise CodeError("'seed' without 'generator': a seed rebuilds a board only with its version")
    return made


def import_boards(
    store: bank.Bank,
    incoming: list[Incoming],
    source: str,
    seconds: float = IMPORT_SECONDS,
    runner: Runner[list[LineResult]] | None = None,
) -> Imported:
    """Count every incoming board and keep those proven unique (see the module docstring),
    here or on `runner`'s workers (an `ImportTask` of the same file); either way the boards
    are banked in the file's order."""
    done = Imported()
    if runner is None:
        for each in incoming:
            _keep(store, done, each.line, _counted(each, source, seconds))
        return done
    numbers = [each.line for each in incoming]
    size = max(1, min(IMPORT_CHUNK, len(numbers) // (runner.workers * 4) or 1))
    chunks = [tuple(numbers[k : k + size]) for k in range(0, len(numbers), size)]
    for index, chunk in enumerate(chunks):
        runner.submit(index, chunk)
    finished: dict[int, list[LineResult]] = {}
    following = 0
    try:
        while following < len(chunks):
            index, results = runner.done()
            finished[index] = results
            while following in finished:  # banked in file order, as they become contiguous
                for line, result in finished.pop(following):
                    _keep(store, done, line, result)
                following += 1
    finally:
        runner.close()
    return done


LineResult = tuple[int, "bank.Record | str"]
"""One line's number and its record, or why it is not kept."""
IMPORT_CHUNK = 50
"""The most lines one worker task counts."""


def _counted(each: Incoming, source: str, seconds: float) -> bank.Record | str:
    try:
        return imported_record(each, source, seconds)
    except GenerationError as error:
        return str(error)


def _keep(store: bank.Bank, done: Imported, line: int, result: bank.Record | str) -> None:
    if isinstance(result, str):
        done.rejected.append((line, result))
    elif store.add(result):
        done.kept += 1
    else:
        done.duplicates += 1


@dataclass(frozen=True, slots=True)
class ImportTask:
    """Counts lines of one import file (by their 1-based numbers) in whatever process runs
    it: plain data, so a spawned worker can (`gridproof.bank.runners`). The file was read
    and checked whole before (`read_import`)."""

    path: str
    source: str
    seconds: float

    def __call__(self, numbers: tuple[int, ...]) -> list[LineResult]:
        lines = _lines_of(self.path)
        return [
            (n, _counted(_read_line(n, lines[n - 1].strip()), self.source, self.seconds))
            for n in numbers
        ]


@lru_cache(maxsize=1)
def _lines_of(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def imported_record(each: Incoming, source: str, seconds: float) -> bank.Record:
    """The record of an imported board; `GenerationError` saying why it cannot be kept."""
    genre, puzzle = each.item.genre, each.item.puzzle
    outcome = genre.count(puzzle, 2, Deadline(seconds))
    if outcome.verdict is not Verdict.UNIQUE:
        said = {Verdict.NONE: "has no solution", Verdict.MULTIPLE: "has several solutions"}
        why = said.get(outcome.verdict, f"was not counted within {seconds:g} s")
        raise GenerationError(why, {"verdict": str(outcome.verdict)})
    [solution] = outcome.solutions
    rung, progress = cheapest_rung(genre.ladder, genre.position, puzzle, Deadline(seconds))
    if progress.timed_out:
        raise GenerationError(f"was not graded within {seconds:g} s", {})
    difficulty = rate(genre.ladder, rung, progress)
    checks = [evidence.COUNT_CHECK]
    checked = evidence.independent_check(genre, puzzle, solution)
    if checked is not None:
        checks.append(checked[0])
    provenance = (f"{each.provenance}; " if each.provenance else "") + f"imported from {source}"
    return bank.Record(
        code=genre.format_code(puzzle),
        genre=genre.name,
        width=puzzle.width,
        height=puzzle.height,
        difficulty=grade_of(difficulty.grade),
        seed=each.seed,
        generator=each.generator,
        metrics=difficulty.as_dict(),
        health={},
        solution=solution,
        verdict=str(outcome.verdict),
        nodes=outcome.nodes,
        elapsed_s=round(outcome.elapsed, 6),
        engine=ENGINE_VERSION,
        score=difficulty.score,
        canonical=evidence.canonical_code(genre, puzzle),
        provenance=provenance,
        checks=tuple(checks),
        options=each.options,
    )
