// The player: picks and opens puzzles, wires the board to the API, keeps saves and results.
// Nothing here knows a genre: what to draw comes from the puzzle's data, the rules from the
// catalog's lessons, and every judgement (hints, checks, completion) from the server.

import * as api from './api.js';
import { Board } from './board.js';
import { Game } from './game.js';
import { Store } from './store.js';
import { Workshop } from './workshop.js';

const $ = (id) => document.getElementById(id);
const store = new Store();
const ORIGIN_WORDS = {
  new: 'new game', reset: 'retry after Reset', link: 'shared link', import: 'imported',
  resume: 'resumed', workshop: 'made in the workshop',
};

const state = {
  catalog: new Map(),
  game: null,
  mode: store.prefs.mode === 'empty' ? 'empty' : 'shade',
  validateTimer: null,
  loading: null,
  lessonStep: 0,
  resetArmed: null,
  lastTick: performance.now(),
  workshop: null,
};

const board = new Board($('board'), $('board-wrap'), {
  mode: () => state.mode,
  changed: (cells) => changed(cells),
  painting: () => {},
  undo: () => undo(),
  redo: () => redo(),
  hint: () => hint(),
});

// --- status line ---------------------------------------------------------------------------

function say(text, tone = '') {
  const status = $('status');
  status.replaceChildren(text);
  status.className = `status ${tone}`;
}

function sayRule(title, text) {
  const status = $('status');
  const rule = document.createElement('span');
  rule.className = 'rule';
  rule.textContent = `${title}: `;
  status.replaceChildren(rule, text);
  status.className = 'status';
}

const clock = (ms) => {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
};

// --- theme, mode, setup --------------------------------------------------------------------

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  const dark = theme === 'dark';
  $('theme').textContent = dark ? 'Light theme' : 'Dark theme';
  $('theme').setAttribute('aria-pressed', String(dark));
}

function setMode(mode) {
  state.mode = mode;
  $('mode-shade').setAttribute('aria-checked', String(mode === 'shade'));
  $('mode-empty').setAttribute('aria-checked', String(mode === 'empty'));
  store.setPref('mode', mode);
}

function fillSelect(select, values, chosen, label = (v) => v, offered = values) {
  select.replaceChildren(...values.map((value) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label(value);
    option.disabled = !offered.includes(value);
    return option;
  }));
  select.value = offered.includes(chosen) ? chosen : offered[0];
}

// The grades a size offers come from the catalog; the others are listed, disabled and
// named as not made at that size, so a player never waits for a board that cannot come.
function fillGrades(genre, size, difficulty) {
  const offered = (genre.grades_by_size || {})[size] || genre.difficulties;
  const shown = size.replace('x', '×');
  fillSelect($('difficulty'), genre.difficulties, difficulty || genre.default_difficulty,
    (grade) => (offered.includes(grade) ? grade : `${grade} (not at ${shown})`), offered);
}

function chooseGenre(name, size, difficulty) {
  const genre = state.catalog.get(name) || [...state.catalog.values()][0];
  $('genre').value = genre.name;
  fillSelect($('size'), genre.sizes, size || genre.sizes[0], (s) => s.replace('x', '×'));
  fillGrades(genre, $('size').value, difficulty);
}

function rememberSetup() {
  store.setPref('setup', { genre: $('genre').value, size: $('size').value, difficulty: $('difficulty').value });
}

// --- lessons -------------------------------------------------------------------------------

function showLesson(step = 0) {
  const game = state.game;
  const genre = game && state.catalog.get(game.view.genre);
  if (!genre || !genre.lessons.length) return;
  state.lessonStep = Math.min(step, genre.lessons.length - 1);
  $('lesson-title').textContent = `How to play ${genre.title}`;
  $('lesson-list').replaceChildren(...genre.lessons.slice(0, state.lessonStep + 1).map((text, i) => {
    const item = document.createElement('li');
    item.textContent = text;
    if (i === state.lessonStep && i > 0) item.className = 'new';
    return item;
  }));
  $('lesson-step').textContent = `Rule ${state.lessonStep + 1} of ${genre.lessons.length}`;
  $('lesson-next').hidden = state.lessonStep >= genre.lessons.length - 1;
  $('lesson').hidden = false;
}

function closeLesson() {
  $('lesson').hidden = true;
  if (state.game) store.markLessonSeen(state.game.view.genre);
}

// --- opening puzzles -----------------------------------------------------------------------

function start(view, origin) {
  const game = new Game(view, origin);
  const restored = game.restore(store.game(view.code));
  state.game = game;
  cancelValidate();
  if (view.difficulty) chooseGenre(view.genre, `${view.width}x${view.height}`, view.difficulty);
  else chooseGenre(view.genre, `${view.width}x${view.height}`, $('difficulty').value);
  board.show(game);
  board.setFinished(game.solved);
  labelMarks(Array.isArray(view.data.circles));
  const size = `${view.width}×${view.height}`;
  const grade = view.difficulty
    ? ` · ${view.difficulty}${view.score ? ` (score ${view.score})` : ''}` : '';
  $('puzzle-title').textContent = `${view.title} ${size}${grade}`;
  describePuzzle();
  const link = `${location.origin}/?code=${encodeURIComponent(view.code)}`;
  $('share-link').value = link;
  history.replaceState(null, '', `/?code=${encodeURIComponent(view.code)}`);
  $('engine-version').textContent = `engine ${view.engine}`;
  const verdict = view.verification && view.verification.verdict;
  $('notice').hidden = verdict === 'unique';
  $('notice').textContent = verdict === 'unique' ? '' : verdict === 'timeout'
    ? 'This puzzle could not be counted in time: it is not proven to have one solution, so hints and checks cannot compare your marks with an answer.'
    : `This puzzle does not have exactly one solution (${verdict}): hints and checks cannot compare your marks with an answer.`;
  $('done').hidden = !game.solved;
  if (game.solved) showDone();
  $('show-mistakes').hidden = true;
  say(restored && !game.solved ? 'Your marks are restored.' : '');
  updateButtons();
  save();
  if (!store.lessonSeen(view.genre)) showLesson(0); else $('lesson').hidden = true;
  state.lastTick = performance.now();
  tick();
}

// Where the data has circles, the two marks are a black and a white circle.
function labelMarks(round) {
  const [shade, empty] = round ? ['Black', 'White'] : ['Shade', 'Mark empty'];
  $('mode-shade-label').textContent = shade;
  $('mode-empty-label').textContent = empty;
  document.querySelector('.mode').classList.toggle('round-marks', round);
  for (const verb of document.querySelectorAll('.verb-shade')) verb.textContent = round ? 'black' : 'shade';
  for (const verb of document.querySelectorAll('.verb-empty')) verb.textContent = round ? 'white' : 'mark empty';
}

function describePuzzle() {
  const { view, attempt, origin } = state.game;
  const proof = view.verification && view.verification.verdict === 'unique'
    ? `proven unique (counted in ${Math.max(1, Math.round(view.verification.elapsed_s * 1000))} ms)`
    : 'not proven unique';
  const kind = ORIGIN_WORDS[origin] || origin;
  $('puzzle-info').textContent = `${proof[0].toUpperCase()}${proof.slice(1)} · attempt ${attempt} (${kind})`;
  $('puzzle-code').textContent = view.code;
  $('puzzle-code').title = view.code;
}

async function openCode(code, origin) {
  const view = await api.puzzle(code);
  start(view, origin);
}

async function newGame() {
  if (state.loading) return;
  rememberSetup();
  const request = {
    genre: $('genre').value,
    size: $('size').value,
    difficulty: $('difficulty').value,
    exclude: state.game ? [state.game.code] : [],
  };
  const controller = new AbortController();
  state.loading = controller;
  $('new-game').disabled = true;
  say('Finding a puzzle…');
  const slow = setTimeout(() => {
    say('Generating a new puzzle and proving it has exactly one solution…');
    $('cancel').hidden = false;
  }, 400);
  try {
    start(await api.newPuzzle(request, controller.signal), 'new');
  } catch (error) {
    if (error.name === 'AbortError') say('Cancelled: the server stopped generating.');
    else say(error.message, 'bad');
  } finally {
    clearTimeout(slow);
    state.loading = null;
    $('new-game').disabled = false;
    $('cancel').hidden = true;
  }
}

// --- playing -------------------------------------------------------------------------------

function save() {
  if (state.game) store.saveGame(state.game.toSave());
}

function updateButtons() {
  const game = state.game;
  const over = !game || game.solved;
  $('undo').disabled = over || game.undoStack.length === 0;
  $('redo').disabled = over || game.redoStack.length === 0;
  $('hint').disabled = over;
  $('check').disabled = over;
}

function changed() {
  board.clearHighlight();
  $('show-mistakes').hidden = true;
  updateButtons();
  save();
  scheduleValidate();
}

function undo() {
  const cells = state.game ? state.game.undo() : [];
  if (cells.length) { board.updateCells(cells); changed(); say('Undone.'); }
}

function redo() {
  const cells = state.game ? state.game.redo() : [];
  if (cells.length) { board.updateCells(cells); changed(); say('Redone.'); }
}

function cancelValidate() {
  clearTimeout(state.validateTimer);
  state.validateTimer = null;
}

// Completion is the validator's verdict on the shaded cells, asked shortly after each change.
function scheduleValidate() {
  cancelValidate();
  const game = state.game;
  if (!game || game.solved || !game.marks.includes('#')) return;
  state.validateTimer = setTimeout(async () => {
    const version = game.version;
    try {
      const result = await api.validate(game.code, game.rows());
      if (state.game === game && game.version === version && result.solved) complete();
    } catch (error) {
      say(error.message, 'bad');
    }
  }, 250);
}

function complete() {
  const game = state.game;
  game.solved = true;
  board.setFinished(true);
  board.clearHighlight();
  save();
  store.addResult({
    code: game.code, engine: game.view.engine, genre: game.view.genre, title: game.view.title,
    size: `${game.width}x${game.height}`, difficulty: game.view.difficulty,
    timeMs: Math.round(game.elapsedMs), hints: game.hints, mistakes: game.mistakes,
    attempt: game.attempt, origin: game.origin, finished: new Date().toISOString(),
  });
  renderResults();
  updateButtons();
  showDone();
  say('Solved! Every rule is satisfied.', 'good');
  $('done-title').focus();
}

function showDone() {
  const game = state.game;
  $('done-time').textContent = clock(game.elapsedMs);
  $('done-hints').textContent = String(game.hints);
  $('done-mistakes').textContent = String(game.mistakes);
  $('done-attempt').textContent = game.attempt > 1 ? `${game.attempt} (after Reset)` : '1';
  $('done').hidden = false;
}

async function hint() {
  const game = state.game;
  if (!game || game.solved) return;
  const version = game.version;
  say('Looking for the next deduction…');
  let answer;
  try {
    answer = await api.hint({ code: game.code, marks: game.rows(), version });
  } catch (error) {
    say(error.message, 'bad');
    return;
  }
  // An answer for an older state of the board is of no use: drop it.
  if (state.game !== game || answer.version !== game.version) return;
  game.hints += 1;
  if (answer.status === 'mistakes') {
    game.mistakes += 1;
    say(answer.text, 'bad');
    $('show-mistakes').hidden = false;
  } else if (answer.status === 'step' || answer.status === 'reveal') {
    sayRule(answer.title, answer.text);
    board.highlight({ cells: answer.cells, targets: [...answer.shaded, ...answer.empty] });
  } else {
    say(answer.text);
  }
  save();
}

async function check(reveal = false) {
  const game = state.game;
  if (!game || game.solved) return;
  const version = game.version;
  let answer;
  try {
    answer = await api.check({ code: game.code, marks: game.rows(), version, reveal });
  } catch (error) {
    say(error.message, 'bad');
    return;
  }
  if (state.game !== game || answer.version !== game.version) return;
  if (answer.mistakes && !reveal) game.mistakes += 1;
  say(answer.text, answer.mistakes ? 'bad' : answer.mistakes === 0 ? 'good' : '');
  $('show-mistakes').hidden = !answer.mistakes || reveal;
  if (reveal && answer.cells) board.highlight({ wrong: answer.cells });
  save();
  if (answer.solved) scheduleValidate();
}

function reset() {
  const button = $('reset');
  if (!state.resetArmed) {
    button.textContent = 'Really reset?';
    button.classList.add('confirm');
    state.resetArmed = setTimeout(disarmReset, 4000);
    return;
  }
  disarmReset();
  retry();
}

function disarmReset() {
  clearTimeout(state.resetArmed);
  state.resetArmed = null;
  $('reset').textContent = 'Reset';
  $('reset').classList.remove('confirm');
}

function retry() {
  const game = state.game;
  if (!game) return;
  game.reset();
  board.refresh();
  board.clearHighlight();
  board.setFinished(false);
  $('done').hidden = true;
  $('show-mistakes').hidden = true;
  describePuzzle();
  updateButtons();
  save();
  say(`Marks cleared: attempt ${game.attempt} at the same puzzle.`);
  board.svg.focus({ preventScroll: true });
}

// --- the clock -----------------------------------------------------------------------------

function tick() {
  const now = performance.now();
  const game = state.game;
  if (game && !game.solved && document.visibilityState === 'visible' && !$('player').hidden) {
    game.elapsedMs += now - state.lastTick;
  }
  state.lastTick = now;
  if (game) $('timer').textContent = clock(game.elapsedMs);
}

// --- playing or making: the workshop (workshop.js) ----------------------------------------

function showPage(making) {
  $('player').hidden = making;
  $('show-player').setAttribute('aria-pressed', String(!making));
  $('show-workshop').setAttribute('aria-pressed', String(making));
}

async function showWorkshop(options = {}) {
  if (!state.workshop) return;
  cancelValidate();
  save();
  showPage(true);
  await state.workshop.open(options);
}

// Back to playing: `code` (Play it), else the puzzle that was being played.
async function showPlayer(code = null) {
  state.workshop.close();
  showPage(false);
  state.lastTick = performance.now();
  try {
    if (code) await openCode(code, store.game(code)?.origin || 'workshop');
    else if (state.game) history.replaceState(null, '', `/?code=${encodeURIComponent(state.game.code)}`);
    else if (store.current) await openCode(store.current, 'resume');
    else await newGame();
  } catch (error) {
    say(error.message, 'bad');
  }
  board.fit();
  if (code) board.svg.focus({ preventScroll: true });
}

// /?edit (the draft), /?edit=CODE (that puzzle), /?edit=GENRE&size=7x7 (a blank board);
// the same after a #.
function editRequest(params, hash) {
  if (params.has('edit')) return { source: params.get('edit'), size: params.get('size') };
  if (hash === 'edit' || hash.startsWith('edit=')) return { source: hash.slice(5) };
  return null;
}

// --- results -------------------------------------------------------------------------------

function renderResults() {
  const list = $('results');
  if (!store.results.length) {
    const empty = document.createElement('li');
    empty.textContent = 'No finished puzzles yet.';
    list.replaceChildren(empty);
    return;
  }
  list.replaceChildren(...store.results.slice(0, 50).map((r) => {
    const item = document.createElement('li');
    const kind = r.attempt > 1 ? `attempt ${r.attempt}, after Reset` : ORIGIN_WORDS[r.origin] || r.origin;
    item.append(
      `${r.title || r.genre} ${r.size.replace('x', '×')}${r.difficulty ? ` ${r.difficulty}` : ''}: `
      + `${clock(r.timeMs)}, ${r.hints} hint${r.hints === 1 ? '' : 's'}, `
      + `${r.mistakes} mistake${r.mistakes === 1 ? '' : 's'} found (${kind}) `,
    );
    const code = document.createElement('code');
    code.textContent = `${r.code} · engine ${r.engine}`;
    item.append(code);
    return item;
  }));
}

// --- wiring --------------------------------------------------------------------------------

function wire() {
  $('theme').addEventListener('click', () => {
    const theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    applyTheme(theme);
    store.setPref('theme', theme);
  });
  $('mode-shade').addEventListener('click', () => setMode('shade'));
  $('mode-empty').addEventListener('click', () => setMode('empty'));
  $('genre').addEventListener('change', () => { chooseGenre($('genre').value); rememberSetup(); });
  $('size').addEventListener('change', () => {
    fillGrades(state.catalog.get($('genre').value), $('size').value, $('difficulty').value);
    rememberSetup();
  });
  $('difficulty').addEventListener('change', rememberSetup);
  $('setup').addEventListener('submit', (e) => { e.preventDefault(); newGame(); });
  $('cancel').addEventListener('click', () => state.loading && state.loading.abort());
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', hint);
  $('check').addEventListener('click', () => check(false));
  $('show-mistakes').addEventListener('click', () => check(true));
  $('reset').addEventListener('click', reset);
  $('done-reset').addEventListener('click', retry);
  $('done-new').addEventListener('click', newGame);
  $('rules').addEventListener('click', () => showLesson(99));
  $('lesson-next').addEventListener('click', () => showLesson(state.lessonStep + 1));
  $('lesson-close').addEventListener('click', closeLesson);
  $('copy-link').addEventListener('click', async () => {
    const input = $('share-link');
    try {
      await navigator.clipboard.writeText(input.value);
      say('Link copied. It opens this puzzle, without its answer.');
    } catch {
      input.select();
      say('Select the link and copy it.');
    }
  });
  $('import-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const source = $('import-source').value.trim();
    if (!source) return;
    try {
      const view = await api.puzzle(source);
      start(view, 'import');
      $('import-source').value = '';
      board.svg.focus({ preventScroll: true });
    } catch (error) {
      say(error.message, 'bad');
    }
  });
  $('show-player').addEventListener('click', () => $('player').hidden && showPlayer());
  $('show-workshop').addEventListener('click', () => $('player').hidden || showWorkshop());
  $('edit-this').addEventListener('click', () => state.game && showWorkshop({ view: state.game.view }));
  document.addEventListener('keydown', (e) => {
    if ($('player').hidden) return; // the workshop has its own keys
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.target === board.svg) return; // the board handles its own keys
    const ctrl = e.ctrlKey || e.metaKey;
    if (ctrl && (e.key === 'z' || e.key === 'Z')) { e.preventDefault(); if (e.shiftKey) redo(); else undo(); }
    if (ctrl && (e.key === 'y' || e.key === 'Y')) { e.preventDefault(); redo(); }
  });
  document.addEventListener('visibilitychange', () => { tick(); save(); });
  window.addEventListener('pagehide', () => { tick(); save(); });
  setInterval(tick, 1000);
  setInterval(save, 15000);
}

async function boot() {
  const touch = navigator.maxTouchPoints > 0 || window.matchMedia('(pointer: coarse)').matches;
  document.documentElement.classList.toggle('touch', touch);
  window.addEventListener('pointerdown', (e) => {
    document.documentElement.classList.toggle('touch', e.pointerType !== 'mouse');
  }, { passive: true });
  applyTheme(store.prefs.theme
    || (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  setMode(state.mode);
  wire();
  renderResults();
  let genres;
  try {
    genres = await api.catalog();
  } catch (error) {
    say(error.message, 'bad');
    return;
  }
  for (const genre of genres) state.catalog.set(genre.name, genre);
  fillSelect($('genre'), genres.map((g) => g.name), null, (name) => state.catalog.get(name).title);
  const setup = store.prefs.setup || {};
  chooseGenre(setup.genre, setup.size, setup.difficulty);

  state.workshop = new Workshop({ store, catalog: state.catalog, play: (code) => showPlayer(code) });

  const params = new URLSearchParams(location.search);
  const hash = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : '';
  const editing = editRequest(params, hash);
  if (editing) {
    await showWorkshop(editing);
    return;
  }
  const shared = params.get('code') || hash;
  try {
    if (shared) {
      await openCode(shared, store.game(shared) ? (store.game(shared).origin || 'link') : 'link');
      return;
    }
    if (store.current) {
      await openCode(store.current, store.game(store.current)?.origin || 'resume');
      return;
    }
  } catch (error) {
    say(`${error.message} Starting a new game instead.`, 'bad');
  }
  await newGame();
}

boot();
