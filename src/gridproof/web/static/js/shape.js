// The workshop's shape controls: turn the board a quarter turn either way, mirror it, add
// or remove a row or column at any edge, or give it a new size, keeping what is drawn
// (reshape.js does the carrying). Each is one edit, so Undo takes it back in one step.

import { MAX_SIDE } from './reshape.js';

const $ = (id) => document.getElementById(id);
const TURN_WORDS = {
  'rotate-right': 'Turned a quarter turn clockwise',
  'rotate-left': 'Turned a quarter turn anticlockwise',
  'flip-h': 'Mirrored left to right',
  'flip-v': 'Mirrored top to bottom',
};
const EDGE_WORDS = { top: 'at the top', bottom: 'at the bottom', left: 'on the left', right: 'on the right' };
const lineOf = (edge) => (edge === 'top' || edge === 'bottom' ? 'row' : 'column');

export class ShapePanel {
  // handlers: sheet() (the sheet being made), reshape(change, said) -> whether the board
  // changed (applies `change` to the sheet as one edit), status(text, tone)
  constructor(handlers) {
    this.handlers = handlers;
    for (const name of Object.keys(TURN_WORDS)) $(`ws-${name}`).addEventListener('click', () => this.turn(name));
    $('ws-edge').addEventListener('change', () => this.render());
    $('ws-add-line').addEventListener('click', () => this.lines(1));
    $('ws-remove-line').addEventListener('click', () => this.lines(-1));
    $('ws-resize').addEventListener('submit', (e) => { e.preventDefault(); this.resize(); });
  }

  turn(name) {
    const said = TURN_WORDS[name];
    if (!this.handlers.reshape((s) => s.turn(name), said)) this.handlers.status(`${said}: the board looks the same.`);
  }

  lines(delta) {
    const edge = $('ws-edge').value;
    const what = lineOf(edge);
    const said = `${delta > 0 ? 'Added' : 'Removed'} a ${what} ${EDGE_WORDS[edge]}`;
    if (this.handlers.reshape((s) => s.reframe({ [edge]: delta }), said)) return;
    this.handlers.status(delta > 0 ? `A board has at most ${MAX_SIDE} cells a side.` : `A board keeps at least one ${what}.`, 'bad');
  }

  resize() {
    const width = Number($('ws-width').value);
    const height = Number($('ws-height').value);
    const fits = (n) => Number.isInteger(n) && n >= 1 && n <= MAX_SIDE;
    if (!fits(width) || !fits(height)) {
      this.handlers.status(`A size is two whole numbers from 1 to ${MAX_SIDE}.`, 'bad');
      return;
    }
    const said = `Resized to ${width}×${height} (lines added or removed on the right and at the bottom)`;
    if (!this.handlers.reshape((s) => s.resize(width, height), said)) this.handlers.status(`The board is ${width}×${height} already.`);
  }

  // The size fields and the line buttons follow the board (not while a field is being typed in).
  render() {
    const { width, height } = this.handlers.sheet();
    for (const [id, value] of [['ws-width', width], ['ws-height', height]]) {
      if (document.activeElement !== $(id)) $(id).value = String(value);
    }
    const edge = $('ws-edge').value;
    const what = lineOf(edge);
    $('ws-add-line').setAttribute('aria-label', `Add a ${what} ${EDGE_WORDS[edge]}`);
    $('ws-remove-line').setAttribute('aria-label', `Remove a ${what} ${EDGE_WORDS[edge]}`);
    $('ws-remove-line').disabled = what === 'row' ? height <= 1 : width <= 1;
    $('ws-add-line').disabled = (what === 'row' ? height : width) >= MAX_SIDE;
  }
}
