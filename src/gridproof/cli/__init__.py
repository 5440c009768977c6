"""The `gridproof` command: parses arguments, calls `gridproof.service`, prints the results.

Bad input of any kind is one line on stderr and exit status 2; `validate` exits 1 when the
grid breaks a rule, `generate` when no board could be proven in time, `bank fill` when it
gave up before the count, `bank import` when some boards were not kept.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from importlib import import_module

from gridproof.cli.common import (
    EXIT_INTERRUPT,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_PIPE,
    EXIT_USAGE,
    UsageError,
    _Parser,
    _say_error,
    _silence_stdout,
)
from gridproof.core import registry
from gridproof.core.errors import GenerationError, GridproofError, quote
from gridproof.version import __version__

__all__ = ["main"]


COMMANDS = {
    "count": "puzzle_commands",
    "solve": "puzzle_commands",
    "show": "puzzle_commands",
    "validate": "puzzle_commands",
    "convert": "puzzle_commands",
    "generate": "puzzle_commands",
    "fix": "workshop_commands",
    "picture": "workshop_commands",
    "render": "render_commands",
    "study": "puzzle_commands",
    "serve": "puzzle_commands",
    "bank": "bank_commands",
    "completion": "completion",
}
"""Every command, in the order `--help` lists them, and the module of `gridproof.cli` that
adds its parser (its `ADDERS`) and runs it. A command line names one: only that module is
imported and only that parser built, so a command starts without loading the others."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: `sys.argv[1:]`) and return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv == ["--version"]:
        print(f"gridproof {__version__}")
        return EXIT_OK
    args = None
    try:
        try:
            args = _parser(_named(argv)).parse_args(argv)
        except SystemExit as done:  # --help, --version
            return done.code if isinstance(done.code, int) else EXIT_OK
        return _run(args)
    except GenerationError as error:
        _say_error(f"{error}; health: {json.dumps(error.health)}")
        return EXIT_INVALID
    except (UsageError, GridproofError) as error:
        _say_error(_with_help(str(error), getattr(args, "command", None)))
        return EXIT_USAGE
    except MemoryError:
        _say_error("out of memory: the board needs more memory than this machine gives")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPT
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE


def _run(args: argparse.Namespace) -> int:
    """The command, its results written to `--output` when one is given."""
    output = getattr(args, "output", None)
    if output in (None, "-"):
        status: int = args.run(args)
        return status
    try:
        file = open(output, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise UsageError(f"cannot write {quote(output)}: {error.strerror or error}") from None
    with file, contextlib.redirect_stdout(file):
        status = args.run(args)
    return status


def _with_help(message: str, command: str | None) -> str:
    """`message` pointing to the subcommand's help (argparse's own errors already do)."""
    if command is None or "--help'" in message:
        return message
    return f"{message} (see '{command} --help')"


def _named(argv: Sequence[str]) -> str | None:
    """The command `argv` names, if that is all its parser needs (None: build every one,
    for the overall help, a mistyped command or none)."""
    words = [word for word in argv if not word.startswith("-")]
    if not words or words[0] not in COMMANDS or argv.index(words[0]) != 0:
        return None
    return words[0]


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the command `only` alone."""
    full = only is None
    if full:
        from gridproof import service
    parser = _Parser(
        prog="gridproof",
        description="Pencil puzzles proven to have exactly one solution.",
        epilog="SOURCE: a puzzle code (GENRE.VERSION.PARAMS.PAYLOAD), a puzz.link URL, "
        'a JSON file holding one puzzle or a corpus {"genre", "puzzles": [...]} '
        f"or a genre's own format ({_own_formats()}), as text or a file; '-' reads it from "
        "standard input (or one source a line, in its first word, as generate prints them) "
        f"(files at most {service.MAX_FILE_BYTES // 2**20} MB). The largest boards read: "
        f"{service.largest_boards()}; larger ones are refused."
        if full
        else None,
    )
    parser.add_argument("--version", action="version", version=f"gridproof {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name, module in COMMANDS.items():
        if full or name == only:
            import_module(f"{__name__}.{module}").ADDERS[name](commands)
    return parser


def _own_formats() -> str:
    return "; ".join(
        f"{genre.title}: {fmt.name}, {fmt.help}"
        for _, genre in sorted(registry.genres().items())
        for fmt in genre.formats
    )
