"""Deadlines passed into every solver call; the only clock the core reads."""

from __future__ import annotations

import math
import time


class Deadline:
    """A point in monotonic time after which work must stop, plus a cancel switch.

    `expired()` is cheap enough to call inside search loops. A cancelled deadline is
    expired at once, so a count abandoned by its caller returns promptly.
    """

    __slots__ = ("_cancelled", "_end", "_start")

    def __init__(self, seconds: float | None = None) -> None:
        self._start = time.monotonic()
        self._end = math.inf if seconds is None else self._start + max(0.0, seconds)
        self._cancelled = False

    @classmethod
    def never(cls) -> Deadline:
        return cls(None)

    def expired(self) -> bool:
        return self._cancelled or time.monotonic() >= self._end

    def cancel(self) -> None:
        self._cancelled = True

    def elapsed(self) -> float:
        """Seconds since this deadline was made."""
        return time.monotonic() - self._start

    def remaining(self) -> float:
        return 0.0 if self._cancelled else max(0.0, self._end - time.monotonic())
