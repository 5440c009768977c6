"""The puzz.link URL grammar: host forms, sizes, base-32 and region borders."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof.core.errors import CodeError
from gridproof.core.pzpr import (
    PzprUrl,
    border_bits,
    decode_borders,
    encode_borders,
    format_url,
    pack_base32,
    parse_url,
    regions_from_border_bits,
    unpack_base32,
)

EXAMPLE_REGIONS = [
    [0, 0, 1, 2, 2],
    [1, 1, 1, 2, 2],
    [1, 3, 3, 2, 2],
    [3, 3, 3, 3, 3],
    [4, 4, 3, 3, 3],
]


@pytest.mark.parametrize(
    "url",
    [
        "https://puzz.link/p?norinori/5/5/cag4ocjo",
        "http://puzz.link/p?norinori/5/5/cag4ocjo",
        "puzz.link/p?norinori/5/5/cag4ocjo",
        "http://pzv.jp/p.html?norinori/5/5/cag4ocjo",
        "pzv.jp/p.html?norinori_edit/5/5/cag4ocjo",
        "https://puzz.link/p?norinori_play/5/5/cag4ocjo \n",
    ],
)
def test_parse_url_forms(url: str) -> None:
    assert parse_url(url) == PzprUrl("norinori", 5, 5, "cag4ocjo")


def test_body_keeps_slashes_and_may_be_empty() -> None:
    assert parse_url("puzz.link/p?nurikabe/3/4/a/b").body == "a/b"
    assert parse_url("puzz.link/p?nurikabe/3/4/").body == ""


@pytest.mark.parametrize(
    ("url", "match"),
    [
        ("https://example.com/p?norinori/5/5/cag4ocjo", "not a puzz.link URL"),
        ("norinori/5/5/cag4ocjo", "not a puzz.link URL"),
        ("https://puzz.link/p?norinori/5/5", "GENRE/COLS/ROWS/BODY"),
        ("https://puzz.link/p?Nori/5/5/x", "genre 'Nori'"),
        ("https://puzz.link/p?norinori/0/5/x", "columns '0'"),
        ("https://puzz.link/p?norinori/5/101/x", "rows '101'"),
        ("https://puzz.link/p?norinori/5/-5/x", "rows '-5'"),
        ("https://puzz.link/p?norinori/5/99999999999/x", "rows '99999999999'"),
    ],
)
def test_parse_url_rejects(url: str, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        parse_url(url)


def test_format_url() -> None:
    assert format_url("norinori", 5, 5, "cag4ocjo") == "https://puzz.link/p?norinori/5/5/cag4ocjo"


def test_base32() -> None:
    assert pack_base32([0, 1, 1, 0, 0, 0, 1, 0, 1, 0]) == "ca"
    assert pack_base32([1]) == "g"
    assert pack_base32([1, 1, 1, 1, 1]) == "v"
    assert unpack_base32("g", 1, "here") == [1]
    assert unpack_base32("ca", 10, "here") == [0, 1, 1, 0, 0, 0, 1, 0, 1, 0]
    with pytest.raises(CodeError, match=r"here: character 'w' at position 2 of 'cw'"):
        unpack_base32("cw", 10, "here")
    with pytest.raises(CodeError, match="has 1 digits, not 2"):
        unpack_base32("c", 10, "here")


def test_formats_md_example() -> None:
    regions, rest = decode_borders("cag4ocjo", 5, 5)
    assert regions == EXAMPLE_REGIONS
    assert rest == ""
    assert encode_borders(EXAMPLE_REGIONS) == "cag4ocjo"
    assert decode_borders("cag4ocjo123", 5, 5) == (EXAMPLE_REGIONS, "123")


def test_decode_borders_rejects() -> None:
    with pytest.raises(CodeError, match="too short: 5x5 borders need 8 characters"):
        decode_borders("cag4ocj", 5, 5)
    with pytest.raises(CodeError, match=r"character 'X' at position 6 of 'cag4oXjo'"):
        decode_borders("cag4oXjo", 5, 5)


def test_one_cell_and_one_line_grids() -> None:
    assert decode_borders("", 1, 1) == ([[0]], "")
    assert decode_borders("g", 3, 1) == ([[0, 1, 1]], "")
    assert encode_borders([[0], [0], [1]]) == "8"


@st.composite
def wall_grids(draw: st.DrawFn) -> tuple[int, int, list[int]]:
    cols = draw(st.integers(min_value=1, max_value=8))
    rows = draw(st.integers(min_value=1, max_value=8))
    count = (cols - 1) * rows + cols * (rows - 1)
    bits = draw(st.lists(st.integers(0, 1), min_size=count, max_size=count))
    return cols, rows, bits


@given(wall_grids())
def test_regions_are_components_numbered_in_order(grid: tuple[int, int, list[int]]) -> None:
    cols, rows, bits = grid
    regions = regions_from_border_bits(bits, cols, rows)
    flat = [label for row in regions for label in row]
    assert flat[0] == 0
    assert all(label <= max(flat[:i], default=-1) + 1 for i, label in enumerate(flat))
    # Decoding the walls the regions imply gives the same regions back.
    assert regions_from_border_bits(border_bits(regions), cols, rows) == regions
    body = encode_borders(regions)
    assert decode_borders(body, cols, rows) == (regions, "")


@given(st.text(max_size=40), st.integers(1, 6), st.integers(1, 6))
def test_decode_arbitrary_body_raises_only_code_error(body: str, cols: int, rows: int) -> None:
    with contextlib.suppress(CodeError):
        decode_borders(body, cols, rows)


@given(st.text())
def test_parse_arbitrary_url_raises_only_code_error(text: str) -> None:
    for url in (text, "puzz.link/p?" + text):
        with contextlib.suppress(CodeError):
            parse_url(url)
