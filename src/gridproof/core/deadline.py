"""Deadlines passed into every solver call; the only clock the core reads."""

from __future__ import annotations

import math
import time


class Deadline:
    """A point in monotonic time after which work must stop, plus a cancel switch.

    `expired()` is cheap enough to call inside search loops. A cancelled deadline is
    expired at once, so a count abandoned by its caller returns promptly.
    """

    __slots__ = ("_cancelled", "_end", "_parent", "_start")

    def __init__(self, seconds: float | None = None, parent: Deadline | None = None) -> None:
        self._start = time.monotonic()
        self._end = math.inf if seconds is None else self._start + max(0.0, seconds)
        self._cancelled = False
        self._parent = parent

    @classmethod
    def never(cls) -> Deadline:
        return cls(None)

    def within(self, seconds: float | None) -> Deadline:
        """A deadline `seconds` from now that also expires (or is cancelled) with this one:
        a budget for one part of a larger job."""
        return Deadline(seconds, parent=self)

    def expired(self) -> bool:
        if self._cancelled or time.monotonic() >= self._end:
            return True
        return self._parent is not None and self._parent.expired()

    def cancel(self) -> None:
        self._cancelled = True

    def elapsed(self) -> float:
        """Seconds since this deadline was made."""
        return time.monotonic() - self._start

    def remaining(self) -> float:
        if self._cancelled:
            return 0.0
        own = max(0.0, self._end - time.monotonic())
        return own if self._parent is None else min(own, self._parent.remaining())
