// Reshaping the board being made while keeping what is drawn: quarter turns, mirrors, and
// rows or columns added or removed at any edge (a resize is that at the right and bottom).
// Each works on a Sheet's state value (sheet.js) field by field, whatever the genre: the
// per-cell bits (`circles`, `picture`), the walls between cells (`right`, `down`), the
// per-line clues (`typed.rows`, `typed.cols`) and the pinned solution (`keep`, rows of
// text). A quarter turn or a mirror carries each thing to its image; a wall goes between
// the images of the two cells it parted, a line's clue to the image line, read backwards
// when the line lands reversed.
// Added cells are blank and extend the regions beside them (a new row repeats the walls
// of the row it is added to, so two regions never merge through it); a new line's clue is
// empty, and a clue along the added or removed lines stays as typed (an added blank cell
// leaves it true). Removed cells go with what was on them. The pinned solution is kept by
// a turn or a mirror and dropped by a change of size (it no longer fits).

export const MAX_SIDE = 100; // the genres' own limit; the player offers up to 30×30
const CELL_BITS = ['circles', 'picture'];

// name -> the image grid's shape and where (row, col) lands, as affine maps (they are also
// asked about points just off the grid, to learn which way a line runs).
const SYMMETRIES = {
  'rotate-right': (w, h) => ({ width: h, height: w, at: (r, c) => [c, h - 1 - r] }),
  'rotate-left': (w, h) => ({ width: h, height: w, at: (r, c) => [w - 1 - c, r] }),
  'flip-h': (w, h) => ({ width: w, height: h, at: (r, c) => [r, w - 1 - c] }),
  'flip-v': (w, h) => ({ width: w, height: h, at: (r, c) => [h - 1 - r, c] }),
};
export const SYMMETRY_NAMES = Object.keys(SYMMETRIES);

const bit = (text, i) => (typeof text === 'string' && text[i] === '1' ? 1 : 0);
const textOf = (bits) => Array.prototype.join.call(bits, '');

// --- quarter turns and mirrors -------------------------------------------------------------

export function transform(state, name) {
  const make = SYMMETRIES[name];
  if (!make) throw new Error(`no symmetry ${name}`);
  const { width: w, height: h } = state;
  const { width: W, height: H, at } = make(w, h);
  const n = w * h;
  const rc = (i) => at(Math.floor(i / w), i % w);
  const index = ([r, c]) => r * W + c;
  const out = { ...state, width: W, height: H };
  for (const field of CELL_BITS) {
    const bits = new Uint8Array(n);
    for (let i = 0; i < n; i += 1) bits[index(rc(i))] = bit(state[field], i);
    out[field] = textOf(bits);
  }
  const right = new Uint8Array(n);
  const down = new Uint8Array(n);
  const wall = (a, b) => { // a wall between the images of two neighbours
    const [p, q] = [rc(a), rc(b)];
    if (p[0] === q[0]) right[p[0] * W + Math.min(p[1], q[1])] = 1;
    else down[Math.min(p[0], q[0]) * W + p[1]] = 1;
  };
  for (let i = 0; i < n; i += 1) {
    if (bit(state.right, i) && i % w < w - 1) wall(i, i + 1);
    if (bit(state.down, i) && i + w < n) wall(i, i + w);
  }
  out.right = textOf(right);
  out.down = textOf(down);
  if (state.typed) out.typed = moveLines(state.typed, w, h, W, H, at);
  if (Array.isArray(state.keep)) {
    const chars = new Array(n);
    const flat = state.keep.join('');
    for (let i = 0; i < n; i += 1) chars[index(rc(i))] = flat[i];
    out.keep = Array.from({ length: H }, (_, r) => chars.slice(r * W, (r + 1) * W).join(''));
  }
  return out;
}

// Every line's clue to the line its cells land on: a row's first cell and the point one
// step along it say which line that is and which way it now runs.
function moveLines(typed, w, h, W, H, at) {
  const out = { rows: Array.from({ length: H }, () => []), cols: Array.from({ length: W }, () => []) };
  const land = (clue, first, next) => {
    const reversed = first[0] === next[0] ? next[1] < first[1] : next[0] < first[0];
    const copy = reversed ? [...clue].reverse() : [...clue];
    if (first[0] === next[0]) out.rows[first[0]] = copy;
    else out.cols[first[1]] = copy;
  };
  (typed.rows || []).forEach((clue, r) => land(clue, at(r, 0), at(r, 1)));
  (typed.cols || []).forEach((clue, c) => land(clue, at(0, c), at(1, c)));
  return out;
}

// --- rows and columns ----------------------------------------------------------------------

// Lines added (positive) or removed (negative) at each edge; null when the board would be
// empty or larger than the genres allow.
export function reframe(state, { top = 0, right = 0, bottom = 0, left = 0 }) {
  const { width: w, height: h } = state;
  const W = w + left + right;
  const H = h + top + bottom;
  if (W < 1 || H < 1 || W > MAX_SIDE || H > MAX_SIDE) return null;
  const clamp = (v, hi) => Math.max(0, Math.min(hi - 1, v));
  const out = { ...state, width: W, height: H };
  for (const field of CELL_BITS) {
    const bits = new Uint8Array(W * H);
    for (let R = 0; R < H; R += 1) {
      for (let C = 0; C < W; C += 1) {
        const r = R - top;
        const c = C - left;
        if (r >= 0 && r < h && c >= 0 && c < w) bits[R * W + C] = bit(state[field], r * w + c);
      }
    }
    out[field] = textOf(bits);
  }
  // A new cell belongs with the old cell nearest to it: the wall between two new cells is
  // the one between their nearest old cells, none when that is one cell.
  const rights = new Uint8Array(W * H);
  const downs = new Uint8Array(W * H);
  for (let R = 0; R < H; R += 1) {
    const r = clamp(R - top, h);
    for (let C = 0; C < W; C += 1) {
      const c = clamp(C - left, w);
      if (C + 1 < W && clamp(C + 1 - left, w) !== c) rights[R * W + C] = bit(state.right, r * w + c);
      if (R + 1 < H && clamp(R + 1 - top, h) !== r) downs[R * W + C] = bit(state.down, r * w + c);
    }
  }
  out.right = textOf(rights);
  out.down = textOf(downs);
  if (state.typed) {
    const shift = (list, count, by) => Array.from({ length: count }, (_, k) => [...((list || [])[k - by] || [])]);
    out.typed = { rows: shift(state.typed.rows, H, top), cols: shift(state.typed.cols, W, left) };
  }
  if (W !== w || H !== h || top || left) out.keep = null;
  return out;
}

// The lines one edge gains (+1) or loses (-1).
export function atEdge(edge, delta) {
  if (!['top', 'right', 'bottom', 'left'].includes(edge)) throw new Error(`no edge ${edge}`);
  return { [edge]: delta };
}
