// The workshop's verdict panel: what the engine says about the board being made, shown on
// the board too. `unique`: grade, score and a stepper through the solve path (the board
// shows what the ladder has decided after each step, the step's cells highlighted);
// `multiple`: the two solutions as an overlay (cells both shade drawn shaded, cells where
// they differ outlined and labelled with the solution that shades them), or either alone;
// `none`: the reason and its cells; `timeout`: said plainly, never a guess.

import { EMPTY, SHADED, UNKNOWN } from './game.js';

const $ = (id) => document.getElementById(id);
const OUTCOME_WORDS = {
  unique: 'Unique', multiple: 'Not unique', none: 'No solution', timeout: 'Not decided',
};

export class VerdictPanel {
  constructor(board) {
    this.board = board;
    this.reply = null;
    this.step = 0;
    this.shown = 'both';
    this.box = $('ws-verdict-box');
    $('ws-step-first').addEventListener('click', () => this.goTo(0));
    $('ws-step-prev').addEventListener('click', () => this.goTo(this.step - 1));
    $('ws-step-next').addEventListener('click', () => this.goTo(this.step + 1));
    $('ws-step-last').addEventListener('click', () => this.goTo(this.steps().length));
    for (const which of ['both', '1', '2']) {
      $(`ws-view-${which}`).addEventListener('click', () => this.showSolutions(which));
    }
  }

  get outcome() { return this.reply ? this.reply.outcome : null; }
  steps() { return (this.reply && this.reply.path) || []; }

  setState(outcome, busy = false) {
    this.box.dataset.outcome = outcome;
    this.box.setAttribute('aria-busy', String(busy));
  }

  say(head, text, tone = '') {
    const status = $('ws-verdict');
    const parts = [];
    if (head && !text.startsWith(head)) { // the server's sentence may already say it
      const strong = document.createElement('span');
      strong.className = 'rule';
      strong.textContent = `${head}: `;
      parts.push(strong);
    }
    parts.push(text);
    status.replaceChildren(...parts);
    status.className = `status ${tone}`;
  }

  facts(text) {
    const problem = this.reply && this.reply.keep_problem;
    $('ws-facts').textContent = problem ? `${text} · The pinned solution is not kept: ${problem}` : text;
  }

  // The board changed: what was said is about an older board.
  stale() {
    this.reply = null;
    this.hideControls();
    this.setState('stale', true);
    $('ws-verdict').classList.add('stale');
  }

  // While a request is out the last words stay (greyed, the region busy), so a screen
  // reader hears each verdict once rather than "counting" after every edit.
  pending() {
    this.setState('pending', true);
    const status = $('ws-verdict');
    if (!status.textContent) this.say('', 'Counting the solutions…');
    status.classList.add('pending');
  }

  failed(message, version) {
    this.reply = null;
    this.hideControls();
    this.setState('error');
    this.box.dataset.version = String(version);
    this.say('Cannot count this board', message, 'bad');
    this.facts('');
  }

  hideControls() {
    $('ws-step').hidden = true;
    $('ws-step-text').textContent = '';
    $('ws-views').hidden = true;
    this.facts('');
  }

  show(reply) {
    this.reply = reply;
    this.step = 0;
    this.hideControls();
    this.setState(reply.outcome);
    this.box.dataset.version = String(reply.version);
    const head = OUTCOME_WORDS[reply.outcome] || reply.outcome;
    const ms = `counted in ${Math.max(1, Math.round((reply.elapsed_s || 0) * 1000))} ms`;
    if (reply.outcome === 'unique') {
      this.say(head, reply.text || 'exactly one solution.', 'good');
      const grade = reply.grade ? `Grade ${reply.grade}${reply.score != null ? ` (score ${reply.score})` : ''}` : 'Not graded';
      this.facts(`${grade} · ${this.steps().length} steps from the empty board · ${ms}`);
      $('ws-step').hidden = this.steps().length === 0;
      this.goTo(0);
    } else if (reply.outcome === 'multiple') {
      this.say(head, reply.text || 'at least two solutions.', 'bad');
      this.facts(`The two solutions differ in ${reply.differ.length} cell${reply.differ.length === 1 ? '' : 's'}, outlined on the board · ${ms}`);
      $('ws-views').hidden = false;
      this.showSolutions('both');
    } else if (reply.outcome === 'none') {
      this.say(head, reply.text || 'no shading satisfies every rule.', 'bad');
      const reason = reply.reason;
      this.facts(reason && reason.text && reason.text !== reply.text ? `Why: ${reason.text}` : ms);
      this.board.setView({ kind: 'sheet' }, { wrong: (reason && reason.cells) || [] });
    } else {
      this.say(head, reply.text || 'the count ran out of time, so this board is not proven either way.');
      this.board.setView({ kind: 'sheet' });
    }
  }

  // The highlight the current view wants back (after a fix's cells were shown).
  restore() {
    if (!this.reply) { this.board.mark({}); return; }
    if (this.reply.outcome === 'unique') this.goTo(this.step);
    else if (this.reply.outcome === 'multiple') this.showSolutions(this.shown);
    else this.board.mark(this.reply.outcome === 'none' ? { wrong: (this.reply.reason && this.reply.reason.cells) || [] } : {});
  }

  // --- the solve path ------------------------------------------------------------------

  goTo(k) {
    const steps = this.steps();
    this.step = Math.max(0, Math.min(steps.length, k));
    $('ws-step-count').textContent = `Step ${this.step} of ${steps.length}`;
    $('ws-step-first').disabled = this.step === 0;
    $('ws-step-prev').disabled = this.step === 0;
    $('ws-step-next').disabled = this.step >= steps.length;
    $('ws-step-last').disabled = this.step >= steps.length;
    const text = $('ws-step-text');
    if (this.step === 0) {
      text.textContent = steps.length ? 'The empty board: Next follows the solver one deduction at a time.' : '';
      this.board.setView({ kind: 'sheet' });
      return;
    }
    const marks = new Array(this.board.sheet.size).fill(UNKNOWN);
    for (const step of steps.slice(0, this.step)) {
      for (const i of step.shaded || []) marks[i] = SHADED;
      for (const i of step.empty || []) marks[i] = EMPTY;
    }
    const step = steps[this.step - 1];
    const title = document.createElement('span');
    title.className = 'rule';
    title.textContent = `${step.title || step.rule}: `;
    text.replaceChildren(title, step.text);
    this.board.setView({ kind: 'marks', marks }, {
      cells: step.cells || [], targets: [...(step.shaded || []), ...(step.empty || [])],
    });
  }

  // --- two solutions -------------------------------------------------------------------

  showSolutions(which) {
    const reply = this.reply;
    if (!reply || reply.outcome !== 'multiple' || reply.solutions.length < 2) return;
    this.shown = which;
    for (const name of ['both', '1', '2']) $(`ws-view-${name}`).setAttribute('aria-checked', String(name === which));
    const [first, second] = reply.solutions.map((rows) => rows.join(''));
    if (which !== 'both') {
      const rows = reply.solutions[which === '1' ? 0 : 1];
      this.board.setView({ kind: 'grid', rows }, { differ: reply.differ.map((i) => [i, '']) });
      return;
    }
    const marks = [...first].map((ch, i) => {
      if (ch !== second[i]) return UNKNOWN;
      return ch === '#' ? SHADED : ch === 'o' ? EMPTY : UNKNOWN;
    });
    const differ = reply.differ.map((i) => [i, first[i] === '#' ? '1' : '2']);
    this.board.setView({ kind: 'marks', marks }, { differ });
  }
}
