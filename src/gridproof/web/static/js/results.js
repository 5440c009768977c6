// The results kept in this browser, listed under "Your results", and the clock's words.

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

export function renderResults(store) {
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
