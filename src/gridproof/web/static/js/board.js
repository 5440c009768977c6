// The board as SVG, drawn from the puzzle's data alone: `regions` give thick borders,
// `circles` give circles (and only circles are playable), `rows`/`cols` give clue bands with
// guide lines every five cells. Input: mouse (click, right-click, drag), touch (the page's
// mode toggle), keyboard (arrows move a visible focus, keys set states). The SVG is an ARIA
// grid whose active cell is announced with its row, column, state, region and clues.

import { EMPTY, SHADED, UNKNOWN, hasLayer } from './game.js';

const SVG = 'http://www.w3.org/2000/svg'; // the SVG namespace name; nothing is fetched
export const U = 40; // one cell in SVG units
const SLOT = 0.8 * U; // one clue number: its own slot, so "1 1 3" never reads "11 3"
const WIDE_SLOT = 1.15 * U; // a two-digit number beside a row gets a wider one
const rowSlot = (n) => (n >= 10 ? WIDE_SLOT : SLOT);
const rowClueWidth = (clue) => (clue.length ? clue : [0]).reduce((sum, n) => sum + rowSlot(n), 0);
const PAD = 8;
const EDGE = 4;
const MIN_CELL_PX = 18;
const CELL_PX = [24, 64];

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

export function runs(values) {
  const found = [];
  let run = 0;
  for (const value of values) {
    if (value === SHADED) run += 1;
    else if (run) { found.push(run); run = 0; }
  }
  if (run) found.push(run);
  return found;
}

const sameList = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const clueWords = (clue) => (clue.length ? clue.join(' ') : '0');

// A five-pointed star centred on (cx, cy) with outer radius r: the shaded mark of a genre
// whose look draws stars.
function starPath(cx, cy, r) {
  const points = [];
  for (let k = 0; k < 10; k += 1) {
    const radius = k % 2 ? r * 0.45 : r;
    const angle = -Math.PI / 2 + (k * Math.PI) / 5;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)} ${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return `M${points.join('L')}Z`;
}

export class Board {
  constructor(svg, wrap, handlers) {
    this.svg = svg;
    this.wrap = wrap;
    this.handlers = handlers;
    this.game = null;
    this.active = 0;
    this.stroke = null;
    this.idPrefix = 'cell-'; // a second board on the page (the workshop's) uses its own
    svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    svg.addEventListener('pointercancel', (e) => this.pointerUp(e));
    svg.addEventListener('lostpointercapture', (e) => this.pointerUp(e));
    svg.addEventListener('contextmenu', (e) => e.preventDefault());
    svg.addEventListener('keydown', (e) => this.keyDown(e));
    svg.addEventListener('focus', () => this.showActive());
    window.addEventListener('resize', () => this.fit());
  }

  // --- drawing ------------------------------------------------------------------------

  show(game) {
    this.game = game;
    this.active = Math.min(this.active, game.size - 1);
    const { width: w, height: h } = game;
    // Each layer the genre's look declares, from the data keys the contract gives it
    // (`core.contract.LAYERS`): regions, circles, line clues (rows and cols)
    const data = game.view.data;
    const layer = (name, key) => (hasLayer(game.view, name) && Array.isArray(data[key]) ? data[key] : null);
    this.regions = layer('regions', 'regions');
    this.rowClues = layer('line-clues', 'rows');
    this.colClues = layer('line-clues', 'cols');
    this.circles = layer('circles', 'circles');
    // How the marks are drawn and named: the genre's look (a save from before the page
    // sent one draws its shaded mark as a filled cell)
    this.look = { shaded: 'shaded', empty: 'empty', ...(game.view.look || {}) };
    this.layout(this.clueBands());
    this.totalW = this.x0 + w * U + EDGE;
    this.totalH = this.y0 + h * U + EDGE;

    const svg = this.svg;
    svg.replaceChildren();
    svg.dataset.code = game.code;
    svg.setAttribute('viewBox', `0 0 ${this.totalW} ${this.totalH}`);
    svg.setAttribute('aria-rowcount', String(h));
    svg.setAttribute('aria-colcount', String(w));
    svg.setAttribute('aria-label', `${game.view.title}, ${w} by ${h}. ${this.instructions()}`);
    el('rect', { class: 'bg', x: this.x0, y: this.y0, width: w * U, height: h * U }, svg);
    if (this.rowClues) this.drawClues();
    this.drawCells();
    this.drawLines();
    this.highlights = el('g', { class: 'highlights', 'aria-hidden': 'true' }, svg);
    this.focusRing = el('rect', {
      class: 'focus-ring', width: U - 4, height: U - 4, rx: 4, 'aria-hidden': 'true',
    }, svg);
    this.refresh();
    this.showActive();
    this.fit();
  }

  // The room the clue bands need, in SVG units: [left, top].
  clueBands() {
    const left = this.rowClues ? Math.max(SLOT, ...this.rowClues.map(rowClueWidth)) + PAD : 0;
    const top = this.colClues ? Math.max(1, ...this.colClues.map((c) => c.length)) * SLOT + PAD : 0;
    return [left, top];
  }

  layout([left, top]) {
    this.x0 = EDGE + left;
    this.y0 = EDGE + top;
  }

  instructions() {
    return this.circles
      ? 'Only circles can be marked: shade a circle black, or mark it white.'
      : 'Each cell can be shaded, marked empty, or left unknown.';
  }

  drawCells() {
    const { width: w, height: h } = this.game;
    const cells = el('g', { class: 'cells' }, this.svg);
    this.cellNodes = [];
    for (let r = 0; r < h; r += 1) {
      const row = el('g', { role: 'row', 'aria-rowindex': r + 1 }, cells);
      for (let c = 0; c < w; c += 1) {
        const i = r * w + c;
        const x = this.x0 + c * U;
        const y = this.y0 + r * U;
        const round = this.circles && this.circles[r][c] === 1;
        const star = !this.circles && this.look.shaded === 'star';
        const kind = this.circles ? (round ? ' round' : ' no-circle') : star ? ' starred' : '';
        const node = el('g', {
          role: 'gridcell', id: `${this.idPrefix}${i}`, 'aria-colindex': c + 1, 'data-cell': i,
          'data-row': r, 'data-col': c, class: `cell${kind}`,
        }, row);
        el('rect', { x, y, width: U, height: U }, node);
        if (star) el('path', { class: 'star', d: starPath(x + U / 2, y + U / 2, U * 0.38) }, node);
        if (round) {
          el('circle', { cx: x + U / 2, cy: y + U / 2, r: U * 0.34 }, node);
        } else if (!this.circles) {
          const a = U * 0.34;
          const b = U - a;
          el('path', { class: 'x', d: `M${x + a} ${y + a}L${x + b} ${y + b}M${x + b} ${y + a}L${x + a} ${y + b}` }, node);
        }
        if (!this.game.playable[i]) node.setAttribute('aria-disabled', 'true');
        this.cellNodes.push(node);
      }
    }
  }

  drawLines() {
    const { width: w, height: h } = this.game;
    const { x0, y0 } = this;
    const grid = [];
    for (let r = 1; r < h; r += 1) grid.push(`M${x0} ${y0 + r * U}h${w * U}`);
    for (let c = 1; c < w; c += 1) grid.push(`M${x0 + c * U} ${y0}v${h * U}`);
    el('path', { class: 'grid', d: grid.join('') }, this.svg);
    if (!this.regions && (w > 5 || h > 5)) {
      const guides = [];
      for (let r = 5; r < h; r += 5) guides.push(`M${x0} ${y0 + r * U}h${w * U}`);
      for (let c = 5; c < w; c += 5) guides.push(`M${x0 + c * U} ${y0}v${h * U}`);
      el('path', { class: 'guide', d: guides.join('') }, this.svg);
    }
    if (this.regions) this.drawWalls();
    el('rect', { class: 'frame', x: x0, y: y0, width: w * U, height: h * U }, this.svg);
  }

  // A wall wherever two neighbours lie in different regions.
  drawWalls() {
    const { width: w, height: h } = this.game;
    const { x0, y0 } = this;
    const walls = [];
    const reg = this.regions;
    for (let r = 0; r < h; r += 1) {
      for (let c = 0; c < w; c += 1) {
        if (c + 1 < w && reg[r][c] !== reg[r][c + 1]) walls.push(`M${x0 + (c + 1) * U} ${y0 + r * U}v${U}`);
        if (r + 1 < h && reg[r][c] !== reg[r + 1][c]) walls.push(`M${x0 + c * U} ${y0 + (r + 1) * U}h${U}`);
      }
    }
    el('path', { class: 'regions', d: walls.join('') }, this.svg);
  }

  drawClues() {
    const bands = el('g', { class: 'clues', 'aria-hidden': 'true' }, this.svg);
    this.rowClueNodes = this.rowClues.map((clue, r) => {
      const g = el('g', { class: 'clue' }, bands);
      el('rect', { class: 'band', x: EDGE, y: this.y0 + r * U, width: this.x0 - EDGE, height: U }, g);
      let left = this.x0 - PAD - rowClueWidth(clue);
      for (const n of clue.length ? clue : [0]) {
        this.number(g, n, left + rowSlot(n) / 2, this.y0 + (r + 0.5) * U);
        left += rowSlot(n);
      }
      return g;
    });
    this.colClueNodes = this.colClues.map((clue, c) => {
      const g = el('g', { class: 'clue' }, bands);
      el('rect', { class: 'band', x: this.x0 + c * U, y: EDGE, width: U, height: this.y0 - EDGE }, g);
      const shown = clue.length ? clue : [0];
      shown.forEach((n, k) => {
        const y = this.y0 - PAD - (shown.length - k - 0.5) * SLOT;
        this.number(g, n, this.x0 + (c + 0.5) * U, y);
      });
      return g;
    });
  }

  number(parent, n, x, y) {
    const text = el('text', {
      x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central',
      'font-size': U * 0.54,
    }, parent);
    text.textContent = String(n);
  }

  // --- state --------------------------------------------------------------------------

  refresh() {
    for (let i = 0; i < this.game.size; i += 1) this.updateCell(i, false);
    this.updateClues();
  }

  updateCells(cells) {
    for (const i of cells) this.updateCell(i, false);
    this.updateClues();
  }

  updateCell(i) {
    const node = this.cellNodes[i];
    const mark = this.game.marks[i];
    node.classList.toggle('shaded', mark === SHADED);
    node.classList.toggle('empty', mark === EMPTY);
    node.dataset.state = mark === SHADED ? 'shaded' : mark === EMPTY ? 'empty' : 'unknown';
    node.setAttribute('aria-label', this.describe(i));
  }

  describe(i) {
    const { width: w } = this.game;
    const r = Math.floor(i / w);
    const c = i % w;
    const mark = this.game.marks[i];
    let state;
    if (this.circles) {
      state = !this.game.playable[i] ? 'no circle'
        : mark === SHADED ? 'black circle' : mark === EMPTY ? 'white circle' : 'undecided circle';
    } else {
      const shaded = this.look.shaded === 'star' ? 'star' : 'shaded';
      state = mark === SHADED ? shaded : mark === EMPTY ? 'marked empty' : 'unknown';
    }
    const parts = [`Row ${r + 1}, column ${c + 1}: ${state}`];
    if (this.regions) parts.push(`region ${this.regions[r][c] + 1}`);
    if (this.rowClues) parts.push(`row clue ${clueWords(this.rowClues[r])}`);
    if (this.colClues) parts.push(`column clue ${clueWords(this.colClues[c])}`);
    return parts.join(', ');
  }

  updateClues() {
    if (!this.rowClues) return;
    const { width: w, height: h } = this.game;
    const marks = this.game.marks;
    this.rowClues.forEach((clue, r) => {
      const done = sameList(runs(marks.slice(r * w, (r + 1) * w)), clue);
      this.rowClueNodes[r].classList.toggle('done', done);
    });
    this.colClues.forEach((clue, c) => {
      const line = [];
      for (let r = 0; r < h; r += 1) line.push(marks[r * w + c]);
      this.colClueNodes[c].classList.toggle('done', sameList(runs(line), clue));
    });
  }

  setFinished(finished) { this.svg.classList.toggle('finished', finished); }

  // cells: looked at; targets: decided by a hint; wrong: marks that contradict the solution
  highlight({ cells = [], targets = [], wrong = [] } = {}) {
    this.highlights.replaceChildren();
    const { width: w } = this.game;
    const box = (i, cls) => el('rect', {
      class: cls, 'data-cell': i, x: this.x0 + (i % w) * U + 2, y: this.y0 + Math.floor(i / w) * U + 2,
      width: U - 4, height: U - 4, rx: 3,
    }, this.highlights);
    const targetSet = new Set(targets);
    for (const i of cells) if (!targetSet.has(i)) box(i, 'hl');
    for (const i of targets) box(i, 'hl target');
    for (const i of wrong) box(i, 'hl wrong');
  }

  clearHighlight() { if (this.highlights) this.highlights.replaceChildren(); }

  // --- focus --------------------------------------------------------------------------

  showActive() {
    if (!this.game) return;
    const { width: w } = this.game;
    const r = Math.floor(this.active / w);
    const c = this.active % w;
    this.focusRing.setAttribute('x', String(this.x0 + c * U + 2));
    this.focusRing.setAttribute('y', String(this.y0 + r * U + 2));
    this.svg.setAttribute('aria-activedescendant', `${this.idPrefix}${this.active}`);
    if (this.rowClueNodes) {
      this.rowClueNodes.forEach((g, k) => g.classList.toggle('active', k === r));
      this.colClueNodes.forEach((g, k) => g.classList.toggle('active', k === c));
    }
  }

  move(dr, dc, absolute = false) {
    const { width: w, height: h } = this.game;
    let r = Math.floor(this.active / w);
    let c = this.active % w;
    if (absolute) { r = dr ?? r; c = dc ?? c; } else { r += dr; c += dc; }
    r = Math.max(0, Math.min(h - 1, r));
    c = Math.max(0, Math.min(w - 1, c));
    this.active = r * w + c;
    this.showActive();
  }

  // --- input --------------------------------------------------------------------------

  cellAt(event) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const c = Math.floor((point.x - this.x0) / U);
    const r = Math.floor((point.y - this.y0) / U);
    if (r < 0 || c < 0 || r >= this.game.height || c >= this.game.width) return null;
    return r * this.game.width + c;
  }

  pointerDown(event) {
    if (!this.game || event.button === 1 || (event.pointerType === 'mouse' && event.button > 2)) return;
    const cell = this.cellAt(event);
    if (cell === null) return;
    event.preventDefault();
    this.svg.focus({ preventScroll: true });
    this.active = cell;
    this.showActive();
    if (!this.game.playable[cell] || this.game.solved) return;
    const primary = this.handlers.mode() === 'shade' ? SHADED : EMPTY;
    const other = primary === SHADED ? EMPTY : SHADED;
    const target = event.button === 2 ? other : primary;
    const from = this.game.marks[cell];
    this.stroke = { from, paint: from === target ? UNKNOWN : target, last: cell, changed: [] };
    this.game.begin();
    this.paint(cell);
    try { this.svg.setPointerCapture(event.pointerId); } catch { /* synthetic events */ }
  }

  pointerMove(event) {
    if (!this.stroke) return;
    const cell = this.cellAt(event);
    if (cell === null || cell === this.stroke.last) return;
    this.stroke.last = cell;
    if (this.game.marks[cell] === this.stroke.from) this.paint(cell);
  }

  pointerUp() {
    if (!this.stroke) return;
    const { changed } = this.stroke;
    this.stroke = null;
    if (this.game.commit()) this.handlers.changed(changed);
  }

  paint(cell) {
    if (this.game.paint(cell, this.stroke.paint)) {
      this.stroke.changed.push(cell);
      this.updateCells([cell]);
      this.handlers.painting();
    }
  }

  keyDown(event) {
    if (!this.game) return;
    const { key } = event;
    const ctrl = event.ctrlKey || event.metaKey;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[key] && !ctrl) {
      this.move(...moves[key]);
    } else if (key === 'Home') {
      this.move(ctrl ? 0 : null, 0, true);
    } else if (key === 'End') {
      this.move(ctrl ? this.game.height - 1 : null, this.game.width - 1, true);
    } else if (ctrl && (key === 'z' || key === 'Z')) {
      if (event.shiftKey) this.handlers.redo(); else this.handlers.undo();
    } else if (ctrl && (key === 'y' || key === 'Y')) {
      this.handlers.redo();
    } else if (ctrl || event.altKey) {
      return;
    } else if (key === ' ' || key === 'Enter') {
      this.setActive(SHADED);
    } else if (key === 'x' || key === 'X' || key === '+') {
      this.setActive(EMPTY);
    } else if (key === '.' || key === 'Backspace' || key === 'Delete') {
      this.setActive(UNKNOWN, true);
    } else if (key === 'h' || key === 'H') {
      this.handlers.hint();
    } else {
      return;
    }
    event.preventDefault();
  }

  // Space and X toggle their state; '.' always clears.
  setActive(state, clear = false) {
    const cell = this.active;
    const to = !clear && this.game.marks[cell] === state ? UNKNOWN : state;
    const changed = this.game.set(cell, to);
    if (changed.length) {
      this.updateCells(changed);
      this.handlers.changed(changed);
    }
  }

  // --- size ---------------------------------------------------------------------------

  fit() {
    if (!this.game || !this.wrap.offsetParent) return; // hidden: fitted when shown
    const units = this.totalW / U;
    const side = Math.max(this.game.width, this.game.height);
    const natural = Math.max(CELL_PX[0], Math.min(CELL_PX[1], Math.floor(800 / side)));
    document.body.classList.toggle('wide', natural * units > 700); // before measuring the room
    const room = this.wrap.clientWidth || natural * units;
    let px = Math.min(natural, room / units);
    const scrolls = px < MIN_CELL_PX;
    if (scrolls) px = MIN_CELL_PX;
    this.wrap.classList.toggle('scrolls', scrolls);
    this.svg.setAttribute('width', String(Math.floor(px * units)));
    this.svg.setAttribute('height', String(Math.floor((px * this.totalH) / U)));
  }
}
