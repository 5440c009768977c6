"""`bank stats|export|fill|import` on a bank file that cannot be used: one clear line and
exit status 2, never a traceback (issue 26; `serve` already said one line)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gridproof.bank import io as bankio
from tests.test_cli import assert_usage_error

COMMANDS = (
    ("stats",),
    ("export",),
    ("fill", "--genre", "norinori", "--size", "5x5", "--count", "1"),
)


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database, just text" * 100)


def _truncated(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\0" + b"\xff" * 300)


def _folder(path: Path) -> None:
    path.mkdir()


@pytest.mark.parametrize("make", [_garbage, _truncated, _folder], ids=lambda f: f.__name__[1:])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_unusable_bank_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: Any, command: tuple[str, ...]
) -> None:
    path = tmp_path / "bank.sqlite3"
    make(path)
    err = assert_usage_error(capsys, "bank", *command, "--db", str(path))
    assert "cannot be used" in err
    assert "bank.sqlite3" in err


def test_a_full_disk_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(bankio, "stats", full)
    err = assert_usage_error(capsys, "bank", "stats", "--db", str(tmp_path / "bank.sqlite3"))
    assert "the disk holding it is full" in err
    assert "free some space" in err
