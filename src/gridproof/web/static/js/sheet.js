// The puzzle being made in the workshop, as the setter edits it, in the layers its genre's
// look declares (the catalog's `look`, learnt by `learnLooks`): walls between cells
// (`regions`), circles (`circles`), a picture or typed clues (`line-clues`). Regions are
// never stored: they are the connected areas left by the walls (a flood fill), so a region
// is always connected and splitting or merging is drawing or erasing a wall.
// The whole state is one plain value; undo keeps whole states (boards are at most 30×30),
// so even a new blank board or a resize is one step back. Every change bumps `version`:
// a verdict asked for an older state can be recognised and dropped.
//
// Glossary: `right[cell]` is 1 when a wall separates the cell from its right neighbour,
// `down[cell]` the same for the cell below; cells are `row * width + col`; an edge is
// `{ kind: 'right' | 'down', cell }`; `keep` is the solution the setter pins (rows of text),
// sent with every request so repairs keep to it; `options` the puzzle's own options (the
// look's `options`, each one of its catalog choices), sent in the puzzle under their names.

import { MAX_SIDE, reframe, transform } from './reshape.js';

const MAX_HISTORY = 200;
const SAVED_HISTORY = 30;

const bitsOf = (text, n) => {
  const bits = new Uint8Array(n);
  if (typeof text === 'string' && text.length === n) for (let i = 0; i < n; i += 1) bits[i] = text[i] === '1' ? 1 : 0;
  return bits;
};
const textOf = (bits) => Array.prototype.join.call(bits, '');
const emptyClues = (n) => Array.from({ length: n }, () => []);
const isClue = (clue) => Array.isArray(clue) && clue.every((n) => Number.isInteger(n) && n > 0 && n <= MAX_SIDE);

// The runs of painted cells along one line: the clue that line gets.
export function lineRuns(bits) {
  const found = [];
  let run = 0;
  for (const bit of bits) {
    if (bit) run += 1;
    else if (run) { found.push(run); run = 0; }
  }
  if (run) found.push(run);
  return found;
}

// "3 1", "3,1", "3.1" -> [3, 1]; "" or "0" -> []; anything else -> null.
export function parseClue(text) {
  const words = String(text).trim().split(/[\s,.;]+/).filter(Boolean);
  if (words.length === 1 && words[0] === '0') return [];
  if (!words.every((w) => /^\d{1,2}$/.test(w))) return null;
  const clue = words.map(Number);
  return clue.every((n) => n > 0) ? clue : null;
}

export const formatClue = (clue) => clue.join(' ');

// Each genre's layers and the options its puzzles carry, from the catalog: what a sheet of
// that genre edits. An option is {name, choices, default, label, words}.
const LAYERS = new Map();
const OPTIONS = new Map();
export function learnLooks(genres) {
  for (const genre of genres) {
    LAYERS.set(genre.name, genre.look?.layers || []);
    const carried = genre.look?.options || [];
    const options = Array.isArray(genre.options) ? genre.options : [];
    OPTIONS.set(genre.name, options.filter((o) => carried.includes(o.name) && Array.isArray(o.choices) && o.choices.length));
  }
}
const hasLayer = (genre, layer) => (LAYERS.get(genre) || []).includes(layer);
// The options a puzzle of `genre` carries, as the catalog lists them.
export const puzzleOptions = (genre) => OPTIONS.get(genre) || [];
// `value` as one of the option's choices (compared as text: a save or a select gives
// strings), or null.
const choiceOf = (option, value) => option.choices.find((choice) => String(choice) === String(value)) ?? null;
// Each option of `genre` from `given` (a saved state's, a puzzle's), else its default, else
// its first choice.
function optionValues(genre, given = {}) {
  const values = {};
  for (const option of puzzleOptions(genre)) {
    values[option.name] = choiceOf(option, given?.[option.name]) ?? choiceOf(option, option.default) ?? option.choices[0];
  }
  return values;
}
// The first genre whose boards are drawn from a picture's line clues (the picture import).
export const pictureGenre = () => [...LAYERS.keys()].find((name) => hasLayer(name, 'line-clues'));

export class Sheet {
  constructor(genre, width, height) {
    this.version = 0;
    this.undoStack = [];
    this.redoStack = [];
    this.before = null;
    this.load(Sheet.blank(genre, width, height));
  }

  static blank(genre, width, height) {
    return {
      genre, width, height, right: '', down: '', circles: '', picture: '',
      options: optionValues(genre), clueMode: 'paint', typed: null, keep: null,
    };
  }

  get size() { return this.width * this.height; }
  get hasRegions() { return hasLayer(this.genre, 'regions'); }
  get hasCircles() { return hasLayer(this.genre, 'circles'); }
  get hasPicture() { return hasLayer(this.genre, 'line-clues'); }
  get paints() { return this.hasPicture && this.clueMode === 'paint'; }

  // --- the state as one value ------------------------------------------------------------

  state() {
    return {
      genre: this.genre, width: this.width, height: this.height,
      right: textOf(this.right), down: textOf(this.down), circles: textOf(this.circles),
      picture: textOf(this.picture), options: { ...this.options }, clueMode: this.clueMode,
      typed: this.typed, keep: this.keep,
    };
  }

  // Anything out of range is dropped rather than trusted (a save can be old or edited).
  load(state) {
    const w = Math.max(1, Math.min(MAX_SIDE, Number(state.width) || 5));
    const h = Math.max(1, Math.min(MAX_SIDE, Number(state.height) || 5));
    const n = w * h;
    this.genre = String(state.genre);
    this.width = w;
    this.height = h;
    this.right = bitsOf(state.right, n);
    this.down = bitsOf(state.down, n);
    this.circles = bitsOf(state.circles, n);
    this.picture = bitsOf(state.picture, n);
    // a save from before options were generic kept its one option as `rule`
    this.options = optionValues(this.genre, state.options || (state.rule ? { rule: state.rule } : {}));
    this.clueMode = state.clueMode === 'type' ? 'type' : 'paint';
    const typed = state.typed;
    const fits = (list, count) => Array.isArray(list) && list.length === count && list.every(isClue);
    this.typed = typed && fits(typed.rows, h) && fits(typed.cols, w)
      ? { rows: typed.rows.map((c) => [...c]), cols: typed.cols.map((c) => [...c]) }
      : { rows: emptyClues(h), cols: emptyClues(w) };
    this.keep = Array.isArray(state.keep) && state.keep.length === h
      && state.keep.every((row) => typeof row === 'string' && row.length === w) ? [...state.keep] : null;
    this.cachedRegions = null;
    this.version += 1;
  }

  // --- undo: a stroke (a click, a key, a drag, an applied fix) is one step -----------------

  begin() { this.before = JSON.stringify(this.state()); }

  commit() {
    const before = this.before;
    this.before = null;
    if (before === null || before === JSON.stringify(this.state())) return false;
    this.undoStack.push(before);
    if (this.undoStack.length > MAX_HISTORY) this.undoStack.shift();
    this.redoStack = [];
    return true;
  }

  // A stroke taken back (a second finger made it a gesture): not a step, nothing changed.
  abort() {
    const before = this.before;
    this.before = null;
    if (before === null || before === JSON.stringify(this.state())) return false;
    this.load(JSON.parse(before));
    return true;
  }

  // One whole change as one step: `change` mutates this sheet.
  edit(change) {
    this.begin();
    change(this);
    return this.commit();
  }

  undo() { return this.travel(this.undoStack, this.redoStack); }
  redo() { return this.travel(this.redoStack, this.undoStack); }

  travel(from, to) {
    const state = from.pop();
    if (!state) return false;
    to.push(JSON.stringify(this.state()));
    this.load(JSON.parse(state));
    return true;
  }

  // --- walls -------------------------------------------------------------------------------

  wall(edge) { return this[edge.kind][edge.cell] === 1; }

  setWall(edge, on) {
    const bits = this[edge.kind];
    if (bits[edge.cell] === (on ? 1 : 0)) return false;
    bits[edge.cell] = on ? 1 : 0;
    this.touched();
    return true;
  }

  // The edge on `side` of a cell, or null where that side is the frame.
  side(cell, side) {
    const { width: w, height: h } = this;
    const r = Math.floor(cell / w);
    const c = cell % w;
    if (side === 'right') return c < w - 1 ? { kind: 'right', cell } : null;
    if (side === 'left') return c > 0 ? { kind: 'right', cell: cell - 1 } : null;
    if (side === 'down') return r < h - 1 ? { kind: 'down', cell } : null;
    if (side === 'up') return r > 0 ? { kind: 'down', cell: cell - w } : null;
    return null;
  }

  // The region of every cell, numbered in order of first appearance (row-major), as rows.
  regions() {
    if (this.cachedRegions) return this.cachedRegions;
    const { width: w, size } = this;
    const label = new Int32Array(size).fill(-1);
    let next = 0;
    for (let start = 0; start < size; start += 1) {
      if (label[start] >= 0) continue;
      label[start] = next;
      const stack = [start];
      while (stack.length) {
        const cell = stack.pop();
        const c = cell % w;
        const open = [];
        if (c < w - 1 && !this.right[cell]) open.push(cell + 1);
        if (c > 0 && !this.right[cell - 1]) open.push(cell - 1);
        if (cell + w < size && !this.down[cell]) open.push(cell + w);
        if (cell - w >= 0 && !this.down[cell - w]) open.push(cell - w);
        for (const other of open) {
          if (label[other] < 0) { label[other] = next; stack.push(other); }
        }
      }
      next += 1;
    }
    const rows = [];
    for (let r = 0; r < this.height; r += 1) rows.push([...label.slice(r * w, (r + 1) * w)]);
    this.cachedRegions = rows;
    return rows;
  }

  regionCount() { return Math.max(0, ...this.regions().flat()) + 1; }

  // --- cells -------------------------------------------------------------------------------

  cellOn(cell) { return (this.hasCircles ? this.circles : this.picture)[cell] === 1; }

  setCell(cell, on) {
    const bits = this.hasCircles ? this.circles : this.picture;
    if (!this.hasCircles && !this.paints) return false;
    if (bits[cell] === (on ? 1 : 0)) return false;
    bits[cell] = on ? 1 : 0;
    this.touched();
    return true;
  }

  setOption(name, value) {
    const option = puzzleOptions(this.genre).find((o) => o.name === name);
    const choice = option ? choiceOf(option, value) : null;
    if (choice === null || choice === this.options[name]) return false;
    this.options[name] = choice;
    this.touched();
    return true;
  }

  setTyped(lines, index, clue) {
    const list = this.typed[lines];
    if (!list || index < 0 || index >= list.length || !isClue(clue)) return false;
    if (list[index].join(' ') === clue.join(' ')) return false;
    list[index] = [...clue];
    this.touched();
    return true;
  }

  // Line clues: paint the picture (clues follow it) or type the clues. Typing starts from the
  // picture's clues; painting starts from `picture` (a unique verdict's solution) if given.
  setClueMode(mode, picture = null) {
    if (!this.hasPicture || mode === this.clueMode) return false;
    if (mode === 'type') this.typed = this.clues();
    if (mode === 'paint' && picture) this.picture = bitsOf(picture.join('').replace(/[^#]/g, '0').replace(/#/g, '1'), this.size);
    this.clueMode = mode;
    this.touched();
    return true;
  }

  setPicture(bits) {
    if (!this.hasPicture || bits.length !== this.size) return false;
    this.picture = Uint8Array.from(bits);
    this.clueMode = 'paint';
    this.touched();
    return true;
  }

  setKeep(rows) {
    this.keep = rows ? [...rows] : null;
    this.version += 1;
  }

  clear() {
    this.right.fill(0);
    this.down.fill(0);
    this.circles.fill(0);
    this.picture.fill(0);
    this.typed = { rows: emptyClues(this.height), cols: emptyClues(this.width) };
    this.touched();
  }

  // A change the setter made by hand: a pinned solution may no longer fit the board.
  touched() {
    this.cachedRegions = null;
    if (!this.paints) this.keep = null;
    this.version += 1;
  }

  // --- the board's shape, keeping what is drawn (reshape.js); each is one edit -----------

  // name: 'rotate-right' | 'rotate-left' | 'flip-h' | 'flip-v'
  turn(name) { return this.reshape(transform(this.state(), name)); }

  // lines: { top, right, bottom, left }, each the rows or columns added (+) or removed (−)
  reframe(lines) { return this.reshape(reframe(this.state(), lines)); }

  resize(width, height) { return this.reframe({ right: width - this.width, bottom: height - this.height }); }

  reshape(state) {
    if (!state) return false;
    this.load(state);
    return true;
  }

  isBlank() {
    return !this.right.some(Boolean) && !this.down.some(Boolean) && !this.circles.some(Boolean)
      && !this.picture.some(Boolean) && !this.typed.rows.some((c) => c.length)
      && !this.typed.cols.some((c) => c.length);
  }

  // --- what the server is sent ---------------------------------------------------------------

  clues() {
    if (!this.paints) return { rows: this.typed.rows.map((c) => [...c]), cols: this.typed.cols.map((c) => [...c]) };
    const { width: w, height: h } = this;
    const rows = [];
    const cols = [];
    for (let r = 0; r < h; r += 1) rows.push(lineRuns(this.picture.slice(r * w, (r + 1) * w)));
    for (let c = 0; c < w; c += 1) {
      const line = [];
      for (let r = 0; r < h; r += 1) line.push(this.picture[r * w + c]);
      cols.push(lineRuns(line));
    }
    return { rows, cols };
  }

  pictureRows() {
    const rows = [];
    for (let r = 0; r < this.height; r += 1) {
      rows.push([...this.picture.slice(r * this.width, (r + 1) * this.width)].map((b) => (b ? '#' : '.')).join(''));
    }
    return rows;
  }

  // The genre's JSON puzzle object (see the workshop API).
  toPuzzle() {
    const base = { genre: this.genre, width: this.width, height: this.height };
    if (this.hasPicture) return { ...base, ...this.options, ...this.clues() };
    const puzzle = { ...base, ...this.options, regions: this.regions() };
    if (this.hasCircles) {
      const rows = [];
      for (let r = 0; r < this.height; r += 1) rows.push([...this.circles.slice(r * this.width, (r + 1) * this.width)]);
      puzzle.circles = rows;
    }
    return puzzle;
  }

  // The solution sent as `keep`: the picture itself when painting, else the pinned one.
  keepRows() { return this.paints ? this.pictureRows() : this.keep; }

  // Loads a puzzle object (a repair's, a code's) and the solution to keep with it.
  loadPuzzle(puzzle, keep = null) {
    const { genre, width: w, height: h } = puzzle;
    const state = Sheet.blank(genre, w, h);
    const right = new Uint8Array(w * h);
    const down = new Uint8Array(w * h);
    if (Array.isArray(puzzle.regions)) {
      const reg = puzzle.regions;
      for (let r = 0; r < h; r += 1) {
        for (let c = 0; c < w; c += 1) {
          if (c + 1 < w && reg[r][c] !== reg[r][c + 1]) right[r * w + c] = 1;
          if (r + 1 < h && reg[r][c] !== reg[r + 1][c]) down[r * w + c] = 1;
        }
      }
    }
    Object.assign(state, { right: textOf(right), down: textOf(down), keep });
    if (Array.isArray(puzzle.circles)) state.circles = puzzle.circles.flat().map((v) => (v ? 1 : 0)).join('');
    state.options = optionValues(genre, puzzle);
    if (hasLayer(genre, 'line-clues')) {
      const picture = keep ? keep.join('').replace(/[^#]/g, '0').replace(/#/g, '1') : '';
      state.picture = picture;
      state.clueMode = keep ? 'paint' : 'type';
      state.typed = { rows: puzzle.rows, cols: puzzle.cols };
      state.keep = null;
    }
    this.load(state);
  }

  // --- the browser's copy --------------------------------------------------------------------

  toSave() {
    return {
      state: this.state(),
      undo: this.undoStack.slice(-SAVED_HISTORY),
      redo: this.redoStack.slice(-SAVED_HISTORY),
      updated: Date.now(),
    };
  }

  static fromSave(save) {
    if (!save || !save.state || typeof save.state.genre !== 'string') return null;
    const sheet = new Sheet(save.state.genre, save.state.width, save.state.height);
    sheet.load(save.state);
    const strings = (list) => (Array.isArray(list) ? list.filter((s) => typeof s === 'string') : []);
    sheet.undoStack = strings(save.undo);
    sheet.redoStack = strings(save.redo);
    return sheet;
  }
}
