"""Nonogram codes, puzz.link URLs and corpus JSON: the corpus, round trips, errors that say
where, and fuzzing (only CodeError may escape a parser). Pattern IDs and .non files are
in `test_formats`."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridproof.core.errors import CodeError
from gridproof.genres.nonogram.codec import (
    format_code,
    format_url,
    from_json,
    parse_code,
    parse_url,
    to_json,
)
from gridproof.genres.nonogram.model import Nonogram, make_puzzle
from tests.genres.nonogram.boards import board_mix

EXAMPLE_URL = "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h"
EXAMPLE_COLS = ((2, 1), (1, 1, 1), (1,), (1, 1, 1), (2, 1), ())
EXAMPLE_ROWS = ((2, 1), (1, 1), (1, 2), (), (1, 1), (3,))
BOARDS = board_mix(150, seed=99, largest=9)


def test_formats_md_examples() -> None:
    puzzle = parse_url(EXAMPLE_URL)
    assert (puzzle.cols, puzzle.rows) == (EXAMPLE_COLS, EXAMPLE_ROWS)
    assert format_url(puzzle) == EXAMPLE_URL
    assert parse_code(format_code(puzzle)) == puzzle
    assert format_code(puzzle) == "nonogram.1.6x6.ak6k7W1e6vTA"


def test_corpus_urls_round_trip_byte_for_byte(corpus_dir: Path) -> None:
    puzzles = json.loads((corpus_dir / "janko-nonogram.json").read_text(encoding="utf-8"))
    assert len(puzzles["puzzles"]) > 1000
    for entry in puzzles["puzzles"]:
        expected = make_puzzle(entry["rows"], entry["cols"])
        assert parse_url(entry["url"]) == expected, entry["id"]
        assert format_url(expected) == entry["url"], entry["id"]
        assert from_json(entry) == expected, entry["id"]
        assert parse_code(format_code(expected)) == expected, entry["id"]


@pytest.mark.parametrize(
    ("fmt", "parse"),
    [
        (format_code, parse_code),
        (format_url, parse_url),
        (to_json, from_json),
    ],
)
def test_round_trips(fmt: Callable[[Nonogram], Any], parse: Callable[[Any], Nonogram]) -> None:
    for puzzle in BOARDS:
        text = fmt(puzzle)
        assert parse(text) == puzzle
        assert fmt(parse(text)) == text


@pytest.mark.parametrize(
    ("parse", "text", "match"),
    [
        (parse_code, "norinori.1.6x6.ak6k7W1e6vTA", "genre 'norinori' is not 'nonogram'"),
        (parse_code, "nonogram.2.6x6.ak6k7W1e6vTA", "version 2"),
        (parse_code, "nonogram.1.6x6.ak6k7W1e6vTAAA", "data after the last row"),
        (parse_code, "nonogram.1.6x6.ak6k", "ends in the middle"),
        (parse_code, "nonogram.1.6x6.ak6k7", "impossible length"),
        (parse_code, "nonogram.1.2000x6.ak6k7W1e6vTA", "exceeds"),
        (parse_url, "https://puzz.link/p?norinori/5/5/cag4ocjo", "genre 'norinori'"),
        (parse_url, EXAMPLE_URL + "1", "more than the 36 clue slots"),
        (parse_url, EXAMPLE_URL[:-1], "holds 34 of 36"),
        (parse_url, "https://puzz.link/p?nonogram/2/2/.111", "unknown clue"),
        (parse_url, "https://puzz.link/p?nonogram/2/2/111*", "'*' at position 4"),
        (parse_url, "https://puzz.link/p?nonogram/2/2/-1", "two hex digits"),
        (parse_url, "https://puzz.link/p?nonogram/3/3/g11g1g1g1g1g", "column 1 are not packed"),
        (parse_url, "https://puzz.link/p?nonogram/2/2/3111", "needs 3 cells"),
        (parse_url, "https://puzz.link/p?nonogram/2/2/1121", "shade 3 cells but"),
        (from_json, {"rows": [[1]]}, "has no 'cols'"),
        (from_json, {"rows": [[1]], "cols": [[1]], "width": 2}, "width is 2 but there are 1"),
        (from_json, {"rows": [[1]], "cols": [["1"]]}, "column 1: clue value"),
        (from_json, {"rows": "1", "cols": [[1]]}, "'rows' is not a list"),
        (from_json, {"rows": [[1]], "cols": [[1]], "genre": "x"}, "genre 'x'"),
    ],
)
def test_parse_errors_say_where(parse: Callable[[Any], Nonogram], text: Any, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        parse(text)


def test_url_accepts_a_lone_zero_as_an_empty_line() -> None:
    assert parse_url("https://puzz.link/p?nonogram/2/2/1010").cols == ((1,), ())


def test_format_url_refuses_clues_too_large_for_the_grammar() -> None:
    puzzle = make_puzzle([[300]], [[1]] * 300)
    with pytest.raises(CodeError, match="too large"):
        format_url(puzzle)


_TEXT = st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz.-/:x,\n ", max_size=60)


def _survives(parse: Callable[[Any], Nonogram], text: Any) -> None:
    with contextlib.suppress(CodeError):
        parse(text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["nonogram.1.", "nonogram.1.3x3.", "nonogram.1.5x2."]), _TEXT)
def test_fuzz_codes(head: str, tail: str) -> None:
    _survives(parse_code, head + tail.replace("\n", ""))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), _TEXT)
def test_fuzz_urls(cols: int, rows: int, body: str) -> None:
    _survives(parse_url, f"https://puzz.link/p?nonogram/{cols}/{rows}/{body}")


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=4),
        max_leaves=20,
    ),
    st.recursive(
        st.none() | st.integers(-3, 12),
        lambda inner: st.lists(inner, max_size=4),
        max_leaves=20,
    ),
)
def test_fuzz_json(rows: Any, cols: Any) -> None:
    _survives(from_json, {"rows": rows, "cols": cols})
    _survives(from_json, {"rows": rows, "cols": cols, "width": cols, "height": 2})
