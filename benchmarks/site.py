"""The static site measured in Debian's chromium (issue #32's targets).

    .venv/bin/python benchmarks/site.py [--boards 10] [--corpus 40] [--runs 5]
    .venv/bin/python benchmarks/site.py --newgame 8 [--first 1] [--genre norinori] [--size 30]
                                        [--grade hard ...] [--deadline 30]

Builds the site (`gridproof.site.build`, needs `npm ci` first: `make site` does it) in a
temporary folder, serves it with `python3 -m http.server` and prints:

- load: the bytes the first visit transfers (every file the service worker caches at
  install, gzip -6 as a static host sends them), Pyodide's part apart;
- ready: from the navigation to the engine worker's first answer, a first visit (nothing
  cached) and a cached one (the service worker's cache and the engine's memory snapshot,
  waited for), over `--runs` fresh contexts;
- hint and verdict at 15x15: `--boards` generated Norinori, each called from the page through
  the engine interface (js/api.js), the first hint of a board apart (it counts the answer);
- counts: the janko corpus's boards (`../shared/corpus`, `--corpus` per genre) counted to 2
  in the worker and here by the same engine in pure Python (python-sat hidden here, as it is
  absent in the browser): the engine's own elapsed time per board, and the ratio per board.

With `--newgame SEEDS`, only this instead: New game in the page on an empty bank (the default
build), at `--size` (30) for `--genre` (norinori), per grade (`--grade`, default every grade
the genre offers there), SEEDS seeds from `--first` (1; `benchmarks/newgame.py` samples from
1001), each asked with its `seed` and `deadline_s` `--deadline` (default the engine's
`MAX_S`, the most it grants: a seed past it fails with a 503 at about that time, its time a
lower bound), through the engine interface (js/api.js), so a seed is exactly one
generation, as `engine.new` makes it. Each seed is then generated here by
`service.generate` (what `engine.new` calls) with `CPYTHON_S`, to see its true time. It
prints a line per seed as it goes, then per grade: the page's wall seconds (what the player
waits) and chromium's CPU seconds (every chromium process under this one, read by psutil
around the call), CPython's CPU seconds (`time.process_time`), the ratios page / CPython
per seed, how many seeds took past `NEW_S` (the deadline of a New game that asks none) in
the page and here, how many failed in the page, and how many boards differ between the
page and here (none should: the same seed gives the same board under any deadline). The
page and CPython run one after the other, never at once; the page's snapshot maker (a
second Pyodide) is waited for first.

Times in the page are the browser's clock (the page cannot read its CPU time; `--newgame`
reads chromium's from outside); the machine may be shared, so each figure is a median, p95
and max. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import gzip
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

sys.modules["pysat"] = None  # type: ignore[assignment]  # the browser has no python-sat

from playwright.sync_api import sync_playwright  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402

from gridproof import service  # noqa: E402
from gridproof.core import registry  # noqa: E402
from gridproof.core.errors import GenerationError  # noqa: E402
from gridproof.site import build, engine  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
FILES = ("janko-norinori.json", "janko-nondango.json", "janko-nonogram.json")
FIRST_ANSWER = """
(() => {
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        if (window.__firstAnswer === undefined) window.__firstAnswer = performance.now();
      });
    }
  };
})();
"""
"""Kept in the page before its scripts: when the engine worker first answered."""


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def row(name: str, values: Sequence[float], unit: str = "ms") -> str:
    if not values:
        return f"{name:<34} (none)"
    median, p95, most = statistics.median(values), percentile(values, 0.95), max(values)
    return f"{name:<34} {median:>9.2f} {p95:>9.2f} {most:>9.2f}  {unit}  (n={len(values)})"


@contextmanager
def served(folder: Path) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def load_bytes(site: Path) -> tuple[int, int, int]:
    """Raw bytes, gzip bytes, and Pyodide's gzip bytes of what the first visit fetches."""
    script = (site / "sw.js").read_text(encoding="utf-8")
    listed = json.loads(script.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    raw = packed = pyodide = 0
    for name in listed:
        path = site / ("index.html" if name == "./" else name)
        data = path.read_bytes()
        size = len(gzip.compress(data, 6))
        raw, packed = raw + len(data), packed + size
        pyodide += size if name.startswith("pyodide/") else 0
    return raw, packed, pyodide


SNAPSHOT_KEPT = """
async () => (await (await caches.open('gridproof-engine-snapshot')).keys()).length > 0
"""
"""Whether the engine's memory snapshot for cached visits is kept (a worker makes it
after the first visit's engine answered)."""


def ready_times(browser: Any, url: str, runs: int) -> tuple[list[float], list[float]]:
    first, cached = [], []
    for _ in range(runs):
        context = browser.new_context(base_url=url)
        context.add_init_script(FIRST_ANSWER)
        page = context.new_page()
        page.goto("/")
        page.wait_for_function("window.__firstAnswer !== undefined", timeout=120_000)
        first.append(page.evaluate("window.__firstAnswer"))
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
        for _ in range(600):
            if page.evaluate(SNAPSHOT_KEPT):
                break
            time.sleep(0.2)
        again = context.new_page()
        again.goto("/")
        again.wait_for_function("window.__firstAnswer !== undefined", timeout=120_000)
        cached.append(again.evaluate("window.__firstAnswer"))
        context.close()
    return first, cached


CALLS = """
async ([codes, repeats]) => {
  const api = await import(new URL('static/js/api.js', location.href).href);
  const out = { firstHint: [], hint: [], verdict: [] };
  for (const code of codes) {
    const view = await api.puzzle(code);
    const marks = Array.from({ length: view.height }, () => '.'.repeat(view.width));
    let start = performance.now();
    await api.hint({ code, marks, version: 0, recent: [] });
    out.firstHint.push(performance.now() - start);
    for (let i = 0; i < repeats; i += 1) {
      start = performance.now();
      const answer = await api.hint({ code, marks, version: i, recent: [] });
      out.hint.push(performance.now() - start);
      if (answer.status !== 'step') throw new Error(`hint: ${answer.status}`);
    }
    for (let i = 0; i < repeats; i += 1) {
      start = performance.now();
      const verdict = await api.verdict({ source: code, version: i });
      out.verdict.push(performance.now() - start);
      if (verdict.outcome !== 'unique') throw new Error(`verdict: ${verdict.outcome}`);
    }
  }
  return out;
}
"""

COUNTS = """
async (codes) => {
  const api = await import(new URL('static/js/api.js', location.href).href);
  const out = [];
  for (const code of codes) {
    const counted = await api.count({ source: code, limit: 2, deadline_s: 30 });
    out.push([counted.outcome, counted.elapsed_s]);
  }
  return out;
}
"""


def corpus_boards(per_genre: int) -> list[tuple[str, str]]:
    """(genre, code) of the first `per_genre` boards of each janko file."""
    boards = []
    for name in FILES:
        path = CORPUS / name
        if not path.exists():
            continue
        for loaded in service.load(str(path))[:per_genre]:
            boards.append((loaded.genre.name, loaded.genre.format_code(loaded.puzzle)))
    return boards


CPYTHON_S = 120.0
"""CPython's deadline per seed in `--newgame`: far past any seed's time (the board does not
depend on it)."""

NEW_GAME = """
async (request) => {
  const api = await import(new URL('static/js/api.js', location.href).href);
  const start = performance.now();
  try {
    const view = await api.newPuzzle(request);
    return { s: (performance.now() - start) / 1000, code: view.code };
  } catch (error) {
    return { s: (performance.now() - start) / 1000, error: String(error.message),
             status: error.status ?? null };
  }
}
"""
"""One New game through the page's engine interface: wall seconds, and the board or the
failure."""


def chromium_cpu() -> float:
    """CPU seconds of every chromium process under this one (the browser, its renderers)."""
    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            if "chrom" in child.name():
                used = child.cpu_times()
                total += used.user + used.system
        except psutil.NoSuchProcess:
            continue
    return total


@dataclass
class Seeds:
    """One grade's seeds measured: per seed, in order."""

    page: list[float] = field(default_factory=list)
    page_cpu: list[float] = field(default_factory=list)
    cpython: list[float] = field(default_factory=list)
    failed: int = 0
    differ: int = 0


def new_games(
    genre: str, side: int, grades: Sequence[str], seeds: range, deadline_s: float
) -> dict[str, Seeds]:
    """Every grade's `seeds`, in the page then here (printing a line per seed)."""
    size = f"{side}x{side}"
    smallest = registry.genre(genre).sizes[0][0]
    warm_up = {"genre": genre, "size": f"{smallest}x{smallest}", "seed": 1}
    service.generate(genre, smallest, smallest, 1, None, CPYTHON_S)
    measured: dict[str, Seeds] = {}
    with site_in_chromium() as page:
        for _ in range(1500):
            if page.evaluate(SNAPSHOT_KEPT):
                break
            time.sleep(0.2)
        time.sleep(2)  # the snapshot maker's worker ends after it kept the snapshot
        page.evaluate(NEW_GAME, warm_up)
        for grade in grades:
            entry = measured.setdefault(grade, Seeds())
            for seed in seeds:
                request: dict[str, Any] = {"genre": genre, "size": size, "seed": seed}
                request.update(difficulty=grade, deadline_s=deadline_s, seen=[], exclude=[])
                cpu = chromium_cpu()
                got = page.evaluate(NEW_GAME, request)
                page_cpu = chromium_cpu() - cpu
                cpu = time.process_time()
                try:
                    board = service.generate(genre, side, side, seed, grade, CPYTHON_S)
                    code: str | None = board.code
                except GenerationError:
                    code = None
                here = time.process_time() - cpu
                entry.page.append(got["s"])
                entry.page_cpu.append(page_cpu)
                entry.cpython.append(here)
                entry.failed += "error" in got
                entry.differ += "error" not in got and got["code"] != code
                said = f"failed ({got['status']}: {got['error']})" if "error" in got else "ok"
                print(
                    f"{genre} {size} {grade:<6} seed {seed:>3}: page {got['s']:6.2f} s wall "
                    f"{page_cpu:6.2f} s CPU, CPython {here:6.2f} s CPU, "
                    f"page/CPython {got['s'] / max(here, 1e-6):5.2f}x  {said}",
                    flush=True,
                )
    return measured


def print_new_games(
    genre: str, side: int, seeds: range, deadline_s: float, measured: dict[str, Seeds]
) -> None:
    print(
        f"\nNew game {genre} {side}x{side} in the page (deadline_s {deadline_s:g}, the engine "
        f"grants at most {engine.MAX_S:g}) and in CPython, seeds {seeds.start}.."
        f"{seeds.stop - 1} per grade"
    )
    print(f"{'':<34} {'median':>9} {'p95':>9} {'max':>9}")
    for grade, entry in measured.items():
        pairs = list(zip(entry.page, entry.page_cpu, entry.cpython, strict=True))
        print(row(f"{grade}: page, wall", entry.page, "s "))
        print(row(f"{grade}: page, chromium CPU", entry.page_cpu, "s "))
        print(row(f"{grade}: CPython, CPU", entry.cpython, "s "))
        print(row(f"{grade}: page wall / CPython", [p / max(c, 1e-6) for p, _, c in pairs], "x "))
        print(row(f"{grade}: page CPU / CPython", [p / max(c, 1e-6) for _, p, c in pairs], "x "))
        over_page = sum(s > engine.NEW_S for s in entry.page)
        over_here = sum(s > engine.NEW_S for s in entry.cpython)
        print(
            f"{grade}: past NEW_S {engine.NEW_S:g} s: page {over_page} of {len(entry.page)}, "
            f"CPython {over_here}; failed in the page: {entry.failed}; "
            f"boards that differ: {entry.differ}"
        )


@contextmanager
def site_in_chromium() -> Iterator[Any]:
    """The site built in a temporary folder, served, and a page of it open in chromium (its
    own first New game made)."""
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        build.build(site, build.find_pyodide(ROOT))
        with served(site) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            context = browser.new_context(base_url=url)
            page = context.new_page()
            page.goto("/")
            page.wait_for_selector("#board[data-code]", timeout=120_000)
            yield page
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=10, help="15x15 boards for hint/verdict")
    parser.add_argument("--repeats", type=int, default=5, help="calls per board")
    parser.add_argument("--corpus", type=int, default=40, help="janko boards per genre")
    parser.add_argument("--runs", type=int, default=5, help="fresh visits for the ready time")
    parser.add_argument("--newgame", type=int, metavar="SEEDS", help="only New game, SEEDS seeds")
    parser.add_argument("--first", type=int, default=1, help="--newgame's first seed")
    parser.add_argument("--genre", default="norinori", help="--newgame's genre")
    parser.add_argument("--size", type=int, default=30, help="--newgame's board side")
    parser.add_argument("--grade", action="append", help="--newgame's grades (default: all)")
    parser.add_argument("--deadline", type=float, default=engine.MAX_S, help="page's deadline_s")
    args = parser.parse_args(argv)

    if args.newgame:
        offered = registry.genre(args.genre).offered(args.size, args.size)
        grades = args.grade or [str(grade) for grade in offered]
        seeds = range(args.first, args.first + args.newgame)
        measured = new_games(args.genre, args.size, grades, seeds, args.deadline)
        print_new_games(args.genre, args.size, seeds, args.deadline, measured)
        return 0

    codes = []
    for seed in range(1, args.boards + 1):
        codes.append(service.generate("norinori", 15, 15, seed, "medium", 60).code)
    corpus = corpus_boards(args.corpus)
    if not corpus:
        print(f"{CORPUS} is absent: the counts are not compared")

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        build.build(site, build.find_pyodide(ROOT))
        raw, packed, pyodide = load_bytes(site)
        with served(site) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            first, cached = ready_times(browser, url, args.runs)
            context = browser.new_context(base_url=url)
            page = context.new_page()
            page.goto("/")
            page.wait_for_selector("#board[data-code]", timeout=120_000)
            calls = page.evaluate(CALLS, [codes, args.repeats])
            counted = page.evaluate(COUNTS, [code for _, code in corpus])
            browser.close()

    print(
        f"first load: {raw / 1e6:.2f} MB, {packed / 1e6:.2f} MB gzip (Pyodide {pyodide / 1e6:.2f})"
    )
    print(f"{'':<34} {'median':>9} {'p95':>9} {'max':>9}")
    print(row("ready, first visit", first))
    print(row("ready, cached visit", cached))
    print(row("first hint of a 15x15 board", calls["firstHint"]))
    print(row("hint, 15x15 Norinori", calls["hint"]))
    print(row("verdict, 15x15 Norinori", calls["verdict"]))

    by_genre: dict[str, dict[str, list[float]]] = {}
    disagree = 0
    for (genre, code), (verdict, worker_s) in zip(corpus, counted, strict=True):
        loaded = service.load(code, files=False)[0]
        cpu = time.process_time()
        here = service.count(loaded, 2, 30)
        cpu = time.process_time() - cpu
        disagree += str(here.verdict) != verdict
        entry = by_genre.setdefault(genre, {"worker": [], "cpython": [], "cpu": [], "ratio": []})
        entry["worker"].append(1000 * worker_s)
        entry["cpython"].append(1000 * here.elapsed_s)
        entry["cpu"].append(1000 * cpu)
        entry["ratio"].append(worker_s / max(here.elapsed_s, 1e-6))
    for genre, entry in sorted(by_genre.items()):
        print(row(f"count {genre}, worker", entry["worker"]))
        print(row(f"count {genre}, CPython", entry["cpython"]))
        print(row(f"count {genre}, CPython CPU", entry["cpu"]))
        print(row(f"count {genre}, worker/CPython", entry["ratio"], "x "))
    if corpus:
        print(f"verdicts that differ between the worker and CPython: {disagree} of {len(corpus)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
