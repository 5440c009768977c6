"""The README's tour runs as written: every shell command in its ```sh blocks, from a fresh
copy of the repository after the two commands, exits 0 (or 1 where its comment says
`exit 1`, a command reporting a finding), and its ```python blocks run.

Left out, each saying why in the README: a block under a `<!-- not run by
tests/test_readme.py: ... -->` comment (the two commands, servers, a cluster, benchmarks),
and bulk bank fills (`--count` of 1000 or more)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
NOT_RUN = "<!-- not run by tests/test_readme.py:"
BULK = re.compile(r"bank fill .*--count \d{4,}")
COMMAND_S = 300.0
"""How long one command may run (the longest, `study`, takes about a minute)."""


@dataclass(frozen=True)
class Block:
    language: str
    line: int
    """The README line of the block's first line."""
    text: str


def blocks(text: str) -> list[Block]:
    """The fenced blocks the test runs (```sh and ```python, not under a NOT_RUN comment)."""
    found = []
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        opening = re.fullmatch(r"```(\w*)", lines[n])
        if opening is None:
            n += 1
            continue
        end = lines.index("```", n + 1)
        before = next((lines[k] for k in range(n - 1, -1, -1) if lines[k].strip()), "")
        if opening[1] in ("sh", "python") and not before.startswith(NOT_RUN):
            found.append(Block(opening[1], n + 2, "\n".join(lines[n + 1 : end])))
        n = end + 1
    return found


def commands(block: Block) -> list[tuple[int, str]]:
    """Each command of a shell block with its README line (comments and bulk fills left out)."""
    out = []
    for offset, line in enumerate(block.text.splitlines()):
        if line.strip() and not line.lstrip().startswith("#") and not BULK.search(line):
            out.append((block.line + offset, line))
    return out


def allowed_exits(line: str) -> set[int]:
    """0, and 1 where the line's own comment says the command exits 1."""
    return {0, 1} if re.search(r"\s#\s.*\bexit 1\b", line) else {0}


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh copy of the repository's files (what a clone holds, with this checkout's
    edits), with the checkout's .venv: the state after `make serve` and `make test`."""
    place = tmp_path_factory.mktemp("readme") / "gridproof"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = place / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    (place / ".venv").symlink_to(Path(sys.prefix))
    return place


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRIDPROOF_")}
    env["XDG_DATA_HOME"] = str(home / "data")  # the bank of `bank stats` and friends
    return env


def test_the_readme_has_a_tour_to_run() -> None:
    runnable = blocks(README.read_text(encoding="utf-8"))
    assert sum(len(commands(b)) for b in runnable if b.language == "sh") >= 20
    assert any(b.language == "python" for b in runnable)
    assert "../shared" not in "\n".join(b.text for b in runnable), "the tour reads outside"


def test_every_shell_command_runs_as_written(clone: Path) -> None:
    failures = []
    for block in blocks(README.read_text(encoding="utf-8")):
        if block.language != "sh":
            continue
        for line_no, command in commands(block):
            done = subprocess.run(
                ["bash", "-c", f"set -o pipefail; {command}"],
                cwd=clone,
                env=_env(clone.parent),
                capture_output=True,
                text=True,
                timeout=COMMAND_S,
            )
            if done.returncode not in allowed_exits(command):
                tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
                failures.append(f"README.md:{line_no}: exit {done.returncode}: {command}\n  {tail}")
    assert not failures, "\n".join(failures)


def test_every_python_block_runs(clone: Path) -> None:
    for block in blocks(README.read_text(encoding="utf-8")):
        if block.language == "python":
            done = subprocess.run(
                [str(clone / ".venv" / "bin" / "python"), "-c", block.text],
                cwd=clone,
                env=_env(clone.parent),
                capture_output=True,
                text=True,
                timeout=COMMAND_S,
            )
            assert done.returncode == 0, f"README.md:{block.line}: {done.stderr[-2000:]}"
