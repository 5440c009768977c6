"""Puzzle codes, generic part: splitting, bit payloads, sizes; one spelling per code."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof.core.codes import (
    ALPHABET,
    CodeParts,
    fingerprint,
    join_code,
    pack_bits,
    parse_size,
    payload_length,
    split_code,
    unpack_bits,
)
from gridproof.core.errors import CodeError

bit_lists = st.lists(st.integers(min_value=0, max_value=1), max_size=300)


def test_split_and_join() -> None:
    parts = split_code("  norinori.1.10x10.AbC-_9\n")
    assert parts == CodeParts("norinori", 1, "10x10", "AbC-_9")
    assert join_code(parts) == "norinori.1.10x10.AbC-_9"
    assert split_code("x.12..") == CodeParts("x", 12, "", "")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("norinori.1.10x10", "3 dot-separated parts"),
        ("a.1.b.c.d", "5 dot-separated parts"),
        ("Norinori.1.5x5.AA", "genre 'Norinori'"),
        (".1.5x5.AA", "genre ''"),
        ("norinori.01.5x5.AA", "version '01'"),
        ("norinori.0.5x5.AA", "version '0'"),
        ("norinori.v1.5x5.AA", "version 'v1'"),
        ("norinori.1.5 x5.AA", "params: character ' ' at position 2"),
        ("norinori.1.5x5.A=A", "payload: character '=' at position 2"),
        ("norinori.1.5x5.AÀ", "payload: character 'À' at position 2"),
    ],
)
def test_split_rejects(text: str, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        split_code(text)


def test_join_rejects_parts_that_do_not_round_trip() -> None:
    with pytest.raises(CodeError):
        join_code(CodeParts("a.b", 1, "", ""))
    with pytest.raises(CodeError):
        join_code(CodeParts("a", 1, "x", "a b"))


def test_pack_is_base64url_of_msb_first_bytes() -> None:
    bits = [1, 0, 0, 0, 0, 0, 0, 1, 1, 1]  # 0x81, 0xC0
    assert pack_bits(bits) == base64.urlsafe_b64encode(b"\x81\xc0").decode().rstrip("=")
    assert pack_bits([]) == ""
    assert pack_bits([1] * 8) == "_w"
    with pytest.raises(ValueError, match="only 0 and 1"):
        pack_bits([2])


def test_unpack_rejects_with_where() -> None:
    with pytest.raises(CodeError, match=r"here: character '\*' at position 2 of 'A\*'"):
        unpack_bits("A*", 8, "here")
    with pytest.raises(CodeError, match="has 3 characters, expected 2 for 8 bits"):
        unpack_bits("AAA", 8, "here")
    with pytest.raises(CodeError, match="padding bits"):
        unpack_bits("_w", 7, "here")  # the eighth bit is set
    with pytest.raises(CodeError, match="padding bits"):
        unpack_bits("AB", 8, "here")  # a low bit of the last character is set
    assert unpack_bits("", 0, "here") == []


@given(bit_lists)
def test_pack_unpack_round_trip(bits: list[int]) -> None:
    payload = pack_bits(bits)
    assert len(payload) == payload_length(len(bits))
    assert set(payload) <= set(ALPHABET)
    assert unpack_bits(payload, len(bits), "test") == bits


@pytest.mark.slow
@given(st.text(), st.integers(min_value=0, max_value=200))
def test_unpack_arbitrary_text_raises_only_code_error(text: str, count: int) -> None:
    try:
        bits = unpack_bits(text, count, "fuzz")
    except CodeError:
        return
    assert pack_bits(bits) == text


@given(st.text(alphabet=ALPHABET, max_size=40), st.integers(min_value=0, max_value=200))
def test_unpack_in_alphabet_has_one_spelling(text: str, count: int) -> None:
    try:
        bits = unpack_bits(text, count, "fuzz")
    except CodeError:
        return
    assert pack_bits(bits) == text


@given(st.text())
def test_split_arbitrary_text_raises_only_code_error(text: str) -> None:
    try:
        parts = split_code(text)
    except CodeError:
        return
    assert join_code(parts) == text.strip()


@given(st.text(alphabet="0123456789x.-AÀ ", max_size=20))
def test_split_near_miss_text_raises_only_code_error(text: str) -> None:
    try:
        parts = split_code("g.1." + text)
    except CodeError:
        return
    assert join_code(parts) == ("g.1." + text).strip()


def test_parse_size() -> None:
    assert parse_size(" 10x7 ", "params") == (10, 7)
    for bad in ("10X7", "0x5", "05x5", "5x", "x5", "5x5x5", "", "1234567x1", "٣x3"):
        with pytest.raises(CodeError, match=f"params: size {bad.strip()!r}"):
            parse_size(bad, "params")


@given(st.text())
def test_parse_size_arbitrary_text_raises_only_code_error(text: str) -> None:
    try:
        width, height = parse_size(text, "fuzz")
    except CodeError:
        return
    assert f"{width}x{height}" == text.strip()


def test_the_fingerprint_is_fnv1a_32_of_the_utf8_bytes() -> None:
    # the published FNV-1a 32-bit vectors; the page computes the same in JavaScript
    assert fingerprint("") == "811c9dc5"
    assert fingerprint("a") == "e40c292c"
    assert fingerprint("foobar") == "bf9cf968"
    assert fingerprint("é") == _fnv1a(b"\xc3\xa9")  # UTF-8 bytes, not code points
    code = "norinori.1.5x5.AAAA"
    assert fingerprint(code) == _fnv1a(code.encode())
    assert len(fingerprint(code)) == 8
    assert fingerprint(code) == fingerprint(code).lower()


def _fnv1a(data: bytes) -> str:
    """The algorithm as its authors state it, written out separately."""
    h = 2166136261
    for byte in data:
        h ^= byte
        h = (h * 16777619) % 2**32
    return format(h, "08x")
