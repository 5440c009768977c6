// Everything the player keeps in this browser, under one versioned localStorage key:
// the puzzle being played, a save per puzzle code (marks and undo history), the results,
// preferences, and the workshop's draft (the board being made, with its undo history).
// A save from another format version is set aside, never misread.

export const FORMAT = 1;
const KEY = 'gridproof';
const MAX_GAMES = 40;
const MAX_RESULTS = 300;

function blank() {
  return { v: FORMAT, current: null, games: {}, results: [], prefs: {}, seenLessons: {}, draft: null };
}

export class Store {
  constructor() {
    this.data = blank();
    try {
      const raw = localStorage.getItem(KEY);
      const data = raw ? JSON.parse(raw) : null;
      if (data && data.v === FORMAT) {
        this.data = { ...blank(), ...data };
      } else if (data) {
        localStorage.setItem(`${KEY}.v${data.v ?? 0}`, raw); // kept for a future migration
      }
    } catch {
      this.data = blank();
    }
  }

  get prefs() { return this.data.prefs; }
  get results() { return this.data.results; }
  get current() { return this.data.current; }

  game(code) { return this.data.games[code] || null; }

  get draft() { return this.data.draft; }

  saveDraft(draft) {
    this.data.draft = draft;
    this.write();
  }

  saveGame(save) {
    this.data.games[save.code] = save;
    this.data.current = save.code;
    const codes = Object.keys(this.data.games);
    if (codes.length > MAX_GAMES) {
      codes.sort((a, b) => (this.data.games[a].updated || 0) - (this.data.games[b].updated || 0));
      for (const code of codes.slice(0, codes.length - MAX_GAMES)) delete this.data.games[code];
    }
    this.write();
  }

  addResult(result) {
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
    try {
      localStorage.setItem(KEY, JSON.stringify(this.data));
    } catch {
      // Storage full or refused (private mode): play on without saving.
    }
  }
}
