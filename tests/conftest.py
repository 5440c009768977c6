"""Fixtures shared by the whole test tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridproof.core.contract import Genre

CORPUS_DIR = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The third-party puzzle corpus beside the repository (`../shared/corpus`)."""
    if not CORPUS_DIR.is_dir():
        pytest.skip(
            "../shared/corpus is absent: the third-party corpus is not shipped with the project"
        )
    return CORPUS_DIR


@pytest.fixture(scope="session")
def norinori() -> Genre:
    from gridproof.genres.norinori import GENRE

    return GENRE


@pytest.fixture(scope="session")
def code(norinori: Genre) -> str:
    """The project code of the example Norinori in `tests.examples`."""
    from gridproof.genres.norinori.model import make_puzzle
    from tests.examples import REGIONS

    return norinori.format_code(make_puzzle(REGIONS))
