"""The one exception tree: everything a user can get wrong is a `GridproofError`."""

from __future__ import annotations

from typing import Any


class GridproofError(ValueError):
    """Root of every error gridproof raises on purpose; the web maps it to 400, the CLI to 2."""


class CodeError(GridproofError):
    """Input that cannot be parsed; the message quotes the input and says where."""


class GenerationError(GridproofError):
    """A generator could not prove a board within its budget; `health` says why."""

    def __init__(self, message: str, health: dict[str, Any]) -> None:
        super().__init__(message)
        self.health = health


def quote(text: str, limit: int = 40) -> str:
    """`text` in quotes, shortened to `limit` characters, for error messages."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(shown)
