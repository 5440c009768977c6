"""Promises every generator keeps, checked the same way for every genre: the same seed
gives the same board at any load and under any deadline long enough to reach it, and
every grade the catalog offers is delivered."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from gridproof import bank
from gridproof.core.contract import Genre, Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.outcome import Verdict
from gridproof.core.registry import genres

GENRES = sorted(genres().values(), key=lambda g: g.name)


def _spin(until: float) -> None:
    while time.monotonic() < until:
        pass


@contextmanager
def both_cores_busy(seconds: float) -> Iterator[None]:
    """Two processes that keep both cores of the machine busy meanwhile."""
    until = time.monotonic() + seconds
    spinners = [multiprocessing.Process(target=_spin, args=(until,)) for _ in range(2)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()


def _small(genre: Genre[Any]) -> tuple[int, int]:
    width, height = bank.offered_sizes(genre)[0]
    return width, height


@pytest.mark.slow
@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_a_seed_gives_the_same_board_at_any_load_and_deadline(genre: Genre[Any]) -> None:
    width, height = 10, 10
    for grade in (None, *genre.offered(width, height)):
        request = Request(width, height, grade)
        quiet = genre.generate(request, 11, Deadline(300))
        with both_cores_busy(60):
            loaded = genre.generate(request, 11, Deadline(240))
        assert genre.format_code(loaded.puzzle) == genre.format_code(quiet.puzzle), grade
        assert (loaded.difficulty, loaded.score) == (quiet.difficulty, quiet.score), grade


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_every_grade_the_catalog_offers_is_delivered(genre: Genre[Any]) -> None:
    width, height = _small(genre)
    offered = genre.offered(width, height)
    assert offered, f"{genre.name} offers no grade at {width}x{height}"
    assert set(offered) <= set(genre.difficulties)
    for grade in offered:
        made = genre.generate(Request(width, height, grade), 3, Deadline(120))
        assert made.difficulty == grade
        assert made.score > 0
        assert genre.validate(made.puzzle, made.solution) == []
        outcome = genre.count(made.puzzle, 2, Deadline(60))
        assert outcome.verdict is Verdict.UNIQUE
        assert outcome.solutions == (made.solution,)


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_no_grade_asked_aims_at_every_offered_grade(genre: Genre[Any]) -> None:
    """With no difficulty asked, the seed picks the grade, so the shares are balanced."""
    width, height = _small(genre)
    offered = genre.offered(width, height)
    seen = {
        genre.generate(Request(width, height), seed, Deadline(120)).difficulty
        for seed in range(1, 13)
    }
    assert seen <= set(genre.difficulties)
    assert len(seen) >= min(2, len(offered))


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_a_deadline_too_short_fails_rather_than_returning_another_board(
    genre: Genre[Any],
) -> None:
    """However short the deadline, the call either returns the seed's own board or fails."""
    request = Request(8, 8)
    full = genre.format_code(genre.generate(request, 5, Deadline(300)).puzzle)
    for seconds in (0.001, 0.01, 0.05, 0.2, 1.0):
        try:
            made = genre.generate(request, 5, Deadline(seconds))
        except GenerationError:
            continue
        assert genre.format_code(made.puzzle) == full, seconds
