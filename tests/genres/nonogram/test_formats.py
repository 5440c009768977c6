"""Simon Tatham's Pattern game IDs and `.non` files: examples, round trips (and agreement
with the project's own code), errors that say where, and fuzzing (only CodeError may
escape a parser)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gridproof as gp
from gridproof import service
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError
from gridproof.core.grid import bits
from gridproof.core.rng import Rng
from gridproof.genres.nonogram.codec import format_code, parse_code, parse_url
from gridproof.genres.nonogram.engine import Board, Grid, Propagator
from gridproof.genres.nonogram.formats import (
    NonFile,
    _prefilled,
    _squares_text,
    format_non,
    format_pattern,
    is_non,
    is_pattern,
    parse_non,
    parse_pattern,
    read_non,
)
from gridproof.genres.nonogram.model import Nonogram, clues_of
from tests.genres.nonogram.boards import PATTERN_EXAMPLE, board_mix, random_picture

EXAMPLE_URL = "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h"
EXAMPLE_PATTERN = "6x6:2.1/1.1.1/1/1.1.1/2.1//2.1/1.1/1.2//1.1/3"
BOARDS = board_mix(150, seed=99, largest=9)


def test_the_pattern_examples_of_formats_md() -> None:
    assert format_pattern(parse_url(EXAMPLE_URL)) == EXAMPLE_PATTERN
    assert parse_pattern(EXAMPLE_PATTERN) == parse_url(EXAMPLE_URL)
    pattern = parse_pattern(PATTERN_EXAMPLE)
    assert pattern.cols == ((2,), (1,), (2,), (1,))
    assert pattern.rows == ((1, 1), (2,), (1,), (1,))


def test_a_square_pattern_id_may_give_its_side_once() -> None:
    square = parse_pattern("4:" + PATTERN_EXAMPLE.partition(":")[2])
    assert square == parse_pattern(PATTERN_EXAMPLE)
    assert format_pattern(square) == PATTERN_EXAMPLE
    assert parse_pattern(f"  {PATTERN_EXAMPLE}\n") == square


def test_a_wide_pattern_id_lists_columns_first() -> None:
    puzzle = clues_of(3, 2, 0b100_011)  # rows: ##. and ..#
    assert format_pattern(puzzle) == "3x2:1/1/1/2/1"
    assert parse_pattern("3x2:1/1/1/2/1") == puzzle


@pytest.mark.parametrize(
    ("fmt", "parse"),
    [(format_pattern, parse_pattern), (format_non, parse_non)],
    ids=["pattern", "non"],
)
def test_round_trips(fmt: Callable[[Nonogram], str], parse: Callable[[str], Nonogram]) -> None:
    for puzzle in BOARDS:
        text = fmt(puzzle)
        assert parse(text) == puzzle
        assert fmt(parse(text)) == text


def test_every_format_reads_back_the_same_puzzle() -> None:
    rng = Rng(5)
    for _ in range(30):
        w, h = rng.randint(1, 14), rng.randint(1, 14)
        puzzle = clues_of(w, h, random_picture(rng, w, h, 0.5))
        code = format_code(puzzle)
        via_pattern = parse_pattern(format_pattern(parse_code(code)))
        via_non = parse_non(format_non(via_pattern, title="a board"))
        assert format_code(via_non) == code


def test_non_reads_properties_blank_lines_and_size_lines() -> None:
    text = (
        'catalogue "x"\ntitle "T"\nrows 2\n\ncolumns 3\n'
        'rows\n1, 1\n0\n\ncolumns\n1\n0\n1\ngoal "101000"\n'
    )
    puzzle = parse_non(text)
    assert puzzle.rows == ((1, 1), ())
    assert puzzle.cols == ((1,), (), (1,))
    assert format_non(puzzle, "T").startswith('title "T"\nwidth 3\nheight 2\n')
    assert parse_non(text.replace("\n", "\r\n")) == puzzle
    read = read_non(text)
    assert read.goal == 0b101
    assert read.properties == (("catalogue", "x"), ("title", "T"))


def test_a_blank_line_in_a_section_is_an_empty_line() -> None:
    text = "width 3\nheight 3\nrows\n1\n\n1\ncolumns\n1,1\n\n\n"
    puzzle = parse_non(text)
    assert puzzle.rows == ((1,), (), (1,))
    assert puzzle.cols == ((1, 1), (), ())
    assert parse_non(text.replace("\n\n1\n", "\n0\n1\n").replace("\n\n\n", "\n0\n0\n")) == puzzle


def test_non_writes_titles_escaped_goal_and_properties_and_reads_them_back() -> None:
    puzzle = clues_of(3, 2, 0b100_011)
    title = 'x "q" \\ y'
    text = format_non(puzzle, title, goal=0b100_011, properties=[("author", "A. N. Other")])
    assert text.startswith('title "x \\"q\\" \\\\ y"\nauthor "A. N. Other"\nwidth 3\n')
    assert text.endswith('\ngoal "110001"\n')
    read = read_non(text)
    assert read == NonFile(puzzle, 0b100_011, (("title", title), ("author", "A. N. Other")))
    kept = format_non(read.puzzle, goal=read.goal, properties=read.properties)
    assert kept == text
    with pytest.raises(CodeError, match="spans lines"):
        format_non(puzzle, "two\nlines")


def test_the_sniffers_tell_the_formats_apart() -> None:
    assert is_pattern(PATTERN_EXAMPLE)
    assert is_pattern("4:2/1/2/1/1.1/2/1/1")
    assert not is_pattern("nonogram.1.4x4.abc")
    assert not is_pattern("https://puzz.link/p?nonogram/4/4/x")
    assert is_non(format_non(clues_of(2, 2, 0b0011)))
    assert is_non("Rows 2\ncolumns 2\nROWS\n1\n1\nColumns\n2\n0\n")
    assert not is_non("width 2\nheight 2")
    assert not is_non(PATTERN_EXAMPLE)


def test_non_writes_an_empty_line_as_zero() -> None:
    puzzle = clues_of(2, 2, 0b0011)
    assert format_non(puzzle) == "width 2\nheight 2\n\nrows\n2\n0\n\ncolumns\n1\n1\n"


@pytest.mark.parametrize(
    ("parse", "text", "match"),
    [
        (parse_pattern, "4x4:2/1/2/1/1.1/2/1", "has 7 clues, expected 8"),
        (parse_pattern, "4x4:2/1/2/1/1.1/2/1/x", "row 4: clue 'x' is not numbers"),
        (parse_pattern, "4x4:2/1/2/1/1.1/2/1/1,abc", "prefilled"),
        (parse_pattern, "4x4:2/1/2/1/1.-1/2/1/1", "row 1: clue '1.-1'"),
        (parse_pattern, "4x4:2/1/2/1/1.0/2/1/1", "row 1: clue '1.0' holds 0"),
        (parse_pattern, "4x4:5/1/2/1/1.1/2/1/1", "column 1: clue '5' needs 5 cells"),
        (parse_pattern, "4x4:2/1/2/1/2/2/2/1", "row clues shade 7 cells but"),
        (parse_pattern, "4y4:2/1", "is not WIDTHxHEIGHT:CLUES"),
        (parse_pattern, "0x4:", "is not WIDTHxHEIGHT:CLUES"),
        (parse_pattern, "4x4", "is not WIDTHxHEIGHT:CLUES"),
        (parse_pattern, "2000x1:", "exceeds"),
        (parse_non, "width 2\nheight 1\nrows\n1\ncolumns\n1\n", "'columns' needs 2 rules"),
        (parse_non, "width 2\nheight 1\nrows\n1\n", "no 'columns' section"),
        (parse_non, "rows\n1\n", "'rows' comes before 'height'"),
        (parse_non, "width 2\nheight 1\nrows\n1;1\ncolumns\n1\n1\n", "line 4: rule '1;1'"),
        (parse_non, "width 2\nheight 1\nrows\n0,1\ncolumns\n1\n0\n", "0 beside other numbers"),
        (parse_non, "width 2\nheight 1\nrows\n1\nrows\n1\n", "a second 'rows' section"),
        (parse_non, "width 2\nwidth 3\n", "line 2: width given twice"),
        (parse_non, "width x\n", "width 'x' is not a positive number"),
        (parse_non, "height 0\n", "height '0' is not a positive number"),
        (parse_non, "width 5000\n", "exceeds"),
        (parse_non, "", "no 'rows' section"),
        (
            parse_non,
            "width 2\nheight 1\nrows\n1\n1\ncolumns\n1\n0\n",
            "line 5: rule '1' is outside",
        ),
        (parse_non, 'title "x\nwidth 1\n', "line 1: '\"x' has no closing quote"),
        (parse_non, "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal 1\n", "line 8: goal is not 2"),
        (parse_non, "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal 01\n", "goal does not fit"),
    ],
)
def test_parse_errors_say_where(parse: Callable[[str], Nonogram], text: str, match: str) -> None:
    with pytest.raises(CodeError, match=match):
        parse(text)


_TEXT = st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz.-/:x,\n ", max_size=60)


def _survives(parse: Callable[[str], Nonogram], text: str) -> None:
    with contextlib.suppress(CodeError):
        parse(text)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT)
def test_fuzz_patterns_and_non(a: str, b: str) -> None:
    _survives(parse_pattern, f"3x2:{a}")
    _survives(parse_pattern, a + b)
    _survives(parse_non, f"width 3\nheight 2\nrows\n{a}\ncolumns\n{b}")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_fuzz_any_text(text: str) -> None:
    _survives(parse_pattern, text)
    _survives(parse_non, text)
    _survives(parse_non, f"width 2\nheight 2\n{text}")


def _converted(item: service.Loaded, to: str) -> str | CodeError:
    try:
        return service.convert(item, to)
    except CodeError as error:
        return error


@pytest.mark.slow
@pytest.mark.parametrize("name", ["janko-nonogram.json", "hard-nonograms.json"])
def test_every_corpus_puzzle_converts_to_every_target_and_back(corpus_dir: Path, name: str) -> None:
    """Each convert target reads back what it wrote, or refuses at write time (puzz.link
    URLs hold boards up to 100x100 and clues up to 255)."""
    for item in service.load(str(corpus_dir / name)):
        too_large = max(item.puzzle.width, item.puzzle.height) > 100
        for to in service.formats():
            text = _converted(item, to)
            if isinstance(text, CodeError):
                assert to == "url", (item.id, to, text)
                assert "cannot be written as url" in str(text)
                too_large = False
                continue
            [again] = service.load(text, files=False)
            assert again.puzzle == item.puzzle, (item.id, to)
            if to == "non" and item.solution is not None:
                assert again.solution == item.solution
        assert not too_large, f"{item.id}: a URL was written for a board over 100x100"


# --- Pattern IDs with prefilled squares ----------------------------------------------------

UNIQUE_4X4 = "4x4:2/1/2/1/1.1/2/1/1"
"""Unique; its solution is #..# / ##.. / ..#. / ..#. (tests/test_cli.py validates it)."""


SOLUTION_4X4 = "#..###....#...#."


def _squares(fixed: dict[int, bool], cells: int) -> str:
    """Pattern's prefilled-squares text for `fixed` (cell -> shaded), as Pattern writes it."""
    out, run = [], 0
    for cell in range(cells):
        if cell not in fixed:
            run += 1
            if run == 25:
                out.append("z")
                run = 0
        else:
            out.append(chr(ord("A" if fixed[cell] else "a") + run))
            run = 0
    return "".join(out) + (chr(ord("a") + run) if run else "")


@pytest.mark.parametrize("chosen", [[0], [1], [15], [0, 1, 2, 3], list(range(16)), [5, 9, 14]])
def test_prefilled_squares_the_clues_imply_are_read(chosen: list[int]) -> None:
    squares = _squares({cell: SOLUTION_4X4[cell] == "#" for cell in chosen}, 16)
    assert parse_pattern(f"{UNIQUE_4X4},{squares}") == parse_pattern(UNIQUE_4X4)


def test_long_runs_of_open_cells_are_z() -> None:
    assert _squares({30: True}, 40) == "zF" + "j"
    puzzle = parse_pattern("8x5:" + "/".join(["5"] * 8 + ["8"] * 5) + ",zFj")
    assert puzzle == parse_pattern("8x5:" + "/".join(["5"] * 8 + ["8"] * 5))


def test_prefilled_squares_are_read_from_every_source() -> None:
    [item] = service.load(f"{UNIQUE_4X4},Ap")
    assert (item.genre.name, item.puzzle) == ("nonogram", parse_pattern(UNIQUE_4X4))
    # not line-solvable: the export gives the square Pattern's solver needs, this same one
    assert service.convert(item, "tatham") == f"{UNIQUE_4X4},Ap"


@pytest.mark.parametrize(
    ("squares", "match"),
    [
        ("ap", "r1c1 is empty, but the clues' one solution has it the other way"),
        ("Bo", "r1c2 is shaded, but"),
        ("A", "cover 1 of the 16 cells"),
        ("Apa", "'a' is left after the last of the 16 cells"),
        ("A1", "character '1' at position 2 is not a letter"),
        ("zz", "'z' at position 1 skips past the last of the 16 cells"),
        ("", "cover 0 of the 16 cells"),
    ],
)
def test_prefilled_squares_that_contradict_or_do_not_parse_are_refused(
    squares: str, match: str
) -> None:
    with pytest.raises(CodeError, match=match):
        parse_pattern(f"{UNIQUE_4X4},{squares}")


def test_prefilled_squares_that_decide_what_the_clues_leave_open_are_refused() -> None:
    with pytest.raises(CodeError, match="the clues alone have several solutions"):
        parse_pattern("2x2:1/1/1/1,Ad")
    assert parse_pattern("2x2:1/1/1/1,e") == parse_pattern("2x2:1/1/1/1")


def test_prefilled_squares_on_clues_without_a_solution_change_nothing() -> None:
    # the columns shade 1 and 1, the rows 2 and 0: clues of equal totals with no picture
    puzzle = parse_pattern("2x2:1/1/2/")
    assert parse_pattern("2x2:1/1/2/,Ac") == puzzle


@pytest.mark.parametrize(
    ("seed", "grade"), [(1, "easy"), (2, "hard"), (3, "expert"), (4, "expert")]
)
def test_an_exported_pattern_id_finishes_by_line_solving_alone(seed: int, grade: str) -> None:
    """Pattern's own solver only line-solves: the ID carries the squares that let it."""
    board = gp.generate("nonogram", size=(15, 15), seed=seed, difficulty=grade)
    pid = gp.convert(board.loaded, "tatham")
    assert gp.convert(gp.load(board.code), "tatham") == pid  # counted when not recorded
    puzzle = board.puzzle
    assert parse_pattern(pid) == puzzle
    _, _, squares = pid.partition(",")
    assert bool(squares) == (grade != "easy")
    shaded, empty = _prefilled(squares, puzzle.width * puzzle.height) if squares else (0, 0)
    assert not shaded & ~board.solution
    assert not empty & board.solution
    engine = Board(puzzle)
    grid = Grid.blank(engine)
    for cell in bits(shaded | empty):
        grid.set_cell(engine, *divmod(cell, puzzle.width), bool(shaded >> cell & 1))
    assert Propagator(engine, Deadline()).run(grid)
    assert grid.shaded_mask(engine) == board.solution
    assert grid.decided(engine) == puzzle.width * puzzle.height


@given(st.integers(1, 90), st.data())
def test_the_squares_text_is_what_pattern_writes(cells: int, data: st.DataObject) -> None:
    fixed = data.draw(st.dictionaries(st.integers(0, cells - 1), st.booleans()))
    shaded = sum(1 << cell for cell, black in fixed.items() if black)
    empty = sum(1 << cell for cell, black in fixed.items() if not black)
    text = _squares_text(shaded, empty, cells)
    assert text == _squares(fixed, cells)
    assert _prefilled(text, cells) == (shaded, empty)
