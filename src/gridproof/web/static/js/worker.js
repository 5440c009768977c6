// The engine in the page: gridproof running in Pyodide in a Web Worker (engine-worker.js),
// for the static site. Calls go to the worker one at a time, as serializable messages
// ({id, method, body} out; {id, ok} or {id, error, status} back). A call whose AbortSignal
// fires is dropped if it is still waiting; if it is running, it is left to finish unheard
// (a live verdict overtaken by the next edit: cheaper than a restart) unless it runs past
// RESTART_AFTER_MS, when the worker is stopped and a new one started (a long count cannot
// be interrupted otherwise) and the calls waiting go on there. The site's service worker (sw.js) is registered here: it keeps every file
// cached, so the site works with no network after the first visit.
import { ApiError } from './apierror.js';

const SITE = new URL('../../', import.meta.url);
const SCRIPT = new URL('./engine-worker.js', import.meta.url);

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register(new URL('sw.js', SITE)).catch(() => {});
}

const RESTART_AFTER_MS = 300;

let worker = null;
let snapshotMaker = null;
let running = null;
const waiting = [];
let next = 1;

function start() {
  worker = new Worker(SCRIPT, { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (data.wantSnapshot) {
      makeSnapshot();
      return;
    }
    if (!running || data.id !== running.id) return;
    const call = running;
    running = null;
    if (call.cancelled) {
      pump();
      return;
    }
    if (data.ok !== undefined) call.resolve(data.ok);
    else call.reject(new ApiError(data.error, data.status));
    pump();
  };
  worker.onerror = (event) => {
    event.preventDefault();
    const call = running;
    restart();
    if (call) call.reject(new ApiError(`The engine stopped: ${event.message || 'an error in its worker'}`, 0));
  };
}

// Once a visit, when the engine started without a snapshot: a worker of its own makes one
// for the next visit (see engine-worker.js), then ends.
function makeSnapshot() {
  if (snapshotMaker) return;
  snapshotMaker = new Worker(SCRIPT, { type: 'module', name: 'gridproof-snapshot-maker' });
  snapshotMaker.onmessage = () => snapshotMaker.terminate();
}

function restart() {
  if (worker) worker.terminate();
  running = null;
  start();
  pump();
}

function pump() {
  if (running || !waiting.length) return;
  running = waiting.shift();
  running.started = performance.now();
  worker.postMessage({ id: running.id, method: running.method, body: running.body });
}

function aborted() {
  return new DOMException('The call was cancelled', 'AbortError');
}

function call(method, body, signal) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) {
      reject(aborted());
      return;
    }
    const entry = { id: next++, method, body: JSON.stringify(body ?? {}), resolve, reject };
    waiting.push(entry);
    if (signal) {
      signal.addEventListener('abort', () => {
        const at = waiting.indexOf(entry);
        if (at >= 0) waiting.splice(at, 1);
        else if (running !== entry) return;
        else {
          // unheard from now on; stopped with its worker if it runs on past the limit
          entry.cancelled = true;
          const left = RESTART_AFTER_MS - (performance.now() - entry.started);
          if (left <= 0) restart();
          else setTimeout(() => { if (running === entry) restart(); }, left);
        }
        reject(aborted());
      }, { once: true });
    }
    pump();
  });
}

start();

export const engine = {
  catalog: () => call('catalog'),
  newPuzzle: (request, signal) => call('new', request, signal),
  puzzle: (code, signal) => call('puzzle', { code }, signal),
  hint: (request) => call('hint', request),
  check: (request) => call('check', request),
  validate: (code, rows) => call('validate', { source: code, grid: rows }),
  boards: (query) => call('boards', query),
  daily: () => call('daily'),
  count: (request, signal) => call('count', request, signal),
  convert: (source, to) => call('convert', { source, to }),
  verdict: (request, signal) => call('verdict', request, signal),
  repair: (request, signal) => call('repair', request, signal),
  makeUnique: (request, signal) => call('unique', request, signal),
  minimize: (request, signal) => call('minimize', request, signal),
  keep: (request) => call('keep', request),
};
