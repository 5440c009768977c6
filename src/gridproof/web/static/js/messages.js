// What the player is told, in three places that never overwrite one another:
// - the status line (#status): the answer to the last thing asked (a hint, a check, Undone);
// - messages (#messages): problems that outlive the next action until dealt with (a share
//   link that could not be opened, storage full, a save kept aside), each under a key, with
//   an optional action button and a Dismiss button;
// - announcements (#said, visually hidden, aria-live): what a screen reader should hear
//   about a change it did not ask about in words (a mark set, auto-marks, zoom).

const $ = (id) => document.getElementById(id);

export function say(text, tone = '') {
  const status = $('status');
  status.replaceChildren(text);
  status.className = `status ${tone}`;
  status.dataset.kind = '';
}

// A hint's answer: the rule's title in bold, then its words. `kind` tags what the status
// line shows, so a later change knows whether the words still describe the board.
export function sayRule(title, text, kind = 'hint') {
  const status = $('status');
  const rule = document.createElement('span');
  rule.className = 'rule';
  rule.textContent = `${title}: `;
  status.replaceChildren(rule, text);
  status.className = 'status';
  status.dataset.kind = kind;
}

// `text` ending as a sentence does (a step's text is a clause: "…, so r2c1 is a star").
export function sentence(text) {
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}

export function tagStatus(kind) { $('status').dataset.kind = kind; }

export const statusKind = () => $('status').dataset.kind || '';

let announceTimer = null;

// Polite, and cleared after a moment so the same words said twice are heard twice.
export function announce(text) {
  const said = $('said');
  clearTimeout(announceTimer);
  said.textContent = '';
  announceTimer = setTimeout(() => {
    said.textContent = text;
    announceTimer = setTimeout(() => { said.textContent = ''; }, 4000);
  }, 60);
}

export class Messages {
  constructor(list) {
    this.list = list;
    this.shown = new Map();
  }

  // tone: 'bad' or ''; action: {label, run} (run may return a promise)
  show(key, text, { tone = 'bad', action = null } = {}) {
    this.clear(key);
    const item = document.createElement('div');
    item.className = `message ${tone}`;
    item.dataset.key = key;
    item.setAttribute('role', tone === 'bad' ? 'alert' : 'status');
    const words = document.createElement('p');
    words.textContent = text;
    item.append(words);
    const buttons = document.createElement('div');
    buttons.className = 'row';
    if (action) {
      const act = document.createElement('button');
      act.type = 'button';
      act.className = 'primary small-button';
      act.textContent = action.label;
      act.addEventListener('click', () => action.run());
      buttons.append(act);
    }
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'quiet small-button';
    close.textContent = 'Dismiss';
    close.setAttribute("aria-label", "Dismiss this message");
    close.addEventListener('click', () => this.clear(key));
    buttons.append(close);
    item.append(buttons);
    this.list.append(item);
    this.shown.set(key, item);
    this.list.hidden = false;
  }

  clear(key) {
    const item = this.shown.get(key);
    if (!item) return;
    item.remove();
    this.shown.delete(key);
    this.list.hidden = this.shown.size === 0;
  }

  has(key) { return this.shown.has(key); }
}
