"""Deadlines passed into every solver call: the only clock the core reads, and the only
counter of work that decisions may depend on.

A `Deadline` bounds two things. The wall clock bounds how long a caller waits: running
out of time means "give up and say so", never "decide otherwise". The optional work
budget, counted in the solver's own operations (line solves, closes, propagations), is
what a generator may decide by: the same board and budget spend the same work on every
machine at every load, so a decision taken on `out_of_work()` is reproducible.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class Deadline:
    """A point in monotonic time, an optional work budget, and a cancel switch.

    `expired()` is cheap enough to call inside search loops and is true once any of them
    runs out, here or in a parent. `charge(work)` counts solver operations against this
    deadline and every parent. A cancelled deadline (or a child of one) is expired at once,
    so a count abandoned by its caller returns promptly.
    """

    __slots__ = ("_cancelled", "_end", "_limit", "_parent", "_start", "notes", "used")

    def __init__(
        self,
        seconds: float | None = None,
        *,
        work: int | None = None,
        parent: Deadline | None = None,
    ) -> None:
        self._start = time.monotonic()
        own = math.inf if seconds is None else self._start + max(0.0, seconds)
        self._end: float = own if parent is None else min(own, parent._end)
        """The earliest end here or in a parent (theirs never move)."""
        self._limit: float = math.inf if work is None else max(0, work)
        self._cancelled = False
        self._parent = parent
        self.used = 0
        """Work charged to this deadline (and its children) so far."""
        self.notes: list[str] = []
        """What the work under this deadline gave up on, in words (see `note`)."""

    @classmethod
    def never(cls) -> Deadline:
        return cls(None)

    def within(self, seconds: float | None = None, *, work: int | None = None) -> Deadline:
        """A child deadline `seconds` from now with its own work budget, that also expires
        (or is cancelled, or runs out of work) with this one: a budget for one part of a
        larger job. Work charged to the child counts here too."""
        return Deadline(seconds, work=work, parent=self)

    def charge(self, work: int) -> None:
        """Count `work` solver operations against this deadline and its parents."""
        deadline: Deadline | None = self
        while deadline is not None:
            deadline.used += work
            deadline = deadline._parent

    def note(self, text: str) -> None:
        """Record, here and in every parent, that some work was skipped rather than done
        (a rule that would cost more than any deadline allows says so, never silently)."""
        deadline: Deadline | None = self
        while deadline is not None:
            if text not in deadline.notes:
                deadline.notes.append(text)
            deadline = deadline._parent

    def expired(self) -> bool:
        if time.monotonic() >= self._end:  # the clock is read once for the whole chain
            return True
        deadline: Deadline | None = self
        while deadline is not None:
            if deadline._cancelled or deadline.used >= deadline._limit:
                return True
            deadline = deadline._parent
        return False

    def out_of_work(self) -> bool:
        """Whether a work budget here or in a parent is spent (a reproducible reason to stop)."""
        if self.used >= self._limit:
            return True
        return self._parent is not None and self._parent.out_of_work()

    def cancel(self) -> None:
        self._cancelled = True

    def elapsed(self) -> float:
        """Seconds since this deadline was made."""
        return time.monotonic() - self._start

    def remaining(self) -> float:
        """Seconds left on the clock (0 once cancelled, here or in a parent)."""
        if self._cancelled:
            return 0.0
        own = max(0.0, self._end - time.monotonic())  # the earliest end of the chain
        return own if self._parent is None else min(own, self._parent.remaining())

    def work_left(self) -> float:
        """Work left in the tightest budget here or in a parent (inf without one)."""
        own = max(0.0, self._limit - self.used)
        return own if self._parent is None else min(own, self._parent.work_left())


_PARSING: ContextVar[Deadline | None] = ContextVar("gridproof_parsing_deadline", default=None)


@contextmanager
def parsing_within(deadline: Deadline | None) -> Iterator[None]:
    """Parsers called inside this block (in this thread or task) work under `deadline`:
    the one parse that runs a solver (a Pattern ID's prefilled squares) reads it through
    `parsing_deadline`, so a request's deadline holds from its first byte without every
    parser's signature carrying one."""
    token = _PARSING.set(deadline)
    try:
        yield
    finally:
        _PARSING.reset(token)


def parsing_deadline() -> Deadline:
    """The deadline set by the innermost `parsing_within` here (never, outside one)."""
    return _PARSING.get() or Deadline.never()


def check_reading(where: str) -> None:
    """`CodeError` when the deadline of an enclosing `parsing_within` has passed: a parser
    reading a large grid row by row calls this between rows, so that reading, too, ends
    at the caller's deadline."""
    if _PARSING.get() is not None and parsing_deadline().expired():
        from gridproof.core.errors import CodeError

        raise CodeError(f"{where}: the deadline passed while it was being read")
