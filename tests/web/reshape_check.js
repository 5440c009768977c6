// Run in the page by test_workshop_screens.py: reshape.js on random boards (walls, marks,
// typed clues and a pinned solution), returning what failed (nothing, when all is well).
async () => {
  const { transform, reframe } = await import('/static/js/reshape.js');
  const { Sheet } = await import('/static/js/sheet.js');
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = (n, chars, keep = () => true) => Array.from({ length: n }, (_, i) => (keep(i) ? chars[Math.floor(random() * chars.length)] : chars[0]));
  const clue = () => Array.from({ length: Math.floor(random() * 3) }, () => 1 + Math.floor(random() * 5));
  const load = (genre, state) => {
    const sheet = new Sheet(genre, 1, 1);
    sheet.load(state);
    return sheet;
  };
  const text = (state) => JSON.stringify(load('g', state).state());
  const failures = [];
  const check = (ok, what) => { if (!ok) failures.push(what); };
  for (let t = 0; t < 300; t += 1) {
    const w = 1 + Math.floor(random() * 7);
    const h = 1 + Math.floor(random() * 7);
    const n = w * h;
    const start = load('g', {
      genre: 'g', width: w, height: h,
      right: pick(n, '01', (i) => i % w < w - 1).join(''), // no wall on the frame
      down: pick(n, '01', (i) => i + w < n).join(''),
      circles: pick(n, '01').join(''),
      picture: pick(n, '01').join(''),
      clueMode: 'type',
      typed: { rows: Array.from({ length: h }, clue), cols: Array.from({ length: w }, clue) },
      keep: Array.from({ length: h }, () => pick(w, '#.o').join('')),
    }).state();
    const size = `${w}x${h}`;
    let x = start;
    for (let k = 0; k < 4; k += 1) x = transform(x, 'rotate-right');
    check(text(x) === text(start), `rotate x4 ${size}`);
    check(text(transform(transform(start, 'rotate-right'), 'rotate-left')) === text(start), `turn back ${size}`);
    for (const f of ['flip-h', 'flip-v']) check(text(transform(transform(start, f), f)) === text(start), `${f} ${size}`);
    const half = transform(transform(start, 'rotate-right'), 'rotate-right');
    check(text(half) === text(transform(transform(start, 'flip-h'), 'flip-v')), `180 ${size}`);
    for (const edge of ['top', 'right', 'bottom', 'left']) {
      const back = reframe(reframe(start, { [edge]: 1 }), { [edge]: -1 });
      check(text({ ...back, keep: null }) === text({ ...start, keep: null }), `${edge} ${size}`);
    }
    // a painted picture's clues, carried, are the carried picture's own
    const painted = { ...start, genre: 'nonogram', clueMode: 'paint' };
    painted.typed = load('nonogram', painted).clues();
    for (const f of ['rotate-right', 'rotate-left', 'flip-h', 'flip-v']) {
      const moved = transform(painted, f);
      check(JSON.stringify(load('nonogram', moved).clues()) === JSON.stringify(moved.typed), `clues ${f} ${size}`);
    }
    for (const edge of ['top', 'right', 'bottom', 'left']) {
      const moved = reframe(painted, { [edge]: 1 });
      check(JSON.stringify(load('nonogram', moved).clues()) === JSON.stringify(moved.typed), `clues ${edge} ${size}`);
    }
  }
  return failures;
}
