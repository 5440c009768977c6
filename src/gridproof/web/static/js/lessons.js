// The rules of a genre taught in layers (the catalog's lessons): the first on a genre's first
// puzzle, one more at each "Next rule", all of them under "Rules". The clock does not run
// before the first mark, however long they are read (main.js).

const $ = (id) => document.getElementById(id);

export class Lessons {
  // resized(): told when the panel opens or closes (the board refits to the room left)
  constructor({ store, catalog, resized }) {
    this.store = store;
    this.catalog = catalog;
    this.resized = resized;
    this.step = 0;
    this.genre = null;
  }

  get open() { return !$('lesson').hidden; }

  show(name, step = 0) {
    const genre = this.catalog.get(name);
    if (!genre || !genre.lessons.length) return;
    this.genre = name;
    this.step = Math.min(step, genre.lessons.length - 1);
    $('lesson-title').textContent = `How to play ${genre.title}`;
    $('lesson-list').replaceChildren(...genre.lessons.slice(0, this.step + 1).map((text, i) => {
      const item = document.createElement('li');
      item.textContent = text;
      if (i === this.step && i > 0) item.className = 'new';
      return item;
    }));
    $('lesson-step').textContent = `Rule ${this.step + 1} of ${genre.lessons.length}`;
    $('lesson-next').hidden = this.step >= genre.lessons.length - 1;
    const opening = !this.open;
    $('lesson').hidden = false;
    if (opening) this.resized();
  }

  next() { if (this.genre) this.show(this.genre, this.step + 1); }

  close() {
    $('lesson').hidden = true;
    if (this.genre) this.store.markLessonSeen(this.genre);
    this.resized();
  }

  // A puzzle opens: its genre's first lesson if never seen, else the panel closed.
  opened(name) {
    if (!this.store.lessonSeen(name)) this.show(name, 0);
    else if (this.open) { this.genre = name; this.close(); }
  }
}
