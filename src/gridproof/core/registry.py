"""The registry of genres. Genres register themselves (`gridproof.genres` registers the
built-in ones when `gridproof` is imported); core never imports a genre."""

from __future__ import annotations

from typing import Any, TypeVar

from gridproof.core.contract import Genre
from gridproof.core.errors import CodeError, quote
from gridproof.core.grid import Sized as Puzzle

P = TypeVar("P", bound=Puzzle)
_GENRES: dict[str, Genre[Any]] = {}


def register(genre: Genre[P]) -> Genre[P]:
    """Add `genre` under its name; a name registered twice is a programming error."""
    if genre.name in _GENRES:
        raise ValueError(f"genre {genre.name!r} is registered twice")
    _GENRES[genre.name] = genre
    return genre


def unregister(name: str) -> None:
    """Remove a genre (for tests that register a genre of their own)."""
    _GENRES.pop(name, None)


def genres() -> dict[str, Genre[Any]]:
    """Every registered genre by name."""
    return dict(_GENRES)


def genre(name: str) -> Genre[Any]:
    """The genre called `name`; `CodeError` naming the known ones otherwise."""
    if name not in _GENRES:
        known = ", ".join(sorted(_GENRES))
        raise CodeError(f"unknown genre {quote(name)}; known: {known}")
    return _GENRES[name]
