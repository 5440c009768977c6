// The results kept in this browser, listed under "Your results" with the statistics per
// setting and the puzzle-of-the-day streak (stats.js), and the clock's words.

import { median, streak } from './stats.js';

const $ = (id) => document.getElementById(id);

export const ORIGIN_WORDS = {
  new: 'new game', reset: 'retry after Reset', link: 'shared link', import: 'imported',
  resume: 'resumed', workshop: 'made in the workshop', list: 'picked from the bank',
  daily: 'puzzle of the day',
};

export const clock = (ms) => {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
};

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const today = () => new Date().toISOString().slice(0, 10); // the server dates its puzzles of the day in UTC

function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

function streakWords(s) {
  if (!s.current && !s.best) return 'no puzzle of the day solved yet';
  const now = s.current ? `${plural(s.current, 'day')} in a row` : 'no current streak';
  const state = s.doneToday ? 'today\'s solved' : 'today\'s not solved yet';
  return `${now} (${state}; best ${plural(s.best, 'day')})`;
}

// The statistics: one row per setting played (most solved first), and the streak of days
// with a puzzle of the day solved, over all genres and per genre.
export function renderStats(store) {
  const stats = store.stats;
  const entries = Object.values(stats.settings).sort((a, b) => b.solved - a.solved
    || a.title.localeCompare(b.title) || a.size.localeCompare(b.size, undefined, { numeric: true }));
  $('stats-rows').replaceChildren(...entries.map((e) => {
    const row = document.createElement('tr');
    const name = `${e.title} ${e.size.replace('x', '×')}${e.difficulty ? ` ${e.difficulty}` : ''}`;
    row.append(
      cell('th', name, { scope: 'row' }), cell('td', String(e.solved)),
      cell('td', e.bestMs === null ? '–' : clock(e.bestMs)), cell('td', e.times.length ? clock(median(e.times)) : '–'),
      cell('td', String(e.hints)), cell('td', String(e.mistakes)),
    );
    return row;
  }));
  $('stats').hidden = entries.length === 0;
  const day = today();
  const genres = [...new Set(Object.values(stats.dailies).flat())].sort();
  const parts = [cell('strong', 'Puzzle of the day: '), `${streakWords(streak(stats, day))}.`];
  if (genres.length > 1) {
    const titles = new Map(entries.map((e) => [e.genre, e.title]));
    const each = genres.map((g) => `${titles.get(g) || g} ${plural(streak(stats, day, g).current, 'day')}`);
    parts.push(cell('span', `Per genre: ${each.join(' · ')}.`, { class: 'muted small per-genre' }));
  }
  $('streak').replaceChildren(...parts);
}

export function renderResults(store) {
  renderStats(store);
  const list = $('results');
  $('saved-count').textContent = String(store.gameCount);
  if (!store.results.length) {
    const empty = document.createElement('li');
    empty.textContent = 'No finished puzzles yet.';
    list.replaceChildren(empty);
    return;
  }
  list.replaceChildren(...store.results.slice(0, 50).map((r) => {
    const item = document.createElement('li');
    const kind = r.attempt > 1 ? `attempt ${r.attempt}, after Reset` : ORIGIN_WORDS[r.origin] || r.origin;
    item.append(
      `${r.title || r.genre} ${String(r.size).replace('x', '×')}${r.difficulty ? ` ${r.difficulty}` : ''}: `
      + `${clock(r.timeMs)}, ${r.hints} hint${r.hints === 1 ? '' : 's'}, `
      + `${r.mistakes} mistake${r.mistakes === 1 ? '' : 's'} found (${kind}) `,
    );
    const code = document.createElement('code');
    code.textContent = `${r.code} · engine ${r.engine}`;
    item.append(code);
    return item;
  }));
}
