// One attempt at one puzzle: the marks, the undo history, and what the result will record.
// Marks are the characters the API speaks: '#' shaded, '+' marked empty, '.' unknown.
// Every change bumps `version`, so an answer computed for an older state can be recognised.

export const UNKNOWN = '.';
export const SHADED = '#';
export const EMPTY = '+';
const STATES = new Set([UNKNOWN, SHADED, EMPTY]);

// How the page names each mark symbol a genre's look may declare (`core.contract.SYMBOLS`):
// the mode button's label, the verb of the hints under the board, the word for a cell so
// marked.
const SYMBOL_WORDS = {
  shaded: { label: 'Shade', verb: 'shade', word: 'shaded' },
  star: { label: 'Star', verb: 'place a star', word: 'starred' },
  'black circle': { label: 'Black', verb: 'black', word: 'black' },
  empty: { label: 'Mark empty', verb: 'mark empty', word: 'empty' },
  'white circle': { label: 'White', verb: 'white', word: 'white' },
};

// The words for the two marks of a puzzle view: {shaded, empty}, each {label, verb, word}
// (a view from before the page sent looks: a shaded cell and an empty one).
export function markWords(view) {
  const look = view?.look || {};
  return {
    shaded: SYMBOL_WORDS[look.shaded] || SYMBOL_WORDS.shaded,
    empty: SYMBOL_WORDS[look.empty] || SYMBOL_WORDS.empty,
  };
}

// Whether the view's look draws `layer` (a saved view from before looks: whether its data
// holds the layer's key, as `core.contract.LAYERS` names them).
const LAYER_KEYS = { regions: 'regions', circles: 'circles', 'line-clues': 'rows' };
export const hasLayer = (view, layer) => (Array.isArray(view?.look?.layers)
  ? view.look.layers.includes(layer) : Array.isArray(view?.data?.[LAYER_KEYS[layer]]));
const MAX_HISTORY = 2000;
export const SAVE_VERSION = 2; // the version of toSave()'s object; restore() reads 1 and 2

export class Game {
  constructor(view, origin) {
    this.view = view;
    this.code = view.code;
    this.width = view.width;
    this.height = view.height;
    const circles = hasLayer(view, 'circles') ? view.data.circles : null;
    // Where the look draws circles, only circles can be marked; elsewhere every cell can.
    this.playable = Array.isArray(circles)
      ? circles.flat().map((value) => value === 1)
      : new Array(this.width * this.height).fill(true);
    this.marks = new Array(this.width * this.height).fill(UNKNOWN);
    this.undoStack = [];
    this.redoStack = [];
    this.version = 0;
    this.elapsedMs = 0;
    this.hints = 0;
    this.mistakes = 0;
    this.found = new Set(); // the wrong marks found so far, as "cell:mark", each counted once
    this.attempt = 1;
    this.origin = origin;
    this.daily = null; // the date of the puzzle of the day this is, if it was opened as one
    this.started = false; // the clock runs from the first mark of the attempt
    this.solved = false;
    this.stroke = null;
    this.lastAction = null; // 'do', 'undo' or 'redo': auto-marks follow a decision only
  }

  get size() { return this.width * this.height; }

  rows() {
    const rows = [];
    for (let r = 0; r < this.height; r += 1) {
      rows.push(this.marks.slice(r * this.width, (r + 1) * this.width).join(''));
    }
    return rows;
  }

  // A stroke is one decision: a click, a key, or a whole drag. Undo takes back one stroke.
  // The cells set last (to shaded or marked), most recent first, at most `count`: where
  // the player is working, which a hint looks near.
  recent(count = 8) {
    const found = [];
    for (let s = this.undoStack.length - 1; s >= 0 && found.length < count; s -= 1) {
      const stroke = this.undoStack[s];
      for (let k = stroke.length - 1; k >= 0 && found.length < count; k -= 1) {
        const [cell, , to] = stroke[k];
        if (to !== UNKNOWN && !found.includes(cell) && this.marks[cell] === to) found.push(cell);
      }
    }
    return found;
  }

  begin() { this.stroke = []; }

  paint(cell, to) {
    if (this.solved || !this.playable[cell] || !STATES.has(to)) return false;
    const from = this.marks[cell];
    if (from === to) return false;
    this.marks[cell] = to;
    if (this.stroke) this.stroke.push([cell, from, to]);
    this.version += 1;
    return true;
  }

  commit() {
    const stroke = this.stroke;
    this.stroke = null;
    if (!stroke || stroke.length === 0) return false;
    this.undoStack.push(stroke);
    if (this.undoStack.length > MAX_HISTORY) this.undoStack.shift();
    this.redoStack = [];
    this.lastAction = 'do';
    return true;
  }

  // A stroke that is not a decision after all (a second finger came down): its cells go
  // back to what they were and history is untouched. Returns the cells it restored.
  abort() {
    const stroke = this.stroke;
    this.stroke = null;
    if (!stroke || stroke.length === 0) return [];
    for (let i = stroke.length - 1; i >= 0; i -= 1) this.marks[stroke[i][0]] = stroke[i][1];
    this.version += 1;
    return stroke.map((change) => change[0]);
  }

  // Marks that follow from the last decision (auto-marking) join it, so one Undo takes
  // back both. Only right after a decision; returns the cells changed.
  extendLast(cells, to) {
    const last = this.undoStack[this.undoStack.length - 1];
    if (this.solved || this.lastAction !== 'do' || !last) return [];
    const changed = [];
    for (const cell of cells) {
      const from = this.marks[cell];
      if (!this.playable[cell] || from !== UNKNOWN || from === to) continue;
      this.marks[cell] = to;
      last.push([cell, from, to]);
      changed.push(cell);
    }
    if (changed.length) this.version += 1;
    return changed;
  }

  // Wrong marks found (by a hint or a check): each counted once however often it is found.
  addFound(cells) {
    let fresh = 0;
    for (const cell of cells) {
      const key = `${cell}:${this.marks[cell]}`;
      if (!this.found.has(key)) { this.found.add(key); fresh += 1; }
    }
    this.mistakes += fresh;
    return fresh;
  }

  set(cell, to) {
    this.begin();
    this.paint(cell, to);
    return this.commit() ? [cell] : [];
  }

  undo() {
    if (this.solved) return [];
    const stroke = this.undoStack.pop();
    if (!stroke) return [];
    for (let i = stroke.length - 1; i >= 0; i -= 1) this.marks[stroke[i][0]] = stroke[i][1];
    this.redoStack.push(stroke);
    this.version += 1;
    this.lastAction = 'undo';
    return stroke.map((change) => change[0]);
  }

  redo() {
    if (this.solved) return [];
    const stroke = this.redoStack.pop();
    if (!stroke) return [];
    for (const [cell, , to] of stroke) this.marks[cell] = to;
    this.undoStack.push(stroke);
    this.version += 1;
    this.lastAction = 'redo';
    return stroke.map((change) => change[0]);
  }

  // A retry of the same puzzle: marks, history and counters cleared, the attempt counted.
  reset() {
    this.marks.fill(UNKNOWN);
    this.undoStack = [];
    this.redoStack = [];
    this.elapsedMs = 0;
    this.hints = 0;
    this.mistakes = 0;
    this.found = new Set();
    this.attempt += 1;
    this.origin = 'reset';
    this.started = false;
    this.solved = false;
    this.version += 1;
  }

  toSave() {
    return {
      v: SAVE_VERSION,
      code: this.code,
      genre: this.view.genre,
      size: `${this.width}x${this.height}`,
      difficulty: this.view.difficulty,
      engine: this.view.engine,
      marks: this.rows(),
      undo: this.undoStack,
      redo: this.redoStack,
      elapsedMs: Math.round(this.elapsedMs),
      hints: this.hints,
      mistakes: this.mistakes,
      found: [...this.found],
      attempt: this.attempt,
      origin: this.origin,
      daily: this.daily,
      solved: this.solved,
      updated: Date.now(),
    };
  }

  // Restores a save of this same puzzle: 'restored', or 'unreadable' for a save that is
  // not this puzzle's or that this version cannot read (the caller keeps it aside), or
  // 'none'. A history that does not fit the marks is dropped; the marks are never guessed.
  restore(save) {
    if (!save) return 'none';
    if (!this.readable(save)) return 'unreadable';
    const flat = save.marks.join('');
    this.marks = [...flat];
    const valid = (stack) => Array.isArray(stack) && stack.every((stroke) => Array.isArray(stroke)
      && stroke.every((c) => Array.isArray(c) && c.length === 3 && Number.isInteger(c[0])
        && c[0] >= 0 && c[0] < this.size && STATES.has(c[1]) && STATES.has(c[2])));
    this.undoStack = valid(save.undo) ? save.undo : [];
    this.redoStack = valid(save.redo) ? save.redo : [];
    this.elapsedMs = Number(save.elapsedMs) || 0;
    this.hints = Number(save.hints) || 0;
    this.mistakes = Number(save.mistakes) || 0;
    this.found = new Set(Array.isArray(save.found) ? save.found.filter((k) => typeof k === 'string') : []);
    this.attempt = Number(save.attempt) || 1;
    this.origin = typeof save.origin === 'string' ? save.origin : this.origin;
    this.daily = typeof save.daily === 'string' ? save.daily : this.daily;
    this.started = this.elapsedMs > 0 || this.undoStack.length > 0 || /[^.]/.test(flat);
    this.solved = save.solved === true;
    return 'restored';
  }

  readable(save) {
    if (save.code !== this.code || !Array.isArray(save.marks)) return false;
    if ((Number(save.v) || 1) > SAVE_VERSION) return false; // written by a newer player
    if (!save.marks.every((row) => typeof row === 'string')) return false;
    const flat = save.marks.join('');
    if (save.marks.length !== this.height || flat.length !== this.size) return false;
    return [...flat].every((ch) => STATES.has(ch));
  }
}
