"""The genre contract, checked the same way for every registered genre and for Lights, the
test-only genre in `tests/toygenre` (the template a new genre starts from).

Each genre gets one generated board (`made`) and its neighbours, the puzzles a character
of its code or an integer of its JSON away (`neighbours`): a mix of boards with no, one
and many solutions, on which the genre's counter must agree with the independent counters
its record declares (`oracles`) and its ladder must speak only in its own rules'
sentences. Mutated codes, URLs, JSON and grid text must raise nothing but `CodeError`.
The genres and their oracles come from the registry and the genres' folders, never a
hand-kept list, so a new genre is checked here without a line changed.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import importlib.util
import json
import multiprocessing
import re
import string
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import chain, islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridproof.genres
from gridproof import ENGINE_VERSION, bank
from gridproof.bank import evidence
from gridproof.core import codes, pzpr, registry
from gridproof.core.contract import Generated, Genre, Health, Later, Look, Oracle, Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, GridproofError
from gridproof.core.grid import cell_string
from gridproof.core.ladder import GIVEN, Grade
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.rng import Rng
from gridproof.core.symmetry import Symmetry
from tests.bankfills import first_record, smallest
from tests.toygenre import GENRE as LIGHTS
from tests.toygenre import registered

GENRES_DIR = Path(gridproof.genres.__file__).parent
BUILT_IN = {
    folder.name
    for folder in GENRES_DIR.iterdir()
    if folder.is_dir() and (folder / "__init__.py").exists()
}
"""The built-in genres: every folder under `src/gridproof/genres/` (no hand-kept list)."""
NAMES = [*sorted(registry.genres()), LIGHTS.name]


def _usable(oracle: Oracle) -> bool:
    """Whether the oracle can run here: what it `requires` is installed."""
    return oracle.requires is None or importlib.util.find_spec(oracle.requires) is not None


NEIGHBOURS = 40
"""How many one-character neighbours of the generated code each genre is checked on."""
ENUMERATE = 256
"""The limit up to which the counters must list the very same solutions."""
FUZZ = settings(
    max_examples=600,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
"""Fixed, derandomized fuzzing: the same inputs on every run and every machine."""


def _genre(name: str) -> Genre[Any]:
    return LIGHTS if name == LIGHTS.name else registry.genre(name)


def _small(genre: Genre[Any], seed: int = 7) -> Generated[Any]:
    (width, height), _ = genre.sizes
    size = max(width, 5), max(height, 5)
    return genre.generate(Request(*size), seed, Deadline(120))


def _oracles(name: str) -> list[tuple[str, Callable[[Any, int], Outcome]]]:
    """The genre's independent counters, as its record declares them (`Genre.oracles`),
    those that can run here."""
    return [(oracle.name, oracle.count) for oracle in _genre(name).oracles if _usable(oracle)]


@pytest.fixture(scope="module", params=NAMES)
def made(request: pytest.FixtureRequest) -> tuple[Genre[Any], Generated[Any]]:
    genre = _genre(request.param)
    return genre, _small(genre)


def _int_leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths to the integers inside a JSON value (not its width and height)."""
    if isinstance(value, dict):
        return [
            leaf
            for key, inner in value.items()
            if key not in ("width", "height")
            for leaf in _int_leaves(inner, (*path, key))
        ]
    if isinstance(value, list):
        return [leaf for i, inner in enumerate(value) for leaf in _int_leaves(inner, (*path, i))]
    return [path] if isinstance(value, int) and not isinstance(value, bool) else []


def _tweaked(obj: Any, changes: list[tuple[tuple[Any, ...], int]]) -> Any:
    """A copy of a JSON value with the integer at each path moved by its amount."""
    obj = copy.deepcopy(obj)
    for path, by in changes:
        inner = obj
        for key in path[:-1]:
            inner = inner[key]
        inner[path[-1]] += by
    return obj


@pytest.fixture(scope="module")
def neighbours(made: tuple[Genre[Any], Generated[Any]]) -> list[Any]:
    """Distinct puzzles near the generated board, evenly picked from all of them (a mix of
    verdicts): those whose code differs from its code in one character of the payload,
    and those whose JSON differs from its JSON by one in one integer, or in two if that
    finds too few (a genre whose clues must add up, like Nonogram's, needs two)."""
    genre, board = made
    code = genre.format_code(board.puzzle)
    head, payload = code.rsplit(".", 1)
    found: dict[str, Any] = {}

    def keep(parse: Callable[[Any], Any], value: Any) -> None:
        try:
            puzzle = parse(value)
        except CodeError:
            return
        if puzzle != board.puzzle:
            found.setdefault(genre.format_code(puzzle), puzzle)

    for index in range(len(payload)):
        for char in codes.ALPHABET.replace(payload[index], ""):
            keep(genre.parse_code, f"{head}.{payload[:index]}{char}{payload[index + 1 :]}")
    obj = genre.to_json(board.puzzle)
    leaves = _int_leaves(obj)
    for leaf in leaves:
        for by in (-1, 1):
            keep(genre.from_json, _tweaked(obj, [(leaf, by)]))
    if len(found) < NEIGHBOURS:
        for i, first in enumerate(leaves):
            for second in leaves[i + 1 :]:
                for a, b in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
                    keep(genre.from_json, _tweaked(obj, [(first, a), (second, b)]))
    picked = list(found.values())
    step = max(1, len(picked) // NEIGHBOURS)
    return picked[::step][:NEIGHBOURS]


@pytest.fixture(scope="module")
def boards(made: tuple[Genre[Any], Generated[Any]], neighbours: list[Any]) -> list[Any]:
    genre, board = made
    return [board.puzzle, genre.transform(board.puzzle, Symmetry.ROTATE_90), *neighbours]


@pytest.fixture
def findable(made: tuple[Genre[Any], Generated[Any]]) -> Iterator[Genre[Any]]:
    """The genre, in the registry for this one test (Lights is registered only here)."""
    genre, _ = made
    if genre is LIGHTS:
        with registered() as toy:
            yield toy
    else:
        yield genre


@pytest.fixture
def genre(findable: Genre[Any]) -> Genre[Any]:
    """The genre, found by name in the registry (the bank looks genres up by name)."""
    return findable


# --- the registry -------------------------------------------------------------------------


def test_registry_holds_every_genre_folder() -> None:
    assert set(registry.genres()) == BUILT_IN
    assert BUILT_IN


def test_the_genre_is_found_by_name(findable: Genre[Any]) -> None:
    assert registry.genre(findable.name) is findable
    assert findable.name in registry.genres()


def test_lights_is_registered_only_inside_its_fixture() -> None:
    assert LIGHTS.name not in registry.genres()
    with pytest.raises(CodeError, match="unknown genre 'lights'"):
        registry.genre(LIGHTS.name)


@pytest.mark.parametrize("name", NAMES)
def test_every_genre_declares_independent_oracles(name: str) -> None:
    """`Genre.oracles` (the bank's independent check, and the counters every check here
    holds to agree with the engine) names at least one counter, each once, never the
    engine's own `count`."""
    genre = _genre(name)
    assert genre.oracles
    assert len({oracle.name for oracle in genre.oracles}) == len(genre.oracles)
    assert all(oracle.count is not genre.count for oracle in genre.oracles)
    assert any(_usable(oracle) for oracle in genre.oracles)


@pytest.mark.parametrize("name", NAMES)
def test_every_later_function_is_found(name: str) -> None:
    """A field the genre imports only when first called (`core.contract.later`) names a
    function its module has: a misspelt one would fail only when a user reached it."""
    genre = _genre(name)
    lazy = [
        value
        for value in (getattr(genre, f.name) for f in dataclasses.fields(genre))
        if isinstance(value, Later)
    ]
    for value in lazy:
        assert callable(value.resolve()), value
        assert not isinstance(value.resolve(), Later)


def test_the_record_is_filled_in(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, _ = made
    assert re.fullmatch(r"[a-z][a-z0-9-]*", genre.name)
    assert genre.title.strip()
    assert genre.lessons
    assert all(lesson.strip() for lesson in genre.lessons)
    assert genre.generator.startswith(genre.name + "/")
    (low_w, low_h), (high_w, high_h) = genre.sizes
    assert 1 <= low_w <= high_w
    assert 1 <= low_h <= high_h
    assert genre.largest[0] >= high_w  # every board the generator makes can be read back
    assert genre.largest[1] >= high_h
    assert len({option.name for option in genre.options}) == len(genre.options)


# --- codes, URLs, JSON and grid text -------------------------------------------------------


def test_codes_round_trip(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    code = genre.format_code(board.puzzle)
    assert code.startswith(genre.name + ".")
    assert genre.parse_code(code) == board.puzzle
    assert genre.format_code(genre.parse_code(code)) == code
    assert genre.parse_code(f"  {code}\n") == board.puzzle


def test_urls_and_json_round_trip(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    assert genre.parse_url(genre.format_url(board.puzzle)) == board.puzzle
    assert genre.from_json(genre.to_json(board.puzzle)) == board.puzzle
    assert genre.from_json(json.loads(json.dumps(genre.to_json(board.puzzle)))) == board.puzzle


def test_own_formats_round_trip_and_sniff_only_their_own_text(
    made: tuple[Genre[Any], Generated[Any]],
) -> None:
    genre, board = made
    names = [fmt.name for fmt in genre.formats]
    assert len(set(names)) == len(names)
    assert not set(names) & {"code", "url", "json"}
    for fmt in genre.formats:
        for solution in (None, board.solution):
            text = fmt.format(board.puzzle, solution)
            assert fmt.sniff(text), fmt.name
            puzzle, read = fmt.parse(text)
            assert puzzle == board.puzzle, fmt.name
            assert read in (None, solution), fmt.name
        assert not fmt.sniff(genre.format_code(board.puzzle)), fmt.name
        assert not fmt.sniff(_url(genre, board.puzzle) or ""), fmt.name
        assert not fmt.sniff(json.dumps(genre.to_json(board.puzzle))), fmt.name


def test_neighbours_round_trip(made: tuple[Genre[Any], Generated[Any]], boards: list[Any]) -> None:
    genre, _ = made
    assert len(boards) > 2, "no code one character away parses: the neighbour mix is empty"
    for puzzle in boards:
        code = genre.format_code(puzzle)
        assert genre.parse_code(code) == puzzle, code
        url = _url(genre, puzzle)
        assert url is None or genre.parse_url(url) == puzzle, code
        assert genre.from_json(genre.to_json(puzzle)) == puzzle, code


def _url(genre: Genre[Any], puzzle: Any) -> str | None:
    """The puzzle's URL, or None for a puzzle the URL format cannot express (`format_url`
    may refuse one with a `CodeError`, as Nondango's no-three-black does)."""
    try:
        return genre.format_url(puzzle)
    except CodeError:
        return None


def _payload_bits(text: str) -> str:
    """`text` read as base64url: six bits a character (what `codes.pack_bits` writes)."""
    return "".join(format(codes.ALPHABET.index(c), "06b") for c in text if c in codes.ALPHABET)


def _base32_bits(text: str) -> str:
    """`text` read as puzz.link base-32: five bits a character, other characters dropped."""
    return "".join(format(pzpr.BASE32.index(c), "05b") for c in text if c in pzpr.BASE32)


MIN_TELL = 24
"""The shortest stretch of solution bits looked for: shorter ones turn up by chance."""


def _tells(genre: Genre[Any], puzzle: Any, solution: int) -> list[str]:
    """The bit strings a code that carried `solution` would hold somewhere: the solution
    and its complement, over every cell and over the cells the start position leaves
    open, row by row and column by column, either end first; trimmed of the zeros at
    either end, and only those long enough not to turn up by chance."""
    width, height = puzzle.width, puzzle.height
    size = width * height
    start = genre.position(puzzle, Deadline.never())
    open_cells = ((1 << size) - 1) & ~(start.shaded | start.empty)
    transpose = Symmetry.TRANSPOSE.cell_map(width, height)
    by_column = sorted(range(size), key=lambda cell: transpose[cell])
    tells = set()
    for cells in (range(size), by_column):
        for within in ((1 << size) - 1, open_cells):
            for mask in (solution, ~solution & within):
                text = "".join(str(mask >> c & 1) for c in cells if within >> c & 1)
                for each in (text, text[::-1]):
                    core = each.strip("0")
                    if len(core) >= MIN_TELL and core.count("1") >= 4:
                        tells.add(core)
    return sorted(tells)


def _leaks(code: str, url: str | None, tells: list[str]) -> list[str]:
    """The tells found in the decoded code (params and payload) or URL body."""
    parts = codes.split_code(code)
    body = "" if url is None else url.split("?", 1)[1]
    decoded = [
        _payload_bits(parts.params),
        _payload_bits(parts.payload),
        _base32_bits(body),
        _payload_bits(body),
    ]
    return [tell for tell in tells if any(tell in bits for bits in decoded)]


@pytest.fixture(scope="module")
def solved(made: tuple[Genre[Any], Generated[Any]], boards: list[Any]) -> list[tuple[Any, int]]:
    """Puzzles with their only solution: the generated board, a bigger one, and every
    unique neighbour."""
    genre, board = made
    (_, _), (high_w, high_h) = genre.sizes
    bigger = genre.generate(Request(min(high_w, 8), min(high_h, 8)), 11, Deadline(120))
    found = [(board.puzzle, board.solution), (bigger.puzzle, bigger.solution)]
    for puzzle in boards[2:]:
        outcome = genre.count(puzzle, 2, Deadline(60))
        if outcome.verdict is Verdict.UNIQUE:
            found.append((puzzle, outcome.solutions[0]))
    return found


def test_codes_never_carry_the_solution(
    made: tuple[Genre[Any], Generated[Any]], solved: list[tuple[Any, int]]
) -> None:
    """Decode each code (and URL) to its bits: no stretch of the solution is in them."""
    genre, _ = made
    looked = 0
    for puzzle, solution in solved:
        tells = _tells(genre, puzzle, solution)
        looked += len(tells)
        code = genre.format_code(puzzle)
        assert _leaks(code, _url(genre, puzzle), tells) == [], code
    assert looked, "no solution was long enough to look for: the test would prove nothing"


def test_the_leak_detector_finds_a_leak(
    made: tuple[Genre[Any], Generated[Any]], solved: list[tuple[Any, int]]
) -> None:
    """A code that did carry the solution (appended, either end first) is caught."""
    genre, _ = made
    puzzle, solution = max(solved, key=lambda pair: len(_tells(genre, *pair)))
    size = puzzle.width * puzzle.height
    code, url = genre.format_code(puzzle), genre.format_url(puzzle)
    for bits in (cell_string(solution, size), cell_string(solution, size)[::-1]):
        leaky = codes.pack_bits([int(bit) for bit in "101" + bits])
        assert _leaks(code + leaky, url, _tells(genre, puzzle, solution)), bits
        base32 = pzpr.pack_base32([int(bit) for bit in bits])
        assert _leaks(code, url + base32, _tells(genre, puzzle, solution)), bits


def test_the_code_depends_on_the_puzzle_alone(made: tuple[Genre[Any], Generated[Any]]) -> None:
    """The generator's puzzle, one rebuilt from its URL or JSON (which cannot know the
    solution), and one carried round by two symmetries all have the one code; and the
    puzzle value holds nothing that is the solution."""
    genre, board = made
    puzzle = board.puzzle
    code = genre.format_code(puzzle)
    rebuilt = [
        genre.parse_code(code),
        genre.parse_url(genre.format_url(puzzle)),
        genre.from_json(json.loads(json.dumps(genre.to_json(puzzle)))),
        genre.transform(genre.transform(puzzle, Symmetry.ROTATE_90), Symmetry.ROTATE_270),
        genre.transform(genre.transform(puzzle, Symmetry.FLIP_H), Symmetry.FLIP_H),
    ]
    assert [genre.format_code(other) for other in rebuilt] == [code] * len(rebuilt)
    if dataclasses.is_dataclass(puzzle):
        for field in dataclasses.fields(puzzle):
            value = getattr(puzzle, field.name)
            assert value != board.solution or field.name in ("width", "height"), field.name


def test_grid_text_round_trips_and_validates(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    rows = genre.format_grid(board.puzzle, board.solution)
    assert len(rows) == board.puzzle.height
    assert genre.parse_grid(board.puzzle, rows) == board.solution
    assert genre.validate(board.puzzle, board.solution) == []
    assert genre.validate(board.puzzle, 0) != [] or board.solution == 0
    size = board.puzzle.width * board.puzzle.height
    assert genre.validate(board.puzzle, board.solution ^ 1) != []
    assert genre.validate(board.puzzle, board.solution ^ (1 << (size - 1))) != []


# --- codec fuzzing: nothing but CodeError escapes ------------------------------------------

EDIT_CHARS = st.one_of(
    st.sampled_from(codes.ALPHABET + pzpr.BASE32 + "./?x:=#+ \n\t"), st.characters()
)
EDITS = st.lists(
    st.tuples(st.sampled_from(("insert", "replace", "delete")), st.integers(0, 10**4), EDIT_CHARS),
    min_size=1,
    max_size=4,
)
Edit = tuple[str, int, str]


def _mutate(text: str, edits: list[Edit]) -> str:
    for kind, where, char in edits:
        at = where % (len(text) + 1)
        if kind == "insert":
            text = text[:at] + char + text[at:]
        elif kind == "replace":
            text = text[:at] + char + text[at + 1 :]
        else:
            text = text[:at] + text[at + 1 :]
    return text


def _only_code_errors(genre: Genre[Any], parse: Callable[[Any], Any], value: Any) -> None:
    """`parse(value)` raises `CodeError` or gives a puzzle that round-trips, validates and
    counts without an error (nothing that passes parsing may crash later)."""
    try:
        puzzle = parse(value)
    except CodeError:
        return
    code = genre.format_code(puzzle)
    assert genre.parse_code(code) == puzzle, code
    url = _url(genre, puzzle)
    assert url is None or genre.parse_url(url) == puzzle, code
    assert isinstance(genre.validate(puzzle, 0), list)
    outcome = genre.count(puzzle, 2, Deadline(1.0, work=300))
    assert isinstance(outcome, Outcome)


@pytest.mark.slow
@FUZZ
@given(edits=EDITS)
def test_mutated_codes_and_urls_raise_only_code_errors(
    made: tuple[Genre[Any], Generated[Any]], edits: list[Edit]
) -> None:
    genre, board = made
    _only_code_errors(genre, genre.parse_code, _mutate(genre.format_code(board.puzzle), edits))
    _only_code_errors(genre, genre.parse_url, _mutate(genre.format_url(board.puzzle), edits))


@pytest.mark.slow
@FUZZ
@given(text=st.text(EDIT_CHARS, max_size=40), prefix=st.integers(0, 3))
def test_arbitrary_text_raises_only_code_errors(
    made: tuple[Genre[Any], Generated[Any]], text: str, prefix: int
) -> None:
    genre, board = made
    code, url = genre.format_code(board.puzzle), genre.format_url(board.puzzle)
    code_heads = ["", f"{genre.name}.", f"{genre.name}.1.", code.rsplit(".", 1)[0] + "."]
    url_heads = ["", "https://puzz.link/p?", url.split("/", 4)[3] + "/", url.rsplit("/", 1)[0]]
    _only_code_errors(genre, genre.parse_code, code_heads[prefix] + text)
    _only_code_errors(genre, genre.parse_url, url_heads[prefix] + text)


JSON_LEAVES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    1,
    2,
    5,
    7,
    -1,
    10**9,
    2**70,
    1.5,
    5.0,
    "",
    "5",
)
"""JSON scalars a mutation puts in: near misses of what a codec reads (5.0 for 5, "5")."""
JSON_PER_EXAMPLE = 6
"""Mutated objects made from each drawn seed (cheaper to make than to draw one by one)."""


def _json_value(rng: Rng, depth: int = 0) -> Any:
    """A random JSON value, mostly a scalar, sometimes a short list or object."""
    kind = rng.below(8)
    if kind == 6 and depth < 2:
        return [_json_value(rng, depth + 1) for _ in range(rng.below(4))]
    if kind == 7 and depth < 2:
        return {rng.choice(("width", "height", "genre", "x")): _json_value(rng, depth + 1)}
    return rng.choice(JSON_LEAVES)


def _places(value: Any, into: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key) inside a JSON value, depth first."""
    if isinstance(value, dict):
        for key, inner in value.items():
            into.append((value, key))
            _places(inner, into)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            into.append((value, index))
            _places(inner, into)
    return into


def _mutate_json(obj: Any, rng: Rng) -> Any:
    """`obj` with one to three values replaced, deleted or added anywhere inside it (or,
    now and then, replaced whole)."""
    obj = copy.deepcopy(obj)
    for _ in range(rng.randint(1, 3)):
        places = _places(obj, [])
        kind = rng.below(7)
        if kind == 0 or not places:
            obj = _json_value(rng)
            continue
        container, key = rng.choice(places)
        if kind <= 3:
            container[key] = _json_value(rng)
        elif kind <= 5:
            del container[key]
        elif isinstance(container, dict):
            container[rng.choice(("genre", "extra", "width"))] = _json_value(rng)
        else:
            container.insert(key, _json_value(rng))
    return obj


@pytest.mark.slow
@FUZZ
@given(seed=st.integers(0, 2**64 - 1))
def test_mutated_json_raises_only_code_errors(
    made: tuple[Genre[Any], Generated[Any]], seed: int
) -> None:
    genre, board = made
    rng = Rng(seed)
    original = genre.to_json(board.puzzle)
    for _ in range(JSON_PER_EXAMPLE):
        _only_code_errors(genre, genre.from_json, _mutate_json(original, rng))


@pytest.mark.slow
@FUZZ
@given(edits=EDITS, row=st.integers(0, 10**4), rows=st.sampled_from((-1, 0, 0, 0, 1)))
def test_mutated_grid_text_raises_only_code_errors(
    made: tuple[Genre[Any], Generated[Any]], edits: list[Edit], row: int, rows: int
) -> None:
    genre, board = made
    text = genre.format_grid(board.puzzle, board.solution)
    at = row % len(text)
    text[at] = _mutate(text[at], edits)
    if rows < 0:
        del text[at]
    elif rows > 0:
        text.insert(at, text[at])
    try:
        shaded = genre.parse_grid(board.puzzle, text)
    except CodeError:
        return
    assert isinstance(genre.validate(board.puzzle, shaded), list)


@pytest.mark.parametrize(
    "junk", ["", ".", "x.1.5x5.AAAA", "norinori.9.5x5.AAAA", "\x00", "a" * 5000]
)
def test_bad_codes_are_code_errors(made: tuple[Genre[Any], Generated[Any]], junk: str) -> None:
    genre, _ = made
    with pytest.raises(CodeError):
        genre.parse_code(junk)


# --- counting ------------------------------------------------------------------------------


def test_count_is_unique_and_returns_an_outcome(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    outcome = genre.count(board.puzzle, 2, Deadline(60))
    assert isinstance(outcome, Outcome)
    assert outcome.verdict is Verdict.UNIQUE
    assert outcome.solutions == (board.solution,)


def test_transforms_preserve_the_count(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    width, height = board.puzzle.width, board.puzzle.height
    for symmetry in Symmetry:
        image = genre.transform(board.puzzle, symmetry)
        assert (image.width, image.height) == symmetry.shape(width, height), symmetry
        outcome = genre.count(image, 2, Deadline(60))
        assert outcome.verdict is Verdict.UNIQUE, symmetry
        assert outcome.solutions == (symmetry.mask(board.solution, width, height),), symmetry


def test_counters_agree(made: tuple[Genre[Any], Generated[Any]], boards: list[Any]) -> None:
    """The genre's counter and each of its oracles give the same verdict on every board,
    and the same solution where there is one; every solution found validates."""
    genre, _ = made
    oracles = _oracles(genre.name)
    verdicts: Counter[Verdict] = Counter()
    for puzzle in boards:
        code = genre.format_code(puzzle)
        engine = genre.count(puzzle, 2, Deadline(60))
        assert engine.verdict is not Verdict.TIMEOUT, code
        verdicts[engine.verdict] += 1
        others = list(oracles)
        if genre.count_pure is not None:  # the counter on the standard library alone
            pure = genre.count_pure
            others.append(("count_pure", lambda p, limit, pure=pure: pure(p, limit, Deadline(60))))
        for name, oracle in others:
            other = oracle(puzzle, 2)
            assert other.verdict is engine.verdict, (code, name)
            if engine.verdict is Verdict.UNIQUE:
                assert other.solutions == engine.solutions, (code, name)
        for shaded in engine.solutions:
            assert genre.validate(puzzle, shaded) == [], code
    assert verdicts[Verdict.UNIQUE] >= 1
    assert len(verdicts) >= 2, f"every board has the same verdict: {verdicts}"


def test_counters_enumerate_the_same_solutions(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    genre, _ = made
    for puzzle in boards:
        code = genre.format_code(puzzle)
        engine = genre.count(puzzle, ENUMERATE, Deadline(60))
        assert len(set(engine.solutions)) == len(engine.solutions), code
        for name, oracle in _oracles(genre.name):
            other = oracle(puzzle, ENUMERATE)
            if len(other.solutions) < ENUMERATE:
                assert set(engine.solutions) == set(other.solutions), (code, name)
            else:
                assert len(engine.solutions) == ENUMERATE, (code, name)


def test_a_spent_deadline_is_never_unique(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """Out of time, out of work or cancelled, a count says `timeout` (or what it proved
    before searching), never `unique`."""
    genre, _ = made
    for puzzle in boards:
        truth = genre.count(puzzle, 2, Deadline(60)).verdict
        cancelled = Deadline(60)
        cancelled.cancel()
        for spent in (Deadline(0), Deadline(work=0), Deadline.never().within(work=0), cancelled):
            verdict = genre.count(puzzle, 2, spent).verdict
            assert verdict is not Verdict.UNIQUE, genre.format_code(puzzle)
            assert verdict in (Verdict.TIMEOUT, truth), genre.format_code(puzzle)


def test_every_propagation_is_charged_to_the_deadline(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """The count's work is charged (by `core.search`, once): a generator's work budget
    then means the same on every machine."""
    genre, _ = made
    for puzzle in boards:
        parent = Deadline(60)
        child = parent.within(work=10**9)
        outcome = genre.count(puzzle, 2, child)
        assert child.used == parent.used == outcome.propagations > 0, genre.format_code(puzzle)


# --- the ladder ----------------------------------------------------------------------------


def test_the_ladder_table(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, _ = made
    ladder = genre.ladder
    assert genre.difficulties == ladder.grades
    assert genre.rungs == ladder.names
    assert len(set(ladder.names)) == len(ladder.names)
    for rung in ladder.rungs:
        assert rung.name.strip()
        assert rung.grade.strip()
        assert rung.summary.strip()
        assert rung.rules, rung.name
    ids = [each.id for each in ladder.rules]
    assert len(set(ids)) == len(ids)
    assert GIVEN not in ids
    for each in ladder.rules:
        assert each.id.strip()
        assert each.title.strip(), each.id
        assert each.template.strip(), each.id
        assert ladder.rule(each.id) is each
        assert ladder.title(each.id) == each.title
        assert ladder.rung_of(each.id) in ladder.names
    assert ladder.grade(None) in ladder.grades
    assert {ladder.grade(name) for name in ladder.names} <= set(ladder.grades)


def _template(text: str) -> re.Pattern[str]:
    """A pattern that every filling of the `str.format` template `text` matches."""
    pattern = ""
    for literal, field, _, _ in string.Formatter().parse(text):
        pattern += re.escape(literal)
        if field is not None:
            pattern += "(.*?)"
    return re.compile(pattern, re.S)


def test_template_patterns_match_their_fillings() -> None:
    pattern = _template("{cell} is shaded, so {free} {are} empty")
    assert pattern.fullmatch("r1c1 is shaded, so r1c2, r2c1 are empty")
    assert not pattern.fullmatch("r1c1 is shaded and r1c2 is empty")


def test_every_step_comes_from_a_ladder_rule(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """Each rung uses only its own rules and those below, every step's text is its rule's
    template filled in, and every contradiction is a rule's."""
    genre, board = made
    ladder = genre.ladder
    seen: Counter[str] = Counter()
    for puzzle in boards[:16]:
        for index, rung in enumerate(ladder.names):
            progress = genre.solve(puzzle, rung, Deadline(60))
            allowed = {each.id for each in ladder.rules_to(rung)}
            assert progress.rung == rung
            for step in progress.steps:
                assert step.rule in allowed, (rung, step)
                assert _template(ladder.rule(step.rule).template).fullmatch(step.text), step
                seen[step.rule] += 1
            assert ladder.names.index(ladder.hardest(progress.steps)) <= index
            if progress.contradiction is not None:
                assert progress.contradiction.rule in allowed, progress.contradiction
                assert progress.contradiction.text.strip()
    assert sum(seen.values()) > 0
    top = genre.solve(board.puzzle, ladder.top, Deadline(60))
    assert ladder.grade(ladder.hardest(top.steps)) in ladder.grades


def test_the_ladder_is_named_and_ordered(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    decided = 0
    for rung in genre.rungs:
        progress = genre.solve(board.puzzle, rung, Deadline(60))
        now = progress.shaded | progress.empty
        assert now & decided == decided
        assert progress.shaded & ~board.solution == 0
        assert progress.contradiction is None
        decided = now


def test_an_unknown_rung_is_a_code_error(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    with pytest.raises(CodeError, match="no-such-rung"):
        genre.solve(board.puzzle, "no-such-rung", Deadline(1))


def test_solve_starts_from_the_given_marks(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    given = genre.solve(board.puzzle, genre.ladder.names[0], Deadline(60), shaded=board.solution)
    assert given.contradiction is None
    assert given.shaded == board.solution
    assert given.complete
    one = genre.solve(board.puzzle, genre.ladder.top, Deadline(60), max_steps=1)
    assert len(one.steps) <= 1
    if board.solution:
        clash = genre.solve(
            board.puzzle,
            genre.ladder.top,
            Deadline(60),
            shaded=board.solution,
            empty=board.solution,
        )
        assert clash.contradiction is not None
        assert clash.steps == ()


# --- the rules written twice: with sentences (the ladder) and in bulk (the counter) -------


def _truths(genre: Genre[Any], boards: list[Any]) -> list[tuple[Any, Outcome]]:
    """The boards with their every solution (up to `ENUMERATE`), counted by the engine."""
    return [(puzzle, genre.count(puzzle, ENUMERATE, Deadline(60))) for puzzle in boards[:16]]


def test_the_ladder_never_contradicts_the_counter(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """Every rung's deductions hold in every solution the counter finds; a rung that
    finds a contradiction is on a board the counter proves has none; a rung that
    finishes the grid finished the counter's one solution. (The ladder's rules and the
    counter's bulk propagation state the same rules twice: here they meet.)"""
    genre, _ = made
    for puzzle, truth in _truths(genre, boards):
        code = genre.format_code(puzzle)
        assert truth.verdict is not Verdict.TIMEOUT, code
        for rung in genre.rungs:
            progress = genre.solve(puzzle, rung, Deadline(60))
            if progress.contradiction is not None:
                assert truth.verdict is Verdict.NONE, (code, rung, progress.contradiction)
                continue
            for solution in truth.solutions:
                assert progress.shaded & ~solution == 0, (code, rung)
                assert progress.empty & solution == 0, (code, rung)
            if progress.complete:
                assert truth.solutions == (progress.shaded,), (code, rung)


def test_what_the_counters_propagation_decides_the_ladder_decides(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """A board the counter settles at its first node, by propagation alone (one solution,
    or a contradiction), the ladder's top rung settles too: the counter's bulk rules are
    never stronger than the rules a person is told about."""
    genre, _ = made
    settled = 0
    for puzzle, truth in _truths(genre, boards):
        code = genre.format_code(puzzle)
        first = genre.count(puzzle, 2, Deadline(60))
        if first.nodes != 1:
            continue
        settled += 1
        top = genre.solve(puzzle, genre.ladder.top, Deadline(60))
        if first.verdict is Verdict.NONE:
            assert top.contradiction is not None, code
        else:
            assert first.verdict is Verdict.UNIQUE, code
            assert top.complete, code
            assert (top.shaded,) == truth.solutions, code
    assert settled >= 1, "no board settled at the counter's first node: nothing compared"


def _mixed(genre: Genre[Any], board: Generated[Any], boards: list[Any]) -> list[Any]:
    """Up to 6 boards with several solutions (neighbours, the generated board's own edits,
    a picture's with one or two pixels flipped), then 6 others: a mix where propagation
    leaves cells open."""
    assert genre.edits is not None
    puzzle = board.puzzle
    near: Iterator[Any] = chain(
        boards, (each.puzzle for each in islice(genre.edits(puzzle, board.solution, None, 0), 60))
    )
    if genre.from_picture is not None:  # a picture's clues: the picture with pixels flipped
        size = puzzle.width * puzzle.height
        flips = ((1 << a) | (1 << b) for a in range(size) for b in range(a, size))
        pictures = (
            genre.from_picture(puzzle.width, puzzle.height, board.solution ^ f) for f in flips
        )
        near = chain(near, pictures)
    several: list[Any] = []
    others: list[Any] = []
    for each in near:
        if genre.count(each, 2, Deadline(60)).verdict is Verdict.MULTIPLE:
            several.append(each)
            if len(several) == 6:
                break
        elif len(others) < 6:
            others.append(each)
    return several + others


def test_what_the_counters_propagation_decides_anywhere_the_ladder_decides(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """On boards near the generated one (several with two or more solutions, some without
    one), from random parts of a solution's marks and from those parts with two marks
    turned wrong, the counter's propagation at one node (`Genre.propagate`, its bulk
    rules) against the ladder's top rung: the counter keeps the marks it is given and
    stays inside every solution that agrees with them; every cell it decides, the top rung
    decides the same way; a contradiction it finds, the top rung finds too. (The rules a
    person is told about are never weaker than the counter's, anywhere on the way, not
    only on a bare board.)"""
    genre, board = made
    assert genre.propagate is not None, f"{genre.name} does not expose its propagation"
    assert genre.edits is not None
    rng = Rng(5)
    partial = 0  # positions where the counter decided more than given, but not every cell
    for puzzle in _mixed(genre, board, boards):
        truth = genre.count(puzzle, ENUMERATE, Deadline(60))
        size = puzzle.width * puzzle.height
        full = (1 << size) - 1
        solution = truth.solutions[0] if truth.solutions else rng.below(1 << size)
        for share in (0.0, 0.1, 0.3):
            given = sum(1 << cell for cell in range(size) if rng.random() < share)
            for wrong in (0, 2):
                flip = sum(1 << cell for cell in rng.sample(range(size), wrong))
                marks = solution ^ flip
                shaded, empty = marks & given, full & ~marks & given
                case = (genre.format_code(puzzle), share, wrong)
                bulk = genre.propagate(puzzle, shaded, empty, Deadline(60))
                top = genre.solve(puzzle, genre.ladder.top, Deadline(60), shaded, empty)
                if bulk is None:
                    assert top.contradiction is not None, case
                    continue
                assert bulk[0] & shaded == shaded, case
                assert bulk[1] & empty == empty, case
                for each in truth.solutions:
                    if each & given == shaded:
                        assert bulk[0] & ~each == 0, case
                        assert bulk[1] & each == 0, case
                if top.contradiction is None:
                    assert bulk[0] & ~top.shaded == 0, (case, cell_string(bulk[0], size))
                    assert bulk[1] & ~top.empty == 0, (case, cell_string(bulk[1], size))
                decided = (bulk[0] | bulk[1]).bit_count()
                partial += (shaded | empty).bit_count() < decided < size
    assert partial, "the counter decided every cell or none beyond the marks: nothing compared"


@pytest.mark.parametrize("seed", range(3))
def test_the_ladder_keeps_a_solutions_marks(
    made: tuple[Genre[Any], Generated[Any]], seed: int
) -> None:
    """Started from a random part of the solution's marks, every rung stays inside the
    solution, keeps what it was given, decides more the higher the rung, and the top
    rung finishes the grid whenever the bare board's top rung does."""
    genre, board = made
    rng = Rng(seed)
    size = board.puzzle.width * board.puzzle.height
    full = (1 << size) - 1
    for share in (0.1, 0.3, 0.6):
        given = sum(1 << cell for cell in range(size) if rng.random() < share)
        shaded, empty = board.solution & given, full & ~board.solution & given
        decided = 0
        for rung in genre.rungs:
            progress = genre.solve(board.puzzle, rung, Deadline(60), shaded=shaded, empty=empty)
            assert progress.contradiction is None, (rung, share)
            assert progress.shaded & shaded == shaded, (rung, share)
            assert progress.empty & empty == empty, (rung, share)
            assert progress.shaded & ~board.solution == 0, (rung, share)
            assert progress.empty & board.solution == 0, (rung, share)
            now = progress.shaded | progress.empty
            assert now & decided == decided, (rung, share)
            decided = now
        if genre.solve(board.puzzle, genre.ladder.top, Deadline(60)).complete:
            assert decided == full, share


# --- generation ----------------------------------------------------------------------------


def test_generation_is_reproducible(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, board = made
    again = _small(genre)
    assert genre.format_code(again.puzzle) == genre.format_code(board.puzzle)
    assert again.solution == board.solution
    assert board.seed == 7
    assert board.difficulty in genre.difficulties
    assert isinstance(board.health, Health)
    assert board.health.attempts >= 1


def test_generation_out_of_time_raises(made: tuple[Genre[Any], Generated[Any]]) -> None:
    genre, _ = made
    _, (width, height) = genre.sizes
    with pytest.raises(GenerationError) as raised:
        genre.generate(Request(width, height), 1, Deadline(0))
    assert set(Health().as_dict()) <= set(raised.value.health)


def test_generation_refuses_a_size_or_grade_it_lacks(
    made: tuple[Genre[Any], Generated[Any]],
) -> None:
    """A request outside the genre's sizes or grades is refused before any attempt (a
    generator that tried would count the attempt in its health record)."""
    genre, _ = made
    _, (width, height) = genre.sizes
    for request in (Request(width + 1, height + 1), Request(width, height, "no-such-grade")):
        with pytest.raises(GridproofError) as raised:
            genre.generate(request, 1, Deadline(5))
        if isinstance(raised.value, GenerationError):
            assert raised.value.health["attempts"] == 0, request


# --- what every generator promises ------------------------------------------------------


@pytest.mark.slow
def test_a_seed_gives_the_same_board_at_any_load_and_deadline(genre: Genre[Any]) -> None:
    _, (high_w, high_h) = genre.sizes
    width, height = min(10, high_w), min(10, high_h)
    for grade in (None, *genre.offered(width, height)):
        request = Request(width, height, grade)
        quiet = genre.generate(request, 11, Deadline(300))
        with both_cores_busy(60):
            loaded = genre.generate(request, 11, Deadline(240))
        assert genre.format_code(loaded.puzzle) == genre.format_code(quiet.puzzle), grade
        assert (loaded.difficulty, loaded.score) == (quiet.difficulty, quiet.score), grade


def test_every_grade_the_catalog_offers_is_delivered(genre: Genre[Any]) -> None:
    width, height = _first_size(genre)
    offered = genre.offered(width, height)
    assert offered, f"{genre.name} offers no grade at {width}x{height}"
    assert set(offered) <= set(genre.difficulties)
    for grade in offered:
        made = genre.generate(Request(width, height, grade), 3, Deadline(120))
        assert made.difficulty == grade
        assert made.score > 0
        assert genre.validate(made.puzzle, made.solution) == []
        outcome = genre.count(made.puzzle, 2, Deadline(60))
        assert outcome.verdict is Verdict.UNIQUE
        assert outcome.solutions == (made.solution,)


def test_no_grade_asked_aims_at_every_offered_grade(genre: Genre[Any]) -> None:
    """With no difficulty asked, the seed picks the grade, so the shares are balanced."""
    width, height = _first_size(genre)
    offered = genre.offered(width, height)
    seen = {
        genre.generate(Request(width, height), seed, Deadline(120)).difficulty
        for seed in range(1, 13)
    }
    assert seen <= set(genre.difficulties)
    assert len(seen) >= min(2, len(offered))


def test_a_deadline_too_short_fails_rather_than_returning_another_board(
    genre: Genre[Any],
) -> None:
    """However short the deadline, the call either returns the seed's own board or fails."""
    _, (high_w, high_h) = genre.sizes
    request = Request(min(8, high_w), min(8, high_h))
    full = genre.format_code(genre.generate(request, 5, Deadline(300)).puzzle)
    for seconds in (0.001, 0.01, 0.05, 0.2, 1.0):
        try:
            made = genre.generate(request, 5, Deadline(seconds))
        except GenerationError:
            continue
        assert genre.format_code(made.puzzle) == full, seconds


def _first_size(genre: Genre[Any]) -> tuple[int, int]:
    width, height = bank.offered_sizes(genre)[0]
    return width, height


def _spin(until: float) -> None:
    while time.monotonic() < until:
        pass


@contextmanager
def both_cores_busy(seconds: float) -> Iterator[None]:
    """Two processes that keep both cores of the machine busy meanwhile."""
    until = time.monotonic() + seconds
    spinners = [multiprocessing.Process(target=_spin, args=(until,)) for _ in range(2)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()


# --- the bank: evidence, sampling, records ----------------------------------------------


def test_a_record_carries_its_evidence_and_provenance(genre: Genre[Any]) -> None:
    key = smallest(genre)
    record = first_record(key)
    assert record.key == key
    assert record.code.startswith(f"{genre.name}.")
    assert (record.verdict, record.engine) == ("unique", ENGINE_VERSION)
    assert record.elapsed_s >= 0
    assert record.generator == genre.generator
    assert record.health["attempts"] >= 1
    assert record.provenance == f"generated {genre.generator} seed {record.seed}"
    assert record.checks[0] == evidence.GENERATOR_CHECK
    assert record.canonical == evidence.canonical_code(genre, genre.parse_code(record.code))
    puzzle = genre.parse_code(record.code)
    outcome = genre.count(puzzle, 2, Deadline(30))
    assert (outcome.verdict, outcome.solutions) == (Verdict.UNIQUE, (record.solution,))
    assert record.verification() == {
        "verdict": "unique",
        "nodes": record.nodes,
        "elapsed_s": record.elapsed_s,
        "engine": ENGINE_VERSION,
        "checks": list(record.checks),
    }


def test_an_independent_counter_checks_the_sampled_boards(genre: Genre[Any]) -> None:
    key = smallest(genre)
    record = bank.make_record(key, 1, generate_s=20, check_every=1)
    assert record.checks == (evidence.GENERATOR_CHECK, genre.oracles[0].name)
    assert record.nodes >= 1  # the oracle's count
    plain = bank.make_record(key, 1, generate_s=20, check_every=10**9)
    assert not evidence.wants_check(genre, 1, plain.difficulty, 10**9)
    assert (plain.checks, plain.nodes) == ((evidence.GENERATOR_CHECK,), 0)
    assert plain.code == record.code


def test_the_sample_is_one_in_n_by_seed_and_every_board_above_hard(genre: Genre[Any]) -> None:
    easiest = genre.difficulties[0]
    picked = [s for s in range(1, 10_001) if evidence.wants_check(genre, s, easiest, 100)]
    assert 60 <= len(picked) <= 140
    assert picked == [s for s in range(1, 10_001) if evidence.wants_check(genre, s, easiest, 100)]
    order = list(Grade)
    above = [g for g in genre.difficulties if order.index(g) > order.index(Grade.HARD)]
    for grade in above:  # above hard: every board
        assert all(evidence.wants_check(genre, seed, grade, 100) for seed in range(1, 50))
    if Grade.HARD in genre.difficulties:
        assert not any(evidence.wants_check(genre, s, Grade.HARD, 10**9) for s in range(1, 50))
    assert all(evidence.wants_check(genre, seed, easiest, 1) for seed in range(1, 50))


def test_a_disagreeing_oracle_is_a_generation_error(genre: Genre[Any]) -> None:
    record = first_record(smallest(genre))
    puzzle = genre.parse_code(record.code)
    with pytest.raises(GenerationError, match=r"oracle says unique .* not the generator's"):
        evidence.independent_check(genre, puzzle, record.solution ^ 1)
    name, outcome = evidence.independent_check(genre, puzzle, record.solution) or ("", None)
    assert name == genre.oracles[0].name
    assert outcome is not None
    assert outcome.verdict is Verdict.UNIQUE


def test_the_canonical_code_is_the_same_for_every_image(genre: Genre[Any]) -> None:
    from gridproof.core.symmetry import Symmetry

    puzzle = genre.parse_code(first_record(smallest(genre)).code)
    canonical = evidence.canonical_code(genre, puzzle)
    for symmetry in Symmetry:
        assert evidence.canonical_code(genre, genre.transform(puzzle, symmetry)) == canonical


def test_a_copy_under_a_symmetry_is_banked_once(tmp_path: Path, genre: Genre[Any]) -> None:
    from dataclasses import replace

    from gridproof.core.symmetry import Symmetry

    store = bank.Bank(tmp_path / "bank.sqlite3")
    record = first_record(smallest(genre))
    turned = genre.format_code(genre.transform(genre.parse_code(record.code), Symmetry.FLIP_H))
    copy = replace(record, code=turned, seed=record.seed + 1000)
    assert store.add(record) is True
    if turned != record.code:
        assert store.add(copy) is False
        assert store.holder(copy) == record.code
    assert store.find(turned) is None or turned == record.code


def test_records_round_trip_through_sqlite(tmp_path: Path, genre: Genre[Any]) -> None:
    store = bank.Bank(tmp_path / "bank.sqlite3")
    record = first_record(smallest(genre))
    assert store.add(record) is True
    assert store.add(record) is False  # one row per code
    assert store.find(record.code) == record
    assert store.find("nothing") is None
    assert store.counts() == {record.key: 1}


def test_offered_sizes_stay_inside_each_genres_range(genre: Genre[Any]) -> None:
    sizes = bank.offered_sizes(genre)
    (min_w, min_h), (max_w, max_h) = genre.sizes
    assert sizes
    assert all(min_w <= w <= max_w and min_h <= h <= max_h for w, h in sizes)
    assert sizes == sorted(sizes)


def test_check_key_names_what_is_wrong(genre: Genre[Any]) -> None:
    key = smallest(genre)
    assert bank.check_key(genre.name, key.size, None) == key
    with pytest.raises(CodeError, match="unknown genre 'go'"):
        bank.check_key("go", "5x5", None)
    with pytest.raises(CodeError, match="size: size 'big' is not WIDTHxHEIGHT"):
        bank.check_key(genre.name, "big", None)
    with pytest.raises(CodeError, match=f"size 1x1 is outside {genre.title}'s range"):
        bank.check_key(genre.name, "1x1", None)
    with pytest.raises(CodeError, match="difficulty 'absurd' is not one of"):
        bank.check_key(genre.name, key.size, "absurd")


# --- drawing -------------------------------------------------------------------------------


def test_every_genre_is_drawn() -> None:
    assert all(_genre(name).draw is not None for name in NAMES)


def test_the_text_picture_shows_every_mark(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """The text picture (`format_text`) of any board has a line a row or more, and tells
    a solved grid from a blank one and from its opposite: every mark is shown."""
    genre, board = made
    puzzle, solution = board.puzzle, board.solution
    full = (1 << (puzzle.width * puzzle.height)) - 1
    blank = genre.format_text(puzzle, 0, 0)
    solved = genre.format_text(puzzle, solution, full & ~solution)
    opposite = genre.format_text(puzzle, full & ~solution, solution)
    assert len(blank) >= puzzle.height
    assert all(isinstance(line, str) for line in blank + solved)
    assert len({"\n".join(blank), "\n".join(solved), "\n".join(opposite)}) == 3
    for each in boards:
        assert len(genre.format_text(each, 0, 0)) >= each.height, genre.format_code(each)


def test_drawings_stay_inside_their_box(
    made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """Every board that parses draws, blank and with its solution, every shape inside the
    drawing's box (writers add the margin; nothing is cut off)."""
    genre, board = made
    if genre.draw is None:
        pytest.skip(f"{genre.title} is not drawn")
    shown = [genre.draw(board.puzzle, board.solution)]
    shown += [genre.draw(puzzle, None) for puzzle in boards]
    for each in shown:
        for shape in each.shapes:
            xs = [getattr(shape, k) for k in ("x", "x1", "x2") if hasattr(shape, k)]
            ys = [getattr(shape, k) for k in ("y", "y1", "y2") if hasattr(shape, k)]
            assert all(0 <= x <= each.width for x in xs), shape
            assert all(0 <= y <= each.height for y in ys), shape


# --- the workshop's edits ------------------------------------------------------------------


def test_every_genre_lists_edits() -> None:
    assert all(_genre(name).edits is not None for name in NAMES)


def test_the_workshop_repairs_an_ambiguous_board_keeping_the_pinned_solution(
    genre: Genre[Any], made: tuple[Genre[Any], Generated[Any]], boards: list[Any]
) -> None:
    """On boards with several solutions (`_mixed`: neighbours, the generated board's own
    edits, a picture's with pixels flipped), pinning the second, every edit the workshop
    suggests (from the genre's `edits`, each counted) keeps the pinned solution, one the
    counter proves unique ends at it, and some board gets a suggestion (a single edit need
    not exist for every board)."""
    from gridproof.service import Loaded, workshop

    assert genre.edits is not None
    _, board = made
    ambiguous = suggested = 0
    for puzzle in _mixed(genre, board, boards):
        outcome = genre.count(puzzle, 2, Deadline(60))
        if outcome.verdict is not Verdict.MULTIPLE or ambiguous >= 4:
            continue
        ambiguous += 1
        code = genre.format_code(puzzle)
        loaded = Loaded(code, genre, puzzle)
        pinned = outcome.solutions[1]
        repairs = workshop.suggest(loaded, pinned, Deadline(60), limit=10)
        assert repairs.complete, code
        suggested += len(repairs.edits)
        for s in repairs.edits:
            assert s.edit.keep is not None, (code, s.edit.text)
            assert genre.validate(s.edit.puzzle, s.edit.keep) == [], (code, s.edit.text)
            if s.outcome is Verdict.UNIQUE:
                counted = genre.count(s.edit.puzzle, 2, Deadline(60)).solutions
                assert counted == (s.edit.keep,), (code, s.edit.text)
    if ambiguous == 0:
        pytest.skip(f"no {genre.title} neighbour has several solutions")
    assert suggested, "the workshop suggested no edit for any ambiguous board"


# --- what a player gets without asking ----------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_default_grade_is_one_some_size_delivers(name: str) -> None:
    genre = _genre(name)
    grade = bank.default_difficulty(genre)
    assert any(grade in genre.offered(w, h) for w, h in bank.offered_sizes(genre))


def test_the_default_grade_is_not_easy_where_no_size_makes_it() -> None:
    """The bug a contributor met adding a genre: `easy` offered though no size delivers
    it, so every New game without a grade asked for a board that cannot come."""
    harder = LIGHTS.difficulties[1:]
    genre = dataclasses.replace(LIGHTS, grades_at=lambda width, height: harder)
    assert LIGHTS.difficulties[0] == "easy"
    assert bank.default_difficulty(genre) == harder[0]
    assert bank.default_difficulty(genre, 5, 5) == harder[0]


# --- what the browser draws -----------------------------------------------------------------

JSON_KEYS = {"regions": ("regions",), "circles": ("circles",), "line-clues": ("rows", "cols")}
"""The keys of a genre's JSON each layer is drawn from (`cell-clues` is the genre's own)."""


def test_the_look_names_what_the_json_holds(made: tuple[Genre[Any], Generated[Any]]) -> None:
    """The layers a genre's look declares are there in its JSON, and a layer's keys are
    there only if it declares the layer: the page draws the look, never guesses."""
    genre, generated = made
    data = genre.to_json(generated.puzzle)
    assert genre.look.layers
    for layer, keys in JSON_KEYS.items():
        assert all((key in data) == (layer in genre.look.layers) for key in keys), layer


def test_the_options_a_look_names_are_in_the_json(made: tuple[Genre[Any], Generated[Any]]) -> None:
    """An option the puzzle carries (`Look.options`) is one of the genre's options with
    choices, and the JSON holds it under its name with one of those choices: the workshop
    offers them as a menu and sends the choice back in the puzzle."""
    genre, generated = made
    data = genre.to_json(generated.puzzle)
    by_name = {option.name: option for option in genre.options}
    for name in genre.look.options:
        option = by_name[name]
        assert option.choices, name
        assert data[name] in option.choices, name
        for choice in option.choices:
            assert genre.from_json({**data, name: choice}), (name, choice)


def test_a_look_refuses_an_unknown_layer_or_symbol() -> None:
    with pytest.raises(ValueError, match="unknown layers"):
        Look(layers=("hexagons",))
    with pytest.raises(ValueError, match="unknown symbol 'moon'"):
        Look(shaded="moon")
