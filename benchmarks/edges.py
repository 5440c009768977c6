"""The deadline table of issue 26: the inputs a stranger can send that used to overrun
their deadline, each read and counted by `gridproof count --deadline D` in a fresh process.

    nice -n 10 .venv/bin/python benchmarks/edges.py [--side 1024] [--only NAME,...]

Inputs (made here, in a temporary folder, from random pictures with a fixed seed):
`non-goal` (a `.non` file with its `goal` line), `json-solution` (a JSON puzzle with its
`solution`), `pzprv3-cells` (a pzprv3 file with its cells shaded), `pattern-prefilled`
(a Pattern ID whose prefilled squares fix every cell), all at `--side`; `pattern-one-100`
(S1: a 100x100 Pattern ID with one prefilled square); `permuted-1000` (a filled disc with
rows and columns shuffled) and `random-1024` (Nonograms the counter finds hard);
`start-up` (a 5x5 board) is what any command costs before it reads its input.

Printed per input: its size in bytes, the deadline, the wall time of the whole command
(start-up, reading and counting), its CPU time, its peak resident memory (the child's
`ru_maxrss`), the exit status and the last line it printed. Times are wall-clock on a
machine that may be shared; a benchmark asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from gridproof.genres.nonogram import codec, formats
from gridproof.genres.nonogram.model import Nonogram, make_puzzle

Picture = list[list[bool]]


def random_picture(side: int, seed: int = 26) -> Picture:
    rng = random.Random(seed)
    return [[rng.random() < 0.5 for _ in range(side)] for _ in range(side)]


def permuted_disc(side: int, seed: int = 17) -> Picture:
    rng = random.Random(seed)
    centre, radius = (side - 1) / 2, side * 0.4
    disc = [
        [(r - centre) ** 2 + (c - centre) ** 2 <= radius**2 for c in range(side)]
        for r in range(side)
    ]
    rows, cols = list(range(side)), list(range(side))
    rng.shuffle(rows)
    rng.shuffle(cols)
    return [[disc[r][c] for c in cols] for r in rows]


def _runs(line: list[bool]) -> tuple[int, ...]:
    found, length = [], 0
    for shaded in [*line, False]:
        if shaded:
            length += 1
        elif length:
            found.append(length)
            length = 0
    return tuple(found)


def puzzle_of(picture: Picture) -> Nonogram:
    side = len(picture)
    cols = [_runs([picture[r][c] for r in range(side)]) for c in range(side)]
    return make_puzzle([_runs(row) for row in picture], cols)


def mask_of(picture: Picture) -> int:
    flat = "".join("1" if v else "0" for row in picture for v in row)
    return int(flat[::-1], 2)


def prefilled(picture: Picture, only_first: bool) -> str:
    """A Pattern ID's prefilled part: every cell (a letter each), or only the first."""
    flat = [v for row in picture for v in row]
    if not only_first:
        return "".join("A" if v else "a" for v in flat)
    cells = len(flat) - 1
    return (
        ("A" if flat[0] else "a")
        + "z" * (cells // 25)
        + (chr(ord("a") + cells % 25) if cells % 25 else "")
    )


def inputs(side: int, folder: Path) -> dict[str, tuple[Path, float]]:
    """Each input's file and its deadline."""
    made: dict[str, Callable[[], tuple[str, str, float]]] = {}
    big = random_picture(side)
    small = random_picture(100)

    def write_json() -> tuple[str, str, float]:
        obj = {**codec.to_json(puzzle_of(big)), "genre": "nonogram"}
        obj["solution"] = [[int(v) for v in row] for row in big]
        return "json", json.dumps(obj), 2.0

    made["start-up"] = lambda: ("code", codec.format_code(puzzle_of(random_picture(5))), 1.0)
    made["non-goal"] = lambda: (
        "non",
        formats.format_non(puzzle_of(big), goal=mask_of(big)),
        2.0,
    )
    made["json-solution"] = write_json
    made["pzprv3-cells"] = lambda: (
        "txt",
        formats.format_pzprv3(puzzle_of(big), mask_of(big)),
        2.0,
    )
    made["pattern-prefilled"] = lambda: (
        "txt",
        formats.format_pattern(puzzle_of(big)) + "," + prefilled(big, only_first=False),
        2.0,
    )
    made["pattern-one-100"] = lambda: (
        "txt",
        formats.format_pattern(puzzle_of(small)) + "," + prefilled(small, only_first=True),
        2.0,
    )
    made["permuted-1000"] = lambda: (
        "code",
        codec.format_code(puzzle_of(permuted_disc(1000))),
        1.0,
    )
    made["random-1024"] = lambda: ("code", codec.format_code(puzzle_of(random_picture(1024))), 1.0)
    out = {}
    for name, make in made.items():
        suffix, text, deadline = make()
        path = folder / f"{name}.{suffix}"
        path.write_text(text, encoding="utf-8")
        out[name] = (path, deadline)
    return out


def measure(path: Path, deadline: float) -> tuple[float, float, float, int, str]:
    """(wall s, cpu s, peak MB, exit status, last line) of one `gridproof count` (a
    `.code` file's code is sent on standard input)."""
    code = path.suffix == ".code"
    source = "-" if code else str(path)
    command = [sys.executable, "-m", "gridproof", "count", "--deadline", str(deadline), source]
    start = time.perf_counter()
    with path.open("rb") if code else open(os.devnull, "rb") as stdin:
        process = subprocess.Popen(
            command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
    assert process.stdout is not None
    output = process.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    lines = [line for line in output.splitlines() if line.strip()]
    last = " ".join(lines[-1].split()).replace(folder_of(path), "")[:90] if lines else ""
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss / 1024, process.returncode, last


def folder_of(path: Path) -> str:
    return str(path.parent) + os.sep


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--side", type=int, default=1024)
    parser.add_argument("--only", default="", help="comma-separated input names")
    args = parser.parse_args()
    only = {name for name in args.only.split(",") if name}
    with tempfile.TemporaryDirectory() as folder:
        made = inputs(args.side, Path(folder))
        print("| input | bytes | deadline s | wall s | cpu s | peak MB | exit | says |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for name, (path, deadline) in made.items():
            if only and name not in only:
                continue
            wall, cpu, peak, code, last = measure(path, deadline)
            size = path.stat().st_size
            print(
                f"| {name} | {size:,} | {deadline:g} | {wall:.2f} | {cpu:.2f} | {peak:.0f} "
                f"| {code} | {last} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
