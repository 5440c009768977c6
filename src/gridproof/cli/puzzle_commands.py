"""The commands on puzzles (count, solve, validate, convert, generate) and the tools
(study, serve)."""

from __future__ import annotations

import argparse
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gridproof import bank, service
from gridproof.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    UsageError,
    _add_deadline,
    _add_json,
    _add_output,
    _command,
    _count_arg,
    _emit,
    _emit_json,
    _grid_rows,
    _limit,
    _load_all,
    _load_one,
    _Parser,
    _port,
    _say_note,
    _seconds,
    _seed,
    _size,
    _size_arg,
)
from gridproof.core import registry
from gridproof.core.contract import Genre
from gridproof.core.errors import quote
from gridproof.core.grid import cell_name
from gridproof.core.outcome import Verdict

RANDOM_SEEDS = 2**31
"""A seed picked at random is below this (the seeds the web and the bank take)."""


def add_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
    """count, solve, validate, convert and generate."""
    count = _command(commands, "count", _count, "count the solutions of every puzzle")
    count.add_argument("sources", nargs="+", metavar="SOURCE")
    count.add_argument(
        "--limit", type=_limit, default=2, help="stop after N solutions (at least 2; default 2)"
    )
    count.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when an outcome differs from the puzzle's `expected` or is timeout",
    )
    _add_deadline(count)
    _add_json(count, "one JSON object per puzzle per line")

    solve = _command(commands, "solve", _solve, "run one rung of the ladder and show its steps")
    solve.add_argument("sources", nargs="+", metavar="SOURCE")
    solve.add_argument(
        "--rules",
        required=True,
        metavar="RUNG",
        help="the rung of the ladder, cheapest first: "
        + "; ".join(
            f"{g.title}: {', '.join(g.rungs)}" for _, g in sorted(registry.genres().items())
        ),
    )
    _add_deadline(solve)
    _add_json(solve, "one JSON object per puzzle per line")

    check = _command(commands, "validate", _validate, "list the rules a grid breaks")
    check.add_argument("source", metavar="SOURCE", help="exactly one puzzle")
    check.add_argument(
        "--grid",
        required=True,
        metavar="ROWS",
        help="rows joined by '/' or ',' (e.g. '##../....'), a text file of rows, or '-' for "
        "standard input",
    )
    _add_json(check, "print the violations as JSON")

    convert = _command(commands, "convert", _convert, "print puzzles in another format")
    convert.add_argument("sources", nargs="+", metavar="SOURCE")
    convert.add_argument("--to", required=True, choices=service.formats())
    _add_output(convert)

    _add_generate(commands)


def add_tools(commands: argparse._SubParsersAction[_Parser]) -> None:
    """study and serve."""
    study = _command(commands, "study", _study, "reproduce a genre's design-note measurements")
    study.add_argument("genre", choices=sorted(g.name for g in _studied()), metavar="GENRE")
    study.add_argument("--boards", type=_count_arg, default=60, help="boards per size (default 60)")
    study.add_argument("--seed", type=_seed, default=1, help="first seed (default 1)")
    _add_deadline(study)
    _add_output(study)

    serve = _command(commands, "serve", _serve, "run the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument(
        "--reload",
        nargs="?",
        const="yes",
        default="no",
        choices=("yes", "no"),
        help="restart on code changes (default: no)",
    )
    serve.add_argument(
        "--db",
        metavar="PATH",
        help="the puzzle bank's SQLite file (default: $GRIDPROOF_DB, else "
        "~/.local/share/gridproof/bank.sqlite3)",
    )
    serve.add_argument(
        "--workers",
        type=_count_arg,
        default=1,
        metavar="N",
        help="server processes sharing the bank, so hints use N cores (default 1)",
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer requests for this host name (the bound address and localhost "
        "always; any name when binding 0.0.0.0)",
    )
    serve.add_argument(
        "--no-fill",
        action="store_true",
        help="do not stock the bank with new boards in the background",
    )


def _count(args: argparse.Namespace) -> int:
    items = _load_all(args.sources)
    tally: dict[str, int] = {}
    mismatches = 0
    for item in items:
        result = service.count(item, args.limit, args.deadline)
        verdict = str(result.verdict)
        tally[verdict] = tally.get(verdict, 0) + 1
        mismatched = item.expected is not None and item.expected != verdict
        mismatches += mismatched or (args.check and result.verdict is Verdict.TIMEOUT)
        if args.json:
            _emit_json(result.to_json())
            continue
        line = (
            f"{result.id:<32} {result.genre:<10} {_size(item):>7} "
            f"{verdict:<8} {result.elapsed_s * 1000:>10.1f} ms "
            f"{result.nodes:>9} nodes"
        )
        if mismatched:
            line += f"  MISMATCH: expected {item.expected}"
        _emit(line)
    if not args.json and len(items) > 1:
        summary = ", ".join(f"{n} {verdict}" for verdict, n in sorted(tally.items()))
        _emit(f"{len(items)} puzzles: {summary}; {mismatches} not as expected")
    return EXIT_INVALID if args.check and mismatches else EXIT_OK


def _solve(args: argparse.Namespace) -> int:
    items = _load_all(args.sources)
    for item in items:
        service.check_rung(item, args.rules)
    completed = 0
    for item in items:
        result = service.solve(item, args.rules, args.deadline)
        if args.json:
            _emit_json(result.to_json())
            continue
        _emit(f"{result.id}: rung {result.rung}, {result.decided:.1%} decided")
        for row in result.grid:
            _emit(row)
        for number, step in enumerate(result.steps, 1):
            _emit(f"{number:>4}. [{step.rule}] {step.text}")
        if result.contradiction is not None:
            _emit(f"contradiction: {result.contradiction.text}")
        for note in result.notes:
            _emit(f"note: {note}")
        if result.timed_out:
            _emit("stopped: out of time")
        completed += result.complete
    if not args.json and len(items) > 1:
        _emit(f"rung {args.rules} completes {completed} of {len(items)} puzzles alone")
    return EXIT_OK


def _validate(args: argparse.Namespace) -> int:
    if args.source == args.grid == "-":
        raise UsageError("SOURCE and --grid cannot both be '-' (standard input is read once)")
    item = _load_one(args.source, "validate")
    violations = service.validate(item, _grid_rows(args.grid))
    if args.json:
        listed = [service.violation_to_json(v) for v in violations]
        _emit_json({"id": item.id, "violations": listed})
    elif not violations:
        _emit(f"{item.id}: the grid is a solution")
    else:
        _emit(f"{item.id}: {len(violations)} rule(s) broken")
        width = item.puzzle.width
        for v in violations:
            cells = ", ".join(cell_name(cell, width) for cell in v.cells)
            _emit(f"  [{v.rule}] {v.text}" + (f" ({cells})" if cells else ""))
    return EXIT_INVALID if violations else EXIT_OK


def _convert(args: argparse.Namespace) -> int:
    for item in _load_all(args.sources):
        _emit(service.convert(item, args.to).removesuffix("\n"))
    return EXIT_OK


def _generate(args: argparse.Namespace) -> int:
    width, height = args.size
    options = {option.name: getattr(args, option.name) for option in args.genre_options}
    seed = secrets.randbelow(RANDOM_SEEDS) if args.seed is None else args.seed
    for index in range(args.count):
        board = service.generate(
            args.genre, width, height, seed + index, args.difficulty, args.deadline, options
        )
        if args.seed is None and index == 0:
            _say_note(f"seed {seed} (picked at random; --seed {seed} makes these boards again)")
        if args.json:
            _emit_json(board.to_json())
            continue
        health = board.health
        fallback = f"  fallback board {health.fallback}" if health.fallback else ""
        _emit(
            f"{board.code}  seed {board.seed}  {board.difficulty} (score {board.score:g})  "
            f"{health.attempts} attempt(s), {health.milliseconds:.0f} ms{fallback}"
        )
        for row in board.solution_rows if args.show_solution else ():
            _emit(f"  {row}")
    return EXIT_OK


def _study(args: argparse.Namespace) -> int:
    _emit(service.study(args.genre, args.boards, args.seed, args.deadline))
    return EXIT_OK


def _serve(args: argparse.Namespace) -> int:
    uvicorn = _web_stack()

    # The app reads its settings from the environment (see gridproof.web.app), so that
    # `--reload` workers and the bank's filler process see them too.
    if args.db is not None:
        os.environ["GRIDPROOF_DB"] = str(Path(args.db).expanduser().resolve())
    if args.no_fill:
        os.environ["GRIDPROOF_FILL"] = "0"
    os.environ["GRIDPROOF_HOSTS"] = ",".join(_served_hosts(args.host, args.allow_host))
    _check_bank()
    uvicorn.run(
        "gridproof.web.app:app",
        host=args.host,
        port=args.port,
        reload=args.reload == "yes",
        workers=None if args.reload == "yes" else args.workers,
    )
    return EXIT_OK


def _web_stack() -> Any:
    """The uvicorn module, or one line saying how to install the `web` extra."""
    try:
        import fastapi  # noqa: F401  (only this command needs the web stack)
        import uvicorn
    except ImportError as error:
        raise UsageError(
            f"gridproof serve needs the web extra ({error.name} is not installed): "
            "pip install 'gridproof[web]'"
        ) from None
    return uvicorn


def _served_hosts(host: str, allowed: Sequence[str]) -> list[str]:
    """The Host names the server answers: the address it binds and `--allow-host`; any
    name when it binds every address (its names are not known here)."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    return [host.strip("[]"), *allowed]


def _check_bank() -> None:
    """One clear line, before the server starts, when the bank file cannot be used."""
    import sqlite3

    path = os.environ.get("GRIDPROOF_DB") or str(bank.default_path())
    try:
        bank.Bank(path)
    except (sqlite3.Error, OSError) as error:
        raise UsageError(
            f"the puzzle bank {quote(path)} cannot be used: {error} "
            "(move it aside or pass --db PATH)"
        ) from None


def _add_generate(commands: argparse._SubParsersAction[_Parser]) -> None:
    generate = _command(commands, "generate", _generate, "generate puzzles proven unique")
    kinds = generate.add_subparsers(title="genres", metavar="GENRE", required=True)
    for genre in registry.genres().values():
        kind = kinds.add_parser(genre.name, help=f"generate {genre.title} puzzles")
        kind.set_defaults(genre=genre.name, genre_options=genre.options, command=kind.prog)
        (min_w, min_h), (max_w, max_h) = genre.sizes
        kind.add_argument(
            "--size",
            type=_size_arg,
            required=True,
            metavar="WxH",
            help=f"width x height, from {min_w}x{min_h} to {max_w}x{max_h}",
        )
        kind.add_argument(
            "--seed",
            type=_seed,
            metavar="S",
            help="the first board's seed (default: one picked at random, and printed)",
        )
        kind.add_argument(
            "--count",
            type=_count_arg,
            default=1,
            metavar="N",
            help="boards to make, from seeds S, S+1, ... (default 1)",
        )
        kind.add_argument(
            "--difficulty",
            choices=genre.difficulties,
            help="the grade (default: the seed picks one of those the size offers)",
        )
        kind.add_argument(
            "--deadline",
            type=_seconds,
            default=60.0,
            metavar="S",
            help="seconds per board before giving up (default 60)",
        )
        kind.add_argument("--show-solution", action="store_true", help="print the answer too")
        for option in genre.options:
            kind.add_argument(
                f"--{option.name}",
                type=option.kind,
                choices=option.choices,
                default=option.default,
                help=option.help,
            )
        _add_json(kind, "one JSON object per board per line")


def _studied() -> list[Genre[Any]]:
    return [g for g in registry.genres().values() if g.study is not None]
