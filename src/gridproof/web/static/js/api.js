// The engine interface: every call the player and the workshop make, one function each.
// Two implementations answer them: http.js (the JSON API of `gridproof serve`) and
// worker.js (the engine itself in a Web Worker, for the static site). The page says which
// with <meta name="gridproof-engine" content="worker"> (the site's index.html has it);
// nothing else in the front end knows which it has. Errors are thrown as ApiError with
// the engine's message; a call whose AbortSignal fires rejects with an AbortError.

export { ApiError } from './apierror.js';

const chosen = document.querySelector('meta[name="gridproof-engine"]')?.content || 'http';
const { engine } = chosen === 'worker' ? await import('./worker.js') : await import('./http.js');

export const catalog = () => engine.catalog();
export const newPuzzle = (request, signal) => engine.newPuzzle(request, signal);
export const puzzle = (code, signal) => engine.puzzle(code, signal);
export const hint = (request) => engine.hint(request);
export const check = (request) => engine.check(request);
export const validate = (code, rows) => engine.validate(code, rows);
export const boards = (query) => engine.boards(query);
export const daily = () => engine.daily();
export const convert = (source, to) => engine.convert(source, to);
export const count = (request, signal) => engine.count(request, signal);

// The workshop (see docs/player.md): a live verdict, repairs, "Make unique", keeping a board.
export const verdict = (request, signal) => engine.verdict(request, signal);
export const repair = (request, signal) => engine.repair(request, signal);
export const makeUnique = (request, signal) => engine.makeUnique(request, signal);
export const minimize = (request, signal) => engine.minimize(request, signal);
export const keep = (request) => engine.keep(request);
