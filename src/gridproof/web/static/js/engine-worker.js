// The static site's engine worker: Pyodide (copied into the site from npm, never fetched
// from elsewhere) with the gridproof package (gridproof.zip), answering worker.js's
// messages with gridproof.site.engine. A call that needs a file of the site (the bank's
// index or a shard) answers {fetch: path}: the file is fetched (from the service worker's
// cache when offline) and the call made again.
//
// Start-up: a visit with no snapshot starts Pyodide and answers at once, then asks
// worker.js for a snapshot maker: a second worker that starts Pyodide, imports the engine
// and every genre, and keeps a memory snapshot of that state in the Cache Storage
// (Pyodide's experimental snapshot API), named by the digest of gridproof.zip. Later
// visits of the same build start from it, skipping Python's start and the imports. A
// snapshot that cannot be made or loaded is skipped: the worker starts as on a first visit.
import { loadPyodide } from '../../pyodide/pyodide.mjs';

const SITE = new URL('../../', import.meta.url);
const INDEX_URL = new URL('pyodide/', SITE).href;
const SNAPSHOTS = 'gridproof-engine-snapshot';
// The name worker.js gives the snapshot maker (a query on the script's URL would not do:
// the service worker answers the script without it).
const SNAPSHOT_MAKER = 'gridproof-snapshot-maker';
const PACKAGE_DIR = '/home/pyodide/gridproof-site';
const files = new Map();
let engine = null;

const IMPORTS = `
import sys
sys.path.insert(0, '${PACKAGE_DIR}')
import gridproof.site.engine
from gridproof.core import registry
from gridproof.service import play, workshop
registry.genres()
`;

async function digestOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.slice(0, 12), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function snapshots() {
  try {
    return await caches.open(SNAPSHOTS);
  } catch {
    return null; // no Cache Storage here (an insecure origin): no snapshot
  }
}

async function fetchPackage() {
  const response = await fetch(new URL('gridproof.zip', SITE));
  if (!response.ok) throw new Error(`gridproof.zip: HTTP ${response.status}`);
  const zip = await response.arrayBuffer();
  return { zip, key: new URL(`snapshot-${await digestOf(zip)}`, SITE).href };
}

// The snapshot maker (this script in a worker named SNAPSHOT_MAKER, started by worker.js
// when the engine started without one): a Pyodide of its own, the imports, the snapshot
// kept.
async function makeSnapshot() {
  const { zip, key } = await fetchPackage();
  const cache = await snapshots();
  if (!cache) return;
  const pyodide = await loadPyodide({ indexURL: INDEX_URL, _makeSnapshot: true });
  pyodide.unpackArchive(zip, 'zip', { extractDir: PACKAGE_DIR });
  pyodide.runPython(IMPORTS);
  const snapshot = pyodide.makeMemorySnapshot();
  for (const old of await cache.keys()) await cache.delete(old);
  await cache.put(key, new Response(snapshot));
}

async function start() {
  const { zip, key } = await fetchPackage();
  const cache = await snapshots();
  const kept = cache && await cache.match(key);
  let pyodide = null;
  if (kept) {
    try {
      pyodide = await loadPyodide({ indexURL: INDEX_URL, _loadSnapshot: await kept.arrayBuffer() });
    } catch {
      pyodide = null;
    }
  }
  const fresh = !pyodide;
  if (fresh) pyodide = await loadPyodide({ indexURL: INDEX_URL });
  pyodide.unpackArchive(zip, 'zip', { extractDir: PACKAGE_DIR });
  if (fresh) pyodide.runPython(`import sys\nsys.path.insert(0, '${PACKAGE_DIR}')`);
  pyodide.globals.set('lookup', (path) => (files.has(path) ? files.get(path) : false));
  pyodide.runPython(`
from gridproof.site.engine import Engine, Unread

def _read(path):
    found = lookup(path)
    if found is False:
        raise Unread(path)
    return found

engine = Engine(_read)
`);
  engine = pyodide.globals.get('engine');
  if (fresh && cache) self.postMessage({ wantSnapshot: true });
}

if (self.name === SNAPSHOT_MAKER) {
  makeSnapshot().catch(() => {}).finally(() => {
    self.postMessage({ snapshot: 'done' });
    self.close();
  });
}

const ready = self.name === SNAPSHOT_MAKER ? null : start();

self.onmessage = async ({ data }) => {
  if (!ready) return;
  try {
    await ready;
  } catch (error) {
    self.postMessage({ id: data.id, error: `The engine could not start: ${error.message}`, status: 0 });
    return;
  }
  for (;;) {
    const answer = JSON.parse(await engine.handle(data.method, data.body));
    if (answer.fetch === undefined) {
      self.postMessage({ id: data.id, ...answer });
      return;
    }
    let text; // undefined (None in Python): the site has no such file
    try {
      const response = await fetch(new URL(answer.fetch, SITE));
      if (response.ok) text = await response.text();
    } catch {
      // offline and not cached: the engine goes on without the file
    }
    files.set(answer.fetch, text);
  }
};
