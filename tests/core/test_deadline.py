from __future__ import annotations

import threading
import time

from gridproof.core.deadline import Deadline


def test_never_does_not_expire() -> None:
    assert not Deadline.never().expired()
    assert Deadline.never().remaining() == float("inf")


def test_zero_is_expired() -> None:
    assert Deadline(0).expired()
    assert Deadline(-5).remaining() == 0.0


def test_cancel_expires_at_once_and_reaches_children() -> None:
    parent = Deadline(60)
    child = parent.within(30)
    assert not child.expired()
    parent.cancel()
    assert parent.expired()
    assert child.expired()
    assert child.remaining() == 0.0


def test_child_is_bounded_by_parent() -> None:
    parent = Deadline(0.05)
    child = parent.within(60)
    assert child.remaining() <= 0.05
    time.sleep(0.06)
    assert child.expired()


def test_cancel_from_another_thread() -> None:
    deadline = Deadline.never()
    timer = threading.Timer(0.01, deadline.cancel)
    timer.start()
    timer.join()
    assert deadline.expired()
