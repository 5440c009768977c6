"""The puzzles of the sources the web read lately, each read once per process.

A player's hints and checks send the same puzzle code again and again (one per move);
reading a 15x15 code (its regions, then its canonical code) cost more than the hint
itself: 1.1 of 1.6 ms of CPU. A successful read depends on the source alone (a Pattern
ID's prefilled squares, checked by a count, are cached only once that count finished in
time), so what it gave is kept, with the puzzle's canonical code: the `SIZE` sources read
last, each at most `MAX_CHARS` long (a 100x100 board's code is about 4,000).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from gridproof import service
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.service.results import Loaded
from gridproof.web.models import WEB_MAX_SIDE

SIZE = 256
MAX_CHARS = 16_384


@dataclass(frozen=True, slots=True)
class Read:
    item: Loaded
    code: str
    """The canonical code of `item.puzzle` (`genre.format_code`)."""


class Reads:
    """An LRU of `Read`s by source text, shared by the server's threads."""

    def __init__(self, size: int = SIZE, max_chars: int = MAX_CHARS) -> None:
        self.size = size
        self.max_chars = max_chars
        self._known: OrderedDict[str, Read] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, source: str, read: Callable[[str], Loaded]) -> Read:
        """The read of `source`, from here or by `read(source)` (whose errors propagate:
        nothing is kept of a read that failed or ran out of time)."""
        with self._lock:
            known = self._known.get(source)
            if known is not None:
                self._known.move_to_end(source)
                return known
        item = read(source)
        made = Read(item, item.genre.format_code(item.puzzle))
        if len(source) <= self.max_chars:
            with self._lock:
                self._known[source] = made
                while len(self._known) > self.size:
                    self._known.popitem(last=False)
        return made

    def __len__(self) -> int:
        return len(self._known)


READS = Reads()
"""The sources this process read lately (a player sends one code with every move)."""


def first(source: str, deadline: Deadline, *, solving: bool = True) -> service.Loaded:
    """The first puzzle of `source`, read under `deadline` (in a worker thread, never on
    the event loop: a Pattern ID's prefilled squares are checked by a count); for a solver
    call, refused when it is larger than the web solves (converting and validating read
    every size the parsers do)."""
    return read(source, deadline, solving=solving).item


def read(source: str, deadline: Deadline, *, solving: bool = True) -> Read:
    """`first`'s puzzle with its canonical code, read once per process (`reads`)."""
    read = READS.get(source, lambda text: service.load(text, files=False, deadline=deadline)[0])
    width, height = read.item.puzzle.width, read.item.puzzle.height
    if solving and max(width, height) > WEB_MAX_SIDE:
        raise CodeError(
            f"a {width}x{height} board is larger than the web serves "
            f"({WEB_MAX_SIDE}x{WEB_MAX_SIDE}); the command line reads boards up to "
            f"{service.largest_boards()}"
        )
    return read
