"""The render command: puzzles drawn as a person prints them, as SVG, PNG or a PDF sheet.

SVG and PNG hold one puzzle each: several puzzles need `-o FILE` and are written to
FILE-1.svg, FILE-2.svg, ... (their names printed one a line); a PDF holds them all,
`--per-page` a page. Binary output goes to standard output only when it is not a terminal.
The output file is written by this command itself (as bytes), not by `_run`'s text
redirection, so its option is stored as `target`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gridproof import service
from gridproof.cli.common import (
    EXIT_OK,
    STDIN,
    UsageError,
    _command,
    _count_arg,
    _emit,
    _Parser,
    _seconds,
)
from gridproof.cli.sources import _load_all
from gridproof.core.errors import quote
from gridproof.output import rendering


def add_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
    draw = _command(
        commands,
        "render",
        _render,
        "draw puzzles to print: one SVG or PNG a puzzle, or a PDF sheet of them all",
    )
    draw.add_argument("sources", nargs="+", metavar="SOURCE")
    draw.add_argument(
        "--to",
        choices=rendering.FORMATS,
        help="the format (default: the suffix of -o FILE, else svg); png and pdf need "
        f"the render extra ({rendering.EXTRA})",
    )
    draw.add_argument(
        "--solution",
        action="store_true",
        help="draw the solution: the one the source records, else the unique one counted now",
    )
    draw.add_argument(
        "--per-page",
        type=_count_arg,
        metavar="N",
        help=f"PDF only: N puzzles a page, 1 to {rendering.MAX_PER_PAGE} (default 1)",
    )
    draw.add_argument(
        "--deadline",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="seconds to count each puzzle's solution for --solution (default 30)",
    )
    draw.add_argument(
        "-o",
        "--output",
        dest="target",
        metavar="FILE",
        help="write to FILE ('-': standard output, the default); several puzzles as SVG or "
        "PNG go to FILE-1.svg, FILE-2.svg, ...",
    )


def _render(args: argparse.Namespace) -> int:
    to = _format(args.to, args.target)
    rendering.require(to)
    if args.per_page is not None and to != "pdf":
        raise UsageError(f"--per-page lays out PDF pages; --to {to} writes one puzzle a file")
    figures = [_figure(item, args.solution, args.deadline) for item in _load_all(args.sources)]
    if to == "pdf" or len(figures) == 1:
        _write(rendering.write(figures, to, args.per_page or 1), args.target, to)
        return EXIT_OK
    if args.target in (None, STDIN):
        raise UsageError(
            f"{len(figures)} puzzles make {len(figures)} {to.upper()} files: give -o FILE "
            f"(written as FILE-1.{to}, FILE-2.{to}, ...) or --to pdf for one sheet"
        )
    for number, each in enumerate(figures, 1):
        path = _numbered(args.target, number, to)
        _write(rendering.write([each], to), path, to)
        _emit(path)
    return EXIT_OK


def _figure(item: service.Loaded, solution: bool, deadline: float) -> rendering.Figure:
    shown = rendering.solution_of(item, deadline) if solution else None
    return rendering.figure(item, shown)


def _format(to: str | None, target: str | None) -> str:
    """`--to`, else the suffix of the output file when it names a format, else svg."""
    if to is not None:
        return to
    suffix = Path(target).suffix.lower().lstrip(".") if target not in (None, STDIN) else ""
    return suffix if suffix in rendering.FORMATS else "svg"


def _numbered(target: str, number: int, to: str) -> str:
    """`board.svg` -> `board-3.svg` (a name without a suffix gets `.svg`)."""
    path = Path(target)
    suffix = path.suffix or f".{to}"
    return str(path.with_name(f"{path.stem if path.suffix else path.name}-{number}{suffix}"))


def _write(data: str | bytes, target: str | None, to: str) -> None:
    """`data` to the file `target`, or to standard output (binary data only when that is
    not a terminal)."""
    if target not in (None, STDIN):
        try:
            if isinstance(data, str):
                Path(target).write_text(data, encoding="utf-8")
            else:
                Path(target).write_bytes(data)
        except OSError as error:
            raise UsageError(f"cannot write {quote(target)}: {error.strerror or error}") from None
        return
    if isinstance(data, str):
        sys.stdout.write(data)
        sys.stdout.flush()
        return
    stdout = sys.stdout
    if stdout is None or stdout.isatty():
        raise UsageError(
            f"--to {to} is binary: give -o FILE or send standard output to a file or a pipe"
        )
    buffer = getattr(stdout, "buffer", None)
    if buffer is None:
        raise UsageError(f"standard output here takes text only: give -o FILE for --to {to}")
    stdout.flush()
    buffer.write(data)
    buffer.flush()


ADDERS = {"render": add_commands}
"""Each command this module runs, and the function that adds its parser."""
