"""The workshop: verdicts that explain themselves, and repairs the SAT oracle confirms.

The ambiguous boards are the project's own: generated boards with one deterministic
edit that leaves two or three solutions. The flawed originals of the third-party corpus
(labelled `multiple`) are repaired too where the corpus is present.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from gridproof import service
from gridproof.core import registry
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.grid import bits
from gridproof.core.outcome import Verdict
from gridproof.genres.nonogram.model import clues_of
from gridproof.service import Loaded, workshop
from tests.conftest import CORPUS_DIR

GENRES = sorted(registry.genres())
"""Every registered genre: the workshop repairs each the same way (no hand-kept list)."""
DEADLINE_S = 60.0


def oracle(genre: Genre[Any], puzzle: Any) -> Verdict:
    """The verdict of the genre's first oracle that runs here and takes a board this size
    (`Genre.oracles`: the SAT counter where python-sat is installed)."""
    cells = puzzle.width * puzzle.height
    usable = [
        each
        for each in genre.oracles
        if (each.requires is None or importlib.util.find_spec(each.requires) is not None)
        and (each.max_cells is None or cells <= each.max_cells)
    ]
    assert usable, f"no oracle of {genre.name} runs here at {cells} cells"
    return usable[0].count(puzzle, 2).verdict


def _neighbours(genre: Genre[Any], puzzle: Any, solution: int) -> Iterator[Any]:
    """Boards an edit away from a unique one: a Nonogram's picture with one or two pixels
    flipped, else the genre's own edits."""
    if genre.from_picture is not None:
        cells = puzzle.width * puzzle.height
        for flips in ((1 << a) | (1 << b) for a in range(cells) for b in range(a, cells)):
            yield genre.from_picture(puzzle.width, puzzle.height, solution ^ flips)
        return
    assert genre.edits is not None
    for edit in genre.edits(puzzle, None, None, 0):
        yield edit.puzzle


@cache
def ambiguous(name: str, side: int, seed: int) -> Loaded:
    """A board with two or three solutions, one edit from a generated unique board."""
    board = service.generate(name, side, side, seed, deadline=DEADLINE_S)
    genre = board.genre
    for puzzle in _neighbours(genre, board.puzzle, board.solution):
        outcome = genre.count(puzzle, 4, Deadline(10))
        if outcome.verdict is Verdict.MULTIPLE and len(outcome.solutions) < 4:
            return Loaded(f"{name}-{side}-{seed}", genre, puzzle)
    raise AssertionError(f"no ambiguous neighbour of {board.code}")


CASES = [(name, side, seed) for name in GENRES for side, seed in ((6, 1), (7, 2), (8, 3))]


@pytest.mark.parametrize(("name", "side", "seed"), CASES)
def test_a_multiple_board_shows_two_solutions_and_where_they_differ(
    name: str, side: int, seed: int
) -> None:
    loaded = ambiguous(name, side, seed)
    report = workshop.examine(loaded, None, Deadline(DEADLINE_S))
    assert report.outcome is Verdict.MULTIPLE
    first, second = report.solutions
    assert first != second
    for solution in report.solutions:
        assert loaded.genre.validate(loaded.puzzle, solution) == []
    assert report.differ == first ^ second
    shown = report.to_json()
    assert shown["differ"] == list(bits(first ^ second))
    assert len(shown["solutions"]) == 2


@pytest.mark.parametrize(("name", "side", "seed"), CASES)
def test_fix_offers_an_edit_the_sat_oracle_counts_unique(name: str, side: int, seed: int) -> None:
    loaded = ambiguous(name, side, seed)
    repairs = workshop.suggest(loaded, None, Deadline(DEADLINE_S))
    assert repairs.complete
    unique = [s for s in repairs.edits if s.outcome is Verdict.UNIQUE]
    assert unique, [s.edit.text for s in repairs.edits]
    for s in unique:
        assert oracle(loaded.genre, s.edit.puzzle) is Verdict.UNIQUE, s.edit.text
        assert s.grade in loaded.genre.difficulties
    assert repairs.edits[0].outcome is Verdict.UNIQUE  # unique ones are listed first


@pytest.mark.parametrize(("name", "side", "seed"), CASES)
def test_every_suggested_edit_keeps_the_pinned_solution(name: str, side: int, seed: int) -> None:
    loaded = ambiguous(name, side, seed)
    report = workshop.examine(loaded, None, Deadline(DEADLINE_S))
    rival = report.solutions[1]  # pin the second: the edits must keep that one
    repairs = workshop.suggest(loaded, rival, Deadline(DEADLINE_S), limit=20)
    assert repairs.report.solutions[0] == rival
    assert repairs.edits
    for s in repairs.edits:
        assert s.edit.keep is not None
        assert loaded.genre.validate(s.edit.puzzle, s.edit.keep) == [], s.edit.text
        if s.outcome is Verdict.UNIQUE:
            (solution,) = loaded.genre.count(s.edit.puzzle, 2, Deadline(10)).solutions
            assert solution == s.edit.keep


@pytest.mark.parametrize(("name", "side", "seed"), CASES)
def test_make_unique_ends_at_a_board_the_sat_oracle_counts_unique(
    name: str, side: int, seed: int
) -> None:
    loaded = ambiguous(name, side, seed)
    made = workshop.make_unique(loaded, None, Deadline(DEADLINE_S))
    assert made.complete
    assert made.report.outcome is Verdict.UNIQUE
    assert 1 <= len(made.applied) <= 3
    assert oracle(loaded.genre, made.report.loaded.puzzle) is Verdict.UNIQUE
    assert made.keep == made.report.solutions[0]


def test_suggestions_do_not_depend_on_how_long_the_caller_waits() -> None:
    loaded = ambiguous("norinori", 8, 3)
    short = workshop.suggest(loaded, None, Deadline(DEADLINE_S))
    again = workshop.suggest(loaded, None, Deadline(DEADLINE_S * 10))
    assert [s.to_json() for s in short.edits] == [s.to_json() for s in again.edits]


def test_a_suggestion_list_cut_short_by_the_deadline_says_so() -> None:
    loaded = ambiguous("nonogram", 8, 3)
    deadline = Deadline(DEADLINE_S)
    deadline.cancel()
    repairs = workshop.suggest(loaded, None, deadline)
    assert not repairs.complete


# --- boards without a solution -------------------------------------------------------------


NO_SOLUTION = {
    "norinori": {  # the corner region of one cell cannot hold two shaded cells
        "genre": "norinori",
        "width": 4,
        "height": 4,
        "regions": [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 4]],
    },
    "nondango": {  # region 2 (top right) has no circle
        "genre": "nondango",
        "width": 4,
        "height": 4,
        "regions": [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]],
        "circles": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 1]],
    },
    "nonogram": {  # column 1 needs two cells apart in a line of two
        "genre": "nonogram",
        "rows": [[1], [1]],
        "cols": [[1, 1], []],
    },
}


def _load(obj: dict[str, Any]) -> Loaded:
    return service.load(json.dumps(obj), files=False)[0]


@pytest.mark.parametrize("name", ["norinori", "nondango"])
def test_a_board_without_a_solution_names_what_contradicts_with_its_cells(name: str) -> None:
    loaded = _load(NO_SOLUTION[name])
    report = workshop.examine(loaded, None, Deadline(DEADLINE_S))
    assert report.outcome is Verdict.NONE
    assert report.reason is not None
    assert report.reason.cells
    assert "region" in report.reason.text
    assert report.reason.text in report.text


def test_a_nonogram_whose_clues_cannot_fit_is_refused_with_the_reason() -> None:
    with pytest.raises(service.CodeError, match="column 1"):
        _load(NO_SOLUTION["nonogram"])


@pytest.mark.parametrize("name", ["norinori", "nondango"])
def test_edits_give_a_board_without_a_solution_one_back(name: str) -> None:
    loaded = _load(NO_SOLUTION[name])
    repairs = workshop.suggest(loaded, None, Deadline(DEADLINE_S))
    assert repairs.edits
    for s in repairs.edits:
        assert s.outcome in (Verdict.UNIQUE, Verdict.MULTIPLE)
        assert oracle(loaded.genre, s.edit.puzzle) is s.outcome
    made = workshop.make_unique(loaded, None, Deadline(DEADLINE_S))
    assert made.report.outcome is Verdict.UNIQUE
    assert oracle(loaded.genre, made.report.loaded.puzzle) is Verdict.UNIQUE


def test_a_nonogram_without_a_solution_is_reworded_with_the_same_totals() -> None:
    rows, cols = [[4], [1], [1, 1], [1, 1]], [[3], [1], [1], [4]]
    loaded = _load({"genre": "nonogram", "rows": rows, "cols": cols})
    assert loaded.genre.count(loaded.puzzle, 2, Deadline(5)).verdict is Verdict.NONE
    repairs = workshop.suggest(loaded, None, Deadline(DEADLINE_S))
    assert repairs.report.outcome is Verdict.NONE
    assert repairs.edits
    for s in repairs.edits:
        assert "→" in s.edit.text
        assert oracle(loaded.genre, s.edit.puzzle) is s.outcome
    assert repairs.edits[0].edit.text == "column 1: clue 3 → 1 2"


# --- unique boards -----------------------------------------------------------------------


@pytest.mark.parametrize("name", GENRES)
def test_a_unique_board_has_its_grade_score_and_solve_path(name: str) -> None:
    board = service.generate(name, 6, 6, 4, deadline=DEADLINE_S)
    report = workshop.examine(board.loaded, None, Deadline(DEADLINE_S))
    assert report.outcome is Verdict.UNIQUE
    assert report.solutions == (board.solution,)
    assert report.grade == board.difficulty
    assert report.score == board.score
    shaded = empty = 0
    for step in report.path:
        shaded |= step.shaded
        empty |= step.empty
    assert shaded == board.solution  # the path shades the solution, nothing else
    assert not empty & board.solution
    titles = {step["title"] for step in report.to_json()["path"]}
    assert titles <= {rule.title for rule in board.genre.ladder.rules}
    assert workshop.suggest(board.loaded, None, Deadline(DEADLINE_S)).edits == ()


def test_a_pinned_grid_that_is_not_a_solution_is_named() -> None:
    loaded = ambiguous("norinori", 6, 1)
    report = workshop.examine(loaded, 0, Deadline(DEADLINE_S))
    assert report.keep_problem is not None
    assert "region" in report.keep_problem
    assert report.outcome is Verdict.MULTIPLE


# --- the flawed originals ----------------------------------------------------------------


def _corpus_multiples() -> list[Any]:
    """The smallest flawed originals of each corpus file (a skipped case without it)."""
    folder = CORPUS_DIR
    if not folder.is_dir():
        reason = "../shared/corpus is absent: the third-party corpus is not shipped"
        return [pytest.param("", {}, marks=pytest.mark.skip(reason=reason))]
    out: list[Any] = []
    for file, most in (("janko-norinori", 9), ("janko-nondango", 9), ("hard-nonograms", 3)):
        doc = json.loads((folder / f"{file}.json").read_text(encoding="utf-8"))
        flawed = [p for p in doc["puzzles"] if p.get("expected") == "multiple"]
        flawed.sort(key=lambda p: p["width"] * p["height"])
        out += [(file, {"genre": doc.get("genre", p.get("genre")), **p}) for p in flawed[:most]]
    return out


@pytest.mark.parametrize(
    ("file", "puzzle"),
    _corpus_multiples(),
    ids=lambda value: str(value.get("id", "")) if isinstance(value, dict) else str(value),
)
def test_the_corpus_flawed_originals_get_an_edit_the_oracle_counts_unique(
    file: str, puzzle: dict[str, Any]
) -> None:
    loaded = _load(puzzle)
    repairs = workshop.suggest(loaded, None, Deadline(DEADLINE_S))
    assert repairs.report.outcome is Verdict.MULTIPLE
    unique = [s for s in repairs.edits if s.outcome is Verdict.UNIQUE]
    assert unique, f"{file}: {[s.edit.text for s in repairs.edits]}"
    assert oracle(loaded.genre, unique[0].edit.puzzle) is Verdict.UNIQUE


# --- pictures ------------------------------------------------------------------------------


def test_a_picture_becomes_the_nonogram_of_its_dark_cells(tmp_path: Any) -> None:
    image = pytest.importorskip("PIL.Image")
    drawing = pytest.importorskip("PIL.ImageDraw")
    picture = image.new("RGBA", (40, 30), (255, 255, 255, 0))  # transparent reads as white
    pen = drawing.Draw(picture)
    pen.rectangle((0, 0, 9, 29), fill=(0, 0, 0, 255))  # column 1 of 4, all rows
    pen.rectangle((20, 10, 39, 19), fill=(40, 40, 40, 255))  # row 2, columns 3-4
    pen.rectangle((30, 20, 39, 29), fill=(200, 200, 200, 255))  # light grey: not shaded
    path = tmp_path / "drawn.png"
    picture.save(path)
    from gridproof.output.picture import read_picture

    shaded = read_picture(str(path), 4, 3)
    puzzle = clues_of(4, 3, shaded)
    assert puzzle.rows == ((1,), (1, 2), (1,))
    assert puzzle.cols == ((3,), (), (1,), (1,))
    assert read_picture(str(path), 4, 3, threshold=220) != shaded  # the grey cell joins


def test_the_contract_lists_edits_for_every_genre() -> None:
    for name in GENRES:
        assert registry.genre(name).edits is not None
