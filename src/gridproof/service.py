"""What the CLI and the web both call: load puzzles from any format, count, solve, validate.

A SOURCE is a puzzle code (`GENRE.VERSION.PARAMS.PAYLOAD`), a puzz.link URL, a JSON document
(`{...}` pasted as text) or the path of a JSON file holding one puzzle object or a corpus
`{"genre", "puzzles": [...]}`. Every problem with a source is a `CodeError` whose one-line
message quotes the input and says where; nothing here asks which genre it holds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridproof.core import registry
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GridproofError, quote
from gridproof.core.grid import bits
from gridproof.core.registry import Genre, Request, Studied, genres

MAX_FILE_BYTES = 50 * 1024 * 1024
FORMATS = ("code", "url", "json")
_URL_HOSTS = ("puzz.link", "pzv.jp")
_URL_MODES = ("_edit", "_play")
# What a codec may raise on malformed input besides CodeError; turned into CodeError here,
# because this is where untrusted input meets the genres.
_PARSE_FAILURES = (GridproofError, ValueError, TypeError, KeyError, IndexError, AttributeError)


@dataclass(frozen=True)
class Loaded:
    """One puzzle read from a source, with what a corpus says about it."""

    id: str
    genre: Genre
    puzzle: Any
    expected: str | None = None
    solution: int | None = None
    """The corpus solution as a shaded-cell mask (bit row * width + col)."""


def load(source: str, *, files: bool = True) -> list[Loaded]:
    """Every puzzle in `source`; `files=False` refuses file paths (the web must not read them)."""
    text = source.strip()
    if not text:
        raise CodeError("empty source: expected a puzzle code, a puzz.link URL or a JSON file")
    if text.startswith("{"):
        return _load_document(text, "json", "JSON text")
    if _is_url(text):
        return [_load_url(text)]
    if files and _is_file(text):
        return _load_file(Path(text))
    head = text.split(".", 1)[0]
    if head in registry.genres():
        return [_load_code(text, head)]
    if text.lower().endswith(".json") or "/" in text or "\\" in text:
        if files:
            return _load_file(Path(text))
        raise CodeError(
            f"{quote(text)}: file paths are not accepted here; "
            "give a puzzle code, a puzz.link URL or JSON text"
        )
    if "." in text:
        return [_load_code(text, head)]
    what = "a puzzle code (GENRE.VERSION.PARAMS.PAYLOAD), a puzz.link URL"
    raise CodeError(f"{quote(text)} is not {what}{' or a JSON file' if files else ''}")


def count(loaded: Loaded, limit: int = 2, deadline_s: float | None = None) -> dict[str, Any]:
    """Count solutions up to `limit` (at least 2) within `deadline_s` seconds (None: no limit)."""
    if limit < 2:
        raise CodeError(f"limit must be at least 2 (uniqueness needs a second search), got {limit}")
    deadline = Deadline(_deadline_seconds(deadline_s))
    outcome = loaded.genre.count(loaded.puzzle, limit, deadline)
    return {
        "id": loaded.id,
        "genre": loaded.genre.name,
        "outcome": str(outcome.verdict),
        "solutions": [loaded.genre.format_grid(loaded.puzzle, s) for s in outcome.solutions],
        "elapsed_s": round(outcome.elapsed, 6),
        "nodes": outcome.nodes,
    }


def generate(
    name: str,
    width: int,
    height: int,
    seed: int,
    difficulty: str | None = None,
    deadline_s: float | None = 60.0,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One generated board proven unique, in the JSON shape every genre shares:
    `{"genre", "code", "seed", "size", "puzzle", "solution", "difficulty", "metrics",
    "health"}`. Raises `GenerationError` (with the health record) when none is proven."""
    genre = _genre(name, "generate")
    (min_w, min_h), (max_w, max_h) = genre.sizes
    if not (min_w <= width <= max_w and min_h <= height <= max_h):
        raise CodeError(
            f"size {width}x{height} is outside {genre.title}'s range "
            f"{min_w}x{min_h} to {max_w}x{max_h}"
        )
    if difficulty is not None and difficulty not in genre.difficulties:
        raise CodeError(
            f"difficulty {quote(difficulty)} is not one of {', '.join(genre.difficulties)}"
        )
    request = Request(width, height, difficulty, dict(options or {}))
    made = genre.generate(request, seed, Deadline(_deadline_seconds(deadline_s)))
    return {
        "genre": genre.name,
        "code": genre.format_code(made.puzzle),
        "seed": made.seed,
        "size": f"{width}x{height}",
        "puzzle": genre.to_json(made.puzzle),
        "solution": genre.format_grid(made.puzzle, made.solution),
        "difficulty": made.difficulty,
        "metrics": dict(made.metrics),
        "health": made.health.as_dict(),
    }


def study(name: str, boards: int, seed: int, deadline_s: float | None = None) -> str:
    """The genre's reproduction of its design note's measurements, as markdown."""
    genre = _genre(name, "study")
    if not isinstance(genre, Studied):
        studied = sorted(n for n, g in genres().items() if isinstance(g, Studied))
        raise CodeError(f"{genre.title} has no study; these do: {', '.join(studied)}")
    if boards < 1:
        raise CodeError(f"boards must be at least 1, got {boards}")
    return genre.study(boards, seed, Deadline(_deadline_seconds(deadline_s)))


def check_rung(loaded: Loaded, rung: str) -> None:
    """Raise `CodeError` unless `rung` is a rung of the puzzle's genre."""
    if rung not in loaded.genre.rungs:
        known = ", ".join(loaded.genre.rungs)
        raise CodeError(f"unknown rung {quote(rung)} for {loaded.genre.name}; rungs: {known}")


def solve(loaded: Loaded, rung: str, deadline_s: float | None = None) -> dict[str, Any]:
    """How far rung `rung` of the genre's ladder gets alone, with its steps."""
    check_rung(loaded, rung)
    progress = loaded.genre.solve(loaded.puzzle, rung, Deadline(_deadline_seconds(deadline_s)))
    return {
        "id": loaded.id,
        "rules": progress.rung,
        "decided": round(progress.decided_fraction, 4),
        "grid": _partial_rows(loaded.puzzle, progress.shaded, progress.empty),
        "steps": [
            {
                "rule": step.rule,
                "text": step.text,
                "shaded": list(bits(step.shaded)),
                "empty": list(bits(step.empty)),
                "cells": list(step.cells),
                "regions": list(step.regions),
            }
            for step in progress.steps
        ],
        "contradiction": progress.contradiction,
        "timed_out": progress.timed_out,
    }


def validate(loaded: Loaded, rows: list[str]) -> list[dict[str, Any]]:
    """Every rule the grid `rows` breaks (empty for a solution)."""
    try:
        shaded = loaded.genre.parse_grid(loaded.puzzle, rows)
    except GridproofError as error:
        raise CodeError(f"grid for {quote(loaded.id)}: {_one_line(error)}") from None
    return [
        {"rule": v.rule, "text": v.text, "cells": list(v.cells), "regions": list(v.regions)}
        for v in loaded.genre.validate(loaded.puzzle, shaded)
    ]


def convert(loaded: Loaded, to: str) -> str:
    """The puzzle as a code, a puzz.link URL or compact JSON (with its id and genre)."""
    genre, puzzle = loaded.genre, loaded.puzzle
    if to == "code":
        return genre.format_code(puzzle)
    if to == "url":
        return genre.format_url(puzzle)
    if to == "json":
        body = {k: v for k, v in genre.to_json(puzzle).items() if k not in ("id", "genre")}
        obj = {"id": loaded.id, "genre": genre.name, **body}
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    raise CodeError(f"unknown format {quote(to)}; formats: {', '.join(FORMATS)}")


def genre_list() -> list[dict[str, Any]]:
    """Name, title and rungs of every registered genre, by name."""
    return [
        {"name": g.name, "title": g.title, "rungs": list(g.rungs)}
        for _, g in sorted(registry.genres().items())
    ]


# --- sources -----------------------------------------------------------------------------


def _is_url(text: str) -> bool:
    lower = text.lower()
    return "p?" in text or lower.startswith(("http://", "https://", *_URL_HOSTS))


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # names too long, NUL bytes
        return False


def _load_url(text: str) -> Loaded:
    _, sep, query = text.partition("?")
    name = query.split("/", 1)[0]
    for mode in _URL_MODES:
        name = name.removesuffix(mode)
    if not sep or not name:
        raise CodeError(f"URL {quote(text)}: no genre after '?' (expected .../p?GENRE/...)")
    url = text if "://" in text else "https://" + text
    genre = _genre(name, f"URL {quote(text)}")
    return Loaded(text, genre, _parse(lambda: genre.parse_url(url), f"URL {quote(text)}"))


def _load_code(text: str, name: str) -> Loaded:
    genre = _genre(name, f"code {quote(text)}")
    return Loaded(text, genre, _parse(lambda: genre.parse_code(text), f"code {quote(text)}"))


def _load_file(path: Path) -> list[Loaded]:
    where = f"file {_quote_path(str(path))}"
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CodeError(f"{where} is larger than {MAX_FILE_BYTES // 2**20} MB")
        raw = path.read_bytes()
    except OSError as error:
        raise CodeError(f"cannot read {where}: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CodeError(f"{where} is not UTF-8 text (byte {error.start})") from None
    return _load_document(text, path.stem, where)


def _load_document(text: str, stem: str, where: str) -> list[Loaded]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        at = f"line {error.lineno}, column {error.colno}"
        raise CodeError(f"{where}: invalid JSON at {at}: {error.msg}") from None
    except RecursionError:
        raise CodeError(f"{where}: JSON nested too deeply") from None
    if not isinstance(doc, dict):
        raise CodeError(f"{where}: expected a JSON object, found {_json_type(doc)}")
    if "puzzles" not in doc:
        return [_load_object(doc, None, stem, where, None)]
    puzzles = doc["puzzles"]
    if not isinstance(puzzles, list):
        raise CodeError(f"{where}: 'puzzles' must be a list, found {_json_type(puzzles)}")
    if not puzzles:
        raise CodeError(f"{where}: 'puzzles' is empty")
    default = doc.get("genre")
    return [_load_object(p, default, stem, where, n) for n, p in enumerate(puzzles, 1)]


def _load_object(
    obj: object, default_genre: object, stem: str, where: str, number: int | None
) -> Loaded:
    """One puzzle object; `number` is its 1-based place in a corpus (None for a lone object)."""
    label = "puzzle" if number is None else f"puzzle {number}"
    if not isinstance(obj, dict):
        raise CodeError(f"{where}: {label} must be a JSON object, found {_json_type(obj)}")
    ident = obj.get("id")
    if ident is not None:
        label = f"{label} ({quote(str(ident))})"
    place = f"{where}: {label}"
    name = obj.get("genre", default_genre)
    if name is None:
        raise CodeError(f"{place}: missing key 'genre'")
    if not isinstance(name, str):
        raise CodeError(f"{place}: 'genre' must be a string, found {_json_type(name)}")
    genre = _genre(name, place)
    puzzle = _parse(lambda: genre.from_json(obj), place)
    expected = obj.get("expected")
    if expected is not None and not isinstance(expected, str):
        raise CodeError(f"{place}: 'expected' must be a string, found {_json_type(expected)}")
    solution = obj.get("solution")
    return Loaded(
        id=str(ident) if ident is not None else stem if number is None else f"{stem}#{number}",
        genre=genre,
        puzzle=puzzle,
        expected=expected,
        solution=None if solution is None else _solution_mask(solution, puzzle, place),
    )


def _solution_mask(rows: object, puzzle: Any, place: str) -> int:
    """The mask of a corpus `solution`: `height` rows of `width` 0/1 values."""
    width, height = puzzle.width, puzzle.height
    if not isinstance(rows, list) or len(rows) != height:
        raise CodeError(f"{place}: 'solution' must be {height} rows of {width} 0/1 values")
    mask = 0
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != width:
            raise CodeError(f"{place}: 'solution' row {r + 1} is not a list of {width} 0/1 values")
        for c, value in enumerate(row):
            if not isinstance(value, int) or value not in (0, 1):
                raise CodeError(f"{place}: 'solution' row {r + 1}, column {c + 1} is not 0 or 1")
            if value == 1:
                mask |= 1 << (r * width + c)
    return mask


def _genre(name: str, place: str) -> Genre:
    try:
        return registry.genre(name)
    except GridproofError as error:
        raise CodeError(f"{place}: {_one_line(error)}") from None


def _parse(parse: Callable[[], Any], place: str) -> Any:
    """`parse()`, with any failure on malformed input reported as a `CodeError` at `place`."""
    try:
        return parse()
    except _PARSE_FAILURES as error:
        raise CodeError(f"{place}: {_one_line(error)}") from None
    except RecursionError:
        raise CodeError(f"{place}: nested too deeply") from None


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    if isinstance(error, GridproofError):
        return text or type(error).__name__
    if isinstance(error, KeyError):
        return f"missing key {text}"
    # A codec that failed with a non-gridproof error: keep what it said, say what kind.
    return f"invalid puzzle ({type(error).__name__}: {text})" if text else "invalid puzzle"


def _quote_path(text: str, limit: int = 60) -> str:
    """`text` quoted, shortened at the front so the file name stays visible."""
    return repr(text if len(text) <= limit else "…" + text[1 - limit :])


def _json_type(value: object) -> str:
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null" if value is None else type(value).__name__


def _deadline_seconds(deadline_s: float | None) -> float | None:
    if deadline_s is None:
        return None
    if not (math.isfinite(deadline_s) and deadline_s > 0):
        raise CodeError(f"deadline must be a positive number of seconds, got {deadline_s}")
    return deadline_s


def _partial_rows(puzzle: Any, shaded: int, empty: int) -> list[str]:
    """Rows of `#` (shaded), `.` (empty) and `?` (undecided)."""
    width = puzzle.width
    return [
        "".join(
            "#" if shaded >> cell & 1 else "." if empty >> cell & 1 else "?"
            for cell in range(r * width, (r + 1) * width)
        )
        for r in range(puzzle.height)
    ]
