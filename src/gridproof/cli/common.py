"""What every command shares: exit statuses, argument types, reading grids and standard
input, printing lines, JSON and one-line errors. It loads no service, so that `gridproof
--version` starts at once (reading a command's SOURCEs is `sources.py`)."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from gridproof.cli import progress
from gridproof.core import registry
from gridproof.core.errors import GridproofError, quote

if TYPE_CHECKING:
    from gridproof.core.contract import Genre
    from gridproof.service import Loaded

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_PIPE, EXIT_INTERRUPT = 0, 1, 2, 141, 130
MAX_GRID_FILE_BYTES = 8 * 1024 * 1024
"""The largest `--grid` file: a full grid of the largest board read (1024x1024 is 1.05 MB
with its line breaks) with room for CRLF endings and spaces between cells."""
STDIN = "-"
HELP_WIDTH = 78
_N = TypeVar("_N", int, float)


class UsageError(Exception):
    """A bad command line; `main` prints it as one line and exits 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _command(
    commands: argparse._SubParsersAction[_Parser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    text: str,
    epilog: str | None = None,
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=text,
        description=text,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run, command=parser.prog)
    return parser


def _ladder_help(genre: Genre[Any]) -> str:
    """A genre's ladder for a --help text: each rung, the grade of a board it finishes
    and its rules' names, cheapest first."""
    lines = [f"{genre.title} rungs, cheapest first (each uses the rules of those before it):"]
    for rung in genre.ladder.rungs:
        rules = ", ".join(rule.id for rule in rung.rules)
        line = f"  {rung.name} ({rung.grade}): {rules}"
        lines.append(
            textwrap.fill(line, HELP_WIDTH, subsequent_indent="      ", break_on_hyphens=False)
        )
    if genre.ladder.beyond:
        lines.append(f"  a unique board no rung finishes alone: {genre.ladder.beyond}")
    return "\n".join(lines)


def _ladders_help() -> str:
    """Every registered genre's ladder, for --help."""
    return "\n\n".join(_ladder_help(g) for _, g in sorted(registry.genres().items()))


def _add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write the results to FILE ('-': standard output)"
    )


def _add_deadline(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deadline", type=_seconds, metavar="S", help="give up after S seconds (default: never)"
    )


def _add_json(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--json", action="store_true", help=text)
    _add_output(parser)


def _size_arg(text: str) -> tuple[int, int]:
    from gridproof.core.codes import parse_size  # on use: dataclasses, which --version skips

    try:
        return parse_size(text, "--size")
    except GridproofError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _seed(text: str) -> int:
    return _number(text, int, "a whole number")


def _count_arg(text: str) -> int:
    value = _number(text, int, "a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _limit(text: str) -> int:
    value = _number(text, int, "a whole number")
    if value < 2:
        raise argparse.ArgumentTypeError(
            f"must be at least 2 (uniqueness needs a second search), got {text}"
        )
    return value


def _seconds(text: str) -> float:
    value = _number(text, float, "a number of seconds")
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _grey(text: str) -> int:
    value = _number(text, int, "a grey level")
    if not 0 <= value <= 256:
        raise argparse.ArgumentTypeError(f"must be between 0 and 256, got {text}")
    return value


def _port(text: str) -> int:
    value = _number(text, int, "a port number")
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be between 0 and 65535, got {text}")
    return value


def _number(text: str, kind: Callable[[str], _N], what: str) -> _N:
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote(text)} is not {what}") from None


# --- input and output --------------------------------------------------------------------


def _read_stdin(limit: int, what: str) -> str:
    """Standard input as text, at most `limit` bytes (a larger input is an error)."""
    if sys.stdin is None:
        raise UsageError(f"{what} '-': there is no standard input")
    try:
        raw = sys.stdin.buffer.read(limit + 1)
    except (OSError, AttributeError) as error:
        raise UsageError(f"{what} '-': cannot read standard input ({error})") from None
    if len(raw) > limit:
        raise UsageError(f"{what} '-': standard input is larger than {limit // 2**20} MB")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UsageError(f"{what} '-': standard input is not UTF-8 (byte {error.start})") from None


def _grid_rows(text: str) -> list[str]:
    """Rows from `a/b/c`, `a,b,c`, the path of a text file with one row per line, or `-`
    for standard input."""
    if text == STDIN:
        return _rows(_read_stdin(MAX_GRID_FILE_BYTES, "--grid").splitlines(), text)
    path = Path(text)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        try:
            if path.stat().st_size > MAX_GRID_FILE_BYTES:
                limit = MAX_GRID_FILE_BYTES // 2**20
                raise UsageError(f"grid file {quote(text)} is larger than {limit} MB")
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read grid file {quote(text)}: {error}") from None
    else:
        lines = text.replace(",", "/").split("/")
    return _rows(lines, text)


def _rows(lines: Sequence[str], text: str) -> list[str]:
    rows = [line.strip() for line in lines if line.strip()]
    if not rows:
        raise UsageError(f"--grid {quote(text)} holds no rows")
    return rows


def _bar(total: int, unit: str, *, always: bool = False) -> progress.Progress:
    """A progress bar on standard error for a run of `total` items (shown on a terminal
    only, and only for more than one item unless `always`)."""
    return progress.Progress(total, unit, enabled=None if always or total > 1 else False)


def _size(item: Loaded) -> str:
    return f"{item.puzzle.width}x{item.puzzle.height}"


def _emit(line: str) -> None:
    with progress.pause(sys.stdout):  # a bar on the same terminal is erased, then redrawn
        print(_printable(line), flush=True)


def _emit_json(value: dict[str, Any]) -> None:
    _emit(json.dumps(value))


def _say_error(message: str) -> None:
    one_line = " ".join(message.split())
    progress.erase_all()
    print(f"gridproof: error: {_printable(one_line)}", file=sys.stderr, flush=True)


def _say_note(message: str) -> None:
    with progress.pause():
        print(f"gridproof: {_printable(' '.join(message.split()))}", file=sys.stderr, flush=True)


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _printable(text: str) -> str:
    """`text` with anything that is not a character (a lone surrogate from a file name or
    an argument) and every control character but line breaks and tabs written as an escape
    (`\\x1b`): printing it cannot fail, and a puzzle's id cannot clear or retitle the
    terminal."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return _CONTROL.sub(lambda match: f"\\x{ord(match[0]):02x}", text)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # stdout is not a real file (tests, embedding): nothing will flush it at exit
