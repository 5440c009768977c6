"""gridproof puzzle codes, the genre-independent part: `GENRE.VERSION.PARAMS.PAYLOAD`.

Example: `norinori.1.10x10.<payload>`. Every character is URL-safe: the genre is lower-case
letters, digits and `-`; the version a decimal number without leading zeros; params and
payload use the base64url alphabet (`A-Z a-z 0-9 - _`). The payload is the base64url
encoding, without `=` padding, of a bit string packed most significant bit first into whole
bytes. Parsing is strict (exact length, zero padding bits), so each puzzle has exactly one
code and `format(parse(code)) == code`; surrounding whitespace is the one thing forgiven.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from dataclasses import dataclass

from gridproof.core.errors import CodeError, quote

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_ALPHABET_SET = frozenset(ALPHABET)
_GENRE = re.compile(r"[a-z][a-z0-9-]*")
_VERSION = re.compile(r"[1-9][0-9]{0,8}")
_SIZE = re.compile(r"([1-9][0-9]{0,5})x([1-9][0-9]{0,5})")


@dataclass(frozen=True, slots=True)
class CodeParts:
    """The four dot-separated parts of a puzzle code."""

    genre: str
    version: int
    params: str
    payload: str


def split_code(text: str) -> CodeParts:
    """The parts of a code (surrounding whitespace ignored); CodeError if it is malformed."""
    code = text.strip()
    pieces = code.split(".")
    if len(pieces) != 4:
        raise CodeError(
            f"code {quote(code)} has {len(pieces)} dot-separated parts, "
            "expected 4: GENRE.VERSION.PARAMS.PAYLOAD"
        )
    genre, version, params, payload = pieces
    if not _GENRE.fullmatch(genre):
        raise CodeError(f"code genre {quote(genre)} is not lower-case letters, digits and '-'")
    if not _VERSION.fullmatch(version):
        raise CodeError(f"code version {quote(version)} is not a positive number")
    check_alphabet(params, "code params")
    check_alphabet(payload, "code payload")
    return CodeParts(genre, int(version), params, payload)


def split_genre_code(text: str, genre: str, version: int) -> CodeParts:
    """The parts of a code that must be of `genre` at `version`; CodeError otherwise."""
    parts = split_code(text)
    if parts.genre != genre:
        raise CodeError(f"code genre {quote(parts.genre)} is not {genre!r}")
    if parts.version != version:
        raise CodeError(
            f"code version {parts.version} of {genre} is not supported (only {version})"
        )
    return parts


def join_code(parts: CodeParts) -> str:
    """The code for `parts`; CodeError if any part would not survive `split_code`."""
    text = f"{parts.genre}.{parts.version}.{parts.params}.{parts.payload}"
    if split_code(text) != parts or text != text.strip():
        raise CodeError(f"cannot make a code of {parts!r}")
    return text


def check_alphabet(text: str, where: str) -> None:
    """CodeError naming the first character of `text` outside the base64url alphabet."""
    for index, char in enumerate(text):
        if char not in _ALPHABET_SET:
            raise CodeError(
                f"{where}: character {quote(char)} at position {index + 1} of {quote(text)} "
                "is not in A-Z a-z 0-9 - _"
            )


def pack_bits(bits: Sequence[int]) -> str:
    """Bits (0/1) as base64url without padding, MSB first within each byte, zero-filled."""
    if any(bit not in (0, 1) for bit in bits):
        raise ValueError("pack_bits takes only 0 and 1")
    nbytes = (len(bits) + 7) // 8
    if nbytes == 0:
        return ""
    value = int("".join("1" if bit else "0" for bit in bits), 2) << (8 * nbytes - len(bits))
    return base64.urlsafe_b64encode(value.to_bytes(nbytes, "big")).decode("ascii").rstrip("=")


def payload_length(count: int) -> int:
    """The number of payload characters `count` bits take."""
    nbytes = (count + 7) // 8
    return (8 * nbytes + 5) // 6


def unpack_bits(payload: str, count: int, what: str) -> list[int]:
    """The `count` bits in `payload`, the inverse of `pack_bits`.

    CodeError (naming `what`) for a character outside the alphabet, a length other than
    `payload_length(count)`, or padding bits that are not zero.
    """
    if count < 0:
        raise ValueError(f"unpack_bits: negative count {count}")
    check_alphabet(payload, what)
    expected = payload_length(count)
    if len(payload) != expected:
        raise CodeError(
            f"{what}: payload {quote(payload)} has {len(payload)} characters, "
            f"expected {expected} for {count} bits"
        )
    if count == 0:
        return []
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    value = int.from_bytes(raw, "big")
    spare = 8 * len(raw) - count
    # base64 decoding ignores the low bits of the last character, so check them apart.
    unused = ALPHABET.index(payload[-1]) & ((1 << (6 * len(payload) - 8 * len(raw))) - 1)
    if unused or value & ((1 << spare) - 1):
        raise CodeError(f"{what}: payload {quote(payload)} has padding bits that are not zero")
    return [int(bit) for bit in format(value >> spare, f"0{count}b")]


def parse_size(params_or_text: str, where: str) -> tuple[int, int]:
    """`(width, height)` from `WxH` (positive, no leading zeros, at most six digits each);
    surrounding whitespace is ignored. Genres check their own upper limits."""
    text = params_or_text.strip()
    match = _SIZE.fullmatch(text)
    if match is None:
        raise CodeError(f"{where}: size {quote(text)} is not WIDTHxHEIGHT, like 10x10")
    return int(match[1]), int(match[2])


def format_size(width: int, height: int) -> str:
    """`WxH`, the inverse of `parse_size`."""
    return f"{width}x{height}"


def json_int(value: object, where: str) -> int:
    """`value` if it is a JSON integer (not a bool); a `CodeError` naming `where` if not."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CodeError(f"json: {where} {quote(repr(value))} is not an integer")
    return value


def is_list(value: object) -> bool:
    """Whether a JSON value is an array (any sequence but a string)."""
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


FNV_OFFSET, FNV_PRIME = 0x811C9DC5, 0x01000193
"""FNV-1a, 32 bits: the offset basis and the prime."""


def fingerprint(code: str) -> str:
    """A short name of a puzzle code: the FNV-1a 32-bit hash of its UTF-8 bytes as 8
    lower-case hex digits. The player keeps these for every board it has shown (the `seen`
    of `POST /api/new`, a hint of what not to serve again) and computes them itself, so the
    algorithm is the contract, word for word:

        h = 0x811c9dc5
        for each byte b of the code's UTF-8 encoding:
            h = h XOR b
            h = (h * 0x01000193) mod 2**32
        the result is h formatted as %08x

    `fingerprint("") == "811c9dc5"`, `fingerprint("a") == "e40c292c"`. Two codes may share
    one (one pair in about 4 billion): it only ever decides what not to serve.
    """
    h = FNV_OFFSET
    for byte in code.encode("utf-8"):
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return f"{h:08x}"
