"""The static site measured in Debian's chromium (issue #32's targets).

    .venv/bin/python benchmarks/site.py [--boards 10] [--corpus 40] [--runs 5]

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

Times in the page are the browser's clock (the page's CPU time cannot be read there); the
machine may be shared, so each figure is a median, p95 and max. A benchmark, never a test.
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
from pathlib import Path
from typing import Any

sys.modules["pysat"] = None  # type: ignore[assignment]  # the browser has no python-sat

from playwright.sync_api import sync_playwright  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402

from gridproof import service  # noqa: E402
from gridproof.site import build  # noqa: E402

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=10, help="15x15 boards for hint/verdict")
    parser.add_argument("--repeats", type=int, default=5, help="calls per board")
    parser.add_argument("--corpus", type=int, default=40, help="janko boards per genre")
    parser.add_argument("--runs", type=int, default=5, help="fresh visits for the ready time")
    args = parser.parse_args(argv)

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
