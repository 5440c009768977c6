"""The floor plan stays true: `docs/architecture.md`'s "Where things are" table names every
top-level module and package under `src/gridproof/` (every genre, and the player's
scripts) and only paths that exist; the README, the docs and the docstrings point only at
files inside the repository."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gridproof"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
HEADING = "## Where things are"
_ROW = re.compile(r"\|\s*`([^`]+)`\s*\|")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_DOC = re.compile(r"\bdocs/[\w./-]*\w\.md\b")
OUTSIDE = ("shared/STYLE.md", "shared/design/")
"""Notes that live beside the repository, not in it: nothing the project ships points there."""


def table_paths(markdown: str) -> list[str]:
    """The paths the first column of the table under `HEADING` names (in backticks)."""
    _, found, rest = markdown.partition(HEADING + "\n")
    assert found, f"no {HEADING!r} section"
    section = rest.split("\n## ", 1)[0]
    return [match[1] for line in section.splitlines() if (match := _ROW.match(line))]


def _has_python(folder: Path) -> bool:
    return any(folder.glob("*.py"))


ENGINE = ("core", "genres")
"""The engine's packages: the table names them and each genre, not their modules (a genre's
files are the same in every genre; docs/architecture.md's contract section lists them)."""


def must_be_named(package: Path) -> set[str]:
    """What the table must name: every top-level module and package (a folder holding
    Python files), every module and subpackage of the packages above the engine (the
    middle layer, the CLI and the web), every genre's package, and the browser's scripts
    as one folder."""
    needed = {path.name for path in package.glob("*.py")}
    needed |= {f"{path.name}/" for path in package.iterdir() if path.is_dir() and _has_python(path)}
    for folder in sorted(package.iterdir()):
        if folder.name in ENGINE or not (folder.is_dir() and _has_python(folder)):
            continue
        for path in folder.rglob("*.py"):
            if path.name != "__init__.py":
                needed.add(str(path.relative_to(package)))
        needed |= {
            f"{sub.relative_to(package)}/"
            for sub in folder.rglob("*")
            if sub.is_dir() and _has_python(sub)
        }
    genres = package / "genres"
    if genres.is_dir():
        needed |= {f"genres/{path.name}/" for path in genres.iterdir() if _has_python(path)}
    if (package / "web" / "static" / "js").is_dir():
        needed.add("web/static/js/")
    return needed


def wrong_rows(package: Path, named: Iterable[str]) -> tuple[list[str], list[str]]:
    """(paths named that do not exist, paths that must be named and are not)."""
    named = list(named)
    absent = [path for path in named if not (package / path).exists()]
    unnamed = sorted(must_be_named(package) - set(named))
    return absent, unnamed


def test_the_checker_finds_stale_and_missing_rows(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    made = ("__init__.py", "a.py", "core/x.py", "genres/__init__.py", "genres/g/m.py")
    for path in (*made, "mid/__init__.py", "mid/m.py", "mid/sub/n.py"):
        (package / path).parent.mkdir(parents=True, exist_ok=True)
        (package / path).write_text("", encoding="utf-8")
    (package / "web" / "static" / "js").mkdir(parents=True)
    (package / "data").mkdir()  # no Python inside: not a package
    text = f"# t\n\n{HEADING}\n\n| path | what |\n|---|---|\n| `a.py` | a |\n| `gone.py` | g |\n"
    text += "| `core/` | c |\n\n## Next\n\n| `genres/` | not in the section |\n"
    assert table_paths(text) == ["a.py", "gone.py", "core/"]
    absent, unnamed = wrong_rows(package, table_paths(text))
    assert absent == ["gone.py"]
    assert unnamed == [
        "__init__.py",
        "genres/",
        "genres/g/",
        "mid/",
        "mid/m.py",
        "mid/sub/",
        "mid/sub/n.py",
        "web/static/js/",
    ]


def test_the_table_is_the_package() -> None:
    named = table_paths(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(named) == len(set(named)), "a path is named twice"
    absent, unnamed = wrong_rows(PACKAGE, named)
    assert absent == [], "the table names paths that do not exist under src/gridproof/"
    assert unnamed == [], "docs/architecture.md's table does not name these"


def _texts() -> list[tuple[Path, str]]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    files += sorted(PACKAGE.rglob("*.py"))
    return [(path, path.read_text(encoding="utf-8")) for path in files]


def test_docs_point_only_at_files_in_the_repository() -> None:
    """Every `docs/....md` mentioned (README, docs, docstrings) exists; every relative
    Markdown link resolves to a file inside the repository; nothing points at the notes
    kept beside it."""
    wrong = []
    for path, text in _texts():
        shown = str(path.relative_to(ROOT))
        wrong += [(shown, doc) for doc in _DOC.findall(text) if not (ROOT / doc).is_file()]
        wrong += [(shown, note) for note in OUTSIDE if note in text]
        if path.suffix != ".md":
            continue
        for target in _LINK.findall(text):
            if re.match(r"[a-z]+:|#", target):
                continue
            resolved = (path.parent / target.split("#", 1)[0]).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                wrong.append((shown, target))
    assert wrong == []
