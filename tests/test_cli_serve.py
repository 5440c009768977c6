"""`gridproof serve` before the server starts: the bank file checked in one line, the host
names the server answers."""

from __future__ import annotations

import os
import sqlite3
import sys
import tomllib
from pathlib import Path

import pytest

from gridproof import cli
from tests.test_cli import assert_usage_error


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """uvicorn.run recorded, not run."""
    import uvicorn

    runs: list[dict[str, object]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: runs.append(options))
    for name in ("GRIDPROOF_DB", "GRIDPROOF_FILL", "GRIDPROOF_HOSTS", "GRIDPROOF_EXPOSED"):
        monkeypatch.setenv(name, "")  # so that teardown restores what serve sets
        monkeypatch.delenv(name)
    return runs


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"this is not a database, just text" * 100, "not a database"),
        (b"SQLite format 3\0" + b"\xff" * 300, ""),
    ],
    ids=["text", "truncated"],
)
def test_a_bank_file_that_is_not_a_bank_is_one_line_before_start(
    capsys: pytest.CaptureFixture[str],
    no_server: list[dict[str, object]],
    tmp_path: Path,
    content: bytes,
    fragment: str,
) -> None:
    path = tmp_path / "bank.sqlite3"
    path.write_bytes(content)
    message = assert_usage_error(capsys, "serve", "--db", str(path), "--no-fill")
    assert "cannot be used" in message
    assert fragment in message
    assert no_server == []


def test_a_read_only_bank_is_one_line_before_start(
    capsys: pytest.CaptureFixture[str], no_server: list[dict[str, object]], tmp_path: Path
) -> None:
    path = tmp_path / "bank.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE puzzles (id INTEGER)")  # an old bank the server must migrate
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        if os.access(path, os.W_OK):
            pytest.skip("running as root: files are writable whatever their mode")
        message = assert_usage_error(capsys, "serve", "--db", str(path), "--no-fill")
        assert "cannot be used" in message
    finally:
        tmp_path.chmod(0o755)
        path.chmod(0o644)


def test_serve_answers_the_bound_address_and_the_names_allowed(
    no_server: list[dict[str, object]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "bank.sqlite3")
    argv = ["serve", "--db", db, "--no-fill", "--host", "192.0.2.7", "--allow-host", "pz.lan"]
    assert cli.main([*argv, "--workers", "2"]) == 0
    assert os.environ["GRIDPROOF_HOSTS"] == "192.0.2.7,pz.lan"
    assert no_server[-1]["workers"] == 2
    assert cli.main(["serve", "--db", db, "--no-fill", "--host", "0.0.0.0"]) == 0
    assert os.environ["GRIDPROOF_HOSTS"] == "*"


@pytest.mark.parametrize("missing", ["uvicorn", "fastapi"])
def test_serve_without_the_web_extra_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # `import missing` raises ImportError
    err = assert_usage_error(capsys, "serve")
    assert f"needs the web extra ({missing} is not installed)" in err
    assert "pip install 'gridproof[web]'" in err


ROOT = Path(__file__).resolve().parents[1]


def test_the_engine_installs_without_the_web_stack() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # one small pure-Python dependency: the user's data folder, for the bank
    assert project["dependencies"] == ["platformdirs>=4.3,<5"]
    assert project["optional-dependencies"]["web"] == ["fastapi>=0.165,<1", "uvicorn>=0.54,<1"]
    assert (project["license"], project["license-files"]) == ("MIT", ["LICENSE"])
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License")
    assert "the gridproof authors" in licence
    # make serve installs the web extra, the dev install everything the tests use
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "PIP_INSTALL = $(PY) -m pip install --quiet --constraint constraints.txt" in makefile
    assert "$(PIP_INSTALL) -e '.[web]'" in makefile
    assert "$(PIP_INSTALL) -e '.[dev,web,cluster]'" in makefile


def test_serve_on_an_address_others_reach_warns_in_one_line_and_refuses_writes(
    capsys: pytest.CaptureFixture[str],
    no_server: list[dict[str, object]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("GRIDPROOF_EXPOSED", "GRIDPROOF_TOKEN"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    db = str(tmp_path / "bank.sqlite3")
    assert cli.main(["serve", "--db", db, "--no-fill"]) == 0
    assert os.environ["GRIDPROOF_EXPOSED"] == "0"
    assert capsys.readouterr().err == ""
    assert cli.main(["serve", "--db", db, "--no-fill", "--host", "0.0.0.0"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "warning: serving 0.0.0.0 to other machines, answering any Host name" in err
    assert "keeping boards is refused (set GRIDPROOF_TOKEN" in err
    assert os.environ["GRIDPROOF_EXPOSED"] == "1"
    monkeypatch.setenv("GRIDPROOF_TOKEN", "s3cret")
    argv = ["serve", "--db", db, "--no-fill", "--host", "0.0.0.0", "--allow-host", "pz.lan"]
    assert cli.main(argv) == 0
    assert "needs the X-Gridproof-Token header" in capsys.readouterr().err
    assert os.environ["GRIDPROOF_HOSTS"] == "pz.lan"
