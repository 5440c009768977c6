"""Locks between processes sharing a bank file: a lock file beside the bank, locked with
the operating system's exclusive lock, which it releases when its holder dies however it
dies (so no lock outlives a crash). The background filler of `gridproof serve` takes
`<bank>.fill-lock`; a bulk fill takes one per job (`filler.fill`), so two fills of the
same job never run at once."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

WAIT_S = 0.25
"""How often a process waiting for a lock tries it again."""


def take(path: str) -> int | None:
    """An open handle on `path` locked for this process alone, None if another process
    holds the lock. Where no lock file can be made (a read-only folder), the caller goes
    on unlocked: a handle of -1."""
    try:
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return -1
    if not _lock(handle):
        os.close(handle)
        return None
    with contextlib.suppress(OSError):  # who holds it, for a person looking
        os.ftruncate(handle, 0)
        os.write(handle, f"{os.getpid()}\n".encode())
    return handle


def release(handle: int) -> None:
    """Give up a lock `take` gave (closing the handle releases it)."""
    if handle >= 0:
        os.close(handle)


def holder(path: str) -> int | None:
    """The process id the lock file `path` names, if any (for messages, tests and people)."""
    try:
        text = Path(path).read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


@contextlib.contextmanager
def held(path: str, waiting: Callable[[int | None], None]) -> Iterator[None]:
    """Hold the lock `path` for the block, waiting for it first if another process holds
    it (`waiting` is told once, with the holder's process id when known)."""
    handle = take(path)
    if handle is None:
        waiting(holder(path))
        while handle is None:
            time.sleep(WAIT_S)
            handle = take(path)
    try:
        yield
    finally:
        release(handle)


def _lock(handle: int) -> bool:
    """Lock `handle` exclusively without waiting: `fcntl.flock` where there is one, else
    Windows' `msvcrt.locking` on its first byte."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
