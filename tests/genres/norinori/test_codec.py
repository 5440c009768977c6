"""Norinori codes, puzz.link URLs and corpus JSON: the corpus, round trips and fuzzing."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof.core.errors import CodeError
from gridproof.core.rng import Rng
from gridproof.genres.norinori.codec import (
    format_code,
    format_url,
    from_json,
    parse_code,
    parse_url,
    to_json,
)
from gridproof.genres.norinori.model import Norinori, make_puzzle

EXAMPLE_URL = "https://puzz.link/p?norinori/5/5/cag4ocjo"
EXAMPLE_REGIONS = [
    [0, 0, 1, 2, 2],
    [1, 1, 1, 2, 2],
    [1, 3, 3, 2, 2],
    [3, 3, 3, 3, 3],
    [4, 4, 3, 3, 3],
]
EXAMPLE_CODE = "norinori.1.5x5.YqBMMng"


def test_formats_md_example() -> None:
    puzzle = parse_url(EXAMPLE_URL)
    assert puzzle.region_rows() == EXAMPLE_REGIONS
    assert format_url(puzzle) == EXAMPLE_URL
    assert format_code(puzzle) == EXAMPLE_CODE
    assert parse_code(EXAMPLE_CODE) == puzzle
    assert parse_code(f"  {EXAMPLE_CODE}\n") == puzzle


def test_corpus(corpus_dir: Path) -> None:
    path = corpus_dir / "janko-norinori.json"
    puzzles = json.loads(path.read_text(encoding="utf-8"))["puzzles"]
    assert len(puzzles) > 100
    for entry in puzzles:
        expected = make_puzzle(entry["regions"])
        puzzle = parse_url(entry["url"])
        assert puzzle == expected, entry["id"]
        assert from_json(entry) == expected, entry["id"]
        assert format_url(puzzle) == entry["url"], entry["id"]
        assert parse_code(format_code(puzzle)) == puzzle, entry["id"]


@pytest.mark.parametrize(
    ("url", "match"),
    [
        ("https://puzz.link/p?nondango/5/5/cag4ocjo", "genre 'nondango', not 'norinori'"),
        (EXAMPLE_URL + "0", "'0' left over"),
        (EXAMPLE_URL[:-1], "too short"),
        ("https://puzz.link/p?norinori/5/5/cag4ocjw", "character 'w' at position 8"),
        ("https://example.org/p?norinori/5/5/cag4ocjo", "not a puzz.link URL"),
    ],
)
def test_parse_url_rejects(url: str, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        parse_url(url)


@pytest.mark.parametrize(
    ("code", "match"),
    [
        ("nondango.1.5x5.YqBMMng", "genre 'nondango' is not 'norinori'"),
        ("norinori.2.5x5.YqBMMng", "version 2"),
        ("norinori.1.5x6.YqBMMng", "expected 10 for 49 bits"),
        ("norinori.1.five.YqBMMng", "code params: size 'five'"),
        ("norinori.1.101x1.", "exceeds 100x100"),
        ("norinori.1.5x5.YqBMMnh", "padding bits"),
        ("norinori.1.5x5.YqBMM!g", "character '!' at position 6"),
        ("norinori.1.2x2.gA", "wall between r1c1 and r1c2 lies inside one region"),
        ("norinori.1.2x2.IA", "wall between r1c1 and r2c1 lies inside one region"),
    ],
)
def test_parse_code_rejects(code: str, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        parse_code(code)


def test_one_cell() -> None:
    puzzle = make_puzzle([[7]])
    assert format_code(puzzle) == "norinori.1.1x1."
    assert format_url(puzzle) == "https://puzz.link/p?norinori/1/1/"
    assert parse_code("norinori.1.1x1.") == parse_url(format_url(puzzle)) == puzzle


def test_json_round_trip() -> None:
    puzzle = parse_url(EXAMPLE_URL)
    obj = to_json(puzzle)
    assert obj == {"genre": "norinori", "width": 5, "height": 5, "regions": EXAMPLE_REGIONS}
    assert from_json(obj) == puzzle
    del obj["genre"]
    assert from_json(obj) == puzzle


@pytest.mark.parametrize(
    ("obj", "match"),
    [
        ([1, 2], "is a list, not an object"),
        ({"width": 1, "height": 1}, "no 'regions'"),
        ({"height": 1, "regions": [[0]]}, "no 'width'"),
        ({"genre": "nonogram", "width": 1, "height": 1, "regions": [[0]]}, "'nonogram'"),
        ({"width": "1", "height": 1, "regions": [[0]]}, "width \"'1'\" is not an integer"),
        ({"width": 1, "height": True, "regions": [[0]]}, "height 'True' is not an integer"),
        ({"width": 2, "height": 1, "regions": [[0]]}, "row 1 is not a list of 2"),
        ({"width": 1, "height": 2, "regions": [[0]]}, "not a list of 2 rows"),
        ({"width": 1, "height": 1, "regions": "0"}, "not a list of 1 rows"),
        ({"width": 2, "height": 1, "regions": [[0, 1.5]]}, "row 1, column 2 '1.5'"),
        ({"width": 3, "height": 1, "regions": [[0, 1, 0]]}, "json regions: region 0"),
        ({"width": 0, "height": 0, "regions": []}, "json regions: the grid is empty"),
    ],
)
def test_from_json_rejects(obj: Any, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        from_json(obj)


@st.composite
def puzzles(draw: st.DrawFn) -> Norinori:
    """A random grid cut into connected regions by growing random seeds (flood growth)."""
    width = draw(st.integers(min_value=1, max_value=12))
    height = draw(st.integers(min_value=1, max_value=12))
    rng = Rng(draw(st.integers(min_value=0, max_value=2**64 - 1)))
    cells = width * height
    labels = [-1] * cells
    for label, cell in enumerate(rng.sample(range(cells), rng.randint(1, cells))):
        labels[cell] = label
    while -1 in labels:
        frontier = [
            (cell, other)
            for cell in range(cells)
            if labels[cell] < 0
            for other in _neighbours(cell, width, height)
            if labels[other] >= 0
        ]
        cell, other = rng.choice(frontier)
        labels[cell] = labels[other]
    return make_puzzle([labels[r * width : (r + 1) * width] for r in range(height)])


def _neighbours(cell: int, width: int, height: int) -> list[int]:
    r, c = divmod(cell, width)
    around = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return [rr * width + cc for rr, cc in around if 0 <= rr < height and 0 <= cc < width]


@given(puzzles())
def test_random_puzzles_round_trip(puzzle: Norinori) -> None:
    assert parse_code(format_code(puzzle)) == puzzle
    assert parse_url(format_url(puzzle)) == puzzle
    assert from_json(json.loads(json.dumps(to_json(puzzle)))) == puzzle


@given(st.text())
def test_arbitrary_text_raises_only_code_error(text: str) -> None:
    for parse in (parse_code, parse_url):
        for candidate in (text, "norinori.1." + text, "puzz.link/p?norinori/" + text):
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
    puzzle: Norinori, edits: list[tuple[str, int, str]]
) -> None:
    for parse, text in ((parse_code, format_code(puzzle)), (parse_url, format_url(puzzle))):
        try:
            parsed = parse(_mutate(text, edits))
        except CodeError:
            continue
        assert isinstance(parsed, Norinori)
