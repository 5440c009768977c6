"""Nondango codes, puzz.link URLs, corpus JSON and text grids: round trips and fuzzing."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof.core.errors import CodeError
from gridproof.core.rng import Rng
from gridproof.genres.nondango.codec import (
    format_code,
    format_grid,
    format_url,
    from_json,
    parse_code,
    parse_grid,
    parse_url,
    to_json,
)
from gridproof.genres.nondango.generate import draw_regions
from gridproof.genres.nondango.model import Nondango, Variant, make_puzzle

EXAMPLE_URL = "https://puzz.link/p?nondango/6/6/5jlp72e15tpq2i3ikht0"
EXAMPLE_CODE = "nondango.1.6x6-same.LOuTicEvc663jVuF"
SMALL = make_puzzle([[0, 0], [1, 1]], [[1, 0], [1, 1]])


def test_formats_md_example() -> None:
    puzzle = parse_url(EXAMPLE_URL)
    # formats.md: the first circle digit '2' = 00010: circle, circle, circle, none, circle.
    assert format_grid(puzzle, 0)[0][:5] == "ooo.o"
    assert puzzle.variant is Variant.NO_THREE_SAME
    assert format_url(puzzle) == EXAMPLE_URL
    assert format_code(puzzle) == EXAMPLE_CODE
    assert parse_code(f"  {EXAMPLE_CODE}\n") == puzzle


def test_small_board_by_hand() -> None:
    # borders 0 0 | 1 1, circles 1 0 1 1: 0011 1011 = 0x3b.
    assert format_code(SMALL) == "nondango.1.2x2-same.Ow"
    # across '00' -> '0'; down '11' -> 11000 = 'o'; no-circle bits 0100 -> 01000 = '8'.
    assert format_url(SMALL) == "https://puzz.link/p?nondango/2/2/0o8"
    black = dataclasses.replace(SMALL, variant=Variant.NO_THREE_BLACK)
    assert format_code(black) == "nondango.1.2x2-black.Ow"
    assert parse_code("nondango.1.2x2-black.Ow") == black


def test_one_cell() -> None:
    puzzle = make_puzzle([[3]], [[1]])
    assert format_code(puzzle) == "nondango.1.1x1-same.gA"
    assert format_url(puzzle) == "https://puzz.link/p?nondango/1/1/0"
    assert parse_code("nondango.1.1x1-same.gA") == parse_url(format_url(puzzle)) == puzzle


def test_corpus(corpus_dir: Path) -> None:
    entries = json.loads((corpus_dir / "janko-nondango.json").read_text("utf-8"))["puzzles"]
    assert len(entries) == 73
    for entry in entries:
        puzzle = from_json(entry)
        assert parse_url(entry["url"]) == puzzle, entry["id"]
        assert format_url(puzzle) == entry["url"], entry["id"]
        assert parse_code(format_code(puzzle)) == puzzle, entry["id"]
        assert puzzle.circle_rows() == entry["circles"]


def test_a_no_three_black_puzzle_has_no_url() -> None:
    with pytest.raises(CodeError, match=r"no puzz\.link URL"):
        format_url(dataclasses.replace(SMALL, variant=Variant.NO_THREE_BLACK))


@pytest.mark.parametrize(
    ("url", "match"),
    [
        ("https://puzz.link/p?norinori/6/6/5jlp72e15tpq2i3ikht0", "genre 'norinori'"),
        (EXAMPLE_URL + "0", "'0' left over"),
        (EXAMPLE_URL[:-1], "need 8 characters for 36 cells"),
        (EXAMPLE_URL[:-10], "too short"),
        (EXAMPLE_URL[:-1] + "w", "character 'w'"),
        ("https://example.org/p?nondango/6/6/5jlp", "not a puzz.link URL"),
    ],
)
def test_parse_url_rejects(url: str, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        parse_url(url)


@pytest.mark.parametrize(
    ("code", "match"),
    [
        ("norinori.1.2x2-same.Ow", "genre 'norinori' is not 'nondango'"),
        ("nondango.2.2x2-same.Ow", "version 2"),
        ("nondango.1.2x2.Ow", "WIDTHxHEIGHT-same or WIDTHxHEIGHT-black"),
        ("nondango.1.2x2-white.Ow", "WIDTHxHEIGHT-same"),
        ("nondango.1.2x3-same.Ow", "expected 3 for 13 bits"),
        ("nondango.1.two-same.Ow", "size 'two'"),
        ("nondango.1.101x1-same.", "exceeds 100x100"),
        ("nondango.1.2x2-same.Ox", "padding bits"),
        ("nondango.1.2x2-same.O!", "character '!'"),
        ("nondango.1.2x2-same.iw", "wall between r1c1 and r1c2 lies inside one region"),
    ],
)
def test_parse_code_rejects(code: str, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        parse_code(code)


def test_json_round_trip_and_default_rule() -> None:
    obj = to_json(SMALL)
    assert obj == {
        "genre": "nondango",
        "width": 2,
        "height": 2,
        "regions": [[0, 0], [1, 1]],
        "circles": [[1, 0], [1, 1]],
        "rule": "no-three-same",
    }
    assert from_json(obj) == SMALL
    del obj["rule"], obj["genre"]
    assert from_json(obj) == SMALL
    obj["rule"] = "no-three-black"
    assert from_json(obj).variant is Variant.NO_THREE_BLACK


_GOOD: dict[str, Any] = {"width": 2, "height": 1, "regions": [[0, 1]], "circles": [[1, 1]]}


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"circles": None}, "no 'circles'"),
        ({"regions": None}, "no 'regions'"),
        ({"genre": "norinori"}, "'norinori' is not 'nondango'"),
        ({"rule": "no-three-white"}, "rule 'no-three-white' is not"),
        ({"rule": 3}, "rule 3 is not"),
        ({"circles": [[1, 2]]}, "circles row 1, column 2 is not 0 or 1"),
        ({"circles": [[1, True]]}, "'True' is not an integer"),
        ({"circles": [[1]]}, "circles row 1 is not a list of 2"),
        ({"regions": "01"}, "'regions' is not a list of 1 rows"),
        ({"width": 3, "regions": [[0, 1, 0]], "circles": [[1, 1, 1]]}, "region 0"),
        ({"width": "2"}, "width \"'2'\" is not an integer"),
    ],
)
def test_from_json_rejects(change: dict[str, Any], match: str) -> None:
    obj = {**_GOOD, **change}
    obj = {key: value for key, value in obj.items() if value is not None}
    with pytest.raises(CodeError, match=match):
        from_json(obj)


def test_grid_text() -> None:
    assert format_grid(SMALL, 0b0101) == ["#.", "#o"]
    assert parse_grid(SMALL, ["#.", "#o"]) == 0b0101
    assert parse_grid(SMALL, ["%+", "-#"]) == 0b1000
    # paint on a cell without a circle survives the round trip, for the validator to name
    assert parse_grid(SMALL, format_grid(SMALL, 0b0010)) == 0b0010
    for rows, match in (
        (["#."], "^grid: 1 rows given, the puzzle has 2$"),
        (["#", "#o"], "^grid: row 1 '#' has 1 cells, the puzzle 2$"),
        (["#x", "oo"], "^grid: row 1, column 2: 'x' is not one of '#', 'o', '.', "),
    ):
        with pytest.raises(CodeError, match=match):
            parse_grid(SMALL, rows)


@st.composite
def puzzles(draw: st.DrawFn) -> Nondango:
    width = draw(st.integers(min_value=1, max_value=12))
    height = draw(st.integers(min_value=1, max_value=12))
    rng = Rng(draw(st.integers(min_value=0, max_value=2**64 - 1)))
    regions = draw_regions(width, height, rng)
    circles = [[rng.below(2) for _ in range(width)] for _ in range(height)]
    return make_puzzle(regions, circles, draw(st.sampled_from(list(Variant))))


@given(puzzles())
def test_random_puzzles_round_trip(puzzle: Nondango) -> None:
    assert parse_code(format_code(puzzle)) == puzzle
    assert from_json(json.loads(json.dumps(to_json(puzzle)))) == puzzle
    same = dataclasses.replace(puzzle, variant=Variant.NO_THREE_SAME)
    assert parse_url(format_url(same)) == same


@given(st.text())
def test_arbitrary_text_raises_only_code_error(text: str) -> None:
    for parse in (parse_code, parse_url):
        for candidate in (text, "nondango.1." + text, "puzz.link/p?nondango/" + text):
            with contextlib.suppress(CodeError):
                parse(candidate)


mutations = st.lists(
    st.tuples(st.sampled_from(["replace", "insert", "delete"]), st.integers(0), st.characters()),
    min_size=1,
    max_size=4,
)


def _mutate(text: str, edits: list[tuple[str, int, str]]) -> str:
    for kind, where, char in edits:
        at = where % (len(text) + 1)
        if kind == "insert":
            text = text[:at] + char + text[at:]
        elif kind == "replace":
            text = text[:at] + char + text[at + 1 :]
        else:
            text = text[:at] + text[at + 1 :]
    return text


@given(puzzles(), mutations)
def test_mutated_codes_and_urls_raise_only_code_error(
    puzzle: Nondango, edits: list[tuple[str, int, str]]
) -> None:
    same = dataclasses.replace(puzzle, variant=Variant.NO_THREE_SAME)
    for parse, text in ((parse_code, format_code(puzzle)), (parse_url, format_url(same))):
        try:
            parsed = parse(_mutate(text, edits))
        except CodeError:
            continue
        assert isinstance(parsed, Nondango)
