"""The engine of the static site: what the page's Web Worker calls, JSON text in and JSON
text out, over the same service-layer calls the HTTP API makes (`gridproof serve`).

`Engine(read)` takes `read(path)`: the text of a file of the site (the bank's
`bank/index.json` and shards, see `gridproof.site.export`), or None when there is
none. In the browser that is a request the service worker answers from its cache; in tests,
a folder. `Engine.handle(method, body)` answers one call: `{"ok": result}` with what the
HTTP route of the same name returns, or `{"error": message, "status": n}` (400 for a bad
request or board, 503 when no board is proven in time), never a traceback; or `{"fetch":
path}` when `read` raised `Unread` (fetch it and call again).

A new game follows the server's policy (`service.games.new_game`): an unseen board from
the static bank first, else generated here with fresh seeds while the boards made are seen.
The site has no bank to write: a board made here or kept in the workshop is not stored.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gridproof import service
from gridproof.core import registry
from gridproof.core.codes import fingerprint, parse_size
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, GridproofError, quote
from gridproof.core.outcome import Verdict
from gridproof.service import games, play, settings, workshop
from gridproof.service.results import Board, Loaded
from gridproof.version import ENGINE_VERSION

Reader = Callable[[str], str | None]
"""`read(path)`: the text of the site's file at `path` (relative to the site), or None; or
raises `Unread` when the file must be fetched first (the browser fetches asynchronously)."""


class Unread(Exception):
    """The site's file `path` is needed and not fetched yet: fetch it, then call again
    (the engine's calls change nothing before their reads)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


INDEX = "bank/index.json"

# Each call's budget, in seconds: the server's (web/models.py), which the worker's single
# thread shares with nothing else.
ANSWER_S = 5.0
HINT_S = 3.0
VERDICT_S = 4.0
REPAIR_S = 8.0
UNIQUE_S = 20.0
MAX_S = 30.0
NEW_S = 30.0
"""A new game's deadline when none is asked (at most `MAX_S`): the server's
(`web.models.NewRequest`). The page runs about 1.85 times slower than CPython
(`benchmarks/site.py --newgame`: Norinori 30×30, 40 seeds a grade, 2026-12-04): at 20 s the
slowest hard seed of 40 (11.3 s CPU in CPython, 21.6 s in the page) failed."""
MAX_SEEN = 4096
KNOWN = 256
"""Sources read, and answers counted, remembered (a player sends one code per move)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A board of the static bank (one line of a shard, see `export`) or made here."""

    genre: str
    size: str
    fields: Mapping[str, Any]
    """The shard's object: code, difficulty, score, rating, generator, metrics,
    verification and solution_digest (never the solution)."""
    answer: play.Answer | None = None
    """A board made here: its counted answer (a banked one is counted when first asked)."""

    @property
    def code(self) -> str:
        return str(self.fields["code"])

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.code)


class Engine:
    """The calls of the page's engine interface (`js/api.js`), by name."""

    def __init__(self, read: Reader) -> None:
        self.read = read
        self._sources: OrderedDict[str, Loaded] = OrderedDict()
        self._answers = play.Answers(None, size=KNOWN)
        self._shards: dict[str, list[dict[str, Any]]] = {}
        self._index: dict[str, Any] | None = None
        self.calls: dict[str, Callable[[dict[str, Any]], Any]] = {
            "catalog": self.catalog,
            "puzzle": self.puzzle,
            "hint": self.hint,
            "check": self.check,
            "validate": self.validate,
            "boards": self.boards,
            "daily": self.daily,
            "convert": self.convert,
            "count": self.count,
            "verdict": self.verdict,
            "repair": self.repair,
            "unique": self.unique,
            "minimize": self.minimize,
            "keep": self.keep,
        }

    async def handle(self, method: str, body: str) -> str:
        """The JSON text of the answer to `method` with the JSON text `body`."""
        try:
            request = json.loads(body) if body else {}
            if not isinstance(request, dict):
                raise CodeError("the request must be a JSON object")
            if method == "new":
                result = await self.new(request)
            elif method in self.calls:
                result = self.calls[method](request)
            else:
                raise CodeError(f"the engine has no call {quote(method)}")
            return json.dumps({"ok": result})
        except Unread as unread:
            return json.dumps({"fetch": unread.path})
        except GenerationError as error:
            return json.dumps({"error": str(error), "status": 503})
        except (GridproofError, json.JSONDecodeError) as error:
            return json.dumps({"error": str(error).splitlines()[0], "status": 400})
        except (KeyError, TypeError, ValueError) as error:
            return json.dumps({"error": f"a malformed request: {error}", "status": 400})

    # --- files of the site ------------------------------------------------------------------

    def _json(self, path: str) -> Any:
        text = self.read(path)
        if text is None:
            return None
        return json.loads(text)

    def index(self) -> dict[str, Any]:
        """The static bank's index (an empty bank when the site has none)."""
        if self._index is None:
            found = self._json(INDEX)
            self._index = found if isinstance(found, dict) else {"keys": [], "daily": {}}
        return self._index

    def _key(self, genre: str, size: str, difficulty: str) -> dict[str, Any] | None:
        for key in self.index().get("keys", []):
            if (key["genre"], key["size"], key["difficulty"]) == (genre, size, difficulty):
                return dict(key)
        return None

    def _shard(self, path: str) -> list[dict[str, Any]]:
        if path not in self._shards:
            found = self._json(path)
            self._shards[path] = list(found) if isinstance(found, list) else []
        return self._shards[path]

    def _entries(self, key: Mapping[str, Any], offset: int, limit: int) -> list[Entry]:
        """The key's boards `offset` to `offset + limit`, in bank order."""
        per = int(self.index().get("per_shard", 1)) or 1
        out: list[Entry] = []
        at = offset
        while len(out) < limit and at < int(key["total"]):
            shard = self._shard(key["shards"][at // per])
            start = at % per
            taken = shard[start : start + limit - len(out)]
            if not taken:
                break
            out.extend(Entry(key["genre"], key["size"], fields) for fields in taken)
            at += len(taken)
        return out

    # --- reading sources and counting -------------------------------------------------------

    def _load(self, source: str, deadline: Deadline) -> Loaded:
        known = self._sources.get(source)
        if known is None:
            known = service.load(source, files=False, deadline=deadline)[0]
            self._sources[source] = known
            while len(self._sources) > KNOWN:
                self._sources.popitem(last=False)
        return known

    def _answer(self, genre: Genre[Any], puzzle: Any, deadline: Deadline) -> play.Answer:
        return self._answers.get(genre, puzzle, deadline)

    # --- the player ------------------------------------------------------------------------

    def catalog(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        return [offer.to_json() for offer in play.catalog()]

    def puzzle(self, request: dict[str, Any]) -> dict[str, Any]:
        deadline = Deadline(ANSWER_S)
        loaded = self._load(_text(request, "code"), deadline)
        genre, value = loaded.genre, loaded.puzzle
        code = genre.format_code(value)
        for entry in self._banked(genre.name, value):
            if entry.code == code:
                return self._view(entry, "bank")
        answer = self._answer(genre, value, deadline)
        return play.view(genre, value, "code", answer=answer).to_json()

    def _banked(self, genre: str, puzzle: Any) -> list[Entry]:
        """The boards of the puzzle's genre and size in the shards read so far (a board
        the player got from the bank, opened again, shows its grade; a static bank of
        millions is not searched for a shared link, whose board is counted instead)."""
        size = f"{puzzle.width}x{puzzle.height}"
        prefix = f"bank/{genre}/{size}/"
        return [
            Entry(genre, size, fields)
            for path, shard in self._shards.items()
            if path.startswith(prefix)
            for fields in shard
        ]

    def _view(self, entry: Entry, origin: str, repeat: bool | None = None) -> dict[str, Any]:
        genre = registry.genre(entry.genre)
        puzzle = genre.parse_code(entry.code)
        view = play.view(genre, puzzle, origin, answer=entry.answer).to_json()
        for name in ("difficulty", "score", "rating", "generator", "metrics", "verification"):
            view[name] = entry.fields.get(name)
        view["solution_digest"] = view["solution_digest"] or entry.fields.get("solution_digest")
        if repeat is not None:
            view["repeat"] = repeat
        return view

    def _marks(self, request: dict[str, Any]) -> tuple[Loaded, play.Marks, play.Answer]:
        deadline = Deadline(ANSWER_S)
        loaded = self._load(_text(request, "code"), deadline)
        puzzle = loaded.puzzle
        marks = play.parse_marks(puzzle, _rows(request, "marks"))
        return loaded, marks, self._answer(loaded.genre, puzzle, deadline)

    def hint(self, request: dict[str, Any]) -> dict[str, Any]:
        loaded, marks, answer = self._marks(request)
        cells = loaded.puzzle.width * loaded.puzzle.height
        recent = play.parse_recent(request.get("recent") or [], cells)
        reveal = bool(request.get("reveal", False))
        hinted = play.hint(
            loaded.genre, loaded.puzzle, marks, answer, Deadline(HINT_S), reveal, recent
        )
        return self._played(request, loaded, hinted.to_json())

    def check(self, request: dict[str, Any]) -> dict[str, Any]:
        loaded, marks, answer = self._marks(request)
        reveal = bool(request.get("reveal", False))
        checked = play.check(loaded.genre, loaded.puzzle, marks, answer, reveal)
        return self._played(request, loaded, checked.to_json())

    @staticmethod
    def _played(request: dict[str, Any], loaded: Loaded, result: dict[str, Any]) -> dict[str, Any]:
        code = loaded.genre.format_code(loaded.puzzle)
        return {"version": request.get("version"), "code": code, **result}

    def validate(self, request: dict[str, Any]) -> dict[str, Any]:
        item = self._load(_text(request, "source"), Deadline(ANSWER_S))
        return {"id": item.id, **service.judge(item, _rows(request, "grid")).to_json()}

    def convert(self, request: dict[str, Any]) -> dict[str, Any]:
        item = self._load(_text(request, "source"), Deadline(ANSWER_S))
        to = _text(request, "to")
        return {"id": item.id, "to": to, "result": service.convert(item, to)}

    def count(self, request: dict[str, Any]) -> dict[str, Any]:
        """The solutions of `source` counted to `limit` (2) within `deadline_s` (5 s; at
        most `MAX_S`), as `POST /api/count` answers."""
        seconds = min(float(request.get("deadline_s", 5.0)), MAX_S)
        deadline = Deadline(seconds)
        item = self._load(_text(request, "source"), deadline)
        return service.count(item, int(request.get("limit", 2)), deadline).to_json()

    def boards(self, request: dict[str, Any]) -> dict[str, Any]:
        genre = registry.genre(_text(request, "genre"))
        size, grade = _text(request, "size"), _text(request, "difficulty")
        offset, limit = int(request.get("offset", 0)), int(request.get("limit", 50))
        if offset < 0 or not 1 <= limit <= 200:
            raise CodeError("offset must be at least 0 and limit 1 to 200")
        key = self._key(genre.name, size, grade)
        if key is None:
            return {"total": 0, "offset": offset, "boards": []}
        listed = [
            {
                "code": entry.code,
                "genre": entry.genre,
                "size": entry.size,
                "difficulty": entry.fields.get("difficulty"),
                "score": entry.fields.get("score"),
                "rating": entry.fields.get("rating"),
            }
            for entry in self._entries(key, offset, limit)
        ]
        return {"total": key["total"], "offset": offset, "boards": listed}

    def daily(self, request: dict[str, Any]) -> dict[str, Any]:
        """One board per genre for today (UTC), chosen as the server chooses
        (`games.daily_place`) among the static bank's boards of the day's setting."""
        today = str(request.get("today") or time.strftime("%Y-%m-%d", time.gmtime()))
        chosen = []
        for name, setting in sorted(self.index().get("daily", {}).items()):
            key = self._key(name, setting["size"], setting["difficulty"])
            if key is None or not key["total"]:
                continue
            (entry,) = self._entries(key, games.daily_place(today, name, key["total"]), 1)
            chosen.append(games.Daily(name, entry.code, entry.size, key["difficulty"]))
        return {"date": today, "boards": [each.to_json() for each in chosen]}

    async def new(self, request: dict[str, Any]) -> dict[str, Any]:
        """A board the player has not seen (`games.new_game`): the static bank's first,
        else generated here."""
        genre = registry.genre(_text(request, "genre"))
        size = _text(request, "size")
        width, height = parse_size(size, "size")
        asked = request.get("options") or {}
        if not isinstance(asked, dict):
            raise CodeError("options must be an object of the genre's settings")
        options = settings.check_options(genre, asked)  # those at their default dropped
        grade = request.get("difficulty")
        if grade is None:
            grade = settings.default_difficulty(genre, width, height)
        seen = _strings(request, "seen", MAX_SEEN)
        exclude = _strings(request, "exclude", 100)
        seed = request.get("seed")
        if seed is not None and (not isinstance(seed, int) or not 0 <= seed < 2**31):
            raise CodeError(f"seed must be a whole number from 0 to 2^31 - 1, got {seed!r}")
        wanted = request.get("deadline_s", NEW_S)
        if not isinstance(wanted, int | float) or not wanted > 0:
            raise CodeError("deadline_s must be a positive number of seconds")
        deadline = Deadline(min(float(wanted), MAX_S))
        key = (genre.name, f"{width}x{height}", str(grade))

        async def pick(key: tuple[str, str, str], skip: set[str], hide: set[str]) -> Entry | None:
            banked = None if options else self._key(*key)
            if banked is None:
                return None
            for path in banked["shards"]:  # shard by shard: a key may hold millions
                found = _unseen(
                    [Entry(genre.name, banked["size"], f) for f in self._shard(path)], skip, hide
                )
                if found is not None:
                    return found
            return None

        async def make(attempt: int) -> Entry:
            return _made(
                service.generate(genre.name, width, height, attempt, grade, deadline, options)
            )

        served = await games.new_game(
            key, pick, make, deadline, exclude=exclude, seen=seen, seed=seed
        )
        if served.record.answer is not None:
            self._answers.remember(served.record.code, served.record.answer)
        return self._view(served.record, served.origin, repeat=served.repeat)

    # --- the workshop ----------------------------------------------------------------------

    def _workshop(self, request: dict[str, Any], seconds: float, work: Any) -> dict[str, Any]:
        asked = request.get("deadline_s")
        limit = seconds if asked is None else min(float(asked), MAX_S)
        deadline = Deadline(limit)
        loaded = self._load(_text(request, "source"), deadline)
        keep = workshop.parse_keep(loaded, request.get("keep"))
        result: dict[str, Any] = work(loaded, keep, deadline).to_json()
        return {"version": request.get("version"), **result}

    def verdict(self, request: dict[str, Any]) -> dict[str, Any]:
        return self._workshop(request, VERDICT_S, workshop.examine)

    def repair(self, request: dict[str, Any]) -> dict[str, Any]:
        limit = int(request.get("limit", 6))

        def run(loaded: Loaded, keep: int | None, deadline: Deadline) -> workshop.Repairs:
            return workshop.suggest(loaded, keep, deadline, limit)

        return self._workshop(request, REPAIR_S, run)

    def unique(self, request: dict[str, Any]) -> dict[str, Any]:
        return self._workshop(request, UNIQUE_S, workshop.make_unique)

    def minimize(self, request: dict[str, Any]) -> dict[str, Any]:
        return self._workshop(request, REPAIR_S, workshop.minimize)

    def keep(self, request: dict[str, Any]) -> dict[str, Any]:
        """Publishing in the site: the board proven unique, its grade, and its share link
        to give (a static site has no bank to keep it in)."""
        deadline = Deadline(MAX_S)
        loaded = self._load(_text(request, "source"), deadline)
        report = workshop.examine(loaded, None, deadline)
        if report.outcome is not Verdict.UNIQUE:
            said = report.to_json().get("text", str(report.outcome))
            raise CodeError(f"only a unique board can be published: {said}")
        genre, puzzle = loaded.genre, loaded.puzzle
        grade, score = str(report.grade), float(report.score or 0)
        return {
            "code": genre.format_code(puzzle),
            "stored": False,
            "outcome": str(report.outcome),
            "grade": grade,
            "score": score,
            "rating": genre.rating(grade, score, puzzle.width, puzzle.height),
            "provenance": "made by hand",
            "text": f"Unique ({grade}, score {score:g}). This site keeps no bank: "
            "give its share link.",
        }


def _made(board: Board) -> Entry:
    """A board generated here, as the static bank's entries read."""
    genre, puzzle = board.genre, board.puzzle
    answer = play.Answer(
        Verdict.UNIQUE, board.solution, 0, board.health.milliseconds / 1000, ENGINE_VERSION
    )
    fields = {
        "code": board.code,
        "difficulty": board.difficulty,
        "score": board.score,
        "rating": genre.rating(board.difficulty, board.score, puzzle.width, puzzle.height),
        "generator": genre.generator,
        "metrics": dict(board.metrics),
        "verification": {**answer.verification(), "checks": ["generator"]},
    }
    return Entry(genre.name, f"{puzzle.width}x{puzzle.height}", fields, answer)


def _unseen(entries: Sequence[Entry], exclude: set[str], seen: set[str]) -> Entry | None:
    """The first board not excluded nor seen (the site keeps no count of boards served:
    each player's `seen` is what moves them on)."""
    for entry in entries:
        if not games.is_seen(entry, exclude, seen):
            return entry
    return None


def _text(request: dict[str, Any], name: str) -> str:
    value = request.get(name)
    if not isinstance(value, str) or not value:
        raise CodeError(f"{name} must be a non-empty string")
    return value


def _rows(request: dict[str, Any], name: str) -> list[str]:
    value = request.get(name)
    if not isinstance(value, list) or not all(isinstance(row, str) for row in value):
        raise CodeError(f"{name} must be a list of rows (strings)")
    return value


def _strings(request: dict[str, Any], name: str, most: int) -> set[str]:
    value = request.get(name) or []
    if not isinstance(value, list) or not all(isinstance(each, str) for each in value):
        raise CodeError(f"{name} must be a list of strings")
    if len(value) > most:
        raise CodeError(f"{name} has {len(value)} entries, at most {most}")
    return set(value)
