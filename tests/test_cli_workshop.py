"""`gridproof fix` and `gridproof picture`, run in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridproof.core.outcome import Verdict
from gridproof.genres.nondango.sat import count_sat as nondango_sat
from gridproof.genres.nonogram.sat import count_sat as nonogram_sat
from gridproof.genres.norinori.sat import count_sat as norinori_sat
from tests.examples import URL
from tests.test_cli import assert_usage_error, run
from tests.test_workshop import ambiguous


def test_fix_lists_edits_and_exits_1_for_an_ambiguous_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    loaded = ambiguous("norinori", 7, 2)
    code = loaded.genre.format_code(loaded.puzzle)
    status, out, err = run(capsys, "fix", code)
    assert status == 1
    assert err == ""
    assert out[0].startswith(f"{code}: multiple.")
    assert "suggested edits, best first:" in out
    first = out.index("suggested edits, best first:") + 1
    assert out[first].startswith("  1. move r")
    assert ": unique, " in out[first]
    repaired = loaded.genre.parse_code(out[first + 1].strip())
    assert norinori_sat(repaired, 2).verdict is Verdict.UNIQUE


def test_fix_json_is_one_object_per_puzzle_with_counted_edits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    loaded = ambiguous("nonogram", 8, 3)
    code = loaded.genre.format_code(loaded.puzzle)
    status, out, _ = run(capsys, "fix", code, URL, "--json", "--limit", "2")
    assert status == 1
    first, second = (json.loads(line) for line in out)
    assert {"id", "genre", "outcome", "solutions", "edits"} <= set(first)
    assert first["outcome"] == "multiple"
    assert len(first["solutions"]) == 2
    assert 1 <= len(first["edits"]) <= 2
    for edit in first["edits"]:
        assert {"text", "code", "outcome"} <= set(edit)
        verdict = nonogram_sat(loaded.genre.parse_code(edit["code"]), 2).verdict
        assert str(verdict) == edit["outcome"]
    assert second["outcome"] == "unique"
    assert second["edits"] == []


def test_fix_make_unique_ends_unique_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    loaded = ambiguous("nondango", 8, 3)
    code = loaded.genre.format_code(loaded.puzzle)
    status, out, _ = run(capsys, "fix", code, "--make-unique")
    assert status == 0
    made = out.index(next(line for line in out if line.startswith("make unique: Unique after")))
    applied = int(out[made].split("after ")[1].split()[0])
    assert applied >= 1
    assert all(f"  {n}. " in out[made + n] for n in range(1, applied + 1))
    repaired = loaded.genre.parse_code(out[made + applied + 1].strip())
    assert nondango_sat(repaired, 2).verdict is Verdict.UNIQUE


def test_fix_keeps_the_pinned_solution(capsys: pytest.CaptureFixture[str]) -> None:
    loaded = ambiguous("norinori", 6, 1)
    code = loaded.genre.format_code(loaded.puzzle)
    _, out, _ = run(capsys, "fix", code, "--json")
    rival = json.loads(out[0])["solutions"][1]
    _, out, _ = run(capsys, "fix", code, "--json", "--keep", "/".join(rival))
    reply = json.loads(out[0])
    assert reply["solutions"][0] == rival
    assert all(edit["keep"] == rival for edit in reply["edits"])


def test_fix_refuses_a_keep_grid_of_the_wrong_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert "keep grid" in assert_usage_error(capsys, "fix", URL, "--keep", "##/..")


def test_picture_makes_the_nonogram_of_a_drawing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    image = pytest.importorskip("PIL.Image")
    picture = image.new("L", (3, 2), 255)
    picture.putpixel((0, 0), 0)
    picture.putpixel((1, 0), 0)
    picture.putpixel((2, 1), 0)
    path = tmp_path / "tiny.png"
    picture.save(path)
    status, out, _ = run(capsys, "picture", str(path), "--size", "3x2", "--json")
    assert status == 0
    reply = json.loads(out[0])
    assert reply["puzzle"]["rows"] == [[2], [1]]
    assert reply["puzzle"]["cols"] == [[1], [1], [1]]
    assert reply["picture"] == ["##.", "..#"]
    status, out, _ = run(capsys, "picture", str(path), "--size", "3x2", "--unique", "--json")
    reply = json.loads(out[0])
    assert reply["outcome"] == "unique"
    assert reply["changed"] == 1  # row 1 could slide right, with row 2's cell on the left
    flipped = sum(
        a != b
        for row, new in zip(["##.", "..#"], reply["picture"], strict=True)
        for a, b in zip(row, new, strict=True)
    )
    assert flipped == 1
    assert reply["keep"] == reply["picture"]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("picture", "missing.png", "--size", "5x5"), "no such file"),
        (("picture", __file__, "--size", "5x5"), "not a picture"),
        (("picture", __file__, "--size", "5x5", "--threshold", "300"), "between 0 and 256"),
        (("picture", __file__, "--size", "0x5"), "--size"),
    ],
)
def test_picture_refuses_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    assert fragment in assert_usage_error(capsys, *argv)


def test_fix_minimize_lists_spare_circles_and_says_none_needed_only_when_unique(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "fix", URL, "--make-unique", "--minimize")
    assert status == 0
    assert "make unique: Unique already: no edit needed." in out
    assert any(line.startswith("minimize: ") for line in out)
    loaded = ambiguous("norinori", 6, 1)
    code = loaded.genre.format_code(loaded.puzzle)
    _, out, _ = run(capsys, "fix", code, "--make-unique", "--deadline", "0.001")
    made = next(line for line in out if line.startswith("make unique: "))
    assert "no edit needed" not in made
