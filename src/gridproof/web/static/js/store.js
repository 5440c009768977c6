// Everything the player keeps in this browser, under one versioned localStorage key:
// the puzzle being played, a save per puzzle code (marks and undo history), the results,
// preferences, and the workshop's draft (the board being made, with its undo history).
//
// Nothing saved is ever dropped without a word: a save that cannot be read, or was written
// by another format version, is kept aside under another key (`gridproof.unreadable.*`,
// `gridproof.v<N>`) and named in `notes`; a puzzle's save the game cannot restore is kept
// aside (`gridproof.aside`) by `setAside`; a write the browser refuses (storage full) is
// reported to `onWrite`, the game plays on in memory, and `freeSpace` makes room from this
// player's own older saves. The browser keeps the marks of the MAX_GAMES most recent
// puzzles; saving one more removes the oldest, and `saveGame` says which.
//
// Added to format 1 without changing its number (a page that does not know them reads the
// rest as before): `seen`, the fingerprints (digest.js) of the MAX_SEEN boards most recently
// shown in this browser, oldest first, which New game sends so that the server does not
// serve them again; `stats`, the statistics (stats.js). A key without them gets them from
// the saves and results it holds.

import { fingerprint } from './digest.js';
import { addToStats, blankStats, cleanStats, statsOfResults } from './stats.js';

export const FORMAT = 1; // the layout of the whole key
export const MAX_GAMES = 40;
export const MAX_SEEN = 4096; // what the server takes in `seen`
const FINGERPRINT = /^[0-9a-f]{8}$/;
export const KEY = 'gridproof';
export const ASIDE_KEY = `${KEY}.aside`;
const MAX_RESULTS = 300;
const MAX_ASIDE = 20;

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

function blank() {
  return {
    v: FORMAT, current: null, games: {}, results: [], prefs: {}, seenLessons: {}, draft: null,
    seen: [], stats: blankStats(),
  };
}

// Every field checked for its type: a damaged field is replaced, never trusted.
function sanitize(data) {
  const clean = blank();
  clean.current = typeof data.current === 'string' ? data.current : null;
  if (isObject(data.games)) {
    for (const [code, save] of Object.entries(data.games)) {
      if (isObject(save)) clean.games[code] = save; // read (or kept aside) by game.js
    }
  }
  clean.results = Array.isArray(data.results)
    ? data.results.filter((r) => isObject(r) && typeof r.code === 'string') : [];
  clean.prefs = isObject(data.prefs) ? data.prefs : {};
  clean.seenLessons = isObject(data.seenLessons) ? data.seenLessons : {};
  clean.draft = isObject(data.draft) ? data.draft : null;
  clean.seen = Array.isArray(data.seen)
    ? [...new Set(data.seen.filter((f) => typeof f === 'string' && FINGERPRINT.test(f)))].slice(-MAX_SEEN)
    : [...new Set([...clean.results].reverse().map((r) => r.code).concat(Object.keys(clean.games)))]
      .map(fingerprint).slice(-MAX_SEEN);
  clean.stats = cleanStats(data.stats) || statsOfResults(clean.results);
  return clean;
}

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // refused outright (some private modes)
  }
}

export class Store {
  // onWrite(ok, error): told when a write fails, and when one succeeds again after that
  constructor() {
    this.notes = []; // what loading had to say: [{kind, key, version}]
    this.onWrite = () => {};
    this.failing = false;
    this.readOnly = false; // set when an unreadable save could not be kept aside
    this.local = storage();
    this.data = blank();
    if (!this.local) {
      this.notes.push({ kind: 'no-storage' });
      return;
    }
    this.load();
  }

  load() {
    let raw = null;
    try {
      raw = this.local.getItem(KEY);
    } catch {
      this.notes.push({ kind: 'no-storage' });
      return;
    }
    if (!raw) return;
    let data;
    try {
      data = JSON.parse(raw);
    } catch {
      data = undefined;
    }
    if (!isObject(data)) {
      this.keepRaw(`${KEY}.unreadable.${Date.now()}`, raw, { kind: 'unreadable' });
      return;
    }
    if (data.v === FORMAT) {
      this.data = sanitize(data);
      return;
    }
    const version = Number.isFinite(data.v) ? data.v : 0;
    this.keepRaw(`${KEY}.v${version}`, raw, { kind: 'other-version', version });
  }

  // Keeps a save this page cannot read under `key`; if even that fails, this page saves
  // nothing, so the original is never overwritten.
  keepRaw(key, raw, note) {
    try {
      if (this.local.getItem(key) === null) this.local.setItem(key, raw);
      else if (this.local.getItem(key) !== raw) this.local.setItem(`${key}.${Date.now()}`, raw);
      this.notes.push({ ...note, key });
    } catch {
      this.readOnly = true;
      this.notes.push({ ...note, key: KEY, kept: false });
    }
  }

  get prefs() { return this.data.prefs; }
  get results() { return this.data.results; }
  get current() { return this.data.current; }
  get gameCount() { return Object.keys(this.data.games).length; }
  get seen() { return [...this.data.seen]; }
  get stats() { return this.data.stats; }

  // A board shown in this browser: its fingerprint becomes the most recent one (the oldest
  // goes beyond MAX_SEEN). Saved with the next write.
  see(code) {
    const print = fingerprint(code);
    const seen = this.data.seen;
    const at = seen.lastIndexOf(print);
    if (at === seen.length - 1 && at >= 0) return;
    if (at >= 0) seen.splice(at, 1);
    seen.push(print);
    if (seen.length > MAX_SEEN) seen.splice(0, seen.length - MAX_SEEN);
  }

  game(code) { return this.data.games[code] || null; }

  get draft() { return this.data.draft; }

  saveDraft(draft) {
    this.data.draft = draft;
    this.write();
  }

  // Returns the save removed to make room (the oldest), or null.
  saveGame(save) {
    const fresh = !this.data.games[save.code];
    this.data.games[save.code] = save; // it carries its code and its own version (game.js)
    this.data.current = save.code;
    let evicted = null;
    const codes = Object.keys(this.data.games);
    if (fresh && codes.length > MAX_GAMES) {
      codes.sort((a, b) => (this.data.games[a].updated || 0) - (this.data.games[b].updated || 0));
      const oldest = codes.find((code) => code !== save.code);
      evicted = this.data.games[oldest];
      delete this.data.games[oldest];
    }
    this.write();
    return evicted;
  }

  // A puzzle's save that the game could not restore: moved out of the way, kept.
  setAside(code) {
    const save = this.data.games[code];
    if (!save) return null;
    const key = ASIDE_KEY;
    try {
      const aside = JSON.parse(this.local.getItem(key) || '{}');
      const kept = isObject(aside) ? aside : {};
      kept[`${code} ${Date.now()}`] = save;
      const names = Object.keys(kept);
      for (const name of names.slice(0, Math.max(0, names.length - MAX_ASIDE))) delete kept[name];
      this.local.setItem(key, JSON.stringify(kept));
    } catch {
      return null; // not kept aside: the save stays where it is, untouched
    }
    delete this.data.games[code];
    this.write();
    return key;
  }

  addResult(result) {
    addToStats(this.data.stats, result);
    this.data.results.unshift(result);
    this.data.results.length = Math.min(this.data.results.length, MAX_RESULTS);
    this.write();
  }

  lessonSeen(genre) { return Boolean(this.data.seenLessons[genre]); }

  markLessonSeen(genre) {
    this.data.seenLessons[genre] = true;
    this.write();
  }

  setPref(name, value) {
    this.data.prefs[name] = value;
    this.write();
  }

  write() {
    if (!this.local || this.readOnly) return false;
    try {
      this.local.setItem(KEY, JSON.stringify(this.data));
    } catch (error) {
      this.failing = true;
      this.onWrite(false, error);
      return false;
    }
    if (this.failing) {
      this.failing = false;
      this.onWrite(true, null);
    }
    return true;
  }

  // Makes room from this player's own saves, least precious first: the undo history of
  // other puzzles, then other puzzles' saves, oldest first. Never the puzzle being played,
  // the results or the draft. Returns what it removed ({histories, games}) once a write
  // succeeds, or null when nothing of ours was enough.
  freeSpace() {
    if (!this.local || this.readOnly) return null;
    const freed = { histories: 0, games: 0 };
    const others = Object.keys(this.data.games)
      .filter((code) => code !== this.data.current)
      .sort((a, b) => (this.data.games[a].updated || 0) - (this.data.games[b].updated || 0));
    for (const code of others) {
      const save = this.data.games[code];
      if ((save.undo && save.undo.length) || (save.redo && save.redo.length)) {
        save.undo = [];
        save.redo = [];
        freed.histories += 1;
      }
    }
    if (this.write()) return freed;
    for (const code of others) {
      delete this.data.games[code];
      freed.games += 1;
      if (this.write()) return freed;
    }
    return null;
  }
}
