"""Reading a command's SOURCEs: puzzle codes, URLs, files and standard input, one source or
one a line as `generate` prints them. Apart from `common` so that what every command
shares loads without the service (`gridproof --version` reads no puzzle)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from gridproof import service
from gridproof.cli.common import STDIN, UsageError, _read_stdin
from gridproof.core.errors import CodeError, GridproofError, quote


def _load_all(sources: Sequence[str]) -> list[service.Loaded]:
    """Every puzzle of every source, all read before any work starts; `-` is standard
    input (once)."""
    if list(sources).count(STDIN) > 1:
        raise UsageError("standard input ('-') can be read only once")
    return [item for source in sources for item in _load(source)]


def _load(source: str) -> list[service.Loaded]:
    """The puzzles of one SOURCE. Standard input holds one source (a JSON corpus, a `.non`
    text, ...) or, one a line, what `generate` prints (a code first, or JSON lines); so
    may a file, `generate`'s output saved in it."""
    if source != STDIN:
        try:
            return service.load(source)
        except CodeError as error:
            listed = _generated_file(source)
            if listed is None:
                raise error from None
            return listed
    text = _read_stdin(service.MAX_FILE_BYTES, "SOURCE")
    listed = _generated(text, "standard input")
    return _at("standard input", text) if listed is None else listed


def _generated(text: str, where: str) -> list[service.Loaded] | None:
    """The puzzles of `text` read as `generate` prints them, one a line (a code first, or
    a JSON line), or None when its first line names no puzzle so. Indented lines belong
    to the line above (the solution `generate --show-solution` prints under each board)."""
    numbered = [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line[0].isspace()
    ]
    sources = [(number, _source_of(line)) for number, line in numbered]
    one_a_line = numbered and (len(numbered) > 1 or sources[0][1] != numbered[0][1])
    if not (one_a_line and _loads(sources[0][1])):
        return None
    return [item for number, source in sources for item in _at(f"{where} line {number}", source)]


def _generated_file(source: str) -> list[service.Loaded] | None:
    """The puzzles of the file `source` read as `generate`'s saved text, or None when it
    is not that (or cannot be read, or is JSON: `service.load` said why)."""
    path = Path(source)
    try:
        if not path.is_file() or path.stat().st_size > service.MAX_FILE_BYTES:
            return None
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if text.lstrip().startswith("{"):  # JSON, generate --json lines too: service.load's
        return None
    return _generated(text, f"file {service.quote_path(source)}")


def _source_of(line: str) -> str:
    """The source a line of `generate`'s output names: its first word, or the `code` of a
    JSON line."""
    if line.startswith("{"):
        try:
            board = json.loads(line)
        except (ValueError, RecursionError):
            return line
        code = board.get("code") if isinstance(board, dict) else None
        return code if isinstance(code, str) else line
    return line.split()[0]


def _loads(source: str) -> bool:
    try:
        service.load(source, files=False)
    except GridproofError:
        return False
    return True


def _at(where: str, source: str) -> list[service.Loaded]:
    try:
        return service.load(source, files=False)
    except GridproofError as error:
        raise CodeError(f"{where}: {error}") from None


def _load_one(source: str, command: str) -> service.Loaded:
    items = _load(source)
    if len(items) != 1:
        raise UsageError(f"{command} needs one puzzle; {quote(source)} holds {len(items)}")
    return items[0]
