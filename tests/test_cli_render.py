"""`gridproof render`, run in-process: SVG to standard output, PNG and PDF to files or a
pipe (never to a terminal), a sheet from `generate`'s output on standard input, one file
a puzzle for several SVGs, and exit status 2 with one line for every kind of bad input."""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdf
import pytest
from PIL import Image

from gridproof import cli
from gridproof.output import rendering
from tests.test_cli import assert_usage_error, feed, run
from tests.test_workshop import ambiguous

CODE = "norinori.1.5x5.DO5bvBI"


@pytest.fixture(scope="module")
def generated() -> str:
    """What `gridproof generate nonogram --size 8x8 --count 5 --seed 4` prints."""
    out = io.StringIO()
    saved, sys.stdout = sys.stdout, out
    try:
        status = cli.main(["generate", "nonogram", "--size", "8x8", "--count", "5", "--seed", "4"])
    finally:
        sys.stdout = saved
    assert status == 0
    return out.getvalue()


def run_binary(capsysbinary: pytest.CaptureFixture[bytes], *argv: str) -> tuple[int, bytes]:
    status = cli.main(list(argv))
    out, err = capsysbinary.readouterr()
    assert err == b""
    return status, out


def test_svg_goes_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["render", CODE])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    root = ET.fromstring(out)
    assert root.tag.endswith("svg")


def test_the_solution_is_counted_and_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["render", CODE, "--solution"]) == 0
    assert 'fill="#5a5a5a"' in capsys.readouterr().out
    assert cli.main(["render", CODE]) == 0
    assert 'fill="#5a5a5a"' not in capsys.readouterr().out


def test_png_goes_to_a_pipe(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    status, out = run_binary(capsysbinary, "render", CODE, "--to", "png")
    assert status == 0
    assert Image.open(io.BytesIO(out)).size == (6 * 32, 6 * 32)


def test_binary_output_is_never_written_to_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert cli.main(["render", CODE, "--to", "pdf"]) == 2
    assert terminal.getvalue() == ""
    assert "--to pdf is binary: give -o FILE" in capsys.readouterr().err
    assert cli.main(["render", CODE]) == 0  # SVG is text
    assert terminal.getvalue().startswith("<svg")


def test_a_sheet_from_generate_on_standard_input(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    generated: str,
) -> None:
    sheet = tmp_path / "sheet.pdf"
    feed(monkeypatch, generated)
    argv = ["render", "-", "--to", "pdf", "--per-page", "4", "-o", str(sheet)]
    assert run(capsys, *argv) == (0, [], "")
    reader = pypdf.PdfReader(sheet)
    assert len(reader.pages) == 2
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert text.count("Nonogram 8x8\nnonogram.1.8x8.") == 5  # the heading, then the code
    joined = "".join(text.split())
    for line in generated.splitlines():
        assert line.split()[0] in joined  # each code whole


def test_the_format_follows_the_file_suffix(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "board.png"
    assert run(capsys, "render", CODE, "--solution", "-o", str(target)) == (0, [], "")
    with Image.open(target) as image:
        assert image.format == "PNG"
    pdf = tmp_path / "board.PDF"
    assert run(capsys, "render", CODE, "-o", str(pdf)) == (0, [], "")
    assert len(pypdf.PdfReader(pdf).pages) == 1
    other = tmp_path / "board.txt"
    assert run(capsys, "render", CODE, "-o", str(other)) == (0, [], "")
    assert other.read_text(encoding="utf-8").startswith("<svg")


def test_several_svgs_are_one_file_each(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    generated: str,
) -> None:
    feed(monkeypatch, generated)
    err = assert_usage_error(capsys, "render", "-")
    assert "5 puzzles make 5 SVG files: give -o FILE" in err
    feed(monkeypatch, generated)
    status, out, _ = run(capsys, "render", "-", "-o", str(tmp_path / "board.svg"))
    assert status == 0
    assert out == [str(tmp_path / f"board-{n}.svg") for n in range(1, 6)]
    for path in out:
        ET.parse(path)
    status, out, _ = run(capsys, "render", CODE, CODE, "--to", "png", "-o", str(tmp_path / "b"))
    assert out == [str(tmp_path / "b-1.png"), str(tmp_path / "b-2.png")]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["nonsense"], "'nonsense' is not a puzzle code"),
        ([CODE, "--per-page", "2"], "--per-page lays out PDF pages"),
        ([CODE, "--to", "pdf", "--per-page", "65"], "from 1 to 64, got 65"),
        ([CODE, "--to", "pdf", "--per-page", "0"], "must be at least 1"),
        ([CODE, "--to", "gif"], "invalid choice: 'gif'"),
        ([CODE, "-o", "/no/such/dir/x.svg"], "cannot write '/no/such/dir/x.svg'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    assert fragment in assert_usage_error(capsys, "render", *argv)


def test_an_ambiguous_puzzle_has_no_solution_to_draw(capsys: pytest.CaptureFixture[str]) -> None:
    loaded = ambiguous("norinori", 6, 1)
    code = loaded.genre.format_code(loaded.puzzle)
    err = assert_usage_error(capsys, "render", code, "--solution")
    assert "it has more than one solution" in err


@pytest.mark.parametrize("to", ["png", "pdf"])
def test_a_missing_extra_is_exit_2_naming_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, to: str
) -> None:
    for name in rendering.NEEDS[to]:
        monkeypatch.setitem(sys.modules, name, None)
    err = assert_usage_error(capsys, "render", CODE, "--to", to, "-o", "unused")
    assert "pip install 'gridproof[render]'" in err
    assert not Path("unused").exists()
