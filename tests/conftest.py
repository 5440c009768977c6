"""Fixtures shared by the whole test tree, and the lanes it runs in.

Lanes are markers, set here from what a test uses, so a new test lands in the right lane
without saying so:
- `corpus`: reads the third-party corpus (the `corpus_dir` fixture or `CORPUS_DIR`);
- `browser`: drives Debian's chromium (the `browser` fixture, which `page` uses);
- `audit`, `wheel`, `cluster`: the deadline audit, the installed wheel, the Dask cluster
  (each module says so in its `pytestmark`);
- `slow`: a test that says it is long;
- one marker per registered genre (`pytest -m norinori`): the tests under
  `tests/genres/<genre>/` and every test whose id names the genre (a parametrised
  `[norinori]`, a corpus file `janko-norinori.json`, a test named for it).
`make check` runs everything outside the lanes `LANES` names (`-m "not (...)"`);
`make test` runs everything.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import gridproof.genres  # noqa: F401  (registers the genres the markers are named for)
from gridproof.core import registry
from gridproof.core.contract import Genre

CORPUS_DIR = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"

LANES = {
    "corpus": "reads the third-party corpus in ../shared/corpus",
    "browser": "drives Debian's chromium through Playwright",
    "audit": "the deadline audit: every user-facing call on boards made to hurt",
    "wheel": "builds the wheel and installs it in a fresh virtual environment",
    "cluster": "starts a real Dask scheduler and workers",
    "slow": "a long-running test (still part of make test)",
}
"""The lanes a test may be in, beside its genre's; `make check` leaves these out."""
GENRES_DIR = Path(__file__).resolve().parent / "genres"


def pytest_configure(config: pytest.Config) -> None:
    for lane, text in LANES.items():
        config.addinivalue_line("markers", f"{lane}: {text}")
    for name, genre in registry.genres().items():
        config.addinivalue_line("markers", f"{name}: everything about {genre.title}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    names = list(registry.genres())
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "browser" in fixtures:
            item.add_marker("browser")
        if "corpus_dir" in fixtures or _reads_corpus(item):
            item.add_marker("corpus")
        for name in _genres_of(item, names):
            item.add_marker(name)


def _reads_corpus(item: pytest.Item) -> bool:
    """Whether the test's own function names `CORPUS_DIR` (a module may import it)."""
    function = getattr(item, "function", None)
    if function is None:
        return False
    try:
        return "CORPUS_DIR" in inspect.getsource(function)
    except (OSError, TypeError):
        return False


def _genres_of(item: pytest.Item, names: list[str]) -> list[str]:
    path = Path(str(item.path))
    folder = path.parent.name if path.parent.parent == GENRES_DIR else None
    nodeid = item.nodeid.lower()
    return [name for name in names if name == folder or name in nodeid]


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
