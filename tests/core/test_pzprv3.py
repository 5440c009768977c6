"""The pzprv3 framing shared by the genres: sniffing, the header, the body's end, the URL form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof.core import pzprv3
from gridproof.core.errors import CodeError

FILE = "pzprv3.1\nnorinori\n1\n2\n0 \n. # \n"


def _lines(file: pzprv3.PzprFile) -> list[str]:
    return [line.strip() for line in file.body if line.strip()]


def test_a_file_taken_apart() -> None:
    file = pzprv3.parse_file(FILE, "norinori")
    assert (file.genre, file.version, file.rows, file.cols) == ("norinori", 1, 1, 2)
    assert _lines(file) == ["0", ". #"]
    assert _lines(pzprv3.parse_file(FILE.replace("\n", "/"), "norinori")) == ["0", ". #"]
    assert pzprv3.format_file("norinori", 1, 1, 2, ["0 ", ". # "]) == FILE


def test_the_body_ends_where_pzprjs_starts_its_own_sections() -> None:
    for tail in ("TrialData(1)\n0 \n", 'info:{"metadata":{}}\n', "history:{\n}\n"):
        assert _lines(pzprv3.parse_file(FILE + tail, "norinori")) == ["0", ". #"]


def test_sniffing_and_the_url_form() -> None:
    assert pzprv3.is_file(FILE)
    assert pzprv3.is_file("  pzprv3/nonogram/1/1/")
    assert not pzprv3.is_file("pzprv3x\n")
    assert pzprv3.genre_of(FILE) == "norinori"
    url = "https://puzz.link/p?type=player&pzprv3.1/norinori/1/2/0%20/.%20%23%20//"
    assert pzprv3.is_url(url)
    assert pzprv3.file_of_url(url) == "pzprv3.1/norinori/1/2/0 /. # //"
    assert not pzprv3.is_url("https://puzz.link/p?norinori/5/5/cag4ocjo")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("pzprv4\nnorinori\n1\n1\n", "is not 'pzprv3' or 'pzprv3.N'"),
        ("pzprv3\nnorinori\n", "ends before its genre, rows and columns"),
        ("pzprv3\nnori nori\n1\n1\n", "is not a puzz.link genre name"),
        ("pzprv3\nnonogram\n1\n1\n", "for the puzz.link genre 'nonogram', not 'norinori'"),
        ("pzprv3\nnorinori\n1\n1234567\n", "columns '1234567' is not a positive number"),
    ],
)
def test_bad_headers(text: str, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        pzprv3.parse_file(text, "norinori")


@given(st.text(max_size=60))
def test_sniffing_never_raises(text: str) -> None:
    pzprv3.is_file(text)
    pzprv3.genre_of(text)
    pzprv3.is_url(text)
