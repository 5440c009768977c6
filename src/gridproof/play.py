"""What the browser player asks of the engine: puzzles to show, hints, checks.

Glossary: `marks` are a player's state, rows of text with `#` (shaded), `+` (marked empty)
and `.` (unknown), one character per cell; as masks, `shaded` and `empty`. An `answer` is
what the server knows about a puzzle's solutions: the counted verdict and, when it is
unique, the solution mask. The solution is used here to count contradicting marks and is
never part of anything this module returns, except the cells of one deduction (a hint) or,
when the player asks, the cells of their own marks that are wrong.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gridproof import ENGINE_VERSION
from gridproof.bank import Bank, Record, default_difficulty, offered_sizes
from gridproof.core import registry
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GridproofError, quote
from gridproof.core.grid import bits, cell_name
from gridproof.core.outcome import Verdict
from gridproof.core.registry import Genre

SHADED, EMPTY, UNKNOWN = "#", "+", "."
MARKS_HELP = (
    "the player's marks: one string per row, one character per cell, "
    "'#' shaded, '+' marked empty, '.' unknown"
)


@dataclass(frozen=True, slots=True)
class Marks:
    shaded: int
    empty: int


@dataclass(frozen=True, slots=True)
class Answer:
    """The counted verdict of a puzzle and, when unique, its solution mask."""

    verdict: str
    solution: int | None
    nodes: int
    elapsed_s: float
    engine: str

    def verification(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "nodes": self.nodes,
            "elapsed_s": self.elapsed_s,
            "engine": self.engine,
        }


def parse_marks(puzzle: Any, rows: Sequence[str]) -> Marks:
    """The masks of `rows`; `CodeError` saying which row or cell is wrong."""
    width, height = puzzle.width, puzzle.height
    if len(rows) != height:
        raise CodeError(f"marks: {len(rows)} rows given, the puzzle has {height}")
    shaded = empty = 0
    for r, row in enumerate(rows):
        if len(row) != width:
            raise CodeError(
                f"marks: row {r + 1} {quote(row)} has {len(row)} cells, the puzzle {width}"
            )
        for c, ch in enumerate(row):
            if ch == SHADED:
                shaded |= 1 << (r * width + c)
            elif ch == EMPTY:
                empty |= 1 << (r * width + c)
            elif ch != UNKNOWN:
                raise CodeError(
                    f"marks: row {r + 1}, column {c + 1}: {ch!r} is not "
                    f"'{SHADED}' (shaded), '{EMPTY}' (marked empty) or '{UNKNOWN}' (unknown)"
                )
    return Marks(shaded, empty)


def format_marks(puzzle: Any, marks: Marks) -> list[str]:
    """The rows of `marks`, the inverse of `parse_marks`."""
    width = puzzle.width
    return [
        "".join(
            SHADED if marks.shaded >> cell & 1 else EMPTY if marks.empty >> cell & 1 else UNKNOWN
            for cell in range(r * width, (r + 1) * width)
        )
        for r in range(puzzle.height)
    ]


# --- answers -------------------------------------------------------------------------------


class Answers:
    """The answers of puzzles by code: from the bank, else counted once (under a deadline)
    and remembered; a count that ran out of time is not remembered."""

    def __init__(self, bank: Bank | None, size: int = 512) -> None:
        self.bank = bank
        self._size = size
        self._known: OrderedDict[str, Answer] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, genre: Genre, puzzle: Any, deadline: Deadline) -> Answer:
        code = genre.format_code(puzzle)
        with self._lock:
            if code in self._known:
                self._known.move_to_end(code)
                return self._known[code]
        record = self.bank.find(code) if self.bank is not None else None
        answer = _answer_of(record) if record is not None else _count(genre, puzzle, deadline)
        if answer.verdict != Verdict.TIMEOUT:
            with self._lock:
                self._known[code] = answer
                while len(self._known) > self._size:
                    self._known.popitem(last=False)
        return answer


def _answer_of(record: Record) -> Answer:
    return Answer(record.verdict, record.solution, record.nodes, record.elapsed_s, record.engine)


def _count(genre: Genre, puzzle: Any, deadline: Deadline) -> Answer:
    outcome = genre.count(puzzle, 2, deadline)
    solution = outcome.solutions[0] if outcome.verdict is Verdict.UNIQUE else None
    return Answer(
        str(outcome.verdict), solution, outcome.nodes, round(outcome.elapsed, 6), ENGINE_VERSION
    )


# --- what the player sees ------------------------------------------------------------------


def catalog() -> list[dict[str, Any]]:
    """Every genre as the player offers it: title, lessons, sizes, difficulties."""
    return [
        {
            "name": genre.name,
            "title": genre.title,
            "lessons": list(genre.lessons),
            "sizes": [f"{w}x{h}" for w, h in offered_sizes(genre)],
            "difficulties": list(genre.difficulties),
            "default_difficulty": default_difficulty(genre),
            "rungs": list(genre.rungs),
        }
        for _, genre in sorted(registry.genres().items())
    ]


def view(
    genre: Genre,
    puzzle: Any,
    origin: str,
    record: Record | None = None,
    answer: Answer | None = None,
) -> dict[str, Any]:
    """A puzzle as the player gets it: its code, its data (what to draw), its provenance
    and verification. Never its solution."""
    data = {k: v for k, v in genre.to_json(puzzle).items() if k not in ("id", "genre")}
    verification = (
        record.verification()
        if record is not None
        else answer.verification()
        if answer is not None
        else None
    )
    return {
        "code": genre.format_code(puzzle),
        "genre": genre.name,
        "title": genre.title,
        "width": puzzle.width,
        "height": puzzle.height,
        "data": data,
        "url": _url(genre, puzzle),
        "origin": origin,
        "difficulty": record.difficulty if record is not None else None,
        "seed": record.seed if record is not None else None,
        "generator": record.generator if record is not None else None,
        "metrics": dict(record.metrics) if record is not None else None,
        "verification": verification,
        "engine": ENGINE_VERSION,
    }


def _url(genre: Genre, puzzle: Any) -> str | None:
    try:
        return genre.format_url(puzzle)
    except GridproofError:  # a variant puzz.link cannot express
        return None


# --- check and hint ------------------------------------------------------------------------


def mistakes(marks: Marks, solution: int) -> int:
    """The mask of marks that contradict `solution`: shaded cells that are empty in it, and
    cells marked empty that are shaded in it."""
    return marks.shaded & ~solution | marks.empty & solution


def check(
    genre: Genre, puzzle: Any, marks: Marks, answer: Answer, reveal: bool = False
) -> dict[str, Any]:
    """How many marks contradict the solution (which, only if `reveal`), and whether the
    shaded cells already satisfy every rule (`solved`, by the validator)."""
    solved = not genre.validate(puzzle, marks.shaded)
    if answer.solution is None:
        return {
            "solved": solved,
            "mistakes": None,
            "cells": None,
            "text": _not_unique(answer),
            "verdict": answer.verdict,
        }
    wrong = mistakes(marks, answer.solution)
    count = wrong.bit_count()
    return {
        "solved": solved,
        "mistakes": count,
        "cells": list(bits(wrong)) if reveal else None,
        "text": _mistakes_text(count, puzzle.width, wrong if reveal else 0),
        "verdict": answer.verdict,
    }


def hint(
    genre: Genre,
    puzzle: Any,
    marks: Marks,
    answer: Answer,
    deadline: Deadline,
    reveal: bool = False,
) -> dict[str, Any]:
    """The next thing to do: say so first if some marks are wrong (how many; which only if
    `reveal`); else the next deduction of the genre's whole ladder from the marks, naming
    its rule and the cells it looks at; if the ladder has none, one cell of the solution."""
    if answer.solution is not None:
        wrong = mistakes(marks, answer.solution)
        if wrong:
            count = wrong.bit_count()
            return _hint(
                "mistakes",
                _mistakes_text(count, puzzle.width, wrong if reveal else 0)
                + ("" if reveal else " Undo them, or press Check and Show to find them."),
                mistakes=count,
                cells=list(bits(wrong)) if reveal else [],
            )
    if not genre.validate(puzzle, marks.shaded):
        return _hint("solved", "Every rule is satisfied: the puzzle is solved.")
    progress = genre.solve(
        puzzle, genre.rungs[-1], deadline, marks.shaded, marks.empty, max_steps=1
    )
    if progress.steps:
        step = progress.steps[0]
        shaded, empty = step.shaded & ~marks.shaded, step.empty & ~marks.empty
        return _hint(
            "step",
            step.text,
            rule=step.rule,
            title=rule_title(step.rule),
            cells=sorted(set(step.cells) | set(bits(shaded | empty))),
            regions=list(step.regions),
            shaded=list(bits(shaded)),
            empty=list(bits(empty)),
        )
    if progress.contradiction is not None:
        return _hint("contradiction", f"Your marks cannot be completed: {progress.contradiction}")
    if progress.timed_out:
        return _hint("timeout", "No deduction found in time; try again or take a smaller step.")
    return _reveal_one(puzzle, marks, answer)


def _reveal_one(puzzle: Any, marks: Marks, answer: Answer) -> dict[str, Any]:
    """The fallback hint when no rule applies: one undecided cell of the solution."""
    if answer.solution is None:
        return _hint("stuck", "No rule applies to these marks. " + _not_unique(answer))
    open_shaded = answer.solution & ~marks.shaded
    if not open_shaded:
        return _hint("stuck", "Every shaded cell is in place; the rest are empty.")
    cell = next(bits(open_shaded))
    return _hint(
        "reveal",
        f"No rule of the ladder applies here; the solution shades {cell_name(cell, puzzle.width)}.",
        rule="reveal",
        title=rule_title("reveal"),
        cells=[cell],
        shaded=[cell],
    )


def _hint(status: str, text: str, **more: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "status": status,
        "text": text,
        "rule": None,
        "title": None,
        "cells": [],
        "regions": [],
        "shaded": [],
        "empty": [],
        "mistakes": 0,
    }
    body.update(more)
    return body


def rule_title(rule: str) -> str:
    """A rule's name in words: `domino-complete` is "Domino complete"."""
    words = rule.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else "Deduction"


def _mistakes_text(count: int, width: int, shown: int) -> str:
    if count == 0:
        return "No mistakes so far."
    noun = "mark contradicts" if count == 1 else "marks contradict"
    where = ": " + ", ".join(cell_name(cell, width) for cell in bits(shown)) if shown else "."
    return f"{count} {noun} the solution{where}"


def _not_unique(answer: Answer) -> str:
    if answer.verdict == Verdict.TIMEOUT:
        return "The solution could not be counted in time, so marks cannot be checked."
    if answer.verdict == Verdict.NONE:
        return "This puzzle has no solution, so marks cannot be checked."
    return "This puzzle has more than one solution, so marks cannot be checked."
