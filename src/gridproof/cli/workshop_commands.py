"""The workshop's commands: fix (is it unique, and the edits that repair it) and picture
(a Nonogram from a picture file)."""

from __future__ import annotations

import argparse
from pathlib import Path

from gridproof import service
from gridproof.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    UsageError,
    _add_json,
    _command,
    _count_arg,
    _emit,
    _emit_json,
    _grey,
    _grid_rows,
    _Parser,
    _seconds,
    _size_arg,
)
from gridproof.cli.sources import _load_all
from gridproof.core import registry
from gridproof.core.grid import bits, cell_name
from gridproof.core.outcome import Verdict
from gridproof.output import picture
from gridproof.service import workshop


def _add_fix(commands: argparse._SubParsersAction[_Parser]) -> None:
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
        "--make-unique",
        action="store_true",
        help="also walk counterexamples until the count is one (each edit breaks the rival "
        "and keeps the solution); when it stops, the board reached is printed to go on from",
    )
    fix.add_argument(
        "--minimize",
        action="store_true",
        help="for a unique puzzle, also list the givens it does not need (each on its own)",
    )
    fix.add_argument(
        "--deadline",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="seconds per puzzle (default 30)",
    )
    _add_json(fix, "one JSON object per puzzle per line")


def _add_picture(commands: argparse._SubParsersAction[_Parser]) -> None:
    pic = _command(commands, "picture", _picture, "make a Nonogram from a picture file")
    pic.add_argument(
        "file", metavar="FILE", help="a PNG, JPEG, GIF, BMP or WebP picture (at most 16 MP)"
    )
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


def _fix(args: argparse.Namespace) -> int:
    if args.keep == "-" and "-" in args.sources:
        raise UsageError("SOURCE and --keep cannot both be '-' (standard input is read once)")
    items = _load_all(args.sources)
    keep_rows = None if args.keep is None else _grid_rows(args.keep)
    keeps = [workshop.parse_keep(item, keep_rows) for item in items]
    all_unique = True
    for item, keep in zip(items, keeps, strict=True):
        deadline = service.as_deadline(args.deadline)
        repairs = workshop.suggest(item, keep, deadline, args.limit)
        made = workshop.make_unique(item, keep, deadline) if args.make_unique else None
        final = made.report if made else repairs.report
        unique = final.outcome is Verdict.UNIQUE
        all_unique &= unique
        lean = None
        if args.minimize:
            kept = made.keep if made else keep
            lean = workshop.minimize(final.loaded, kept, deadline)
        if args.json:
            extra = {"made": made.to_json()} if made else {}
            if lean is not None:
                extra["minimized"] = lean.to_json()
            _emit_json({**repairs.to_json(), **extra})
            continue
        _print_repairs(repairs)
        if made is not None:
            _print_made(made)
        if lean is not None:
            _print_minimized(lean)
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
        if repairs.edits:
            _emit("suggested edits, best first:")
        elif repairs.complete:
            _emit("no single edit of the genre's vocabulary helps (try --make-unique)")
        else:
            _emit("no single edit found before the deadline (allow more time with --deadline)")
    for number, s in enumerate(repairs.edits, 1):
        grade = f", {s.grade}" if s.grade else ""
        _emit(f"  {number}. {s.edit.text}: {s.outcome}{grade}")
        _emit(f"     {loaded.genre.format_code(s.edit.puzzle)}")
    if not repairs.complete:
        _emit("  (stopped by the deadline before every edit was tried)")


def _print_made(made: workshop.Made) -> None:
    report = made.report
    _emit(f"make unique: {made.text}")
    for number, text in enumerate(made.applied, 1):
        _emit(f"  {number}. {text}")
    genre, puzzle = report.loaded.genre, report.loaded.puzzle
    _emit(f"  {genre.format_code(puzzle)}")
    if report.outcome is not Verdict.UNIQUE and made.keep is not None:
        keep = "/".join(genre.format_grid(puzzle, made.keep))
        _emit(
            f"  to go on: gridproof fix --make-unique --keep '{keep}' '{genre.format_code(puzzle)}'"
        )


def _print_minimized(lean: workshop.Minimized) -> None:
    _emit(f"minimize: {lean.text}")
    for spare in lean.spares:
        _emit(f"  - {spare.text}")
    if not lean.complete:
        _emit("  (stopped by the deadline before every given was tried)")


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


ADDERS = {"fix": _add_fix, "picture": _add_picture}
"""Each command this module runs, and the function that adds its parser."""
