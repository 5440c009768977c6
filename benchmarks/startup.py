"""What a command costs before any work: the CPU seconds of whole processes (user + system,
so a shared machine does not inflate them), each run `--runs` times.

    .venv/bin/python benchmarks/startup.py [--runs 15]

Rows: the interpreter alone (`python -c pass`, the floor), `import gridproof`,
`gridproof --version`, `gridproof count` on one 5×5 Norinori and one 5×5 Nonogram, and
`gridproof --help` (which builds every command's parser and so loads every genre). The
targets of #30 are 0.1 s for the import and 0.15 s for `--version` and a 5×5 count. A
benchmark, not a test: it prints a table and never fails on a time.

Python's bytecode cache decides most of an import's cost: an installed package has its
`.pyc` files, and an editable one writes them on first import, unless
PYTHONDONTWRITEBYTECODE is set (as on some build and CI machines), when every process
compiles every module it imports again. The table is of cached runs (each command is run
once without that variable first, so the cache exists); `--uncached` measures with no
cache at all (every `__pycache__` under the package is removed first and the variable set).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
NORINORI = "norinori.1.5x5.DO5bvBI"
NONOGRAM = "5x5:1/2/3/1.2/2/1/2/1.1/3/3"
ROWS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import gridproof": [sys.executable, "-c", "import gridproof"],
    "gridproof --version": [str(BIN / "gridproof"), "--version"],
    "gridproof count (Norinori 5x5)": [str(BIN / "gridproof"), "count", NORINORI],
    "gridproof count (Nonogram 5x5)": [str(BIN / "gridproof"), "count", NONOGRAM],
    "gridproof --help": [str(BIN / "gridproof"), "--help"],
}
TARGETS = {"import gridproof": 0.1, "gridproof --version": 0.15}


def cpu_of(command: list[str], env: dict[str, str]) -> float:
    """The CPU seconds (user + system) of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def without_cache() -> None:
    """Remove every bytecode cache of the package (what a process must compile again)."""
    import gridproof

    for folder in Path(gridproof.__file__).parent.rglob("__pycache__"):
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--uncached", action="store_true", help="measure with no bytecode cache at all"
    )
    args = parser.parse_args()
    runs = args.runs
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if args.uncached:
        without_cache()
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    cache = "no bytecode cache" if args.uncached else "bytecode cached"
    print(f"| command | median s | p95 s | max s | target s |  ({runs} runs, CPU, {cache})")
    print("|---|---:|---:|---:|---:|")
    for name, command in ROWS.items():
        if not args.uncached:
            cpu_of(command, env)  # writes the cache the table's runs read
        times = sorted(cpu_of(command, env) for _ in range(runs))
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        target = TARGETS.get(name, 0.15 if name.startswith("gridproof count") else None)
        shown = "" if target is None else f"{target:.2f}"
        print(
            f"| {name} | {statistics.median(times):.3f} | {p95:.3f} | {times[-1]:.3f} | {shown} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
