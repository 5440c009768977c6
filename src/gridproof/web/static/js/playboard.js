// The player's board: the shared Board (board.js) with what playing a big board on any
// screen needs.
// - Fit: the board takes the room the viewport has in width *and* height (in the side-by-side
//   layout, everything from the board's top to the window's bottom), so the toolbar and the
//   status stay in view; cells never get smaller than MIN_PX (the board then scrolls in its
//   frame instead). Zoom multiplies the fitted size (buttons, or pinching).
// - Touch: one finger paints; a second finger turns the touch into a gesture that never
//   paints: what the first finger painted is taken back (not a decision, not in the undo
//   history), two fingers pan the frame and pinch zooms.
// - Clue bands and coordinates stay in view when the frame scrolls (they are moved with it).
// - Region borders carry a halo in the cell colour, so a border between two shaded cells
//   shows in both themes; highlights carry an inner ring for the same reason.
// - Each row is labelled for screen readers; complete regions are tinted.

import { Board, U, el } from './board.js';

const MIN_PX = 18; // the smallest cell, in CSS pixels, before the frame scrolls instead
/** From this window width on, a board and its controls sit side by side (player and workshop). */
export const SIDED_MIN_WIDTH = 880;
const MAX_PX = 72; // zooming stops here
const NATURAL = [24, 64];
const COORD = 0.7 * U; // the coordinate band
const ZOOM_STEP = 1.25;
const PINCH_DEAD = 0.06; // a pinch smaller than this is a pan

export class PlayBoard extends Board {
  // handlers: as Board's, plus layout(naturalWidth) -> sided (the page decides its layout),
  // roomWidth(sided) (the width the board may take, when the page knows it better than the
  // frame's own width), zoomed(zoom, canZoomIn) after every fit
  constructor(svg, wrap, handlers) {
    super(svg, wrap, handlers);
    this.zoom = 1;
    this.fitPx = NATURAL[1];
    this.px = NATURAL[1];
    this.coordinates = false;
    this.pointers = new Map();
    this.gesture = null;
    this.complete = new Set();
    wrap.addEventListener('scroll', () => this.stick(), { passive: true });
  }

  // --- drawing -------------------------------------------------------------------------

  show(game) {
    this.bands = null;
    this.complete = new Set();
    super.show(game);
    if (!this.bands) this.drawBands();
    this.svg.append(this.bands); // above the cells, their highlights and the focus ring
    if (this.regions && this.coordinates) this.drawRegionLabels();
    this.labelRows();
    this.stick();
  }

  clueBands() {
    const [left, top] = super.clueBands();
    return this.coordinates ? [left + COORD, top + COORD] : [left, top];
  }

  // Called by Board.show when the puzzle has clues; else show draws the bands itself.
  drawClues() { this.drawBands(); }

  // The bands beside and above the grid (clues, coordinates), each on a background so the
  // cells can scroll under them, and the corner above both.
  drawBands() {
    const { width: w, height: h } = this.game;
    const { x0, y0 } = this;
    this.bands = el('g', { class: 'bands', 'aria-hidden': 'true' }, this.svg);
    this.leftBand = el('g', { class: 'band-left' }, this.bands);
    this.topBand = el('g', { class: 'band-top' }, this.bands);
    this.corner = el('rect', { class: 'band-bg', x: 0, y: 0, width: Math.max(0, x0 - 2), height: Math.max(0, y0 - 2) }, this.bands);
    if (x0 > 2 * EDGE_OF_BAND) el('rect', { class: 'band-bg', x: 0, y: y0 - 2, width: x0 - 2, height: h * U + 4 }, this.leftBand);
    if (y0 > 2 * EDGE_OF_BAND) el('rect', { class: 'band-bg', x: x0 - 2, y: 0, width: w * U + 4, height: y0 - 2 }, this.topBand);
    if (this.rowClues) {
      super.drawClues(); // into a group of its own, moved into the bands
      const clues = this.svg.lastElementChild;
      const rows = [...clues.children].slice(0, h);
      const cols = [...clues.children].slice(h);
      this.leftBand.append(...rows);
      this.topBand.append(...cols);
      clues.remove();
    }
    if (this.coordinates) this.drawCoordinates();
  }

  drawCoordinates() {
    const { width: w, height: h } = this.game;
    const size = U * 0.36;
    const text = (parent, x, y, value) => {
      const node = el('text', { class: 'coord', x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': size }, parent);
      node.textContent = String(value);
    };
    for (let r = 0; r < h; r += 1) text(this.leftBand, 4 + COORD / 2, this.y0 + (r + 0.5) * U, r + 1);
    for (let c = 0; c < w; c += 1) text(this.topBand, this.x0 + (c + 0.5) * U, 4 + COORD / 2, c + 1);
  }

  // Each region's number in the corner of its first cell, as hints name them.
  drawRegionLabels() {
    const group = el('g', { class: 'region-labels', 'aria-hidden': 'true' });
    const seen = new Set();
    const { width: w } = this.game;
    this.regions.flat().forEach((id, i) => {
      if (seen.has(id)) return;
      seen.add(id);
      const label = el('text', {
        class: 'region-label', x: this.x0 + (i % w) * U + 4, y: this.y0 + Math.floor(i / w) * U + 3,
        'dominant-baseline': 'hanging', 'font-size': U * 0.3,
      }, group);
      label.textContent = String(id + 1);
    });
    this.svg.insertBefore(group, this.highlights);
  }

  // A halo in the cell colour under every region border.
  drawWalls() {
    const before = this.svg.lastElementChild;
    super.drawWalls();
    const walls = this.svg.lastElementChild;
    if (walls === before) return;
    const halo = el('path', { class: 'regions-halo', d: walls.getAttribute('d') });
    this.svg.insertBefore(halo, walls);
  }

  labelRows() {
    const rows = this.svg.querySelectorAll('[role=row]');
    rows.forEach((row, r) => {
      const clue = this.rowClues ? `, clue ${this.rowClues[r].length ? this.rowClues[r].join(' ') : '0'}` : '';
      row.setAttribute('aria-label', `Row ${r + 1}${clue}`);
    });
  }

  setCoordinates(on) {
    if (this.coordinates === on) return;
    this.coordinates = on;
    if (this.game) this.show(this.game);
  }

  // Regions the validator no longer names: tinted, so what is left to do stands out.
  setComplete(ids) {
    this.complete = ids;
    if (!this.regions || !this.game) return;
    const flat = this.regions.flat();
    this.cellNodes.forEach((node, i) => node.classList.toggle('complete', ids.has(flat[i])));
  }

  // As Board's, with an inner ring in the cell colour (visible on shaded cells too), and
  // `broken`: cells of a rule the marks break.
  highlight({ cells = [], targets = [], wrong = [], broken = [] } = {}) {
    super.highlight({ cells, targets, wrong });
    const { width: w } = this.game;
    for (const i of broken) {
      el('rect', {
        class: 'hl broken', x: this.x0 + (i % w) * U + 2, y: this.y0 + Math.floor(i / w) * U + 2,
        width: U - 4, height: U - 4, rx: 3,
      }, this.highlights);
    }
    for (const box of [...this.highlights.children]) {
      const inset = 4;
      el('rect', {
        class: 'hl-ring', x: +box.getAttribute('x') + inset, y: +box.getAttribute('y') + inset,
        width: U - 4 - 2 * inset, height: U - 4 - 2 * inset, rx: 2,
      }, this.highlights);
    }
  }

  // --- size, zoom and scrolling ------------------------------------------------------

  fit() {
    if (!this.game || !this.wrap.offsetParent) return; // hidden: fitted when shown
    const unitsW = this.totalW / U;
    const unitsH = this.totalH / U;
    const side = Math.max(this.game.width, this.game.height);
    const natural = Math.max(NATURAL[0], Math.min(NATURAL[1], Math.floor(800 / side)));
    const sided = this.handlers.layout ? this.handlers.layout(natural * unitsW) : false;
    const roomW = (this.handlers.roomWidth && this.handlers.roomWidth(sided)) || this.wrap.clientWidth || natural * unitsW;
    const roomH = this.roomHeight(sided);
    this.fitPx = Math.max(MIN_PX, Math.min(natural, roomW / unitsW, roomH / unitsH));
    this.maxZoom = Math.max(1, MAX_PX / this.fitPx);
    this.zoom = Math.max(1, Math.min(this.zoom, this.maxZoom));
    this.px = this.fitPx * this.zoom;
    const width = Math.floor(this.px * unitsW);
    const height = Math.floor(this.px * unitsH);
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(height));
    this.wrap.classList.toggle('scrolls', width > roomW + 1);
    this.wrap.style.maxHeight = height > roomH + 1 ? `${Math.floor(roomH)}px` : '';
    this.stick();
    if (this.handlers.zoomed) this.handlers.zoomed(this.zoom, this.zoom < this.maxZoom - 0.01);
  }

  // The height the board may take: side by side, from its top (in the page) to the window's
  // bottom; stacked, the window less the toolbar and status below it.
  roomHeight(sided) {
    const inner = window.innerHeight;
    if (!sided) return Math.max(inner * 0.5, inner - 150);
    const top = this.wrap.getBoundingClientRect().top + window.scrollY;
    return Math.max(inner * 0.55, inner - top - 12);
  }

  // zoom: a factor of the fitted size (1 = fit); anchor: the client point that stays put.
  setZoom(zoom, anchor = null) {
    const rect = this.wrap.getBoundingClientRect();
    const at = anchor || { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
    const old = this.px;
    const ux = (this.wrap.scrollLeft + at.x - rect.left) / old; // in cells, under the anchor
    const uy = (this.wrap.scrollTop + at.y - rect.top) / old;
    this.zoom = Math.max(1, Math.min(zoom, this.maxZoom || 1));
    this.fit();
    this.wrap.scrollLeft = ux * this.px - (at.x - rect.left);
    this.wrap.scrollTop = uy * this.px - (at.y - rect.top);
    this.stick();
  }

  zoomIn() { this.setZoom(this.zoom * ZOOM_STEP); }

  zoomOut() { this.setZoom(this.zoom / ZOOM_STEP); }

  // The bands follow the frame's scrolling, so clues and coordinates stay in view.
  stick() {
    if (!this.bands || !this.px) return;
    const perUnit = this.px / U;
    const dx = this.wrap.scrollLeft / perUnit;
    const dy = this.wrap.scrollTop / perUnit;
    this.leftBand.setAttribute('transform', `translate(${dx} 0)`);
    this.topBand.setAttribute('transform', `translate(0 ${dy})`);
    this.corner.setAttribute('transform', `translate(${dx} ${dy})`);
  }

  // Keeps the keyboard's cell in view (clear of the bands) when the frame scrolls.
  showActive() {
    super.showActive();
    if (!this.game || !this.px || document.activeElement !== this.svg) return;
    const perUnit = this.px / U;
    const { width: w } = this.game;
    const left = (this.x0 + (this.active % w) * U) * perUnit;
    const top = (this.y0 + Math.floor(this.active / w) * U) * perUnit;
    const cell = U * perUnit;
    const wrap = this.wrap;
    const bandW = this.x0 * perUnit;
    const bandH = this.y0 * perUnit;
    if (left - bandW < wrap.scrollLeft) wrap.scrollLeft = left - bandW;
    else if (left + cell > wrap.scrollLeft + wrap.clientWidth) wrap.scrollLeft = left + cell - wrap.clientWidth;
    if (top - bandH < wrap.scrollTop) wrap.scrollTop = top - bandH;
    else if (top + cell > wrap.scrollTop + wrap.clientHeight) wrap.scrollTop = top + cell - wrap.clientHeight;
  }

  // --- touch: one finger paints, two fingers pan and zoom ------------------------------

  pointerDown(event) {
    if (event.pointerType !== 'mouse') this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.gesture || this.pointers.size >= 2 || !event.isPrimary) {
      event.preventDefault();
      this.startGesture();
      return;
    }
    this.strokeDown(event);
  }

  pointerMove(event) {
    if (this.pointers.has(event.pointerId)) this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.gesture) { this.moveGesture(); return; }
    if (!event.isPrimary) return;
    this.strokeMove(event);
  }

  pointerUp(event) {
    if (event && event.type !== 'lostpointercapture') this.pointers.delete(event.pointerId);
    if (this.gesture) {
      if (this.pointers.size < 2) this.gesture = this.pointers.size ? { ...this.gesture, ended: true } : null;
      return;
    }
    if (event && !event.isPrimary) return;
    this.strokeUp(event);
  }

  // One finger's stroke (the workshop's board draws its own strokes).
  strokeDown(event) { super.pointerDown(event); }

  strokeMove(event) { super.pointerMove(event); }

  strokeUp(event) { super.pointerUp(event); }

  // A second finger: whatever the first one painted is not a decision.
  startGesture() {
    this.abortStroke();
    const [a, b] = [...this.pointers.values()];
    if (!b) { this.gesture = this.gesture || { ended: true }; return; }
    this.gesture = { last: mid(a, b), spread: spread(a, b), zoom: this.zoom, ended: false };
  }

  abortStroke() {
    if (!this.stroke) return;
    const cells = this.game.abort();
    this.stroke = null;
    this.updateCells(cells);
  }

  moveGesture() {
    const g = this.gesture;
    const [a, b] = [...this.pointers.values()];
    if (!b || g.ended) return;
    const m = mid(a, b);
    const ratio = spread(a, b) / (g.spread || 1);
    if (Math.abs(ratio - 1) > PINCH_DEAD) this.setZoom(g.zoom * ratio, m);
    const dx = m.x - g.last.x;
    const dy = m.y - g.last.y;
    g.last = m;
    const wrap = this.wrap;
    const left = wrap.scrollLeft;
    const top = wrap.scrollTop;
    wrap.scrollLeft -= dx;
    wrap.scrollTop -= dy;
    const restX = -dx - (wrap.scrollLeft - left);
    const restY = -dy - (wrap.scrollTop - top);
    if (Math.abs(restX) > 0.5 || Math.abs(restY) > 0.5) window.scrollBy(restX, restY); // the page, past the frame's edge
  }
}

const EDGE_OF_BAND = 4;
const mid = (a, b) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const spread = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
