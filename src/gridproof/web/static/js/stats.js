// A player's statistics, kept in this browser only (store.js keeps them under `stats`):
// per setting (genre, size, grade) the puzzles solved, the best and median times, the hints
// used and the mistakes found; and the days on which a puzzle of the day was solved, for
// the streak. They are added up as results come, so they outlive the result list (which
// keeps the last 300); the median is over the last MAX_TIMES times of the setting.

export const MAX_TIMES = 200;
const MAX_DAYS = 800;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const count = (value) => (Number.isFinite(value) && value >= 0 ? Math.round(value) : 0);

export function blankStats() {
  return { settings: {}, dailies: {} };
}

export const settingKey = (r) => `${r.genre} ${r.size} ${r.difficulty || ''}`.trim();

// A result's contribution. `daily` is the date (YYYY-MM-DD, the server's) of the puzzle of
// the day the result solved, if it was one.
export function addToStats(stats, result) {
  const key = settingKey(result);
  const entry = stats.settings[key] || {
    genre: result.genre, title: result.title || result.genre, size: result.size,
    difficulty: result.difficulty || null, solved: 0, bestMs: null, times: [], hints: 0, mistakes: 0,
  };
  const time = count(result.timeMs);
  entry.solved += 1;
  entry.bestMs = entry.bestMs === null ? time : Math.min(entry.bestMs, time);
  entry.times.push(time);
  if (entry.times.length > MAX_TIMES) entry.times.splice(0, entry.times.length - MAX_TIMES);
  entry.hints += count(result.hints);
  entry.mistakes += count(result.mistakes);
  stats.settings[key] = entry;
  if (typeof result.daily === 'string' && DATE.test(result.daily)) {
    const genres = stats.dailies[result.daily] || [];
    if (!genres.includes(result.genre)) genres.push(result.genre);
    stats.dailies[result.daily] = genres;
    const days = Object.keys(stats.dailies).sort();
    for (const day of days.slice(0, Math.max(0, days.length - MAX_DAYS))) delete stats.dailies[day];
  }
}

// Statistics read back: every field checked, a damaged entry dropped, never trusted.
export function cleanStats(data) {
  const stats = blankStats();
  if (!isObject(data)) return null;
  for (const [key, entry] of Object.entries(isObject(data.settings) ? data.settings : {})) {
    if (!isObject(entry) || typeof entry.genre !== 'string' || typeof entry.size !== 'string') continue;
    const times = Array.isArray(entry.times) ? entry.times.filter((t) => Number.isFinite(t) && t >= 0) : [];
    stats.settings[key] = {
      genre: entry.genre, title: typeof entry.title === 'string' ? entry.title : entry.genre,
      size: entry.size, difficulty: typeof entry.difficulty === 'string' ? entry.difficulty : null,
      solved: count(entry.solved), bestMs: Number.isFinite(entry.bestMs) ? entry.bestMs : null,
      times: times.slice(-MAX_TIMES), hints: count(entry.hints), mistakes: count(entry.mistakes),
    };
  }
  for (const [day, genres] of Object.entries(isObject(data.dailies) ? data.dailies : {})) {
    if (DATE.test(day) && Array.isArray(genres)) stats.dailies[day] = genres.filter((g) => typeof g === 'string');
  }
  return stats;
}

// For a browser that kept results before statistics existed: the statistics of its results
// (a puzzle of the day is known by its origin; its date is the day it was finished).
export function statsOfResults(results) {
  const stats = blankStats();
  for (const result of [...results].reverse()) {
    const daily = result.origin === 'daily' && typeof result.finished === 'string' ? result.finished.slice(0, 10) : null;
    addToStats(stats, { ...result, daily: result.daily || daily });
  }
  return stats;
}

export function median(values) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

const dayAfter = (day, delta) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + delta);
  return date.toISOString().slice(0, 10);
};

// The streak of days with a puzzle of the day solved (of `genre`, or of any genre): how many
// consecutive days up to today, or up to yesterday while today's is still to be solved;
// the longest such run; and whether today's is solved. `today` is YYYY-MM-DD (UTC, as the
// server dates its puzzles of the day).
export function streak(stats, today, genre = null) {
  const days = new Set(Object.entries(stats.dailies)
    .filter(([, genres]) => (genre ? genres.includes(genre) : genres.length > 0))
    .map(([day]) => day));
  const doneToday = days.has(today);
  let current = 0;
  for (let day = doneToday ? today : dayAfter(today, -1); days.has(day); day = dayAfter(day, -1)) current += 1;
  let best = 0;
  for (const day of days) {
    if (days.has(dayAfter(day, -1))) continue; // not the start of a run
    let run = 0;
    for (let d = day; days.has(d); d = dayAfter(d, 1)) run += 1;
    best = Math.max(best, run);
  }
  return { current, best, doneToday };
}
