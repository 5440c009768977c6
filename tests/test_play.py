"""The player's service layer: marks, answers (bank first, counts remembered, timeouts not),
mistakes, and rule names in words (the ladder's titles)."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridproof import bank
from gridproof.core.contract import Genre
from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, GenerationError
from gridproof.core.grid import bits
from gridproof.core.ladder import Ladder, Rung, offer
from gridproof.core.registry import genres
from gridproof.core.trace import Step
from gridproof.service import play

GENRES = sorted(genres().values(), key=lambda g: g.name)


class Size:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_marks_round_trip(width: int, height: int, data: st.DataObject) -> None:
    cells = width * height
    shaded = data.draw(st.integers(0, 2**cells - 1))
    empty = data.draw(st.integers(0, 2**cells - 1)) & ~shaded
    marks = play.Marks(shaded, empty)
    rows = play.format_marks(Size(width, height), marks)
    assert len(rows) == height
    assert all(len(row) == width for row in rows)
    assert play.parse_marks(Size(width, height), rows) == marks


@pytest.mark.parametrize(
    ("rows", "fragment"),
    [
        (["..", ".."], "marks: 2 rows given, the puzzle has 3"),
        (["...", "..", "..."], "marks: row 2 '..' has 2 cells, the puzzle 3"),
        (["...", "..o", "..."], "marks: row 2, column 3: 'o' is not one of '#', '+', '.'"),
        (["...", "...", "..-"], "row 3, column 3: '-'"),
    ],
)
def test_bad_marks_say_where(rows: list[str], fragment: str) -> None:
    with pytest.raises(CodeError, match=re.escape(fragment)):
        play.parse_marks(Size(3, 3), rows)


def test_mistakes_are_wrong_shading_and_wrong_empties() -> None:
    solution = 0b0110
    assert play.mistakes(play.Marks(0b0010, 0b1001), solution) == 0
    assert play.mistakes(play.Marks(0b1010, 0b0001), solution) == 0b1000
    assert play.mistakes(play.Marks(0, 0b0100), solution) == 0b0100


def made(genre: Genre) -> bank.Record:
    key = bank.Key(genre.name, *bank.offered_sizes(genre)[0], bank.default_difficulty(genre))
    for seed in range(1, 30):
        try:
            return bank.make_record(key, seed, generate_s=20)
        except GenerationError:
            continue
    raise AssertionError("no board")


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_answers_come_from_the_bank_first_then_a_remembered_count(
    genre: Genre, tmp_path: Path
) -> None:
    record = made(genre)
    puzzle = genre.parse_code(record.code)
    store = bank.Bank(tmp_path / "bank.sqlite3")
    store.add(record)
    counted: list[Any] = []
    original = genre.count

    def spy(*args: Any) -> Any:
        counted.append(args)
        return original(*args)

    spied = dataclasses.replace(genre, count=spy)
    from_bank = play.Answers(store).get(spied, puzzle, Deadline(5))
    assert (from_bank.solution, counted) == (record.solution, [])
    answers = play.Answers(None)
    first = answers.get(spied, puzzle, Deadline(5))
    second = answers.get(spied, puzzle, Deadline(5))
    assert first == second
    assert first.solution == record.solution
    assert len(counted) == 1


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_a_count_that_timed_out_is_not_remembered(genre: Genre) -> None:
    puzzle = genre.parse_code(made(genre).code)
    answers = play.Answers(None)
    expired = Deadline(0)
    late = answers.get(genre, puzzle, expired)
    assert (late.verdict, late.solution) == ("timeout", None)
    assert answers.get(genre, puzzle, Deadline(30)).verdict == "unique"


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_a_hint_never_reports_a_contradiction_for_correct_marks(genre: Genre) -> None:
    record = made(genre)
    puzzle = genre.parse_code(record.code)
    answer = play.Answers(None).get(genre, puzzle, Deadline(30))
    half = record.solution & ((1 << (puzzle.width * puzzle.height // 2)) - 1)
    result = play.hint(genre, puzzle, play.Marks(half, 0), answer, Deadline(10))
    assert result.status in ("step", "reveal", "solved")
    checked = play.check(genre, puzzle, play.Marks(half, 0), answer)
    assert (checked.mistakes, checked.cells) == (0, None)


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
def test_a_hints_title_is_its_rules_title_in_the_ladder(genre: Genre) -> None:
    puzzle = genre.parse_code(made(genre).code)
    answer = play.Answers(None).get(genre, puzzle, Deadline(30))
    result = play.hint(genre, puzzle, play.Marks(0, 0), answer, Deadline(10))
    assert result.status is play.HintStatus.STEP
    assert result.rule is not None
    assert result.title == genre.ladder.rule(result.rule).title
    assert result.to_json()["title"] == result.title


def test_reveal_is_the_players_own_rule_with_one_title(norinori: Genre) -> None:
    from gridproof.genres.norinori.model import make_puzzle
    from tests.examples import REGIONS

    puzzle = make_puzzle(REGIONS)
    answer = play.Answers(None).get(norinori, puzzle, Deadline(30))
    no_rules = dataclasses.replace(norinori, ladder=Ladder((Rung("none", "easy", "nothing", ()),)))
    result = play.hint(no_rules, puzzle, play.Marks(0, 0), answer, Deadline(10))
    assert (result.status, result.rule, result.title) == ("reveal", play.REVEAL, play.REVEAL_TITLE)
    assert result.shaded == (0,)
    assert result.text == "No rule of the ladder applies here; the solution shades r1c1."


def test_the_view_never_carries_the_solution() -> None:
    for genre in GENRES:
        record = made(genre)
        view = play.view(genre, genre.parse_code(record.code), "bank", record=record).to_json()
        assert "solution" not in view
        assert "solution" not in view["data"]
        assert view["verification"] == record.verification()
        assert view["generator"] == genre.generator


def test_the_view_carries_a_digest_of_a_unique_solution_only() -> None:
    for genre in GENRES:
        record = made(genre)
        puzzle = genre.parse_code(record.code)
        view = play.view(genre, puzzle, "bank", record=record).to_json()
        w, h = puzzle.width, puzzle.height
        rows = "/".join(
            "".join("#" if record.solution >> (r * w + c) & 1 else "." for c in range(w))
            for r in range(h)
        )
        expected = hashlib.sha256(f"{record.code}\n{rows}".encode()).hexdigest()
        assert view["solution_digest"] == expected
        assert play.solution_digest(record.code, w, h, record.solution) == expected
        other = play.solution_digest(record.code, w, h, record.solution ^ 1)
        assert other != expected  # one cell more or less is another digest
        counted = play.Answers(None).get(genre, puzzle, Deadline(30))
        assert play.view(genre, puzzle, "code", answer=counted).solution_digest == expected
        late = play.Answers(None).get(genre, puzzle, Deadline(0))
        assert play.view(genre, puzzle, "code", answer=late).solution_digest is None
        assert play.view(genre, puzzle, "code").solution_digest is None


@pytest.mark.parametrize("genre", GENRES, ids=lambda g: g.name)
@given(data=st.data())
def test_a_hint_near_the_recent_marks_is_a_step_the_ladder_offers(
    genre: Genre, data: st.DataObject
) -> None:
    """`recent` only chooses among the deductions open (`core.ladder.offer`, told what a
    hint tells it: the solution, and the cells' nearness to the recent marks, the order a
    probe tries them in): the hint is one of them, it agrees with the solution, and it is
    the nearest of them."""
    record = made(genre)
    puzzle = genre.parse_code(record.code)
    cells = puzzle.width * puzzle.height
    answer = play.Answers(None).get(genre, puzzle, Deadline(30))
    known = data.draw(st.integers(0, (1 << cells) - 1))
    marks = play.Marks(record.solution & known, ~record.solution & known & ((1 << cells) - 1))
    recent = data.draw(st.lists(st.integers(0, cells - 1), max_size=8, unique=True))
    found = play.hint(genre, puzzle, marks, answer, Deadline(10), recent=recent)
    if found.status is not play.HintStatus.STEP:
        return
    offered = offer(
        genre.ladder,
        genre.position,
        puzzle,
        Deadline(10),
        shaded=marks.shaded,
        empty=marks.empty,
        solution=answer.solution,
        prefer=play.nearness(recent, puzzle.width) if recent else None,
    )
    decided = {*found.shaded, *found.empty}
    assert all(record.solution >> c & 1 for c in found.shaded)
    assert not any(record.solution >> c & 1 for c in found.empty)
    same = [s for s in offered.steps if s.rule == found.rule and s.text == found.text]
    assert same, "the hint is not one of the steps the ladder offers"
    if recent:
        key = play.near(recent, puzzle.width, genre.ladder, puzzle.height)
        assert key(same[0]) == min(key(step) for step in offered.steps)
    assert decided


def test_of_two_steps_as_near_the_one_about_the_line_the_player_paints_along_comes_first() -> None:
    """The last two marks share row 3 of a 5×5 board: of a step about that whole row and
    one about a column, each deciding a cell next to the last mark, the row's comes first;
    with marks that share no line, or no height to know a column's cells by, the order
    is left to the rest of the key (the step listed first)."""
    row = tuple(range(10, 15))
    column = tuple(range(2, 25, 5))
    across = Step("line", "column 3", shaded=1 << 17, cells=column)
    along = Step("line", "row 3", shaded=1 << 13, cells=row)
    steps = [across, along]
    assert min(steps, key=play.near([12, 11], 5, height=5)) is along
    assert min(steps, key=play.near([12, 7], 5, height=5)) is across  # down column 3
    assert min(steps, key=play.near([12, 6], 5, height=5)) is across  # no line shared
    assert min(steps, key=play.near([12, 11], 5)) is across


def test_a_hint_goes_where_the_player_is_working(norinori: Genre) -> None:
    from gridproof.service import generate

    puzzle = generate("norinori", 10, 10, 7).puzzle
    answer = play.Answers(None).get(norinori, puzzle, Deadline(30))
    offered = offer(norinori.ladder, norinori.position, puzzle, Deadline(10))
    assert len(offered.steps) > 1
    last = offered.steps[-1]
    corner = max(bits(last.shaded | last.empty))
    found = play.hint(norinori, puzzle, play.Marks(0, 0), answer, Deadline(10), recent=[corner])
    first = play.hint(norinori, puzzle, play.Marks(0, 0), answer, Deadline(10))
    assert first.text == offered.steps[0].text  # without recent marks: the ladder's first
    key = play.near([corner], puzzle.width, norinori.ladder)
    assert key(next(s for s in offered.steps if s.text == found.text)) <= key(offered.steps[0])
    assert key(last) < key(offered.steps[0])  # the corner is nearer the last step
    assert found.text != first.text


def test_a_step_is_where_it_decides_not_all_it_looks_at() -> None:
    # a row's step looks along the whole row (through the recent mark at r1c10) but
    # decides r1c1; another decides r3c6, nearer the mark: the person paints there next
    width = 10
    row = Step("line", "row 1", empty=1 << 0, cells=tuple(range(width)))
    column = Step("line", "column 6", shaded=1 << (2 * width + 5), cells=(5, 15, 25))
    key = play.near([9], width)
    assert key(column) < key(row)
    assert min([row, column], key=key) is column
    # as near as each other: the step deciding more (the longer run) goes first
    wide = Step("line", "row 1", empty=0b11 << 7, cells=tuple(range(width)))
    narrow = Step("line", "row 1", empty=1 << 8, cells=tuple(range(width)))
    assert key(wide) < key(narrow)


def test_a_hint_takes_first_the_steps_people_notice_sooner(norinori: Genre) -> None:
    # from r1c1: a region's last cell two cells away (r1c3), a completed domino's neighbour
    # as far (r3c1), a cell that would touch two shaded cells one away (r1c2)
    width = 10
    needs = Step("region-needs", "region 1 needs r1c3", shaded=1 << 2)
    domino = Step("domino-complete", "r3c1 is empty", empty=1 << 20)
    touch = Step("two-neighbours", "r1c2 is empty", empty=1 << 1)
    by_distance = play.near([0], width)
    as_noticed = play.near([0], width, norinori.ladder)
    assert norinori.ladder.rule("domino-complete").salience > 0
    assert norinori.ladder.rule("two-neighbours").salience < -1
    # as near, the finished domino's surroundings come first
    assert by_distance(needs) == by_distance(domino)
    assert as_noticed(domino) < as_noticed(needs)
    # a step one cell nearer, of a rule people come to later, waits
    assert by_distance(touch) < by_distance(needs)
    assert as_noticed(needs) < as_noticed(touch)
