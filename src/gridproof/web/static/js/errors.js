// Rule errors on an unfinished board, from the server's validator (POST /api/validate).
// The validator judges the shaded cells as if the board were finished, so it names every
// rule still open as well as every rule already broken; an error is a violation that no way
// of deciding the unknown cells could repair. Which is which this module reads off the
// validator's rule ids (docs/player.md lists them) and the puzzle's data:
//   region-count  a region's `quota` (the violation's data): too many already, or too few
//                 cells left
//   domino        a shaded cell with two shaded neighbours, or none and no unknown one left
//   three-black   three black circles in a line (only ever repaired by unmarking)
//   three-white   three circles in a line all marked white
//   clue          a line whose marks no placement of its clue fits
//   anything else an error once none of its cells is unknown
// It also finds the groups (regions, clued lines) the validator no longer names, which
// are complete: the board greys them and auto-marking fills their unknown cells.

import { EMPTY, SHADED, UNKNOWN } from './game.js';

// Can the line's marks (SHADED / EMPTY / UNKNOWN) hold the clue's runs, in order?
export function lineFits(line, clue) {
  const n = line.length;
  const k = clue.length;
  // fit[i][j]: the cells from i on can hold the runs from j on
  const fit = Array.from({ length: n + 2 }, () => new Array(k + 1).fill(false));
  fit[n][k] = true;
  fit[n + 1][k] = true;
  for (let i = n - 1; i >= 0; i -= 1) {
    fit[i][k] = line[i] !== SHADED && fit[i + 1][k];
    for (let j = k - 1; j >= 0; j -= 1) {
      let ok = line[i] !== SHADED && fit[i + 1][j]; // this cell empty
      const end = i + clue[j];
      if (!ok && end <= n && !line.slice(i, end).includes(EMPTY)) {
        if (end === n) ok = j === k - 1;
        else ok = line[end] !== SHADED && fit[end + 1][j + 1];
      }
      fit[i][j] = ok;
    }
  }
  return fit[0][0];
}

export class RuleReader {
  // data: the puzzle's data (regions, circles, rows, cols); width, height
  constructor(data, width, height) {
    this.data = data;
    this.width = width;
    this.height = height;
    this.regionCells = new Map();
    if (Array.isArray(data.regions)) {
      data.regions.flat().forEach((id, cell) => {
        if (!this.regionCells.has(id)) this.regionCells.set(id, []);
        this.regionCells.get(id).push(cell);
      });
    }
    const circles = Array.isArray(data.circles) ? data.circles.flat() : null;
    this.playable = (cell) => !circles || circles[cell] === 1;
  }

  // A clue violation's line: {kind: 'row' | 'col', index, cells, clue}.
  lineOf(cells) {
    const w = this.width;
    const row = cells.length === w && (cells.length < 2 || cells[1] - cells[0] === 1);
    const index = row ? Math.floor(cells[0] / w) : cells[0] % w;
    const clue = row ? this.data.rows?.[index] : this.data.cols?.[index];
    return { kind: row ? 'row' : 'col', index, cells, clue: Array.isArray(clue) ? clue : null };
  }

  neighbours(cell) {
    const w = this.width;
    const r = Math.floor(cell / w);
    const c = cell % w;
    const found = [];
    if (r > 0) found.push(cell - w);
    if (r + 1 < this.height) found.push(cell + w);
    if (c > 0) found.push(cell - 1);
    if (c + 1 < w) found.push(cell + 1);
    return found;
  }

  settled(violation, marks) {
    const cells = violation.cells || [];
    const at = (cell) => marks[cell];
    switch (violation.rule) {
      case 'region-count': {
        const region = this.regionCells.get((violation.regions || [])[0]) || cells;
        const open = region.filter((c) => this.playable(c) && at(c) === UNKNOWN).length;
        const has = region.filter((c) => this.playable(c) && at(c) === SHADED).length;
        const want = violation.quota;
        if (!Number.isInteger(want)) return open === 0;
        return has > want || has + open < want;
      }
      case 'domino': {
        const around = this.neighbours(cells[0]);
        const shaded = around.filter((c) => at(c) === SHADED).length;
        const open = around.filter((c) => at(c) === UNKNOWN).length;
        return shaded >= 2 || (shaded === 0 && open === 0);
      }
      case 'three-black':
        return true;
      case 'three-white':
        return cells.every((c) => at(c) === EMPTY);
      case 'clue': {
        const line = this.lineOf(cells);
        if (!line.clue) return !cells.some((c) => at(c) === UNKNOWN);
        return !lineFits(cells.map(at), line.clue);
      }
      default:
        return !cells.some((c) => at(c) === UNKNOWN);
    }
  }

  errors(violations, marks) {
    return violations.filter((v) => this.settled(v, marks));
  }

  // The groups the validator does not name, among those holding one of `cells`: each as
  // its list of cells. Regions by 'region-count', lines by 'clue'.
  completeGroups(violations, cells) {
    const groups = [];
    const w = this.width;
    const touched = new Set(cells);
    if (this.regionCells.size) {
      const named = new Set(violations.filter((v) => v.rule === 'region-count').map((v) => (v.regions || [])[0]));
      for (const [id, region] of this.regionCells) {
        if (!named.has(id) && region.some((c) => touched.has(c))) groups.push(region);
      }
    }
    if (Array.isArray(this.data.rows) && Array.isArray(this.data.cols)) {
      const named = new Set(violations.filter((v) => v.rule === 'clue')
        .map((v) => { const line = this.lineOf(v.cells || []); return `${line.kind}${line.index}`; }));
      const rows = new Set([...touched].map((c) => Math.floor(c / w)));
      const cols = new Set([...touched].map((c) => c % w));
      for (const r of rows) {
        if (!named.has(`row${r}`)) groups.push(Array.from({ length: w }, (_, c) => r * w + c));
      }
      for (const c of cols) {
        if (!named.has(`col${c}`)) groups.push(Array.from({ length: this.height }, (_, r) => r * w + c));
      }
    }
    return groups;
  }

  // Every region the validator does not name by 'region-count' (the board greys them).
  completeRegions(violations) {
    const named = new Set(violations.filter((v) => v.rule === 'region-count').map((v) => (v.regions || [])[0]));
    return new Set([...this.regionCells.keys()].filter((id) => !named.has(id)));
  }
}
