"""Hints and grades against how people solve: the janko.at test solvers' recorded moves
(`../shared/corpus/janko-moves-*.json`, see its README, "Human solve paths").

    .venv/bin/python benchmarks/human.py ../shared/corpus/janko-moves-*.json
        [--limit N] [--sample K] [--no-recent] [--ceiling] [--json]

For each record of a registered genre (others are skipped, saying so):

- **order**: Spearman's rank correlation between the order in which the person first set
  each cell and the step at which the whole ladder, run from the empty grid, decides it
  (ties share their mean rank), over the cells both set. 1: the ladder's order; a random
  order about 0.
- **next move**: at up to K moves of the person (evenly spread over the solve; each a move
  that sets a cell to its solution value for the first time), the hint computed from the
  person's correct marks so far (and, unless `--no-recent`, their last moves, most recent
  first, as the player sends them): whether the person's next cell is among the cells the
  hint decides (`agree`), and whether it is among the cells the hint's rung decides from
  there when run to its end (`reach`: the same kind of reasoning, anywhere).
- **ceilings** (`--ceiling`): how far ordering alone could go, knowing the person's
  future (which no hint does). Three order ρ: **in rounds**, the ladder's rounds with each
  round's cells in the person's order (exact: the most any order within the rounds
  reaches); **by cell**, a solve that decides one cell at a time, always the one the
  person set first among the cells the cheapest productive rung can decide (greedy, so an
  estimate, not a bound; it may follow a chain before the rest of its round is done);
  **by cell, any rung**, the same among the cells any rung can decide. And the share of
  asked moves where the person's next cell is among the cells some deduction open to a
  hint decides (`core.ladder.offer`: the cheapest productive rung's and those of the
  rungs of its grade after it; the most any choice of hint could agree: an exact
  ceiling).
- **grades**: corrections per cell (a correction is a cell set again to another value)
  by the grade the ladder gives the board, and the rank correlation of the ladder's score
  with corrections per cell, beside that of the board's size with them; the solve's
  dependency depth (`core.ladder.depth`: rounds of deductions that can be taken side by
  side) and its rank correlation with corrections per cell; and the partial rank
  correlations of score and of depth with corrections, the board's size held fixed
  (whether either predicts corrections beyond size).

Records are split by a hash of their id: a third is held aside (`held`) and never used
while tuning; the rest is `tune`. Both are reported. A benchmark, not a test: it prints
tables and never fails.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gridproof as gp
from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits
from gridproof.core.ladder import cheapest_rung, depth, given, offer, rate, run_rounds
from gridproof.core.trace import Step, Violation
from gridproof.service import play

Move = tuple[int, int, int]
"""(row, col, value): value 1 shaded (a black circle), 0 marked empty (a white circle)."""
RECENT = 8
"""How many of the person's last moves a hint is given (the player sends as many)."""
HINT_S = 10.0


def held_aside(ident: str) -> bool:
    """Whether a record belongs to the third held aside (a stable hash of its id)."""
    return int(hashlib.sha256(ident.encode()).hexdigest(), 16) % 3 == 0


def ranks(values: Sequence[float]) -> list[float]:
    """The rank of each value (1-based), ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            out[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on the ranks); None below 3 pairs or with
    a constant side."""
    if len(xs) != len(ys) or len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if not sxx or not syy:
        return None
    return float(sxy / (sxx * syy) ** 0.5)


def first_touch(moves: Iterable[Move], width: int) -> dict[int, int]:
    """Each cell's place in the order the person first set it."""
    seen: dict[int, int] = {}
    for row, col, _ in moves:
        seen.setdefault(row * width + col, len(seen))
    return seen


def ladder_order(loaded: gp.Loaded) -> dict[int, int]:
    """Each cell's step number in the whole ladder's solve from the empty grid."""
    decided: dict[int, int] = {}
    progress = loaded.genre.solve(loaded.puzzle, loaded.genre.ladder.top, Deadline(60))
    for number, step in enumerate(progress.steps):
        for cell in bits(step.shaded | step.empty):
            decided.setdefault(cell, number)
    return decided


def rho_against(person: dict[int, int], order: dict[int, int]) -> float | None:
    """The rank correlation of the person's first touches (`first_touch`) with `order`
    (cell -> place), over the cells both hold."""
    both = [cell for cell in person if cell in order]
    return spearman([person[c] for c in both], [order[c] for c in both])


def order_rho(loaded: gp.Loaded, moves: Sequence[Move]) -> float | None:
    """The rank correlation of the person's first touches with the ladder's steps."""
    return rho_against(first_touch(moves, loaded.puzzle.width), ladder_order(loaded))


def round_order(loaded: gp.Loaded) -> dict[int, int]:
    """Each cell's round in the whole ladder's solve from the empty grid (`run_rounds`)."""
    genre, puzzle = loaded.genre, loaded.puzzle
    position, _ = given(genre.position, puzzle, Deadline(60), 0, 0)
    run = run_rounds(genre.ladder.rungs_to(genre.ladder.top), position, Deadline(60))
    decided: dict[int, int] = {}
    steps = iter(run.steps)
    for number, taken in enumerate(run.rounds):
        for _ in range(taken):
            step = next(steps)
            for cell in bits(step.shaded | step.empty):
                decided.setdefault(cell, number)
    return decided


def rounds_ceiling(loaded: gp.Loaded, moves: Sequence[Move]) -> float | None:
    """The order ρ of the ladder's rounds with each round's cells taken in the person's
    order: the most any order within the rounds can reach (exact: with the rounds fixed,
    matching the person's order inside each maximises the rank correlation)."""
    person = first_touch(moves, loaded.puzzle.width)
    after = len(person)  # places run below it: a round's cells stay within the round
    rounds = {
        c: number * after + person[c] for c, number in round_order(loaded).items() if c in person
    }
    return rho_against(person, rounds)


def foreseen_order(
    loaded: gp.Loaded, person: dict[int, int], any_rung: bool = False
) -> dict[int, int]:
    """Each cell's place in a solve from the empty grid that decides one cell at a time:
    of the cells the cheapest productive rung can decide (with `any_rung`, any rung), the
    one the person set first (`person`: cell -> place). It knows the person's future,
    which no hint does: greedy, so an estimate of what ordering could reach rather than a
    bound, and one that may leave the ladder's rounds (a chain followed before the rest of
    its round)."""
    genre, puzzle = loaded.genre, loaded.puzzle
    position, problem = given(genre.position, puzzle, Deadline(60), 0, 0)
    decided: dict[int, int] = {}
    late = len(person) + puzzle.width * puzzle.height
    while problem is None:
        to_shade = to_clear = 0
        for rung in genre.ladder.rungs:
            for each in rung.rules:
                found = each.find(position)
                if isinstance(found, Violation):
                    return decided
                for step in found:
                    to_shade |= step.shaded & ~position.shaded
                    to_clear |= step.empty & ~position.empty
            if to_shade | to_clear and not any_rung:
                break
        if not to_shade | to_clear:
            break
        cell = min(bits(to_shade | to_clear), key=lambda c: (person.get(c, late), c))
        decided[cell] = len(decided)
        mark = 1 << cell
        shaded = to_shade & mark  # the value the deductions give it
        problem = position.apply(Step("foreseen", "", shaded=shaded, empty=mark & ~shaded))
    return decided


def ceiling_rho(loaded: gp.Loaded, moves: Sequence[Move], any_rung: bool = False) -> float | None:
    """`order_rho` of `foreseen_order`."""
    person = first_touch(moves, loaded.puzzle.width)
    return rho_against(person, foreseen_order(loaded, person, any_rung))


def order_ceilings(
    loaded: gp.Loaded, moves: Sequence[Move]
) -> tuple[float | None, float | None, float | None]:
    """The three order ceilings of a record: `rounds_ceiling`, `ceiling_rho` and
    `ceiling_rho` at any rung."""
    return (
        rounds_ceiling(loaded, moves),
        ceiling_rho(loaded, moves),
        ceiling_rho(loaded, moves, any_rung=True),
    )


def corrections(moves: Iterable[Move]) -> int:
    """How many moves set a cell the person had set before to another value."""
    last: dict[tuple[int, int], int] = {}
    count = 0
    for row, col, value in moves:
        if (row, col) in last and last[row, col] != value:
            count += 1
        last[row, col] = value
    return count


@dataclass
class NextMoves:
    asked: int = 0
    agree: int = 0
    reach: int = 0
    offered: int = 0
    cpu_s: list[float] = field(default_factory=list)


def next_moves(
    loaded: gp.Loaded,
    moves: Sequence[Move],
    solution: int,
    sample: int,
    recent: bool,
    ceiling: bool = False,
) -> NextMoves:
    """The hint against the person's next cell at up to `sample` moves (module docstring)."""
    genre, puzzle = loaded.genre, loaded.puzzle
    width = puzzle.width
    answer = play.Answer(gp.Verdict.UNIQUE, solution, 0, 0.0, gp.ENGINE_VERSION)
    progress_at = []
    correct: set[int] = set()
    for index, (row, col, value) in enumerate(moves):
        cell = row * width + col
        if cell not in correct and value == (solution >> cell & 1):
            progress_at.append(index)
            correct.add(cell)
    if sample <= 0:
        progress_at = []
    elif len(progress_at) > sample:
        step = len(progress_at) / sample
        progress_at = [progress_at[int(k * step)] for k in range(sample)]
    found = NextMoves()
    for index in progress_at:
        shaded = empty = 0
        latest: dict[int, int] = {}
        for row, col, value in moves[:index]:
            latest[row * width + col] = value
        for cell, value in latest.items():
            if value == (solution >> cell & 1):
                if value:
                    shaded |= 1 << cell
                else:
                    empty |= 1 << cell
        trail = tuple(r * width + c for r, c, _ in reversed(moves[max(0, index - RECENT) : index]))
        row, col, _ = moves[index]
        target = row * width + col
        started = time.process_time()
        hint = play.hint(
            genre,
            puzzle,
            play.Marks(shaded, empty),
            answer,
            Deadline(HINT_S),
            recent=trail if recent else (),
        )
        found.cpu_s.append(time.process_time() - started)
        found.asked += 1
        if target in hint.shaded or target in hint.empty:
            found.agree += 1
        if ceiling:
            open_steps = offer(
                genre.ladder, genre.position, puzzle, Deadline(HINT_S), shaded=shaded, empty=empty
            ).steps
            if any((step.shaded | step.empty) >> target & 1 for step in open_steps):
                found.offered += 1
        if hint.rule is not None and hint.rule in {r.id for r in genre.ladder.rules}:
            rung = genre.ladder.rung_of(hint.rule)
            closure = genre.solve(puzzle, rung, Deadline(HINT_S), shaded, empty)
            if (closure.shaded | closure.empty) >> target & 1:
                found.reach += 1
    return found


@dataclass
class Board:
    ident: str
    held: bool
    cells: int
    rho: float | None
    ceilings: tuple[float | None, float | None, float | None] | None
    """Order ρ ceilings (`--ceiling`): the rounds reordered, cell by cell, cell by cell at
    any rung."""
    moves: NextMoves
    corrections: int
    grade: str
    score: float
    depth: int


def measure(
    path: Path, limit: int | None, sample: int, recent: bool, ceiling: bool = False
) -> tuple[str, list[Board]]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    genre_name = doc.get("genre", "")
    if genre_name not in gp.genre_names():
        return genre_name, []
    records = doc["puzzles"][:limit]
    loaded = {item.id: item for item in gp.load_all(str(path))}
    boards = []
    for record in records:
        item = loaded[record["id"]]
        if item.solution is None:
            continue
        moves = [tuple(move) for move in record["moves"]]
        genre, puzzle = item.genre, item.puzzle
        rung, progress = cheapest_rung(genre.ladder, genre.position, puzzle, Deadline(60))
        difficulty = rate(genre.ladder, rung, progress)
        boards.append(
            Board(
                ident=item.id,
                held=held_aside(item.id),
                cells=puzzle.width * puzzle.height,
                rho=order_rho(item, moves),  # type: ignore[arg-type]
                ceilings=order_ceilings(item, moves) if ceiling else None,  # type: ignore[arg-type]
                moves=next_moves(item, moves, item.solution, sample, recent, ceiling),  # type: ignore[arg-type]
                corrections=corrections(moves),  # type: ignore[arg-type]
                grade=difficulty.grade,
                score=difficulty.score,
                depth=len(depth(genre.ladder, genre.position, puzzle, Deadline(60))),
            )
        )
    return genre_name, boards


def summary(boards: list[Board]) -> dict[str, Any]:
    rhos = sorted(b.rho for b in boards if b.rho is not None)
    measured = [b.ceilings for b in boards if b.ceilings is not None]
    ceilings = [
        statistics.median(found)
        if (found := [c[k] for c in measured if c[k] is not None])
        else None
        for k in range(3)
    ]
    asked = sum(b.moves.asked for b in boards)
    cpu = sorted(t for b in boards for t in b.moves.cpu_s)
    per_cell = [b.corrections / b.cells for b in boards]
    grades: dict[str, list[float]] = {}
    for b, c in zip(boards, per_cell, strict=True):
        grades.setdefault(b.grade, []).append(c)
    return {
        "boards": len(boards),
        "rho_median": statistics.median(rhos) if rhos else None,
        "rho_q1": rhos[len(rhos) // 4] if rhos else None,
        "rho_q3": rhos[(3 * len(rhos)) // 4] if rhos else None,
        "hints": asked,
        "agree": sum(b.moves.agree for b in boards) / asked if asked else None,
        "reach": sum(b.moves.reach for b in boards) / asked if asked else None,
        "rho_ceiling_rounds": ceilings[0],
        "rho_ceiling_cells": ceilings[1],
        "rho_ceiling_any_rung": ceilings[2],
        "agree_ceiling": (
            sum(b.moves.offered for b in boards) / asked if asked and measured else None
        ),
        "hint_ms_median": 1000 * statistics.median(cpu) if cpu else None,
        "hint_ms_max": 1000 * cpu[-1] if cpu else None,
        "corrections_per_cell": {
            g: (len(v), statistics.fmean(v)) for g, v in sorted(grades.items())
        },
        "score_vs_corrections": spearman([b.score for b in boards], per_cell),
        "size_vs_corrections": spearman([b.cells for b in boards], per_cell),
        "depth_median": statistics.median(b.depth for b in boards) if boards else None,
        "depth_vs_corrections": spearman([b.depth for b in boards], per_cell),
        "depth_vs_corrections_beyond_size": partial(
            [b.depth for b in boards], per_cell, [b.cells for b in boards]
        ),
        "score_vs_corrections_beyond_size": partial(
            [b.score for b in boards], per_cell, [b.cells for b in boards]
        ),
    }


def partial(xs: Sequence[float], ys: Sequence[float], zs: Sequence[float]) -> float | None:
    """Spearman's partial correlation of xs and ys with zs held fixed (from the three
    pairwise rank correlations): what xs says of ys beyond what zs says."""
    xy, xz, yz = spearman(xs, ys), spearman(xs, zs), spearman(ys, zs)
    if xy is None or xz is None or yz is None or abs(xz) >= 1 or abs(yz) >= 1:
        return None
    return float((xy - xz * yz) / ((1 - xz**2) * (1 - yz**2)) ** 0.5)


def _f(value: float | None, form: str = ".2f") -> str:
    return "–" if value is None else format(value, form)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, help="records per file (default: all)")
    parser.add_argument(
        "--sample", type=int, default=20, help="hints per record (default 20; 0: none)"
    )
    parser.add_argument("--no-recent", action="store_true", help="hints without the last moves")
    parser.add_argument(
        "--ceiling", action="store_true", help="also what ordering alone could reach (slower)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, dict[str, Any]] = {}
    for path in args.files:
        genre, boards = measure(path, args.limit, args.sample, not args.no_recent, args.ceiling)
        if not boards:
            print(f"{path.name}: genre {genre!r} is not registered here: skipped", file=sys.stderr)
            continue
        results[genre] = {
            "tune": summary([b for b in boards if not b.held]),
            "held": summary([b for b in boards if b.held]),
        }
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(
        "| genre | part | boards | order ρ median (q1–q3) | next cell in hint "
        "| in the rung's reach | hint ms median / max "
        "| ceilings: order ρ in rounds / by cell / by cell, any rung | next cell |"
    )
    print("|---|---|---:|---|---:|---:|---|---|---:|")
    for genre, parts in results.items():
        for part, s in parts.items():
            print(
                f"| {genre} | {part} | {s['boards']} | {_f(s['rho_median'])} "
                f"({_f(s['rho_q1'])}–{_f(s['rho_q3'])}) | {_f(s['agree'], '.0%')} | "
                f"{_f(s['reach'], '.0%')} | {_f(s['hint_ms_median'], '.1f')} / "
                f"{_f(s['hint_ms_max'], '.0f')} | {_f(s['rho_ceiling_rounds'])} / "
                f"{_f(s['rho_ceiling_cells'])} / {_f(s['rho_ceiling_any_rung'])} | "
                f"{_f(s['agree_ceiling'], '.0%')} |"
            )
    print()
    print(
        "| genre | part | corrections per cell by grade (boards) "
        "| ρ(score, corrections) | ρ(size, corrections) | depth median "
        "| ρ(depth, corrections) | beyond size: score / depth |"
    )
    print("|---|---|---|---:|---:|---:|---:|---|")
    for genre, parts in results.items():
        for part, s in parts.items():
            by_grade = ", ".join(
                f"{g} {mean:.3f} ({n})" for g, (n, mean) in s["corrections_per_cell"].items()
            )
            print(
                f"| {genre} | {part} | {by_grade} | {_f(s['score_vs_corrections'])} | "
                f"{_f(s['size_vs_corrections'])} | {_f(s['depth_median'], 'g')} | "
                f"{_f(s['depth_vs_corrections'])} | "
                f"{_f(s['score_vs_corrections_beyond_size'])} / "
                f"{_f(s['depth_vs_corrections_beyond_size'])} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
