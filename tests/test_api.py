"""The public library API: one explicit `__all__`, its doctests, and a light import."""

from __future__ import annotations

import doctest
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import gridproof as gp
from tests.examples import REGIONS, SOLUTION, URL

API = {
    # the calls
    "load",
    "load_all",
    "count",
    "solve",
    "hint",
    "check",
    "validate",
    "generate",
    "convert",
    "genre",
    "genre_names",
    "fix",
    "make_unique",
    "render",
    # the values they take and return
    "Loaded",
    "Counted",
    "Solved",
    "Board",
    "Hint",
    "HintStatus",
    "Checked",
    "Marks",
    "Repairs",
    "Report",
    "Suggestion",
    "Made",
    "Step",
    "Violation",
    "Verdict",
    "Health",
    "Cell",
    "Genre",
    "Deadline",
    # the exception tree
    "GridproofError",
    "CodeError",
    "GenerationError",
    # versions
    "__version__",
    "ENGINE_VERSION",
}


def test_all_is_exactly_the_documented_api() -> None:
    assert len(gp.__all__) == len(set(gp.__all__))
    assert set(gp.__all__) == API
    assert gp.__doc__ is not None
    for name in gp.__all__:
        assert getattr(gp, name) is not None, name
        assert f"`{name}`" in gp.__doc__, f"{name} is not in the package docstring"


def test_nothing_public_is_left_out_of_all() -> None:
    public = {
        name
        for name, value in vars(gp).items()
        if not name.startswith("_")
        and not isinstance(value, ModuleType)
        and type(value).__module__ != "__future__"  # `from __future__ import annotations`
    }
    assert public <= set(gp.__all__), public - set(gp.__all__)


def test_the_exception_tree() -> None:
    assert issubclass(gp.GridproofError, ValueError)
    assert issubclass(gp.CodeError, gp.GridproofError)
    assert issubclass(gp.GenerationError, gp.GridproofError)


def test_the_doctests_pass() -> None:
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    failed, attempted = doctest.testmod(gp, optionflags=flags, raise_on_error=False)
    assert failed == 0
    assert attempted >= 30


def test_importing_gridproof_loads_no_web_stack() -> None:
    code = (
        "import sys, gridproof; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'fastapi', 'uvicorn', 'starlette', 'pydantic'}), "
        "'gridproof.web' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "False"]


def test_importing_gridproof_declares_the_genres_and_loads_what_a_call_needs_then() -> None:
    code = (
        "import sys, gridproof as gp; "
        "print(gp.genre_names(), sorted(m for m in sys.modules if m in "
        "{'gridproof.service', 'gridproof.core.contract', 'gridproof.core.ladder', "
        "'dataclasses'})); "
        "p = gp.load('norinori.1.5x5.DO5bvBI'); "
        "print(gp.count(p).verdict, isinstance(p, gp.Loaded), 'gridproof.service' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    names = "('nondango', 'nonogram', 'norinori', 'starbattle')"
    assert out.stdout.splitlines() == [f"{names} []", "unique True True"]


def test_the_genres_are_declared_from_a_zip_on_the_path_too(tmp_path: Path) -> None:
    package = Path(gp.__file__).parent
    archive = shutil.make_archive(str(tmp_path / "gridproof"), "zip", package.parent, "gridproof")
    code = f"import sys; sys.path.insert(0, {str(archive)!r}); import gridproof as gp; "
    code += "print(gp.__file__.startswith(sys.path[0]), gp.genre_names())"
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    assert out.stdout.split(maxsplit=1) == [
        "True",
        "('nondango', 'nonogram', 'norinori', 'starbattle')\n",
    ], out.stderr


def test_load_takes_one_puzzle_and_load_all_every_one(tmp_path: Path) -> None:
    corpus = {
        "genre": "norinori",
        "puzzles": [{"id": n, "width": 5, "height": 5, "regions": REGIONS} for n in "ab"],
    }
    path = tmp_path / "two.json"
    path.write_text(json.dumps(corpus), encoding="utf-8")
    assert [p.id for p in gp.load_all(str(path))] == ["a", "b"]
    with pytest.raises(gp.CodeError, match="holds 2 puzzles, not one; load_all reads all"):
        gp.load(str(path))
    assert gp.load(URL).puzzle == gp.load_all(str(path))[0].puzzle


def test_the_calls_return_values_with_their_json() -> None:
    p = gp.load(URL)
    counted = gp.count(p, deadline=gp.Deadline(30))
    assert counted.to_json()["solutions"] == [SOLUTION]
    assert gp.solve(p, "local").to_json()["rules"] == "local"
    marks = gp.Marks(shaded=0b11, empty=0)
    assert gp.hint(p, marks).to_json()["status"] == "step"
    assert gp.check(p, marks).to_json() == {
        "solved": False,
        "mistakes": 0,
        "cells": None,
        "text": "No mistakes so far.",
        "verdict": "unique",
    }


def test_generate_passes_a_genres_own_options() -> None:
    with_options = [
        genre for genre in (gp.genre(name) for name in gp.genre_names()) if genre.options
    ]
    if not with_options:
        pytest.skip("no genre with options is registered")
    genre = with_options[0]
    option = genre.options[0]
    value = option.default if option.choices is None else option.choices[-1]
    size, _ = genre.sizes
    board = gp.generate(genre.name, size=size, seed=3, **{option.name: value})
    assert gp.count(board.loaded).verdict is gp.Verdict.UNIQUE
    with pytest.raises(gp.CodeError, match="has no option 'colour'"):
        gp.generate(genre.name, size=size, seed=3, colour="red")


def test_every_result_names_cells_by_row_and_column() -> None:
    p = gp.load(URL)
    step = gp.solve(p).steps[0]
    assert [str(cell) for cell in step.cells] == ["r1c1", "r1c2"]
    assert all(isinstance(cell, gp.Cell) for cell in step.cells)
    found = gp.hint(p, ["....."] * 5)
    assert [cell.rc for cell in found.shaded] == [(0, 0), (0, 1)]
    assert found.to_json()["shaded"] == [0, 1]  # the JSON shape keeps the indices
    assert json.dumps(found.to_json()["cells"]) == "[0, 1]"
    [broken, *_] = gp.validate(p, ["##...", ".....", ".....", ".....", "....."])
    assert all(isinstance(cell, gp.Cell) for cell in broken.cells)
    checked = gp.check(p, ["....#", ".....", ".....", ".....", "....."], reveal=True)
    assert checked.cells is not None
    assert [str(c) for c in checked.cells] == ["r1c5"]
    ambiguous = gp.fix(gp.load("norinori.1.8x8.kozG7Ekdy34t6zR_LVA")).report
    assert [str(cell) for cell in ambiguous.differing] == ["r7c5", "r8c6"]
    assert len(ambiguous.grids) == 2
    assert all(len(rows) == 8 for rows in ambiguous.grids)
    assert not gp.validate(ambiguous.loaded, ambiguous.grids[1])


def test_a_cell_survives_pickling_as_itself() -> None:
    import pickle

    cell = gp.Cell(13, 5)
    again = pickle.loads(pickle.dumps(cell))
    assert (again, again.rc, repr(again)) == (13, (2, 3), "r3c4")


@pytest.mark.parametrize("name", gp.genre_names())
def test_a_loaded_puzzle_shows_itself_in_a_notebook(name: str) -> None:
    board = gp.generate(name, size=(6, 6), seed=3)
    loaded = board.loaded
    svg = loaded._repr_svg_()
    assert svg is not None
    assert svg.startswith("<svg")
    assert board._repr_svg_() == svg
    html = loaded._repr_html_()
    assert svg in html
    assert "<pre>" in html
    picture = loaded.text()
    assert len(picture.splitlines()) >= 6
    assert loaded.text(solution=True) != picture
    again = gp.load(json.dumps(loaded.to_json()))
    assert (again.code, again.solution, again.expected) == (loaded.code, board.solution, "unique")
    assert gp.load(loaded.code).text() == picture
    with pytest.raises(gp.CodeError, match="records no solution"):
        gp.load(loaded.code).text(solution=True)


def test_a_board_too_large_to_draw_shows_its_text_picture() -> None:
    side = 201  # one shaded cell per row and column: the diagonal
    lines = [[1]] * side
    wide = gp.load(json.dumps({"genre": "nonogram", "rows": lines, "cols": lines}))
    assert wide._repr_svg_() is None
    assert wide._repr_html_() == "<pre>" + wide.text() + "</pre>"


def test_a_hint_takes_the_players_recent_cells() -> None:
    """`recent` (cells or indexes, most recent first) picks, of the deductions open, the
    one nearest them, as the player's hints do; a cell off the board is a CodeError."""
    loaded = gp.load("norinori.1.5x5.DO5bvBI")
    blank = ["....."] * 5
    corner = gp.hint(loaded, blank, recent=[gp.Cell(24, 5)])
    assert corner.status is gp.HintStatus.STEP
    assert min(cell.row + cell.col for cell in (*corner.shaded, *corner.empty)) > 0
    far = gp.hint(loaded, blank)
    assert {*far.shaded, *far.empty} != {*corner.shaded, *corner.empty}
    with pytest.raises(gp.CodeError, match=r"recent: entry 1 \(25\) is not a cell"):
        gp.hint(loaded, blank, recent=[3, 25])


def test_hint_after_hint_on_one_puzzle_counts_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`hint` and `check` remember a puzzle's answer: a notebook asking hint after hint
    pays the count once (as the player's server does); a count that ran out of time is
    not remembered."""
    from gridproof.service import play

    monkeypatch.setattr(play, "LIBRARY_ANSWERS", play.Answers(None, size=4))
    counted: list[str] = []
    original = play.counted_answer

    def spy(genre: gp.Genre, puzzle: object, deadline: gp.Deadline) -> play.Answer:
        counted.append(genre.format_code(puzzle))
        return original(genre, puzzle, deadline)

    monkeypatch.setattr(play, "counted_answer", spy)
    loaded = gp.load("norinori.1.5x5.DO5bvBI")
    blank = ["....."] * 5
    assert gp.hint(loaded, blank, deadline=gp.Deadline(0)).status is gp.HintStatus.TIMEOUT
    first = gp.hint(loaded, blank)
    assert gp.hint(loaded, blank) == first
    assert not gp.check(loaded, blank).mistakes
    assert counted == [loaded.code] * 2  # the timed-out count, then one that is kept
