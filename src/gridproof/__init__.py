"""gridproof: pencil-puzzle engines in which every published puzzle is proven unique.

The library, on the Norinori of `docs/formats.md`:

>>> import gridproof as gp
>>> p = gp.load("https://puzz.link/p?norinori/5/5/cag4ocjo")
>>> counted = gp.count(p)
>>> counted.verdict
<Verdict.UNIQUE: 'unique'>
>>> counted.solutions[0]
('##...', '..##.', '##..#', '....#', '##...')

The calls: `load` (one puzzle from any format `docs/formats.md` lists: a gridproof code, a
puzz.link URL, JSON text or a JSON file, a pzprv3 save file, and for Nonogram a Tatham
Pattern ID or a `.non` file) and `load_all` (every puzzle of a corpus), `count`, `solve`,
`hint`, `check`, `validate`, `generate`, `convert`, `render` (SVG, PNG, PDF), the workshop's
`fix` and `make_unique`, `genre` and `genre_names`. The values they return: `Loaded`,
`Counted`, `Solved`, `Board`, `Hint` (with its `HintStatus`), `Checked`, `Marks`, `Repairs`
(a `Report` and its `Suggestion`s), `Made`, `Step`, `Violation`, `Verdict`, `Health`;
`Cell`, the cell every result names (an index that reads as `r4c2` and knows its `row` and
`col`); `Genre` is the record each genre registers, `Deadline` a time limit the caller may
cancel. Every value's `to_json()` is the shape the CLI's `--json` and the web API use. A
loaded puzzle and a generated board draw themselves in a notebook (`_repr_svg_`,
`_repr_html_`) and as text (`text()`). Errors: `GridproofError` is the root, `CodeError`
anything that cannot be parsed, `GenerationError` a board not proven in time (with its
`health`). Versions: `__version__` and `ENGINE_VERSION`.
"""

from __future__ import annotations

from collections.abc import Sequence as _Sequence
from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any
from typing import Literal as _Literal
from typing import overload as _overload

import gridproof.genres  # noqa: F401  (declares the built-in genres, imported when used)
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, GridproofError
from gridproof.core.errors import quote as _quote
from gridproof.core.registry import genre as _genre
from gridproof.core.registry import names as _names
from gridproof.version import ENGINE_VERSION, __version__

if _TYPE_CHECKING:
    from gridproof.core.contract import Genre, Health
    from gridproof.core.grid import Cell
    from gridproof.core.outcome import Verdict
    from gridproof.core.trace import Step, Violation
    from gridproof.service import Board, Counted, Loaded, Solved
    from gridproof.service import Seconds as _Seconds
    from gridproof.service.play import Checked, Hint, HintStatus, Marks
    from gridproof.service.workshop import Made, Repairs, Report, Suggestion

_LATER = {
    **dict.fromkeys(("Genre", "Health"), "gridproof.core.contract"),
    "Cell": "gridproof.core.grid",
    "Verdict": "gridproof.core.outcome",
    **dict.fromkeys(("Step", "Violation"), "gridproof.core.trace"),
    **dict.fromkeys(("Board", "Counted", "Loaded", "Solved"), "gridproof.service"),
    **dict.fromkeys(("Checked", "Hint", "HintStatus", "Marks"), "gridproof.service.play"),
    **dict.fromkeys(("Made", "Repairs", "Report", "Suggestion"), "gridproof.service.workshop"),
}
"""Public values whose modules load on first use, so `import gridproof` stays light (a
call imports what it needs when it is first made)."""


def __getattr__(name: str) -> _Any:
    if name in _LATER:
        value = getattr(_import_module(_LATER[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'gridproof' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(globals().keys() | _LATER.keys())


__all__ = [
    "ENGINE_VERSION",
    "Board",
    "Cell",
    "Checked",
    "CodeError",
    "Counted",
    "Deadline",
    "GenerationError",
    "Genre",
    "GridproofError",
    "Health",
    "Hint",
    "HintStatus",
    "Loaded",
    "Made",
    "Marks",
    "Repairs",
    "Report",
    "Solved",
    "Step",
    "Suggestion",
    "Verdict",
    "Violation",
    "__version__",
    "check",
    "convert",
    "count",
    "fix",
    "generate",
    "genre",
    "genre_names",
    "hint",
    "load",
    "load_all",
    "make_unique",
    "render",
    "solve",
    "validate",
]


def load(source: str) -> Loaded:
    """The one puzzle in `source`: a gridproof code (`norinori.1.5x5.YqBMMng`), a puzz.link
    URL, JSON text (one corpus object, a `generate --json` line, or a corpus of one), a
    pzprv3 save file's text, a Tatham Pattern ID (`5x5:1/2/...`) or `.non` text, or the path
    of a file holding any of these (`docs/formats.md` has each format and its quirks). A
    source holding several puzzles is a `CodeError` (see `load_all`).

    >>> p = load("https://puzz.link/p?norinori/5/5/cag4ocjo")
    >>> p.genre.name, p.puzzle.width, p.puzzle.height
    ('norinori', 5, 5)
    >>> load("norinori.1.5x5.!")
    Traceback (most recent call last):
    ...
    gridproof.core.errors.CodeError: code 'norinori.1.5x5.!': code payload: character '!' ...
    """
    from gridproof import service as _service

    items = _service.load(source)
    if len(items) != 1:
        raise CodeError(f"{_quote(source)} holds {len(items)} puzzles, not one; load_all reads all")
    return items[0]


def load_all(source: str) -> list[Loaded]:
    """Every puzzle in `source` (a corpus file `{"genre", "puzzles": [...]}` holds many),
    each with its id and what the corpus says about it (`expected`, `solution`)."""
    from gridproof import service as _service

    return _service.load(source)


def count(
    puzzle: Loaded, limit: int = 2, *, deadline: _Seconds = None, sat: bool = True
) -> Counted:
    """Count the solutions of `puzzle` up to `limit` (at least 2: uniqueness needs a second
    search), within `deadline` (seconds, a `Deadline`, or None for no limit). A count that
    runs out of time has the verdict `timeout`, never a guess. With `sat=False` the count
    uses the standard library alone, as a browser build does (Nonogram's engine without its
    CaDiCaL stretch; the other genres' counters are pure Python anyway).

    >>> p = load("https://puzz.link/p?norinori/5/5/cag4ocjo")
    >>> counted = count(p, limit=2, deadline=10)
    >>> str(counted.verdict), len(counted.solutions)
    ('unique', 1)
    >>> counted.to_json()["outcome"]
    'unique'
    """
    from gridproof import service as _service

    return _service.count(puzzle, limit, deadline, sat=sat)


def solve(puzzle: Loaded, rung: str | None = None, *, deadline: _Seconds = None) -> Solved:
    """Run the genre's rule ladder up to `rung` (None: every rung) from an empty grid: what
    those rules decide alone, step by step, each step a sentence.

    >>> p = load("https://puzz.link/p?norinori/5/5/cag4ocjo")
    >>> solved = solve(p)
    >>> solved.complete, solved.grid
    (True, ('##...', '..##.', '##..#', '....#', '##...'))
    >>> solved.steps[0].text
    'region 1 needs two shaded cells and only r1c1, r1c2 can hold them'
    >>> solved.steps[0].rule, p.genre.ladder.rung_of(solved.steps[0].rule)
    ('region-needs', 'local')
    """
    from dataclasses import replace as _replace

    from gridproof import service as _service
    from gridproof.core.grid import cells_of as _cells_of

    solved = _service.solve(puzzle, rung, deadline)
    width = puzzle.puzzle.width
    steps = tuple(_replace(step, cells=_cells_of(step.cells, width)) for step in solved.steps)
    why = solved.contradiction
    if why is not None:
        why = _replace(why, cells=_cells_of(why.cells, width))
    return _replace(solved, steps=steps, contradiction=why)


def hint(
    puzzle: Loaded,
    marks: _Sequence[str] | Marks,
    *,
    reveal: bool = False,
    recent: _Sequence[int] = (),
    deadline: _Seconds = None,
) -> Hint:
    """The next thing to do from a player's `marks` (rows of `#` shaded, `+` marked empty,
    `.` unknown): how many marks contradict the solution, if any (which ones only if
    `reveal`); else the next deduction of the genre's ladder, its rule named and its cells
    listed; else one cell of the solution. `recent`: the cells the player set last, most
    recent first (`Cell`s or indexes), as the player sends them: of the deductions open,
    the hint is then the one nearest to where they work. `deadline` bounds the count and
    the search; the count is remembered (the last 64 puzzles), so hint after hint on one
    puzzle counts it once.

    >>> p = load("https://puzz.link/p?norinori/5/5/cag4ocjo")
    >>> h = hint(p, ["....."] * 5)
    >>> h.status, h.rule, h.title
    (<HintStatus.STEP: 'step'>, 'region-needs', 'Region needs its last cells')
    >>> h.text, h.shaded
    ('region 1 needs two shaded cells and only r1c1, r1c2 can hold them', (r1c1, r1c2))
    >>> hint(p, ["+....", ".....", ".....", ".....", "....."]).text
    '1 mark contradicts the solution. Undo it, or press Check and Show to find it.'
    """
    from dataclasses import replace as _replace

    from gridproof import service as _service
    from gridproof.core.grid import cells_of as _cells_of
    from gridproof.service import play as _play

    clock = _service.as_deadline(deadline)
    known = _marks(puzzle, marks)
    answer = _play.LIBRARY_ANSWERS.get(puzzle.genre, puzzle.puzzle, clock)
    trail = _play.parse_recent(recent, puzzle.puzzle.width * puzzle.puzzle.height)
    found = _play.hint(puzzle.genre, puzzle.puzzle, known, answer, clock, reveal, trail)
    width = puzzle.puzzle.width
    return _replace(
        found,
        cells=_cells_of(found.cells, width),
        shaded=_cells_of(found.shaded, width),
        empty=_cells_of(found.empty, width),
    )


def check(
    puzzle: Loaded,
    marks: _Sequence[str] | Marks,
    *,
    reveal: bool = False,
    deadline: _Seconds = None,
) -> Checked:
    """How many of `marks` contradict the solution (which ones only if `reveal`), and
    whether the shaded cells already satisfy every rule. The puzzle is counted once and
    its answer remembered, as for `hint`.

    >>> p = load("https://puzz.link/p?norinori/5/5/cag4ocjo")
    >>> checked = check(p, ["##+..", ".....", ".....", ".....", "....#"], reveal=True)
    >>> checked.mistakes, checked.cells, checked.solved
    (1, (r5c5,), False)
    >>> checked.cells[0].rc
    (4, 4)
    >>> checked.text
    '1 mark contradicts the solution: r5c5'
    """
    from dataclasses import replace as _replace

    from gridproof import service as _service
    from gridproof.core.grid import cells_of as _cells_of
    from gridproof.service import play as _play

    known = _marks(puzzle, marks)
    answer = _play.LIBRARY_ANSWERS.get(puzzle.genre, puzzle.puzzle, _service.as_deadline(deadline))
    checked = _play.check(puzzle.genre, puzzle.puzzle, known, answer, reveal)
    if checked.cells is None:
        return checked
    return _replace(checked, cells=_cells_of(checked.cells, puzzle.puzzle.width))


def validate(puzzle: Loaded, grid: _Sequence[str]) -> list[Violation]:
    """Every rule the grid (rows of text, `#` shaded) breaks; empty for a solution. The
    validator shares no code with the solvers.

    >>> p = load("https://puzz.link/p?norinori/5/5/cag4ocjo")
    >>> validate(p, ["##...", "..##.", "##..#", "....#", "##..."])
    []
    >>> broken = validate(p, ["##...", ".....", ".....", ".....", "....."])
    >>> len(broken), broken[0].rule, broken[0].text
    (4, 'region-count', 'region 2 holds 0 shaded cells, not 2')
    """
    from dataclasses import replace as _replace

    from gridproof import service as _service
    from gridproof.core.grid import cells_of as _cells_of

    width = puzzle.puzzle.width
    broken = _service.validate(puzzle, grid)
    return [_replace(each, cells=_cells_of(each.cells, width)) for each in broken]


def generate(
    genre: str,
    *,
    size: tuple[int, int],
    seed: int,
    difficulty: str | None = None,
    deadline: _Seconds = 60.0,
    **options: _Any,
) -> Board:
    """A `genre` board of `size` (width, height) proven unique, the same for the same
    seed on every machine; `difficulty` one of the genre's grades (None: any), `options`
    the genre's own settings. `GenerationError` when none is proven within `deadline`.

    >>> board = generate("norinori", size=(6, 6), seed=7)
    >>> board.size, board.seed, board.difficulty in genre("norinori").difficulties
    ('6x6', 7, True)
    >>> str(count(board.loaded).verdict)
    'unique'
    >>> validate(board.loaded, board.solution_rows)
    []
    """
    from gridproof import service as _service

    width, height = size
    return _service.generate(genre, width, height, seed, difficulty, deadline, options)


def convert(puzzle: Loaded, to: str) -> str:
    """`puzzle` as a gridproof code (`"code"`), a puzz.link URL (`"url"`), compact JSON
    (`"json"`), a pzprv3 save file (`"pzprv3"`), or for Nonogram a Tatham Pattern ID
    (`"tatham"`) or `.non` text (`"non"`); a `CodeError` says why when the format cannot
    hold the board.

    >>> p = load("https://puzz.link/p?norinori/5/5/cag4ocjo")
    >>> convert(p, "code")
    'norinori.1.5x5.YqBMMng'
    >>> convert(load("norinori.1.5x5.YqBMMng"), "url")
    'https://puzz.link/p?norinori/5/5/cag4ocjo'
    """
    from gridproof import service as _service

    return _service.convert(puzzle, to)


@_overload
def render(
    puzzle: Loaded,
    to: _Literal["svg"] = "svg",
    *,
    solution: _Sequence[str] | bool | None = None,
    deadline: _Seconds = 30.0,
) -> str: ...
@_overload
def render(
    puzzle: Loaded,
    to: _Literal["png", "pdf"],
    *,
    solution: _Sequence[str] | bool | None = None,
    deadline: _Seconds = 30.0,
) -> bytes: ...
@_overload
def render(
    puzzle: Loaded,
    to: str,
    *,
    solution: _Sequence[str] | bool | None = None,
    deadline: _Seconds = 30.0,
) -> str | bytes: ...
def render(
    puzzle: Loaded,
    to: str = "svg",
    *,
    solution: _Sequence[str] | bool | None = None,
    deadline: _Seconds = 30.0,
) -> str | bytes:
    """`puzzle` drawn as a person prints it: an SVG document (`"svg"`, text), a PNG image
    or a one-page PDF (`"png"`, `"pdf"`: bytes, which need the `render` extra). With
    `solution` the drawing shows a grid too: rows of text as `validate` takes them, or
    True for the puzzle's own solution (the one it records, else its unique solution
    counted within `deadline`). A notebook shows a loaded puzzle drawn without calling this.

    >>> p = load("https://puzz.link/p?norinori/5/5/cag4ocjo")
    >>> svg = render(p)
    >>> svg.startswith("<svg"), svg.count("<text")
    (True, 0)
    >>> solved = render(p, solution=count(p).solutions[0])
    >>> solved.count('fill="#5a5a5a"')  # a shaded rectangle for each run of a row
    6
    >>> render(p, "png", solution=True)[:4]
    b'\\x89PNG'
    >>> render(p, "gif")
    Traceback (most recent call last):
    ...
    gridproof.core.errors.CodeError: format 'gif' is not one of svg, png, pdf
    """
    from gridproof.output import rendering as _render

    _render.require(to)
    if solution is True:
        mask: int | None = _render.solution_of(puzzle, deadline)
    elif solution is None or solution is False:
        mask = None
    else:
        mask = _render.marks_of(puzzle, solution)
    return _render.write([_render.figure(puzzle, mask)], to)


def fix(
    puzzle: Loaded,
    keep: _Sequence[str] | None = None,
    *,
    limit: int = 6,
    deadline: _Seconds = 30.0,
) -> Repairs:
    """The workshop's verdict on `puzzle` and up to `limit` single edits that repair it,
    unique ones first; `keep` pins a solution (rows of text) the edits must keep.

    >>> p = load("norinori.1.8x8.kozG7Ekdy34t6zR_LVA")
    >>> repairs = fix(p)
    >>> str(repairs.report.outcome), repairs.report.differ.bit_count()
    ('multiple', 2)
    >>> best = repairs.edits[0]
    >>> best.edit.text, str(best.outcome), best.grade
    ('move r8c6 with r7c6 into the region of r6c6', 'unique', 'easy')
    """
    from gridproof import service as _service
    from gridproof.service import workshop as _workshop

    deadline_ = _service.as_deadline(deadline)
    return _workshop.suggest(puzzle, _workshop.parse_keep(puzzle, keep), deadline_, limit)


def make_unique(
    puzzle: Loaded,
    keep: _Sequence[str] | None = None,
    *,
    deadline: _Seconds = 30.0,
    visited: _Sequence[str] = (),
) -> Made:
    """Edits applied to `puzzle` until its count is one (keeping `keep` if given). To go on
    from a walk that stopped, pass its board, its `keep` and its `trail` as `visited`: the
    boards it stood on are never stood on again.

    >>> made = make_unique(load("norinori.1.8x8.kozG7Ekdy34t6zR_LVA"))
    >>> str(made.report.outcome), made.applied
    ('unique', ('move r8c6 into the region of r8c7',))
    >>> made.to_json()["code"]
    'norinori.1.8x8.kozG7EkdzX4t6zR_LVQ'
    """
    from gridproof import service as _service
    from gridproof.service import workshop as _workshop

    deadline_ = _service.as_deadline(deadline)
    kept = _workshop.parse_keep(puzzle, keep)
    return _workshop.make_unique(puzzle, kept, deadline_, visited=visited)


def genre_names() -> tuple[str, ...]:
    """The names of every registered genre, in name order.

    >>> genre_names()
    ('nondango', 'nonogram', 'norinori', 'starbattle')
    """
    return _names()


def genre(name: str) -> Genre[_Any]:
    """The genre record called `name` (its ladder, grades, codecs, counter, generator);
    a `CodeError` naming the known genres otherwise.

    >>> genre("norinori").difficulties
    ('easy', 'medium', 'hard', 'expert')
    >>> genre("norinori").offered(10, 10)
    ('easy', 'medium', 'hard')
    >>> genre("norinori").ladder.names
    ('local', 'pairs', 'probe')
    """
    return _genre(name)


def _marks(puzzle: Loaded, marks: _Sequence[str] | Marks) -> Marks:
    from gridproof.service import play as _play

    return marks if isinstance(marks, _play.Marks) else _play.parse_marks(puzzle.puzzle, marks)
