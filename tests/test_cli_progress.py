"""The progress bar: its line, how often it is drawn, that it is erased, that result lines
never mix with it, and (on a real pseudo-terminal) that the long commands draw it on a
terminal and stay silent when piped."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

import gridproof
from gridproof.cli import progress
from gridproof.cli.common import _emit
from tests.examples import REGIONS

SRC = str(Path(gridproof.__file__).resolve().parents[1])


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_line_shows_the_bar_done_of_total_the_rate_and_the_time_left() -> None:
    clock = Clock()
    bar = progress.Progress(100, "boards", Terminal(), clock=clock)
    bar.update(10)
    clock.now += 60
    bar.update(40, note="3 failures")
    assert bar.line() == (
        "[########............] 40/100 boards  30.0 boards/min  2:00 left  3 failures"
    )
    clock.now += 1
    bar.update(90)
    assert "1.3 boards/s" in bar.line()
    assert bar.line().endswith("0:08 left")


def test_it_redraws_in_place_a_few_times_a_second_and_is_erased_at_the_end() -> None:
    clock, screen = Clock(), Terminal()
    with progress.Progress(10, "puzzles", screen, clock=clock) as bar:
        for _ in range(5):
            bar.advance()  # all within one instant: drawn once
            clock.now += 0.01
        assert screen.getvalue().count("\r") == 1
        clock.now += progress.EVERY
        bar.advance()
        assert screen.getvalue().count("\r[") == 2
        bar.update(10)  # the last one is always drawn
    text = screen.getvalue()
    assert text.count("\r[") == 3
    assert "10/10 puzzles" in text
    assert text.endswith("\r\x1b[K")  # erased, not left behind


def test_it_is_erased_on_an_error_or_ctrl_c() -> None:
    screen = Terminal()

    def interrupted() -> None:
        with progress.Progress(3, "boards", screen) as bar:
            bar.advance()
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert screen.getvalue().endswith("\r\x1b[K")
    assert progress._shown == []


def test_it_is_silent_unless_the_stream_is_a_terminal() -> None:
    piped = io.StringIO()
    with progress.Progress(3, "boards", piped) as bar:
        bar.advance()
        bar.update(3)
    assert piped.getvalue() == ""
    with progress.Progress(3, "boards", Terminal(), enabled=False) as bar:
        bar.update(3)
        assert bar.stream.getvalue() == ""


def test_a_result_line_on_the_terminal_erases_the_bar_and_draws_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen, results = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", results)
    with progress.Progress(3, "boards", screen) as bar:
        bar.advance()
        drawn = screen.getvalue()
        _emit("a result")
        after = screen.getvalue()[len(drawn) :]
    assert after.startswith("\r\x1b[K\r[")  # erased, then the same line again
    assert results.getvalue() == "a result\n"


def test_results_going_to_a_file_leave_the_bar_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    screen = Terminal()
    with progress.Progress(3, "boards", screen) as bar:
        bar.advance()
        drawn = screen.getvalue()
        _emit("a result")
        assert screen.getvalue() == drawn  # not erased, not drawn again
    assert capsys.readouterr().out == "a result\n"


# --- the commands, on a pseudo-terminal and piped --------------------------------------


def _run(argv: list[str], terminal: bool) -> tuple[int, str, str]:
    """`gridproof ARGV` in a subprocess, stderr on a pseudo-terminal or a pipe; stdout
    always a pipe."""
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "120"}
    command = [sys.executable, "-m", "gridproof", *argv]
    if not terminal:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=follower, env=env, text=True
    ) as child:
        os.close(follower)
        err = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            err += chunk
        out = child.stdout.read() if child.stdout else ""
        status = child.wait(timeout=120)
    os.close(leader)
    return status, out, err.decode("utf-8")


@pytest.fixture(scope="module")
def three_puzzles(tmp_path_factory: pytest.TempPathFactory) -> str:
    puzzle = {"width": 5, "height": 5, "regions": REGIONS}
    corpus = {"genre": "norinori", "puzzles": [{"id": f"p{n}", **puzzle} for n in range(3)]}
    path = tmp_path_factory.mktemp("corpus") / "three.json"
    path.write_text(json.dumps(corpus), encoding="utf-8")
    return str(path)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["count", "{corpus}"], "3/3 puzzles"),
        (["generate", "norinori", "--size", "5x5", "--seed", "1", "--count", "3"], "3/3 boards"),
        (["study", "norinori", "--boards", "1"], "steps"),
        (
            ["bank", "fill", "--genre", "norinori", "--size", "5x5", "--count", "2"],
            "2/2 boards",
        ),
    ],
)
def test_long_commands_draw_the_bar_on_a_terminal_only(
    three_puzzles: str, tmp_path: Path, argv: list[str], shown: str
) -> None:
    argv = [three_puzzles if arg == "{corpus}" else arg for arg in argv]
    if argv[0] == "bank":
        argv += ["--db", str(tmp_path / "bank.sqlite3")]
    status, out, err = _run(argv, terminal=True)
    assert status == 0, err
    assert "\r[" in err  # drawn in place
    assert shown in err
    assert "left" in err
    assert err.rstrip("\r\n").endswith("\x1b[K")  # and erased at the end
    assert "\r" not in out  # stdout holds the results alone
    if argv[0] == "bank":
        # a second run has nothing to do: the fill's summary, no bar
        argv[-1] = str(tmp_path / "other.sqlite3")
    status, piped_out, piped_err = _run(argv, terminal=False)
    assert status == 0
    assert "\r" not in piped_err
    assert "\x1b" not in piped_err
    assert "left" not in piped_err
    if argv[0] in ("count", "generate"):  # the same results either way (but for times)
        assert [line.split()[0] for line in piped_out.splitlines()] == [
            line.split()[0] for line in out.splitlines()
        ]
