"""The shape of the package, read off its source with `ast`: imports point one way
(core <- genres <- service <- cli, web), no import circle, and every rung and rule name
is spelled in one place, its genre's `rules.py`.

Imports inside `if TYPE_CHECKING:` are not imports (they never run); imports inside
functions are (they run when called).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from gridproof.core import registry
from tests.toygenre import GENRE as LIGHTS

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "gridproof"
TOY = ROOT / "tests" / "toygenre"


def module_name(path: Path, base: Path) -> str:
    """`gridproof.core.grid` for `src/gridproof/core/grid.py` (a package is its
    `__init__`)."""
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, skipping the bodies of `if TYPE_CHECKING:`."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))


def imports_of(source: str, module: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules among `known` that `module` imports: `from pkg import name` names the
    submodule `pkg.name` where there is one, else `pkg`; relative imports are resolved."""
    known = set(known)
    found: set[str] = set()

    def nearest(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    for node in _import_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                package = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        for target in targets:
            hit = nearest(target)
            if hit is not None and hit != module:
                found.add(hit)
    return found


def import_graph(base: Path, package: Path) -> dict[str, set[str]]:
    """Module -> the package modules it imports, for every module under `package`."""
    paths = {module_name(path, base): path for path in sorted(package.rglob("*.py"))}
    return {
        name: imports_of(path.read_text(encoding="utf-8"), name, path.stem == "__init__", paths)
        for name, path in paths.items()
    }


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import circles: each strongly connected part of more than one module (or a
    module importing itself), its modules sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1 or node in graph.get(node, ()):
                parts.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(parts)


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One closed walk through each import circle, from its first module back to it."""
    return [_walk(graph, part) for part in circles(graph)]


def _walk(graph: Mapping[str, Iterable[str]], part: list[str]) -> list[str]:
    """A closed walk from the first module of a circle back to it, inside the circle."""
    start, inside = part[0], set(part)
    paths = {start: [start]}
    todo = [start]
    for node in todo:
        for other in sorted(graph.get(node, ())):
            if other == start:
                return [*paths[node], start]
            if other in inside and other not in paths:
                paths[other] = [*paths[node], other]
                todo.append(other)
    raise AssertionError(f"{part} is not a circle")  # pragma: no cover


GRAPH = import_graph(SRC, PACKAGE)


def _layer(module: str) -> str:
    if module.startswith("gridproof.core"):
        return "core"
    if module.startswith("gridproof.genres"):
        return "genres"
    return "above"


# --- the walker itself ---------------------------------------------------------------------


def test_the_walker_reads_imports() -> None:
    known = {"pkg", "pkg.a", "pkg.b", "pkg.hidden", "pkg.secret", "pkg.sub", "pkg.sub.c"}
    known |= {"pkg.sub.d"}
    source = """
from __future__ import annotations
import typing
from typing import TYPE_CHECKING
from pkg import a, no_such_module
from . import d
from ..sub import c
if TYPE_CHECKING:
    from pkg import hidden
if typing.TYPE_CHECKING:
    import pkg.secret
else:
    import pkg.sub

def later() -> None:
    from pkg.b import thing
"""
    found = imports_of(source, "pkg.sub.c", False, known)
    assert found == {"pkg", "pkg.a", "pkg.b", "pkg.sub", "pkg.sub.d"}
    assert imports_of("from . import c", "pkg.sub", True, known) == {"pkg.sub.c"}
    assert imports_of("from .c import x", "pkg.sub.d", False, known) == {"pkg.sub.c"}
    assert imports_of("import os, pkg.sub.c", "pkg", True, known) == {"pkg.sub.c"}


def test_the_cycle_finder_reports_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert cycles(graph) == [["a", "b", "c", "a"], ["e", "e"]]
    assert circles(graph) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_holds_the_package() -> None:
    assert "gridproof.core.grid" in GRAPH
    assert "gridproof.genres.norinori.rules" in GRAPH
    assert "gridproof.core.ladder" in GRAPH["gridproof.genres.norinori.rules"]
    assert "gridproof.genres" in GRAPH["gridproof"]


# --- the layers ----------------------------------------------------------------------------


def test_core_imports_only_core() -> None:
    wrong = {
        module: sorted(other for other in imported if _layer(other) != "core")
        for module, imported in GRAPH.items()
        if _layer(module) == "core"
    }
    assert {module: found for module, found in wrong.items() if found} == {}


def test_genres_import_only_core_and_themselves() -> None:
    """A genre imports core and its own modules, never another genre nor anything that
    builds on genres (service, play, bank, cli, web); only `gridproof.genres` itself
    imports every genre (to register them)."""
    wrong = {}
    for module, imported in GRAPH.items():
        if _layer(module) != "genres" or module == "gridproof.genres":
            continue
        own = ".".join(module.split(".")[:3])
        found = sorted(
            other
            for other in imported
            if _layer(other) != "core" and not (other == own or other.startswith(own + "."))
        )
        if found:
            wrong[module] = found
    assert wrong == {}


ENGINE_OPTIONAL = {"pysat"}
"""Third-party modules the engine may import inside a function, where it checks that they
are installed (the Nonogram counter's optional SAT stretch)."""


def test_the_engine_runs_on_the_standard_library() -> None:
    """core and the genres import nothing outside the standard library and gridproof at
    module level; inside functions only the optional modules named above."""
    wrong = {}
    for path in sorted([*(PACKAGE / "core").rglob("*.py"), *(PACKAGE / "genres").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top_level = {id(node) for node in tree.body}
        for node in _import_nodes(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for name in names:
                root = (name or "").partition(".")[0]
                if root in sys.stdlib_module_names or root == "gridproof":
                    continue
                if id(node) not in top_level and root in ENGINE_OPTIONAL:
                    continue
                wrong.setdefault(str(path.relative_to(SRC)), []).append(name)
    assert wrong == {}


HEAVY = ("sqlite3", "platformdirs", "gridproof.bank", "gridproof.web", "fastapi", "uvicorn")
"""What `import gridproof` must not load: the bank (SQLite and platformdirs) and the web
stack come in when they are used, so the library runs where they cannot (a browser's
Python, a notebook without a data folder)."""


def test_import_gridproof_stays_light() -> None:
    script = f"import sys, gridproof; print([m for m in {HEAVY!r} if m in sys.modules])"
    loaded = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"


MIDDLE = (
    # (module or package, rank): a module imports only modules of a lower rank, or of its
    # own package at any rank. docs/architecture.md draws the same order.
    ("gridproof.core", 0),
    ("gridproof.genres", 1),
    ("gridproof.version", 2),
    ("gridproof.service.results", 2),
    ("gridproof.service", 2),  # the package itself: load, count, solve, convert, ...
    ("gridproof.bank", 3),
    ("gridproof.service.play", 4),
    ("gridproof.service.workshop", 4),
    ("gridproof.service.games", 4),
    ("gridproof.output", 5),
    ("gridproof.site", 5),  # the static site: its engine, bank shards and build
    ("gridproof.cli", 6),
    ("gridproof.web", 6),
    ("gridproof.__main__", 7),
    ("gridproof", 7),
)
"""Every module's place in the layers, by the longest name that is it or a package holding
it (`gridproof.service` itself is the calls on one puzzle; `play`, `workshop` and `games`
build on the bank, which builds on those calls)."""


def rank_of(module: str) -> tuple[str, int]:
    """The entry of `MIDDLE` that places `module` (its name and rank)."""
    found = [
        (name, rank)
        for name, rank in MIDDLE
        if module == name or (module.startswith(name + ".") and name != "gridproof")
    ]
    assert found, f"{module} has no place in MIDDLE"
    return max(found, key=lambda each: len(each[0]))


def _own_package(module: str) -> str:
    """`gridproof.bank` for `gridproof.bank.store`; a top-level module is its own."""
    return ".".join(module.split(".")[:2])


def upward_imports(graph: Mapping[str, Iterable[str]]) -> list[tuple[str, str]]:
    """Imports that point up the layers (or sideways into another package of the same
    rank, as cli and web would into each other)."""
    wrong = []
    for module, imported in graph.items():
        _, rank = rank_of(module)
        for other in imported:
            _, other_rank = rank_of(other)
            if other_rank > rank or (
                other_rank == rank and _own_package(other) != _own_package(module)
            ):
                wrong.append((module, other))
    return sorted(wrong)


def test_every_module_has_its_place() -> None:
    for module in GRAPH:
        rank_of(module)


def test_imports_point_down_the_layers() -> None:
    """core <- genres <- service calls <- bank <- play, workshop, games <- output <- cli,
    web; `gridproof` (the public API) at the top, importing what it re-exports."""
    assert upward_imports(GRAPH) == []


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {
        "gridproof.bank.store": {"gridproof.service.play"},  # up
        "gridproof.cli": {"gridproof.web.app"},  # sideways at the top
        "gridproof.service.play": {"gridproof.bank.store", "gridproof.service"},  # down
        "gridproof.bank.filler": {"gridproof.bank"},  # its own package
    }
    assert upward_imports(graph) == [
        ("gridproof.bank.store", "gridproof.service.play"),
        ("gridproof.cli", "gridproof.web.app"),
    ]
    assert rank_of("gridproof.bank.io") == ("gridproof.bank", 3)
    assert rank_of("gridproof.service.games") == ("gridproof.service.games", 4)
    assert rank_of("gridproof.service") == ("gridproof.service", 2)


def test_no_import_circle() -> None:
    assert cycles(GRAPH) == [], f"modules in each circle: {circles(GRAPH)}"


# --- names in one place --------------------------------------------------------------------


@dataclass(frozen=True)
class Literal:
    path: str
    line: int
    text: str


def _shown(path: Path) -> str:
    """`path` relative to the repository where it lies inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of string constants that are documentation: any bare string statement
    (module, class and function docstrings, and the docstrings of attributes)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def string_literals(paths: Iterable[Path]) -> Iterator[Literal]:
    """Every string literal in the files that is not documentation (the pieces of an
    f-string included)."""
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skip
            ):
                yield Literal(_shown(path), node.lineno, node.value)


def test_string_literals_skip_docstrings(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""probe"""\nX = "probe"\n"""probe, the attribute"""\n'
        'def f():\n    """probe"""\n    return {"probe": f"{X} probe"}  # probe\n',
        encoding="utf-8",
    )
    found = [(each.line, each.text) for each in string_literals([sample])]
    assert sorted(found) == [(2, "probe"), (6, " probe"), (6, "probe")]


def _names(rungs: Iterable[str], rule_ids: Iterable[str]) -> set[str]:
    return set(rungs) | set(rule_ids)


def _offenders(
    ladders: Mapping[Path, set[str]], files: Iterable[Path]
) -> list[tuple[str, int, str]]:
    """Literals spelling a rung or rule name outside every `rules.py` whose ladder has
    that name (a name two genres share may be spelled in both rules files)."""
    allowed: dict[str, set[str]] = {}
    for rules_file, names in ladders.items():
        for name in names:
            allowed.setdefault(name, set()).add(_shown(rules_file))
    return sorted(
        (each.path, each.line, each.text)
        for each in string_literals(files)
        if each.text in allowed and each.path not in allowed[each.text]
    )


COINCIDENCES = {
    ("src/gridproof/genres/nondango/model.py", "region"): "names the rows in error messages",
    ("src/gridproof/genres/nonogram/learn.py", "probe"): "a slot: the cell a failed probe set",
}
"""Literals that are a rung or rule name by coincidence of words, not a reference to the
ladder: each with why. Every entry must still occur (the test says when one is stale)."""


def _in_scope(name: str, path: Path) -> bool:
    """Whether `path` could refer to the ladder of genre `name`: anything outside the
    genres, and that genre's own package (genres never import one another, so a word in
    another genre's files is that genre's own)."""
    genres = PACKAGE / "genres"
    return not path.is_relative_to(genres) or path.is_relative_to(genres / name)


def test_names_are_spelled_only_in_rules() -> None:
    """Every registered genre's rung names and rule ids appear as a string literal only
    in its `rules.py`: generators, the player, the CLI and the studies read `LADDER`."""
    files = sorted(PACKAGE.rglob("*.py"))
    found = []
    for name, genre in sorted(registry.genres().items()):
        rules_file = PACKAGE / "genres" / name / "rules.py"
        assert rules_file.is_file(), rules_file
        names = _names(genre.ladder.names, (each.id for each in genre.ladder.rules))
        scope = [path for path in files if _in_scope(name, path)]
        found += [(name, *each) for each in _offenders({rules_file: names}, scope)]
    assert registry.genres()
    used = {(path, text) for _, path, _, text in found if (path, text) in COINCIDENCES}
    assert [each for each in found if (each[1], each[3]) not in COINCIDENCES] == []
    assert set(COINCIDENCES) - used == set(), "stale entries in COINCIDENCES"


def test_lights_names_are_spelled_only_in_its_rules() -> None:
    """The same for the template genre's modules (its own tests may pin step texts)."""
    names = _names(LIGHTS.ladder.names, (each.id for each in LIGHTS.ladder.rules))
    modules = sorted(path for path in TOY.glob("*.py") if not path.name.startswith("test_"))
    assert len(modules) >= 8
    assert _offenders({TOY / "rules.py": names}, modules) == []


def test_the_name_check_finds_a_stray_name(tmp_path: Path) -> None:
    rules_file, stray = tmp_path / "rules.py", tmp_path / "generate.py"
    rules_file.write_text('LADDER = ("digits", "digit-done")\n', encoding="utf-8")
    stray.write_text(
        '"""The digits rung, and digit-done."""\n'
        'STEP = "digit-done"\nRUNGS = ("digits", "probe")\n',
        encoding="utf-8",
    )
    names = {"digits", "digit-done", "probe"}
    found = _offenders({rules_file: names}, [rules_file, stray])
    assert found == [
        (str(stray), 2, "digit-done"),
        (str(stray), 3, "digits"),
        (str(stray), 3, "probe"),
    ]
    shared = _offenders({rules_file: names, stray: {"probe"}}, [rules_file, stray])
    assert (str(stray), 3, "probe") not in shared


@pytest.mark.parametrize("name", sorted(registry.genres()))
def test_rules_live_in_rules_py(name: str) -> None:
    """Every rule of the ladder is declared in the genre's `rules.py` (beside its
    sentence, in the one table)."""
    genre = registry.genre(name)
    expected = f"gridproof.genres.{name}.rules"
    assert {each.find.__module__ for each in genre.ladder.rules} == {expected}


def test_no_front_end_script_names_a_genre() -> None:
    """The player and the workshop render what the catalog describes (each genre's look,
    options and words, violations as data): no script under `web/static/js` spells a
    genre's name or title, so a new genre needs no front-end line."""
    from gridproof.core.registry import genres

    words = {w.lower() for genre in genres().values() for w in (genre.name, genre.title)}
    scripts = sorted((PACKAGE / "web" / "static" / "js").glob("*.js"))
    assert scripts
    named = [
        f"{script.name}:{number}: {word}"
        for script in scripts
        for number, line in enumerate(script.read_text().splitlines(), 1)
        for word in words
        if re.search(rf"\b{re.escape(word)}\b", line.lower())
    ]
    assert named == []


def _front_end_lines() -> Iterator[tuple[str, int, str]]:
    for script in sorted((PACKAGE / "web" / "static" / "js").glob("*.js")):
        for number, line in enumerate(script.read_text().splitlines(), 1):
            yield script.name, number, line


def _rule_ids_and_own_keys() -> tuple[set[str], set[str]]:
    """Every registered genre's rule ids (the ladder's, and the validator's on a small
    generated board, blank and full) and the keys of its JSON beyond the contract's
    (`genre`, the size and the layers' keys: a Star Battle's `stars`, a Nondango's `rule`)."""
    from gridproof.core.contract import Request
    from gridproof.core.deadline import Deadline

    generic = {"genre", "width", "height", "regions", "circles", "rows", "cols"}
    ids: set[str] = set()
    keys: set[str] = set()
    for genre in registry.genres().values():
        ids |= set(genre.ladder.names) | {each.id for each in genre.ladder.rules}
        (w, h), _ = genre.sizes
        puzzle = genre.generate(Request(w, h), 1, Deadline(60)).puzzle
        for grid in (0, (1 << (w * h)) - 1):
            ids |= {violation.rule for violation in genre.validate(puzzle, grid)}
        keys |= set(genre.to_json(puzzle)) - generic
    return ids, keys


def test_no_front_end_script_knows_a_rule_or_a_genres_own_key() -> None:
    """No script spells a rule id as a string (the server judges violations and names
    the complete groups: `final`, `complete`), nor reads a genre's own key out of a
    puzzle's data (the look says which options a puzzle carries)."""
    ids, keys = _rule_ids_and_own_keys()
    assert "region-count" in ids
    assert "stars" in keys
    found = []
    for script, number, line in _front_end_lines():
        # a CSS class may share a rule's word ('clue' bands, the 'touch' device class)
        styling = "classList" in line or "class:" in line
        found += [
            f"{script}:{number}: {rule}"
            for rule in ids
            if not styling and re.search(rf"""['"`]{re.escape(rule)}['"`]""", line)
        ]
        found += [
            f"{script}:{number}: data.{key}"
            for key in keys
            if re.search(rf"""data\??\.{key}\b|data\[['"]{key}['"]\]""", line)
        ]
    assert found == []


# --- a genre lives in its folder -----------------------------------------------------------


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings or bare string statements (prose,
    where naming a genre as an example couples nothing)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def _code_words(source: str) -> Iterator[tuple[int, str]]:
    """What a Python file's code spells, line by line: its identifiers, the modules it
    imports and its string literals (not docstrings, not comments)."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in prose:
                yield line, node.value
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif isinstance(node, ast.ImportFrom):
            yield line, node.module or ""
        elif isinstance(node, ast.alias):
            yield line, f"{node.name} {node.asname or ''}"


def _other_words(text: str) -> Iterator[tuple[int, str]]:
    """What a style sheet or page spells outside its comments, line by line."""
    bare = re.sub(r"/\*.*?\*/|<!--.*?-->", lambda m: "\n" * m[0].count("\n"), text, flags=re.S)
    yield from enumerate(bare.splitlines(), 1)


def _genre_words(name: str) -> re.Pattern[str]:
    """A genre's name and title as words, spelled in any case, with or without the
    title's spaces (`starbattle`, `Star Battle`, `STAR_BATTLE`)."""
    title = registry.genre(name).title
    spellings = {name, title, title.replace(" ", ""), title.replace(" ", "_")}
    words = "|".join(sorted(re.escape(each) for each in spellings))
    return re.compile(rf"(?<![a-z0-9])({words})(?![a-z0-9])", re.I)


NAMED_OUTSIDE = {
    ("nonogram", "cli/workshop_commands.py"): "the picture command makes Nonograms only",
}
"""Where the code outside a genre's folder names it, and why: debts from before the
contract (Nonogram's picture command). A genre added since names none."""


def _named_outside(name: str) -> list[str]:
    """Where a file under `src/gridproof` outside `genres/<name>/` names the genre in its
    code (Python identifiers, imports, strings) or in a page, style sheet or script."""
    pattern = _genre_words(name)
    own = PACKAGE / "genres" / name
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if not path.is_file() or own in path.parents or "__pycache__" in path.parts:
            continue
        if path.suffix == ".py":
            words = _code_words(path.read_text())
        elif path.suffix in (".js", ".css", ".html"):
            words = _other_words(path.read_text())
        else:
            continue
        where = path.relative_to(PACKAGE).as_posix()
        if (name, where) in NAMED_OUTSIDE:
            continue
        found += [f"{where}:{line}: {word!r}" for line, word in words if pattern.search(word)]
    return sorted(set(found))


@pytest.mark.parametrize("name", sorted(registry.genres()))
def test_no_code_outside_a_genres_folder_names_it(name: str) -> None:
    """A genre is its folder: the registry finds it by the folder's name, and nothing else
    under `src/` spells its name or title in code (docstrings and comments may name it as
    an example). So the diff that adds a genre touches its folder, its tests and nothing
    else under `src/`."""
    assert _named_outside(name) == []


def test_the_genre_name_search_finds_code_and_skips_prose(tmp_path: Path) -> None:
    source = (
        '"""Norinori, in prose."""\n'
        "# norinori in a comment\n"
        "def f(kind: str) -> bool:\n"
        '    """A Star Battle docstring."""\n'
        '    return kind == "starbattle" or STAR_BATTLE\n'
        "from gridproof.genres.norinori import rules\n"
    )
    words = list(_code_words(source))
    star = _genre_words("starbattle")
    nori = _genre_words("norinori")
    assert sorted({line for line, word in words if star.search(word)}) == [5]
    assert sorted({line for line, word in words if nori.search(word)}) == [6]
    css = "/* nonogram\n bands */\n.nonogram-clue { }\n"
    assert [n for n, w in _other_words(css) if _genre_words("nonogram").search(w)] == [3]
