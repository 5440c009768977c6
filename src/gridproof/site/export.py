"""A bank as static files the site's engine reads (`gridproof bank export --format site`):
`bank/<genre>/<size>/<grade>/<n>.json`, each a JSON list of at most `PER_SHARD` boards in
the order they were banked, and `bank/index.json` naming every shard with its key and count
and the puzzle of the day's setting per genre. A bank filled on a cluster becomes files any
static host or CDN serves.

A shard's board is what the player's view of a banked board shows: code, grade, score,
rating, generator, metrics, the counted evidence and the solution's digest (the page knows
the board solved when its shading matches); never the seed nor the solution.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridproof import bank
from gridproof.core import registry
from gridproof.service import games, play
from gridproof.version import ENGINE_VERSION

PER_SHARD = 500
"""Boards per shard file: about 100 KB of JSON at 15x15 (20 KB gzip)."""
INDEX_VERSION = 1


@dataclass(frozen=True)
class Written:
    """What an export wrote: boards, shard files and keys."""

    boards: int
    shards: int
    keys: int


def entry(record: bank.Record) -> dict[str, Any]:
    """A banked board as a shard holds it."""
    digest = None
    if record.verdict == "unique":
        digest = play.solution_digest(record.code, record.width, record.height, record.solution)
    return {
        "code": record.code,
        "difficulty": record.difficulty,
        "score": record.score,
        "rating": record.rating,
        "generator": record.generator,
        "metrics": dict(record.metrics),
        "verification": record.verification(),
        "solution_digest": digest,
    }


def export(store: bank.Bank, out: Path, genre: str | None = None) -> Written:
    """Write the shards and the index of every key `store` serves (of `genre`, if given)
    under `out` (made if missing; an older export's `bank/` there is replaced)."""
    if genre is not None:
        registry.genre(genre)
    root = out / "bank"
    if root.exists():
        for old in sorted(root.rglob("*.json"), reverse=True):
            old.unlink()
    keys = sorted(
        (
            key
            for key in store.counts()
            if not key.options and (genre is None or key.genre == genre)
        ),
        key=lambda k: (k.genre, k.width * k.height, k.width, k.difficulty),
    )
    listed: list[dict[str, Any]] = []
    boards = shards = 0
    for key in keys:
        names = list(_write_key(root, key, store.each(key)))
        total = sum(count for _, count in names)
        if not total:
            continue
        listed.append(
            {
                "genre": key.genre,
                "size": key.size,
                "difficulty": key.difficulty,
                "total": total,
                "shards": [name for name, _ in names],
            }
        )
        boards += total
        shards += len(names)
    index = {
        "version": INDEX_VERSION,
        "engine": ENGINE_VERSION,
        "per_shard": PER_SHARD,
        "keys": listed,
        "daily": daily_settings(),
    }
    root.mkdir(parents=True, exist_ok=True)
    (root / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return Written(boards, shards, len(listed))


def daily_settings() -> dict[str, dict[str, str]]:
    """Per genre, the size and grade the day's puzzle is chosen from (`games.DAILY`, the
    genre's default grade at that size where it does not offer that one)."""
    settings = {}
    for name, genre in sorted(registry.genres().items()):
        width, height, grade = games.daily_setting(genre)
        settings[name] = {"size": f"{width}x{height}", "difficulty": grade}
    return settings


def _write_key(
    root: Path, key: bank.Key, records: Iterable[bank.Record]
) -> Iterable[tuple[str, int]]:
    """The shards of one key written, as (path relative to the site, boards in it)."""
    folder = root / key.genre / key.size / key.difficulty
    chunk: list[dict[str, Any]] = []
    number = 0

    def flush() -> tuple[str, int]:
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{number}.json"
        (folder / name).write_text(json.dumps(chunk, separators=(",", ":")), encoding="utf-8")
        return f"bank/{key.genre}/{key.size}/{key.difficulty}/{name}", len(chunk)

    for record in records:
        chunk.append(entry(record))
        if len(chunk) == PER_SHARD:
            yield flush()
            number, chunk = number + 1, []
    if chunk:
        yield flush()
