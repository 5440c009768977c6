"""The registry of genres. Genres register themselves when their package is imported;
`gridproof.genres` only declares the built-in ones (each folder of it is a genre of that
name), so a genre's code is imported the first time it is asked for: `import gridproof`
and a command about one genre stay light. Core never imports a genre by name."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from gridproof.core.errors import CodeError, quote

if TYPE_CHECKING:  # `import gridproof` declares the genres without loading the contract
    from gridproof.core.contract import Genre
    from gridproof.core.grid import Sized as Puzzle

P = TypeVar("P", bound="Puzzle")
_GENRES: dict[str, Genre[Any]] = {}
_DECLARED: dict[str, str] = {}
"""Genres not imported yet: name -> the module whose import registers it."""


def register(genre: Genre[P]) -> Genre[P]:
    """Add `genre` under its name; a name registered twice is a programming error."""
    if genre.name in _GENRES:
        raise ValueError(f"genre {genre.name!r} is registered twice")
    _GENRES[genre.name] = genre
    _DECLARED.pop(genre.name, None)
    return genre


def declare(name: str, module: str) -> None:
    """Say that importing `module` registers the genre `name`, without importing it yet."""
    if name not in _GENRES:
        _DECLARED[name] = module


def unregister(name: str) -> None:
    """Remove a genre (for tests that register a genre of their own)."""
    _GENRES.pop(name, None)
    _DECLARED.pop(name, None)


def names() -> tuple[str, ...]:
    """The name of every genre, registered or declared, in name order (imports none)."""
    return tuple(sorted(_GENRES.keys() | _DECLARED.keys()))


def genres() -> dict[str, Genre[Any]]:
    """Every genre by name (importing those only declared so far)."""
    for name in list(_DECLARED):
        _load(name)
    return dict(_GENRES)


def each() -> Iterator[Genre[Any]]:
    """Every genre in name order, each imported only when the loop reaches it, so a caller
    that stops at the first genre it wants imports no more than it needs."""
    for name in names():
        yield genre(name)


def genre(name: str) -> Genre[Any]:
    """The genre called `name`; `CodeError` naming the known ones otherwise."""
    if name not in _GENRES and name in _DECLARED:
        _load(name)
    if name not in _GENRES:
        raise CodeError(f"unknown genre {quote(name)}; known: {', '.join(names())}")
    return _GENRES[name]


def known(name: str) -> bool:
    """Whether `name` is a genre's name (imports none)."""
    return name in _GENRES or name in _DECLARED


def _load(name: str) -> None:
    module = _DECLARED[name]
    importlib.import_module(module)
    if name not in _GENRES:
        raise RuntimeError(f"{module} was declared to register the genre {name!r} but did not")
