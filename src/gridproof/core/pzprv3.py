"""puzz.link's save files ("pzprv3" files), the genre-independent part; see
docs/formats.md.

Learnt from the puzz.link engine's source (github:robx/pzprjs at commit
0401fc64fb4a414fc8327aed2b49aff758f4eaab: `src/pzpr/parser.js` for the header, the body's
end and the URL form; `src/puzzle/FileData.js` for how a body is written), checked by
running that engine under node on every corpus URL (tests/genres/test_pzprv3.py).

A file is lines: `pzprv3` or `pzprv3.N` (N the genre's file version), the puzz.link genre,
the number of **rows**, the number of **columns** (rows first, unlike URLs), then the
genre's body: tables of entries, one line per grid row, each entry followed by a space.
The body ends at the file's end or at a line pzprjs starts its own sections with
(`TrialData(...)`, `info:{`, `history:{`, `__HISTORY__`, an old `http://` trailer): what
follows (trial stages, metadata, the undo history) is not part of the puzzle and is not
read. The engine treats every `/` as a line break, which is how the same file travels in
a URL: `https://puzz.link/p?pzprv3/GENRE/ROWS/COLS/...`, each line percent-encoded.

Glossary: a `PzprFile` is a file taken apart; a `Body` reads its tables with errors that
name the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import unquote

from gridproof.core.errors import CodeError, quote

T = TypeVar("T")
_HEAD = re.compile(r"pzprv3(?:\.([0-9]{1,3}))?")
_SIDE = re.compile(r"[0-9]{1,6}")
_GENRE = re.compile(r"[A-Za-z0-9_]{1,40}")
_END = re.compile(r"TrialData\(|http://|.*(?:info:\{|history:\{|__HISTORY__)")
_URL = re.compile(r"(?:https?://)?(?:www\.)?(?:puzz\.link|pzv\.jp)/p(?:\.html)?\?(.*)", re.S)
_PARAM = re.compile(r"[A-Za-z0-9_]+=[A-Za-z0-9_]+&")
_FILE_START = re.compile(r"\s*(?:v:[^\n/]*[\n/])?\s*pzprv3(?:\.[0-9]+)?[ \t]*\r?[\n/]")


@dataclass(frozen=True, slots=True)
class PzprFile:
    """A pzprv3 file taken apart: its genre, file version, size and body lines."""

    genre: str
    version: int
    rows: int
    cols: int
    body: tuple[str, ...]
    first: int
    """The 1-based line number of `body[0]` in the file, for messages."""


def is_file(text: str) -> bool:
    """Whether `text` starts like a pzprv3 file (cheap, never raises)."""
    return _FILE_START.match(text) is not None


def genre_of(text: str) -> str | None:
    """The genre line of a text that starts like a pzprv3 file, else None (never raises)."""
    if not is_file(text):
        return None
    lines = _lines(text)
    at = 1 if lines[0].startswith("v:") else 0
    return lines[at + 1].strip() if len(lines) > at + 1 else None


def _lines(text: str) -> list[str]:
    """The file's lines as pzprjs sees them: `/` is a line break too, `\\r` and tabs
    before a line break are dropped."""
    # `+`, not `*`: a bare line break needs no replacing (4 times faster on a 4.7 MB file)
    return re.sub(r"[\t\r]+\n", "\n", text.strip()).replace("/", "\n").split("\n")


def parse_file(text: str, genre: str) -> PzprFile:
    """The parts of a pzprv3 file for puzz.link genre `genre`; CodeError for another genre,
    a variant line (none of gridproof's genres has variants), a bad header or size."""
    lines = _lines(text)
    if lines[0].startswith("v:"):
        raise CodeError(
            f"pzprv3 line 1: the variant {quote(lines[0][2:])} is not a rule gridproof plays"
        )
    head = _HEAD.fullmatch(lines[0].strip())
    if head is None:
        raise CodeError(f"pzprv3 line 1: {quote(lines[0])} is not 'pzprv3' or 'pzprv3.N'")
    if len(lines) < 4:
        raise CodeError("pzprv3: the file ends before its genre, rows and columns lines")
    name = lines[1].strip()
    if not _GENRE.fullmatch(name):
        raise CodeError(f"pzprv3 line 2: {quote(name)} is not a puzz.link genre name")
    if name != genre:
        raise CodeError(f"pzprv3 file is for the puzz.link genre {quote(name)}, not {genre!r}")
    rows, cols = _side(lines[2], 3, "rows"), _side(lines[3], 4, "columns")
    body: list[str] = []
    for line in lines[4:]:
        if _END.match(line):
            break
        body.append(line)
    return PzprFile(name, int(head[1] or 0), rows, cols, tuple(body), 5)


def _side(text: str, number: int, what: str) -> int:
    value = text.strip()
    if not _SIDE.fullmatch(value) or int(value) < 1:
        raise CodeError(f"pzprv3 line {number}: {what} {quote(value)} is not a positive number")
    return int(value)


def check_size(file: PzprFile, largest: int) -> None:
    """CodeError if the file's board is larger than `largest` on a side (checked before any
    table is read, so a huge header costs nothing)."""
    if file.rows > largest or file.cols > largest:
        raise CodeError(
            f"pzprv3: {file.cols} columns by {file.rows} rows exceeds {largest}x{largest}"
        )


class Body:
    """Reads a file's body table by table; every error names the file's line."""

    def __init__(self, file: PzprFile) -> None:
        self.file = file
        self.at = 0
        self.started = file.first

    def line(self, what: str) -> str:
        """The next line, stripped; CodeError if the body has ended."""
        if self.at >= len(self.file.body):
            raise CodeError(f"pzprv3: the file ends before {what}")
        self.at += 1
        return self.file.body[self.at - 1].strip()

    def number(self, what: str) -> int:
        """The next line as a non-negative number (a count pzprjs writes but never reads)."""
        where = self.where()
        text = self.line(what)
        if not _SIDE.fullmatch(text):
            raise CodeError(f"{where}: {what} {quote(text)} is not a number")
        return int(text)

    def table(self, lines: int, entries: int, what: str) -> list[list[str]]:
        """The next `lines` lines, each exactly `entries` space-separated entries."""
        self.started = self.file.first + self.at
        out = []
        for n in range(lines):
            where = self.where()
            items = self.line(f"{what} (line {n + 1} of {lines})").split()
            if len(items) != entries:
                raise CodeError(
                    f"{where}: {what}: {len(items)} entries where {entries} belong: "
                    f"{quote(' '.join(items))}"
                )
            out.append(items)
        return out

    def cells(self, rows: int, cols: int, what: str, meaning: Mapping[str, T]) -> list[list[T]]:
        """A table of `rows` lines of `cols` entries, each one of `meaning`'s keys."""
        table = self.table(rows, cols, what)
        for r, items in enumerate(table):
            for c, item in enumerate(items):
                if item not in meaning:
                    raise self.bad(r, c, item, " or ".join(map(repr, meaning)))
        return [[meaning[item] for item in items] for items in table]

    def bad(self, line: int, entry: int, item: str, allowed: str) -> CodeError:
        """The error for entry `item`, the `entry`-th of line `line` of the last table."""
        return CodeError(
            f"pzprv3 line {self.started + line}, entry {entry + 1}: {quote(item)} is not {allowed}"
        )

    def where(self) -> str:
        """'pzprv3 line N', N the number of the line `line()` reads next."""
        return f"pzprv3 line {self.file.first + self.at}"

    def end(self) -> None:
        """CodeError if a non-blank line is left in the body."""
        for offset, line in enumerate(self.file.body[self.at :]):
            if line.strip():
                number = self.file.first + self.at + offset
                raise CodeError(f"pzprv3 line {number}: {quote(line)} is left after the board")


def format_file(genre: str, version: int, rows: int, cols: int, body: Sequence[str]) -> str:
    """The text of a file, laid out as pzprjs writes it (`body` lines without newlines)."""
    head = "pzprv3" if version == 0 else f"pzprv3.{version}"
    return "".join(line + "\n" for line in (head, genre, str(rows), str(cols), *body))


def entries(items: Iterable[str]) -> str:
    """One table line: every entry followed by a space, as pzprjs writes it."""
    return "".join(item + " " for item in items)


def is_url(text: str) -> bool:
    """Whether `text` is a puzz.link URL holding a pzprv3 file (`p?pzprv3/...`, possibly
    after `type=...&` parameters); cheap, never raises."""
    match = _URL.fullmatch(text.strip())
    return match is not None and _query_file(match[1]).startswith("pzprv")


def _query_file(query: str) -> str:
    while (param := _PARAM.match(query)) is not None:
        query = query[param.end() :]
    return query


def file_of_url(url: str) -> str:
    """The file text a `p?pzprv3/...` URL carries (its lines percent-decoded)."""
    match = _URL.fullmatch(url.strip())
    if match is None:
        raise CodeError(f"url {quote(url.strip())} is not a puzz.link URL")
    return unquote(_query_file(match[1]))
