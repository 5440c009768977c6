// "Pick a puzzle": the puzzle of the day (one per genre, the same for everyone on that
// date, GET /api/daily) and the bank's boards of the genre, size and difficulty the form
// shows (GET /api/boards, 50 at a time, in the order they were banked), each said solved
// when this browser's results hold it, or started when a save does.

import * as api from './api.js';

const $ = (id) => document.getElementById(id);
const PAGE = 50;

export class Picker {
  // open(code, origin, daily): play a puzzle (daily: the date of a puzzle of the day);
  // title(genre name): its title
  constructor({ store, open, title }) {
    this.store = store;
    this.open = open;
    this.title = title;
    this.offset = 0;
    this.total = 0;
    this.asked = 0; // answers to an older list are dropped
  }

  get shown() { return $('pick-panel').open; }

  wire() {
    $('pick-panel').addEventListener('toggle', () => this.refresh());
    $('pick-more').addEventListener('click', () => this.list(false));
  }

  // what this browser knows of a code: 'solved', 'started' or ''
  progress(code) {
    if (this.store.results.some((r) => r.code === code)) return 'solved';
    const save = this.store.game(code);
    return save && (save.solved || (Array.isArray(save.marks) && save.marks.join('').replace(/\./g, ''))) ? 'started' : '';
  }

  refresh() {
    if (!this.shown) return;
    this.daily();
    this.list(true);
  }

  entry(text, code, origin, daily = null) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'pick';
    button.dataset.code = code;
    const words = document.createElement('span');
    words.textContent = text;
    button.append(words);
    const progress = this.progress(code);
    if (progress) {
      const tag = document.createElement('span');
      tag.className = `tag ${progress}`;
      tag.textContent = progress === 'solved' ? '✓ solved' : 'started';
      button.append(tag);
    }
    button.addEventListener('click', () => this.open(code, origin, daily));
    item.append(button);
    return item;
  }

  async daily() {
    const list = $('daily-list');
    let answer;
    try {
      answer = await api.daily();
    } catch (error) {
      list.replaceChildren(note(error.message));
      return;
    }
    $('daily-date').textContent = answer.date;
    list.replaceChildren(...(answer.boards.length
      ? answer.boards.map((b) => this.entry(`${this.title(b.genre)} ${b.size.replace('x', '×')} ${b.difficulty}`, b.code, 'daily', answer.date))
      : [note('No puzzle of the day in this bank yet: it takes a 10×10 board of each genre.')]));
  }

  async list(fresh) {
    const key = { genre: $('genre').value, size: $('size').value, difficulty: $('difficulty').value };
    if (fresh) this.offset = 0;
    const asked = ++this.asked;
    let answer;
    try {
      answer = await api.boards({ ...key, offset: this.offset, limit: PAGE });
    } catch (error) {
      if (asked === this.asked) $('pick-list').replaceChildren(note(error.message));
      return;
    }
    if (asked !== this.asked) return;
    const what = `${this.title(key.genre)} ${key.size.replace('x', '×')} ${key.difficulty}`;
    $('pick-title').textContent = `${what}: ${answer.total} in the bank`;
    const number = (b) => (Number.isFinite(b.rating) ? `rating ${b.rating.toFixed(1)}` : `score ${Math.round(b.score * 10) / 10}`);
    const items = answer.boards.map((b, i) => this.entry(`No. ${this.offset + i + 1} · ${number(b)}`, b.code, 'list'));
    if (fresh) $('pick-list').replaceChildren(...(items.length ? items : [note('None banked yet: New game makes one.')]));
    else $('pick-list').append(...items);
    this.offset += answer.boards.length;
    this.total = answer.total;
    $('pick-more').hidden = this.offset >= this.total;
  }
}

function note(text) {
  const item = document.createElement('li');
  item.className = 'muted';
  item.textContent = text;
  return item;
}
