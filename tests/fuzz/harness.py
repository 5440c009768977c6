"""The fuzz harness shared by `benchmarks/fuzz.py` (the full run) and `tests/fuzz/` (the CI
slice): seed inputs made from real boards, one `Target` per parser or entry point, and a
runner that sorts every outcome into accepted, rejected (a `CodeError`, exit status 2,
HTTP 400 and the like) and anything else, which is a bug and carries a reproducer.

Targets, all in-process:
- `load:code`, `load:url`, `load:json`: `service.load(text, files=False)` on mutated puzzle
  codes, puzz.link URLs and JSON documents of every genre; an accepted source is then
  converted to every format and read back (the round trip must hold), validated and
  counted briefly, since nothing that passes parsing may crash later.
- `nonogram:pattern`, `nonogram:non`: Tatham Pattern IDs and `.non` text
  (`genres.nonogram.formats`), read back after formatting.
- `grid:validate`, `grid:marks`, `workshop:keep`: `--grid` rows through `service.validate`,
  `play.parse_marks` and `workshop.parse_keep`.
- `cli` and `api`: the command line and the web API, in `cli_target` and `web_target`.
`targets.TARGETS` names them all.

Boards are small (up to 8x8): the harness fuzzes parsers; the deadline audit
(`tests/test_deadline_audit.py`) does the big boards.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import signal
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote as quote_url

from gridproof import service
from gridproof.core import registry
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.genres.nonogram import formats
from gridproof.service import play, workshop
from tests.fuzz.mutate import (
    dump_json,
    mutate_json,
    mutate_text,
)

ACCEPTED, REJECTED = "accepted", "rejected"


class Failure(Exception):
    """A target's check failed: what happened, in one line."""


class Overtime(BaseException):
    """An in-process call ran past the harness's cap (raised from SIGALRM)."""


@dataclass(frozen=True)
class Finding:
    target: str
    signature: str
    """What kind of failure, to group repeats: an exception and where it was raised."""
    detail: str
    reproducer: str


KEPT_PER_KIND = 8
"""Findings kept per kind (the shortest reproducers); the rest are only counted."""


@dataclass
class Tally:
    target: str
    inputs: int = 0
    accepted: int = 0
    rejected: int = 0
    findings: list[Finding] = field(default_factory=list)
    """Up to `KEPT_PER_KIND` findings of each kind, the shortest reproducers."""
    kinds: dict[str, int] = field(default_factory=dict)
    """How many inputs of each kind of finding."""
    seconds: float = 0.0

    @property
    def other(self) -> int:
        return sum(self.kinds.values())

    def add(self, verdict: str | None, finding: Finding | None) -> None:
        self.inputs += 1
        if finding is not None:
            self.keep(finding)
        elif verdict == ACCEPTED:
            self.accepted += 1
        else:
            self.rejected += 1

    def keep(self, finding: Finding) -> None:
        kind = generic(finding.signature)
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        same = [f for f in self.findings if generic(f.signature) == kind]
        if len(same) < KEPT_PER_KIND:
            self.findings.append(finding)
            return
        longest = max(same, key=lambda f: len(f.reproducer))
        if len(finding.reproducer) < len(longest.reproducer):
            self.findings[self.findings.index(longest)] = finding


# --- seeds -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seeds:
    """Valid inputs of every format, made from small generated boards of every genre."""

    boards: tuple[service.Board, ...]
    codes: tuple[str, ...]
    urls: tuple[str, ...]
    documents: tuple[Any, ...]
    patterns: tuple[str, ...]
    nons: tuple[str, ...]
    pzprv3s: tuple[str, ...] = ()
    """pzprv3 files (blank and solved), and some as `p?pzprv3/` URLs."""


_SIZES = ((4, 4), (5, 5), (6, 6), (5, 7), (8, 8))


@cache
def seeds() -> Seeds:
    """The seed corpus (generated once per process; a few seconds)."""
    boards: list[service.Board] = []
    for name, genre in sorted(registry.genres().items()):
        (min_w, min_h), _ = genre.sizes
        plans: list[tuple[int, int, int, dict[str, Any]]] = [
            (max(w, min_w), max(h, min_h), seed, {}) for w, h in _SIZES for seed in (1, 2)
        ]
        if any(option.name == "rule" for option in genre.options):
            plans += [(6, 6, 3, {"rule": "no-three-black"}), (5, 5, 4, {"rule": "no-three-black"})]
        for width, height, seed, options in plans:
            try:
                board = service.generate(name, width, height, seed, None, 30.0, options)
            except GenerationError:
                continue
            boards.append(board)
    codes = [b.code for b in boards]
    urls: list[str] = []
    for board in boards:
        try:
            url = service.convert(board.loaded, "url")
        except CodeError:
            continue
        bare = url.removeprefix("https://")
        urls += [url, bare, url.replace("p?", "p?" + "", 1).replace("/p?", "/p.html?", 1)]
        urls.append(url.replace("https://puzz.link", "http://pzv.jp"))
        genre_name = board.genre.name
        urls.append(url.replace(f"p?{genre_name}/", f"p?{genre_name}_edit/"))
    documents: list[Any] = []
    for board in boards:
        obj = board.genre.to_json(board.puzzle)
        solution = [[1 if ch == "#" else 0 for ch in row] for row in board.solution_rows]
        documents.append(obj)
        documents.append({"id": board.code, **obj, "expected": "unique", "solution": solution})
    by_genre: dict[str, list[Any]] = {}
    for board in boards:
        body = {k: v for k, v in board.genre.to_json(board.puzzle).items() if k != "genre"}
        by_genre.setdefault(board.genre.name, []).append({"id": board.code, **body})
    documents += [{"genre": g, "puzzles": items[:3]} for g, items in sorted(by_genre.items())]
    nonograms = [b.puzzle for b in boards if b.genre.name == "nonogram"]
    patterns = [formats.format_pattern(p) for p in nonograms]
    patterns += [p.split(":", 1)[0].split("x")[0] + ":" + p.split(":", 1)[1] for p in patterns]
    nons = [formats.format_non(p, title="fuzz") for p in nonograms]
    patterns += [p + ",A" for p in patterns[:2]] + [p + ",z" for p in patterns[:2]]
    files: list[str] = []
    for board in boards:
        own = {fmt.name: fmt for fmt in board.genre.formats}
        if "pzprv3" not in own:  # not every genre has a puzz.link save file
            continue
        with contextlib.suppress(CodeError):
            files.append(own["pzprv3"].format(board.puzzle, None))
            files.append(own["pzprv3"].format(board.puzzle, board.solution))
    embed = "https://puzz.link/p?"
    files += [embed + quote_url(f.replace("\n", "/"), safe="/") for f in files[::3]]
    return Seeds(
        tuple(boards),
        tuple(codes),
        tuple(urls),
        tuple(documents),
        tuple(patterns),
        tuple(nons),
        tuple(files),
    )


# --- running -----------------------------------------------------------------------------


def _on_alarm(signum: int, frame: Any) -> None:
    raise Overtime()


@contextlib.contextmanager
def overtime(cap_s: float | None) -> Iterator[None]:
    """Raise `Overtime` in the main thread if the body runs longer than `cap_s` seconds."""
    if cap_s is None:
        yield
        return
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, cap_s)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def where_raised(error: BaseException) -> str:
    """`file.py:123 in function` of the innermost frame inside gridproof (else the last)."""
    frames = traceback.extract_tb(error.__traceback__)
    inside = [f for f in frames if "gridproof" in f.filename] or frames
    if not inside:
        return "?"
    frame = inside[-1]
    return f"{Path(frame.filename).name}:{frame.lineno} in {frame.name}"


def short(text: str, limit: int = 160) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


class Target:
    """One parser or entry point under fuzz."""

    name = "target"
    cap_s: float | None = 20.0
    """The in-process time cap (None: the target bounds itself)."""

    def make(self, rng: random.Random) -> Any:
        raise NotImplementedError

    def run(self, case: Any) -> str:
        """`ACCEPTED` or `REJECTED`; raise `Failure` (or let anything escape) for a bug."""
        raise NotImplementedError

    def reproduce(self, case: Any) -> str:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the target holds (servers, clients, files)."""


def run_target(target: Target, inputs: int, seed: int, shard: tuple[int, int] = (0, 1)) -> Tally:
    """Throw `inputs` mutated inputs (from `seed`) at `target` and tally what happened.
    `shard` (i, k): make every input, run the i-th of every k (k processes share a run)."""
    rng = random.Random(f"{seed}:{target.name}")
    tally = Tally(target.name)
    start = time.perf_counter()
    index, shards = shard
    for number in range(inputs):
        case = target.make(rng)
        if number % shards == index:
            tally.add(*classify(target, case))
    tally.seconds = time.perf_counter() - start
    return tally


def merged(tallies: Sequence[Tally]) -> Tally:
    """The shards of one target's run as one tally (seconds: the slowest shard)."""
    total = Tally(tallies[0].target)
    findings: list[Finding] = []
    for part in tallies:
        total.inputs += part.inputs
        total.accepted += part.accepted
        total.rejected += part.rejected
        total.seconds = max(total.seconds, part.seconds)
        for kind, count in part.kinds.items():
            total.kinds[kind] = total.kinds.get(kind, 0) + count
        findings += part.findings
    findings.sort(key=lambda f: len(f.reproducer))
    for kind in total.kinds:
        total.findings += [f for f in findings if generic(f.signature) == kind][:KEPT_PER_KIND]
    return total


def classify(target: Target, case: Any) -> tuple[str | None, Finding | None]:
    """Run one case: its verdict, or the finding when it is neither accepted nor rejected."""
    try:
        with overtime(target.cap_s):
            return target.run(case), None
    except Failure as failure:
        return None, _finding(target, case, str(failure).split(":")[0], str(failure))
    except Overtime:
        detail = f"no answer within the harness cap of {target.cap_s:g} s"
        return None, _finding(target, case, "slow", detail)
    except Exception as error:
        kind = f"{type(error).__name__} at {where_raised(error)}"
        return None, _finding(target, case, kind, f"{kind}: {short(str(error))}")


def _finding(target: Target, case: Any, signature: str, detail: str) -> Finding:
    try:
        reproducer = target.reproduce(case)
    except Exception as error:  # never lose a finding to its own reproducer
        reproducer = f"<no reproducer: {error!r}> {case!r}"[:2000]
    return Finding(target.name, signature, detail, reproducer)


def groups(tallies: Sequence[Tally]) -> list[tuple[str, str, int, list[Finding]]]:
    """(target, kind, inputs, kept findings with the shortest reproducer first) per kind."""
    out = []
    for tally in tallies:
        for kind, count in sorted(tally.kinds.items()):
            kept = [f for f in tally.findings if generic(f.signature) == kind]
            kept.sort(key=lambda f: len(f.reproducer))
            out.append((tally.target, kind, count, kept))
    return out


def generic(signature: str) -> str:
    """A finding's kind: its signature with long numbers (line numbers stay) folded."""
    return re.sub(r"\d{4,}", "N", signature)


def table(tallies: Sequence[Tally]) -> str:
    """The results as a markdown table, then every group of findings with reproducers."""
    lines = [
        "| target | inputs | accepted | rejected (CodeError/2/400...) | anything else | s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for t in tallies:
        lines.append(
            f"| {t.target} | {t.inputs:,} | {t.accepted:,} | {t.rejected:,} | {t.other:,} "
            f"| {t.seconds:.1f} |"
        )
    return "\n".join(lines)


def report(tallies: Sequence[Tally], per_group: int = 3) -> str:
    """Every kind of finding: how many inputs, what happened, up to `per_group` reproducers."""
    kinds = groups(tallies)
    if not kinds:
        return "anything else: none"
    total = sum(count for _, _, count, _ in kinds)
    out = [f"anything else: {total} inputs in {len(kinds)} kinds"]
    for target, kind, count, kept in kinds:
        out.append(f"- [{target}] {kind}: {count} input(s); {kept[0].detail if kept else ''}")
        for item in kept[:per_group]:
            out.append(f"    {_ascii(item.reproducer)}")
    return "\n".join(out)


def _ascii(text: str, limit: int = 1200) -> str:
    safe = text.encode("ascii", "backslashreplace").decode("ascii")
    return safe if len(safe) <= limit else safe[: limit - 3] + "..."


# --- sources and their parsers -----------------------------------------------------------


ODD_IDS = ("\ud800", "\udc80", "a\nb", "\u2028", "", "x" * 1000, "\x1b[31m", 5, None, ["x"])
"""Puzzle ids that must still print and serialise: lone surrogates, line breaks, escapes."""


def mutated_source(rng: random.Random, kind: str) -> str:
    """A mutated puzzle code, puzz.link URL or JSON document (`kind`)."""
    s = seeds()
    if kind == "code":
        return mutate_text(rng, rng.choice(s.codes))
    if kind == "url":
        return mutate_text(rng, rng.choice(s.urls))
    doc = rng.choice(s.documents)
    if rng.random() < 0.08 and "puzzles" not in doc:
        doc = {**doc, "id": rng.choice(ODD_IDS)}
    if rng.random() < 0.75:
        return dump_json(rng, mutate_json(rng, doc))
    return mutate_text(rng, json.dumps(doc, separators=(",", ":")))


def check_loaded(items: Sequence[service.Loaded]) -> None:
    """What must hold of every accepted puzzle: each format reads back to the same code,
    the validator and a brief count run without raising anything but `CodeError`."""
    for item in items:
        code = service.convert(item, "code")
        if service.convert(service.load(code, files=False)[0], "code") != code:
            raise Failure(f"code round trip changed {short(code)}")
        text = service.convert(item, "json")
        if service.convert(service.load(text, files=False)[0], "code") != code:
            raise Failure(f"json round trip changed {short(code)}")
        try:
            url = service.convert(item, "url")
        except CodeError:
            url = None
        if url is not None and service.convert(service.load(url, files=False)[0], "code") != code:
            raise Failure(f"url round trip changed {short(code)}")
        for fmt in item.genre.formats:
            try:
                written = service.convert(item, fmt.name)
            except CodeError:
                continue
            if service.convert(service.load(written, files=False)[0], "code") != code:
                raise Failure(f"{fmt.name} round trip changed {short(code)}")
        width, height = item.puzzle.width, item.puzzle.height
        service.validate(item, ["." * width] * height)
        if width * height <= 400:
            service.count(item, 2, 0.05)


class LoadTarget(Target):
    """`service.load(text, files=False)` on one kind of source."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.name = f"load:{kind}"

    def make(self, rng: random.Random) -> str:
        return mutated_source(rng, self.kind)

    def run(self, case: str) -> str:
        try:
            items = service.load(case, files=False)
        except CodeError:
            return REJECTED
        check_loaded(items)
        return ACCEPTED

    def reproduce(self, case: str) -> str:
        return f"gridproof.service.load({case!r}, files=False)"


class PatternTarget(Target):
    """Tatham Pattern IDs through `formats.parse_pattern`."""

    name = "nonogram:pattern"

    def make(self, rng: random.Random) -> str:
        return mutate_text(rng, rng.choice(seeds().patterns))

    def run(self, case: str) -> str:
        try:
            puzzle = formats.parse_pattern(case)
        except CodeError:
            return REJECTED
        if formats.parse_pattern(formats.format_pattern(puzzle)) != puzzle:
            raise Failure("pattern round trip changed the puzzle")
        _check_nonogram(puzzle)
        return ACCEPTED

    def reproduce(self, case: str) -> str:
        return f"gridproof.genres.nonogram.formats.parse_pattern({case!r})"


class NonTarget(Target):
    """`.non` text through `formats.parse_non`."""

    name = "nonogram:non"

    def make(self, rng: random.Random) -> str:
        return mutate_text(rng, rng.choice(seeds().nons))

    def run(self, case: str) -> str:
        try:
            puzzle = formats.parse_non(case)
        except CodeError:
            return REJECTED
        if formats.parse_non(formats.format_non(puzzle)) != puzzle:
            raise Failure(".non round trip changed the puzzle")
        _check_nonogram(puzzle)
        return ACCEPTED

    def reproduce(self, case: str) -> str:
        return f"gridproof.genres.nonogram.formats.parse_non({case!r})"


class Pzprv3Target(Target):
    """pzprv3 files (and `p?pzprv3/` URLs) of every genre through `service.load`."""

    name = "load:pzprv3"

    def make(self, rng: random.Random) -> str:
        return mutate_text(rng, rng.choice(seeds().pzprv3s))

    def run(self, case: str) -> str:
        try:
            items = service.load(case, files=False)
        except CodeError:
            return REJECTED
        check_loaded(items)
        for item in items:  # a file's marks load as its solution only when they are one
            if item.solution is not None and item.genre.validate(item.puzzle, item.solution):
                raise Failure("the solution loaded with the file breaks its rules")
        return ACCEPTED

    def reproduce(self, case: str) -> str:
        return f"gridproof.service.load({case!r}, files=False)"


def _check_nonogram(puzzle: Any) -> None:
    genre = registry.genre("nonogram")
    check_loaded([service.Loaded("fuzz", genre, puzzle)])


# --- grids -------------------------------------------------------------------------------

_GRID_CHARS = "#.+-o%?x "


def mutated_rows(rng: random.Random, board: service.Board) -> list[str]:
    """Rows of a grid or of marks for `board`, mutated as text or as a list of rows."""
    puzzle = board.puzzle
    roll = rng.random()
    if roll < 0.4:
        rows = list(board.solution_rows)
    elif roll < 0.7:
        rows = [
            "".join(rng.choice("#+.") for _ in range(puzzle.width)) for _ in range(puzzle.height)
        ]
    else:
        rows = ["." * puzzle.width] * puzzle.height
    if rng.random() < 0.6:
        text = mutate_text(rng, rng.choice("/,").join(rows))
        return [row.strip() for row in text.replace(",", "/").split("/") if row.strip()]
    for _ in range(rng.randrange(1, 3)):
        action = rng.randrange(5)
        at = rng.randrange(len(rows)) if rows else 0
        if action == 0 and rows:
            del rows[at]
        elif action == 1 and rows:
            rows.insert(at, rows[at])
        elif action == 2 and rows:
            rows[at] = mutate_text(rng, rows[at], 2)
        elif action == 3 and rows:
            row = rows[at]
            c = rng.randrange(len(row)) if row else 0
            rows[at] = row[:c] + rng.choice(_GRID_CHARS) + row[c + 1 :]
        else:
            rows.append(rng.choice(rows) if rows else "")
    return rows


class GridTarget(Target):
    """Rows of a grid through one of the three readers of rows."""

    def __init__(self, which: str) -> None:
        self.which = which
        self.name = {"validate": "grid:validate", "marks": "grid:marks", "keep": "workshop:keep"}[
            which
        ]

    def make(self, rng: random.Random) -> tuple[int, list[str]]:
        index = rng.randrange(len(seeds().boards))
        return index, mutated_rows(rng, seeds().boards[index])

    def run(self, case: tuple[int, list[str]]) -> str:
        index, rows = case
        board = seeds().boards[index]
        loaded = board.loaded
        try:
            if self.which == "validate":
                service.validate(loaded, rows)
            elif self.which == "marks":
                marks = play.parse_marks(board.puzzle, rows)
                if play.format_marks(board.puzzle, marks) != rows:
                    raise Failure("format_marks(parse_marks(rows)) != rows")
            else:
                keep = workshop.parse_keep(loaded, rows)
                workshop.examine(loaded, keep, Deadline(0.05))
        except CodeError:
            return REJECTED
        return ACCEPTED

    def reproduce(self, case: tuple[int, list[str]]) -> str:
        index, rows = case
        code = seeds().boards[index].code
        call = {
            "validate": "gridproof.service.validate(loaded, rows)",
            "marks": "gridproof.service.play.parse_marks(loaded.puzzle, rows)",
            "keep": "gridproof.service.workshop.parse_keep(loaded, rows)",
        }[self.which]
        return f"loaded = gridproof.service.load({code!r})[0]; rows = {rows!r}; {call}"
