"""The command line, run in-process: output, exit statuses and one-line errors."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest

from gridproof import cli, service
from gridproof.core.contract import Genre
from gridproof.core.outcome import Verdict
from tests.examples import REGIONS, SOLUTION, URL


@pytest.fixture
def corpus_file(tmp_path: Path, norinori: Genre) -> str:
    """Two puzzles; the corpus claims the second (the same board) is `multiple`."""
    puzzle = {"width": 5, "height": 5, "regions": REGIONS}
    corpus = {
        "genre": "norinori",
        "puzzles": [
            {"id": "right", **puzzle, "expected": "unique"},
            {"id": "wrong", **puzzle, "expected": "multiple"},
        ],
    }
    path = tmp_path / "two.json"
    path.write_text(json.dumps(corpus), encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def assert_usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == []
    assert err.startswith("gridproof: error: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err
    return err


# --- count ---------------------------------------------------------------------------------


def test_count_prints_a_line_per_puzzle(capsys: pytest.CaptureFixture[str], code: str) -> None:
    status, out, _ = run(capsys, "count", code)
    assert status == 0
    [line] = out
    assert line.split()[:4] == [code, "norinori", "5x5", "unique"]
    assert " ms " in line
    assert line.endswith("nodes")


def test_count_json_prints_one_object_per_puzzle(
    capsys: pytest.CaptureFixture[str], code: str, corpus_file: str
) -> None:
    status, out, _ = run(capsys, "count", code, URL, corpus_file, "--json", "--deadline", "30")
    assert status == 0
    results = [json.loads(line) for line in out]
    assert [r["id"] for r in results] == [code, URL, "right", "wrong"]
    for result in results:
        assert list(result) == ["id", "genre", "outcome", "solutions", "elapsed_s", "nodes"]
        assert result["outcome"] == "unique"
        assert result["solutions"] == [SOLUTION]


def test_count_flags_outcomes_the_corpus_does_not_expect(
    capsys: pytest.CaptureFixture[str], corpus_file: str
) -> None:
    status, out, _ = run(capsys, "count", corpus_file, "--limit", "3")
    assert status == 0
    right, wrong, summary = out
    assert "MISMATCH" not in right
    assert wrong.endswith("MISMATCH: expected multiple")
    assert summary == "2 puzzles: 2 unique; 1 not as expected"


def test_count_runs_the_corpus(
    capsys: pytest.CaptureFixture[str], norinori: Genre, corpus_dir: Path, tmp_path: Path
) -> None:
    corpus = json.loads((corpus_dir / "janko-norinori.json").read_text(encoding="utf-8"))
    corpus["puzzles"] = [p for p in corpus["puzzles"] if p["width"] * p["height"] <= 100][:5]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(corpus), encoding="utf-8")
    status, out, _ = run(capsys, "count", str(path))
    assert status == 0
    assert len(out) == 6
    assert "MISMATCH" not in "\n".join(out)


# --- solve, validate, convert --------------------------------------------------------------


def test_solve_prints_the_grid_and_the_steps(
    capsys: pytest.CaptureFixture[str], norinori: Genre, code: str
) -> None:
    rung = norinori.rungs[-1]
    status, out, _ = run(capsys, "solve", code, "--rules", rung)
    assert status == 0
    assert out[0].startswith(f"{code}: rung {rung}, ")
    picture = out[1:12]  # the regions drawn around the cells: 2 lines a row, and 1
    assert picture[0].startswith("+---")
    assert picture[-1].startswith("+---")
    assert [line[2::4] for line in picture[1::2]] == SOLUTION
    assert all(line.lstrip()[0].isdigit() for line in out[12:])
    # --rows prints today's bare rows, for scripts
    status, out, _ = run(capsys, "solve", code, "--rules", rung, "--rows")
    assert out[1:6] == SOLUTION
    assert all(line.lstrip()[0].isdigit() for line in out[6:])


def test_solve_json(capsys: pytest.CaptureFixture[str], norinori: Genre, code: str) -> None:
    status, out, _ = run(capsys, "solve", code, URL, "--rules", norinori.rungs[0], "--json")
    assert status == 0
    results = [json.loads(line) for line in out]
    assert [r["id"] for r in results] == [code, URL]
    assert all(r["rules"] == norinori.rungs[0] for r in results)


@pytest.mark.parametrize("grid", ["/".join(SOLUTION), ",".join(SOLUTION)])
def test_validate_a_solution_exits_0(
    capsys: pytest.CaptureFixture[str], code: str, grid: str
) -> None:
    status, out, _ = run(capsys, "validate", code, "--grid", grid)
    assert (status, out) == (0, [f"{code}: the grid is a solution"])


def test_validate_reads_rows_from_a_file(
    capsys: pytest.CaptureFixture[str], code: str, tmp_path: Path
) -> None:
    path = tmp_path / "grid.txt"
    path.write_text("\n".join(SOLUTION) + "\n\n", encoding="utf-8")
    assert run(capsys, "validate", code, "--grid", str(path))[0] == 0


def test_validate_lists_violations_and_exits_1(
    capsys: pytest.CaptureFixture[str], code: str
) -> None:
    status, out, _ = run(capsys, "validate", code, "--grid", "#####/...../...../...../.....")
    assert status == 1
    assert out[0].startswith(f"{code}: ")
    assert len(out) > 1
    assert all(line.startswith("  [") for line in out[1:])
    status, out, _ = run(
        capsys, "validate", code, "--grid", "#####,.....,.....,.....,.....", "--json"
    )
    assert status == 1
    report = json.loads(out[0])
    assert report["id"] == code
    assert report["violations"]


def test_convert_prints_each_format(capsys: pytest.CaptureFixture[str], code: str) -> None:
    assert run(capsys, "convert", URL, "--to", "code") == (0, [code], "")
    assert run(capsys, "convert", code, "--to", "url") == (0, [URL], "")
    status, out, _ = run(capsys, "convert", URL, code, "--to", "json")
    assert status == 0
    assert [json.loads(line)["id"] for line in out] == [URL, code]


PATTERN = "4x4:2/1/2/1/1.1/2/1/1"
PLAYABLE = PATTERN + ",Ap"
"""PATTERN as convert writes it: with the square Pattern's line solver needs (r1c1)."""
NON = "width 4\nheight 4\n\nrows\n1,1\n2\n1\n1\n\ncolumns\n2\n1\n2\n1\n"


def test_every_command_reads_pattern_ids_and_non_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "t.non"
    path.write_text(NON, encoding="utf-8")
    status, out, _ = run(capsys, "count", PATTERN, str(path), "--json")
    assert status == 0
    assert [json.loads(line)["outcome"] for line in out] == ["unique", "unique"]
    assert [json.loads(line)["id"] for line in out] == [PATTERN, "t"]
    assert run(capsys, "validate", str(path), "--grid", "#..#/##../..#./..#.")[0] == 0
    assert run(capsys, "solve", PATTERN, "--rules", "line")[0] == 0
    assert run(capsys, "fix", str(path))[0] == 0


def test_convert_writes_pattern_ids_and_non_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "t.non"
    path.write_text(NON, encoding="utf-8")
    assert run(capsys, "convert", str(path), "--to", "tatham") == (0, [PLAYABLE], "")
    status, out, _ = run(capsys, "convert", PATTERN, "--to", "non")
    assert (status, "\n".join(out) + "\n") == (0, NON)


def test_convert_refuses_at_write_time_what_a_url_cannot_hold(
    capsys: pytest.CaptureFixture[str], norinori: Genre, code: str
) -> None:
    too_long = "512x1:" + "/".join(["1"] * 512) + "/512"
    err = assert_usage_error(capsys, "convert", too_long, "--to", "url")
    assert "Nonogram 512x1 cannot be written as url: clue 512 is too large" in err
    err = assert_usage_error(capsys, "convert", code, "--to", "non")
    assert "unknown format 'non' for Norinori" in err


# --- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["count", "norinori.1.5x5.zzz"], "code 'norinori.1.5x5.zzz'"),
        (["count", "https://puzz.link/p?norinori/5/5/"], "URL "),
        (["count", "https://puzz.link/p?nosuch/5/5/x"], "unknown genre 'nosuch'"),
        (["count", "missing.json"], "cannot read file 'missing.json'"),
        (["count", "{oops"], "invalid JSON at line 1, column 2"),
        (["count", "nothing"], "is not a puzzle code"),
        (["count", URL, "--limit", "1"], "--limit: must be at least 2"),
        (["count", URL, "--limit", "two"], "--limit: 'two' is not a whole number"),
        (["count", URL, "--deadline", "-1"], "--deadline: must be a positive number"),
        (["count", URL, "--deadline", "0"], "--deadline: must be a positive number"),
        (["count", URL, "--deadline", "nan"], "--deadline: must be a positive number"),
        (["count"], "required: SOURCE"),
        ([], "required: COMMAND"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["count", URL, "--bogus"], "unrecognized arguments: --bogus"),
        (["solve", URL], "required: --rules"),
        (["solve", URL, "--rules", "magic"], "unknown rung 'magic'"),
        (["validate", URL, "--grid", "##/.."], "grid for "),
        (["validate", URL, "--grid", "//"], "holds no rows"),
        (["convert", URL, "--to", "svg"], "invalid choice: 'svg'"),
        (["serve", "--port", "70000"], "--port: must be between 0 and 65535"),
        (["serve", "--reload", "maybe"], "invalid choice: 'maybe'"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], norinori: Genre, argv: list[str], fragment: str
) -> None:
    assert fragment in assert_usage_error(capsys, *argv)


def test_a_bad_corpus_file_says_which_puzzle(
    capsys: pytest.CaptureFixture[str], norinori: Genre, tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"genre": "norinori", "puzzles": [{"id": "p7"}]}', encoding="utf-8")
    assert "puzzle 1 ('p7')" in assert_usage_error(capsys, "count", str(path))


def test_validate_needs_exactly_one_puzzle(
    capsys: pytest.CaptureFixture[str], corpus_file: str
) -> None:
    err = assert_usage_error(capsys, "validate", corpus_file, "--grid", "/".join(SOLUTION))
    assert "needs one puzzle" in err
    assert "holds 2" in err


def test_bad_input_stops_before_any_output(capsys: pytest.CaptureFixture[str], code: str) -> None:
    assert_usage_error(capsys, "count", code, "missing.json")
    assert_usage_error(capsys, "solve", code, "missing.json", "--rules", "x")


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "count" in "\n".join(out)
    assert run(capsys, "count", "--help")[0] == 0
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out[0].startswith("gridproof ")


def test_keyboard_interrupt_exits_130_quietly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> service.Counted:
        raise KeyboardInterrupt

    monkeypatch.setattr(service, "count", interrupted)
    assert run(capsys, "count", code) == (130, [], "")


class BrokenStdout:
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        raise OSError("no file descriptor")


def test_a_broken_pipe_exits_quietly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr("sys.stdout", BrokenStdout())
        status = cli.main(["count", code])
    assert status == 141
    assert capsys.readouterr().err == ""


def test_serve_runs_uvicorn_on_the_app(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: calls.append((a, k)))
    monkeypatch.setenv("GRIDPROOF_DB", str(tmp_path / "bank.sqlite3"))
    monkeypatch.setenv("GRIDPROOF_HOSTS", "")
    assert run(capsys, "serve")[0] == 0
    assert run(capsys, "serve", "--host", "0.0.0.0", "--port", "9000", "--reload")[0] == 0
    assert run(capsys, "serve", "--reload", "no")[0] == 0
    local = {"host": "127.0.0.1", "port": 8000, "reload": False, "workers": 1}
    assert calls == [
        (("gridproof.web.app:app",), local),
        (
            ("gridproof.web.app:app",),
            {"host": "0.0.0.0", "port": 9000, "reload": True, "workers": None},
        ),
        (("gridproof.web.app:app",), local),
    ]


def test_generate_prints_json_boards(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(
        ["generate", "norinori", "--size", "6x6", "--seed", "5", "--count", "2", "--json"]
    )
    assert status == 0
    boards = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [b["seed"] for b in boards] == [5, 6]
    for board in boards:
        assert set(board) >= {
            "code",
            "seed",
            "size",
            "puzzle",
            "solution",
            "difficulty",
            "metrics",
            "health",
        }
        assert board["size"] == "6x6"
        assert cli.main(["count", board["code"], "--json"]) == 0
        counted = json.loads(capsys.readouterr().out)
        assert counted["outcome"] == "unique"
        assert counted["solutions"] == [board["solution"]]


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "norinori", "--size", "2x2", "--seed", "1"],
        ["generate", "norinori", "--size", "axb", "--seed", "1"],
        ["generate", "norinori", "--size", "6x6", "--seed", "x"],
        ["generate", "norinori", "--size", "6x6", "--seed", "1", "--difficulty", "brutal"],
        ["generate", "norinori", "--size", "6x6", "--seed", "1", "--count", "0"],
        ["generate", "chess", "--size", "6x6", "--seed", "1"],
        ["study", "norinori", "--boards", "0"],
    ],
)
def test_generate_and_study_refuse_bad_arguments(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gridproof: error:")
    assert "Traceback" not in err


def test_generate_out_of_time_exits_1_with_health(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(["generate", "norinori", "--size", "12x12", "--seed", "1", "--deadline", "0.001"])
        == 1
    )
    assert "health:" in capsys.readouterr().err


def test_generate_prints_a_line_per_board_and_the_solution_when_asked(
    capsys: pytest.CaptureFixture[str], norinori: Genre
) -> None:
    argv = ["generate", "norinori", "--size", "6x6", "--seed", "5", "--show-solution"]
    assert cli.main(argv) == 0
    first, *solution = capsys.readouterr().out.splitlines()
    code, _, seed, difficulty, *_ = first.split()
    assert (seed, first.endswith(" ms")) == ("5", True)
    assert code.startswith("norinori.1.6x6.")
    assert len(solution) == 6
    assert all(len(row.strip()) == 6 and set(row.strip()) <= set("#.") for row in solution)
    assert difficulty in norinori.difficulties
    assert cli.main(["validate", code, "--grid", "/".join(row.strip() for row in solution)]) == 0


# --- conventions: standard input, --output, seeds, --check, help in errors ----------------


def feed(monkeypatch: pytest.MonkeyPatch, text: str | bytes) -> None:
    data = text.encode("utf-8") if isinstance(text, str) else text
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_a_dash_reads_the_source_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, corpus_file: str
) -> None:
    feed(monkeypatch, NON)
    assert run(capsys, "convert", "-", "--to", "tatham") == (0, [PLAYABLE], "")
    feed(monkeypatch, Path(corpus_file).read_text(encoding="utf-8"))
    status, out, _ = run(capsys, "count", "-", "--json")
    assert status == 0
    assert [json.loads(line)["id"] for line in out] == ["right", "wrong"]
    # what generate prints, one board a line, code first
    feed(monkeypatch, f"{URL}  seed 5  easy\n\n{PATTERN}  seed 6\n")
    _, out, _ = run(capsys, "count", "-", "--json")
    assert [json.loads(line)["id"] for line in out] == [URL, PATTERN]
    feed(monkeypatch, f"{URL}  seed 5  easy\n")
    _, out, _ = run(capsys, "count", "-", "--json")
    assert [json.loads(line)["id"] for line in out] == [URL]


def test_what_generate_prints_is_a_source_on_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for extra in ([], ["--json"]):
        argv = ["generate", "nonogram", "--size", "5x5", "--seed", "3", "--count", "2", *extra]
        status, printed, _ = run(capsys, *argv)
        assert status == 0
        feed(monkeypatch, "\n".join(printed) + "\n")
        status, out, _ = run(capsys, "count", "-", "--json")
        assert status == 0
        assert [json.loads(line)["outcome"] for line in out] == ["unique", "unique"]


def test_a_dash_reads_the_grid_and_the_kept_solution_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, norinori: Genre, code: str
) -> None:
    feed(monkeypatch, "\n".join(SOLUTION) + "\n")
    assert run(capsys, "validate", code, "--grid", "-")[0] == 0
    feed(monkeypatch, "\n".join(SOLUTION[::-1]))
    assert run(capsys, "validate", code, "--grid", "-")[0] == 1
    feed(monkeypatch, "\n".join(SOLUTION))
    assert run(capsys, "fix", code, "--keep", "-")[0] == 0


@pytest.mark.parametrize(
    ("argv", "stdin", "fragment"),
    [
        (["count", "-", "-"], "", "standard input ('-') can be read only once"),
        (["validate", "-", "--grid", "-"], "", "cannot both be '-'"),
        (["fix", "-", "--keep", "-"], "", "cannot both be '-'"),
        (["count", "-"], b"\xff\xfe", "standard input is not UTF-8"),
        (["count", "-"], "", "standard input: empty source"),
        (["count", "-"], f"{URL}\nnothing\n", "standard input line 2: 'nothing' is not"),
        (["validate", URL, "--grid", "-"], "", "--grid '-' holds no rows"),
    ],
)
def test_standard_input_errors(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    norinori: Genre,
    argv: list[str],
    stdin: str | bytes,
    fragment: str,
) -> None:
    feed(monkeypatch, stdin)
    assert fragment in assert_usage_error(capsys, *argv)


def test_standard_input_is_read_up_to_the_file_limit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "MAX_FILE_BYTES", 100)
    feed(monkeypatch, "{" + " " * 200 + "}")
    assert "larger than" in assert_usage_error(capsys, "count", "-")


def test_output_writes_the_results_to_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, code: str
) -> None:
    path = tmp_path / "out.txt"
    assert run(capsys, "convert", URL, "--to", "code", "-o", str(path)) == (0, [], "")
    assert path.read_text(encoding="utf-8") == code + "\n"
    assert run(capsys, "count", code, "--json", "--output", str(path))[1] == []
    assert json.loads(path.read_text(encoding="utf-8"))["outcome"] == "unique"
    assert run(capsys, "convert", URL, "--to", "code", "-o", "-") == (0, [code], "")
    missing = tmp_path / "no" / "such" / "dir.txt"
    assert "cannot write" in assert_usage_error(
        capsys, "convert", URL, "--to", "url", "-o", str(missing)
    )


def test_generate_without_a_seed_picks_one_and_prints_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("secrets.randbelow", lambda n: 12345)
    status, out, err = run(capsys, "generate", "norinori", "--size", "6x6", "--json")
    assert status == 0
    assert "seed 12345" in err
    assert "--seed 12345" in err
    board = json.loads(out[0])
    assert board["seed"] == 12345
    again = run(capsys, "generate", "norinori", "--size", "6x6", "--seed", "12345", "--json")
    assert json.loads(again[1][0])["code"] == board["code"]


def test_count_check_exits_1_on_a_mismatch_or_a_timeout(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, corpus_file: str, code: str
) -> None:
    assert run(capsys, "count", corpus_file)[0] == 0
    assert run(capsys, "count", corpus_file, "--check")[0] == 1
    assert run(capsys, "count", code, "--check")[0] == 0
    real = service.count

    def timed_out(*args: Any, **kwargs: Any) -> service.Counted:
        return dataclasses.replace(real(*args), verdict=Verdict.TIMEOUT)

    monkeypatch.setattr(service, "count", timed_out)
    assert run(capsys, "count", code)[0] == 0
    assert run(capsys, "count", code, "--check")[0] == 1


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["count", "nothing"], "(see 'gridproof count --help')"),
        (["count", URL, "--limit", "1"], "(see 'gridproof count --help')"),
        (["solve", URL, "--rules", "magic"], "(see 'gridproof solve --help')"),
        (["generate", "norinori", "--size", "2x2"], "(see 'gridproof generate norinori --help')"),
        (["bank", "export", "--format", "x"], "(see 'gridproof bank export --help')"),
    ],
)
def test_errors_point_to_the_subcommand_s_help(
    capsys: pytest.CaptureFixture[str], norinori: Genre, argv: list[str], hint: str
) -> None:
    err = assert_usage_error(capsys, *argv)
    assert err.rstrip().endswith(hint)
    assert err.count("--help") == 1


def test_subcommand_help_lists_rungs_sizes_and_defaults(
    capsys: pytest.CaptureFixture[str], norinori: Genre
) -> None:
    status, out, _ = run(capsys, "solve", "--help")
    assert status == 0
    assert "Norinori: local, pairs, probe" in " ".join(" ".join(out).split())
    status, out, _ = run(capsys, "generate", "norinori", "--help")
    text = " ".join(" ".join(out).split())
    (low_w, low_h), (high_w, high_h) = norinori.sizes
    assert f"from {low_w}x{low_h} to {high_w}x{high_h}" in text
    assert "boards to make, from seeds S, S+1, ... (default 1)" in text
    assert "default: one picked at random, and printed" in text
    assert "{easy,medium,hard,expert}" in text


def test_convert_writes_pzprv3_files_that_every_command_reads(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(capsys, "convert", URL, "--to", "pzprv3")
    assert status == 0
    assert out[:4] == ["pzprv3.1", "norinori", "5", "5"]
    path = tmp_path / "saved.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    assert run(capsys, "convert", str(path), "--to", "url") == (0, [URL], "")
    status, out, _ = run(capsys, "count", str(path), "--json")
    assert (status, json.loads(out[0])["outcome"]) == (0, "unique")
    status, out, _ = run(capsys, "convert", PATTERN, "--to", "pzprv3")
    assert (status, out[:2]) == (0, ["pzprv3", "nonogram"])
    embedded = "https://puzz.link/p?" + "/".join(out).replace(" ", "%20")
    assert run(capsys, "convert", embedded, "--to", "tatham") == (0, [PLAYABLE], "")


def test_count_no_sat_counts_a_nonogram_in_python(capsys: pytest.CaptureFixture[str]) -> None:
    code = "nonogram.1.5x5.STREk000RNQ"
    status, out, _ = run(capsys, "count", code, "--no-sat", "--json")
    assert status == 0
    [line] = out
    assert json.loads(line)["genre"] == "nonogram"
