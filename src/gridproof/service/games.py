"""Which board a player gets: a new game that the player has not seen, and the puzzle of
the day. The web serves both; the command line shows the day's (`gridproof bank daily`).

A new game comes from the bank when it holds an unseen board (never-served first), else is
generated with up to `NEW_ATTEMPTS` fresh seeds while the boards made are seen, within one
deadline; only when nothing unseen can be had in time is a seen board served, and said to be
a `repeat`. How the bank is read and where a board is generated (a worker process, the
caller's own thread) is the caller's: `new_game` takes both as calls.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from gridproof.core import registry
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.ladder import Grade
from gridproof.service.settings import default_difficulty

if TYPE_CHECKING:
    from gridproof.bank import Bank
    from gridproof.core.contract import Genre

NEW_ATTEMPTS = 3
"""Seeds a New game tries at most, within its deadline, for a board the player has not
seen (a fresh random seed each, also after a seed that gave no board in time)."""

DAILY = ((10, 10), Grade.MEDIUM)
"""The puzzle of the day: a board of this size and grade per genre (the genre's default
grade at that size where it does not offer this one)."""


class Named(Protocol):
    """A board as the new-game policy sees it: its code and fingerprint (a bank `Record`;
    the static site's shard entry)."""

    @property
    def code(self) -> str: ...

    @property
    def fingerprint(self) -> str: ...


B = TypeVar("B", bound=Named)
K = TypeVar("K")


@dataclass(frozen=True)
class Served(Generic[B]):
    """A board chosen for a player: from the `bank` or `generated` now, and whether it is a
    `repeat` (one the player had seen: nothing unseen could be had in time)."""

    record: B
    origin: str
    repeat: bool


Pick = Callable[[K, set[str], set[str]], Awaitable[B | None]]
"""`pick(key, exclude, seen)`: a bank board whose code is not in `exclude` and whose
fingerprint is not in `seen`, the least served first (and counted served); None if none.
The server's bank is SQLite; the static site's is its shard files."""
Make = Callable[[int], Awaitable[B]]
"""`make(seed)`: the board of the key and `seed`, kept in the bank; raises
`GenerationError` (or `failures`) when none is proven in time."""


def is_seen(record: Named, exclude: set[str], seen: set[str]) -> bool:
    """Whether the player has the board already: its code excluded or its fingerprint seen."""
    return record.code in exclude or record.fingerprint in seen


async def new_game(
    key: K,
    pick: Pick[K, B],
    make: Make[B],
    deadline: Deadline,
    *,
    exclude: set[str],
    seen: set[str],
    seed: int | None = None,
    failures: tuple[type[Exception], ...] = (),
) -> Served[B]:
    """The board a New game serves for `key` (see the module). With `seed`, exactly that
    seed's board, generated. Raises the last generation failure when no board at all could
    be had in time."""
    if seed is None:
        record = await pick(key, exclude, seen)
        if record is not None:
            return Served(record, "bank", repeat=False)
    catch: tuple[type[Exception], ...] = (GenerationError, *failures)
    made: B | None = None
    failure: Exception | None = None
    for _ in range(1 if seed is not None else NEW_ATTEMPTS):
        attempt = seed if seed is not None else secrets.randbelow(2**31 - 1) + 1
        try:
            made = await make(attempt)
        except catch as error:
            failure = error
            if deadline.remaining() <= 0:
                break
            continue
        if seed is not None or not is_seen(made, exclude, seen):
            return Served(made, "generated", repeat=False)
        if deadline.remaining() <= 0:
            break
    # nothing unseen in time: a board the player has seen, the bank's least served first
    record = await pick(key, exclude, set())
    if record is not None:
        return Served(record, "bank", repeat=True)
    if made is not None:
        return Served(made, "generated", repeat=True)
    assert failure is not None
    raise failure


@dataclass(frozen=True)
class Daily:
    """One genre's puzzle of the day."""

    genre: str
    code: str
    size: str
    difficulty: str

    def to_json(self) -> dict[str, Any]:
        return {
            "genre": self.genre,
            "code": self.code,
            "size": self.size,
            "difficulty": self.difficulty,
        }


def daily(
    store: Bank, today: str, setting: tuple[tuple[int, int], str] | None = None
) -> list[Daily]:
    """One board per genre for the date `today` (`YYYY-MM-DD`), the same for everyone all
    day: chosen among the bank's boards of `setting` (default `DAILY`) by a hash of the
    date and the genre. Genres with no board banked there are left out."""
    chosen = []
    for name, genre in sorted(registry.genres().items()):
        width, height, grade = daily_setting(genre, setting)
        total, _ = store.listed(name, width, height, grade, 0, 1)
        if not total:
            continue
        _, (record,) = store.listed(name, width, height, grade, daily_place(today, name, total), 1)
        chosen.append(Daily(name, record.code, record.key.size, grade))
    return chosen


def daily_setting(
    genre: Genre[Any], setting: tuple[tuple[int, int], str] | None = None
) -> tuple[int, int, str]:
    """The width, height and grade `genre`'s puzzle of the day is chosen from: `setting`
    (default `DAILY`), the genre's default grade at that size where it does not offer it."""
    (width, height), grade = setting or DAILY
    if grade not in genre.offered(width, height):
        grade = default_difficulty(genre, width, height)
    return width, height, grade


def daily_place(today: str, genre: str, total: int) -> int:
    """Which of the `total` boards of the day's setting is `genre`'s board on `today`: a
    hash of the date and the genre (the server's bank and the static site's shards both
    list the boards in the order they were banked, so both serve the same board)."""
    digest = hashlib.blake2b(f"{today}/{genre}".encode(), digest_size=8).digest()
    return int.from_bytes(digest) % total
