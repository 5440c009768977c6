// The engine over HTTP: the JSON API of `gridproof serve`, one function per endpoint. Errors
// come back as {error}: thrown as ApiError with the server's message.
import { ApiError } from './apierror.js';

async function call(path, { body, signal } = {}) {
  const init = body === undefined
    ? { signal }
    : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal };
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError('The server cannot be reached. Is it still running?', 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    throw new ApiError(`The server answered ${response.status} without JSON.`, response.status);
  }
  if (!response.ok) throw new ApiError(data && data.error ? data.error : `HTTP ${response.status}`, response.status);
  return data;
}

export const engine = {
  catalog: () => call('/api/catalog'),
  newPuzzle: (request, signal) => call('/api/new', { body: request, signal }),
  puzzle: (code, signal) => call(`/api/puzzle?code=${encodeURIComponent(code)}`, { signal }),
  hint: (request) => call('/api/hint', { body: request }),
  check: (request) => call('/api/check', { body: request }),
  validate: (code, rows) => call('/api/validate', { body: { source: code, grid: rows } }),
  boards: ({ genre, size, difficulty, offset = 0, limit = 50 }) => call(
    `/api/boards?${new URLSearchParams({ genre, size, difficulty, offset, limit })}`,
  ),
  daily: () => call('/api/daily'),
  count: (request, signal) => call('/api/count', { body: request, signal }),
  convert: (source, to) => call('/api/convert', { body: { source, to } }),
  verdict: (request, signal) => call('/api/workshop/verdict', { body: request, signal }),
  repair: (request, signal) => call('/api/workshop/repair', { body: request, signal }),
  makeUnique: (request, signal) => call('/api/workshop/unique', { body: request, signal }),
  minimize: (request, signal) => call('/api/workshop/minimize', { body: request, signal }),
  keep: (request) => call('/api/workshop/keep', { body: request }),
};
