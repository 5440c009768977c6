// The workshop: make a puzzle with the engine saying, as you edit, whether it has exactly
// one solution, and how to fix it when not. This module wires the page: the sheet (what is
// being made), its board, the live verdict (debounced, one `version` per board state,
// older replies dropped), repairs, publishing, the board's shape (turns, mirrors, lines
// added or removed) and the draft kept in this browser. The layout is the player's:
// stacked on a narrow screen, from 880 px on the board on the left and all the rest beside
// it, the board fitted to the window's width and height.

import * as api from './api.js';
import { EditorBoard } from './editor.js';
import { PicturePanel } from './picture.js';
import { SIDED_MIN_WIDTH } from './playboard.js';
import { ShapePanel } from './shape.js';
import { choiceWords, fillSelect } from './setup.js';
import { Sheet, formatClue, learnLooks, parseClue, pictureGenre, puzzleOptions } from './sheet.js';
import { VerdictPanel } from './verdict.js';

const $ = (id) => document.getElementById(id);
const DEBOUNCE_MS = 300;
const FIX_LIMIT = 6;
const OUTCOME_TAGS = { unique: 'unique', multiple: 'still not unique', none: 'no solution', timeout: 'not decided in time' };

export class Workshop {
  // catalog: Map of genre name -> catalog entry; play(code): open a code in the player
  constructor({ store, catalog, play }) {
    this.store = store;
    this.catalog = catalog;
    learnLooks(catalog.values());
    this.play = play;
    this.sheet = null;
    this.tool = store.prefs.workshopTool === 'cell' ? 'cell' : 'border';
    this.timer = null;
    this.request = null;
    this.fixes = [];
    this.board = new EditorBoard($('ws-board'), $('ws-board-wrap'), {
      tool: () => this.currentTool(),
      edited: () => this.edited(),
      aborted: (changed) => this.aborted(changed),
      undo: () => this.undo(),
      redo: () => this.redo(),
      announce: (text) => this.announce(text),
      layout: (naturalWidth) => this.layout(naturalWidth),
      roomWidth: (sided) => (sided ? this.sidedRoom() : 0),
      zoomed: (zoom, more) => this.zoomed(zoom, more),
    });
    this.verdict = new VerdictPanel(this.board);
    this.shape = new ShapePanel({
      sheet: () => this.sheet,
      reshape: (change, said) => this.reshape(change, said),
      status: (text, tone) => this.status(text, tone),
    });
    this.picture = new PicturePanel({
      file: 'ws-file', size: 'ws-picture-size', threshold: 'ws-threshold', invert: 'ws-invert',
      fit: 'ws-fit', preview: 'ws-preview', info: 'ws-picture-info', use: 'ws-picture-use',
      'threshold-value': 'ws-threshold-value',
    }, (bits, w, h) => this.usePicture(bits, w, h));
    this.wire();
  }

  get visible() { return !$('workshop').hidden; }

  currentTool() {
    if (!this.sheet || this.sheet.hasPicture) return 'cell';
    return this.sheet.hasCircles ? this.tool : 'border';
  }

  // --- opening -----------------------------------------------------------------------------

  // source: '' (the draft), a genre name (a blank board of `size`), or a code or URL;
  // view: a puzzle the player shows (Edit this puzzle).
  async open({ source = '', size = null, view = null } = {}) {
    $('workshop').hidden = false;
    this.fillGenres();
    if (!this.sheet) this.sheet = Sheet.fromSave(this.store.draft);
    if (this.sheet && !this.catalog.has(this.sheet.genre)) this.sheet = null; // a genre gone
    if (view) {
      this.editView(view);
    } else if (source && this.catalog.has(source)) {
      this.blank(source, size || this.catalog.get(source).sizes[0]);
    } else if (source) {
      try {
        const reply = await api.convert(source, 'json');
        this.loadPuzzle(JSON.parse(reply.result), `Opened ${reply.id} to edit.`);
      } catch (error) {
        this.status(`${error.message} The draft is shown instead.`, 'bad');
      }
    }
    if (!this.sheet) this.blank(this.store.prefs.setup?.genre || [...this.catalog.keys()][0], size || '5x5');
    history.replaceState(null, '', '/?edit');
    this.refresh();
    this.board.fit();
    this.schedule(0);
  }

  close() {
    $('workshop').hidden = true;
    clearTimeout(this.timer);
  }

  // From the player: the puzzle being played, as the editor's board (undo returns the draft).
  editView(view) {
    this.loadPuzzle({ genre: view.genre, width: view.width, height: view.height, ...view.data },
      `Editing ${view.title} ${view.width}×${view.height}; Undo brings back your previous draft.`);
  }

  loadPuzzle(puzzle, message) {
    if (!this.sheet) this.sheet = new Sheet(puzzle.genre, puzzle.width, puzzle.height);
    this.sheet.edit((s) => s.loadPuzzle(puzzle));
    this.edited();
    this.status(message);
  }

  blank(genre, size) {
    const [w, h] = String(size).split('x').map(Number);
    if (!this.sheet) this.sheet = new Sheet(genre, w, h);
    else this.sheet.edit((s) => s.load(Sheet.blank(genre, w, h)));
    this.store.setPref('workshopSetup', { genre, size });
  }

  fillGenres() {
    const genres = [...this.catalog.values()];
    const select = $('ws-genre');
    if (select.options.length === genres.length) return;
    select.replaceChildren(...genres.map((g) => new Option(g.title, g.name)));
    const chosen = this.store.prefs.workshopSetup || {};
    select.value = this.catalog.has(chosen.genre) ? chosen.genre : genres[0].name;
    this.fillSizes(chosen.size);
  }

  // The player's sizes, and the board's own when it has another (an imported puzzle).
  fillSizes(chosen) {
    const genre = this.catalog.get($('ws-genre').value);
    const sizes = genre.sizes.includes(chosen) || !chosen ? genre.sizes : [chosen, ...genre.sizes];
    const label = (s) => s.replace('x', '×');
    for (const id of ['ws-size', 'ws-picture-size']) {
      $(id).replaceChildren(...sizes.map((s) => new Option(label(s), s)));
      $(id).value = sizes.includes(chosen) ? chosen : sizes[0];
    }
  }

  // The setup follows the board when another genre or size is loaded (undo, a code, a fix).
  syncSetup() {
    const { genre, width, height } = this.sheet;
    const key = `${genre} ${width}x${height}`;
    if (this.shownKey === key || !this.catalog.has(genre)) return;
    this.shownKey = key;
    $('ws-genre').value = genre;
    this.fillSizes(`${width}x${height}`);
  }

  // --- after every change ------------------------------------------------------------------

  edited() {
    this.board.leaveView();
    this.verdict.stale();
    this.clearFixes();
    this.publish(null);
    this.refresh();
    this.save();
    this.schedule();
  }

  refresh() {
    const sheet = this.sheet;
    const genre = this.catalog.get(sheet.genre);
    const title = genre ? genre.title : sheet.genre;
    $('ws-title').textContent = `${title} ${sheet.width}×${sheet.height}`;
    this.syncSetup();
    $('ws-regions').textContent = sheet.hasRegions ? `${sheet.regionCount()} region${sheet.regionCount() === 1 ? '' : 's'}` : '';
    $('ws-tools').hidden = !sheet.hasCircles;
    for (const tool of ['border', 'cell']) $(`ws-tool-${tool}`).setAttribute('aria-checked', String(this.tool === tool));
    $('ws-clue-modes').hidden = !sheet.hasPicture;
    $('ws-paint').setAttribute('aria-checked', String(sheet.clueMode === 'paint'));
    $('ws-type').setAttribute('aria-checked', String(sheet.clueMode === 'type'));
    this.renderOptions();
    $('ws-picture').hidden = !sheet.hasPicture;
    $('ws-undo').disabled = sheet.undoStack.length === 0;
    $('ws-redo').disabled = sheet.redoStack.length === 0;
    $('ws-pin').hidden = sheet.paints || this.verdict.outcome !== 'multiple';
    this.shape.render();
    this.renderClueInputs();
    this.board.draw(sheet, title);
    document.body.classList.toggle('editing-cells', this.currentTool() === 'cell');
  }

  // A menu for each option the genre's puzzles carry (a rule, a star count: the catalog's
  // label and words), showing the sheet's choice; built anew when the genre changes.
  renderOptions() {
    const sheet = this.sheet;
    const box = $('ws-options');
    const options = puzzleOptions(sheet.genre);
    if (box.dataset.genre !== sheet.genre) {
      box.dataset.genre = sheet.genre;
      box.replaceChildren(...options.map((option) => {
        const label = document.createElement('label');
        label.className = 'inline-label';
        label.append(option.label || option.name);
        const select = document.createElement('select');
        select.id = `ws-option-${option.name}`;
        if (option.help) select.title = option.help;
        const values = option.choices.map(String);
        fillSelect(select, values, values[0], choiceWords);
        select.addEventListener('change', () => {
          if (this.sheet.edit((s) => s.setOption(option.name, select.value))) this.edited();
        });
        label.append(select);
        return label;
      }));
    }
    box.hidden = options.length === 0;
    for (const option of options) $(`ws-option-${option.name}`).value = String(sheet.options[option.name]);
  }

  save() { this.store.saveDraft(this.sheet.toSave()); }

  // Two fingers took back what the first one drew: the verdict shown is about this board
  // again (asked anew when the board went through other states meanwhile).
  aborted(changed) {
    this.verdict.restore();
    if (changed) this.schedule(0);
  }

  undo() { if (this.sheet.undo()) { this.edited(); this.announce('Undone.'); } }
  redo() { if (this.sheet.redo()) { this.edited(); this.announce('Redone.'); } }

  announce(text) { $('ws-said').textContent = text; }

  status(text, tone = '') {
    const node = $('ws-repair-status');
    node.textContent = text || '';
    node.className = `small ${tone}`; // a live region of its own
  }

  // --- the live verdict --------------------------------------------------------------------

  schedule(delay = DEBOUNCE_MS) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(), delay);
  }

  body() {
    const sheet = this.sheet;
    return { source: JSON.stringify(sheet.toPuzzle()), keep: sheet.keepRows() };
  }

  async ask() {
    const sheet = this.sheet;
    const version = sheet.version;
    if (this.request) this.request.abort(); // an answer for an older board is not wanted
    const controller = new AbortController();
    this.request = controller;
    this.verdict.pending();
    let reply;
    try {
      reply = await api.verdict({ ...this.body(), version }, controller.signal);
    } catch (error) {
      if (error.name !== 'AbortError' && sheet === this.sheet && sheet.version === version) this.verdict.failed(error.message, version);
      return;
    } finally {
      if (this.request === controller) this.request = null;
    }
    if (sheet !== this.sheet || (reply.version ?? version) !== sheet.version) return; // stale
    this.verdict.show(reply);
    this.publish(reply);
    $('ws-repair').hidden = !['multiple', 'none'].includes(reply.outcome);
    $('ws-pin').hidden = sheet.paints || reply.outcome !== 'multiple';
    this.offerMinimize(reply.outcome === 'unique');
  }

  // --- minimize: the givens a unique board does not need -------------------------------------

  offerMinimize(unique) {
    $('ws-minimize').hidden = !unique;
    $('ws-spare-list').replaceChildren();
    $('ws-minimize-status').textContent = '';
  }

  async minimize() {
    const sheet = this.sheet;
    const version = sheet.version;
    $('ws-spares').disabled = true;
    $('ws-minimize-status').textContent = 'Removing each given in turn and counting…';
    try {
      const reply = await api.minimize(this.body());
      if (sheet.version !== version) return;
      $('ws-spare-list').replaceChildren(...(reply.spares || []).map((spare) => {
        const item = document.createElement('li');
        item.textContent = spare.text;
        return item;
      }));
      const cut = reply.complete ? '' : ' (the deadline stopped the checks early)';
      $('ws-minimize-status').textContent = `${reply.minimize_text}${cut}`;
    } catch (error) {
      if (sheet.version === version) $('ws-minimize-status').textContent = error.message;
    } finally {
      $('ws-spares').disabled = false;
    }
  }

  // --- repairs -----------------------------------------------------------------------------

  clearFixes() {
    this.fixes = [];
    $('ws-fixes').replaceChildren();
    $('ws-repair').hidden = true;
    this.status('');
  }

  async suggest() {
    const sheet = this.sheet;
    const version = sheet.version;
    this.busy(true);
    this.status('Looking for single edits that fix the board…');
    try {
      const reply = await api.repair({ ...this.body(), limit: FIX_LIMIT });
      if (sheet.version !== version) return;
      this.fixes = reply.edits || [];
      this.renderFixes();
      const cut = reply.complete === false ? ' (the search stopped at its deadline)' : '';
      this.status(this.fixes.length
        ? `${this.fixes.length} suggestion${this.fixes.length === 1 ? '' : 's'}${cut}: point at one to see its cells, choose it to apply it.`
        : `No single edit fixes this board${cut}.`);
    } catch (error) {
      if (sheet.version === version) this.status(error.message, 'bad');
    } finally {
      this.busy(false);
    }
  }

  renderFixes() {
    $('ws-fixes').replaceChildren(...this.fixes.map((fix, k) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'fix';
      button.dataset.outcome = fix.outcome;
      const tag = document.createElement('span');
      tag.className = `tag ${fix.outcome}`;
      tag.textContent = fix.outcome === 'unique' && fix.grade ? `unique · ${fix.grade}` : OUTCOME_TAGS[fix.outcome] || fix.outcome;
      const what = document.createElement('span');
      what.className = 'fix-text';
      what.textContent = fix.text;
      button.append(what, ' ', tag);
      button.setAttribute('aria-label', `Apply: ${fix.text} (leaves it ${tag.textContent})`);
      const show = () => this.board.mark({ targets: fix.cells || [] });
      button.addEventListener('pointerenter', show);
      button.addEventListener('focus', show);
      button.addEventListener('pointerleave', () => this.verdict.restore());
      button.addEventListener('blur', () => this.verdict.restore());
      button.addEventListener('click', () => this.applyFix(k));
      item.append(button);
      return item;
    }));
    $('ws-repair').hidden = false;
  }

  applyFix(k) {
    const fix = this.fixes[k];
    if (!fix) return;
    this.sheet.edit((s) => s.loadPuzzle(fix.puzzle, fix.keep || null));
    this.edited();
    this.status(`Applied: ${fix.text}.`);
    $('ws-board').focus({ preventScroll: true });
  }

  async makeUnique() {
    const sheet = this.sheet;
    const version = sheet.version;
    this.busy(true);
    this.status('Applying edits until the board has exactly one solution…');
    try {
      const reply = await api.makeUnique(this.body());
      if (sheet.version !== version) return;
      this.sheet.edit((s) => s.loadPuzzle(reply.puzzle, reply.keep || null));
      this.edited();
      const edits = reply.changed === 1 ? '1 edit' : `${reply.changed} edits`;
      const list = (reply.edits || []).length ? `: ${reply.edits.join('; ')}` : '';
      this.status(reply.outcome === 'unique' ? `Made unique with ${edits}${list}.` : `${reply.made_text || reply.text || reply.outcome} (${edits}${list})`);
      this.offerGoOn(reply.outcome !== 'unique' && Boolean(reply.stopped));
    } catch (error) {
      if (sheet.version === version) this.status(error.message, 'bad');
    } finally {
      this.busy(false);
    }
  }

  // A walk that stopped left the board it reached on the sheet: pressing again goes on from it.
  offerGoOn(stopped) {
    $('ws-unique').textContent = stopped ? 'Go on (make unique)' : 'Make unique';
  }

  busy(on) {
    $('ws-suggest').disabled = on;
    $('ws-unique').disabled = on;
  }

  // Repairs keep the pinned solution; this pins the other one of the two shown.
  pinOther() {
    const reply = this.verdict.reply;
    if (!reply || reply.outcome !== 'multiple') return;
    this.sheet.setKeep(reply.solutions[1]);
    this.board.setView({ kind: 'sheet' });
    this.verdict.stale();
    this.clearFixes();
    this.refresh();
    this.save();
    this.status('Solution 2 is now the one that fixes keep (it is shown as solution 1).');
    this.schedule(0);
  }

  // --- publishing --------------------------------------------------------------------------

  publish(reply) {
    const code = reply && reply.code;
    $('ws-share').value = code ? `${location.origin}${location.pathname}#${code}` : '';
    $('ws-url').value = (reply && reply.url) || '';
    $('ws-url').placeholder = reply ? 'This board has no puzz.link form.' : 'Waiting for the verdict…';
    $('ws-share').placeholder = 'Waiting for the verdict…';
    $('ws-play').disabled = !code;
    $('ws-keep').disabled = !code || reply.outcome !== 'unique';
    $('ws-copy-share').disabled = !code;
    $('ws-copy-url').disabled = !(reply && reply.url);
    if (!reply) this.publishStatus('');
    this.code = code || null;
  }

  publishStatus(text, tone = '') {
    $('ws-publish-status').textContent = text;
    $('ws-publish-status').className = `small ${tone}`;
  }

  async keep() {
    const sheet = this.sheet;
    const version = sheet.version;
    $('ws-keep').disabled = true;
    try {
      const reply = await api.keep({ source: JSON.stringify(sheet.toPuzzle()) });
      if (sheet.version === version) this.publishStatus(reply.text, reply.stored ? 'good' : '');
    } catch (error) {
      if (sheet.version === version) this.publishStatus(error.message, 'bad');
    } finally {
      $('ws-keep').disabled = sheet.version !== version || this.verdict.outcome !== 'unique';
    }
  }

  async copy(id, what) {
    try {
      await navigator.clipboard.writeText($(id).value);
      this.publishStatus(`${what} copied.`);
    } catch {
      $(id).select();
      this.publishStatus(`Select the ${what.toLowerCase()} and copy it.`);
    }
  }

  // --- layout and zoom (the player's, see playboard.js) ---------------------------------------

  layout(naturalWidth) {
    const sided = window.innerWidth >= SIDED_MIN_WIDTH;
    $('workshop').classList.toggle('sided', sided);
    document.body.classList.toggle('wide', sided || naturalWidth > 700);
    return sided;
  }

  // Side by side, the board's column is what the controls' column leaves.
  sidedRoom() {
    const area = $('ws-area');
    const gap = parseFloat(getComputedStyle(area).columnGap) || 0;
    return Math.max(0, area.clientWidth - $('ws-side').getBoundingClientRect().width - gap);
  }

  zoomed(zoom, more) {
    $('ws-zoom').hidden = !(this.board.maxZoom >= 1.5);
    $('ws-zoom-out').disabled = zoom <= 1.001;
    $('ws-zoom-fit').disabled = zoom <= 1.001;
    $('ws-zoom-in').disabled = !more;
  }

  // --- the board's shape (shape.js): one step each ------------------------------------------

  reshape(change, said) {
    if (this.sheet.edit(change)) {
      this.edited();
      this.status(`${said}; Undo takes it back.`);
      return true;
    }
    return false;
  }

  // --- line clues and pictures --------------------------------------------------------------

  setClueMode(mode) {
    const solution = this.verdict.outcome === 'unique' ? this.verdict.reply.solutions[0] : null;
    const from = mode === 'paint' && this.sheet.picture.every((b) => !b) ? solution : null;
    if (this.sheet.edit((s) => s.setClueMode(mode, from))) this.edited();
  }

  renderClueInputs() {
    const sheet = this.sheet;
    const typing = sheet.hasPicture && sheet.clueMode === 'type';
    $('ws-clues').hidden = !typing;
    if (!typing) return;
    const build = (lines, box, count, word) => {
      const holder = $(box);
      if (holder.children.length !== count) {
        holder.replaceChildren(...Array.from({ length: count }, (_, k) => {
          const label = document.createElement('label');
          label.className = 'clue-input';
          label.append(`${word} ${k + 1}`);
          const input = document.createElement('input');
          input.dataset.lines = lines;
          input.dataset.index = String(k);
          input.inputMode = 'numeric';
          input.autocomplete = 'off';
          input.spellcheck = false;
          input.addEventListener('input', () => this.typed(input));
          label.append(input);
          return label;
        }));
      }
      [...holder.querySelectorAll('input')].forEach((input, k) => {
        if (document.activeElement === input) return; // the setter is typing there
        input.value = formatClue(sheet.typed[lines][k]);
        input.removeAttribute('aria-invalid');
      });
    };
    build('rows', 'ws-row-clues', sheet.height, 'Row');
    build('cols', 'ws-col-clues', sheet.width, 'Column');
  }

  typed(input) {
    const clue = parseClue(input.value);
    const limit = input.dataset.lines === 'rows' ? this.sheet.width : this.sheet.height;
    const fits = clue && clue.reduce((s, n) => s + n, 0) + Math.max(0, clue.length - 1) <= limit;
    input.setAttribute('aria-invalid', String(!fits));
    if (!fits) {
      this.announce(clue ? `That clue needs more than ${limit} cells.` : 'A clue is numbers separated by spaces.');
      return;
    }
    const index = Number(input.dataset.index);
    if (this.sheet.edit((s) => s.setTyped(input.dataset.lines, index, clue))) this.edited();
  }

  usePicture(bits, w, h) {
    const sheet = this.sheet;
    sheet.edit((s) => {
      const genre = pictureGenre();
      if (s.genre !== genre || s.width !== w || s.height !== h) s.load(Sheet.blank(genre, w, h));
      s.setPicture(bits);
    });
    this.edited();
    this.status(`The picture is on the board at ${w}×${h}; its clues follow it.`);
  }

  // --- wiring ------------------------------------------------------------------------------

  wire() {
    $('ws-genre').addEventListener('change', () => this.fillSizes($('ws-size').value));
    $('ws-setup').addEventListener('submit', (e) => {
      e.preventDefault();
      this.blank($('ws-genre').value, $('ws-size').value);
      this.edited();
      this.status('A new blank board; Undo brings back the previous one.');
    });
    for (const tool of ['border', 'cell']) {
      $(`ws-tool-${tool}`).addEventListener('click', () => {
        this.tool = tool;
        this.store.setPref('workshopTool', tool);
        this.refresh();
      });
    }
    $('ws-paint').addEventListener('click', () => this.setClueMode('paint'));
    $('ws-type').addEventListener('click', () => this.setClueMode('type'));
    $('ws-undo').addEventListener('click', () => this.undo());
    $('ws-redo').addEventListener('click', () => this.redo());
    $('ws-clear').addEventListener('click', () => {
      if (this.sheet.edit((s) => s.clear())) { this.edited(); this.status('Cleared; Undo brings it back.'); }
    });
    $('ws-suggest').addEventListener('click', () => this.suggest());
    $('ws-unique').addEventListener('click', () => this.makeUnique());
    $('ws-spares').addEventListener('click', () => this.minimize());
    $('ws-pin').addEventListener('click', () => this.pinOther());
    $('ws-play').addEventListener('click', () => this.code && this.play(this.code));
    $('ws-keep').addEventListener('click', () => this.keep());
    $('ws-copy-share').addEventListener('click', () => this.copy('ws-share', 'Share link'));
    $('ws-copy-url').addEventListener('click', () => this.copy('ws-url', 'puzz.link URL'));
    $('ws-zoom-in').addEventListener('click', () => { this.board.zoomIn(); this.announce(`Zoom ${Math.round(this.board.zoom * 100)}%`); });
    $('ws-zoom-out').addEventListener('click', () => { this.board.zoomOut(); this.announce(`Zoom ${Math.round(this.board.zoom * 100)}%`); });
    $('ws-zoom-fit').addEventListener('click', () => { this.board.setZoom(1); this.announce('The board fits the window.'); });
    document.addEventListener('keydown', (e) => {
      if (!this.visible || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.target === this.board.svg) return; // the board handles its own keys
      const ctrl = e.ctrlKey || e.metaKey;
      if (ctrl && (e.key === 'z' || e.key === 'Z')) { e.preventDefault(); if (e.shiftKey) this.redo(); else this.undo(); }
      if (ctrl && (e.key === 'y' || e.key === 'Y')) { e.preventDefault(); this.redo(); }
    });
  }
}
