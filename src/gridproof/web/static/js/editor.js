// The workshop's board: the player's PlayBoard (same drawing, same ARIA grid, the same fit
// to the window's width and height, zoom, sticky clue bands, and two fingers that pan and
// zoom and never edit: what the first finger drew before the second came is taken back)
// showing a Sheet being edited. Borders: a click or tap toggles the edge nearest to it; a drag runs from
// grid corner to grid corner and draws (or, starting on a border, erases) every edge it
// passes. Cells: a click toggles a circle (a `circles` layer) or a painted cell (a picture), a drag
// paints the same way. Keyboard: arrows move the cursor, Space toggles the cell, Shift+arrow
// toggles the border on that side of the cursor, Ctrl+Z / Ctrl+Y undo and redo.
// What the board shows besides the sheet (a solution, two solutions, a solve step) is a
// `view`; any edit goes back to the sheet itself.

import { U, el } from './board.js';
import { EMPTY, SHADED, UNKNOWN } from './game.js';
import { PlayBoard } from './playboard.js';

const VERTEX_REACH = 0.42; // how near a grid corner (in cells) a drag must pass to reach it
const SIDES = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const GRID_MARKS = { '#': SHADED, o: EMPTY, '+': EMPTY };

export class EditorBoard extends PlayBoard {
  // handlers: tool() ('border' | 'cell'), edited(), aborted() (a stroke taken back), undo(),
  // redo(), announce(text), and PlayBoard's layout, roomWidth and zoomed
  constructor(svg, wrap, handlers) {
    super(svg, wrap, handlers);
    this.idPrefix = 'ws-cell-';
    this.sheet = null;
    this.view = { kind: 'sheet' };
    this.spec = {};
    this.reserve = [0, 0];
  }

  // --- drawing ---------------------------------------------------------------------------

  // Draws the sheet: the whole SVG when the genre, the size or the clue bands change, else
  // only what changed (a 30×30 board redrawn whole on every step of a drag would lag).
  draw(sheet, title = this.title) {
    this.sheet = sheet;
    this.title = title || sheet.genre;
    const { width: w, height: h } = sheet;
    const puzzle = sheet.toPuzzle();
    const data = sheet.hasPicture ? { rows: puzzle.rows, cols: puzzle.cols } : { regions: puzzle.regions };
    if (sheet.hasCircles) data.circles = puzzle.circles;
    const key = `${sheet.genre} ${w}x${h}`;
    this.rowClues = data.rows || null;
    this.colClues = data.cols || null;
    const bands = this.clueBands().join();
    if (this.game && this.drawn === `${key} ${bands}`) {
      this.patch(sheet, data);
    } else {
      this.drawn = `${key} ${bands}`;
      this.show({
        code: 'workshop', width: w, height: h, size: w * h, solved: false,
        playable: new Array(w * h).fill(true), marks: this.marksOf(sheet),
        view: { title: `${this.title} being made`, genre: sheet.genre, data },
      });
    }
    this.svg.dataset.regions = sheet.hasRegions ? String(sheet.regionCount()) : '';
    this.svg.dataset.version = String(sheet.version); // the verdict shown says which it was for
    this.mark(this.spec);
  }

  patch(sheet, data) {
    const game = this.game;
    const { width: w } = sheet;
    if (data.circles) {
      data.circles.flat().forEach((on, i) => {
        if (on !== this.circles[Math.floor(i / w)][i % w]) this.setCircle(i, on);
      });
    }
    game.view.data = data;
    this.regions = data.regions || null;
    this.circles = data.circles || null;
    if (this.regions) this.fillWalls();
    if (this.rowClues) {
      this.bands.remove();
      this.drawBands();
      this.svg.append(this.bands);
      this.labelRows();
      this.stick();
    }
    game.marks = this.marksOf(sheet);
    this.refresh();
    this.svg.setAttribute('aria-label', `${this.title} being made, ${w} by ${sheet.height}. ${this.instructions()}`);
  }

  setCircle(i, on) {
    const node = this.cellNodes[i];
    node.classList.toggle('round', on === 1);
    node.classList.toggle('no-circle', on !== 1);
    const circle = node.querySelector('circle');
    if (on !== 1) { if (circle) circle.remove(); return; }
    const box = node.querySelector('rect');
    el('circle', { cx: +box.getAttribute('x') + U / 2, cy: +box.getAttribute('y') + U / 2, r: U * 0.34 }, node);
  }

  // Clues read "done" only while the board shows a solve step or a solution (while
  // painting, the clues are the picture's own and would all read done).
  updateClues() {
    if (this.view.kind === 'sheet' && this.rowClueNodes) {
      for (const g of [...this.rowClueNodes, ...this.colClueNodes]) g.classList.remove('done');
      return;
    }
    super.updateClues();
  }

  setView(view, spec = {}) {
    this.view = view;
    this.spec = spec;
    if (this.sheet) this.draw(this.sheet);
  }

  marksOf(sheet) {
    const n = sheet.size;
    const view = this.view;
    if (view.kind === 'grid') return [...view.rows.join('')].map((ch) => GRID_MARKS[ch] || UNKNOWN);
    if (view.kind === 'marks') return [...view.marks];
    if (sheet.paints) return [...sheet.picture].map((bit) => (bit ? SHADED : UNKNOWN));
    return new Array(n).fill(UNKNOWN);
  }

  instructions() {
    const sheet = this.sheet;
    if (!sheet) return '';
    const parts = ['Arrows move the cursor.'];
    if (sheet.hasRegions) parts.push('Shift and an arrow toggles the border on that side.');
    if (sheet.hasCircles) parts.push('Space places or removes a circle.');
    if (sheet.paints) parts.push('Space paints or clears the cell.');
    return parts.join(' ');
  }

  clueBands() {
    const [left, top] = super.clueBands();
    return [Math.max(left, this.reserve[0]), Math.max(top, this.reserve[1])];
  }

  // Every wall the setter drew: those that part two regions solid, the others (a wall with
  // the same region on both sides) dashed, so nothing drawn is invisible.
  drawWalls() {
    this.wallGroup = el('g', { class: 'walls' }, this.svg);
    this.fillWalls();
  }

  fillWalls() {
    const { x0, y0, sheet } = this;
    const { width: w, height: h } = sheet;
    const reg = sheet.regions();
    const parting = [];
    const loose = [];
    for (let r = 0; r < h; r += 1) {
      for (let c = 0; c < w; c += 1) {
        const i = r * w + c;
        if (c + 1 < w && sheet.right[i]) (reg[r][c] !== reg[r][c + 1] ? parting : loose).push(`M${x0 + (c + 1) * U} ${y0 + r * U}v${U}`);
        if (r + 1 < h && sheet.down[i]) (reg[r][c] !== reg[r + 1][c] ? parting : loose).push(`M${x0 + c * U} ${y0 + (r + 1) * U}h${U}`);
      }
    }
    this.wallGroup.replaceChildren();
    el('path', { class: 'regions-halo', d: parting.join('') }, this.wallGroup); // as the player's
    el('path', { class: 'regions', d: parting.join('') }, this.wallGroup);
    if (loose.length) el('path', { class: 'regions loose', d: loose.join('') }, this.wallGroup);
  }

  describe(i) {
    const sheet = this.sheet;
    const { width: w } = sheet;
    const r = Math.floor(i / w);
    const c = i % w;
    const mark = this.game.marks[i];
    const parts = [`Row ${r + 1}, column ${c + 1}`];
    if (sheet.hasCircles) {
      const circle = sheet.circles[i] ? 'circle' : 'no circle';
      parts.push(mark === SHADED ? 'black circle' : mark === EMPTY ? 'white circle' : circle);
    } else if (sheet.hasPicture) {
      parts.push(mark === SHADED ? 'painted' : 'blank');
    } else if (mark !== UNKNOWN) {
      parts.push(mark === SHADED ? 'shaded' : 'empty');
    }
    if (sheet.hasRegions) {
      parts.push(`region ${this.regions[r][c] + 1}`);
      const walls = ['up', 'right', 'down', 'left'].filter((side) => {
        const edge = sheet.side(i, side);
        return edge && sheet.wall(edge);
      });
      parts.push(walls.length ? `borders ${walls.join(', ')}` : 'no borders');
    }
    if (this.rowClues) parts.push(`row clue ${this.rowClues[r].join(' ') || '0'}`, `column clue ${this.colClues[c].join(' ') || '0'}`);
    return parts.join(', ');
  }

  // cells / targets / wrong as the player's highlight; differ: [[cell, label]] boxes that
  // say which solution shades the cell.
  mark(spec = {}) {
    this.spec = spec;
    this.highlight(spec);
    const { width: w } = this.sheet;
    for (const [i, label] of spec.differ || []) {
      const x = this.x0 + (i % w) * U;
      const y = this.y0 + Math.floor(i / w) * U;
      el('rect', { class: 'differ', x: x + 2, y: y + 2, width: U - 4, height: U - 4, rx: 3 }, this.highlights);
      if (label) {
        const tag = el('text', {
          class: 'differ-label', x: x + U - 5, y: y + 6, 'text-anchor': 'end',
          'dominant-baseline': 'hanging', 'font-size': U * 0.36,
        }, this.highlights);
        tag.textContent = label;
      }
    }
  }

  // --- geometry --------------------------------------------------------------------------

  pointAt(event) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: (point.x - this.x0) / U, y: (point.y - this.y0) / U };
  }

  cellOf(p) {
    const { width: w, height: h } = this.sheet;
    const c = Math.floor(p.x);
    const r = Math.floor(p.y);
    return r < 0 || c < 0 || r >= h || c >= w ? null : r * w + c;
  }

  // The interior edge nearest to a point inside the grid; null when that is the frame.
  edgeAt(p) {
    const cell = this.cellOf(p);
    if (cell === null) return null;
    const fx = p.x - Math.floor(p.x);
    const fy = p.y - Math.floor(p.y);
    const near = [['left', fx], ['right', 1 - fx], ['up', fy], ['down', 1 - fy]].sort((a, b) => a[1] - b[1]);
    return this.sheet.side(cell, near[0][0]);
  }

  vertexAt(p) {
    const { width: w, height: h } = this.sheet;
    const vr = Math.round(p.y);
    const vc = Math.round(p.x);
    if (vr < 0 || vc < 0 || vr > h || vc > w) return null;
    return Math.hypot(p.x - vc, p.y - vr) <= VERTEX_REACH ? { r: vr, c: vc } : null;
  }

  // The interior edges along the grid lines from corner a to corner b (across, then down).
  edgesBetween(a, b) {
    const { width: w, height: h } = this.sheet;
    const edges = [];
    const step = (from, to) => (to > from ? 1 : -1);
    for (let c = a.c; c !== b.c; c += step(a.c, b.c)) {
      const col = Math.min(c, c + step(a.c, b.c));
      if (a.r > 0 && a.r < h) edges.push({ kind: 'down', cell: (a.r - 1) * w + col });
    }
    for (let r = a.r; r !== b.r; r += step(a.r, b.r)) {
      const row = Math.min(r, r + step(a.r, b.r));
      if (b.c > 0 && b.c < w) edges.push({ kind: 'right', cell: row * w + b.c - 1 });
    }
    return edges;
  }

  edgeTouches(edge, v) {
    const { width: w } = this.sheet;
    const r = Math.floor(edge.cell / w);
    const c = edge.cell % w;
    if (edge.kind === 'right') return v.c === c + 1 && (v.r === r || v.r === r + 1);
    return v.r === r + 1 && (v.c === c || v.c === c + 1);
  }

  // --- input -----------------------------------------------------------------------------

  // One finger (or the mouse); PlayBoard turns a second finger into a pan or a pinch.
  strokeDown(event) {
    if (!this.sheet || event.button === 1 || (event.pointerType === 'mouse' && event.button > 2)) return;
    if (event.target instanceof Element && event.target.closest('.bands')) return; // a sticky band over cells
    const p = this.pointAt(event);
    if (!p) return;
    const cell = this.cellOf(p);
    const tool = this.handlers.tool();
    if (cell === null && tool !== 'border') return;
    if (cell === null && this.vertexAt(p) === null) return;
    event.preventDefault();
    this.svg.focus({ preventScroll: true });
    if (cell !== null) { this.active = cell; this.showActive(); }
    this.leaveView();
    this.sheet.begin();
    this.reserve = super.clueBands();
    if (tool === 'border') {
      this.stroke = { kind: 'border', edge: this.edgeAt(p), vertex: this.vertexAt(p), moved: false, on: null };
    } else {
      this.stroke = { kind: 'cell', on: !this.sheet.cellOn(cell), last: cell };
      this.paintCell(cell);
    }
    try { this.svg.setPointerCapture(event.pointerId); } catch { /* synthetic events */ }
  }

  strokeMove(event) {
    const stroke = this.stroke;
    if (!stroke) return;
    const p = this.pointAt(event);
    if (!p) return;
    if (stroke.kind === 'cell') {
      const cell = this.cellOf(p);
      if (cell !== null && cell !== stroke.last) { stroke.last = cell; this.paintCell(cell); }
      return;
    }
    const v = this.vertexAt(p);
    if (!v || (stroke.vertex && v.r === stroke.vertex.r && v.c === stroke.vertex.c)) return;
    const edges = stroke.vertex ? this.edgesBetween(stroke.vertex, v)
      : stroke.edge && this.edgeTouches(stroke.edge, v) ? [stroke.edge] : [];
    stroke.vertex = v;
    if (!edges.length) return;
    if (stroke.on === null) stroke.on = !this.sheet.wall(edges[0]);
    stroke.moved = true;
    let changed = false;
    for (const edge of edges) changed = this.sheet.setWall(edge, stroke.on) || changed;
    if (changed) this.draw(this.sheet);
  }

  strokeUp() {
    const stroke = this.stroke;
    if (!stroke) return;
    this.stroke = null;
    if (stroke.kind === 'border' && !stroke.moved && stroke.edge) {
      this.sheet.setWall(stroke.edge, !this.sheet.wall(stroke.edge));
    }
    this.reserve = [0, 0];
    const changed = this.sheet.commit();
    this.draw(this.sheet);
    if (changed) this.handlers.edited();
  }

  // A second finger came: the stroke is not an edit, and leaves no step to undo.
  abortStroke() {
    if (!this.stroke) return;
    this.stroke = null;
    this.reserve = [0, 0];
    const changed = this.sheet.abort();
    this.draw(this.sheet);
    this.handlers.aborted(changed);
  }

  paintCell(cell) {
    if (this.sheet.setCell(cell, this.stroke.on)) this.draw(this.sheet);
  }

  // An edit starts: the board shows the sheet, without the highlights of the last verdict
  // (drawn at the next draw).
  leaveView() {
    this.view = { kind: 'sheet' };
    this.spec = {};
  }

  keyDown(event) {
    if (!this.sheet) return;
    const { key } = event;
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && (key === 'z' || key === 'Z')) {
      if (event.shiftKey) this.handlers.redo(); else this.handlers.undo();
    } else if (ctrl && (key === 'y' || key === 'Y')) {
      this.handlers.redo();
    } else if (ctrl || event.altKey) {
      return;
    } else if (SIDES[key] && event.shiftKey) {
      this.toggleSide(SIDES[key]);
    } else if (MOVES[key]) {
      this.move(...MOVES[key]);
    } else if (key === 'Home') {
      this.move(null, 0, true);
    } else if (key === 'End') {
      this.move(null, this.sheet.width - 1, true);
    } else if (key === ' ' || key === 'Enter') {
      this.toggleCell();
    } else {
      return;
    }
    event.preventDefault();
  }

  toggleSide(side) {
    const sheet = this.sheet;
    const edge = sheet.hasRegions ? sheet.side(this.active, side) : null;
    if (!edge) {
      this.handlers.announce(sheet.hasRegions ? 'That side is the frame.' : 'This genre has no borders.');
      return;
    }
    const on = !sheet.wall(edge);
    this.leaveView();
    sheet.edit((s) => s.setWall(edge, on));
    this.draw(sheet);
    this.handlers.announce(`Border ${side === 'up' ? 'above' : side === 'down' ? 'below' : `on the ${side}`}: ${on ? 'drawn' : 'erased'}.`);
    this.handlers.edited();
  }

  toggleCell() {
    const sheet = this.sheet;
    const cell = this.active;
    if (!sheet.hasCircles && !sheet.paints) {
      this.handlers.announce(sheet.hasPicture
        ? 'Typing clues: switch to Paint to paint cells.'
        : 'These cells take no marks while making: Shift and an arrow draws a border.');
      return;
    }
    const on = !sheet.cellOn(cell);
    this.leaveView();
    sheet.edit((s) => s.setCell(cell, on));
    this.draw(sheet);
    this.handlers.announce(sheet.hasCircles ? (on ? 'Circle placed.' : 'Circle removed.') : (on ? 'Painted.' : 'Cleared.'));
    this.handlers.edited();
  }
}
