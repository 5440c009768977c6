"""The genre registry (`core.registry`): genres register themselves, core names none."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Iterator

import pytest

from gridproof.core import registry
from gridproof.core.contract import Genre
from gridproof.core.errors import CodeError
from tests.toygenre import GENRE as LIGHTS
from tests.toygenre import Lights, registered


@pytest.fixture
def lights() -> Iterator[Genre[Lights]]:
    with registered() as genre:
        yield genre


def test_register_returns_the_genre_and_finds_it_by_name() -> None:
    other = dataclasses.replace(LIGHTS, name="lights-two")
    try:
        assert registry.register(other) is other
        assert registry.genre("lights-two") is other
        assert registry.genres()["lights-two"] is other
    finally:
        registry.unregister("lights-two")
    assert "lights-two" not in registry.genres()


def test_a_name_registered_twice_is_refused(lights: Genre[Lights]) -> None:
    twin = dataclasses.replace(lights, title="Another Lights")
    with pytest.raises(ValueError, match="'lights' is registered twice"):
        registry.register(twin)
    assert registry.genre("lights") is lights


def test_a_built_in_genre_cannot_be_replaced() -> None:
    norinori = registry.genre("norinori")
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(dataclasses.replace(LIGHTS, name="norinori"))
    assert registry.genre("norinori") is norinori


def test_an_unknown_genre_is_a_code_error_naming_the_known_ones(lights: Genre[Lights]) -> None:
    with pytest.raises(CodeError) as raised:
        registry.genre("sudoku")
    message = str(raised.value)
    assert message.startswith("unknown genre 'sudoku'; known: ")
    known = message.split("known: ", 1)[1].split(", ")
    assert known == sorted(registry.genres())
    assert "lights" in known


def test_unregister_removes_and_forgets_unknown_names(lights: Genre[Lights]) -> None:
    registry.unregister("lights")
    assert "lights" not in registry.genres()
    with pytest.raises(CodeError, match="unknown genre 'lights'"):
        registry.genre("lights")
    registry.unregister("lights")  # a second time: nothing to remove, no error
    registry.unregister("never-registered")


def test_genres_is_a_copy() -> None:
    listed = registry.genres()
    listed.pop("norinori")
    listed["fake"] = LIGHTS
    assert "norinori" in registry.genres()
    assert "fake" not in registry.genres()


def test_the_registry_holds_each_folder_of_gridproof_genres() -> None:
    built_in = importlib.import_module("gridproof.genres")  # `gridproof.genres` is a function
    folders = {found.name for found in pkgutil.iter_modules(built_in.__path__) if found.ispkg}
    assert set(registry.names()) == folders
    assert set(registry.genres()) == folders
    for name, genre in registry.genres().items():
        assert genre.name == name


def test_a_genre_is_imported_when_first_asked_for() -> None:
    code = (
        "import sys, gridproof; from gridproof.core import registry; "
        "g = 'gridproof.genres.'; "
        "before = sorted(m for m in sys.modules if m.startswith(g)); "
        "names = gridproof.genre_names(); registry.genre('norinori'); "
        "after = sorted({m.split('.')[2] for m in sys.modules if m.startswith(g)}); "
        "print(before, len(names) >= 3, after)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "True", "['norinori']"]


def test_a_declared_module_that_registers_nothing_is_a_clear_error() -> None:
    registry.declare("phantom", "tests.core")  # a real module that registers no genre
    try:
        assert "phantom" in registry.names()
        with pytest.raises(RuntimeError, match="declared to register the genre 'phantom'"):
            registry.genre("phantom")
    finally:
        registry.unregister("phantom")
    assert "phantom" not in registry.names()
