"""pzprv3 files for every genre: the corpus round trip, files the puzz.link engine wrote,
play states, the `p?pzprv3/` URL form, refusals at write time, and (where node and npm
are at hand) the engine itself reading our files and writing its own.

The files in `pzprv3/` were written by the puzz.link engine (github:robx/pzprjs, commit
0401fc64fb4a414fc8327aed2b49aff758f4eaab, run under node): each genre's board in three
states (blank; the first row played; solved, with metadata and the undo history, and the
same as a `p?pzprv3/` URL). Their boards are gridproof's own (seed 3), not corpus puzzles.
The same engine read and wrote every corpus puzzle when this format was added: our files
were byte-identical to its files, its answer checker accepted every solved file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from gridproof import service
from gridproof.core import pzprv3
from gridproof.core.errors import CodeError
from gridproof.core.registry import genre

FIXTURES = Path(__file__).parent / "pzprv3"
URLS = {
    "norinori": "https://puzz.link/p?norinori/6/5/2bdj36tnho",
    "nondango": "https://puzz.link/p?nondango/6/6/5lmbeis1v8inf6qup0p0",
    "nonogram": "https://puzz.link/p?nonogram/7/5/2h3h4h4h4h1h1h5i5i4i13h1i",
}
CORPORA = ("janko-norinori.json", "janko-nondango.json", "janko-nonogram.json")


def _layout_lines(name: str, rows: int, cols: int) -> int:
    """The body lines the pzprjs source lays out for each genre (see the codecs)."""
    if name == "norinori":
        return rows + (rows - 1) + rows
    if name == "nondango":
        return 1 + rows + rows
    return (rows + 1) // 2 + rows


@pytest.mark.parametrize("corpus", CORPORA)
def test_every_corpus_puzzle_round_trips_through_pzprv3(corpus_dir: Path, corpus: str) -> None:
    for item in service.load(str(corpus_dir / corpus)):
        name = item.genre.name
        from_url = service.load(item.genre.format_url(item.puzzle))[0]
        text = service.convert(from_url, "pzprv3")
        lines = text.split("\n")
        head = ("pzprv3.1" if name == "norinori" else "pzprv3", name)
        assert (lines[0], lines[1]) == head
        rows, cols = int(lines[2]), int(lines[3])
        assert (cols, rows) == (item.puzzle.width, item.puzzle.height)
        assert lines[-1] == ""
        assert len(lines) - 5 == _layout_lines(name, rows, cols)
        back = service.load(text)[0]
        assert (back.genre, back.puzzle, back.solution) == (item.genre, item.puzzle, None)
        if item.solution is not None:
            solved = service.load(service.convert(item, "pzprv3"))[0]
            assert (solved.puzzle, solved.solution) == (item.puzzle, item.solution)
            embedded = "https://puzz.link/p?" + "/".join(
                line.replace(" ", "%20").replace("#", "%23") for line in text.split("\n")
            )
            assert service.load(embedded)[0].puzzle == item.puzzle


@pytest.mark.parametrize("name", sorted(URLS))
def test_files_the_engine_wrote(name: str) -> None:
    loaded = service.load(URLS[name])[0]
    blank = (FIXTURES / f"{name}-blank.txt").read_text(encoding="utf-8")
    assert service.convert(loaded, "pzprv3") == blank
    for state in ("blank", "partial"):
        item = service.load(str(FIXTURES / f"{name}-{state}.txt"))[0]
        assert (item.genre.name, item.puzzle, item.solution) == (name, loaded.puzzle, None)
    solved = service.load(str(FIXTURES / f"{name}-solved.txt"))[0]
    url = (FIXTURES / f"{name}-solved.url").read_text(encoding="utf-8").strip()
    from_url = service.load(url)[0]
    assert solved.puzzle == from_url.puzzle == loaded.puzzle
    assert solved.solution is not None
    assert solved.solution == from_url.solution
    assert not loaded.genre.validate(loaded.puzzle, solved.solution)
    assert service.load(service.convert(solved, "pzprv3"))[0].solution == solved.solution


def test_older_norinori_files_list_region_ids() -> None:
    loaded = service.load(URLS["norinori"])[0]
    ids = [" ".join(map(str, row)) + " " for row in loaded.puzzle.region_rows()]
    blank = [". " * 6] * 5
    text = "\n".join(["pzprv3", "norinori", "5", "6", "8", *ids, *blank]) + "\n"
    assert service.load(text)[0].puzzle == loaded.puzzle
    assert service.load(text.replace("\n", "/"))[0].puzzle == loaded.puzzle


def test_a_file_whose_marks_break_the_rules_loads_its_puzzle_alone() -> None:
    text = (FIXTURES / "norinori-solved.txt").read_text(encoding="utf-8")
    wrong = text.replace("# # + + # # ", "# # # + # # ", 1)
    assert wrong != text
    item = service.load(wrong)[0]
    assert item.solution is None
    assert item.puzzle == service.load(URLS["norinori"])[0].puzzle


def test_a_no_three_black_nondango_has_no_pzprv3_file() -> None:
    board = service.generate("nondango", 5, 5, 4, options={"rule": "no-three-black"})
    with pytest.raises(CodeError, match=r"no-three-black puzzle has no pzprv3 file"):
        service.convert(board.loaded, "pzprv3")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pzprv3\nlits\n2\n2\n", "a pzprv3 file for the puzz.link genre 'lits'"),
        ("pzprv3\nnorinori\n0\n2\n", "rows '0' is not a positive number"),
        ("pzprv3\nnorinori\n200\n2\n", "2 columns by 200 rows exceeds 100x100"),
        ("pzprv3\nnonogram\n2000\n2\n", "exceeds 1024x1024"),
        ("v:x\npzprv3\nnorinori\n2\n2\n", "the variant 'x' is not a rule"),
        ("pzprv3.1\nnorinori\n2\n2\n0 \n0 \n0 0 \n. . \n", "the file ends before cells"),
        ("pzprv3.1\nnorinori\n2\n2\n0 \n2 \n", "line 6, entry 1: '2' is not '0' or '1'"),
        ("pzprv3.1\nnorinori\n1\n2\n0 1 \n", "line 5: walls between columns: 2 entries"),
        ("pzprv3\nnondango\n1\n3\n1\n0 0 0 \no x o \n", "line 7, entry 2: 'x' is not"),
        ("pzprv3\nnondango\n1\n1\nn\n", "line 5: the region count 'n' is not a number"),
        ("pzprv3\nnondango\n1\n1\n1\n0 \n. \nextra\n", "line 8: 'extra' is left after"),
        ("pzprv3\nnonogram\n1\n1\nx . \n. # \n", "line 5, entry 1: 'x' is not '.' (the corner"),
        ("pzprv3\nnonogram\n1\n1\n. -2 \n. # \n", "line 5, entry 2: '-2' is not a clue number"),
        ("pzprv3\nnonogram\n1\n3\n. . 1 . 1 \n0 1 # . # \n", "row 1: a clue 0 beside"),
        ("pzprv3\nnonogram\n1\n1\n. 2 \n1 # \n", "column 1"),
    ],
)
def test_bad_files_are_code_errors_that_say_where(text: str, message: str) -> None:
    with pytest.raises(CodeError) as error:
        service.load(text)
    assert message in str(error.value)


def test_the_url_form_with_parameters_and_without_a_host_scheme() -> None:
    url = (FIXTURES / "nonogram-solved.url").read_text(encoding="utf-8").strip()
    assert url.startswith("http://pzv.jp/p.html?type=player&pzprv3/")
    bare = "puzz.link/p?" + url.split("&", 1)[1]
    assert pzprv3.is_url(bare)
    assert service.load(bare)[0].puzzle == service.load(URLS["nonogram"])[0].puzzle
    with pytest.raises(CodeError, match=r"pzprv3 file for the puzz\.link genre 'lits'"):
        service.load("https://puzz.link/p?pzprv3/lits/2/2/")


# --- the engine itself, from the npm registry ---------------------------------------------

ENGINE = "pzpr@0.10.1"
"""The puzz.link engine on npm (sabo2's last release): it has Norinori (writing the older
version 0 files) and Nondango, not Nonogram."""
_SCRIPT = """
const pzpr = require('pzpr');
const out = [];
for (const item of JSON.parse(require('fs').readFileSync(0, 'utf8'))) {
  const p = new pzpr.Puzzle();
  p.open(item.source);
  out.push({file: p.getFileData(), url: p.getURL()});
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the npm engine installed (cached under ~/.cache/gridproof)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the npm engine cross-check needs them")
    home = Path.home() / ".cache" / "gridproof" / ENGINE.replace("@", "-")
    if not (home / "node_modules" / "pzpr").is_dir():
        home.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(home), ENGINE],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            pytest.skip(f"npm could not install {ENGINE}: {done.stderr.strip()[-200:]}")
    return home


def _run_engine(home: Path, sources: list[str]) -> list[dict[str, str]]:
    done = subprocess.run(
        ["node", "-e", _SCRIPT],
        input=json.dumps([{"source": s} for s in sources]),
        capture_output=True,
        text=True,
        cwd=home,
        timeout=600,
        check=True,
    )
    result: list[dict[str, str]] = json.loads(done.stdout)
    return result


@pytest.mark.slow
@pytest.mark.parametrize("corpus", ["janko-norinori.json", "janko-nondango.json"])
def test_the_npm_engine_reads_our_files_and_we_read_its_files(
    engine: Path, corpus_dir: Path, corpus: str
) -> None:
    items = service.load(str(corpus_dir / corpus))
    urls = [item.genre.format_url(item.puzzle) for item in items]
    theirs = _run_engine(engine, urls)
    for item, url, made in zip(items, urls, theirs, strict=True):
        assert service.load(made["file"])[0].puzzle == item.puzzle
        assert made["url"].split("?", 1)[1] == url.split("?", 1)[1]
    nondango = genre("nondango")
    if items[0].genre is nondango:
        ours = [service.convert(item, "pzprv3") for item in items]
        assert [made["file"] for made in _run_engine(engine, ours)] == ours
