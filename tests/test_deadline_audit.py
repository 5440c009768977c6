"""The deadline audit: every user-facing call, on degenerate boards at the largest size its
parser accepts, ends within its deadline plus a margin and under a memory ceiling.

This is a contract check of the deadline, not a speed test: a call may answer `timeout`,
but it must answer in time. For each genre and entry point (`service.count`,
`service.solve` with the top rung, `play.hint`, `play.check`, `service.validate`,
`workshop.examine`, `workshop.suggest`, `workshop.make_unique`, `workshop.minimize`, and
the web's `/api/count`, `/api/hint`, `/api/check`, `/api/validate`,
`/api/workshop/verdict`), on boards made to hurt:
Norinori and Nondango at 100x100 (one region, stripes of 1-row regions, columns,
interlocking combs; Nondango with a circle in every cell) and a Norinori 100x2 of stripes;
Nonograms at 1024x1024 (empty clues, full lines, alternating `1 1 1 ...` clues, a
permuted picture). The web takes at most 1000 rows and 100,000 characters of source, so
its Nonograms are the largest of each kind that fit (1000 where the code does).

How it is measured: each call runs in its own child process forked from a fresh
multiprocessing forkserver that has imported gridproof and the web app (so a call pays no
import, and no test process state leaks into it). The board (and for the web a TestClient
on a temporary bank) is built first, untimed; then the child times the one call.
- Wall: the call's own `perf_counter` time; once it has used more CPU than deadline +
  margin + `GRACE_S` (or been waited for `STARVED_FACTOR` times its limit), the parent
  kills it and reports the time it waited (`killed`). The call's CPU time is reported
  beside it. A call passes when its wall time is within its limit, or, on a machine that
  starved it (other jobs had the cores), when its CPU time is within `STARVED_SHARE` of
  the limit: it stopped working at its deadline, which is what the code controls.
- Peak memory: the child's peak resident set (`ru_maxrss` when it answers, `VmHWM` from
  /proc read just before a kill), including the ~60-90 MB of interpreter and imports it
  starts with. The ceiling is on that peak RSS, `CEILING_MB` = 512. Virtual size is not the
  measure (thread stacks and malloc arenas reserve address space never used); a guard
  `RLIMIT_AS` of `GUARD_MB` only keeps a runaway call from taking the shared machine down
  (it then fails with MemoryError, reported as such).
The deadline is `DEADLINE_S` (2 s) where the caller chooses it; `/api/hint` and
`/api/check` take no deadline from the client and run under the app's own (`ANSWER_S` +
`HINT_S`, 8 s); `service.validate`, `play.check` and `/api/validate` take none at all and
are held to `DEADLINE_S`. The margin is max(0.5 s, 10%).

Each case is a test of its own, measured when it runs, so none runs for long and
`-k` picks cases; the 10,000-cell boards and up are marked slow (still part of `make
test`). `python tests/test_deadline_audit.py [--grace S]`
prints the whole table (with a longer grace it measures how long failing calls really
take).
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import os
import random
import re
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.audit

DEADLINE_S = 2.0
CEILING_MB = 512
GUARD_MB = 2048
GRACE_S = float(os.environ.get("GRIDPROOF_AUDIT_GRACE", "1.0"))
"""How long past deadline + margin the parent waits before killing a call."""
SETUP_S = 180.0
POLL_S = 0.05
STARVED_SHARE = 0.75
"""A call whose wall time ran past its limit passes only if it used at most this share of
the limit in CPU time: the machine starved it (other jobs had the cores), and it did not
work past its deadline. A call that works past it uses about as much CPU as wall time."""
STARVED_FACTOR = 4.0
"""A starved call is waited for up to this many times its limit before it is killed; one
that uses more CPU than its limit is killed as soon as it does."""
JOBS = int(os.environ.get("GRIDPROOF_AUDIT_JOBS", "1"))
"""Cases the table (`python tests/test_deadline_audit.py`) measures at once (`--jobs`)."""
ANSWER_SHARE = 5 / 8
"""Of a hint's or a check's time, the share the web app gives counting the solution
(`ANSWER_S` of `ANSWER_S + HINT_S`); the audit's in-process calls split theirs alike."""


def largest(genre: str) -> tuple[int, int]:
    """The largest board `genre`'s parsers accept (`Genre.largest`; the model's `MAX_SIDE`
    before there was one)."""
    from gridproof.core import registry

    found = getattr(registry.genre(genre), "largest", None)
    if found is not None:
        return int(found[0]), int(found[1])
    side = importlib.import_module(f"gridproof.genres.{genre}.model").MAX_SIDE
    return side, side


def _web_limit(name: str) -> int:
    from gridproof.web import models

    return int(getattr(models, name))


NONOGRAM_SIDE = min(largest("nonogram"))
WEB_ROWS = min(_web_limit("MAX_GRID_ROWS"), _web_limit("WEB_MAX_SIDE"), NONOGRAM_SIDE)
"""The web takes at most this many rows of marks or grid (and of Nonogram side)."""
WEB_SOURCE_CHARS = _web_limit("MAX_SOURCE_CHARS")


def margin(deadline_s: float) -> float:
    return max(0.5, 0.1 * deadline_s)


# --- boards ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    genre: str
    kind: str
    width: int
    height: int
    """0 by 0: the largest Nonogram of `kind` a web source holds (found in the child)."""

    @property
    def label(self) -> str:
        size = f"{self.width}x{self.height}" if self.width else "web-largest"
        return f"{self.genre}-{size}-{self.kind}"

    @property
    def cells(self) -> int:
        return self.width * self.height if self.width else WEB_ROWS**2

    def resolved(self) -> Board:
        if self.width:
            return self
        side = web_side(self.kind)
        return Board(self.genre, self.kind, side, side)


def region_rows(kind: str, width: int, height: int) -> list[list[int]]:
    """Region ids per cell: one region, 1-row stripes, columns, or two interlocking combs
    (the top row and the even columns down to the last row but one; the rest)."""
    if kind == "one-region":
        return [[0] * width for _ in range(height)]
    if kind == "stripes":
        return [[r] * width for r in range(height)]
    if kind == "columns":
        return [list(range(width)) for _ in range(height)]
    if kind == "combs":
        return [
            [0 if r == 0 or (c % 2 == 0 and r < height - 1) else 1 for c in range(width)]
            for r in range(height)
        ]
    raise ValueError(kind)


def nonogram_picture(kind: str, side: int) -> list[str] | None:
    """The picture behind a Nonogram (None for clue-only kinds): alternating is a
    checkerboard; the permuted picture is a filled disc with rows and columns shuffled."""
    if kind == "alternating":
        return ["".join("#" if (r + c) % 2 == 0 else "." for c in range(side)) for r in range(side)]
    if kind == "permuted-picture":
        rng = random.Random(17)
        centre, radius = (side - 1) / 2, side * 0.4
        disc = [
            "".join(
                "#" if (r - centre) ** 2 + (c - centre) ** 2 <= radius**2 else "."
                for c in range(side)
            )
            for r in range(side)
        ]
        rows, cols = list(range(side)), list(range(side))
        rng.shuffle(rows)
        rng.shuffle(cols)
        return ["".join(disc[r][c] for c in cols) for r in rows]
    return None


def _runs(line: str) -> tuple[int, ...]:
    return tuple(len(run) for run in re.findall("#+", line))


def nonogram_clues(kind: str, side: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """(row clues, column clues) of a degenerate Nonogram."""
    if kind == "empty":
        return [()] * side, [()] * side
    if kind == "full":
        return [(side,)] * side, [(side,)] * side
    picture = nonogram_picture(kind, side)
    assert picture is not None
    columns = ["".join(col) for col in zip(*picture, strict=True)]
    return [_runs(row) for row in picture], [_runs(col) for col in columns]


def _code_chars(kind: str, side: int) -> int:
    """The length of the Nonogram code of a board, from its clues (see nonogram.codec)."""

    def gamma(value: int) -> int:
        return 2 * (value.bit_length() - 1) + 1

    rows, cols = nonogram_clues(kind, side)  # uncached: trial sizes are thrown away
    bits = sum(gamma(len(clue) + 1) + sum(gamma(v) for v in clue) for clue in cols + rows)
    return len("nonogram.1.") + len(f"{side}x{side}.") + (bits + 7) // 8 * 4 // 3 + 2


def web_side(kind: str) -> int:
    """The largest side, up to the web's 1000 rows, whose Nonogram code fits in a web
    source: 1000 for empty and full lines, else found from a few trial sizes."""
    side = WEB_ROWS
    chars = _code_chars(kind, side)
    while chars > WEB_SOURCE_CHARS:
        side = max(1, int(side * (WEB_SOURCE_CHARS / chars) ** 0.5))
        chars = _code_chars(kind, side)
    while side < WEB_ROWS and _code_chars(kind, side + 1) <= WEB_SOURCE_CHARS:
        side += 1
    return side


def make_puzzle(board: Board) -> Any:
    from gridproof.core import registry

    genre = registry.genre(board.genre)
    if board.genre == "nonogram":
        from gridproof.genres.nonogram.model import make_puzzle as nonogram

        rows, cols = nonogram_clues(board.kind, board.width)
        return nonogram(rows, cols)
    regions = region_rows(board.kind, board.width, board.height)
    if board.genre == "nondango":
        from gridproof.genres.nondango.model import make_puzzle as nondango

        circles = [[1] * board.width for _ in range(board.height)]
        return nondango(regions, circles)
    assert genre.name == "norinori"
    from gridproof.genres.norinori.model import make_puzzle as norinori

    return norinori(regions)


# --- entry points --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    entry: str
    board: Board
    deadline_s: float

    @property
    def id(self) -> str:
        return f"{self.entry}-{self.board.label}"

    @property
    def limit_s(self) -> float:
        return self.deadline_s + margin(self.deadline_s)


LIBRARY = (
    "count",
    "solve",
    "hint",
    "check",
    "validate",
    "examine",
    "suggest",
    "make_unique",
    "minimize",
)
READ = "read+count"
"""Reading a source and counting it under one deadline from the first character: the
sources that carry a whole grid besides the clues (issue 26: each was read outside any
deadline, in 7-37 s at 1024x1024), and a Pattern ID's prefilled squares (checked by a
count). Their boards are the permuted picture's Nonogram."""
READ_KINDS = ("non-goal", "json-solution", "pzprv3-cells", "pattern-prefilled", "pattern-one")
WEB = ("/api/count", "/api/hint", "/api/check", "/api/validate", "/api/workshop/verdict")


def _web_play_deadline() -> float:
    """The deadline the app itself gives a hint or a check (the client cannot choose)."""
    from gridproof.web import models

    return models.ANSWER_S + models.HINT_S


WEB_PLAY_S = _web_play_deadline()


def _rows(puzzle: Any, char: str) -> list[str]:
    return [char * puzzle.width] * puzzle.height


def prepare(case: Case) -> Callable[[], str]:
    """Build the board (untimed) and return the one call to time, which says what it got."""
    from gridproof import service
    from gridproof.core import registry
    from gridproof.core.deadline import Deadline
    from gridproof.service import play, workshop

    board = case.board.resolved()
    d = case.deadline_s
    if board.kind in READ_KINDS:
        text = source_text(board)
        if case.entry == READ:
            return lambda: _read_and_count(text, d)
        return _prepare_web(case, text, SimpleNamespace(width=board.width, height=board.height))
    genre = registry.genre(board.genre)
    puzzle = make_puzzle(board)
    loaded = service.Loaded(board.label, genre, puzzle)
    if case.entry.startswith("/api/"):
        return _prepare_web(case, genre.format_code(puzzle), puzzle)
    if case.entry == "count":
        return lambda: str(service.count(loaded, 2, d).verdict)
    if case.entry == "solve":
        return lambda: _solved(service.solve(loaded, None, d))
    if case.entry in ("hint", "check"):
        rows = _rows(puzzle, "." if case.entry == "hint" else "#")
        marks = play.parse_marks(puzzle, rows)

        def played() -> str:
            # the app's split of a hint's time: the count first, the rest for the hint
            deadline = Deadline(d)
            answer = play.counted_answer(genre, puzzle, deadline.within(d * ANSWER_SHARE))
            if case.entry == "hint":
                return str(play.hint(genre, puzzle, marks, answer, deadline).status)
            return f"solved={play.check(genre, puzzle, marks, answer).solved}"

        return played
    if case.entry == "validate":
        grid = _rows(puzzle, "#")
        return lambda: f"{len(service.validate(loaded, grid))} violations"
    if case.entry == "examine":
        return lambda: str(workshop.examine(loaded, None, Deadline(d)).outcome)
    if case.entry == "suggest":
        return lambda: f"{len(workshop.suggest(loaded, None, Deadline(d)).edits)} edits"
    if case.entry == "make_unique":
        return lambda: f"{len(workshop.make_unique(loaded, None, Deadline(d)).applied)} edits"
    if case.entry == "minimize":
        return lambda: str(workshop.minimize(loaded, None, Deadline(d)).report.outcome)
    raise ValueError(case.entry)


def source_text(board: Board) -> str:
    """The text of a `READ_KINDS` source for `board` (a Nonogram of the permuted picture,
    or of a random one for `pattern-one`, whose prefilled part fixes only its first cell)."""
    import json

    from gridproof.genres.nonogram import codec, formats

    side = board.width
    if board.kind == "pattern-one":
        rng = random.Random(26)
        picture = ["".join(rng.choice("#.") for _ in range(side)) for _ in range(side)]
    else:
        found = nonogram_picture("permuted-picture", side)
        assert found is not None
        picture = found
    columns = ["".join(col) for col in zip(*picture, strict=True)]
    puzzle = make_nonogram([_runs(row) for row in picture], [_runs(col) for col in columns])
    flat = "".join(picture)
    mask = int(flat.replace("#", "1").replace(".", "0")[::-1], 2)
    if board.kind == "non-goal":
        return formats.format_non(puzzle, goal=mask)
    if board.kind == "json-solution":
        solution = [[int(char == "#") for char in row] for row in picture]
        return json.dumps({**codec.to_json(puzzle), "solution": solution})
    if board.kind == "pzprv3-cells":
        return formats.format_pzprv3(puzzle, mask)
    if board.kind == "pattern-prefilled":
        squares = flat.replace("#", "A").replace(".", "a")
    else:
        rest = side * side - 1
        squares = flat[0].replace("#", "A").replace(".", "a") + "z" * (rest // 25)
        squares += chr(ord("a") + rest % 25) if rest % 25 else ""
    return formats.format_pattern(puzzle) + "," + squares


def make_nonogram(rows: list[tuple[int, ...]], cols: list[tuple[int, ...]]) -> Any:
    from gridproof.genres.nonogram.model import make_puzzle as nonogram

    return nonogram(rows, cols)


def _read_and_count(text: str, seconds: float) -> str:
    """What `count --deadline` does with one source: read it and count it under one
    deadline (a source that cannot be shown sound in time is a `CodeError` saying so)."""
    from gridproof import service
    from gridproof.core.deadline import Deadline
    from gridproof.core.errors import CodeError

    deadline = Deadline(seconds)
    try:
        (item,) = service.load(text, files=False, deadline=deadline)
    except CodeError as error:
        return f"CodeError: {' '.join(str(error).split())[:60]}"
    return str(service.count(item, 2, deadline).verdict)


def _solved(solved: Any) -> str:
    return f"decided {solved.decided:.0%}" + (", timed out" if solved.timed_out else "")


def _prepare_web(case: Case, code: str, puzzle: Any) -> Callable[[], str]:
    import warnings

    from gridproof.web import app as web

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient`")
        from fastapi.testclient import TestClient
    client = TestClient(web.app, raise_server_exceptions=False)
    client.__enter__()
    bodies: dict[str, dict[str, Any]] = {
        "/api/count": {"source": code, "deadline_s": case.deadline_s},
        "/api/hint": {"code": code, "marks": _rows(puzzle, ".")},
        "/api/check": {"code": code, "marks": _rows(puzzle, "#")},
        "/api/validate": {"source": code, "grid": _rows(puzzle, "#")},
        "/api/workshop/verdict": {"source": code, "deadline_s": case.deadline_s},
    }
    body = bodies[case.entry]

    def post() -> str:
        response = client.post(case.entry, json=body)
        if response.status_code >= 500:
            raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")
        data = response.json()
        status = data.get("status") or data.get("outcome") or data.get("error", "")[:60]
        return f"HTTP {response.status_code} {status}".strip()

    return post


# --- running a case in a child process ------------------------------------------------------


@dataclass(frozen=True)
class Measured:
    case: Case
    wall_s: float
    peak_mb: float
    killed: bool
    error: str | None
    outcome: str
    setup_s: float
    size: str = ""
    cpu_s: float = float("nan")
    """CPU seconds the call used (all its threads): far below the wall time means the
    machine starved it, which the wall-clock contract still counts."""
    """The board's size as built (the web's largest Nonograms are found in the child)."""

    @property
    def in_time(self) -> bool:
        """Whether the call stopped at its deadline: by the wall clock, or, when the machine
        starved it (far less CPU than wall time), by the CPU time it used."""
        limit = self.case.limit_s
        return self.wall_s <= limit or self.cpu_s <= limit * STARVED_SHARE

    @property
    def passed(self) -> bool:
        return (
            self.error is None and not self.killed and self.in_time and self.peak_mb <= CEILING_MB
        )

    def row(self) -> str:
        b = self.case.board
        wall = f"≥{self.wall_s:.1f} (killed)" if self.killed else f"{self.wall_s:.2f}"
        wall += f" ({self.cpu_s:.1f} CPU)"
        what = self.error or self.outcome
        verdict = "pass" if self.passed else "FAIL"
        return (
            f"| {self.case.entry} | {b.genre} {self.size or b.label} {b.kind} "
            f"| {self.case.deadline_s:g} | {wall} | {self.peak_mb:.0f} | {verdict} | {what} |"
        )


def _peak_mb_self() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _peak_mb_of(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return float("nan")
    match = re.search(r"VmHWM:\s+(\d+) kB", status)
    return int(match[1]) / 1024 if match else float("nan")


def _cpu_s_of(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _child(conn: Connection, case: Case, env: dict[str, str]) -> None:
    guard = GUARD_MB * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (guard, guard))
    os.environ.update(env)
    started = time.perf_counter()
    wall, outcome, error = 0.0, "", None
    try:
        board = case.board.resolved()
        call = prepare(case)
        size = f"{board.width}x{board.height}"
        conn.send(("start", time.perf_counter() - started, size, time.process_time()))
        started, cpu = time.perf_counter(), time.process_time()
        outcome = call()
    except BaseException as failure:
        error = f"{type(failure).__name__}: {' '.join(str(failure).split())[:200]}"
        cpu = time.process_time()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    conn.send(("done", wall, _peak_mb_self(), outcome, error, cpu))
    conn.close()
    os._exit(0)  # the TestClient's threads need no orderly goodbye


@cache
def _context() -> Any:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.test_deadline_audit", "gridproof.web.app"])
    return context


@cache
def _web_env() -> dict[str, str]:
    """Where the web cases keep their bank: a temporary folder, the filler off."""
    folder = Path(tempfile.mkdtemp(prefix="gridproof-audit-"))
    return {"GRIDPROOF_DB": str(folder / "bank.sqlite3"), "GRIDPROOF_FILL": "0"}


def measure(case: Case) -> Measured:
    """Run `case` in a forked child and measure it (see the module docstring)."""
    receiver, sender = _context().Pipe(duplex=False)
    env = _web_env() if case.entry.startswith("/api/") else {}
    process = _context().Process(target=_child, args=(sender, case, env), daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(SETUP_S):
            return Measured(case, 0.0, _peak_mb_of(process.pid), True, "setup too slow", "", 0)
        message = receiver.recv()
        if message[0] == "done":  # the setup itself failed
            _, wall, peak, outcome, error, _ = message
            return Measured(case, 0.0, peak, False, f"setup: {error}", outcome, wall)
        _, setup, size, setup_cpu = message
        waited = time.monotonic()
        hard = STARVED_FACTOR * case.limit_s + GRACE_S
        while not receiver.poll(POLL_S):
            cpu = _cpu_s_of(process.pid) - setup_cpu
            over = time.monotonic() - waited
            if over > case.limit_s + GRACE_S and (cpu > case.limit_s + GRACE_S or over > hard):
                peak = _peak_mb_of(process.pid)
                return Measured(case, over, peak, True, None, "", setup, size, cpu)
        _, wall, peak, outcome, error, cpu = receiver.recv()
        return Measured(case, wall, peak, False, error, outcome, setup, size, cpu)
    except EOFError:
        process.join(5)
        return Measured(case, 0.0, float("nan"), False, f"child died ({process.exitcode})", "", 0)
    finally:
        receiver.close()
        if process.is_alive():
            process.kill()
        process.join(10)


# --- the cases -----------------------------------------------------------------------------

KINDS = ("one-region", "stripes", "columns", "combs")
NONOGRAM_KINDS = ("empty", "full", "alternating", "permuted-picture")


def boards_for(entry: str) -> list[Board]:
    """The degenerate boards of every genre at the largest size `entry` accepts."""
    boards = [Board(g, kind, *largest(g)) for g in ("norinori", "nondango") for kind in KINDS]
    boards.append(Board("norinori", "stripes", largest("norinori")[0], 2))
    for kind in NONOGRAM_KINDS:
        if not entry.startswith("/api/"):
            boards.append(Board("nonogram", kind, NONOGRAM_SIDE, NONOGRAM_SIDE))
        elif kind in ("empty", "full"):
            boards.append(Board("nonogram", kind, WEB_ROWS, WEB_ROWS))
        else:
            boards.append(Board("nonogram", kind, 0, 0))
    return boards


def all_cases() -> list[Case]:
    cases = [
        Case(READ, Board("nonogram", kind, *((100, 100) if kind == "pattern-one" else big)), 2)
        for kind in READ_KINDS
        for big in [(NONOGRAM_SIDE, NONOGRAM_SIDE)]
    ]
    cases.append(Case("/api/hint", Board("nonogram", "pattern-one", 100, 100), WEB_PLAY_S))
    for entry in LIBRARY + WEB:
        deadline = WEB_PLAY_S if entry in ("/api/hint", "/api/check") else DEADLINE_S
        cases += [Case(entry, board, deadline) for board in boards_for(entry)]
    return cases


TABLE_HEAD = (
    "| call | board | deadline s | wall s (CPU s) | peak MB | result | outcome |\n"
    "|---|---|---:|---:|---:|---|---|"
)


# --- the tests -------------------------------------------------------------------------------


CASES = all_cases()


def _param(case: Case) -> Any:
    marks = [pytest.mark.slow] if case.board.cells >= 10_000 else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_call_ends_within_its_deadline_and_memory(case: Case) -> None:
    m = measure(case)
    assert m.error is None, f"{case.id}: {m.error} after {m.wall_s:.2f} s"
    assert not m.killed, (
        f"{case.id}: still running {m.wall_s:.1f} s ({m.cpu_s:.1f} s CPU) after the start "
        f"(deadline {case.deadline_s:g} s + margin), {m.peak_mb:.0f} MB; killed"
    )
    assert m.in_time, (
        f"{case.id}: {m.wall_s:.2f} s ({m.cpu_s:.1f} s CPU) for a {case.deadline_s:g} s "
        f"deadline ({m.outcome})"
    )
    assert m.peak_mb <= CEILING_MB, f"{case.id}: peak {m.peak_mb:.0f} MB over {CEILING_MB} MB"


def main() -> None:
    """Print the whole audit as a markdown table."""
    global GRACE_S
    parser = argparse.ArgumentParser(description="the deadline audit as a table")
    parser.add_argument("--grace", type=float, default=GRACE_S, help="seconds past the limit")
    parser.add_argument("--only", default="", help="a regular expression on case ids")
    parser.add_argument("--jobs", type=int, default=JOBS)
    args = parser.parse_args()
    GRACE_S = args.grace
    cases = [c for c in all_cases() if re.search(args.only, c.id)]
    print(TABLE_HEAD, flush=True)
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for m in pool.map(measure, cases):
            print(m.row(), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests import test_deadline_audit

    test_deadline_audit.main()
