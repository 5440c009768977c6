"""Star Battle's pzprv3 files (puzz.link's save file): round trips, play states, files
that break the rules or cannot be read, and (where node and npm are at hand) puzz.link's
own engine, pzprjs, on every janko board: from our URL it writes exactly our blank file,
it reads our solved file, finds it complete and writes it back byte for byte, and we read
what it writes.

The layout is pzprjs's (`src/variety/starbattle.js`, its `FileIO`: the star count, then
the shared region table and the cells' answers); the npm release `pzpr@0.10.1` holds the
same `FileIO` as github:robx/pzprjs at commit 0401fc64."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gridproof import service
from gridproof.core.errors import CodeError
from gridproof.genres.starbattle import codec
from gridproof.genres.starbattle.model import validate
from tests.genres.test_pzprv3 import engine  # noqa: F401 (the npm engine fixture)

URL = "https://puzz.link/p?starbattle/6/6/1/0iik5phgoi2o"
BLANK = (
    "pzprv3\nstarbattle\n6\n6\n1\n6\n"
    "0 0 0 0 0 0 \n1 0 0 0 2 2 \n1 0 0 0 3 3 \n1 0 0 3 3 3 \n0 0 0 3 3 4 \n0 5 3 3 3 4 \n"
    + ". . . . . . \n"
    * 6
)
"""What pzprjs writes for `URL` (run under node, the npm engine of this module)."""
SOLVED_MARKS = [
    ". . # . . . ",
    ". . . . # . ",
    "# . . . . . ",
    ". . . # . . ",
    ". . . . . # ",
    ". # . . . . ",
]


def _solved() -> str:
    return BLANK.replace(". . . . . . \n" * 6, "".join(line + "\n" for line in SOLVED_MARKS))


def test_a_blank_file_is_what_pzprjs_writes_and_reads_back() -> None:
    loaded = service.load(URL)[0]
    assert service.convert(loaded, "pzprv3") == BLANK
    back = service.load(BLANK)[0]
    assert (back.genre.name, back.puzzle, back.solution) == ("starbattle", loaded.puzzle, None)


def test_a_solved_file_loads_its_stars_as_the_solution_and_writes_them() -> None:
    item = service.load(_solved())[0]
    assert item.solution is not None
    assert validate(item.puzzle, item.solution) == []
    assert service.convert(item, "pzprv3") == _solved()
    assert item.puzzle == service.load(URL)[0].puzzle


def test_play_states_and_wrong_stars_load_the_puzzle_alone() -> None:
    partial = BLANK.replace(". . . . . . \n", ". . # + + + \n", 1)
    touching = _solved().replace(". . . . # . \n", ". . . # # . \n", 1)
    for text in (partial, touching):
        item = service.load(text)[0]
        assert item.solution is None
        assert item.puzzle == service.load(URL)[0].puzzle


def test_the_star_count_and_the_regions_are_the_puzzles() -> None:
    two = service.load(BLANK.replace("\n6\n1\n6\n", "\n6\n2\n6\n", 1))[0]
    assert two.puzzle.stars == 2
    puzzle, _ = codec.parse_pzprv3(BLANK)
    assert codec.format_pzprv3(puzzle) == BLANK


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BLANK.replace("\n6\n1\n6\n", "\n6\nx\n6\n", 1), "line 5: the star count 'x' is not"),
        (BLANK.replace("\n6\n1\n6\n", "\n6\n4\n6\n", 1), "4 stars cannot fit in a row of 6"),
        (BLANK.replace("0 5 3 3 3 4 ", "0 0 3 3 3 4 "), "6x6 Star Battle has 6 regions, not 5"),
        (BLANK.replace(". . . . . . \n", ". . * . . . \n", 1), "line 13, entry 3: '*' is not"),
        (BLANK + "extra\n", "line 19: 'extra' is left after the board"),
        ("pzprv3\nstarbattle\n6\n6\n1\n6\n0 0 \n", "region ids: 2 entries where 6 belong"),
    ],
)
def test_bad_files_are_code_errors_that_say_where(text: str, message: str) -> None:
    with pytest.raises(CodeError) as error:
        service.load(text)
    assert message in str(error.value)


# --- puzz.link's engine itself (the npm release), on every janko board ---------------------

_SCRIPT = """
const pzpr = require('pzpr');
const out = [];
for (const source of JSON.parse(require('fs').readFileSync(0, 'utf8'))) {
  const p = new pzpr.Puzzle();
  p.open(source);
  out.push({file: p.getFileData(), complete: p.check(true).complete});
}
console.log(JSON.stringify(out));
"""


def _engine_files(home: Path, sources: list[str]) -> list[dict[str, Any]]:
    done = subprocess.run(
        ["node", "-e", _SCRIPT],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        cwd=home,
        timeout=600,
        check=True,
    )
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def test_the_engine_writes_the_blank_file_of_the_url(engine: Path) -> None:  # noqa: F811
    (made,) = _engine_files(engine, [URL])
    assert made["file"] == BLANK
    (solved,) = _engine_files(engine, [_solved()])
    assert solved == {"file": _solved(), "complete": True}


@pytest.mark.slow
def test_the_engine_agrees_on_every_janko_board(engine: Path, corpus_dir: Path) -> None:  # noqa: F811
    items = service.load(str(corpus_dir / "janko-starbattle.json"))
    assert len(items) == 176
    urls = [item.genre.format_url(item.puzzle) for item in items]
    ours_blank = [service.convert(service.load(url)[0], "pzprv3") for url in urls]
    ours_solved = [service.convert(item, "pzprv3") for item in items]
    assert all(item.solution is not None for item in items)
    theirs = _engine_files(engine, urls + ours_solved)
    for ours, made in zip(ours_blank + ours_solved, theirs, strict=True):
        assert made["file"] == ours
        assert service.load(made["file"])[0].puzzle == service.load(ours)[0].puzzle
    assert [made["complete"] for made in theirs[len(urls) :]] == [True] * len(items)


def test_a_file_travels_in_a_puzz_link_url() -> None:
    embedded = "https://puzz.link/p?" + "/".join(
        line.replace(" ", "%20").replace("#", "%23") for line in _solved().split("\n")
    )
    item = service.load(embedded)[0]
    assert item.puzzle == service.load(URL)[0].puzzle
    assert item.solution == service.load(_solved())[0].solution
