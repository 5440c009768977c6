// Asking the server about the marks, and what the player does with each answer. Every
// answer is for a state `version` of the board: one that arrives after the board changed is
// dropped (and the status line says so if it was still waiting for it).
// - hint: the next deduction, or how many marks are wrong;
// - check: how many marks contradict the solution (which, on request);
// - errors: the rules the marks already break (errors.js tells them from unfinished ones);
// - validate, shortly after each change: is the puzzle solved (the validator's verdict, not a
//   comparison with the answer), which regions hold their quota (tinted), and, with
//   auto-marking on, the rest of a region or line the last decision completed.
// - solved, at once after each change and without the server: a puzzle proven unique comes
//   with its `solution_digest`, and shading whose digest matches it is the solution (a
//   finished board says Solved even when the server is gone).
// Wrong marks found by a hint or a check are counted once each (Game.addFound), whoever
// finds them and however often; to know which they are, the count asks with `reveal` and
// shows nothing more.

import * as api from './api.js';
import { EMPTY, SHADED, UNKNOWN, markWords } from './game.js';
import { shadingDigest } from './digest.js';
import { brokenRules, completeGroups, completeRegions } from './errors.js';
import { announce, say, sayRule, sentence, statusKind, tagStatus } from './messages.js';

const $ = (id) => document.getElementById(id);
const VALIDATE_MS = 250;
const SHOWN_ERRORS = 3;

export class Judge {
  // env: {board, game() (the game being played), blocked() (paused), complete(), save(),
  // autoMark() (the option), changed(cells) (the player's marks changed, as by a click)}
  constructor(env) {
    this.env = env;
    this.timer = null;
    this.staged = null; // the hint being shown in stages: {game, version, answer, stage}
  }

  open(game) {
    this.cancel();
  }

  cancel() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  ready() {
    const game = this.env.game();
    return game && !game.solved && !this.env.blocked() ? game : null;
  }

  // --- hint and check ----------------------------------------------------------------

  // A hint comes in stages, one more each time Hint is pressed while the board stays as it
  // was: where to look (the cells its rule reads), which rule, what it decides (its words
  // and the cells), and then it is applied (the cells set, one Undo takes them back). A
  // hint that reveals a solution cell (no rule applies) starts at what it decides.
  async hint() {
    const game = this.ready();
    if (!game) return;
    const staged = this.staged;
    if (staged && staged.game === game && staged.version === game.version) {
      this.showStage(game, staged.stage + 1);
      return;
    }
    this.staged = null;
    const version = game.version;
    say('Looking for the next deduction…');
    tagStatus('looking');
    let answer;
    try {
      answer = await api.hint({ code: game.code, marks: game.rows(), version, recent: game.recent() });
    } catch (error) {
      if (this.env.game() === game) say(error.message, 'bad');
      return;
    }
    if (this.env.game() !== game) return;
    if (answer.version !== game.version) {
      if (statusKind() === 'looking') {
        say('The board changed while the hint was being found: press Hint again for one that fits your marks now.');
      }
      return;
    }
    game.hints += 1;
    if (answer.status === 'mistakes') {
      say(answer.text, 'bad');
      tagStatus('mistakes');
      $('show-mistakes').hidden = false;
      await this.countMistakes(game);
    } else if (answer.status === 'step' || answer.status === 'reveal') {
      this.staged = { game, version, answer, stage: 0 };
      this.showStage(game, answer.status === 'step' ? 0 : 2);
    } else {
      say(answer.text);
      tagStatus('hint');
    }
    this.env.save();
  }

  showStage(game, stage) {
    const staged = this.staged;
    const { answer } = staged;
    staged.stage = stage;
    const board = this.env.board;
    if (stage === 0) {
      say('Look at the highlighted cells: a rule decides something there. Press Hint again to name it.');
      tagStatus('hint');
      board.highlight({ cells: answer.cells });
    } else if (stage === 1) {
      sayRule(answer.title, 'press Hint again to see what it decides there.');
      board.highlight({ cells: answer.cells });
    } else if (stage === 2) {
      sayRule(answer.title, `${sentence(answer.text)} Press Hint again to apply it.`);
      board.highlight({ cells: answer.cells, targets: [...answer.shaded, ...answer.empty] });
    } else {
      this.staged = null;
      this.apply(game, answer);
    }
  }

  // The hint's cells set as it says, as one decision.
  apply(game, answer) {
    game.begin();
    for (const cell of answer.shaded) game.paint(cell, SHADED);
    for (const cell of answer.empty) game.paint(cell, EMPTY);
    const cells = [...answer.shaded, ...answer.empty];
    if (!game.commit()) return;
    this.env.board.updateCells(cells);
    this.env.changed(cells);
    sayRule(answer.title, `applied: ${sentence(answer.text)} Undo takes it back.`);
  }

  async check(reveal = false) {
    const game = this.ready();
    if (!game) return;
    const version = game.version;
    let answer;
    try {
      answer = await api.check({ code: game.code, marks: game.rows(), version, reveal });
    } catch (error) {
      say(error.message, 'bad');
      return;
    }
    if (this.env.game() !== game || answer.version !== game.version) return;
    say(answer.text, answer.mistakes ? 'bad' : answer.mistakes === 0 ? 'good' : '');
    tagStatus('mistakes');
    $('show-mistakes').hidden = !answer.mistakes || reveal;
    if (reveal && answer.cells) {
      this.env.board.highlight({ wrong: answer.cells });
      game.addFound(answer.cells);
    } else if (answer.mistakes) {
      await this.countMistakes(game);
    }
    this.env.save();
    if (answer.solved) this.validateSoon();
  }

  // Which marks are wrong, to count each once; nothing is shown.
  async countMistakes(game) {
    const version = game.version;
    try {
      const answer = await api.check({ code: game.code, marks: game.rows(), version, reveal: true });
      if (this.env.game() === game && answer.version === game.version && Array.isArray(answer.cells)) {
        game.addFound(answer.cells);
        this.env.save();
      }
    } catch {
      // counted at the next finding
    }
  }

  // --- rule errors -------------------------------------------------------------------

  async errors() {
    const game = this.ready();
    if (!game) return;
    const version = game.version;
    let result;
    try {
      result = await api.validate(game.code, game.rows());
    } catch (error) {
      say(error.message, 'bad');
      return;
    }
    if (this.env.game() !== game || game.version !== version) return;
    if (result.solved) { this.env.complete(); return; }
    const errors = brokenRules(result);
    const open = result.violations.length - errors.length;
    const still = open ? ` ${open} ${open === 1 ? 'rule is' : 'rules are'} still to be met.` : '';
    if (!errors.length) {
      this.env.board.clearHighlight();
      say(`No rule is broken so far.${still}`, 'good');
      tagStatus('errors');
      return;
    }
    this.env.board.highlight({ broken: [...new Set(errors.flatMap((v) => v.cells))] });
    const words = errors.slice(0, SHOWN_ERRORS).map((v) => v.text).join('; ');
    const more = errors.length > SHOWN_ERRORS ? `; and ${errors.length - SHOWN_ERRORS} more` : '';
    const n = errors.length;
    say(`${n} ${n === 1 ? 'rule is' : 'rules are'} broken: ${words}${more}.`, 'bad');
    tagStatus('errors');
  }

  // --- after each change -------------------------------------------------------------

  validateSoon() {
    this.cancel();
    const game = this.ready();
    if (!game) return;
    if (this.solvedHere(game)) { this.env.complete(); return; }
    if (!game.marks.includes(SHADED)) {
      this.env.board.setComplete(new Set());
      return;
    }
    this.timer = setTimeout(() => this.validate(game), VALIDATE_MS);
  }

  // The shading is the unique solution: its digest is the one the server sent.
  solvedHere(game) {
    const digest = game.view.solution_digest;
    return typeof digest === 'string' && shadingDigest(game.code, game.rows()) === digest;
  }

  async validate(game) {
    const version = game.version;
    let result;
    try {
      result = await api.validate(game.code, game.rows());
    } catch (error) {
      say(error.message, 'bad');
      return;
    }
    if (this.env.game() !== game || game.version !== version || game.solved) return;
    if (result.solved) { this.env.complete(); return; }
    this.env.board.setComplete(completeRegions(result));
    if (this.env.autoMark()) this.autoMark(game, result);
  }

  // The unknown cells of every region or line the last decision completed are marked
  // empty (white circles), as part of that decision: one Undo takes back both.
  autoMark(game, result) {
    const last = game.undoStack[game.undoStack.length - 1];
    if (game.lastAction !== 'do' || !last) return;
    const groups = completeGroups(result, last.map((change) => change[0]));
    const open = [...new Set(groups.flat())].filter((c) => game.playable[c] && game.marks[c] === UNKNOWN);
    const cells = game.extendLast(open, EMPTY);
    if (!cells.length) return;
    this.env.board.updateCells(cells);
    this.env.save();
    const { word } = markWords(game.view).empty;
    announce(`${cells.length} ${cells.length === 1 ? 'cell' : 'cells'} marked ${word} automatically.`);
  }
}
