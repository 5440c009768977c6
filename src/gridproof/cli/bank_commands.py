"""The bank's commands: fill (in bulk, on a pool or a Dask cluster), stats, export,
import, and the puzzle of the day the server would serve from it."""

from __future__ import annotations

import argparse
import errno
import functools
import os
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path

from gridproof import bank
from gridproof.bank import evidence, filler, runners
from gridproof.bank import io as bankio
from gridproof.cli.common import (
    EXIT_INTERRUPT,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    _add_json,
    _add_output,
    _command,
    _count_arg,
    _emit,
    _emit_json,
    _number,
    _Parser,
    _say_error,
    _say_note,
    _seconds,
    _size_arg,
)
from gridproof.cli.progress import Progress
from gridproof.core import registry
from gridproof.core.errors import quote
from gridproof.service import games


def add_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
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
        default=filler.FILL_SECONDS,
        metavar="S",
        help="seconds per board; a seed the clock ends is tried again "
        f"(default {filler.FILL_SECONDS:g})",
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
    export.add_argument(
        "--format",
        choices=(*bankio.EXPORT_FORMATS, "site"),
        default="jsonl",
        help="site: static shards and an index for the static site, written under --out",
    )
    export.add_argument("--genre", metavar="G", help="only this genre's boards")
    export.add_argument(
        "--out", metavar="DIR", type=Path, help="with --format site: the site's folder"
    )
    _add_output(export)
    load = _command(actions, "import", _bank_import, "count boards from a file and bank them")
    load.add_argument(
        "file",
        metavar="FILE",
        help="JSON lines of codes or puzz.link URLs (or bare ones), or an export's lines "
        "(their seed, generator, options and provenance are kept)",
    )
    load.add_argument(
        "--deadline",
        type=_seconds,
        default=bankio.IMPORT_SECONDS,
        metavar="S",
        help=f"seconds to count one board (default {bankio.IMPORT_SECONDS:g})",
    )
    load.add_argument(
        "--jobs", type=_count_arg, default=1, metavar="J", help="local worker processes (default 1)"
    )
    load.add_argument(
        "--mixed-generators",
        action="store_true",
        help="keep boards another version of the generator made, as they are (new games do "
        "not serve them, and their seeds rebuild them only with that version); without it "
        "such a file is refused",
    )
    _add_json(load, "print the summary as JSON")
    day = _command(
        actions, "daily", _bank_daily, "the puzzle of the day per genre, as the player serves it"
    )
    day.add_argument(
        "--date", type=_date_arg, metavar="YYYY-MM-DD", help="another day's (default: today, UTC)"
    )
    _add_json(day, "print the day's boards as JSON")
    for parser in (fill, stats, export, load, day):
        parser.add_argument(
            "--db",
            metavar="PATH",
            help="the bank's SQLite file (default: the server's, $GRIDPROOF_DB or "
            "~/.local/share/gridproof/bank.sqlite3)",
        )


_Run = Callable[[argparse.Namespace], int]


def _bank_errors(command: _Run) -> _Run:
    """`command` with any failure of the bank file (garbage, truncated, corrupt, read-only,
    a folder, a full disk) one clear line and exit status 2, as `serve` says it."""

    @functools.wraps(command)
    def guarded(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except sqlite3.Error as error:
            raise _unusable(args.db, error) from None

    return guarded


@_bank_errors
def _bank_fill(args: argparse.Namespace) -> int:
    width, height = args.size
    job = filler.check_job(args.genre, width, height, args.difficulty)
    store = _bank(args.db)
    gap = evidence.oracle_gap(registry.genre(job.genre), width, height)
    if gap is not None and filler.kept_since(store, job, args.seed_start) < args.count:
        _say_note(gap)  # only when this fill will bank boards
    task = filler.Task(job, args.deadline, args.check_every)
    runner: runners.Runner[list[filler.Attempt]]
    if args.scheduler is not None:
        cluster = runners.DaskCluster(task, args.scheduler)
        runner, workers = cluster, f"dask {cluster.address} ({cluster.workers} threads)"
    elif args.jobs == 1:
        runner, workers = runners.InProcess(task), "1 local"
    else:
        runner, workers = runners.LocalPool(task, args.jobs), f"{args.jobs} local"
    plan = filler.Plan(job, args.seed_start, args.count, args.chunk)
    try:
        with Progress(plan.count, "boards") as bar:
            tally = filler.fill(store, plan, runner, workers, _show_fill(bar), _wait_note)
    except KeyboardInterrupt:
        _say_note(
            f"interrupted: the job holds {filler.kept_since(store, job, plan.start)} of "
            f"{plan.count} boards; the same command goes on from there"
        )
        return EXIT_INTERRUPT
    _report_fill(args, job, store, tally)
    return EXIT_OK if tally.status == "done" else EXIT_INVALID


def _wait_note(holder: int | None) -> None:
    who = f" (process {holder})" if holder else ""
    _say_note(
        f"another fill of this job into this bank is running{who}: waiting for it to end, "
        "then going on from what it made"
    )


def _show_fill(bar: Progress) -> Callable[[filler.Tally], None]:
    """The fill's tally drawn on the progress bar: boards the job holds, failures."""

    def show(tally: filler.Tally) -> None:
        bar.update(tally.total, tally.target, f"{tally.failures} failures")

    return show


def _report_fill(
    args: argparse.Namespace, job: filler.Job, store: bank.Bank, tally: filler.Tally
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
            f"{filler.CLOCK_TRIES} times; run again, with a longer --deadline"
        )


@_bank_errors
def _bank_stats(args: argparse.Namespace) -> int:
    found = bankio.stats(_bank(args.db))
    if args.json:
        _emit_json(found.to_json())
    else:
        for line in bankio.format_stats(found):
            _emit(line)
    return EXIT_OK


@_bank_errors
def _bank_export(args: argparse.Namespace) -> int:
    if args.format == "site":
        if args.out is None:
            _say_error("bank export --format site needs --out DIR (the site's folder)")
            return EXIT_USAGE
        from gridproof.site import export  # only this format needs it

        wrote = export.export(_bank(args.db), args.out, args.genre)
        print(
            f"wrote {wrote.boards} boards in {wrote.shards} shards of {wrote.keys} settings "
            f"under {args.out / 'bank'}"
        )
        return EXIT_OK
    done = bankio.export(_bank(args.db), sys.stdout, args.format, args.genre)
    sys.stdout.flush()
    if done.without_url and args.format == "urls":
        _say_note(
            f"{done.without_url} board(s) left out: a puzz.link URL cannot hold them "
            "(a form its URL cannot express); --format jsonl exports every board"
        )
    return EXIT_OK


@_bank_errors
def _bank_import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    incoming = bankio.read_import(path, mixed=args.mixed_generators)
    store = _bank(args.db)
    runner = None
    if args.jobs > 1:
        task = bankio.ImportTask(str(path.resolve()), path.name, args.deadline)
        runner = runners.LocalPool(task, args.jobs)
    done = bankio.import_boards(store, incoming, path.name, args.deadline, runner)
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


@_bank_errors
def _bank_daily(args: argparse.Namespace) -> int:
    today = args.date or time.strftime("%Y-%m-%d", time.gmtime())
    chosen = games.daily(_bank(args.db), today)
    if args.json:
        _emit_json({"date": today, "boards": [each.to_json() for each in chosen]})
        return EXIT_OK
    if not chosen:
        _say_note(f"the bank holds no board of the day's setting ({_daily_setting()})")
    for each in chosen:
        _emit(f"{today} {each.genre} {each.size} {each.difficulty} {each.code}")
    return EXIT_OK


def _daily_setting() -> str:
    (width, height), grade = games.DAILY
    return f"{width}x{height} {grade}"


def _date_arg(text: str) -> str:
    try:
        parsed = time.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a date like 2026-12-02") from None
    return time.strftime("%Y-%m-%d", parsed)


def _bank(db: str | None) -> bank.Bank:
    try:
        return bank.Bank(Path(db).expanduser() if db else bank.default_path())
    except (sqlite3.Error, OSError) as error:
        raise _unusable(db, error) from None


def _unusable(db: str | None, error: Exception) -> UsageError:
    path = str(Path(db).expanduser()) if db else str(bank.default_path())
    reason = " ".join(str(error).split()) or type(error).__name__
    advice = "move it aside or pass --db PATH"
    if "full" in reason or getattr(error, "errno", None) == errno.ENOSPC or _no_space(path):
        reason, advice = f"the disk holding it is full ({reason})", "free some space"
    shown = repr(path if len(path) <= 80 else "…" + path[-79:])  # the file's name stays
    return UsageError(f"the puzzle bank {shown} cannot be used: {reason} ({advice})")


def _seed_start(text: str) -> int:
    value = _number(text, int, "a whole number")
    if not 0 <= value < 2**62:
        raise argparse.ArgumentTypeError(f"must be between 0 and 2**62, got {text}")
    return value


def _no_space(path: str) -> bool:
    """Whether the disk holding `path` has no space left (SQLite calls that a "disk I/O
    error" when it cannot make its journal)."""
    try:
        found = os.statvfs(Path(path).parent)
    except OSError:
        return False
    return found.f_bavail == 0


ADDERS = {"bank": add_commands}
"""Each command this module runs, and the function that adds its parser."""
