"""Small edges of the command line (issue 26): what a puzzle's id holds is printed without
its control characters; a full grid of the largest board is read by `validate --grid`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridproof.cli.common import MAX_GRID_FILE_BYTES, _printable
from gridproof.genres.nonogram import codec
from gridproof.genres.nonogram.model import make_puzzle
from tests.examples import URL
from tests.test_cli import run


def test_control_characters_are_printed_as_escapes() -> None:
    assert _printable("a\x1b]0;owned\x07b\x1b[2Jc\r") == "a\\x1b]0;owned\\x07b\\x1b[2Jc\\x0d"
    assert _printable("rows\n\tindented") == "rows\n\tindented"
    assert _printable("\x9b31m") == "\\x9b31m"


def test_an_id_with_escape_sequences_cannot_reach_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "corpus.json"
    from gridproof import service

    (item,) = service.load(URL)
    obj = {**item.genre.to_json(item.puzzle), "id": "x\x1b]0;pwned\x07\x1b[2J"}
    path.write_text(json.dumps(obj), encoding="utf-8")
    status, out, err = run(capsys, "count", str(path))
    assert status == 0, err
    assert "\x1b" not in "".join(out) + err
    assert "x\\x1b]0;pwned\\x07\\x1b[2J" in out[0]


def test_validate_reads_a_full_grid_of_the_largest_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    side = 1024
    code = codec.format_code(make_puzzle([(side,)] * side, [(side,)] * side))
    grid = tmp_path / "grid.txt"
    grid.write_bytes(b"\r\n".join([b"#" * side] * side) + b"\r\n")
    assert 2**20 < grid.stat().st_size <= MAX_GRID_FILE_BYTES
    status, out, err = run(capsys, "validate", code, "--grid", str(grid))
    assert status == 0, err
    assert out[-1].endswith("the grid is a solution")
