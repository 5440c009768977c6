"""The public library API: one explicit `__all__`, its doctests, and a light import."""

from __future__ import annotations

import doctest
import json
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
        if not name.startswith("_") and not isinstance(value, ModuleType)
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
