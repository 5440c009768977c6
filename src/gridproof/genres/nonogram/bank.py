"""The verified fallback bank: boards this project's own generator made, each proven unique
by `tests/genres/nonogram/test_bank.py` (the engine, and the SAT oracle, count each to 2).

The generator returns one of these, under a seed-chosen symmetry, only when its deadline
runs out, and says so with the entry's id in `health.fallback`. Ids are stable: an entry is
never changed in place, only added (or retired with its id left unused).
"""

from __future__ import annotations

from dataclasses import dataclass

from gridproof.genres.nonogram.codec import parse_code
from gridproof.genres.nonogram.model import Nonogram

RECOUNT_SECONDS = 5.0
"""The budget for counting a bank board again before returning it (they take milliseconds)."""


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    difficulty: str
    code: str
    seed: int
    """The `generate` seed that first produced the board (size and difficulty as in `id`)."""


ENTRIES: tuple[Entry, ...] = ()


def puzzle(entry: Entry) -> Nonogram:
    return parse_code(entry.code)


def find(width: int, height: int, difficulty: str | None) -> Entry | None:
    """The first entry of size width × height (or height × width) and of `difficulty` if
    one is asked for."""
    for entry in ENTRIES:
        size = entry.id.split("-")[2]
        w, h = (int(part) for part in size.split("x"))
        if {(w, h), (h, w)} & {(width, height)} and difficulty in (None, entry.difficulty):
            return entry
    return None
