"""What the browser player asks of the engine: puzzles to show, hints, checks.

Glossary: `marks` are a player's state, rows of text with `#` (shaded), `+` (marked empty)
and `.` (unknown), one character per cell; as masks, `shaded` and `empty`. An `answer` is
what the server knows about a puzzle's solutions: the counted verdict and, when it is
unique, the solution mask. The solution is used here to count contradicting marks and is
never part of anything this module returns, except the cells of one deduction (a hint) or,
when the player asks, the cells of their own marks that are wrong.

Results are frozen values (`Offer`, `PuzzleView`, `Hint`, `Checked`); the web turns them
into JSON with their `to_json()`.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from gridproof.core import registry
from gridproof.core.codes import format_size
from gridproof.core.contract import Genre, Look, Option
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GridproofError
from gridproof.core.grid import Sized, bits, cell_name, format_rows, low_bit, parse_rows
from gridproof.core.ladder import Ladder, explained, offer
from gridproof.core.outcome import Verdict
from gridproof.core.trace import Step
from gridproof.service.settings import choices, default_difficulty, offered_sizes
from gridproof.version import ENGINE_VERSION

if TYPE_CHECKING:  # the bank (SQLite, platformdirs) is imported where it is used
    from gridproof.bank import Bank, Record

log = logging.getLogger("gridproof.service.play")

SHADED, EMPTY, UNKNOWN = "#", "+", "."
MARKS = {SHADED: 0, EMPTY: 1, UNKNOWN: -1}
"""The marks' alphabet: each character's layer (shaded, empty) for `core.grid.parse_rows`."""
MARKS_HELP = (
    "the player's marks: one string per row, one character per cell, "
    f"'{SHADED}' shaded, '{EMPTY}' marked empty, '{UNKNOWN}' unknown"
)
REVEAL, REVEAL_TITLE = "reveal", "Reveal"
"""The player's own pseudo-rule: one cell of the solution, when no rule of the ladder applies."""


@dataclass(frozen=True, slots=True)
class Marks:
    shaded: int
    empty: int


@dataclass(frozen=True, slots=True)
class Answer:
    """The counted verdict of a puzzle and, when unique, its solution mask."""

    verdict: Verdict
    solution: int | None
    nodes: int
    elapsed_s: float
    engine: str

    def verification(self) -> dict[str, Any]:
        return {
            "verdict": str(self.verdict),
            "nodes": self.nodes,
            "elapsed_s": self.elapsed_s,
            "engine": self.engine,
        }


def parse_marks(puzzle: Sized, rows: Sequence[str]) -> Marks:
    """The masks of `rows`; `CodeError` saying which row or cell is wrong."""
    shaded, empty = parse_rows(rows, puzzle.width, puzzle.height, MARKS, "marks")
    return Marks(shaded, empty)


def format_marks(puzzle: Sized, marks: Marks) -> list[str]:
    """The rows of `marks`, the inverse of `parse_marks`."""
    layers = [(SHADED, marks.shaded), (EMPTY, marks.empty)]
    return format_rows(puzzle.width, puzzle.height, layers, UNKNOWN)


# --- answers -------------------------------------------------------------------------------


class Answers:
    """The answers of puzzles by code: from the bank, else counted once (under a deadline)
    and remembered; a count that ran out of time is not remembered."""

    def __init__(self, bank: Bank | None, size: int = 512) -> None:
        self.bank = bank
        self._size = size
        self._known: OrderedDict[str, Answer] = OrderedDict()
        self._lock = threading.Lock()

    def get(
        self, genre: Genre[Any], puzzle: Any, deadline: Deadline, code: str | None = None
    ) -> Answer:
        """The answer of `puzzle`, whose canonical code is `code` when the caller knows it."""
        code = genre.format_code(puzzle) if code is None else code
        with self._lock:
            if code in self._known:
                self._known.move_to_end(code)
                return self._known[code]
        record = self._banked(code)
        answer = (
            _answer_of(record) if record is not None else counted_answer(genre, puzzle, deadline)
        )
        if answer.verdict is not Verdict.TIMEOUT:
            self.remember(code, answer)
        return answer

    def remember(self, code: str, answer: Answer) -> None:
        """Keep `answer` as that of the puzzle whose canonical code is `code` (a board just
        made, counted by its generator), the least recently asked going first when full."""
        with self._lock:
            self._known[code] = answer
            self._known.move_to_end(code)
            while len(self._known) > self._size:
                self._known.popitem(last=False)

    def _banked(self, code: str) -> Record | None:
        """The bank's record of `code`; None when the bank cannot be read (a full disk, a
        file gone bad): the answer is counted instead, as a hint needs no bank."""
        if self.bank is None:
            return None
        import sqlite3  # loaded already: a bank is open

        try:
            return self.bank.find(code)
        except sqlite3.Error as error:
            log.warning("the puzzle bank cannot be read, counting instead: %s", error)
            return None


LIBRARY_ANSWERS = Answers(None, size=64)
"""The answers `gridproof.hint` and `gridproof.check` count (no bank): a notebook asking for
hint after hint on one puzzle counts it once, as the player's server does."""


def _answer_of(record: Record) -> Answer:
    return Answer(
        Verdict(record.verdict), record.solution, record.nodes, record.elapsed_s, record.engine
    )


def counted_answer(genre: Genre[Any], puzzle: Any, deadline: Deadline) -> Answer:
    """The answer of `puzzle` counted now, to 2, within `deadline`."""
    outcome = genre.count(puzzle, 2, deadline)
    solution = outcome.solutions[0] if outcome.verdict is Verdict.UNIQUE else None
    return Answer(
        outcome.verdict, solution, outcome.nodes, round(outcome.elapsed, 6), ENGINE_VERSION
    )


# --- what the player sees ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Offer:
    """A genre as the player offers it: title, lessons, sizes, difficulties (every grade
    of the genre, easiest first), the grades each size offers (what the generator
    delivers there; a grade a size lacks is named, not left to fail), rungs."""

    name: str
    title: str
    lessons: tuple[str, ...]
    sizes: tuple[tuple[int, int], ...]
    difficulties: tuple[str, ...]
    default_difficulty: str
    rungs: tuple[str, ...]
    look: Look = field(default_factory=Look)
    """What the player draws and the workshop edits (`Genre.look`)."""
    grades: tuple[tuple[str, ...], ...] = ()
    """For each of `sizes`, the grades offered there (at the default options)."""
    options: tuple[Option, ...] = ()
    """The genre's generator settings a player may choose (those with a set of choices)."""
    settings: tuple[tuple[Mapping[str, str], tuple[tuple[str, ...], ...]], ...] = ()
    """Per option value (`{}` the defaults, then each other choice of each option), the
    grades offered at each of `sizes` under it (empty where that size offers none)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "lessons": list(self.lessons),
            "sizes": [format_size(w, h) for w, h in self.sizes],
            "difficulties": list(self.difficulties),
            "default_difficulty": self.default_difficulty,
            "rungs": list(self.rungs),
            "look": self.look.to_json(),
            "grades_by_size": {
                format_size(w, h): list(grades)
                for (w, h), grades in zip(self.sizes, self.grades, strict=True)
            },
            "options": [
                {
                    "name": option.name,
                    "help": option.help,
                    "choices": list(option.choices or ()),
                    "default": option.default,
                    "label": option.title,
                    "words": {str(choice): words for choice, words in option.words},
                }
                for option in self.options
            ],
            "settings": [
                {
                    "options": dict(options),
                    "grades_by_size": {
                        format_size(w, h): list(grades)
                        for (w, h), grades in zip(self.sizes, per_size, strict=True)
                    },
                }
                for options, per_size in self.settings
            ],
        }


def catalog() -> list[Offer]:
    """Every genre as the player offers it, by name: per size and option value, the grades
    the generator makes within a New game's promise (`Genre.playable`), exactly the keys
    the bank stocks (`bank.offered_keys`)."""
    return [_offer(genre) for _, genre in sorted(registry.genres().items())]


def _offer(genre: Genre[Any]) -> Offer:
    """The genre's offer. Its sizes are all the player's sizes the generator supports (the
    workshop's blank boards take them too); a size whose grades are all left out, under
    some option value or all of them, is listed with none there (the form shows it as not
    offered)."""
    settings = choices(genre)
    sizes = offered_sizes(genre)
    return Offer(
        name=genre.name,
        title=genre.title,
        lessons=genre.lessons,
        sizes=tuple(sizes),
        difficulties=genre.difficulties,
        default_difficulty=default_difficulty(genre),
        rungs=genre.rungs,
        look=genre.look,
        grades=tuple(genre.playable(w, h) for w, h in sizes),
        options=tuple(option for option in genre.options if option.choices),
        settings=tuple(
            (options, tuple(genre.playable(w, h, options) for w, h in sizes))
            for options in settings
        ),
    )


@dataclass(frozen=True, slots=True)
class PuzzleView:
    """A puzzle as the player gets it: its code, its data (what to draw), its provenance
    and verification. Never its solution, nor the seed that would rebuild it."""

    code: str
    genre: str
    title: str
    width: int
    height: int
    data: Mapping[str, Any]
    url: str | None
    origin: str
    difficulty: str | None
    score: float | None
    generator: str | None
    metrics: Mapping[str, Any] | None
    verification: Mapping[str, Any] | None
    engine: str
    rating: float | None = None
    """The grade and score on one scale: a harder grade always rates higher (the tens are
    the grade, the units the board's place in it; `core.ladder.rating`)."""
    solution_digest: str | None = None
    """`solution_digest` of the puzzle's unique solution (None when not proven unique)."""
    look: Mapping[str, Any] | None = None
    """The genre's `Look`: the layers drawn and the marks' symbols."""

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "genre": self.genre,
            "title": self.title,
            "width": self.width,
            "height": self.height,
            "data": dict(self.data),
            "url": self.url,
            "origin": self.origin,
            "difficulty": self.difficulty,
            "score": self.score,
            "rating": self.rating,
            "generator": self.generator,
            "metrics": None if self.metrics is None else dict(self.metrics),
            "verification": None if self.verification is None else dict(self.verification),
            "engine": self.engine,
            "solution_digest": self.solution_digest,
            "look": None if self.look is None else dict(self.look),
        }


def solution_digest(code: str, width: int, height: int, solution: int) -> str:
    """The SHA-256 (hex) of `code`, a newline, and the solution's rows joined by `/`, each
    cell `#` where the solution shades it (a black circle) and `.` elsewhere. The page
    computes the same of its own marks (`#` kept, any other mark `.`) and calls the board
    solved when they match, without asking the server: it learns whether its shading is
    the solution, never what the solution is. Documented in docs/player.md."""
    rows = format_rows(width, height, [(SHADED, solution)], UNKNOWN)
    text = f"{code}\n{'/'.join(rows)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _unique_solution(record: Record | None, answer: Answer | None) -> int | None:
    """The solution mask of a puzzle proven unique, from its bank record or its count."""
    if record is not None and record.verdict == str(Verdict.UNIQUE):
        return record.solution
    if answer is not None and answer.verdict is Verdict.UNIQUE:
        return answer.solution
    return None


def view(
    genre: Genre[Any],
    puzzle: Any,
    origin: str,
    record: Record | None = None,
    answer: Answer | None = None,
) -> PuzzleView:
    """A puzzle as the player gets it, with the bank's `record` or a counted `answer`."""
    data = {k: v for k, v in genre.to_json(puzzle).items() if k not in ("id", "genre")}
    verification = (
        record.verification()
        if record is not None
        else answer.verification()
        if answer is not None
        else None
    )
    code = genre.format_code(puzzle)
    solution = _unique_solution(record, answer)
    digest = (
        None if solution is None else solution_digest(code, puzzle.width, puzzle.height, solution)
    )
    return PuzzleView(
        code=code,
        genre=genre.name,
        title=genre.title,
        width=puzzle.width,
        height=puzzle.height,
        data=data,
        url=_url(genre, puzzle),
        origin=origin,
        difficulty=record.difficulty if record is not None else None,
        score=record.score if record is not None else None,
        generator=record.generator if record is not None else None,
        metrics=dict(record.metrics) if record is not None else None,
        verification=verification,
        engine=ENGINE_VERSION,
        rating=None
        if record is None
        else genre.rating(record.difficulty, record.score, puzzle.width, puzzle.height),
        solution_digest=digest,
        look=genre.look.to_json(),
    )


def _url(genre: Genre[Any], puzzle: Any) -> str | None:
    try:
        return genre.format_url(puzzle)
    except GridproofError:  # a variant puzz.link cannot express
        return None


# --- check and hint ------------------------------------------------------------------------


class HintStatus(StrEnum):
    """What kind of hint the player gets."""

    MISTAKES = "mistakes"
    """Some marks contradict the solution."""
    SOLVED = "solved"
    STEP = "step"
    """The next deduction of the ladder."""
    REVEAL = "reveal"
    """No rule applies: one cell of the solution."""
    CONTRADICTION = "contradiction"
    TIMEOUT = "timeout"
    STUCK = "stuck"


@dataclass(frozen=True, slots=True)
class Hint:
    """The next thing to do: its status, the sentence to show, the rule (id and title) of a
    deduction, the cells to highlight and the cells it decides; `mistakes` counts the
    contradicting marks of a `mistakes` hint."""

    status: HintStatus
    text: str
    rule: str | None = None
    title: str | None = None
    cells: tuple[int, ...] = ()
    regions: tuple[int, ...] = ()
    shaded: tuple[int, ...] = ()
    empty: tuple[int, ...] = ()
    mistakes: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "text": self.text,
            "rule": self.rule,
            "title": self.title,
            "cells": list(self.cells),
            "regions": list(self.regions),
            "shaded": list(self.shaded),
            "empty": list(self.empty),
            "mistakes": self.mistakes,
        }


@dataclass(frozen=True, slots=True)
class Checked:
    """How many marks contradict the solution (None when it is not known to be unique),
    which ones (only when asked), and whether the shaded cells satisfy every rule."""

    solved: bool
    mistakes: int | None
    cells: tuple[int, ...] | None
    text: str
    verdict: Verdict

    def to_json(self) -> dict[str, Any]:
        return {
            "solved": self.solved,
            "mistakes": self.mistakes,
            "cells": None if self.cells is None else list(self.cells),
            "text": self.text,
            "verdict": str(self.verdict),
        }


def mistakes(marks: Marks, solution: int) -> int:
    """The mask of marks that contradict `solution`: shaded cells that are empty in it, and
    cells marked empty that are shaded in it."""
    return marks.shaded & ~solution | marks.empty & solution


def check(
    genre: Genre[Any], puzzle: Any, marks: Marks, answer: Answer, reveal: bool = False
) -> Checked:
    """How many marks contradict the solution (which, only if `reveal`), and whether the
    shaded cells already satisfy every rule (`solved`, by the validator)."""
    could_pass = answer.solution is None or marks.shaded == answer.solution
    solved = could_pass and not genre.validate(puzzle, marks.shaded)
    if answer.solution is None:
        return Checked(solved, None, None, _not_unique(answer), answer.verdict)
    wrong = mistakes(marks, answer.solution)
    count = wrong.bit_count()
    return Checked(
        solved=solved,
        mistakes=count,
        cells=tuple(bits(wrong)) if reveal else None,
        text=_mistakes_text(count, puzzle.width, wrong if reveal else 0),
        verdict=answer.verdict,
    )


def hint(
    genre: Genre[Any],
    puzzle: Any,
    marks: Marks,
    answer: Answer,
    deadline: Deadline,
    reveal: bool = False,
    recent: Sequence[int] = (),
) -> Hint:
    """The next thing to do: say so first if some marks are wrong (how many; which only if
    `reveal`); else the next deduction of the genre's whole ladder from the marks, naming
    its rule and the cells it looks at; if the ladder has none, one cell of the solution.
    `recent` are the cells the player set last, most recent first: of the deductions the
    cheapest productive rung and the rungs of its grade after it offer
    (`core.ladder.offer`), the hint is the one a person working there would take next
    (`near`); without them, the first of its first rule."""
    if answer.solution is not None:
        wrong = mistakes(marks, answer.solution)
        if wrong:
            count = wrong.bit_count()
            return Hint(
                HintStatus.MISTAKES,
                _mistakes_text(count, puzzle.width, wrong if reveal else 0)
                + ("" if reveal else _undo_them(count)),
                mistakes=count,
                cells=tuple(bits(wrong)) if reveal else (),
            )
    # the validator decides; with the unique solution known, only that shading can pass it
    could_pass = answer.solution is None or marks.shaded == answer.solution
    if could_pass and not genre.validate(puzzle, marks.shaded):
        return Hint(HintStatus.SOLVED, "Every rule is satisfied: the puzzle is solved.")
    offered = offer(
        genre.ladder,
        genre.position,
        puzzle,
        deadline,
        shaded=marks.shaded,
        empty=marks.empty,
        solution=answer.solution,  # the marks agree with it: no mistakes were found
        prefer=nearness(recent, puzzle.width) if recent else None,
    )
    if offered.steps:
        steps = offered.steps
        step = steps[0]
        if recent:
            step = min(steps, key=near(recent, puzzle.width, genre.ladder, puzzle.height))
        step = explained(
            genre.ladder,
            genre.position,
            puzzle,
            deadline,
            step,
            shaded=marks.shaded,
            empty=marks.empty,
        )
        shaded, empty = step.shaded & ~marks.shaded, step.empty & ~marks.empty
        return Hint(
            HintStatus.STEP,
            step.text,
            rule=step.rule,
            title=genre.ladder.title(step.rule),
            cells=tuple(sorted(set(step.cells) | set(bits(shaded | empty)))),
            regions=step.regions,
            shaded=tuple(bits(shaded)),
            empty=tuple(bits(empty)),
        )
    if offered.contradiction is not None:
        text = f"Your marks cannot be completed: {offered.contradiction.text}"
        return Hint(HintStatus.CONTRADICTION, text)
    if offered.timed_out:
        text = "No deduction found in time; try again or take a smaller step."
        return Hint(HintStatus.TIMEOUT, text)
    return _reveal_one(puzzle, marks, answer)


RECENT = 8
"""How many of the player's last marks a hint looks near."""


def nearness(recent: Sequence[int], width: int) -> Callable[[int], int]:
    """A cell's distance from the player's last marks (`distance_from`): the order a
    probe tries its cells in for a hint, so it finds the one nearest where they work."""
    distance = distance_from(recent, width)
    return lambda cell: distance((cell,))


def _undo_them(count: int) -> str:
    them = "it" if count == 1 else "them"
    return f" Undo {them}, or press Check and Show to find {them}."


MAX_RECENT = 64
"""The most recent cells a hint request may carry (a hint reads the first `RECENT`)."""


def parse_recent(recent: object, cells: int) -> tuple[int, ...]:
    """The player's last cells as a hint takes them (cell numbers, most recent first);
    `CodeError` quoting the entry that is not a cell of a board of `cells` cells."""
    if not isinstance(recent, list | tuple) or len(recent) > MAX_RECENT:
        raise CodeError(f"recent: at most {MAX_RECENT} cell numbers, as a list")
    for index, cell in enumerate(recent):
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < cells:
            raise CodeError(f"recent: entry {index} ({cell!r}) is not a cell of the board")
    return tuple(int(cell) for cell in recent)


def near(
    recent: Sequence[int],
    width: int,
    ladder: Ladder[Any] | None = None,
    height: int | None = None,
) -> Callable[[Step], tuple[int, bool, int, int]]:
    """The order in which a person working at `recent` (cells, most recent first) would
    take the deductions open to them: nearest first, where a step is the cells it
    decides (a step looking at a whole line is not everywhere along it: a person paints
    where the new cells are), the distance being the Manhattan distance to a recent mark
    plus `AGE_COST` for each mark since that one, less the salience of the step's rule in
    `ladder` (`Rule.salience`: the steps a person notices sooner); then a step about the
    whole row or column (of a board `height` high) that holds the last two marks (a
    person painting along a line goes on along it: a Nonogram clue's line); then nearest
    by every cell the step looks at or decides; then the step that decides most (a person
    paints a run at once). Measured on the tuning part of the janko solve paths
    (`benchmarks/human.py`)."""
    distance = distance_from(recent, width)
    salience = {each.id: each.salience for each in ladder.rules} if ladder else {}
    line = _travelled(recent, width, height)

    def key(step: Step) -> tuple[int, bool, int, int]:
        decided = step.shaded | step.empty
        new = list(bits(decided))
        every = {*new, *step.cells}
        nearest = distance(new or every) - salience.get(step.rule, 0)
        along = line is not None and len(step.cells) == len(line) and line == set(step.cells)
        return nearest, not along, distance(every), -decided.bit_count()

    return key


def _travelled(recent: Sequence[int], width: int, height: int | None) -> frozenset[int] | None:
    """The cells of the row or column that holds the last two of `recent` (None if they
    share neither, or the board's height is not given)."""
    if height is None or len(recent) < 2:
        return None
    (row, col), (row_before, col_before) = divmod(recent[0], width), divmod(recent[1], width)
    if row == row_before:
        return frozenset(range(row * width, (row + 1) * width))
    if col == col_before:
        return frozenset(range(col, width * height, width))
    return None


def distance_from(recent: Sequence[int], width: int) -> Callable[[Iterable[int]], int]:
    """How far cells lie from a person working at `recent` (cells, most recent first):
    the least Manhattan distance from one of them to one of the last `RECENT` marks, plus
    `AGE_COST` for each mark since that one (0 for no cells or no marks)."""
    trail = [divmod(cell, width) for cell in recent[:RECENT]]

    def distance(cells: Iterable[int]) -> int:
        places = [divmod(cell, width) for cell in cells]
        return min(
            (
                abs(r - tr) + abs(c - tc) + AGE_COST * age
                for age, (tr, tc) in enumerate(trail)
                for r, c in places
            ),
            default=0,
        )

    return distance


AGE_COST = 2
"""How much nearer an older mark must be than a newer one to count as much."""


def _reveal_one(puzzle: Any, marks: Marks, answer: Answer) -> Hint:
    """The fallback hint when no rule applies: one undecided cell of the solution."""
    if answer.solution is None:
        return Hint(HintStatus.STUCK, "No rule applies to these marks. " + _not_unique(answer))
    open_shaded = answer.solution & ~marks.shaded
    if not open_shaded:
        return Hint(HintStatus.STUCK, "Every shaded cell is in place; the rest are empty.")
    cell = low_bit(open_shaded)
    return Hint(
        HintStatus.REVEAL,
        f"No rule of the ladder applies here; the solution shades {cell_name(cell, puzzle.width)}.",
        rule=REVEAL,
        title=REVEAL_TITLE,
        cells=(cell,),
        shaded=(cell,),
    )


def _mistakes_text(count: int, width: int, shown: int) -> str:
    if count == 0:
        return "No mistakes so far."
    noun = "mark contradicts" if count == 1 else "marks contradict"
    where = ": " + ", ".join(cell_name(cell, width) for cell in bits(shown)) if shown else "."
    return f"{count} {noun} the solution{where}"


def _not_unique(answer: Answer) -> str:
    if answer.verdict is Verdict.TIMEOUT:
        return "The solution could not be counted in time, so marks cannot be checked."
    if answer.verdict is Verdict.NONE:
        return "This puzzle has no solution, so marks cannot be checked."
    return "This puzzle has more than one solution, so marks cannot be checked."
