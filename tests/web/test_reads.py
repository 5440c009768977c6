"""The web's cache of puzzles read (`gridproof.web.reads`): a source is read once per
process, a read that failed is read again, and the cache stays bounded."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gridproof import service
from gridproof.core.errors import CodeError
from gridproof.service.results import Loaded
from gridproof.web.reads import Reads

CODE = service.generate("norinori", 5, 5, 1, deadline=60).code


def counting() -> tuple[list[str], Callable[[str], Loaded]]:
    calls: list[str] = []

    def read(text: str) -> Loaded:
        calls.append(text)
        return service.load(text, files=False)[0]

    return calls, read


def test_a_source_is_read_once_and_keeps_its_canonical_code() -> None:
    reads = Reads()
    calls, read = counting()
    first = reads.get(CODE, read)
    again = reads.get(CODE, read)
    assert calls == [CODE]
    assert again is first
    assert first.code == first.item.genre.format_code(first.item.puzzle) == CODE


def test_a_failed_read_is_not_kept() -> None:
    reads = Reads()
    calls, read = counting()
    for _ in range(2):
        with pytest.raises(CodeError):
            reads.get("norinori.1.5x5.!!", read)
    assert len(calls) == 2
    assert len(reads) == 0


def test_the_cache_keeps_the_sources_read_last_and_no_long_ones() -> None:
    other = service.generate("norinori", 5, 5, 2, deadline=60).code
    third = service.generate("nonogram", 5, 5, 1, deadline=60).code
    longest = max(len(CODE), len(other), len(third))
    reads = Reads(size=2, max_chars=longest)
    calls, read = counting()
    for source in (CODE, other, third, other, CODE):
        reads.get(source, read)
    assert calls == [CODE, other, third, CODE]  # CODE was the oldest when third came
    padded = CODE + " " * (longest - len(CODE) + 1)
    # read like CODE, but longer than the cache keeps
    reads.get(padded, read)
    reads.get(padded, read)
    assert calls[-2:] == [padded, padded]
