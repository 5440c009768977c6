// The "Choose a puzzle" form: genre, size, difficulty and the genre's own options (a
// rule, a kind of picture: labelled in the catalog's words), all from the catalog. The
// grades a size offers under the chosen options come from the catalog (its `settings`,
// per option value); the others are listed, disabled and named as not made there, so a
// player never waits for a board that cannot come, and a size that offers no grade under those options is disabled too. The form
// always shows the puzzle being played, except while the player is choosing the next one.

const $ = (id) => document.getElementById(id);

// Words for option values the catalog names by id: each option's `words`, as its genre
// declares them (the workshop's Rule menu says the same); a value without words reads as
// its id with spaces for hyphens.
const CHOICE_WORDS = new Map([['', 'any']]);
export function learnWords(genres) {
  for (const genre of genres) {
    for (const option of genre.options || []) {
      for (const [value, words] of Object.entries(option.words || {})) CHOICE_WORDS.set(value, words);
    }
  }
}
export const choiceWords = (value) => CHOICE_WORDS.get(String(value)) ?? String(value).replaceAll('-', ' ');
const optionWords = (option) => option.label || option.name[0].toUpperCase() + option.name.slice(1);

const sameOptions = (a, b) => Object.keys(a).length === Object.keys(b).length
  && Object.entries(a).every(([name, value]) => b[name] === value);

export function fillSelect(select, values, chosen, label = (v) => v, offered = values) {
  select.replaceChildren(...values.map((value) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label(value);
    option.disabled = !offered.includes(value);
    return option;
  }));
  select.value = offered.includes(chosen) ? chosen : offered[0];
}

export class Setup {
  // changed(): told when the player changes the form (the puzzle list follows it)
  constructor(catalog, store, changed = () => {}) {
    this.catalog = catalog;
    learnWords(catalog.values());
    this.store = store;
    this.changed = changed;
  }

  genre(name = $('genre').value) {
    return this.catalog.get(name) || [...this.catalog.values()][0];
  }

  fillGenres() {
    const genres = [...this.catalog.values()];
    fillSelect($('genre'), genres.map((g) => g.name), null, (name) => this.catalog.get(name).title);
  }

  // The grades `size` offers under the chosen options (the values other than the
  // defaults): the catalog's setting of exactly that choice where it lists one, else the
  // grades every chosen value's setting allows.
  offeredGrades(genre, size, chosen = this.chosenOptions()) {
    const settings = Array.isArray(genre.settings) ? genre.settings : [];
    const gradesOf = (options) => {
      const setting = settings.find((s) => sameOptions(s.options || {}, options));
      if (setting) return (setting.grades_by_size || {})[size] || [];
      if (Object.keys(options).length) return null; // not listed: judged by the defaults
      return (genre.grades_by_size || {})[size] || genre.difficulties;
    };
    if (Object.keys(chosen).length) {
      const exact = gradesOf(chosen); // the catalog lists this very choice: its grades
      if (exact) return exact;
    }
    let offered = gradesOf({}) || genre.difficulties;
    for (const [name, value] of Object.entries(chosen)) {
      const more = gradesOf({ [name]: value });
      if (more) offered = offered.filter((grade) => more.includes(grade));
    }
    return offered;
  }

  fillSizes(genre, size) {
    const offered = genre.sizes.filter((s) => this.offeredGrades(genre, s).length);
    const other = Object.keys(this.chosenOptions()).length ? ' (not with these options)' : '';
    fillSelect($('size'), genre.sizes, size || genre.sizes[0],
      (s) => `${s.replace('x', '×')}${offered.includes(s) ? '' : other}`, offered.length ? offered : genre.sizes);
  }

  fillGrades(genre, size, difficulty) {
    const offered = this.offeredGrades(genre, size);
    const shown = size.replace('x', '×');
    const where = Object.keys(this.chosenOptions()).length ? `${shown} with these options` : shown;
    fillSelect($('difficulty'), genre.difficulties, difficulty || genre.default_difficulty,
      (grade) => (offered.includes(grade) ? grade : `${grade} (not at ${where})`), offered.length ? offered : genre.difficulties);
  }

  // The options' values other than the defaults.
  chosenOptions() {
    const chosen = {};
    for (const select of $('setup-options').querySelectorAll('select')) {
      if (select.value && select.value !== select.dataset.default) chosen[select.dataset.option] = select.value;
    }
    return chosen;
  }

  // The genre's options with choices (the catalog's `options`, each with its `label` and
  // its choices' `words`), one menu each; an option without a default offers "any".
  fillOptions(genre, chosen = {}) {
    const box = $('setup-options');
    const options = this.optionsOf(genre);
    box.replaceChildren(...options.map((option) => {
      const label = document.createElement('label');
      label.append(optionWords(option));
      const select = document.createElement('select');
      select.dataset.option = option.name;
      select.dataset.default = option.default ?? '';
      if (option.help) select.title = option.help;
      const values = option.default == null ? ['', ...option.choices] : option.choices;
      fillSelect(select, values, chosen[option.name] ?? option.default ?? '', choiceWords);
      select.addEventListener('change', () => {
        this.fillSizes(genre, $('size').value);
        this.fillGrades(genre, $('size').value, $('difficulty').value);
        this.remember();
      });
      label.append(select);
      return label;
    }));
    box.hidden = options.length === 0;
  }

  optionsOf(genre) {
    return Array.isArray(genre.options) ? genre.options.filter((o) => Array.isArray(o.choices) && o.choices.length) : [];
  }

  choose(name, size, difficulty, options = {}) {
    const genre = this.genre(name);
    $('genre').value = genre.name;
    this.fillOptions(genre, options);
    this.fillSizes(genre, size);
    this.fillGrades(genre, $('size').value, difficulty);
  }

  // The form set to a puzzle's own genre, size, grade and the options it carries with a
  // default (its look's `options`; other options as chosen: one without a default, such as
  // a star count by size, stays "any" so that New game keeps to the bank's boards).
  show(view) {
    const options = view.genre === $('genre').value ? this.options() : {};
    const carried = view.look?.options || [];
    for (const option of this.optionsOf(this.genre(view.genre))) {
      const value = view.data?.[option.name];
      if (carried.includes(option.name) && option.default != null && value !== undefined) options[option.name] = String(value);
    }
    this.choose(view.genre, `${view.width}x${view.height}`, view.difficulty || $('difficulty').value, options);
  }

  options() {
    const chosen = {};
    for (const select of $('setup-options').querySelectorAll('select')) chosen[select.dataset.option] = select.value;
    return chosen;
  }

  // What New game asks for: `options` only where they differ from the defaults (a board
  // with other options is generated on the spot, one at the defaults comes from the bank).
  request(exclude) {
    const request = { genre: $('genre').value, size: $('size').value, difficulty: $('difficulty').value, exclude };
    const options = this.chosenOptions();
    if (Object.keys(options).length) request.options = options;
    return request;
  }

  describe(request) {
    const genre = this.genre(request.genre);
    const options = Object.values(request.options || {}).map(choiceWords);
    const more = options.length ? ` (${options.join(', ')})` : '';
    return `${genre.title} ${request.size.replace('x', '×')} ${request.difficulty}${more}`;
  }

  remember() {
    this.changed();
    this.store.setPref('setup', {
      genre: $('genre').value, size: $('size').value, difficulty: $('difficulty').value, options: this.options(),
    });
  }

  restore() {
    const setup = this.store.prefs.setup && typeof this.store.prefs.setup === 'object' ? this.store.prefs.setup : {};
    this.choose(setup.genre, setup.size, setup.difficulty, setup.options || {});
  }

  wire() {
    $('genre').addEventListener('change', () => { this.choose($('genre').value); this.remember(); });
    $('size').addEventListener('change', () => {
      this.fillGrades(this.genre(), $('size').value, $('difficulty').value);
      this.remember();
    });
    $('difficulty').addEventListener('change', () => this.remember());
  }
}
