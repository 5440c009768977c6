"""One progress line on standard error for the long runs (a corpus count, `generate
--count`, `study`, `bank fill`): a bar, done of total, the rate and the time left.

It is drawn only when standard error is a terminal (never when piped or in CI), redrawn
in place with a carriage return at most every `EVERY` seconds, and erased when the run
ends, fails or is interrupted (`with Progress(...)`). While a bar is shown, every result
line printed on standard output, when that is a terminal too, erases it first and redraws
it after (`pause`), so the two never mix on one screen and results still stream as they
come; results going to a file or a pipe leave the bar alone.

Written here rather than taken from a progress-bar library: `pip install gridproof`
brings one small dependency (platformdirs), and one line of text needs no other.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import TextIO

EVERY = 0.2
"""Seconds between two redraws: a few a second, so the line costs nothing."""
BAR = 20
"""Characters of the bar itself."""
_ERASE = "\r\x1b[K"

_shown: list[Progress] = []
"""The bars on screen now (innermost last): what `pause` erases around a result line."""


class Progress:
    """`done` of `total` `unit` on `stream`, with the rate since the first update and the
    time left at that rate; silent unless `stream` is a terminal (or `enabled`)."""

    def __init__(
        self,
        total: int,
        unit: str,
        stream: TextIO | None = None,
        *,
        every: float = EVERY,
        enabled: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.total = total
        self.unit = unit
        self.every = every
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.clock = clock
        self.done = 0
        self.note = ""
        self._start: tuple[float, int] | None = None
        self._last = -math.inf
        self._drawn = False

    def __enter__(self) -> Progress:
        _shown.append(self)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def update(self, done: int, total: int | None = None, note: str = "") -> None:
        """Record `done` (and a new `total`, a short `note`); redraw if it is time."""
        now = self.clock()
        if self._start is None:
            self._start = (now, done)
        self.done, self.note = done, note
        if total is not None:
            self.total = total
        if self.enabled and (now - self._last >= self.every or done >= self.total):
            self._last = now
            self._draw()

    def advance(self, steps: int = 1, note: str = "") -> None:
        """`steps` more done."""
        self.update(self.done + steps, note=note)

    def line(self) -> str:
        """The text of the line: bar, done/total unit, rate, time left, note."""
        total = max(self.total, 1)
        filled = min(BAR, BAR * self.done // total)
        bar = "[" + "#" * filled + "." * (BAR - filled) + "]"
        per_second = self.rate()
        left = self.total - self.done
        eta = _duration(left / per_second) if per_second > 0 else "?"
        note = f"  {self.note}" if self.note else ""
        return (
            f"{bar} {self.done}/{self.total} {self.unit}  {_rate(per_second, self.unit)}  "
            f"{eta} left{note}"
        )

    def rate(self) -> float:
        """Units per second since the first update (0 before any second one)."""
        if self._start is None:
            return 0.0
        began, first = self._start
        seconds = self.clock() - began
        return (self.done - first) / seconds if seconds > 0 else 0.0

    def erase(self) -> None:
        """Take the line off the screen (it comes back on the next redraw)."""
        if self._drawn:
            self._write(_ERASE)
            self._drawn = False

    def redraw(self) -> None:
        if self.enabled and self._start is not None:
            self._draw()

    def close(self) -> None:
        """Erase the line for good."""
        self.erase()
        self.enabled = False
        if self in _shown:
            _shown.remove(self)

    def _draw(self) -> None:
        width = _columns(self.stream) - 1
        self._write("\r" + self.line()[:width] + "\x1b[K")
        self._drawn = True

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = self._drawn = False  # the terminal went away: stop drawing


@contextlib.contextmanager
def pause(stream: TextIO | None = None) -> Iterator[None]:
    """Erase any bar on screen while a line is printed on `stream`, then draw it again;
    nothing when `stream` is not a terminal (results written to a file or a pipe do not
    share the bar's screen, so it is left alone). None: the bar's own stream."""
    if stream is not None and not _is_terminal(stream):
        yield
        return
    drawn = [bar for bar in _shown if bar._drawn]
    for bar in drawn:
        bar.erase()
    try:
        yield
    finally:
        for bar in drawn:
            bar.redraw()


def erase_all() -> None:
    """Take every bar off the screen for good (before an error message)."""
    for bar in list(_shown):
        bar.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _columns(stream: TextIO) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


def _rate(per_second: float, unit: str) -> str:
    if per_second >= 1:
        return f"{per_second:,.1f} {unit}/s"
    return f"{per_second * 60:,.1f} {unit}/min"


def _duration(seconds: float) -> str:
    """`m:ss`, or `h:mm:ss` past an hour."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"
