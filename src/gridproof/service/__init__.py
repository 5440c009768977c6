"""What the CLI, the web and the library all call: load puzzles from any format, count,
solve, validate, convert, generate.

A SOURCE is a puzzle code (`GENRE.VERSION.PARAMS.PAYLOAD`), a puzz.link URL (a
`p?pzprv3/...` one carries a save file), a JSON document (`{...}` pasted as text), the path
of a JSON file holding one puzzle object or a corpus `{"genre", "puzzles": [...]}`, or a
text or file in one of the genres' own formats (`Genre.formats`: pzprv3 for every genre).
Every problem with a source is a `CodeError` whose one-line message quotes the input and
says where; nothing here asks which genre it holds.

Results are frozen values (`Counted`, `Solved`, `Board`, `core.trace.Violation`); each
`to_json()` gives the shape the CLI's `--json` prints and the web API sends, made only
there.
"""

from __future__ import annotations

import json
import math
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from gridproof.core import pzprv3, registry
from gridproof.core.codes import format_size
from gridproof.core.contract import Format, Genre, Request
from gridproof.core.deadline import Deadline, check_reading, parsing_within
from gridproof.core.errors import CodeError, GridproofError, quote
from gridproof.core.grid import mask_of, partial_rows
from gridproof.core.report import Report, Tick, no_tick
from gridproof.core.trace import Violation, settled
from gridproof.service.results import Board as Board
from gridproof.service.results import Counted as Counted
from gridproof.service.results import GenreInfo as GenreInfo
from gridproof.service.results import Grid as Grid
from gridproof.service.results import Judged as Judged
from gridproof.service.results import Loaded as Loaded
from gridproof.service.results import Solved as Solved
from gridproof.service.results import step_to_json as step_to_json
from gridproof.service.results import violation_to_json as violation_to_json

MAX_FILE_BYTES = 50 * 1024 * 1024
MAX_JSON_DIGITS = 18
"""The longest integer a JSON puzzle may hold (sizes and clues are far shorter)."""
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
FORMATS = ("code", "url", "json")
_URL_HOSTS = ("puzz.link", "pzv.jp")
_URL_MODES = ("_edit", "_play")

Seconds = float | Deadline | None
"""A time limit: seconds from now, a `Deadline` (which the caller may cancel), or None."""


# --- the calls ---------------------------------------------------------------------------


def load(source: str, *, files: bool = True, deadline: Seconds = None) -> list[Loaded]:
    """Every puzzle in `source`; `files=False` refuses file paths (the web must not read them).
    Reading works under `deadline` (a Pattern ID's prefilled squares are checked by a count
    that stops there; a `CodeError` says so), or under the one of an enclosing
    `parsing_within` when None."""
    if deadline is None:
        return _load(source, files)
    with parsing_within(as_deadline(deadline)):
        return _load(source, files)


def _load(source: str, files: bool) -> list[Loaded]:
    text = source.strip()
    if not text:
        raise CodeError("empty source: expected a puzzle code, a puzz.link URL or a JSON file")
    _check_characters(text, "source")
    if text.startswith("{"):
        return _load_document(text, "json", "JSON text")
    if _is_url(text):
        return [_load_url(text)]
    if files and _is_file(text):
        return _load_file(Path(text))
    head = text.split(".", 1)[0]
    if registry.known(head) and ":" not in text and not any(c.isspace() for c in text):
        return [_load_code(text, head)]  # no genre's own format has this shape
    written = _load_format(text, text if "\n" not in text else "", "source")
    if written is not None:
        return [written]
    if registry.known(head):
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


def count(loaded: Loaded, limit: int = 2, deadline: Seconds = None, *, sat: bool = True) -> Counted:
    """Count solutions up to `limit` (at least 2) within `deadline` (None: no limit); with
    `sat` false, by the genre's pure-Python counter alone (`Genre.count_pure`)."""
    if limit < 2:
        raise CodeError(f"limit must be at least 2 (uniqueness needs a second search), got {limit}")
    genre, puzzle = loaded.genre, loaded.puzzle
    counter = genre.count if sat or genre.count_pure is None else genre.count_pure
    outcome = counter(puzzle, limit, as_deadline(deadline))
    return Counted(
        id=loaded.id,
        genre=genre.name,
        verdict=outcome.verdict,
        solutions=tuple(tuple(genre.format_grid(puzzle, s)) for s in outcome.solutions),
        elapsed_s=round(outcome.elapsed, 6),
        nodes=outcome.nodes,
    )


def generate(
    name: str,
    width: int,
    height: int,
    seed: int,
    difficulty: str | None = None,
    deadline: Seconds = 60.0,
    options: Mapping[str, Any] | None = None,
) -> Board:
    """One generated board proven unique. `options` are the genre's own settings, named as
    in its `options` table. Raises `GenerationError` (with the health record) when none is
    proven in time."""
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
    settings = dict(options or {})
    known = [option.name for option in genre.options]
    for unknown in sorted(set(settings) - set(known)):
        offered = f"its options: {', '.join(known)}" if known else "it has none"
        raise CodeError(f"{genre.title} has no option {quote(unknown)}; {offered}")
    grades = genre.offered(width, height, settings)  # a Queens 15x15 offers easy, 3 stars not
    if difficulty is not None and difficulty not in grades:
        raise CodeError(
            f"{genre.title} at {width}x{height} offers {', '.join(grades)}, not {quote(difficulty)}"
        )
    request = Request(width, height, difficulty, settings)
    made = genre.generate(request, seed, as_deadline(deadline))
    return Board(
        genre=genre,
        puzzle=made.puzzle,
        code=genre.format_code(made.puzzle),
        seed=made.seed,
        solution=made.solution,
        difficulty=made.difficulty,
        metrics=dict(made.metrics),
        health=made.health,
        score=made.score,
    )


def study(
    name: str, boards: int, seed: int, deadline: Seconds = None, tick: Tick = no_tick
) -> Report:
    """The genre's reproduction of its design note's measurements, its tables as data
    (`core.report.format_markdown` writes the note's markdown); `tick(done, total)` is
    told how far it has got."""
    genre = _genre(name, "study")
    if genre.study is None:
        studied = sorted(n for n, g in registry.genres().items() if g.study is not None)
        raise CodeError(f"{genre.title} has no study; these do: {', '.join(studied)}")
    if boards < 1:
        raise CodeError(f"boards must be at least 1, got {boards}")
    return genre.study(boards, seed, as_deadline(deadline), tick)


def check_rung(loaded: Loaded, rung: str) -> None:
    """Raise `CodeError` unless `rung` is a rung of the puzzle's genre."""
    if rung not in loaded.genre.rungs:
        known = ", ".join(loaded.genre.rungs)
        raise CodeError(f"unknown rung {quote(rung)} for {loaded.genre.name}; rungs: {known}")


def solve(loaded: Loaded, rung: str | None = None, deadline: Seconds = None) -> Solved:
    """How far rung `rung` (None: the whole ladder) of the genre's ladder gets alone."""
    genre, puzzle = loaded.genre, loaded.puzzle
    chosen = genre.ladder.top if rung is None else rung
    check_rung(loaded, chosen)
    progress = genre.solve(puzzle, chosen, as_deadline(deadline))
    return Solved(
        id=loaded.id,
        rung=progress.rung,
        decided=progress.decided_fraction,
        grid=tuple(partial_rows(puzzle, progress.shaded, progress.empty)),
        steps=progress.steps,
        contradiction=progress.contradiction,
        timed_out=progress.timed_out,
        notes=progress.notes,
    )


def validate(loaded: Loaded, rows: Sequence[str]) -> list[Violation]:
    """Every rule the grid `rows` breaks (empty for a solution)."""
    return loaded.genre.validate(loaded.puzzle, shading(loaded, rows))


def judge(loaded: Loaded, rows: Sequence[str]) -> Judged:
    """The grid `rows` judged as a player's partial grid (`#` shaded, `+` marked empty,
    any other cell undecided): each violation broken already or still open, by the genre's
    `settled` (else `core.trace.settled`), and the complete groups (`Genre.groups`)."""
    genre, puzzle = loaded.genre, loaded.puzzle
    shaded = shading(loaded, rows)
    w = puzzle.width
    marked = (
        r * w + c
        for r, row in enumerate(rows[: puzzle.height])
        for c, char in enumerate(row[:w])
        if char == "+"
    )
    empty = mask_of(marked) & ~shaded
    found = genre.validate(puzzle, shaded)
    judged = tuple(
        (
            violation,
            genre.settled(puzzle, violation, shaded, empty)
            if genre.settled is not None
            else settled(violation, shaded, empty),
        )
        for violation in found
    )
    named = {violation.group for violation in found if violation.group}
    groups = () if genre.groups is None else genre.groups(puzzle)
    return Judged(judged, tuple(group for group in groups if group.cells not in named))


def shading(loaded: Loaded, rows: Sequence[str]) -> int:
    """The shaded mask of the grid `rows` as the genre writes one (`CodeError` naming the
    puzzle when they are not such a grid)."""
    try:
        return loaded.genre.parse_grid(loaded.puzzle, rows)
    except GridproofError as error:
        raise CodeError(f"grid for {quote(loaded.id)}: {_one_line(error)}") from None


def picture(
    loaded: Loaded, partial: Sequence[str] | None = None, *, shaded: int | None = None
) -> list[str]:
    """The puzzle as its genre's text picture (clues or region borders): blank, with the
    solution `shaded` (every other cell empty), or with the marks of `partial` rows as
    `solve` leaves them (`#` shaded, `.` empty, `?` undecided)."""
    puzzle = loaded.puzzle
    everything = (1 << (puzzle.width * puzzle.height)) - 1
    if shaded is not None:
        return loaded.genre.format_text(puzzle, shaded, everything & ~shaded)
    marked = {"#": 0, ".": 0}
    for r, row in enumerate(partial or ()):
        for c, char in enumerate(row[: puzzle.width]):
            if char in marked and r < puzzle.height:
                marked[char] |= 1 << (r * puzzle.width + c)
    return loaded.genre.format_text(puzzle, marked["#"], marked["."])


def formats() -> tuple[str, ...]:
    """Every format `convert` writes: codes, URLs, JSON and each genre's own formats."""
    own = {fmt.name for genre in registry.genres().values() for fmt in genre.formats}
    return FORMATS + tuple(sorted(own))


def convert(loaded: Loaded, to: str) -> str:
    """The puzzle as a code, a puzz.link URL, compact JSON (with its id and genre) or one
    of its genre's own formats (with the solution where the format holds one and it is
    known). What is written is read back first: a board the format cannot hold (too
    large, a clue it cannot spell) is a `CodeError` saying so, never a text its reader
    would refuse."""
    genre, puzzle = loaded.genre, loaded.puzzle
    writers: dict[str, tuple[Callable[[], str], Callable[[str], Any]]] = {
        "code": (lambda: genre.format_code(puzzle), genre.parse_code),
        "url": (lambda: genre.format_url(puzzle), genre.parse_url),
        "json": (lambda: _to_json_text(loaded), lambda text: genre.from_json(json.loads(text))),
    }
    for fmt in genre.formats:
        writers[fmt.name] = _own_format(fmt, loaded)
    if to not in writers:
        known = formats() if to not in formats() else tuple(writers)
        whose = "" if to not in formats() else f" for {genre.title}"
        raise CodeError(f"unknown format {quote(to)}{whose}; formats: {', '.join(known)}")
    write, read = writers[to]
    cannot = f"{genre.title} {format_size(puzzle.width, puzzle.height)} cannot be written as {to}"
    try:
        text = write()
        if read(text) != puzzle:
            raise CodeError("it reads back as another puzzle")
    except GridproofError as error:
        raise CodeError(f"{cannot}: {_one_line(error)}") from None
    return text


def _own_format(fmt: Format[Any], loaded: Loaded) -> tuple[Callable[[], str], Callable[[str], Any]]:
    def write() -> str:
        return fmt.format(loaded.puzzle, loaded.solution)

    def read(text: str) -> Any:
        return fmt.parse(text)[0]

    return write, read


def _to_json_text(loaded: Loaded) -> str:
    keys = ("id", "genre", *loaded.genre.to_json(loaded.puzzle))
    whole = loaded.to_json()
    obj = {key: whole[key] for key in keys}  # the puzzle alone: no verdict, no solution
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def largest_boards() -> str:
    """The largest board of each genre in words: `Nondango 100x100, ...`."""
    return ", ".join(
        f"{g.title} {format_size(*g.largest)}" for _, g in sorted(registry.genres().items())
    )


def genre_list() -> list[GenreInfo]:
    """Name, title and rungs of every registered genre, by name."""
    return [GenreInfo(g.name, g.title, g.rungs) for _, g in sorted(registry.genres().items())]


def as_deadline(limit: Seconds) -> Deadline:
    """The deadline of a time limit: `limit` itself, seconds from now, or none for None."""
    if isinstance(limit, Deadline):
        return limit
    if limit is None:
        return Deadline.never()
    if not (math.isfinite(limit) and limit > 0):
        raise CodeError(f"deadline must be a positive number of seconds, got {limit}")
    return Deadline(limit)


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
    if pzprv3.is_url(text):
        where = f"URL {quote(text)}"
        written = _load_format(_parse(partial(pzprv3.file_of_url, text), where), text, where)
        if written is None:
            raise CodeError(f"{where}: its pzprv3 file is not one gridproof reads")
        return written
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
    where = f"file {quote_path(str(path))}"
    too_large = f"{where} is larger than {MAX_FILE_BYTES // 2**20} MB"
    if "\0" in str(path):  # no file name holds one (the OS would raise ValueError)
        raise CodeError(f"cannot read {where}: a file name cannot hold a NUL character")
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise CodeError(f"cannot read {where}: it is a folder")
        if not stat.S_ISREG(mode):  # a device or a pipe could never end
            raise CodeError(f"{where} is not a regular file")
        with path.open("rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)  # at most the limit, whatever stat says
    except OSError as error:
        raise CodeError(f"cannot read {where}: {error.strerror or error}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CodeError(too_large)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CodeError(f"{where} is not UTF-8 text (byte {error.start})") from None
    if not text.lstrip().startswith("{"):
        suffix = path.suffix.lower().removeprefix(".")
        written = _load_format(text, path.stem, where, suffix)
        if written is not None:
            return [written]
    return _load_document(text, path.stem, where)


def _load_format(text: str, ident: str, where: str, name: str = "") -> Loaded | None:
    """The puzzle of `text` in a genre's own format (one that sniffs it, or else the format
    called `name`, a file's suffix), or None when no genre's format claims it. A pzprv3
    file of a genre gridproof does not play is a `CodeError` naming it."""
    sniffed = ((g, f) for g in registry.each() for f in g.formats if f.sniff(text))
    claim = next(sniffed, None)  # genres past the first that sniffs it stay unimported
    if claim is None:
        named = ((g, f) for g in registry.each() for f in g.formats if f.name == name)
        claim = next(named, None)
    if claim is None:
        if pzprv3.is_file(text):
            theirs = quote(str(pzprv3.genre_of(text)))
            raise CodeError(
                f"{where}: a pzprv3 file for the puzz.link genre {theirs}; gridproof reads "
                f"those of {', '.join(registry.names())}"
            )
        return None
    genre, fmt = claim
    place = f"{where} ({fmt.name})"
    puzzle, solution = _parse(partial(fmt.parse, text), place)
    return Loaded(ident or f"{fmt.name} text", genre, puzzle, None, solution)


def parse_json(text: str, where: str) -> Any:
    """`text` as JSON, with every problem a one-line `CodeError` at `where`: invalid JSON,
    nesting too deep to walk, a number of more than `MAX_JSON_DIGITS` digits (no puzzle
    needs one, and Python cannot print those past 4,300), text that is no character at all
    (a lone surrogate escape such as \\ud800)."""
    _check_characters(text, where)
    try:
        doc = json.loads(text, parse_int=lambda digits: _json_int(digits, where))
    except json.JSONDecodeError as error:
        at = f"line {error.lineno}, column {error.colno}"
        raise CodeError(f"{where}: invalid JSON at {at}: {error.msg}") from None
    except RecursionError:
        raise CodeError(f"{where}: JSON nested too deeply") from None
    if _SURROGATE.search(text) and not _encodable(doc):
        raise CodeError(f"{where}: JSON text holds a lone surrogate escape (not a character)")
    return doc


def _check_characters(text: str, where: str) -> None:
    """`CodeError` for text holding a lone surrogate (no character: it cannot be printed,
    sent or stored), which a command line or a JSON string can smuggle in."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise CodeError(
            f"{where}: character {error.start + 1} is a lone surrogate (not a character)"
        ) from None


def _json_int(digits: str, where: str) -> int:
    if len(digits) > MAX_JSON_DIGITS + digits.startswith("-"):
        raise CodeError(f"{where}: a JSON number of {len(digits)} digits is too long for a puzzle")
    return int(digits)


def _encodable(value: object) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _load_document(text: str, stem: str, where: str) -> list[Loaded]:
    try:
        doc = parse_json(text, where)
    except CodeError:
        lines = _json_lines(text)
        if lines is None:
            raise
        # JSON Lines, an object a line: `generate --json --count N`, `bank export`
        return [
            _load_object(
                parse_json(line, f"{where} line {n}"), None, stem, f"{where} line {n}", None
            )
            for n, line in lines
        ]
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


def _json_lines(text: str) -> list[tuple[int, str]] | None:
    """The numbered lines of `text` when it has several and each is a JSON object on its
    own (JSON Lines), else None."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2 or not all(line[0] == "{" and line[-1] == "}" for _, line in lines):
        return None
    return lines


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
    made = obj.get("puzzle")
    if isinstance(made, dict) and isinstance(obj.get("code"), str):
        # a `generate --json` line: the puzzle under "puzzle", proven unique, its solution
        # as rows of text
        ident = obj["code"] if ident is None else ident
        obj = {**made, "expected": "unique", "solution": obj.get("solution")}
    elif made is None and isinstance(obj.get("code"), str):
        # a line of `bank export`: the board is its code (no corpus object has a "code")
        code = obj["code"]
        loaded = _load_code(code, code.split(".", 1)[0])
        if loaded.genre is not genre:
            raise CodeError(f"{place}: 'code' {quote(code)} is not a {genre.title} code")
        expected = obj.get("expected")
        if expected is not None and not isinstance(expected, str):
            raise CodeError(f"{place}: 'expected' must be a string, found {_json_type(expected)}")
        return replace(loaded, id=str(ident) if ident is not None else code, expected=expected)
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
        solution=None if solution is None else _solution_mask(solution, genre, puzzle, place),
    )


def _solution_mask(rows: object, genre: Genre[Any], puzzle: Any, place: str) -> int:
    """The mask of a corpus `solution`: `height` rows of `width` 0/1 values, or rows of
    text as the genre writes a grid (`generate --json`)."""
    width, height = puzzle.width, puzzle.height
    if isinstance(rows, list) and rows and all(isinstance(row, str) for row in rows):
        try:
            return genre.parse_grid(puzzle, rows)
        except CodeError as error:
            raise CodeError(f"{place}: 'solution': {_one_line(error)}") from None
    if not isinstance(rows, list) or len(rows) != height:
        raise CodeError(f"{place}: 'solution' must be {height} rows of {width} 0/1 values")
    shaded = []  # listed, then made a mask once: setting bit by bit is quadratic
    for r, row in enumerate(rows):
        if r % 64 == 0:
            check_reading(place)
        if not isinstance(row, list) or len(row) != width:
            raise CodeError(f"{place}: 'solution' row {r + 1} is not a list of {width} 0/1 values")
        for c, value in enumerate(row):
            if not isinstance(value, int) or value not in (0, 1):
                raise CodeError(f"{place}: 'solution' row {r + 1}, column {c + 1} is not 0 or 1")
            if value == 1:
                shaded.append(r * width + c)
    return mask_of(shaded)


def _genre(name: str, place: str) -> Genre[Any]:
    try:
        return registry.genre(name)
    except GridproofError as error:
        raise CodeError(f"{place}: {_one_line(error)}") from None


def _parse(parse: Callable[[], Any], place: str) -> Any:
    """`parse()`, with its `CodeError` (or JSON nested too deeply to walk) reported at
    `place`. A codec raises `CodeError` on every malformed input: anything else it raises
    is a bug, and surfaces as one."""
    try:
        return parse()
    except GridproofError as error:
        raise CodeError(f"{place}: {_one_line(error)}") from None
    except RecursionError:
        raise CodeError(f"{place}: nested too deeply") from None


def _one_line(error: GridproofError) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def quote_path(text: str, limit: int = 60) -> str:
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
