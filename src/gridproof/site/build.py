"""`site/` assembled (`make site`, `python -m gridproof.site.build`): a folder any static
host serves, in which the player and the workshop run their engine in the page.

- `index.html` and `static/`: the player's page and files (`gridproof/web/static`),
  unchanged but for relative paths and the engine the page uses (`worker`).
- `gridproof.zip`: the package as the worker's Pyodide imports it (the engine, genres and
  service layer; not the server, the command line, the bank nor output).
- `pyodide/`: Pyodide's runtime from the npm package (`package-lock.json` pins it).
- `bank/`: a bank exported as static shards (`gridproof.site.export`), empty without one.
- `sw.js`: the service worker: caches every file above on the first visit (the bank's
  shards as they are read, but for each key's first), so later visits need no network.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import zipfile
from pathlib import Path

from gridproof import bank
from gridproof.site import export

PACKAGE = Path(__file__).resolve().parents[1]
STATIC = PACKAGE / "web" / "static"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
LEFT_OUT = ("web", "cli", "bank", "output", "__main__.py", "site/build.py", "site/export.py")
"""What the worker never imports (the server, the command line, SQLite and platformdirs,
files for people): left out of `gridproof.zip`."""
ENGINE_TAG = '<meta name="gridproof-engine" content="worker">'


def find_pyodide(start: Path) -> Path:
    """`node_modules/pyodide` of the checkout holding `start` (after `npm ci`)."""
    for folder in (start, *start.parents):
        found = folder / "node_modules" / "pyodide"
        if (found / "pyodide.mjs").exists():
            return found
    raise SystemExit("no node_modules/pyodide here: run `npm ci` first (make site does)")


def build(out: Path, pyodide: Path, bank_path: Path | None = None) -> dict[str, int]:
    """Write the site to `out` (replaced); how many files and bytes it has."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(STATIC, out / "static", ignore=shutil.ignore_patterns("index.html"))
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    page = page.replace('"/static/', '"static/').replace("<head>", f"<head>\n{ENGINE_TAG}", 1)
    (out / "index.html").write_text(page, encoding="utf-8")
    _zip_package(out / "gridproof.zip")
    (out / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, out / "pyodide" / name)
    if bank_path is not None:
        export.export(bank.Bank(bank_path), out)
    else:
        (out / "bank").mkdir()
        empty = {"version": export.INDEX_VERSION, "per_shard": export.PER_SHARD, "keys": []}
        empty["daily"] = export.daily_settings()
        (out / "bank" / "index.json").write_text(json.dumps(empty), encoding="utf-8")
    return _service_worker(out)


def _zip_package(target: Path) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as made:
        for path in sorted(PACKAGE.rglob("*.py")):
            inside = path.relative_to(PACKAGE).as_posix()
            if any(inside == left or inside.startswith(left + "/") for left in LEFT_OUT):
                continue
            made.write(path, f"gridproof/{inside}")


def _service_worker(out: Path) -> dict[str, int]:
    """sw.js with the list of files to cache at install and a cache name that changes
    with any file's content (a new build replaces the old cache)."""
    index = json.loads((out / "bank" / "index.json").read_text(encoding="utf-8"))
    first_shards = {key["shards"][0] for key in index["keys"] if key["shards"]}
    files = []
    digest = hashlib.sha256()
    total = 0
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        name = path.relative_to(out).as_posix()
        data = path.read_bytes()
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        total += len(data)
        if name.startswith("bank/") and name != "bank/index.json" and name not in first_shards:
            continue  # cached when first read
        files.append(name)
    script = _SW.replace("__CACHE__", f"gridproof-site-{digest.hexdigest()[:16]}").replace(
        "__FILES__", json.dumps(["./", *files], indent=1)
    )
    (out / "sw.js").write_text(script, encoding="utf-8")
    return {"files": len(files) + 1, "bytes": total}


_SW = """// The service worker of gridproof's static site (written by gridproof.site.build):
// every file of the site cached at install, answers from the cache first, so the player
// and the workshop work with no network after the first visit. A new build's cache
// replaces the older builds' (the engine worker's snapshot cache is its own).
const CACHE = '__CACHE__';
const FILES = __FILES__;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(FILES))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => names.filter((n) => n.startsWith('gridproof-site-') && n !== CACHE))
    .then((old) => Promise.all(old.map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  const url = new URL(event.request.url);
  if (url.origin !== location.origin) return;
  const page = event.request.mode === 'navigate';
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(page ? './' : event.request, { ignoreSearch: true });
    if (kept) return kept;
    const response = await fetch(event.request);
    if (response.ok) cache.put(event.request, response.clone());
    return response;
  }));
});
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gridproof.site.build", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("site"), help="the folder to write")
    parser.add_argument("--bank", type=Path, help="a bank file whose boards the site serves")
    parser.add_argument("--pyodide", type=Path, help="node_modules/pyodide (found by default)")
    args = parser.parse_args(argv)
    if args.bank is not None and not args.bank.exists():
        print(f"gridproof: no bank file {args.bank}", file=sys.stderr)
        return 2
    pyodide = args.pyodide or find_pyodide(Path.cwd())
    made = build(args.out, pyodide, args.bank)
    print(f"wrote {args.out}/: {made['files']} files cached at install, {made['bytes']:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
