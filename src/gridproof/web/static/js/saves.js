// What the player says about this browser's saves (store.js keeps them): a save set aside
// because it could not be read, storage that is full (the game goes on in memory; Free space
// makes room from this player's own older saves), the oldest save removed to make room.

import { ASIDE_KEY, MAX_GAMES } from './store.js';

const day = (ms) => (ms ? new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short' }) : 'some time ago');
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function reportNotes(store, messages) {
  for (const note of store.notes) {
    if (note.kind === 'no-storage') {
      messages.show('storage', 'This browser does not let the page save anything: your marks last only as long as this page stays open.', { tone: '' });
    } else if (note.kept === false) {
      messages.show('save-aside', 'Your saved progress could not be read, and there is no room to keep a copy of it aside: so that it is not overwritten, this page saves nothing. Free some of this site\'s storage in the browser, then reload.');
    } else if (note.kind === 'unreadable') {
      messages.show('save-aside', `Your saved progress could not be read (it is damaged), so the player starts afresh. The old save is kept, not overwritten, in this browser's storage under "${note.key}".`);
    } else if (note.kind === 'other-version') {
      messages.show('save-aside', `Your saved progress was written by another version of gridproof (save format ${note.version}), which this one cannot read, so the player starts afresh. The old save is kept in this browser's storage under "${note.key}".`);
    }
  }
}

export function asideText(key) {
  return key
    ? `Your earlier marks on this puzzle could not be restored (they were saved by another version of the player, or are damaged), so it starts afresh. They are kept in this browser's storage under "${ASIDE_KEY}".`
    : 'Your earlier marks on this puzzle could not be restored, and there was no room to keep them aside: they are left as they were, and this puzzle is not saved until there is room.';
}

export function evictionText(save, title) {
  const what = save ? `${title(save.genre)} ${String(save.size || '').replace('x', '×')}, last played ${day(save.updated)}` : 'the oldest';
  return `This browser keeps the marks of the ${MAX_GAMES} most recent puzzles: to save this one, the saved marks of the oldest (${what}) were removed. Your results are kept.`;
}

// Storage full: say so once, keep playing in memory, offer to free space.
export function watchWrites(store, messages) {
  const freeSpace = () => {
    const freed = store.freeSpace();
    if (!freed) {
      messages.show('storage', 'Nothing of this player\'s own is left to remove: the storage is taken by other data of this site. Free it in the browser\'s settings; until then your marks are kept only while this page is open.');
      return;
    }
    const parts = [];
    if (freed.histories) parts.push(`the undo history of ${plural(freed.histories, 'other puzzle')}`);
    if (freed.games) parts.push(`the saved marks of ${plural(freed.games, 'other puzzle')}, oldest first`);
    messages.show('storage-freed', `Saved again. To make room, this removed ${parts.join(' and ') || 'nothing'}.`, { tone: '' });
  };
  store.onWrite = (ok) => {
    if (ok) {
      messages.clear('storage');
      return;
    }
    if (messages.has('storage')) return;
    messages.show('storage', 'Your progress is not being saved: this browser\'s storage for this site is full. The game goes on, but a reload or closing the page would lose the marks made since. Free space removes the undo history, then the saved marks, of other puzzles (never this one, your results or your workshop draft).', {
      action: { label: 'Free space', run: freeSpace },
    });
  };
}
