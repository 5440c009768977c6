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


# --- work budgets -------------------------------------------------------------------------


def test_charge_counts_against_every_parent() -> None:
    root = Deadline(60, work=100)
    child = root.within(work=50)
    grandchild = child.within()
    grandchild.charge(7)
    child.charge(3)
    assert (grandchild.used, child.used, root.used) == (7, 10, 10)
    assert root.work_left() == 90
    assert child.work_left() == 40
    assert grandchild.work_left() == 40  # the tightest budget above it


def test_a_spent_budget_expires_its_deadline_and_its_children() -> None:
    root = Deadline(60, work=10)
    child = root.within(30, work=100)
    assert not child.out_of_work()
    child.charge(10)
    assert root.out_of_work()
    assert root.expired()
    assert child.out_of_work()  # the parent's budget is spent
    assert child.expired()
    assert child.work_left() == 0


def test_a_child_budget_spends_without_expiring_its_parent() -> None:
    root = Deadline.never()
    child = root.within(work=3)
    child.charge(2)
    assert not child.expired()
    child.charge(1)
    assert child.out_of_work()
    assert child.expired()
    assert not root.out_of_work()
    assert not root.expired()
    assert root.used == 3
    assert root.work_left() == float("inf")


def test_out_of_work_is_not_out_of_time_nor_cancelled() -> None:
    late = Deadline(0)
    assert late.expired()
    assert not late.out_of_work()
    cancelled = Deadline.never()
    cancelled.cancel()
    assert cancelled.expired()
    assert not cancelled.out_of_work()


def test_budgets_of_zero_or_less_are_spent_at_once() -> None:
    assert Deadline(work=0).out_of_work()
    assert Deadline(work=-5).expired()
    assert Deadline(work=-5).work_left() == 0
    assert Deadline.never().within(work=0).expired()


def test_within_work_alone_keeps_the_parents_clock() -> None:
    root = Deadline(60)
    child = root.within(work=5)
    before = root.remaining()
    assert 0 < child.remaining() <= before <= 60
    assert Deadline.never().within(work=5).remaining() == float("inf")
    assert Deadline.never().work_left() == float("inf")
    assert child.work_left() == 5


def test_a_child_of_a_cancelled_parent_is_expired() -> None:
    parent = Deadline(60, work=100)
    parent.cancel()
    child = parent.within(60, work=100)
    assert child.expired()
    assert child.remaining() == 0.0
    assert parent.remaining() == 0.0
    grandchild = child.within()
    assert grandchild.expired()
    assert grandchild.remaining() == 0.0


def test_cancel_sets_remaining_to_zero() -> None:
    deadline = Deadline.never()
    assert deadline.remaining() == float("inf")
    deadline.cancel()
    assert deadline.remaining() == 0.0
    timed = Deadline(60)
    child = timed.within(30)
    child.cancel()
    assert child.remaining() == 0.0
    assert not timed.expired()  # cancelling a child leaves its parent running
    assert timed.remaining() > 0


def test_elapsed_grows() -> None:
    deadline = Deadline(60)
    first = deadline.elapsed()
    time.sleep(0.001)
    assert deadline.elapsed() > first >= 0
