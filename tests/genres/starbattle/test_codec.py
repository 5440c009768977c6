"""Codes, puzz.link URLs and JSON round-trip; bad input is a one-line CodeError."""

from __future__ import annotations

import pytest

from gridproof.core.errors import CodeError
from gridproof.genres.starbattle import codec
from tests.genres.starbattle.boards import board_mix

BOARDS = board_mix(40, seed=7)


@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_round_trips(index: int) -> None:
    puzzle = BOARDS[index]
    assert codec.parse_code(codec.format_code(puzzle)) == puzzle
    assert codec.parse_url(codec.format_url(puzzle)) == puzzle
    assert codec.from_json(codec.to_json(puzzle)) == puzzle


def test_url_carries_the_star_count_first() -> None:
    puzzle = BOARDS[0]
    url = codec.format_url(puzzle)
    head = f"https://puzz.link/p?starbattle/{puzzle.width}/{puzzle.height}/{puzzle.stars}/"
    assert url.startswith(head)


@pytest.mark.parametrize(
    "url",
    [
        "https://puzz.link/p?norinori/5/5/abc",
        "https://puzz.link/p?starbattle/5/5/zz",
        "https://puzz.link/p?starbattle/5/5/1/",
    ],
)
def test_bad_urls(url: str) -> None:
    with pytest.raises(CodeError):
        codec.parse_url(url)


def test_bad_json() -> None:
    obj = codec.to_json(BOARDS[0])
    with pytest.raises(CodeError, match="stars"):
        codec.from_json({**obj, "stars": "two"})
    with pytest.raises(CodeError, match="no 'stars'"):
        codec.from_json({k: v for k, v in obj.items() if k != "stars"})
