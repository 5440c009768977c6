"""The `gridproof` command: parses arguments, calls `gridproof.service`, prints the results.

Bad input of any kind is one line on stderr and exit status 2; `validate` exits 1 when the
grid breaks a rule, `generate` when no board could be proven in time, `bank fill` when it
gave up before the count, `bank import` when some boards were not kept.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from gridproof import bank, bankfill, bankio, evidence, picture, runners, service, workshop
from gridproof.core import registry
from gridproof.core.codes import parse_size
from gridproof.core.contract import Genre
from gridproof.core.errors import GenerationError, GridproofError, quote
from gridproof.core.grid import bits, cell_name
from gridproof.core.outcome import Verdict
from gridproof.version import __version__

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_PIPE, EXIT_INTERRUPT = 0, 1, 2, 141, 130
MAX_GRID_FILE_BYTES = 1024 * 1024
_N = TypeVar("_N", int, float)


class UsageError(Exception):
    """A bad command line; `main` prints it as one line and exits 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: `sys.argv[1:]`) and return the exit status."""
    try:
        try:
            args = _parser().parse_args(argv)
        except SystemExit as done:  # --help, --version
            return done.code if isinstance(done.code, int) else EXIT_OK
        status: int = args.run(args)
        return status
    except GenerationError as error:
        _say_error(f"{error}; health: {json.dumps(error.health)}")
        return EXIT_INVALID
    except (UsageError, GridproofError) as error:
        _say_error(str(error))
        return EXIT_USAGE
    except MemoryError:
        _say_error("out of memory: the board needs more memory than this machine gives")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPT
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE


# --- commands ----------------------------------------------------------------------------


def _count(args: argparse.Namespace) -> int:
    items = _load_all(args.sources)
    tally: dict[str, int] = {}
    mismatches = 0
    for item in items:
        result = service.count(item, args.limit, args.deadline)
        verdict = str(result.verdict)
        tally[verdict] = tally.get(verdict, 0) + 1
        mismatched = item.expected is not None and item.expected != verdict
        mismatches += mismatched
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
    return EXIT_OK


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
        _emit(service.convert(item, args.to))
    return EXIT_OK


def _generate(args: argparse.Namespace) -> int:
    width, height = args.size
    options = {option.name: getattr(args, option.name) for option in args.genre_options}
    for index in range(args.count):
        board = service.generate(
            args.genre, width, height, args.seed + index, args.difficulty, args.deadline, options
        )
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


def _fix(args: argparse.Namespace) -> int:
    items = _load_all(args.sources)
    keeps = [
        workshop.parse_keep(item, None if args.keep is None else _grid_rows(args.keep))
        for item in items
    ]
    all_unique = True
    for item, keep in zip(items, keeps, strict=True):
        deadline = service.as_deadline(args.deadline)
        repairs = workshop.suggest(item, keep, deadline, args.limit)
        made = workshop.make_unique(item, keep, deadline) if args.make_unique else None
        unique = (made.report if made else repairs.report).outcome is Verdict.UNIQUE
        all_unique &= unique
        if args.json:
            _emit_json({**repairs.to_json(), **({"made": made.to_json()} if made else {})})
            continue
        _print_repairs(repairs)
        if made is not None:
            _print_made(made)
    return EXIT_OK if all_unique else EXIT_INVALID


def _print_repairs(repairs: workshop.Repairs) -> None:
    report = repairs.report
    loaded = report.loaded
    _emit(f"{loaded.id}: {report.outcome}. {report.text}")
    if report.keep_problem:
        _emit(f"  note: {report.keep_problem}")
    width = loaded.puzzle.width
    if report.outcome is Verdict.MULTIPLE:
        _emit("  they differ at " + " ".join(cell_name(c, width) for c in bits(report.differ)))
        grids = [loaded.genre.format_grid(loaded.puzzle, s) for s in report.solutions]
        for left, right in zip(*grids, strict=True):
            _emit(f"  {left}   {right}")
    if report.reason is not None and report.reason.cells:
        _emit("  at " + " ".join(cell_name(c, width) for c in report.reason.cells))
    if report.outcome in (Verdict.MULTIPLE, Verdict.NONE):
        _emit("suggested edits, best first:" if repairs.edits else "no single edit found")
    for number, s in enumerate(repairs.edits, 1):
        grade = f", {s.grade}" if s.grade else ""
        _emit(f"  {number}. {s.edit.text}: {s.outcome}{grade}")
        _emit(f"     {loaded.genre.format_code(s.edit.puzzle)}")
    if not repairs.complete:
        _emit("  (stopped by the deadline before every edit was tried)")


def _print_made(made: workshop.Made) -> None:
    report = made.report
    edits = "; ".join(made.applied) or "none needed"
    _emit(f"make unique: {report.outcome} after {len(made.applied)} edit(s) ({edits})")
    _emit(f"  {report.loaded.genre.format_code(report.loaded.puzzle)}")


def _picture(args: argparse.Namespace) -> int:
    genre = registry.genre("nonogram")
    assert genre.from_picture is not None
    width, height = args.size
    shaded = picture.read_picture(args.file, width, height, args.threshold)
    loaded = service.Loaded(Path(args.file).name, genre, genre.from_picture(width, height, shaded))
    made = None
    if args.unique:
        made = workshop.make_unique(loaded, shaded, service.as_deadline(args.deadline))
        loaded, shaded = made.report.loaded, made.keep if made.keep is not None else shaded
    code = genre.format_code(loaded.puzzle)
    if args.json:
        extra = made.to_json() if made else {}
        _emit_json(
            {
                **extra,
                "code": code,
                "puzzle": genre.to_json(loaded.puzzle),
                "picture": genre.format_grid(loaded.puzzle, shaded),
            }
        )
        return EXIT_OK
    _emit(code)
    for row in genre.format_grid(loaded.puzzle, shaded):
        _emit(f"  {row}")
    if made is not None:
        _print_made(made)
    return EXIT_OK


def _study(args: argparse.Namespace) -> int:
    _emit(service.study(args.genre, args.boards, args.seed, args.deadline))
    return EXIT_OK


def _serve(args: argparse.Namespace) -> int:
    import uvicorn  # only this command needs the web stack

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


def _served_hosts(host: str, allowed: Sequence[str]) -> list[str]:
    """The Host names the server answers: the address it binds and `--allow-host`; any
    name when it binds every address (its names are not known here)."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    return [host.strip("[]"), *allowed]


def _check_bank() -> None:
    """One clear line, before the server starts, when the bank file cannot be used."""
    import sqlite3

    from gridproof import bank

    path = os.environ.get("GRIDPROOF_DB") or str(bank.default_path())
    try:
        bank.Bank(path)
    except (sqlite3.Error, OSError) as error:
        raise UsageError(
            f"the puzzle bank {quote(path)} cannot be used: {error} "
            "(move it aside or pass --db PATH)"
        ) from None


# --- arguments ---------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gridproof",
        description="Pencil puzzles proven to have exactly one solution.",
        epilog="SOURCE: a puzzle code (GENRE.VERSION.PARAMS.PAYLOAD), a puzz.link URL, "
        'or a JSON file holding one puzzle or a corpus {"genre", "puzzles": [...]} '
        f"(at most {service.MAX_FILE_BYTES // 2**20} MB). The largest boards read: "
        f"{service.largest_boards()}; larger ones are refused.",
    )
    parser.add_argument("--version", action="version", version=f"gridproof {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    count = _command(commands, "count", _count, "count the solutions of every puzzle")
    count.add_argument("sources", nargs="+", metavar="SOURCE")
    count.add_argument(
        "--limit", type=_limit, default=2, help="stop after N solutions (at least 2; default 2)"
    )
    _add_deadline(count)
    _add_json(count, "one JSON object per puzzle per line")

    solve = _command(commands, "solve", _solve, "run one rung of the ladder and show its steps")
    solve.add_argument("sources", nargs="+", metavar="SOURCE")
    solve.add_argument("--rules", required=True, metavar="RUNG", help="the rung of the ladder")
    _add_deadline(solve)
    _add_json(solve, "one JSON object per puzzle per line")

    check = _command(commands, "validate", _validate, "list the rules a grid breaks")
    check.add_argument("source", metavar="SOURCE", help="exactly one puzzle")
    check.add_argument(
        "--grid",
        required=True,
        metavar="ROWS",
        help="rows joined by '/' or ',' (e.g. '##../....'), or a text file of rows",
    )
    _add_json(check, "print the violations as JSON")

    convert = _command(commands, "convert", _convert, "print puzzles in another format")
    convert.add_argument("sources", nargs="+", metavar="SOURCE")
    convert.add_argument("--to", required=True, choices=service.FORMATS)

    _add_generate(commands)
    _add_workshop(commands)

    study = _command(commands, "study", _study, "reproduce a genre's design-note measurements")
    study.add_argument("genre", choices=sorted(g.name for g in _studied()), metavar="GENRE")
    study.add_argument("--boards", type=_count_arg, default=60, help="boards per size (default 60)")
    study.add_argument("--seed", type=_seed, default=1, help="first seed (default 1)")
    _add_deadline(study)

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
    _add_bank(commands)
    return parser


def _add_generate(commands: argparse._SubParsersAction[_Parser]) -> None:
    generate = _command(commands, "generate", _generate, "generate puzzles proven unique")
    kinds = generate.add_subparsers(title="genres", metavar="GENRE", required=True)
    for genre in registry.genres().values():
        kind = kinds.add_parser(genre.name, help=f"generate {genre.title} puzzles")
        kind.set_defaults(genre=genre.name, genre_options=genre.options)
        kind.add_argument("--size", type=_size_arg, required=True, metavar="WxH")
        kind.add_argument("--seed", type=_seed, required=True, metavar="S")
        kind.add_argument("--count", type=_count_arg, default=1, metavar="N")
        kind.add_argument("--difficulty", choices=genre.difficulties)
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


def _add_workshop(commands: argparse._SubParsersAction[_Parser]) -> None:
    fix = _command(
        commands,
        "fix",
        _fix,
        "say whether puzzles are unique and suggest the single edits that repair them "
        "(exit status 1 when one is not unique)",
    )
    fix.add_argument("sources", nargs="+", metavar="SOURCE")
    fix.add_argument(
        "--keep",
        metavar="ROWS",
        help="the solution to keep, as --grid of validate takes it (default: the first found)",
    )
    fix.add_argument("--limit", type=_count_arg, default=6, help="edits listed (default 6)")
    fix.add_argument(
        "--make-unique", action="store_true", help="also apply edits until the count is one"
    )
    fix.add_argument(
        "--deadline",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="seconds per puzzle (default 30)",
    )
    _add_json(fix, "one JSON object per puzzle per line")

    pic = _command(commands, "picture", _picture, "make a Nonogram from a picture file")
    pic.add_argument("file", metavar="FILE", help="a PNG, JPEG, GIF or BMP picture")
    pic.add_argument("--size", type=_size_arg, required=True, metavar="WxH")
    pic.add_argument(
        "--threshold",
        type=_grey,
        default=128,
        metavar="T",
        help="cells darker than T (0 black .. 256) are shaded (default 128)",
    )
    pic.add_argument(
        "--unique",
        action="store_true",
        help="flip the fewest pixels the repair finds to make the puzzle unique",
    )
    pic.add_argument(
        "--deadline",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="seconds for --unique (default 30)",
    )
    _add_json(pic, "print the puzzle as one JSON object")


def _studied() -> list[Genre[Any]]:
    return [g for g in registry.genres().values() if g.study is not None]


def _command(
    commands: argparse._SubParsersAction[_Parser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    text: str,
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(name, help=text, description=text)
    parser.set_defaults(run=run)
    return parser


def _add_deadline(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deadline", type=_seconds, metavar="S", help="give up after S seconds (default: never)"
    )


def _add_json(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--json", action="store_true", help=text)


def _size_arg(text: str) -> tuple[int, int]:
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


# --- the bank commands ---------------------------------------------------------------------


def _add_bank(commands: argparse._SubParsersAction[_Parser]) -> None:
    text = "fill the puzzle bank in bulk, and show, export or import its boards"
    group = commands.add_parser("bank", help=text, description=text)
    actions = group.add_subparsers(title="bank commands", metavar="ACTION", required=True)

    fill = _command(
        actions, "fill", _bank_fill, "generate boards for seeds K, K+1, ... and bank them"
    )
    fill.add_argument("--genre", required=True, metavar="G")
    fill.add_argument("--size", type=_size_arg, required=True, metavar="WxH")
    fill.add_argument("--difficulty", metavar="D", help="the grade (default: each seed picks one)")
    fill.add_argument(
        "--count", type=_count_arg, required=True, metavar="N", help="boards the job should hold"
    )
    fill.add_argument(
        "--seed-start", type=_seed_start, default=1, metavar="K", help="first seed (default 1)"
    )
    where = fill.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs", type=_count_arg, default=1, metavar="J", help="local worker processes (default 1)"
    )
    where.add_argument(
        "--scheduler", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://10.0.0.5:8786"
    )
    fill.add_argument(
        "--deadline",
        type=_seconds,
        default=bankfill.FILL_SECONDS,
        metavar="S",
        help="seconds per board; a seed the clock ends is tried again "
        f"(default {bankfill.FILL_SECONDS:g})",
    )
    fill.add_argument(
        "--check-every",
        type=_count_arg,
        default=evidence.CHECK_EVERY,
        metavar="N",
        help="count one board in N again with an independent counter (default "
        f"{evidence.CHECK_EVERY}; every board above {evidence.ALWAYS_CHECKED_ABOVE}, always)",
    )
    fill.add_argument(
        "--chunk", type=_count_arg, metavar="N", help="seeds per task (default: automatic)"
    )
    _add_json(fill, "print the summary as JSON")

    stats = _command(actions, "stats", _bank_stats, "boards, failures and fills of the bank")
    _add_json(stats, "print the statistics as JSON")
    export = _command(actions, "export", _bank_export, "print the bank's boards, one a line")
    export.add_argument("--format", choices=bankio.EXPORT_FORMATS, default="jsonl")
    export.add_argument("--genre", metavar="G", help="only this genre's boards")
    load = _command(actions, "import", _bank_import, "count boards from a file and bank them")
    load.add_argument(
        "file", metavar="FILE", help="JSON lines of codes or puzz.link URLs (or bare ones)"
    )
    load.add_argument(
        "--deadline",
        type=_seconds,
        default=bankio.IMPORT_SECONDS,
        metavar="S",
        help=f"seconds to count one board (default {bankio.IMPORT_SECONDS:g})",
    )
    _add_json(load, "print the summary as JSON")
    for parser in (fill, stats, export, load):
        parser.add_argument(
            "--db",
            metavar="PATH",
            help="the bank's SQLite file (default: the server's, $GRIDPROOF_DB or "
            "~/.local/share/gridproof/bank.sqlite3)",
        )


def _bank_fill(args: argparse.Namespace) -> int:
    width, height = args.size
    job = bankfill.check_job(args.genre, width, height, args.difficulty)
    store = _bank(args.db)
    gap = evidence.oracle_gap(registry.genre(job.genre), width, height)
    if gap is not None:
        _say_note(gap)
    task = bankfill.Task(job, args.deadline, args.check_every)
    runner: runners.Runner[list[bankfill.Attempt]]
    if args.scheduler is not None:
        cluster = runners.DaskCluster(task, args.scheduler)
        runner, workers = cluster, f"dask {cluster.address} ({cluster.workers} threads)"
    elif args.jobs == 1:
        runner, workers = runners.InProcess(task), "1 local"
    else:
        runner, workers = runners.LocalPool(task, args.jobs), f"{args.jobs} local"
    plan = bankfill.Plan(job, args.seed_start, args.count, args.chunk)
    progress = bankfill.Progress(sys.stderr)
    try:
        tally = bankfill.fill(store, plan, runner, workers, progress)
    except KeyboardInterrupt:
        progress.finish()
        _say_note(
            f"interrupted: the job holds {bankfill.kept_since(store, job, plan.start)} of "
            f"{plan.count} boards; the same command goes on from there"
        )
        return EXIT_INTERRUPT
    progress.finish()
    _report_fill(args, job, store, tally)
    return EXIT_OK if tally.status == "done" else EXIT_INVALID


def _report_fill(
    args: argparse.Namespace, job: bankfill.Job, store: bank.Bank, tally: bankfill.Tally
) -> None:
    seconds = tally.elapsed()
    rate = tally.kept / seconds * 60 if seconds > 0 else 0.0
    if args.json:
        _emit_json(
            {
                "job": job.describe(),
                "status": tally.status,
                "boards": tally.total,
                "target": tally.target,
                "kept": tally.kept,
                "duplicates": tally.duplicates,
                "misses": tally.misses,
                "retries": tally.retries,
                "checked": tally.checked,
                "unchecked": tally.unchecked,
                "seeds": [tally.first, tally.last],
                "seconds": round(seconds, 3),
                "boards_per_minute": round(rate, 1),
                "db": str(store.path),
            }
        )
        return
    held = f"{job.describe()}: {tally.total} of {tally.target} boards"
    if tally.first is None:
        _emit(f"{held}; nothing to do (bank {store.path})")
    else:
        _emit(
            f"{held}; this run {tally.kept} new from seeds {tally.first}-{tally.last} "
            f"({tally.duplicates} duplicates, {tally.misses} misses, {tally.retries} ended by "
            f"the clock and tried again, {tally.checked} checked by an independent counter) "
            f"in {seconds:.1f} s, {rate:,.1f} boards/min (bank {store.path})"
        )
    if tally.unchecked:
        _say_note(f"{tally.unchecked} boards were due an independent check that no oracle ran")
    if tally.status == "gave up":
        _say_note(
            f"gave up: the seeds tried in this run gave only {tally.kept} new boards; the "
            f"job may hold few different boards of this size and grade"
        )
    elif tally.status == "stopped":
        _say_note(
            f"stopped before seed {tally.stopped_at}: the clock ended it "
            f"{bankfill.CLOCK_TRIES} times; run again, with a longer --deadline"
        )


def _bank_stats(args: argparse.Namespace) -> int:
    found = bankio.stats(_bank(args.db))
    if args.json:
        _emit_json(found.to_json())
    else:
        for line in bankio.format_stats(found):
            _emit(line)
    return EXIT_OK


def _bank_export(args: argparse.Namespace) -> int:
    bankio.export(_bank(args.db), sys.stdout, args.format, args.genre)
    sys.stdout.flush()
    return EXIT_OK


def _bank_import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    incoming = bankio.read_import(path)
    store = _bank(args.db)
    done = bankio.import_boards(store, incoming, path.name, args.deadline)
    if args.json:
        rejected = [{"line_number": number, "reason": why} for number, why in done.rejected]
        _emit_json({"kept": done.kept, "duplicates": done.duplicates, "rejected": rejected})
    else:
        for line, why in done.rejected:
            _emit(f"{path.name} line {line}: not kept: {why}")
        _emit(
            f"{len(incoming)} boards read: {done.kept} kept, {done.duplicates} already banked, "
            f"{len(done.rejected)} not kept; bank {store.path}"
        )
    return EXIT_INVALID if done.rejected else EXIT_OK


def _bank(db: str | None) -> bank.Bank:
    return bank.Bank(Path(db).expanduser() if db else bank.default_path())


def _seed_start(text: str) -> int:
    value = _number(text, int, "a whole number")
    if not 0 <= value < 2**62:
        raise argparse.ArgumentTypeError(f"must be between 0 and 2**62, got {text}")
    return value


def _say_note(message: str) -> None:
    print(f"gridproof: {' '.join(message.split())}", file=sys.stderr, flush=True)


# --- input and output --------------------------------------------------------------------


def _load_all(sources: Sequence[str]) -> list[service.Loaded]:
    """Every puzzle of every source, all read before any work starts."""
    return [item for source in sources for item in service.load(source)]


def _load_one(source: str, command: str) -> service.Loaded:
    items = service.load(source)
    if len(items) != 1:
        raise UsageError(f"{command} needs one puzzle; {quote(source)} holds {len(items)}")
    return items[0]


def _grid_rows(text: str) -> list[str]:
    """Rows from `a/b/c`, `a,b,c` or the path of a text file with one row per line."""
    path = Path(text)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        try:
            if path.stat().st_size > MAX_GRID_FILE_BYTES:
                raise UsageError(f"grid file {quote(text)} is too large")
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read grid file {quote(text)}: {error}") from None
    else:
        lines = text.replace(",", "/").split("/")
    rows = [line.strip() for line in lines if line.strip()]
    if not rows:
        raise UsageError(f"--grid {quote(text)} holds no rows")
    return rows


def _size(item: service.Loaded) -> str:
    return f"{item.puzzle.width}x{item.puzzle.height}"


def _emit(line: str) -> None:
    print(_printable(line), flush=True)


def _emit_json(value: dict[str, Any]) -> None:
    _emit(json.dumps(value))


def _say_error(message: str) -> None:
    one_line = " ".join(message.split())
    print(f"gridproof: error: {_printable(one_line)}", file=sys.stderr, flush=True)


def _printable(text: str) -> str:
    """`text` with anything that is not a character (a lone surrogate from a file name or
    an argument) written as an escape, so printing it cannot fail."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # stdout is not a real file (tests, embedding): nothing will flush it at exit
