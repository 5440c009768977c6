// The player: picks and opens puzzles, wires the board to the API, keeps saves and results.
// Nothing here knows a genre: what to draw comes from the puzzle's data, the rules from the
// catalog's lessons, and every judgement (hints, checks, completion, rule errors) from the
// server. The asking and answering is in judge.js; the words in messages.js and saves.js.

import * as api from './api.js';
import { EMPTY, Game, SHADED, markWords } from './game.js';
import { Judge } from './judge.js';
import { Lessons } from './lessons.js';
import { Messages, announce, say, statusKind } from './messages.js';
import { Picker } from './picker.js';
import { PlayBoard, SIDED_MIN_WIDTH } from './playboard.js';
import { wireRadios } from './radios.js';
import { asideText, evictionText, reportNotes, watchWrites } from './saves.js';
import { Setup, choiceWords } from './setup.js';
import { ORIGIN_WORDS, clock, renderResults } from './results.js';
import { Store } from './store.js';
import { Workshop } from './workshop.js';

const $ = (id) => document.getElementById(id);
const store = new Store();
const messages = new Messages($('messages'));

const state = {
  catalog: new Map(),
  game: null,
  mode: store.prefs.mode === 'empty' ? 'empty' : 'shade',
  loading: null,
  paused: false,
  holdSave: null, // a puzzle whose unreadable save could not be kept aside: never overwritten
  resetArmed: null,
  lastTick: performance.now(),
  workshop: null,
  setup: null,
  picker: null,
};

const board = new PlayBoard($('board'), $('board-wrap'), {
  mode: () => state.mode,
  changed: (cells) => changed(cells),
  painting: () => {},
  undo: () => undo(),
  redo: () => redo(),
  hint: () => judge.hint(),
  layout: (naturalWidth) => layout(naturalWidth),
  roomWidth: (sided) => (sided ? sidedRoom() : 0),
  zoomed: (zoom, more) => zoomed(zoom, more),
});

const lessons = new Lessons({
  store,
  catalog: state.catalog,
  resized: () => board.fit(),
});

const judge = new Judge({
  board,
  game: () => state.game,
  blocked: () => state.paused,
  complete: () => complete(),
  save: () => save(),
  autoMark: () => store.prefs.autoMark === true,
  changed: (cells) => changed(cells),
});

// --- layout, theme, mode, options ---------------------------------------------------------

// A message from elsewhere (the server, the browser) as a sentence: with its full stop, so
// the words that follow start a sentence of their own.
function sentence(text) {
  const said = String(text).trim();
  return /[.!?]$/.test(said) ? said : `${said}.`;
}

function layout(naturalWidth) {
  const sided = window.innerWidth >= SIDED_MIN_WIDTH;
  document.body.classList.toggle('sided', sided);
  document.body.classList.toggle('wide', sided || naturalWidth > 700);
  return sided;
}

// Side by side, the board's column is as wide as the board (centred with its controls):
// the room is what the column beside it leaves.
function sidedRoom() {
  const area = $('player');
  const side = area.querySelector('.side');
  const gap = parseFloat(getComputedStyle(area).columnGap) || 0;
  return Math.max(0, area.clientWidth - side.getBoundingClientRect().width - gap);
}

function zoomed(zoom, more) {
  $('zoom').hidden = !(board.maxZoom >= 1.5);
  $('zoom-out').disabled = zoom <= 1.001;
  $('zoom-fit').disabled = zoom <= 1.001;
  $('zoom-in').disabled = !more;
}

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

// The two marks named and drawn as the genre's look says (a black and a white circle, a
// star, a shaded cell and an empty one).
function labelMarks(view) {
  const { shaded, empty } = markWords(view);
  $('mode-shade-label').textContent = shaded.label;
  $('mode-empty-label').textContent = empty.label;
  $('modes-play').classList.toggle('round-marks', view.look?.shaded === 'black circle');
  $('modes-play').classList.toggle('star-marks', view.look?.shaded === 'star');
  for (const verb of document.querySelectorAll('.verb-shade')) verb.textContent = shaded.verb;
  for (const verb of document.querySelectorAll('.verb-empty')) verb.textContent = empty.verb;
  $('opt-auto-label').textContent = `Mark the rest of a region or line ${empty.word} once it is complete`;
}

// --- opening puzzles -----------------------------------------------------------------------

// daily: the date of the puzzle of the day `view` is, when it was picked as one.
function start(view, origin, daily = null) {
  const game = new Game(view, origin);
  game.daily = daily;
  const restored = game.restore(store.game(view.code));
  state.holdSave = null;
  if (restored === 'unreadable') {
    const kept = store.setAside(view.code);
    if (!kept) state.holdSave = view.code;
    messages.show('aside', asideText(kept));
  }
  state.game = game;
  judge.open(game);
  setPaused(false, false);
  if (state.setup) state.setup.show(view);
  if (board.game?.code !== view.code) board.zoom = 1;
  labelMarks(view);
  board.show(game);
  board.setFinished(game.solved);
  const size = `${view.width}×${view.height}`;
  const grade = view.difficulty
    ? ` · ${view.difficulty}${gradeNumber(view)}` : '';
  $('puzzle-title').textContent = `${view.title} ${size}${grade}`;
  describePuzzle();
  const link = `${location.origin}${location.pathname}?code=${encodeURIComponent(view.code)}`;
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
  say(restored === 'restored' && !game.solved ? 'Your marks are restored.' : '');
  updateButtons();
  store.see(view.code); // never served by New game again while there are others
  save();
  lessons.opened(view.genre);
  state.lastTick = performance.now();
  tick();
  judge.validateSoon();
}

// The number beside the grade: the rating (grade and score on one scale, a harder grade
// always higher) where the server gives one, else the score.
function gradeNumber(view) {
  if (Number.isFinite(view.rating)) return ` (rating ${view.rating.toFixed(1)})`;
  return view.score ? ` (score ${Math.round(view.score * 10) / 10})` : '';
}

function describePuzzle() {
  const { view, attempt, origin } = state.game;
  const proof = view.verification && view.verification.verdict === 'unique'
    ? `proven unique (counted in ${Math.max(1, Math.round(view.verification.elapsed_s * 1000))} ms)`
    : 'not proven unique';
  const kind = ORIGIN_WORDS[origin] || origin;
  const carried = (view.look?.options || []).filter((name) => view.data[name] !== undefined);
  const options = carried.map((name) => ` · ${name}: ${choiceWords(view.data[name])}`).join('');
  $('puzzle-info').textContent = `${proof[0].toUpperCase()}${proof.slice(1)} · attempt ${attempt} (${kind})${options}`;
  $('puzzle-code').textContent = view.code;
  $('puzzle-code').title = view.code;
}

async function openCode(code, origin, daily = null) {
  const view = await api.puzzle(code);
  start(view, origin, daily);
}

async function openPicked(code, origin, daily = null) {
  try {
    await openCode(code, store.game(code)?.origin || origin, daily);
    board.svg.focus();
  } catch (error) {
    say(error.message, 'bad');
  }
}

// The words for a New game that did not come: the engine's own message only for a request
// the server refused (a 400 names what is wrong).
function newGameFailure(error, request) {
  if (error.status === 503) {
    return `No ${state.setup.describe(request)} puzzle could be made and proven to have one solution in time. Try again, or choose a smaller size or another difficulty; your puzzle is as you left it.`;
  }
  if (error.status === 0) return error.message;
  return `No new game: ${error.message}`;
}

async function newGame({ focus = false } = {}) {
  if (state.loading) return;
  const request = { ...state.setup.request(state.game ? [state.game.code] : []), seen: store.seen };
  const controller = new AbortController();
  tick(); // the clock stops while the next puzzle is found
  state.loading = controller;
  $('new-game').setAttribute('aria-disabled', 'true');
  say('Finding a puzzle…');
  const slow = setTimeout(() => {
    say('Generating a new puzzle and proving it has exactly one solution…');
    $('cancel').hidden = false;
  }, 400);
  try {
    const view = await api.newPuzzle(request, controller.signal);
    state.setup.remember();
    start(view, 'new');
    if (view.repeat === true) say('You have seen every board of this setting the server could find or make in time: this one comes again.');
    if (focus) board.svg.focus();
  } catch (error) {
    if (state.game) state.setup.show(state.game.view); // the form shows the puzzle on the board
    if (error.name === 'AbortError') say('Cancelled: the server stopped generating. Your puzzle is as you left it.');
    else say(newGameFailure(error, request), 'bad');
    if (focus && document.activeElement === document.body) $('new-game').focus();
  } finally {
    clearTimeout(slow);
    state.loading = null;
    state.lastTick = performance.now();
    $('new-game').removeAttribute('aria-disabled');
    $('cancel').hidden = true;
  }
}

// --- playing -------------------------------------------------------------------------------

function save() {
  const game = state.game;
  if (!game || state.holdSave === game.code) return;
  const evicted = store.saveGame(game.toSave());
  $('saved-count').textContent = String(store.gameCount);
  if (evicted) messages.show('evicted', evictionText(evicted, (name) => state.catalog.get(name)?.title || name), { tone: '' });
}

function updateButtons() {
  const game = state.game;
  const over = !game || game.solved || state.paused;
  $('undo').disabled = over || game.undoStack.length === 0;
  $('redo').disabled = over || game.redoStack.length === 0;
  for (const id of ['hint', 'check', 'errors']) $(id).disabled = over;
  $('reset').disabled = !game || state.paused;
  $('pause').disabled = !game || game.solved;
}

// Words for what a change did, for the live region.
function describeChange(cells) {
  if (cells.length === 1) return board.describe(cells[0]);
  const marks = new Set(cells.map((c) => state.game.marks[c]));
  const round = board.circles !== null;
  const what = marks.size > 1 ? 'changed' : marks.has(SHADED) ? (round ? 'black' : 'shaded')
    : marks.has(EMPTY) ? (round ? 'white' : 'marked empty') : 'cleared';
  return `${cells.length} cells ${what}`;
}

function changed(cells, how = 'do') {
  startClock();
  board.clearHighlight();
  $('show-mistakes').hidden = true;
  if (['hint', 'errors', 'mistakes'].includes(statusKind())) say('');
  updateButtons();
  save();
  judge.validateSoon();
  if (how === 'do' && cells.length) announce(describeChange(cells));
}

function undo() {
  const cells = state.game && !state.paused ? state.game.undo() : [];
  if (cells.length) { board.updateCells(cells); changed(cells, 'undo'); say('Undone.'); announce(`Undone: ${describeChange(cells)}.`); }
}

function redo() {
  const cells = state.game && !state.paused ? state.game.redo() : [];
  if (cells.length) { board.updateCells(cells); changed(cells, 'redo'); say('Redone.'); announce(`Redone: ${describeChange(cells)}.`); }
}

function complete() {
  const game = state.game;
  tick(); // the time up to this moment
  game.solved = true;
  board.setFinished(true);
  board.clearHighlight();
  save();
  store.addResult({
    code: game.code, engine: game.view.engine, genre: game.view.genre, title: game.view.title,
    size: `${game.width}x${game.height}`, difficulty: game.view.difficulty,
    timeMs: Math.round(game.elapsedMs), hints: game.hints, mistakes: game.mistakes,
    attempt: game.attempt, origin: game.origin, finished: new Date().toISOString(),
    daily: game.daily,
  });
  renderResults(store);
  if (state.picker) state.picker.refresh();
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
  board.setComplete(new Set());
  board.setFinished(false);
  $('done').hidden = true;
  $('show-mistakes').hidden = true;
  describePuzzle();
  updateButtons();
  save();
  say(`Marks cleared: attempt ${game.attempt} at the same puzzle.`);
  board.svg.focus({ preventScroll: true });
}

// --- the clock and pausing -----------------------------------------------------------------

// The clock runs only while a puzzle is being played: from the attempt's first mark (not
// while the rules are read or the board looked at before it), and not while paused, while
// the next puzzle is being found, in the workshop or in a hidden tab.
function tick() {
  const now = performance.now();
  const game = state.game;
  const running = game && game.started && !game.solved && !state.paused && !state.loading
    && document.visibilityState === 'visible' && !$('player').hidden;
  if (running) game.elapsedMs += now - state.lastTick;
  state.lastTick = now;
  if (game) $('timer').textContent = clock(game.elapsedMs);
}

// The first mark of an attempt starts its clock, from this moment.
function startClock() {
  const game = state.game;
  if (!game || game.started) return;
  tick();
  game.started = true;
}

function setPaused(paused, speak = true) {
  tick();
  state.paused = Boolean(paused && state.game && !state.game.solved);
  $('board-area').classList.toggle('paused', state.paused);
  $('paused').hidden = !state.paused;
  $('pause').textContent = state.paused ? 'Resume' : 'Pause';
  $('pause').setAttribute('aria-pressed', String(state.paused));
  updateButtons();
  if (!speak) return;
  if (state.paused) {
    board.clearHighlight();
    say('Paused: the clock is stopped and the board hidden.');
    $('resume').focus();
    save();
  } else {
    say('');
    board.svg.focus({ preventScroll: true });
  }
}

// --- playing or making: the workshop (workshop.js) ----------------------------------------

function showPage(making) {
  tick();
  $('player').hidden = making;
  $('show-player').setAttribute('aria-pressed', String(!making));
  $('show-workshop').setAttribute('aria-pressed', String(making));
}

async function showWorkshop(options = {}) {
  if (!state.workshop) return;
  judge.cancel();
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

// --- wiring --------------------------------------------------------------------------------

function wireOptions() {
  $('opt-auto').checked = store.prefs.autoMark === true;
  $('opt-auto').addEventListener('change', () => store.setPref('autoMark', $('opt-auto').checked));
  $('opt-coords').checked = store.prefs.coordinates === true;
  board.coordinates = $('opt-coords').checked;
  $('opt-coords').addEventListener('change', () => {
    store.setPref('coordinates', $('opt-coords').checked);
    board.setCoordinates($('opt-coords').checked);
    judge.validateSoon();
  });
  $('zoom-in').addEventListener('click', () => { board.zoomIn(); announce(`Zoom ${Math.round(board.zoom * 100)}%`); });
  $('zoom-out').addEventListener('click', () => { board.zoomOut(); announce(`Zoom ${Math.round(board.zoom * 100)}%`); });
  $('zoom-fit').addEventListener('click', () => { board.setZoom(1); announce('The board fits the window.'); });
  $('print').addEventListener('click', () => window.print());
}

function wire() {
  $('theme').addEventListener('click', () => {
    const theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    applyTheme(theme);
    store.setPref('theme', theme);
  });
  $('mode-shade').addEventListener('click', () => setMode('shade'));
  $('mode-empty').addEventListener('click', () => setMode('empty'));
  $('setup').addEventListener('submit', (e) => { e.preventDefault(); newGame({ focus: true }); });
  $('cancel').addEventListener('click', () => state.loading && state.loading.abort());
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', () => judge.hint());
  $('check').addEventListener('click', () => judge.check(false));
  $('errors').addEventListener('click', () => judge.errors());
  $('show-mistakes').addEventListener('click', () => judge.check(true));
  $('reset').addEventListener('click', reset);
  $('pause').addEventListener('click', () => setPaused(!state.paused));
  $('resume').addEventListener('click', () => setPaused(false));
  $('done-reset').addEventListener('click', retry);
  $('done-new').addEventListener('click', () => newGame({ focus: true }));
  $('rules').addEventListener('click', () => {
    if (!state.game) return;
    lessons.show(state.game.view.genre, 99);
    $('lesson').scrollIntoView({ block: 'nearest' }); // below the board on a phone
  });
  $('lesson-next').addEventListener('click', () => lessons.next());
  $('lesson-close').addEventListener('click', () => lessons.close());
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
    const ctrl = e.ctrlKey || e.metaKey;
    if (!ctrl && !e.altKey && (e.key === 'p' || e.key === 'P') && state.game) {
      e.preventDefault();
      setPaused(!state.paused);
      return;
    }
    if (e.target === board.svg) return; // the board handles its own keys
    if (ctrl && (e.key === 'z' || e.key === 'Z')) { e.preventDefault(); if (e.shiftKey) redo(); else undo(); }
    if (ctrl && (e.key === 'y' || e.key === 'Y')) { e.preventDefault(); redo(); }
  });
  document.addEventListener('visibilitychange', () => { tick(); save(); });
  window.addEventListener('pagehide', () => { tick(); save(); });
  setInterval(tick, 1000);
  setInterval(save, 15000);
  wireOptions();
  wireRadios();
}

// The part of the address after #, decoded; a damaged one as {damaged}.
function readHash() {
  if (location.hash.length <= 1) return '';
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return { damaged: location.hash.slice(1, 61) };
  }
}

async function openShared(shared) {
  if (typeof shared === 'object') {
    messages.show('link', `This link is damaged: "${shared.damaged}" is not a puzzle code. ${store.current ? 'Your last puzzle is shown instead.' : 'Here is a new game instead.'}`);
  } else {
    try {
      await openCode(shared, store.game(shared) ? (store.game(shared).origin || 'link') : 'link');
      return true;
    } catch (error) {
      messages.show('link', `This link could not be opened: ${sentence(error.message)} ${store.current ? 'Your last puzzle is shown instead.' : 'Here is a new game instead.'}`);
    }
  }
  return false;
}

async function boot() {
  const touch = navigator.maxTouchPoints > 0 || window.matchMedia('(pointer: coarse)').matches;
  document.documentElement.classList.toggle('touch', touch);
  window.addEventListener('pointerdown', (e) => {
    document.documentElement.classList.toggle('touch', e.pointerType !== 'mouse');
  }, { passive: true });
  const theme = store.prefs.theme === 'dark' || store.prefs.theme === 'light' ? store.prefs.theme : null;
  applyTheme(theme || (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  setMode(state.mode);
  wire();
  reportNotes(store, messages);
  watchWrites(store, messages);
  renderResults(store);
  let genres;
  try {
    genres = await api.catalog();
  } catch (error) {
    $('puzzle-title').textContent = 'No puzzle';
    say(error.message, 'bad');
    return;
  }
  for (const genre of genres) state.catalog.set(genre.name, genre);
  state.setup = new Setup(state.catalog, store, () => state.picker && state.picker.refresh());
  state.setup.fillGenres();
  state.setup.restore();
  state.setup.wire();
  state.picker = new Picker({
    store,
    open: (code, origin, daily) => openPicked(code, origin, daily),
    title: (name) => state.catalog.get(name)?.title || name,
  });
  state.picker.wire();

  state.workshop = new Workshop({ store, catalog: state.catalog, play: (code) => showPlayer(code) });

  const params = new URLSearchParams(location.search);
  const hash = readHash();
  const editing = editRequest(params, typeof hash === 'string' ? hash : '');
  const shared = params.get('code') || hash;
  if (editing) {
    await showWorkshop(editing);
    return;
  }
  if (shared && await openShared(shared)) return;
  if (store.current) {
    try {
      await openCode(store.current, store.game(store.current)?.origin || 'resume');
      return;
    } catch (error) {
      messages.show('resume', `Your last puzzle could not be reopened: ${sentence(error.message)} Here is a new game instead.`);
    }
  }
  await newGame();
}

boot().catch((error) => {
  $('puzzle-title').textContent = 'No puzzle';
  messages.show('boot', `The player could not start: ${error.message}`);
});
