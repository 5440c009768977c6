// The JSON API, one function per endpoint. Errors come back as {error}: thrown as ApiError
// with the server's message, so the page can show exactly what went wrong.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

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

export const catalog = () => call('/api/catalog');
export const newPuzzle = (request, signal) => call('/api/new', { body: request, signal });
export const puzzle = (code, signal) => call(`/api/puzzle?code=${encodeURIComponent(code)}`, { signal });
export const hint = (request) => call('/api/hint', { body: request });
export const check = (request) => call('/api/check', { body: request });
export const validate = (code, rows) => call('/api/validate', { body: { source: code, grid: rows } });
export const boards = ({ genre, size, difficulty, offset = 0, limit = 50 }) => call(
  `/api/boards?${new URLSearchParams({ genre, size, difficulty, offset, limit })}`,
);
export const daily = () => call('/api/daily');
export const convert = (source, to) => call('/api/convert', { body: { source, to } });

// The workshop (see docs/player.md): a live verdict, repairs, "Make unique", keeping a board.
export const verdict = (request, signal) => call('/api/workshop/verdict', { body: request, signal });
export const repair = (request, signal) => call('/api/workshop/repair', { body: request, signal });
export const makeUnique = (request, signal) => call('/api/workshop/unique', { body: request, signal });
export const minimize = (request, signal) => call('/api/workshop/minimize', { body: request, signal });
export const keep = (request) => call('/api/workshop/keep', { body: request });
