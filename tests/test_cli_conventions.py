"""Conventions every command follows: --json that parses, `study` as data and charts,
text pictures of puzzles, and help that says what each option takes."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

import gridproof
from gridproof.core.contract import Genre
from tests.examples import SOLUTION, URL
from tests.test_cli import NON, PATTERN, assert_usage_error, run
from tests.test_cli_progress import SRC

NONDANGO = "nondango.1.6x6-same.Jxq1CfnOxMd9dlCE"


# --- --json ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "keys"),
    [
        (["count", URL, PATTERN], {"id", "genre", "outcome", "solutions"}),
        (["solve", URL, "--rules", "local"], {"id", "rules", "grid", "steps"}),
        (["validate", URL, "--grid", "/".join(SOLUTION)], {"id", "violations"}),
        (["convert", URL, PATTERN, "--to", "code"], {"id", "genre", "format", "text"}),
        (["show", URL, NONDANGO, "--solution"], {"id", "genre", "size", "picture"}),
        (["generate", "nonogram", "--size", "5x5", "--seed", "2"], {"code", "seed", "puzzle"}),
        (["fix", URL], {"outcome"}),
        (["bank", "stats", "--db", "{db}"], set()),
        (["bank", "import", "{file}", "--db", "{db}"], {"kept", "duplicates", "rejected"}),
    ],
)
def test_every_command_that_prints_results_prints_json_lines(
    capsys: pytest.CaptureFixture[str],
    norinori: Genre,
    tmp_path: Path,
    argv: list[str],
    keys: set[str],
) -> None:
    listed = tmp_path / "boards.txt"
    listed.write_text(URL + "\n", encoding="utf-8")
    names = {"{db}": str(tmp_path / "bank.sqlite3"), "{file}": str(listed)}
    argv = [names.get(arg, arg) for arg in argv]
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 0
    assert out
    for line in out:
        assert keys <= set(json.loads(line))


def test_convert_json_holds_the_text_each_format_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(capsys, "convert", PATTERN, "--to", "non", "--json")
    assert status == 0
    [line] = out
    assert json.loads(line) == {"id": PATTERN, "genre": "nonogram", "format": "non", "text": NON}


# --- study: markdown, JSON, CSV and charts from one report -------------------------------


STUDY = ["study", "norinori", "--boards", "1", "--seed", "3"]


def test_study_prints_its_tables_as_markdown_json_and_csv(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, markdown, _ = run(capsys, *STUDY)
    assert status == 0
    assert markdown[0] == "## Norinori: the design note's figures, remade"
    status, out, _ = run(capsys, *STUDY, "--json")
    assert status == 0
    [line] = out  # one document
    report = json.loads(line)
    assert report["genre"] == "norinori"
    keys = [t["key"] for t in report["tables"]]
    assert keys == ["partitions", "density", "rungs", "cycles", "knockout", "lifted"]
    for t in report["tables"]:
        assert all(len(row) == len(t["headers"]) for row in t["rows"])
        assert f"### {t['title']}" in markdown
    partitions = report["tables"][0]
    assert partitions["headers"][:3] == ["size", "boards", "no shading"]
    assert partitions["rows"][0][:2] == ["5×5", 1]
    assert isinstance(partitions["rows"][0][2], float)  # a share is a number in JSON

    status, out, _ = run(capsys, *STUDY, "--csv")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO("\n".join(out) + "\n")))
    assert list(rows[0]) == ["table", "row", "column", "value", "text"]
    assert {row["table"] for row in rows} == set(keys)
    cells = sum(len(t["rows"]) * len(t["headers"]) for t in report["tables"])
    assert len(rows) == cells
    share = next(r for r in rows if r["table"] == "partitions" and r["column"] == "exactly one")
    assert share["text"].endswith("%")
    assert float(share["value"]) == pytest.approx(float(share["text"].rstrip("%")), abs=1)
    assert_usage_error(capsys, *STUDY, "--json", "--csv")


@pytest.mark.slow
def test_study_plots_one_svg_per_table_the_same_on_every_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    first, second = tmp_path / "one", tmp_path / "two"
    status, out, err = run(capsys, *STUDY, "--plots", str(first))
    assert status == 0
    assert out[0].startswith("## Norinori")  # the tables are printed as well
    names = sorted(path.name for path in first.iterdir())
    assert names == [
        "norinori-01-partitions.svg",
        "norinori-02-density.svg",
        "norinori-03-rungs.svg",
        "norinori-04-cycles.svg",
        "norinori-05-knockout.svg",
        "norinori-06-lifted.svg",
    ]
    assert f"6 charts in {first}" in err
    assert run(capsys, *STUDY, "--plots", str(second), "--json")[0] == 0
    for name in names:
        svg = (first / name).read_bytes()
        root = ElementTree.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert svg == (second / name).read_bytes(), name


def test_study_plots_without_matplotlib_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    err = assert_usage_error(capsys, *STUDY, "--plots", str(tmp_path / "charts"))
    assert "pip install 'gridproof[plots]'" in err
    assert not (tmp_path / "charts").exists()


# --- text pictures -----------------------------------------------------------------------


def test_show_draws_regions_clues_and_circles(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", URL, PATTERN, NONDANGO)
    assert status == 0
    norinori_end = out.index(f"{PATTERN}: Nonogram 4x4")
    assert out[0] == f"{URL}: Norinori 5x5"
    assert out[1] == "+-------+---+-------+"
    assert set("".join(out[2:norinori_end])) <= set("+-| ")  # blank: borders only
    nonogram = out[norinori_end + 1 : norinori_end + 7]
    assert nonogram[0] == "    | 2 1 2 1"
    assert nonogram[2] == "1 1 |"
    nondango = out[norinori_end + 8 :]
    assert "( )" in "".join(nondango)


def test_show_draws_the_solution_or_a_grid(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", PATTERN, "--solution")
    assert status == 0
    assert out[3:] == ["1 1 | # . . #", "  2 | # # . .", "  1 | . . # .", "  1 | . . # ."]
    status, out, _ = run(capsys, "show", URL, "--grid", "/".join(SOLUTION))
    assert status == 0
    assert [line[2::4] for line in out[2::2]] == SOLUTION
    assert "grid for " in assert_usage_error(capsys, "show", URL, "--grid", "##/..")


def test_generate_show_draws_each_board(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["generate", "nonogram", "--size", "5x5", "--seed", "2", "--show", "--show-solution"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert out[0].startswith("nonogram.")
    solution, picture = out[1:6], out[6:]
    assert any("-+-" in line for line in picture)
    cells = [line.split("|")[1].replace(" ", "") for line in picture if "|" in line][-5:]
    assert cells == [row.strip() for row in solution]


# --- help ------------------------------------------------------------------------------


def test_help_lists_rules_grades_and_what_options_take(
    capsys: pytest.CaptureFixture[str], norinori: Genre
) -> None:
    status, out, _ = run(capsys, "solve", "--help")
    text = "\n".join(out)
    assert status == 0
    for rung in norinori.ladder.rungs:
        assert f"{rung.name} ({rung.grade}): " in text
        for rule in rung.rules:
            assert rule.id in text
    status, out, _ = run(capsys, "generate", "norinori", "--help")
    text = " ".join(" ".join(out).split())
    assert "easy (finished by local)" in text
    assert "expert (needs search)" in text
    assert "width x height, e.g. 10x10" in text
    assert "Grades offered by size" in text
    status, out, _ = run(capsys, "study", "--help")
    text = " ".join(" ".join(out).split())
    assert "--plots DIR" in text
    assert "pip install 'gridproof[plots]'" in text
    assert "(default 60)" in text


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["show", "nothing"], "(see 'gridproof show --help')"),
        (["study", "norinori", "--boards", "0"], "(see 'gridproof study --help')"),
        (["convert", URL], "(see 'gridproof convert --help')"),
        (["bank", "fill", "--genre", "chess"], "(see 'gridproof bank fill --help')"),
    ],
)
def test_more_errors_point_to_the_subcommand_s_help(
    capsys: pytest.CaptureFixture[str], argv: list[str], hint: str
) -> None:
    assert assert_usage_error(capsys, *argv).rstrip().endswith(hint)


def test_the_command_line_does_not_import_matplotlib_until_it_draws() -> None:
    code = "import sys, gridproof.cli; sys.exit('matplotlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": SRC})
    assert done.returncode == 0


# --- a light start -----------------------------------------------------------------------


def test_the_command_table_names_every_command_once() -> None:
    from gridproof import cli

    full = cli._parser()
    [commands] = [a for a in full._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(commands.choices) == list(cli.COMMANDS)
    for name, module in cli.COMMANDS.items():
        alone = cli._parser(name)
        [only] = [a for a in alone._actions if isinstance(a, argparse._SubParsersAction)]
        assert list(only.choices) == [name], module


def test_a_command_on_one_puzzle_loads_only_what_it_uses() -> None:
    """`gridproof count` on a Norinori imports neither the other genres, nor the bank, the
    web stack, the workshop or the renderers, nor its own genre's repairs and study (#30:
    a CLI that starts at once)."""
    code = (
        "import sys; from gridproof.cli import main; "
        "status = main(['count', 'norinori.1.5x5.DO5bvBI']); "
        "print(status, sorted(m for m in sys.modules if m.startswith(("
        "'gridproof.genres.nonogram', 'gridproof.genres.nondango', 'gridproof.bank', "
        "'gridproof.web', 'gridproof.service.workshop', 'gridproof.output.rendering', "
        "'gridproof.output.picture', 'gridproof.genres.norinori.repair', "
        "'gridproof.genres.norinori.study', 'fastapi', 'matplotlib', 'sqlite3'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 []"


def test_a_format_is_sniffed_importing_genres_only_up_to_its_own() -> None:
    """A Pattern ID on the command line imports the genres in name order only until one
    claims it (Nonogram), and neither their repairs nor their studies; a board line
    solving finishes, or leaves to a small search, never loads python-sat."""
    from gridproof.core import registry

    after = [name for name in registry.names() if name > "nonogram"]
    assert after, "no genre sorts after nonogram: the check below would prove nothing"
    unwanted = [*after, "repair", "study"]
    # the first board falls to line solving (unique); the second leaves a search (multiple)
    for board in ("5x5:1/4/4/4/1/1/3/3/3/2.2", "5x5:1/2/3/1.2/2/1/2/1.1/3/3"):
        code = (
            "import sys; from gridproof.cli import main; "
            f"status = main(['count', {board!r}]); "
            "print(status, sorted(m for m in sys.modules if m.startswith('gridproof.genres.') "
            f"and m.split('.')[-1] in {unwanted!r} or m.startswith('pysat')))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert done.stdout.splitlines()[-1] == "0 []", board


def test_version_builds_no_parser(capsys: pytest.CaptureFixture[str]) -> None:
    from gridproof import cli, version

    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"gridproof {version.__version__}\n"


def test_the_command_loads_the_service_and_the_genres_only_for_a_command_that_reads_one() -> None:
    """`gridproof --version` (and a command line's parsing) loads neither the service, the
    genre contract nor a genre; counting loads the one genre asked, and no hash library."""
    watched = {"gridproof.service", "gridproof.core.contract", "hashlib", "secrets", "dataclasses"}
    code = (
        "import sys; from gridproof.cli import main; "
        "status = main(sys.argv[1:]); "
        "print(status, sorted({m.split('.')[2] if m.startswith('gridproof.genres.') else m "
        f"for m in sys.modules if m in {watched!r} or m.startswith('gridproof.genres.')}}))"
    )
    seen = [
        subprocess.run(
            [sys.executable, "-c", code, *words], capture_output=True, text=True, check=True
        ).stdout.splitlines()[-1]
        for words in (["--version"], ["count", "norinori.1.5x5.DO5bvBI"])
    ]
    assert seen[0] == "0 []"
    assert (
        seen[1] == "0 ['dataclasses', 'gridproof.core.contract', 'gridproof.service', 'norinori']"
    )


# --- shell completion ----------------------------------------------------------------------


def _complete(script: str, *words: str) -> list[str]:
    """What bash offers after `words` (the last one being completed) with `script` loaded."""
    quoted = " ".join(f"'{word}'" for word in words)
    probe = (
        f"{script}\nCOMP_WORDS=(gridproof {quoted}); COMP_CWORD={len(words)}; "
        '_gridproof; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_bash_completion_knows_every_command_option_and_choice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "completion", "bash")
    assert status == 0
    script = "\n".join(out)
    from gridproof import cli

    assert _complete(script, "") == list(cli.COMMANDS)
    assert _complete(script, "con") == ["convert"]
    assert _complete(script, "convert", "x", "--to", "") == list(service_formats())
    assert _complete(script, "bank", "") == ["fill", "stats", "export", "import", "daily"]
    assert "--mixed-generators" in _complete(script, "bank", "import", "--m")
    assert _complete(script, "generate", "") == sorted(gridproof.genre_names())
    assert _complete(script, "generate", "nondango", "--rule", "") == [
        "no-three-same",
        "no-three-black",
    ]
    assert "--seed" in _complete(script, "generate", "norinori", "--s")
    genres = sorted(gridproof.genre_names())
    assert _complete(script, "bank", "fill", "--genre", "") == genres
    assert _complete(script, "bank", "export", "--genre", "non") == [
        name for name in genres if name.startswith("non")
    ]


def test_zsh_completion_runs_the_same_function_through_bashcompinit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "completion", "zsh")
    assert status == 0
    assert out[0] == "#compdef gridproof"
    assert "autoload -U +X bashcompinit && bashcompinit" in out
    assert "complete -o default -F _gridproof gridproof" in out
    assert_usage_error(capsys, "completion", "fish")


def service_formats() -> tuple[str, ...]:
    from gridproof import service

    return service.formats()


# --- generate's output read back ------------------------------------------------------------


def test_a_generate_json_line_saved_as_a_file_loads(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for genre in gridproof.genre_names():
        _, out, _ = run(capsys, "generate", genre, "--size", "6x6", "--seed", "3", "--json")
        saved = tmp_path / f"{genre}.json"
        saved.write_text(out[0], encoding="utf-8")
        board = json.loads(out[0])
        loaded = gridproof.load(str(saved))
        assert (loaded.id, loaded.expected) == (board["code"], "unique")
        assert loaded.genre.format_grid(loaded.puzzle, loaded.solution or 0) == board["solution"]
        status, counted, _ = run(capsys, "count", str(saved), "--check", "--json")
        assert status == 0
        assert json.loads(counted[0])["solutions"] == [board["solution"]]


def test_several_generate_json_lines_saved_as_a_file_load_each(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["generate", "nonogram", "--size", "5x5", "--seed", "4", "--count", "3", "--json"]
    _, out, _ = run(capsys, *argv)
    saved = tmp_path / "boards.jsonl"
    saved.write_text("\n".join(out) + "\n", encoding="utf-8")
    codes = [json.loads(line)["code"] for line in out]
    assert [each.id for each in gridproof.load_all(str(saved))] == codes
    status, counted, _ = run(capsys, "count", str(saved), "--check")
    assert status == 0
    assert counted[-1].startswith("3 puzzles: 3 unique; 0 not as expected")


def test_a_bank_export_file_loads_by_its_codes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    codes = [NONDANGO, "nonogram.1.5x5.SVJNNUk3SQA"]
    lines = [
        {"code": code, "genre": code.split(".")[0], "seed": 1, "provenance": "made"}
        for code in codes
    ]
    saved = tmp_path / "export.jsonl"
    saved.write_text("\n".join(map(json.dumps, lines)) + "\n", encoding="utf-8")
    assert [each.code for each in gridproof.load_all(str(saved))] == codes
    saved.write_text(json.dumps(lines[0]) + "\n", encoding="utf-8")  # one line: one object
    assert gridproof.load(str(saved)).code == NONDANGO


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            ['{"genre": "nonogram", "code": "nondango.1.6x6-same.Jxq1CfnOxMd9dlCE"}', "{}"],
            "bad.jsonl' line 1: puzzle: 'code' 'nondango.1.6x6-same.Jxq1CfnOxMd9dlCE' is not a "
            "Nonogram code",
        ),
        (['{"genre": "nonogram", "code": 7}', "{}"], "bad.jsonl' line 1: puzzle: json:"),
        (['{"code": "nonogram.1.5x5.SVJNNUk3SQA", "genre": "nonogram"}', "{x}"], "line 2:"),
        (['{"genre": "nonogram"}', "[1]"], "invalid JSON at line 2"),  # not one object a line
    ],
)
def test_a_bad_json_lines_file_names_the_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, lines: list[str], message: str
) -> None:
    saved = tmp_path / "bad.jsonl"
    saved.write_text("\n".join(lines) + "\n", encoding="utf-8")
    err = assert_usage_error(capsys, "count", str(saved))
    assert message in err
    assert "Traceback" not in err


def test_generate_with_its_solution_pipes_into_count(tmp_path: Path) -> None:
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "gridproof",
            "generate",
            "nonogram",
            "--size",
            "5x5",
            "--seed",
            "4",
            "--count",
            "3",
            "--show-solution",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert made.count("\n  ") >= 15  # the solutions, indented under each board
    counted = subprocess.run(
        [sys.executable, "-m", "gridproof", "count", "-"],
        input=made,
        capture_output=True,
        text=True,
    )
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout.splitlines()[-1].startswith("3 puzzles: 3 unique")


def test_generate_s_text_saved_as_a_file_loads_like_standard_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "boards.txt"
    argv = ["generate", "norinori", "--size", "6x6", "--seed", "1", "--count", "2"]
    status, _, _ = run(capsys, *argv, "--show", "--show-solution", "-o", str(saved))
    assert status == 0
    codes = [line.split()[0] for line in saved.read_text().splitlines() if line[:1].isalnum()]
    assert len(codes) == 2
    status, out, err = run(capsys, "count", str(saved))
    assert status == 0, err
    assert [line.split()[0] for line in out[:-1]] == codes
    assert out[-1].startswith("2 puzzles: 2 unique")
    saved.write_text(f"{codes[0]}\nnorinori.1.6x6.\n", encoding="utf-8")
    err = assert_usage_error(capsys, "count", str(saved))
    assert "boards.txt' line 2: code 'norinori.1.6x6.'" in err
    saved.write_text("not a puzzle\n", encoding="utf-8")  # not generate's: the file's error
    assert "invalid JSON at line 1" in assert_usage_error(capsys, "count", str(saved))


def test_serve_help_names_every_environment_variable_the_server_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = Path(gridproof.__file__).parent
    read = {
        name
        for path in source.rglob("*.py")
        for name in re.findall(r"GRIDPROOF_[A-Z_]+", path.read_text(encoding="utf-8"))
    }
    assert len(read) >= 10
    status, out, _ = run(capsys, "serve", "--help")
    assert status == 0
    shown = "\n".join(out)
    assert {name for name in read if name not in shown} == set()
