"""`gridproof study nonogram`: the design note's claims (`002`), measured with this engine.

Three tables, each beside what the note says:
1. its generator (5×5, 10×10, 15×15 at densities 0.42, 0.46, 0.50; at most sixty attempts
   in 1.8 s; accept when the count to 2 says one) and how often it would reach its fallback;
2. that fallback, the border picture, which the note could not vouch for: counted here;
3. pattern enumeration, the note's line solver, against this engine's DP on long lines.
Everything is drawn from the project's RNG, so a seed reproduces the whole report.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from math import comb

from gridproof.core.deadline import Deadline
from gridproof.core.grid import Geometry, geometry
from gridproof.core.outcome import Verdict
from gridproof.core.report import Cell, Chart, Report, Table, Tick, no_tick, num, pct, table
from gridproof.core.rng import Rng
from gridproof.genres.nonogram.brute import line_patterns
from gridproof.genres.nonogram.lines import settle
from gridproof.genres.nonogram.model import clues_of
from gridproof.genres.nonogram.pictures import despeck
from gridproof.genres.nonogram.solve import count, grade

NOTE_PROFILES = {5: 0.42, 10: 0.46, 15: 0.50}
NOTE_ATTEMPTS = 60
NOTE_SECONDS = 1.8


def note_draw(rng: Rng, width: int, height: int, density: float, smoothing: tuple[int, int]) -> int:
    """The note's pictures: noise at `density`, smoothed by a 3×3 majority rule (a number
    of rounds in the `smoothing` range), maybe mirrored, specks removed."""
    geo = geometry(width, height)
    picture = 0
    for cell in range(width * height):
        if rng.random() < density:
            picture |= 1 << cell
    for _ in range(rng.randint(*smoothing)):
        picture = _smooth(geo, picture)
    if rng.below(3) == 0:
        picture = _mirror(picture, width, height)
    return despeck(geo, picture)


def _smooth(geo: Geometry, picture: int) -> int:
    """Each cell takes the majority of its 3×3 neighbourhood (ties keep the cell)."""
    w = geo.width
    out = 0
    for cell in range(geo.size):
        r, c = divmod(cell, w)
        votes = total = 0
        for rr in range(max(0, r - 1), min(geo.height, r + 2)):
            for cc in range(max(0, c - 1), min(w, c + 2)):
                total += 1
                votes += picture >> (rr * w + cc) & 1
        if votes * 2 > total or (votes * 2 == total and picture >> cell & 1):
            out |= 1 << cell
    return out


def _mirror(picture: int, width: int, height: int) -> int:
    """The left half reflected onto the right half."""
    out = 0
    for r in range(height):
        for c in range(width):
            source = c if c < (width + 1) // 2 else width - 1 - c
            if picture >> (r * width + source) & 1:
                out |= 1 << (r * width + c)
    return out


def note_generator_table(
    boards: int, rng: Rng, deadline: Deadline, tick: Callable[[], None] = lambda: None
) -> Table:
    rows = []
    for size, density in NOTE_PROFILES.items():
        found = fell_back = 0
        tries: list[int] = []
        grades: Counter[str] = Counter()
        for _ in range(boards):
            budget = deadline.within(NOTE_SECONDS)
            for attempt in range(1, NOTE_ATTEMPTS + 1):
                picture = note_draw(rng, size, size, density, (1, 2))
                fill = picture.bit_count() / (size * size)
                if not 0.2 <= fill <= 0.8:
                    continue
                graded = grade(clues_of(size, size, picture), budget)
                if graded.outcome.verdict is Verdict.UNIQUE:
                    found += 1
                    tries.append(attempt)
                    grades[graded.difficulty] += 1
                    break
                if budget.expired():
                    break
            else:
                fell_back += 1
            tick()
        mean = (
            num(round(sum(tries) / len(tries), 3), f"{sum(tries) / len(tries):.1f}")
            if tries
            else "-"
        )
        mix = ", ".join(f"{k} {v}" for k, v in sorted(grades.items()))
        rows.append(
            [
                f"{size}×{size}",
                num(density),
                boards,
                pct(found, boards),
                mean,
                pct(boards - found, boards),
                mix,
                "60 attempts, 1.8 s, no rate given",
            ]
        )
    return table(
        "generator",
        "1. The note's generator: sixty attempts in 1.8 s",
        [
            "size",
            "density",
            "runs",
            "unique within budget",
            "mean attempts",
            "fallback reached",
            "difficulty of the boards found",
            "note",
        ],
        rows,
        chart=Chart(("unique within budget", "fallback reached"), "% of runs", labels=("size",)),
    )


def border_table(deadline: Deadline) -> Table:
    rows = []
    for size in (5, 10, 15, 20, 25, 30):
        full = (1 << (size * size)) - 1
        inner = 0
        for r in range(1, size - 1):
            inner |= ((1 << (size - 2)) - 1) << (r * size + 1)
        started = time.perf_counter()
        outcome = count(clues_of(size, size, full & ~inner), 2, deadline.within(10))
        seconds = time.perf_counter() - started
        rows.append(
            [
                f"{size}×{size}",
                str(outcome.verdict),
                "returned without a count",
                num(round(seconds, 6), f"{seconds:.4f}"),
            ]
        )
    return table(
        "border",
        "2. The border fallback, counted",
        ["size", "verdict", "note", "count s"],
        rows,
        chart=Chart(("count s",), "seconds to count to 2", labels=("size",)),
    )


def enumeration_table() -> Table:
    rows = []
    for n, clue in ((15, (2, 1, 3)), (20, (1,) * 6), (25, (1, 2) * 4), (30, (1,) * 10)):
        patterns = comb(n - sum(clue) + 1, len(clue))
        start = time.perf_counter()
        listed: Cell | str
        if patterns <= 500_000:
            line_patterns(n, clue)
            elapsed = time.perf_counter() - start
            listed = num(round(elapsed, 6), f"{elapsed:.4f}")
        else:
            listed = "(skipped)"
        start = time.perf_counter()
        settle(n, clue, 0, 0)
        elapsed = time.perf_counter() - start
        rows.append(
            [
                n,
                " ".join(map(str, clue)),
                num(patterns, f"{patterns:,}"),
                listed,
                num(round(elapsed, 9), f"{elapsed:.6f}"),
            ]
        )
    return table(
        "enumeration",
        "3. Pattern enumeration against the line DP",
        ["length", "clue", "patterns", "enumerate s", "DP s"],
        rows,
        chart=Chart(("enumerate s", "DP s"), "seconds", log=True, labels=("length", "clue")),
    )


def run_study(boards: int, seed: int, deadline: Deadline, tick: Tick = no_tick) -> Report:
    """The note's three tables with `boards` runs of its generator per size; `tick` is
    told how far it has got (runs, then the two other tables)."""
    rng = Rng(seed)
    total = len(NOTE_PROFILES) * boards + 2
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        tick(done, total)

    tables = [note_generator_table(boards, rng.fork("generator"), deadline, step)]
    tables.append(border_table(deadline))
    step()
    tables.append(enumeration_table())
    step()
    return Report("nonogram", "Nonogram: the design note, measured", tuple(tables))
