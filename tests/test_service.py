"""The service: loading every source format, and count / solve / validate / convert."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gridproof import service
from gridproof.core import registry
from gridproof.core.codes import parse_size
from gridproof.core.contract import Generated, Genre, Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError, GridproofError
from gridproof.core.ladder import Found, Ladder, Rung, rule
from gridproof.core.outcome import Outcome, Verdict, verdict_for
from gridproof.core.trace import Step, Violation
from gridproof.service import settings
from tests.examples import REGIONS, SOLUTION, URL


def one(source: str) -> service.Loaded:
    [item] = service.load(source)
    return item


def write_json(path: Path, obj: object) -> str:
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def puzzle_obj(**extra: Any) -> dict[str, Any]:
    return {"genre": "norinori", "width": 5, "height": 5, "regions": REGIONS, **extra}


def assert_one_line_error(source: str, *fragments: str, files: bool = True) -> str:
    with pytest.raises(CodeError) as caught:
        service.load(source, files=files)
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message
    return message


# --- load ----------------------------------------------------------------------------------


def test_a_code_loads_as_one_puzzle_named_by_itself(norinori: Genre, code: str) -> None:
    item = one(code)
    assert item.id == code
    assert item.genre is norinori
    assert (item.puzzle.width, item.puzzle.height) == (5, 5)
    assert item.expected is None
    assert item.solution is None


@pytest.mark.parametrize(
    "url",
    [
        URL,
        "puzz.link/p?norinori/5/5/cag4ocjo",
        "https://puzz.link/p?norinori_edit/5/5/cag4ocjo",
        "http://pzv.jp/p.html?norinori_play/5/5/cag4ocjo",
        f"  {URL}\n",
    ],
)
def test_url_forms_load_the_same_puzzle(norinori: Genre, code: str, url: str) -> None:
    item = one(url)
    assert item.id == url.strip()
    assert item.puzzle == one(code).puzzle


def test_a_single_puzzle_file_is_named_by_its_stem(norinori: Genre, tmp_path: Path) -> None:
    item = one(write_json(tmp_path / "five.json", puzzle_obj()))
    assert item.id == "five"
    assert item.puzzle == one(URL).puzzle


def test_a_corpus_file_gives_ids_genres_expected_and_solutions(
    norinori: Genre, tmp_path: Path
) -> None:
    corpus = {
        "genre": "norinori",
        "puzzles": [
            {**puzzle_obj(), "id": "named", "expected": "unique", "solution": [
                [1 if ch == "#" else 0 for ch in row] for row in SOLUTION
            ]},
            {"width": 5, "height": 5, "regions": REGIONS},
        ],
    }  # fmt: skip
    first, second = service.load(write_json(tmp_path / "set.json", corpus))
    assert (first.id, first.expected) == ("named", "unique")
    assert first.solution == norinori.parse_grid(first.puzzle, SOLUTION)
    assert first.solution is not None
    assert first.solution & 1
    assert (second.id, second.genre, second.expected, second.solution) == (
        "set#2",
        norinori,
        None,
        None,
    )


def test_json_text_loads_like_a_file(norinori: Genre) -> None:
    item = one(json.dumps(puzzle_obj(id="pasted")))
    assert item.id == "pasted"
    assert item.puzzle == one(URL).puzzle


def test_the_corpus_loads_with_expected_outcomes_and_solutions(
    norinori: Genre, corpus_dir: Path
) -> None:
    items = service.load(str(corpus_dir / "janko-norinori.json"))
    assert len(items) > 100
    assert len({item.id for item in items}) == len(items)
    for item in items:
        assert item.expected in ("unique", "multiple", "none")
        if item.expected == "unique":
            assert item.solution is not None
            assert norinori.validate(item.puzzle, item.solution) == []


@pytest.mark.parametrize(
    ("source", "fragments"),
    [
        ("", ["empty source"]),
        ("   ", ["empty source"]),
        ("nothing", ["'nothing'", "puzzle code", "URL"]),
        ("norinori.1.5x5.zzz", ["code 'norinori.1.5x5.zzz'"]),
        ("sudoku.1.9x9.abc", ["'sudoku'", "known: ", "norinori"]),
        ("https://puzz.link/p?norinori/5/5/", ["URL 'https://puzz.link/p?norinori/5/5/'"]),
        ("https://puzz.link/p?slither/5/5/x", ["unknown genre 'slither'", "norinori"]),
        ("https://puzz.link/list.html", ["no genre after '?'"]),
        ("puzz.link/p?", ["no genre after '?'"]),
        ("no/such/file.json", ["cannot read file 'no/such/file.json'"]),
        ("{bad", ["JSON text", "invalid JSON at line 1, column 2"]),
        ("{}", ["JSON text: puzzle: missing key 'genre'"]),
        ('{"genre": 3}', ["'genre' must be a string"]),
        ('{"genre": "norinori"}', ["JSON text: puzzle:"]),
        ('{"genre": "norinori", "puzzles": 3}', ["'puzzles' must be a list"]),
        ('{"genre": "norinori", "puzzles": []}', ["'puzzles' is empty"]),
        ('{"puzzles": [{"id": "a"}]}', ["puzzle 1 ('a'): missing key 'genre'"]),
        ('{"genre": "norinori", "puzzles": [7]}', ["puzzle 1 must be a JSON object"]),
        ("[" * 100_000, ["is not a puzzle code"]),
    ],
)
def test_bad_sources_are_one_line_code_errors(
    norinori: Genre, source: str, fragments: list[str]
) -> None:
    assert_one_line_error(source, *fragments)


def test_deeply_nested_json_is_a_code_error(norinori: Genre) -> None:
    assert_one_line_error('{"a":' * 100_000 + "1" + "}" * 100_000, "JSON text")


def test_invalid_json_in_a_file_says_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "genre": "norinori",\n  "puzzles": [,]\n}\n', encoding="utf-8")
    message = assert_one_line_error(str(path), "broken.json", "line 3, column 15")
    assert message.startswith("file ")


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"\xff\xfe junk", "not UTF-8"),
        (b"[1, 2]", "expected a JSON object, found a list"),
        (b'"text"', "found a string"),
    ],
)
def test_unusable_files_are_code_errors(tmp_path: Path, content: bytes, fragment: str) -> None:
    path = tmp_path / "odd.json"
    path.write_bytes(content)
    assert_one_line_error(str(path), "odd.json", fragment)


def test_a_directory_is_not_readable(tmp_path: Path) -> None:
    assert_one_line_error(str(tmp_path), "cannot read file")


def test_files_above_the_size_cap_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "MAX_FILE_BYTES", 10)
    assert_one_line_error(write_json(tmp_path / "big.json", puzzle_obj()), "larger than")


def test_a_bad_puzzle_in_a_corpus_names_its_place_and_id(norinori: Genre, tmp_path: Path) -> None:
    bad_regions = [[0, 1, 0, 2, 2], *REGIONS[1:]]  # region 0 in two pieces
    corpus = {
        "genre": "norinori",
        "puzzles": [puzzle_obj(id="fine"), puzzle_obj(id="broken", regions=bad_regions)],
    }
    assert_one_line_error(
        write_json(tmp_path / "c.json", corpus), "c.json", "puzzle 2 ('broken')", "not connected"
    )


@pytest.mark.parametrize(
    "solution",
    [
        "#####",
        [[0, 1]],
        [[0, 0, 0, 0, 2]] * 5,
        [[0, 0, 0, 0, 0.5]] * 5,
        [[0, 0, 0, 0, "1"]] * 5,
        [[0, 0, 0, 0]] * 5,
    ],
)
def test_malformed_corpus_solutions_are_code_errors(
    norinori: Genre, tmp_path: Path, solution: object
) -> None:
    path = write_json(tmp_path / "s.json", puzzle_obj(solution=solution))
    assert_one_line_error(path, "s.json", "'solution'")


def test_expected_must_be_a_string(norinori: Genre) -> None:
    assert_one_line_error(json.dumps(puzzle_obj(expected=2)), "'expected' must be a string")


def test_files_can_be_refused(norinori: Genre, tmp_path: Path) -> None:
    path = write_json(tmp_path / "five.json", puzzle_obj())
    assert_one_line_error(path, "file paths are not accepted", files=False)
    assert_one_line_error("/etc/passwd", "file paths are not accepted", files=False)
    assert_one_line_error("nothing", "is not a puzzle code", files=False)
    assert one(path).id == "five"


# --- count ---------------------------------------------------------------------------------


def test_count_reports_exactly_the_documented_keys(norinori: Genre, code: str) -> None:
    counted = service.count(one(code))
    assert counted.verdict is Verdict.UNIQUE
    assert counted.solutions == (tuple(SOLUTION),)
    result = counted.to_json()
    assert list(result) == ["id", "genre", "outcome", "solutions", "elapsed_s", "nodes"]
    assert result["id"] == code
    assert result["genre"] == "norinori"
    assert result["outcome"] == "unique"
    assert result["solutions"] == [SOLUTION]
    assert isinstance(result["elapsed_s"], float)
    assert isinstance(result["nodes"], int)
    json.dumps(result)


@pytest.mark.parametrize(
    ("regions", "outcome", "found"),
    [([[0, 0], [0, 0]], "multiple", 2), ([[0, 1]], "none", 0)],
)
def test_count_tells_multiple_and_none(
    norinori: Genre, regions: list[list[int]], outcome: str, found: int
) -> None:
    from gridproof.genres.norinori.model import make_puzzle

    item = one(norinori.format_code(make_puzzle(regions)))
    result = service.count(item, limit=2, deadline=10)
    assert result.verdict == outcome
    assert len(result.solutions) == found


def test_count_keeps_expected_out_of_the_result(norinori: Genre) -> None:
    item = one(json.dumps(puzzle_obj(expected="multiple")))
    assert "expected" not in service.count(item).to_json()


@pytest.mark.parametrize(
    ("limit", "deadline_s", "fragment"),
    [
        (1, None, "limit must be at least 2"),
        (0, None, "limit must be at least 2"),
        (2, 0.0, "deadline must be a positive number"),
        (2, -1.0, "deadline must be a positive number"),
        (2, float("nan"), "deadline must be a positive number"),
        (2, float("inf"), "deadline must be a positive number"),
    ],
)
def test_count_refuses_bad_limits_and_deadlines(
    norinori: Genre, code: str, limit: int, deadline_s: float | None, fragment: str
) -> None:
    with pytest.raises(CodeError, match=fragment):
        service.count(one(code), limit, deadline_s)


def test_a_deadline_can_be_a_deadline(norinori: Genre, code: str) -> None:
    expired = Deadline(0)
    assert service.count(one(code), 2, expired).verdict is Verdict.TIMEOUT
    assert service.count(one(code), 2, Deadline(10)).verdict is Verdict.UNIQUE


def test_count_agrees_with_the_corpus_on_small_puzzles(norinori: Genre, corpus_dir: Path) -> None:
    items = service.load(str(corpus_dir / "janko-norinori.json"))
    small = [item for item in items if item.puzzle.width * item.puzzle.height <= 100][:12]
    assert small
    for item in small:
        result = service.count(item)
        assert result.verdict == item.expected, item.id
        if item.solution is not None:
            assert result.solutions == (tuple(norinori.format_grid(item.puzzle, item.solution)),)


# --- solve, validate, convert, genres ------------------------------------------------------


def test_solve_reports_grid_steps_and_progress(norinori: Genre, code: str) -> None:
    for rung in norinori.rungs:
        solved = service.solve(one(code), rung, 10)
        assert solved.rung == rung
        assert solved.contradiction is None
        result = solved.to_json()
        assert list(result) == [
            "id", "rules", "decided", "grid", "steps", "contradiction", "timed_out", "notes"
        ]  # fmt: skip
        assert result["rules"] == rung
        assert 0.0 <= result["decided"] <= 1.0
        assert len(result["grid"]) == 5
        assert all(len(row) == 5 and set(row) <= set("#.?") for row in result["grid"])
        for step in result["steps"]:
            assert list(step) == ["rule", "text", "shaded", "empty", "cells", "regions"]
            assert all(0 <= cell < 25 for cell in step["shaded"] + step["empty"])
        assert result["contradiction"] is None
        assert result["timed_out"] is False
        json.dumps(result)


def test_solve_grid_agrees_with_its_steps(norinori: Genre, code: str) -> None:
    result = service.solve(one(code), norinori.rungs[-1]).to_json()
    decided = {cell for step in result["steps"] for cell in step["shaded"] + step["empty"]}
    shaded = {cell for step in result["steps"] for cell in step["shaded"]}
    for cell in range(25):
        mark = result["grid"][cell // 5][cell % 5]
        assert mark == ("#" if cell in shaded else "." if cell in decided else "?")
    assert result["decided"] == round(len(decided) / 25, 4)


def test_solve_without_a_rung_runs_the_whole_ladder(norinori: Genre, code: str) -> None:
    solved = service.solve(one(code))
    assert solved.rung == norinori.ladder.top
    assert solved.complete
    assert solved.grid == tuple(SOLUTION)


def test_solve_refuses_unknown_rungs_naming_the_known_ones(norinori: Genre, code: str) -> None:
    with pytest.raises(CodeError, match="unknown rung 'magic'") as caught:
        service.solve(one(code), "magic", None)
    assert all(rung in str(caught.value) for rung in norinori.rungs)


def test_validate_lists_nothing_for_the_solution(norinori: Genre, code: str) -> None:
    assert service.validate(one(code), SOLUTION) == []


def test_validate_lists_every_violation(norinori: Genre, code: str) -> None:
    violations = service.validate(one(code), ["#####", ".....", ".....", ".....", "....."])
    assert violations
    assert all(isinstance(violation, Violation) for violation in violations)
    listed = [service.violation_to_json(violation) for violation in violations]
    for violation in listed:
        assert list(violation) == ["rule", "text", "cells", "regions", "quota", "group"]
        assert isinstance(violation["text"], str)
    json.dumps(listed)


@pytest.mark.parametrize("rows", [["##..."], ["##...."] * 5, ["##..x"] * 5])
def test_validate_refuses_malformed_grids(norinori: Genre, code: str, rows: list[str]) -> None:
    with pytest.raises(CodeError, match="grid for ") as caught:
        service.validate(one(code), rows)
    assert "\n" not in str(caught.value)


def test_convert_round_trips_every_format(norinori: Genre, code: str) -> None:
    item = one(code)
    assert service.convert(item, "code") == code
    assert service.convert(item, "url") == URL
    text = service.convert(item, "json")
    assert "\n" not in text
    assert ", " not in text
    obj = json.loads(text)
    assert (obj["id"], obj["genre"]) == (code, "norinori")
    again = one(text)
    assert (again.id, again.puzzle) == (code, item.puzzle)
    assert one(service.convert(item, "url")).puzzle == item.puzzle


def test_convert_refuses_unknown_formats(norinori: Genre, code: str) -> None:
    with pytest.raises(CodeError, match="unknown format 'svg'"):
        service.convert(one(code), "svg")


def test_genre_list_names_every_genre_with_its_rungs(norinori: Genre) -> None:
    listed = {entry.name: entry.to_json() for entry in service.genre_list()}
    assert listed["norinori"] == {
        "name": "norinori",
        "title": norinori.title,
        "rungs": list(norinori.rungs),
    }


# --- plumbing with a stand-in genre ---------------------------------------------------------


@dataclass(frozen=True)
class Tiny:
    width: int
    height: int
    solutions: int


@dataclass
class TinyPosition:
    shaded: int = 0
    empty: int = 0

    def apply(self, step: Step) -> Violation | None:
        self.shaded |= step.shaded
        self.empty |= step.empty
        return None


@rule("look", "Look", "the first cell is shaded, the second empty")
def look(position: TinyPosition) -> Found:
    return [] if position.shaded & 1 else [look.step(shaded=1, empty=2)]


def tiny_code(text: str) -> Tiny:
    """`tiny.1.WxH.N` (N = its number of solutions)."""
    parts = text.split(".")
    if len(parts) != 4:
        raise CodeError(f"expected 4 parts, found {len(parts)}")
    width, height = parse_size(parts[2], "code params")
    return Tiny(width, height, int(parts[3]))  # ValueError for a payload not a number: a bug


def tiny_url(url: str) -> Tiny:
    parts = url.split("?")[1].split("/")[1:]
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        raise CodeError("expected WIDTH/HEIGHT/SOLUTIONS")
    width, height, payload = (int(part) for part in parts)
    return Tiny(width, height, payload)


def tiny_count(puzzle: Tiny, limit: int, deadline: Deadline) -> Outcome:
    found = tuple(range(1, min(puzzle.solutions, limit) + 1))
    verdict = verdict_for(len(found), not deadline.expired())
    return Outcome(verdict, found, limit, nodes=3, propagations=0, elapsed=0.0)


def no_boards(request: Request, seed: int, deadline: Deadline) -> Generated[Tiny]:
    raise GenerationError("tiny boards are not generated", {})


TINY: Genre[Tiny] = Genre(
    name="tiny",
    title="Tiny",
    lessons=("Shade the first cell.",),
    parse_code=tiny_code,
    format_code=lambda p: f"tiny.1.{p.width}x{p.height}.{p.solutions}",
    parse_url=tiny_url,
    format_url=lambda p: f"https://puzz.link/p?tiny/{p.width}/{p.height}/{p.solutions}",
    from_json=lambda obj: Tiny(obj["width"], obj["height"], obj["solutions"]),  # KeyError: a bug
    to_json=lambda p: {
        "genre": "tiny",
        "width": p.width,
        "height": p.height,
        "solutions": p.solutions,
        "id": "x",
    },
    validate=lambda p, shaded: (
        [] if shaded == 1 else [Violation("one", "shade only the first cell", (0,))]
    ),
    ladder=Ladder((Rung("look", "easy", "the first two cells", (look,)),)),
    position=lambda puzzle, deadline: TinyPosition(),
    count=tiny_count,
    transform=lambda puzzle, symmetry: puzzle,
    generate=no_boards,
    generator="tiny/1",
    sizes=((1, 1), (9, 9)),
    largest=(9, 9),
)


@pytest.fixture
def tiny() -> Iterator[Genre[Tiny]]:
    """The stand-in, registered alone."""
    saved = registry.genres()
    for name in saved:
        registry.unregister(name)
    registry.register(TINY)
    yield TINY
    registry.unregister(TINY.name)
    for genre in saved.values():
        registry.register(genre)


def test_the_service_only_uses_the_genre_contract(tiny: Genre[Tiny]) -> None:
    item = one("tiny.1.2x2.1")
    assert item.genre is tiny
    assert service.count(item).solutions == (("#.", ".."),)
    assert service.count(one("puzz.link/p?tiny/2/2/5")).verdict is Verdict.MULTIPLE
    assert service.solve(item, "look").grid == ("#.", "??")
    assert service.solve(item, "look").decided == 0.5
    assert service.solve(item).rung == "look"
    assert service.validate(item, ["#.", ".."]) == []
    assert (
        service.convert(item, "json")
        == '{"id":"tiny.1.2x2.1","genre":"tiny","width":2,"height":2,"solutions":1}'
    )
    assert [g.to_json() for g in service.genre_list()] == [
        {"name": "tiny", "title": "Tiny", "rungs": ["look"]}
    ]


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("tiny.1.2x2", "code 'tiny.1.2x2': expected 4 parts, found 3"),
        ("tiny.1.axb.1", "code 'tiny.1.axb.1': code params: size 'axb' is not WIDTHxHEIGHT"),
        ("https://puzz.link/p?tiny/2", "URL 'https://puzz.link/p?tiny/2': expected WIDTH/"),
        ("norinori.1.5x5.abc", "unknown genre 'norinori'; known: tiny"),
    ],
)
def test_a_codecs_code_errors_are_reported_where_they_happened(
    tiny: Genre[Tiny], source: str, fragment: str
) -> None:
    assert_one_line_error(source, fragment)


@pytest.mark.parametrize(
    ("source", "error"),
    [("tiny.1.2x2.many", ValueError), ('{"genre": "tiny", "width": 2}', KeyError)],
)
def test_anything_else_a_codec_raises_is_a_bug_and_surfaces(
    tiny: Genre[Tiny], source: str, error: type[Exception]
) -> None:
    with pytest.raises(error) as caught:
        service.load(source)
    assert not isinstance(caught.value, GridproofError)


def test_generate_refuses_options_the_genre_lacks(norinori: Genre) -> None:
    with pytest.raises(CodeError, match="Norinori has no option 'colour'; it has none"):
        service.generate("norinori", 6, 6, 1, options={"colour": "red"})


@pytest.mark.parametrize("name", ["norinori", "nondango", "nonogram"])
def test_a_board_past_the_largest_is_refused_at_parse_time(name: str) -> None:
    genre = registry.genre(name)
    wide = genre.largest[0] + 1
    puzzle = {
        "norinori": {"genre": name, "width": wide, "height": 1, "regions": [[0] * wide]},
        "nondango": {
            "genre": name,
            "width": wide,
            "height": 1,
            "regions": [[0] * wide],
            "circles": [[1] * wide],
        },
        "nonogram": {"genre": name, "rows": [[1]], "cols": [[1]] + [[]] * (wide - 1)},
    }[name]
    with pytest.raises(service.CodeError, match=str(genre.largest[0])):
        service.load(json.dumps(puzzle), files=False)


# --- a genre's own formats: Pattern IDs and .non -------------------------------------------

PATTERN = "4x4:2/1/2/1/1.1/2/1/1"
NON = "width 4\nheight 4\n\nrows\n1,1\n2\n1\n1\n\ncolumns\n2\n1\n2\n1\n"


def test_a_pattern_id_and_non_text_are_sources() -> None:
    by_pattern = one(PATTERN)
    assert (by_pattern.id, by_pattern.genre.name) == (PATTERN, "nonogram")
    by_non = one(NON)
    assert (by_non.id, by_non.puzzle) == ("non text", by_pattern.puzzle)
    assert one(service.convert(by_pattern, "code")).puzzle == by_pattern.puzzle
    # the web reads no files, but text in these formats is not a file
    assert service.load(PATTERN, files=False)[0].puzzle == by_pattern.puzzle
    assert service.load(NON, files=False)[0].puzzle == by_pattern.puzzle


def test_a_non_file_is_a_source_and_its_goal_the_solution(tmp_path: Path) -> None:
    path = tmp_path / "cat.non"
    path.write_text('title "Cat"\n' + NON + 'goal "1001110000100010"\n', encoding="utf-8")
    item = one(str(path))
    assert (item.id, item.puzzle) == ("cat", one(PATTERN).puzzle)
    assert item.solution == int("1001110000100010"[::-1], 2)
    assert service.validate(item, ["#..#", "##..", "..#.", "..#."]) == []
    # a .non file is read as .non even where it does not look like one, to say why
    (tmp_path / "bad.non").write_text("width 4\n", encoding="utf-8")
    assert_one_line_error(str(tmp_path / "bad.non"), "bad.non' (non): .non: the file has no")
    assert_one_line_error(
        "4x4:2/1/2/1/1.1/2/1/x", "source (tatham): pattern id: row 4: clue 'x'", files=False
    )


def test_convert_writes_every_format_and_reads_it_back(tmp_path: Path) -> None:
    path = tmp_path / "p.non"
    path.write_text(NON + 'goal "1001110000100010"\n', encoding="utf-8")
    item = one(str(path))
    assert service.formats() == ("code", "url", "json", "non", "pzprv3", "tatham")
    for to in service.formats():
        text = service.convert(item, to)
        assert one(text).puzzle == item.puzzle, to
    assert service.convert(item, "tatham") == PATTERN + ",Ap"  # the square line solving needs
    written = service.convert(item, "non")
    assert written.endswith('goal "1001110000100010"\n')
    assert one(written).solution == item.solution
    assert "goal" not in service.convert(one(PATTERN), "non")
    assert one(service.convert(item, "pzprv3")).solution == item.solution


@pytest.mark.parametrize("name", ["norinori", "nonogram", "nondango"])
@pytest.mark.parametrize("to", service.formats())
def test_every_convert_target_reads_back_what_it_wrote_or_refuses(name: str, to: str) -> None:
    board = service.generate(name, 6, 6, 5)
    own = {fmt.name for fmt in board.genre.formats}
    if to not in ("code", "url", "json") and to not in own:
        with pytest.raises(CodeError, match=f"unknown format '{to}' for {board.genre.title}"):
            service.convert(board.loaded, to)
        return
    blank = dataclasses.replace(board.loaded, solution=None)
    for item in (blank, board.loaded):
        back = one(service.convert(item, to))
        assert (back.genre, back.puzzle) == (board.genre, board.puzzle)
        if to in ("non", "pzprv3"):  # the formats that hold a solution
            assert back.solution == item.solution


def test_convert_refuses_formats_a_genre_lacks(norinori: Genre, code: str) -> None:
    with pytest.raises(CodeError, match="unknown format 'tatham' for Norinori; formats: code, url"):
        service.convert(one(code), "tatham")


def test_convert_refuses_at_write_time_what_a_format_cannot_hold() -> None:
    from gridproof.genres.nonogram.model import make_puzzle

    tall = one(service.convert(one(PATTERN), "code"))
    tall = service.Loaded("tall", tall.genre, make_puzzle([(1,)] * 110, [(110,)] + [()] * 69))
    with pytest.raises(CodeError, match=r"70x110 cannot be written as url: .*from 1 to 100"):
        service.convert(tall, "url")
    long = service.Loaded("long", tall.genre, make_puzzle([(512,)], [(1,)] * 512))
    with pytest.raises(CodeError, match="512x1 cannot be written as url: clue 512 is too large"):
        service.convert(long, "url")
    for to in ("code", "json", "non", "tatham", "pzprv3"):  # these hold both
        assert one(service.convert(long, to)).puzzle == long.puzzle


def test_convert_refuses_a_text_that_reads_back_as_another_puzzle() -> None:
    item = one(PATTERN)
    other = service.convert(one("3x2:1/1/1/2/1"), "code")
    wrong = dataclasses.replace(item.genre, format_code=lambda puzzle: other)
    with pytest.raises(CodeError, match=r"cannot be written as code: .*reads back as another"):
        service.convert(dataclasses.replace(item, genre=wrong), "code")


def test_reading_keeps_the_callers_deadline() -> None:
    """Issue 26: a large grid is read under the caller's deadline, and a Pattern ID's
    prefilled squares are checked under it: a spent deadline is a one-line CodeError."""
    from gridproof.core.deadline import Deadline
    from gridproof.genres.nonogram import formats
    from gridproof.genres.nonogram.model import make_puzzle

    puzzle = make_puzzle([(1,), (1,)], [(1,), (1,)])
    spent = Deadline(0)
    for text in (formats.format_pzprv3(puzzle, 0b1001), formats.format_non(puzzle, goal=0b1001)):
        assert service.load(text, files=False, deadline=10)[0].solution == 0b1001
        with pytest.raises(CodeError, match="deadline passed while it was being read"):
            service.load(text, files=False, deadline=spent)
    pattern = formats.format_pattern(puzzle) + ",Ac"  # two solutions: the squares decide
    with pytest.raises(CodeError, match="decide what the clues leave open"):
        service.load(pattern, files=False, deadline=10)
    with pytest.raises(CodeError, match="within the time allowed"):
        service.load(pattern, files=False, deadline=spent)


def test_a_file_name_with_a_nul_character_is_a_code_error() -> None:
    with pytest.raises(CodeError, match="NUL"):
        service.load("a/b\x00")


def test_count_without_sat_asks_the_genres_pure_counter() -> None:
    item = service.load("nonogram.1.5x5.STREk000RNQ")[0]
    asked: list[bool] = []

    def counter(sat: bool) -> Any:
        def count(puzzle: Any, limit: int, deadline: Any) -> Any:
            asked.append(sat)
            return item.genre.count(puzzle, limit, deadline)

        return count

    genre = dataclasses.replace(item.genre, count=counter(True), count_pure=counter(False))
    patched = dataclasses.replace(item, genre=genre)
    assert service.count(patched, 2, 10).verdict == service.count(patched, 2, 10, sat=False).verdict
    assert asked == [True, False]
    # a genre whose counter is pure Python already has no `count_pure`: the switch is moot
    plain = dataclasses.replace(item, genre=dataclasses.replace(genre, count_pure=None))
    service.count(plain, 2, 10, sat=False)
    assert asked == [True, False, True]


@pytest.mark.parametrize("name", sorted(registry.genres()))
def test_generate_takes_every_grade_offered_under_the_options_asked(name: str) -> None:
    """A grade is taken or refused by what the genre offers at that size under the options
    asked for (a one-star Star Battle at 15x15 offers easy, a three-star one does not),
    never under the default options alone: each grade, option setting and offered size
    either starts generating (here: runs out of an already spent deadline) or is refused
    as a `CodeError` naming what is offered."""
    genre = registry.genre(name)
    sizes = settings.offered_sizes(genre)
    for options in settings.choices(genre):
        for width, height in (sizes[0], sizes[-1]):
            offered = genre.offered(width, height, options)
            for grade in genre.difficulties:
                spent = Deadline(0)
                if grade in offered:
                    with pytest.raises(GenerationError):
                        service.generate(name, width, height, 1, grade, spent, options)
                else:
                    with pytest.raises(CodeError, match="offers"):
                        service.generate(name, width, height, 1, grade, spent, options)
