"""The commands on puzzles (count, solve, validate, convert, generate) and the tools
(study, serve)."""

from __future__ import annotations

import argparse
import os
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gridproof import service
from gridproof.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    HELP_WIDTH,
    UsageError,
    _add_deadline,
    _add_json,
    _add_output,
    _bar,
    _command,
    _count_arg,
    _emit,
    _emit_json,
    _grid_rows,
    _ladder_help,
    _ladders_help,
    _limit,
    _Parser,
    _port,
    _say_note,
    _seconds,
    _seed,
    _size,
    _size_arg,
)
from gridproof.cli.progress import Progress
from gridproof.cli.sources import _load_all, _load_one
from gridproof.core import registry
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline, parsing_within
from gridproof.core.errors import quote
from gridproof.core.grid import cell_name
from gridproof.core.outcome import Verdict
from gridproof.core.report import format_csv, format_markdown
from gridproof.output import charts

SERVER_ENVIRONMENT = (
    (
        "GRIDPROOF_DB",
        "the bank's SQLite file (--db sets it; default ~/.local/share/gridproof/bank.sqlite3)",
    ),
    (
        "GRIDPROOF_TOKEN",
        "the token a client sends as X-Gridproof-Token to keep boards, off loopback",
    ),
    ("GRIDPROOF_HOSTS", "the Host names answered, comma-separated ('*': any; --allow-host adds)"),
    (
        "GRIDPROOF_EXPOSED",
        "1 when bound to an address other machines reach (serve sets it from --host)",
    ),
    ("GRIDPROOF_WRITES_PER_MINUTE", "boards a client may keep a minute (default 20)"),
    ("GRIDPROOF_BUSY_PER_CLIENT", "expensive calls a client may have at once (default 4)"),
    ("GRIDPROOF_LIMIT_LOCAL", "1 to hold loopback clients to the same limits (default 0)"),
    ("GRIDPROOF_FILL", "0 to leave the bank unstocked (--no-fill sets it; default 1)"),
    ("GRIDPROOF_FILL_TARGET", "boards kept in stock per setting (default: by size)"),
    ("GRIDPROOF_FILL_MAX_SIDE", "the largest side the background filler stocks (default 30)"),
    ("GRIDPROOF_WORKERS", "generation processes per server process (default: cores, at most 4)"),
    ("GRIDPROOF_GENERATE_S", "seconds a generation worker may take for one board (default 60)"),
)
"""Every environment variable the server reads, for `serve --help` (a test keeps it whole)."""
RANDOM_SEEDS = 2**31
"""A seed picked at random is below this (the seeds the web and the bank take)."""


def _add_count(commands: argparse._SubParsersAction[_Parser]) -> None:
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
    count.add_argument(
        "--no-sat",
        dest="sat",
        action="store_false",
        help="count on the standard library alone (no SAT solver inside the engine)",
    )
    _add_deadline(count)
    _add_json(count, "one JSON object per puzzle per line")


def _add_solve(commands: argparse._SubParsersAction[_Parser]) -> None:
    solve = _command(
        commands,
        "solve",
        _solve,
        "run one rung of the ladder and show its steps",
        epilog=_ladders_help(),
    )
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
    solve.add_argument(
        "--rows",
        action="store_true",
        help="print the grid as bare rows of '#', '.' and '?' (undecided) instead of the "
        "picture with the puzzle's clues or regions",
    )
    _add_deadline(solve)
    _add_json(solve, "one JSON object per puzzle per line")


def _add_show(commands: argparse._SubParsersAction[_Parser]) -> None:
    show = _command(
        commands,
        "show",
        _show,
        "draw puzzles as text: each genre's clues, region borders and marks in its own "
        "text picture",
    )
    show.add_argument("sources", nargs="+", metavar="SOURCE")
    shown = show.add_mutually_exclusive_group()
    shown.add_argument(
        "--solution",
        action="store_true",
        help="draw the solution: the source's own, else the one the counter finds",
    )
    shown.add_argument(
        "--grid", metavar="ROWS", help="draw these marks, as --grid of validate takes them"
    )
    _add_deadline(show)
    _add_json(show, "one JSON object per puzzle per line (its code and the picture's lines)")


def _add_validate(commands: argparse._SubParsersAction[_Parser]) -> None:
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


def _add_convert(commands: argparse._SubParsersAction[_Parser]) -> None:
    convert = _command(commands, "convert", _convert, "print puzzles in another format")
    convert.add_argument("sources", nargs="+", metavar="SOURCE")
    convert.add_argument("--to", required=True, choices=service.formats())
    _add_json(convert, "one JSON object per puzzle per line (id, genre, format, text)")


def _add_study(commands: argparse._SubParsersAction[_Parser]) -> None:
    study = _command(commands, "study", _study, "reproduce a genre's design-note measurements")
    study.add_argument("genre", choices=sorted(g.name for g in _studied()), metavar="GENRE")
    study.add_argument("--boards", type=_count_arg, default=60, help="boards per size (default 60)")
    study.add_argument("--seed", type=_seed, default=1, help="first seed (default 1)")
    _add_deadline(study)
    form = study.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the tables as one JSON document")
    form.add_argument(
        "--csv",
        action="store_true",
        help="print every table cell one a line: table,row,column,value,text",
    )
    study.add_argument(
        "--plots",
        metavar="DIR",
        help="also draw each table as an SVG chart in DIR, GENRE-NN-TABLE.svg (needs "
        f"matplotlib: {charts.INSTALL})",
    )
    _add_output(study)


def _add_serve(commands: argparse._SubParsersAction[_Parser]) -> None:
    serve = _command(
        commands,
        "serve",
        _serve,
        "run the web app",
        epilog=textwrap.fill(
            "Bound to an address other machines reach (not 127.0.0.1 or localhost), "
            "serve warns in one line and refuses to keep boards (POST /api/workshop/keep) "
            "unless GRIDPROOF_TOKEN is set; clients then send it as the X-Gridproof-Token "
            "header. Per client address: at most GRIDPROOF_WRITES_PER_MINUTE boards kept a "
            "minute (20) and GRIDPROOF_BUSY_PER_CLIENT expensive calls at once (4), else 429. "
            "--allow-host (or GRIDPROOF_HOSTS, comma-separated) names the Host headers "
            "answered.",
            HELP_WIDTH,
        )
        + "\n\nEnvironment (each read when the server starts):\n"
        + "\n".join(
            textwrap.fill(
                f"{name}: {text}", HELP_WIDTH, initial_indent="  ", subsequent_indent="    "
            )
            for name, text in SERVER_ENVIRONMENT
        ),
    )
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
        "always; binding 0.0.0.0 without any: every name)",
    )
    serve.add_argument(
        "--no-fill",
        action="store_true",
        help="do not stock the bank with new boards in the background",
    )


def _count(args: argparse.Namespace) -> int:
    # the deadline runs from the first byte read: reading is part of the call (a Pattern
    # ID's prefilled squares are checked by a count), and a lone puzzle's count gets what
    # is left of it; each puzzle of several gets its own
    first = Deadline(args.deadline)
    with parsing_within(first):
        items = _load_all(args.sources)
    if len(items) == 1 and args.deadline is not None:
        args.deadline = first
    with _bar(len(items), "puzzles") as bar:
        return _count_all(args, items, bar)


def _count_all(args: argparse.Namespace, items: list[service.Loaded], bar: Progress) -> int:
    tally: dict[str, int] = {}
    mismatches = 0
    for item in items:
        result = service.count(item, args.limit, args.deadline, sat=args.sat)
        bar.advance()
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
    with _bar(len(items), "puzzles") as bar:
        for item in items:
            result = service.solve(item, args.rules, args.deadline)
            bar.advance()
            completed += result.complete
            _print_solved(args, item, result)
    if not args.json and len(items) > 1:
        _emit(f"rung {args.rules} completes {completed} of {len(items)} puzzles alone")
    return EXIT_OK


def _print_solved(args: argparse.Namespace, item: service.Loaded, result: service.Solved) -> None:
    if args.json:
        _emit_json(result.to_json())
        return
    _emit(f"{result.id}: rung {result.rung}, {result.decided:.1%} decided")
    rows = result.grid if args.rows else service.picture(item, result.grid)
    for row in rows:
        _emit(row)
    for number, step in enumerate(result.steps, 1):
        _emit(f"{number:>4}. [{step.rule}] {step.text}")
    if result.contradiction is not None:
        _emit(f"contradiction: {result.contradiction.text}")
    for note in result.notes:
        _emit(f"note: {note}")
    if result.timed_out:
        _emit("stopped: out of time")


def _show(args: argparse.Namespace) -> int:
    if args.grid == "-" and "-" in args.sources:
        raise UsageError("SOURCE and --grid cannot both be '-' (standard input is read once)")
    items = _load_all(args.sources)
    rows = None if args.grid is None else _grid_rows(args.grid)
    marks = [None if rows is None else service.shading(item, rows) for item in items]
    with _bar(len(items), "puzzles") as bar:
        for item, shaded in zip(items, marks, strict=True):
            note = ""
            if args.solution:
                shaded, note = _solution(item, args.deadline)
            bar.advance()
            picture = service.picture(item, shaded=shaded)
            if args.json:
                _emit_json(
                    {
                        "id": item.id,
                        "genre": item.genre.name,
                        "size": _size(item),
                        "note": note or None,
                        "picture": picture,
                    }
                )
                continue
            _emit(f"{item.id}: {item.genre.title} {_size(item)}" + (f" ({note})" if note else ""))
            for line in picture:
                _emit(line)
    return EXIT_OK


def _solution(item: service.Loaded, deadline: float | None) -> tuple[int | None, str]:
    """The puzzle's solution (the source's, else the first counted) and a note when it is
    not the only one or there is none."""
    if item.solution is not None:
        return item.solution, ""
    counted = service.count(item, 2, deadline)
    if not counted.solutions:
        return None, "no solution" if counted.verdict is Verdict.NONE else "out of time"
    shaded = service.shading(item, counted.solutions[0])
    return shaded, "" if counted.verdict is Verdict.UNIQUE else "one of several solutions"


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
        text = service.convert(item, args.to)
        if args.json:
            _emit_json({"id": item.id, "genre": item.genre.name, "format": args.to, "text": text})
        else:
            _emit(text.removesuffix("\n"))
    return EXIT_OK


def _generate(args: argparse.Namespace) -> int:
    import secrets  # here, not above: it loads OpenSSL's hashes, which counting never needs

    width, height = args.size
    options = {option.name: getattr(args, option.name) for option in args.genre_options}
    seed = secrets.randbelow(RANDOM_SEEDS) if args.seed is None else args.seed
    with _bar(args.count, "boards") as bar:
        for index in range(args.count):
            board = service.generate(
                args.genre, width, height, seed + index, args.difficulty, args.deadline, options
            )
            bar.advance()
            if args.seed is None and index == 0:
                _say_note(f"seed {seed} (picked at random; --seed {seed} makes these boards again)")
            _print_board(args, board)
    return EXIT_OK


def _print_board(args: argparse.Namespace, board: service.Board) -> None:
    if args.json:
        _emit_json(board.to_json())
        return
    health = board.health
    fallback = f"  fallback board {health.fallback}" if health.fallback else ""
    _emit(
        f"{board.code}  seed {board.seed}  {board.difficulty} (rating {board.rating:g}, "
        f"score {board.score:g})  "
        f"{health.attempts} attempt(s), {health.milliseconds:.0f} ms{fallback}"
    )
    for row in board.solution_rows if args.show_solution else ():
        _emit(f"  {row}")
    if args.show:
        shaded = board.solution if args.show_solution else None
        for row in service.picture(board.loaded, shaded=shaded):
            _emit(f"  {row}")


def _study(args: argparse.Namespace) -> int:
    if args.plots is not None:
        charts.require()  # before the study runs, not after
    with _bar(1, "steps", always=True) as bar:
        report = service.study(
            args.genre,
            args.boards,
            args.seed,
            args.deadline,
            lambda done, total: bar.update(done, total),
        )
    if args.json:
        _emit_json(report.to_json())
    elif args.csv:
        _emit(format_csv(report).removesuffix("\n"))
    else:
        _emit(format_markdown(report))
    if args.plots is not None:
        written = charts.draw(report, Path(args.plots))
        names = ", ".join(path.name for path in written)
        _say_note(f"{len(written)} charts in {args.plots}: {names}")
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
    exposed = not _is_loopback(args.host)
    os.environ["GRIDPROOF_EXPOSED"] = "1" if exposed else "0"
    _check_bank()
    if exposed:
        writes = (
            "keeping boards needs the X-Gridproof-Token header"
            if os.environ.get("GRIDPROOF_TOKEN")
            else "keeping boards is refused (set GRIDPROOF_TOKEN to allow it)"
        )
        hosts = "any Host name" if os.environ["GRIDPROOF_HOSTS"] == "*" else "the names allowed"
        _say_note(
            f"warning: serving {args.host} to other machines, answering {hosts}; {writes}; "
            "see 'gridproof serve --help'"
        )
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
    """The Host names the server answers: the address it binds and `--allow-host`; when it
    binds every address, the names `--allow-host` gives, else any (its names are not
    known here)."""
    if host in ("0.0.0.0", "::", ""):
        return list(allowed) or ["*"]
    return [host.strip("[]"), *allowed]


def _is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    return name in ("localhost", "::1") or name.startswith("127.")


def _check_bank() -> None:
    """One clear line, before the server starts, when the bank file cannot be used."""
    import sqlite3

    from gridproof import bank  # the serve command's alone: other commands skip its import

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
        kind = kinds.add_parser(
            genre.name,
            help=f"generate {genre.title} puzzles",
            description=f"Generate {genre.title} puzzles proven unique, graded by the "
            "cheapest rung of the ladder that finishes them alone.",
            epilog=_ladder_help(genre) + "\n\n" + _offered_help(genre),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        kind.set_defaults(genre=genre.name, genre_options=genre.options, command=kind.prog)
        (min_w, min_h), (max_w, max_h) = genre.sizes
        kind.add_argument(
            "--size",
            type=_size_arg,
            required=True,
            metavar="WxH",
            help=f"width x height, e.g. {max(min_w, 10)}x{max(min_h, 10)}; from "
            f"{min_w}x{min_h} to {max_w}x{max_h}",
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
            help="the grade: "
            + ", ".join(f"{grade} ({_grade_meaning(genre, grade)})" for grade in genre.difficulties)
            + " (default: the seed picks one of those the size offers)",
        )
        kind.add_argument(
            "--deadline",
            type=_seconds,
            default=60.0,
            metavar="S",
            help="seconds per board before giving up (default 60)",
        )
        kind.add_argument(
            "--show-solution", action="store_true", help="print the answer too, as rows"
        )
        kind.add_argument(
            "--show",
            action="store_true",
            help="draw each board as gridproof show does (with its answer if --show-solution)",
        )
        for option in genre.options:
            kind.add_argument(
                f"--{option.name}",
                type=option.kind,
                choices=option.choices,
                default=option.default,
                help=option.help,
            )
        _add_json(kind, "one JSON object per board per line")


def _grade_meaning(genre: Genre[Any], grade: str) -> str:
    rungs = [rung.name for rung in genre.ladder.rungs if rung.grade == grade]
    if rungs:
        return "finished by " + " or ".join(rungs)
    return "needs search"


def _offered_help(genre: Genre[Any]) -> str:
    """The grades a few sizes offer (the catalog's), for --help."""
    (low, _), (high, _) = genre.sizes
    sides = sorted({low, min(high, 8), min(high, 12), min(high, 20), high})
    offered = "; ".join(f"{n}x{n}: {', '.join(genre.offered(n, n))}" for n in sides)
    text = f"Grades offered by size (others at that size are refused): {offered}."
    return textwrap.fill(text, HELP_WIDTH)


def _studied() -> list[Genre[Any]]:
    return [g for g in registry.genres().values() if g.study is not None]


ADDERS = {
    "count": _add_count,
    "solve": _add_solve,
    "show": _add_show,
    "validate": _add_validate,
    "convert": _add_convert,
    "generate": _add_generate,
    "study": _add_study,
    "serve": _add_serve,
}
"""Each command this module runs, and the function that adds its parser."""
