"""The genre contract as data: one frozen record of functions and metadata per genre, and
the values that cross it (requests, generated boards, health records).

A genre module ends with `GENRE = Genre(name=..., ladder=rules.LADDER, count=solve.count,
...)`: no class forwards to modules, and nothing outside `gridproof.genres` asks which
genre it holds. `tests/test_contract.py` checks every registered genre the same way, and
`tests/toygenre/` is the smallest genre that passes it: the template a new genre starts from.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from gridproof.core import grid, textgrid
from gridproof.core.deadline import Deadline
from gridproof.core.drawing import Drawing
from gridproof.core.errors import GenerationError
from gridproof.core.grid import Sized as Puzzle
from gridproof.core.ladder import Grade, Ladder, Position, Progress, solve
from gridproof.core.ladder import rating as ladder_rating
from gridproof.core.oracle import Constraint
from gridproof.core.outcome import Outcome
from gridproof.core.repair import Edit, Spare
from gridproof.core.report import Report, Tick
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Group, Violation

P = TypeVar("P", bound=Puzzle)


@dataclass(frozen=True, slots=True)
class Health:
    """Why a generator's candidates failed and what the run cost: every generator returns
    one with the board, or inside the `GenerationError`."""

    attempts: int = 0
    ambiguous: int = 0
    contradiction: int = 0
    timeout: int = 0
    off_grade: int = 0
    """Candidates proven unique but of another grade than the one asked for."""
    fallback: str | None = None
    """Set when the board came from a verified fixture bank rather than a fresh build."""
    milliseconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "attempts": self.attempts,
            "ambiguous": self.ambiguous,
            "contradiction": self.contradiction,
            "timeout": self.timeout,
            "off_grade": self.off_grade,
            "fallback": self.fallback,
            "milliseconds": round(self.milliseconds, 1),
        }


@dataclass(slots=True)
class Tally:
    """The counts a generator keeps while it runs; `health()` freezes them."""

    attempts: int = 0
    ambiguous: int = 0
    contradiction: int = 0
    timeout: int = 0
    off_grade: int = 0
    fallback: str | None = None

    def health(self, milliseconds: float) -> Health:
        return Health(
            self.attempts,
            self.ambiguous,
            self.contradiction,
            self.timeout,
            self.off_grade,
            self.fallback,
            milliseconds,
        )


@dataclass(frozen=True, slots=True)
class Request:
    """What a caller asks a generator for. `options` holds the genre's own settings,
    named as in its `options` table (for example Nondango's `rule` and `white`)."""

    width: int
    height: int
    difficulty: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


NEW_GAME_S = 10.0
"""What a New game from an empty bank may take, at the 95th percentile, for the player to
offer the setting (CPU seconds of a generation on an idle core)."""


@dataclass(frozen=True, slots=True)
class Option:
    """A genre-specific generator setting, as the CLI and the web offer it."""

    name: str
    help: str
    kind: type = str
    choices: tuple[Any, ...] | None = None
    default: Any = None
    label: str = ""
    """What a menu of this option is called for people ("Rule"); empty: the name,
    capitalised."""
    words: tuple[tuple[Any, str], ...] = ()
    """Each choice as people read it (`("no-three-black", "no three black in a line")`);
    a choice without words is shown as its name with spaces for hyphens."""

    @property
    def title(self) -> str:
        """The option's label, or its name capitalised."""
        return self.label or self.name[:1].upper() + self.name[1:]


LAYERS = ("regions", "circles", "cell-clues", "line-clues")
"""What a board may be drawn from, each a key of the genre's JSON: `regions` (rows of
region ids), `circles` (rows of 0/1: only circles take marks), `cell-clues` (numbers in
cells), `line-clues` (`rows` and `cols`, a list of numbers per line)."""
SYMBOLS = ("shaded", "star", "black circle", "empty", "white circle")
"""How a mark is drawn and named: a filled cell, a star, a black or a white circle, the
empty mark (a cross)."""


@dataclass(frozen=True, slots=True)
class Look:
    """What the player draws and the workshop edits, as data the browser renders without
    knowing the genre: the board's `layers` (of `LAYERS`), how each of the two marks
    is drawn and named (`shaded`, `empty`, of `SYMBOLS`), and the `options` the puzzle
    itself carries (a Star Battle's `stars`, a Nondango's `rule`)."""

    layers: tuple[str, ...] = ()
    shaded: str = "shaded"
    empty: str = "empty"
    options: tuple[str, ...] = ()
    """Names of the genre's options (with `choices`) that are part of the puzzle: its JSON
    holds each under the option's name, the player shows it with the board and the
    workshop lets the setter choose it from the option's choices."""

    def __post_init__(self) -> None:
        unknown = [layer for layer in self.layers if layer not in LAYERS]
        if unknown:
            raise ValueError(f"unknown layers {unknown}; layers: {', '.join(LAYERS)}")
        for symbol in (self.shaded, self.empty):
            if symbol not in SYMBOLS:
                raise ValueError(f"unknown symbol {symbol!r}; symbols: {', '.join(SYMBOLS)}")

    def to_json(self) -> dict[str, Any]:
        return {
            "layers": list(self.layers),
            "shaded": self.shaded,
            "empty": self.empty,
            "options": list(self.options),
        }


@dataclass(frozen=True, slots=True)
class Generated(Generic[P]):
    """A generated puzzle proven unique (counted to 2 by the complete counter), with the
    seed that rebuilds it, its grade from the solver's own events, and the evidence."""

    puzzle: P
    solution: int
    seed: int
    difficulty: str
    metrics: Mapping[str, Any] = field(default_factory=dict)
    health: Health = field(default_factory=Health)
    score: float = 0.0
    """The ladder's numeric difficulty (`core.ladder.rate`): orders boards within a grade."""


def in_time(made: Generated[P], deadline: Deadline) -> Generated[P]:
    """`made`, or `GenerationError` if the deadline ran out (or was cancelled) on the way.

    A generator calls this on every board it returns. The clock only moves forward, so a
    deadline that expired at any point of the run has still expired here: no board whose
    making a clock read may have steered is ever returned. What a seed produces then
    depends only on work budgets, which every machine spends alike.
    """
    if deadline.expired() and not deadline.out_of_work():
        raise GenerationError(
            "ran out of time before the board was proven (the same seed gives the same "
            "board with a longer deadline)",
            made.health.as_dict(),
        )
    return made


def pick_grade(seed: int, grades: Sequence[str]) -> str:
    """The grade a generator aims at when none is asked: one of `grades`, chosen by the
    seed alone, so that every grade the size offers comes out about equally often."""
    # A hash of the seed, not the seed's RNG stream: the first draws of neighbouring seeds'
    # streams pick the same grade in runs (seeds 1, 2 and 3 all picked the last of three).
    import hashlib  # here, not above: OpenSSL's hashes load only for a generator

    digest = hashlib.blake2b(f"grade {seed}".encode(), digest_size=8).digest()
    return grades[int.from_bytes(digest, "big") % len(grades)]


Size = tuple[int, int]


class Later:
    """A genre's function that lives in a module the genre imports only on the first call
    (`later`): the workshop's repairs, the study, anything a count or a check never needs,
    so importing a genre stays light (`gridproof count` on one 5×5 board, or a sniffed
    format tried genre by genre)."""

    __slots__ = ("_found", "module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name
        self._found: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def resolve(self) -> Callable[..., Any]:
        """The function itself (importing its module the first time)."""
        if self._found is None:
            self._found = getattr(importlib.import_module(self.module), self.name)
        return self._found

    def __repr__(self) -> str:
        return f"later({self.module!r}, {self.name!r})"


def later(module: str, name: str) -> Any:
    """The function `name` of `module`, imported when it is first called: for a `Genre`
    field whose module is heavy and seldom needed. Typed `Any` so that it fits any
    field; `tests/test_contract.py` resolves every one of every genre."""
    return Later(module, name)


@dataclass(frozen=True, slots=True)
class Oracle:
    """An independent counter of a genre's puzzles, `count(puzzle, limit) -> Outcome`, that
    shares no code with the engine (a brute force, or the SAT oracle): the second witness
    the bank asks for (`gridproof.bank.evidence.independent_check`).

    `max_cells` is the largest board it finishes in well under a second (None: any size);
    `requires` names a module it imports when counting (`pysat` for the SAT oracle, a dev
    extra), so that a caller can tell it is unavailable before calling it.
    """

    name: str
    count: Callable[[Any, int], Outcome]
    max_cells: int | None = None
    requires: str | None = None
    constraints: Callable[[Any], list[Constraint]] | None = None
    """The SAT oracle's encoding as the puzzle's rules one by one (`core.oracle.Constraint`):
    what tests/test_cited_cells.py checks each hint's cited cells against."""


@dataclass(frozen=True, slots=True)
class Format(Generic[P]):
    """One more text format a genre reads and writes (Nonogram's Pattern IDs, `.non`).

    `sniff(text)` says whether `text` looks like this format (cheap, never raises);
    `parse(text)` gives the puzzle and the solution the text records (None if it records
    none) or raises `CodeError`; `format(puzzle, solution)` writes it (with the solution
    where the format holds one) and round-trips with `parse`.
    """

    name: str
    help: str
    sniff: Callable[[str], bool]
    parse: Callable[[str], tuple[P, int | None]]
    format: Callable[[P, int | None], str]


@dataclass(frozen=True, slots=True)
class Genre(Generic[P]):
    """Everything a genre is, as functions and data (see docs/style.md and
    docs/architecture.md, "The genre contract").

    - codes, URLs and JSON: `parse_*` raise `CodeError` on anything they cannot read, and
      `format_*` round-trip with them;
    - `validate(puzzle, shaded)` lists every rule the grid breaks and shares no code with
      the solvers; `count(puzzle, limit, deadline)` is the complete counter;
    - `ladder` is the rule table; `position(puzzle, deadline)` the empty position its rules
      read;
    - `generate(request, seed, deadline)` returns a board proven unique or raises
      `GenerationError` with its health record, never an unproven board;
    - `format_grid`/`parse_grid` write and read a grid as rows of text (`#` shaded).
    """

    name: str
    title: str
    lessons: tuple[str, ...]
    """The rules taught in layers, one short paragraph each, for the player's onboarding."""
    parse_code: Callable[[str], P]
    format_code: Callable[[P], str]
    parse_url: Callable[[str], P]
    format_url: Callable[[P], str]
    from_json: Callable[[Mapping[str, Any]], P]
    to_json: Callable[[P], dict[str, Any]]
    validate: Callable[[P, int], list[Violation]]
    ladder: Ladder[Any]
    position: Callable[[P, Deadline], Position]
    count: Callable[[P, int, Deadline], Outcome]
    transform: Callable[[P, Symmetry], P]
    generate: Callable[[Request, int, Deadline], Generated[P]]
    generator: str
    """The generator's version: what a seed's board depends on besides the request."""
    sizes: tuple[Size, Size]
    """The smallest and largest (width, height) the generator supports."""
    largest: Size
    """The largest (width, height) any parser accepts: every entry point refuses a larger
    board at parse time with a `CodeError`."""
    options: tuple[Option, ...] = ()
    """The genre's own generator settings."""
    study: Callable[[int, int, Deadline, Tick], Report] | None = None
    """The design note's measurements (`gridproof study`), if the genre has one: `study(
    boards, seed, deadline, tick)` gives its tables as data, telling `tick` how far it got."""
    format_grid: Callable[[P, int], list[str]] = grid.format_shading
    parse_grid: Callable[[P, Sequence[str]], int] = grid.parse_shading
    grades_at: Callable[[int, int], tuple[str, ...]] | None = None
    """The grades the generator delivers at a size (None: every grade at every size);
    the player's catalog offers exactly these."""
    grades_with: Callable[[int, int, Mapping[str, Any]], tuple[str, ...]] | None = None
    """The grades the generator delivers at a size under some of its options (None: the
    options change nothing, `grades_at` holds for every choice)."""
    quick_with: Callable[[int, int, Mapping[str, Any]], tuple[str, ...]] | None = None
    """Of those, the grades the generator declares it makes at a size (and options) from
    a cold start within `NEW_GAME_S` of CPU at the 95th percentile, counting a seed that
    gives no board and the next one: what the player offers (None: every grade it
    delivers). A declaration, fixed in the genre's code from `benchmarks/newgame.py`, never
    measured at run time."""
    count_pure: Callable[[P, int, Deadline], Outcome] | None = None
    """The complete counter on the standard library alone, where `count` may call an
    optional native library (Nonogram's CaDiCaL stretch): what a browser build runs and
    `count --no-sat` asks for. None: `count` is pure Python already."""
    propagate: Callable[[P, int, int, Deadline], tuple[int, int] | None] | None = None
    """`propagate(puzzle, shaded, empty, deadline)`: the counter's own propagation at one
    node (its bulk rules, no sentences) from the given marks: the shaded and empty cells it
    decides, or None on a contradiction. tests/test_contract.py holds the ladder to it from
    any position: what the counter's rules decide, the rules a person is told about decide
    too. None: the genre does not expose it (the contract test asks every registered genre)."""
    oracles: tuple[Oracle, ...] = ()
    """Independent counters, preferred first (tests/test_contract.py checks that they
    agree with `count`)."""
    edits: Callable[[P, int | None, int | None, int], Iterable[Edit[P]]] | None = None
    """The single edits a setter might make to repair a board (see `core.repair`); None:
    the workshop proposes none."""
    rivals: Callable[[P, int, Deadline], list[int] | None] | None = None
    """`rivals(puzzle, solution, deadline)`: other solutions of a board `solution` solves,
    one for each independent part of the board that has another way to be filled, each
    equal to `solution` outside its part (empty when `solution` is the only one; None when
    the deadline or its work ran out). The workshop's make-unique breaks them all in one
    round of edits, as the Norinori generator does; None: it walks one rival at a time."""
    spares: Callable[[P, int, Deadline, int], Iterator[Spare]] | None = None
    """The givens a unique board does not need (see `core.repair.Spare`); None: the
    workshop's minimize lists nothing for the genre."""
    from_picture: Callable[[int, int, int], P] | None = None
    """The puzzle whose solution is a picture (width, height, shaded mask), for genres whose
    clues are read off their picture (Nonogram); None elsewhere."""
    formats: tuple[Format[P], ...] = ()
    """Text formats besides codes, URLs and JSON: every SOURCE reads them and `convert`
    writes them."""
    draw: Callable[[P, int | None], Drawing] | None = None
    """The puzzle as printed, with a solution's marks when one is given (`core.drawing`);
    `gridproof render` writes it as SVG, PNG or PDF. None: the genre is not drawn."""
    look: Look = field(default_factory=Look)
    """What the player draws and the workshop edits (layers and marks' symbols); the page
    renders it and names no genre."""
    groups: Callable[[P], Sequence[Group]] | None = None
    """The groups of cells the rules fill (regions, rows, clued lines): those no violation
    names by its `group` are complete, which the player shows (see `core.trace.Group`).
    None: the player shows none."""
    settled: Callable[[P, Violation, int, int], bool] | None = None
    """`settled(puzzle, violation, shaded, empty)`: whether a violation the validator finds
    in a partial grid is broken already (no way of deciding the undecided cells repairs
    it). None: `core.trace.settled` (counting rules by their quota, other rules once their
    cells are decided)."""
    format_text: Callable[[P, int, int], list[str]] = textgrid.marks_text
    """The board as a text picture for people, `format_text(puzzle, shaded, empty)`: its
    clues or region borders with the decided cells (`gridproof show`, `solve`); scripts
    read `format_grid` instead."""

    def offered(
        self, width: int, height: int, options: Mapping[str, Any] | None = None
    ) -> tuple[Grade, ...]:
        """The grades `generate` delivers at `width` × `height` (under `options`, the
        generator's settings), easiest first."""
        if options and self.grades_with is not None:
            return tuple(map(Grade, self.grades_with(width, height, options)))
        if self.grades_at is None:
            return self.difficulties
        return tuple(map(Grade, self.grades_at(width, height)))

    def rating(self, grade: str, score: float, width: int, height: int) -> float:
        """The grade and score of a board on one scale (`core.ladder.rating`): a harder
        grade always rates higher."""
        return ladder_rating(self.difficulties, grade, score, width * height)

    def playable(
        self, width: int, height: int, options: Mapping[str, Any] | None = None
    ) -> tuple[Grade, ...]:
        """The grades the player offers at a size under `options`: those `offered` that
        the generator makes within a New game's promise (`quick_with`)."""
        offered = self.offered(width, height, options)
        if self.quick_with is None:
            return offered
        quick = self.quick_with(width, height, options or {})
        return tuple(grade for grade in offered if grade in quick)

    @property
    def rungs(self) -> tuple[str, ...]:
        """The ladder's rung names, cheapest first."""
        return self.ladder.names

    @property
    def difficulties(self) -> tuple[Grade, ...]:
        """The grades `generate` can be asked for, easiest first: the ladder's grades."""
        return self.ladder.grades

    def solve(
        self,
        puzzle: P,
        rung: str,
        deadline: Deadline,
        shaded: int = 0,
        empty: int = 0,
        max_steps: int | None = None,
    ) -> Progress:
        """Run the ladder up to `rung` from the given marks, stopping after `max_steps`
        steps if given: what that rung decides, step by step. An unknown rung is a
        `CodeError`."""
        return solve(
            self.ladder,
            self.position,
            puzzle,
            rung,
            deadline,
            shaded=shaded,
            empty=empty,
            max_steps=max_steps,
        )
