// The static site's engine worker: Pyodide (copied into the site from npm, never fetched
// from elsewhere) with the gridproof package (gridproof.zip), answering worker.js's
// messages with gridproof.site.engine. A call that needs a file of the site (the bank's
// index or a shard) answers {fetch: path}: the file is fetched (from the service worker's
// cache when offline) and the call made again.
import { loadPyodide } from '../../pyodide/pyodide.mjs';

const SITE = new URL('../../', import.meta.url);
const files = new Map();
let engine = null;

const ready = (async () => {
  const pyodide = await loadPyodide({ indexURL: new URL('pyodide/', SITE).href });
  const response = await fetch(new URL('gridproof.zip', SITE));
  if (!response.ok) throw new Error(`gridproof.zip: HTTP ${response.status}`);
  pyodide.unpackArchive(await response.arrayBuffer(), 'zip', { extractDir: '/home/pyodide/gridproof-site' });
  pyodide.globals.set('lookup', (path) => (files.has(path) ? files.get(path) : false));
  pyodide.runPython(`
import sys
sys.path.insert(0, '/home/pyodide/gridproof-site')
from gridproof.site.engine import Engine, Unread

def _read(path):
    found = lookup(path)
    if found is False:
        raise Unread(path)
    return found

engine = Engine(_read)
`);
  engine = pyodide.globals.get('engine');
})();

self.onmessage = async ({ data }) => {
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
    let text = null;
    try {
      const response = await fetch(new URL(answer.fetch, SITE));
      if (response.ok) text = await response.text();
    } catch {
      // offline and not cached: the engine goes on without the file
    }
    files.set(answer.fetch, text);
  }
};
