"""What a request to the API may hold, and what the server gives each kind of call.

The request bodies are pydantic models that refuse unknown keys (one message for all of
them); the budgets below are the deadlines each call runs under, from the first byte read.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from gridproof import service
from gridproof.core.errors import quote
from gridproof.service import play

MAX_SOURCE_CHARS = 100_000
MAX_SEEN = 4096
"""The most fingerprints a New game's `seen` may hold (the page keeps at most this many)."""
WEB_MAX_SIDE = 100
"""The largest side of a board the web plays, counts or edits: every solver call on it fits
its deadline and the memory of one request (the command line reads up to
`Genre.largest`; the web converts and validates those too)."""
MAX_DEADLINE_S = 10.0
MAX_LIMIT = 100
MAX_GRID_ROWS = 1000

# --- the budgets -------------------------------------------------------------------------

ANSWER_S = 5.0
"""The budget for counting a puzzle's solutions when the bank does not know them."""
HINT_S = 3.0
"""The budget for finding the next deduction."""
VERDICT_S = 4.0
"""The default budget of the workshop's live verdict (at most `MAX_DEADLINE_S`)."""
REPAIR_S = 8.0
UNIQUE_S = 20.0
MAX_REPAIR_S = 30.0
"""The workshop's suggestions and "Make unique" may take longer than a count."""
READ_S = 5.0
"""The deadline of reading a source to convert or validate it (a Pattern ID's prefilled
squares are checked by a count)."""
KILL_GRACE_S = 2.0
"""How long a generation worker may outlive its request's deadline before it is killed
(what a worker needs to notice an expired deadline, say so and end), in the background:
the request has had its 503 on time."""

_FINGERPRINT = re.compile(r"[0-9a-f]{8}")

Source = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_SOURCE_CHARS,
        description="a puzzle code, a puzz.link URL, a JSON puzzle, a Pattern game ID or "
        ".non text (no file paths); the largest boards read: "
        f"{service.largest_boards()}",
    ),
]
Rows = Annotated[
    list[Annotated[str, Field(max_length=MAX_GRID_ROWS)]],
    Field(min_length=1, max_length=MAX_GRID_ROWS),
]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        """One error for unknown keys, however many (pydantic would make one per key)."""
        if isinstance(data, dict):
            unknown = [key for key in data if key not in cls.model_fields]
            if unknown:
                more = f" and {len(unknown) - 1} more" if len(unknown) > 1 else ""
                known = ", ".join(cls.model_fields)
                raise ValueError(f"unknown key {quote(str(unknown[0]))}{more}; keys: {known}")
        return data


class CountRequest(_Body):
    source: Source
    limit: int = Field(2, ge=2, le=MAX_LIMIT, description="stop after this many solutions")
    deadline_s: float = Field(
        5.0, gt=0, allow_inf_nan=False, description=f"seconds; at most {MAX_DEADLINE_S:g}"
    )


class ConvertRequest(_Body):
    source: Source
    to: str = Field(
        min_length=1,
        max_length=40,
        description="code, url, json, or a format the genre lists (pzprv3, ...)",
    )


class ValidateRequest(_Body):
    source: Source
    grid: Rows = Field(description="rows of text, '#' shaded ('+' and '.' are not)")


class NewRequest(_Body):
    genre: str = Field(min_length=1, max_length=40, description="a genre name, see /api/catalog")
    size: str = Field(
        min_length=1, max_length=20, description="WIDTHxHEIGHT, like 5x5 (see /api/catalog)"
    )
    difficulty: str | None = Field(
        None, max_length=40, description="one of the genre's difficulties; default easy"
    )
    exclude: list[Annotated[str, Field(max_length=MAX_SOURCE_CHARS)]] = Field(
        default_factory=list,
        max_length=100,
        description="codes not to give (the puzzle being replaced by New game)",
    )
    seen: list[Any] = Field(
        default_factory=list,
        description=f"at most {MAX_SEEN} fingerprints (FNV-1a 32 of a code's UTF-8 bytes, 8 "
        "lower-case hex digits: gridproof.core.codes.fingerprint) of boards this player has "
        "seen: not served again while an unseen one can be had in time",
    )
    seed: int | None = Field(
        None, ge=0, lt=2**31, description="generate exactly this seed (skips the bank)"
    )
    options: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=40)]] = (
        Field(
            default_factory=dict,
            max_length=8,
            description="the genre's generator settings with choices (see /api/catalog); "
            "a board with other than the defaults is generated now, not taken from the bank",
        )
    )
    deadline_s: float = Field(
        30.0,
        gt=0,
        allow_inf_nan=False,
        description="seconds for generating when the bank has none (capped by the server)",
    )

    @field_validator("seen", mode="before")
    @classmethod
    def _fingerprints(cls, value: Any) -> Any:
        """Each entry 8 lower-case hex digits, at most `MAX_SEEN`: one message that quotes
        the first entry (or the count) that is wrong."""
        if not isinstance(value, list):
            return value  # pydantic says it is not a list
        if len(value) > MAX_SEEN:
            raise PydanticCustomError(
                "seen",
                "holds {n} entries, at most {most} are taken",
                {"n": len(value), "most": MAX_SEEN},
            )
        for index, entry in enumerate(value):
            if not (isinstance(entry, str) and _FINGERPRINT.fullmatch(entry)):
                shown = quote(entry[:40]) if isinstance(entry, str) else repr(entry)[:40]
                raise PydanticCustomError(
                    "seen",
                    "entry {index} {shown} is not a fingerprint: 8 lower-case hex digits, "
                    "like '811c9dc5'",
                    {"index": index, "shown": shown},
                )
        return value


class PlayRequest(_Body):
    code: Source
    marks: Rows = Field(description=play.MARKS_HELP)
    version: int = Field(0, ge=0, le=2**53, description="the client's state version, echoed back")
    reveal: bool = Field(False, description="also list the cells whose marks are wrong")
    recent: list[int] = Field(
        default_factory=list,
        max_length=64,
        description="the cells the player set last, most recent first (row * width + col): "
        "a hint picks, of the deductions open, the one nearest them",
    )


class WorkshopRequest(_Body):
    source: Source
    keep: Rows | None = Field(
        None, description="the solution the setter pins, as rows ('#' shaded; default: none)"
    )
    deadline_s: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description=f"seconds (verdict at most {MAX_DEADLINE_S:g}, the rest {MAX_REPAIR_S:g})",
    )
    limit: int = Field(6, ge=1, le=20, description="how many edits to list (repair)")
    version: int = Field(0, ge=0, le=2**53, description="the editor's board version, echoed")


class KeepRequest(_Body):
    source: Source
