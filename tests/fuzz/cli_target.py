"""The command line under fuzz: `gridproof.cli.main(argv)` in-process with every command and
flag, and the checks of what it promises (exit status 0, 1 or 2; stderr at most one line,
never a traceback). `benchmarks/fuzz.py` sends the same command lines through a real
`python -m gridproof` too.

Bounds (cost, not correctness): `generate`/`picture` sizes above 8, counts above 2,
deadlines above 3 s and limits above 50 are lowered; `study` is parsed but never run
(`--boards 0` is appended: it is a minutes-long reproduction, not a call with a deadline);
`serve` reaches a stub instead of uvicorn.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import os
import random
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridproof import cli, service
from gridproof.core import registry
from gridproof.core.contract import Genre
from tests.fuzz.harness import (
    ACCEPTED,
    ODD_IDS,
    REJECTED,
    Failure,
    Target,
    mutated_source,
    seeds,
    short,
)
from tests.fuzz.mutate import NUMBERS, PIECES, mutate_argv, mutate_text, real_argv_text

CLI_FLAGS = (
    "--limit",
    "--deadline",
    "--json",
    "--rules",
    "--grid",
    "--to",
    "--size",
    "--seed",
    "--count",
    "--difficulty",
    "--show-solution",
    "--rule",
    "--white",
    "--profile",
    "--keep",
    "--make-unique",
    "--threshold",
    "--unique",
    "--boards",
    "--host",
    "--port",
    "--reload",
    "--db",
    "--no-fill",
    "--solution",
    "--per-page",
    "--rows",
    "--csv",
    "--version",
    "--help",
    "-h",
    "--bogus",
    "count",
    "solve",
    "validate",
    "convert",
    "generate",
    "fix",
    "picture",
    "study",
    "serve",
    "render",
    "show",
    "bogus",
)
"""Every flag and command, inserted anywhere by the argv mutations."""


class Workspace:
    """Files the command line reads: a JSON corpus, a grid file, a picture, a folder."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="gridproof-fuzz-"))
        s = seeds()
        corpus = {"genre": "norinori", "puzzles": []}
        docs = [d for d in s.documents if isinstance(d, dict) and "puzzles" in d]
        corpus = docs[0] if docs else corpus
        self.corpus = self.root / "corpus.json"
        self.corpus.write_text(json.dumps(corpus), encoding="utf-8")
        self.single = self.root / "one.json"
        self.single.write_text(json.dumps(s.documents[0]), encoding="utf-8")
        self.grid = self.root / "grid.txt"
        self.grid.write_text("\n".join(s.boards[0].solution_rows) + "\n", encoding="utf-8")
        self.picture = self.root / "picture.png"
        self.not_picture = self.root / "not-a-picture.png"
        self.not_picture.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
        self.folder = self.root / "folder"
        self.folder.mkdir()
        self.scratch = self.root / "scratch.json"
        try:
            from PIL import Image

            image = Image.new("L", (24, 24), 255)
            for x in range(24):
                for y in range(24):
                    if (x - 12) ** 2 + (y - 12) ** 2 < 60:
                        image.putpixel((x, y), 0)
            image.save(self.picture)
        except ImportError:
            self.picture.write_bytes(b"")

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def cli_seeds(space: Workspace) -> list[list[str]]:
    """Valid command lines: every command with every flag, on the seed boards."""
    s = seeds()
    out: list[list[str]] = [["--version"], ["--help"], ["count", "--help"]]
    for board in s.boards:
        code = board.code
        rows = "/".join(board.solution_rows)
        genre = board.genre
        rung = rng_pick(genre.rungs, len(code))
        out += [
            ["count", code, "--limit", "2", "--deadline", "1", "--json"],
            ["count", code, str(space.single), "--limit", "3"],
            ["solve", code, "--rules", rung, "--deadline", "1"],
            ["solve", code, "--rules", genre.ladder.top, "--json"],
            ["validate", code, "--grid", rows, "--json"],
            ["validate", code, "--grid", rows.replace("/", ",")],
            ["convert", code, "--to", rng_pick(_targets(genre), len(code))],
            ["fix", code, "--keep", rows, "--limit", "2", "--deadline", "1", "--json"],
            ["fix", code, "--make-unique", "--deadline", "1"],
            ["render", code, "--solution", "--deadline", "1"],
            ["render", code, "--to", rng_pick(("png", "pdf"), len(code)), "--per-page", "2"],
            ["show", code, "--grid", rows, "--json"],
            ["show", code, "--solution", "--deadline", "1"],
            ["solve", code, "--rows", "--deadline", "1"],
        ]
    for url in s.urls[:6]:
        out.append(["count", url, "--json"])
    for doc in s.documents[::3]:
        out.append(["convert", json.dumps(doc), "--to", "code"])
        out.append(["count", json.dumps(doc), "--json"])
    for ident in ODD_IDS[:4]:  # valid puzzles whose ids must still print
        doc = {**s.documents[0], "id": ident}
        out += [["count", json.dumps(doc)], ["convert", json.dumps(doc), "--to", "json"]]
    out += [
        ["count", str(space.corpus), "--deadline", "1"],
        ["validate", s.codes[0], "--grid", str(space.grid)],
        ["convert", str(space.corpus), "--to", "url"],
        ["solve", str(space.corpus), "--rules", s.boards[0].genre.rungs[0]],
        ["picture", str(space.picture), "--size", "6x6", "--threshold", "128", "--json"],
        ["picture", str(space.picture), "--size", "5x5", "--unique", "--deadline", "1"],
        ["picture", str(space.not_picture), "--size", "5x5"],
        ["count", str(space.folder)],
        ["study", "norinori", "--boards", "0", "--seed", "1"],
        ["study", "nondango", "--boards", "0", "--deadline", "1"],
        ["study", "norinori", "--boards", "0", "--csv"],
        ["serve", "--host", "127.0.0.1", "--port", "0", "--reload", "no", "--no-fill"],
        ["serve", "--db", str(space.root / "bank.sqlite3"), "--reload"],
    ]
    for name, genre in sorted(registry.genres().items()):
        (w, h), _ = genre.sizes
        size = f"{max(5, w)}x{max(5, h)}"
        base = ["generate", name, "--size", size, "--seed", "3", "--deadline", "3"]
        out += [base, [*base, "--count", "2", "--json", "--show-solution"]]
        out.append([*base, "--difficulty", genre.offered(max(5, w), max(5, h))[0]])
        for option in genre.options:
            value = option.choices[-1] if option.choices else "3"
            out.append([*base, f"--{option.name}", str(value)])
    return out


def rng_pick(items: Sequence[str], index: int) -> str:
    return items[index % len(items)]


_CAPS = {"--size": 8, "--count": 2, "--boards": 0, "--deadline": 3.0, "--limit": 50}


def bounded_argv(argv: list[str]) -> list[str]:
    """`argv` with the values that only buy solver time lowered (sizes above 8, counts above
    2, deadlines above 3 s, limits above 50), and `study` never run (`--boards 0`)."""
    out = list(argv)
    i = 0
    while i < len(out):
        name, eq, value = out[i].partition("=")
        flag = next((f for f in _CAPS if len(name) > 3 and f.startswith(name)), None)
        if flag is None:
            i += 1
            continue
        at = i if eq else i + 1
        if at < len(out):
            current = value if eq else out[at]
            lowered = _lowered(flag, current)
            if lowered != current:
                out[at] = f"{name}={lowered}" if eq else lowered
        i = at + 1
    if "study" in out:
        out += ["--boards", "0"]
    return out


def _lowered(flag: str, value: str) -> str:
    cap = _CAPS[flag]
    if flag == "--size":
        match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", value)
        if match and max(int(match[1]), int(match[2])) > cap:
            return "6x6"
        return value
    try:  # as the CLI reads it: whole numbers by int() (any length), seconds by float()
        number: float = float(value) if flag == "--deadline" else int(value)
    except ValueError:
        return value
    if (isinstance(number, float) and not math.isfinite(number)) or number <= cap:
        return value
    return str(cap) if flag == "--deadline" else str(int(cap))


def mutated_argv(rng: random.Random, valid: Sequence[list[str]]) -> list[str]:
    """A mutated command line: a valid one with tokens, flags and values edited."""

    def value(token: str) -> str:
        if token.startswith(("norinori.", "nonogram.", "nondango.")):
            return mutated_source(rng, "code")
        if "p?" in token:
            return mutated_source(rng, "url")
        if token.startswith("{"):
            return mutated_source(rng, "json")
        if rng.random() < 0.3:
            return rng.choice(NUMBERS + PIECES)
        return mutate_text(rng, token, 2)

    argv = mutate_argv(rng, rng.choice(valid), CLI_FLAGS, value)
    return bounded_argv([real_argv_text(token) for token in argv])


@dataclass
class Ran:
    status: int
    stdout: str
    stderr: str


def check_cli(ran: Ran) -> str:
    """The command line's promise: exit 0, 1 or 2; stderr one line, never a traceback."""
    if ran.status not in (0, 1, 2):
        raise Failure(f"exit status {ran.status}; stderr {short(ran.stderr[-300:])}")
    if "Traceback" in ran.stderr or "Traceback (most recent" in ran.stdout:
        raise Failure(f"traceback: {short(ran.stderr.strip().splitlines()[-1:][0])}")
    lines = ran.stderr.splitlines()
    if len(lines) > 1 or ran.stderr.count("\n") > 1:
        raise Failure(f"stderr has {len(lines)} lines: {short(ran.stderr[:300])}")
    if ran.status == 2 and not ran.stderr.strip():
        raise Failure("exit status 2 without a message on stderr")
    return REJECTED if ran.status == 2 else ACCEPTED


class CliTarget(Target):
    """`gridproof.cli.main(argv)` in-process, with stdout and stderr captured as a terminal
    would encode them (UTF-8; stdout strict, stderr with backslash escapes, as Python sets
    them up), so an unprintable message fails as it would for a user."""

    name = "cli"

    def __init__(self, reuse_parser: bool = False) -> None:
        self.space = Workspace()
        self.valid = cli_seeds(self.space)
        import uvicorn

        self._uvicorn = uvicorn
        self._run = uvicorn.run
        uvicorn.run = self._no_server  # type: ignore[assignment]
        self._parser = getattr(cli, "_parser", None)
        if reuse_parser and self._parser is not None:
            # Building the argparse tree is 3 ms of a call's 5 and does not depend on the
            # input; the full run builds it once (parsing does not change a parser).
            cli._parser = functools.cache(self._parser)

    @staticmethod
    def _no_server(*args: Any, **kwargs: Any) -> None:
        """`serve` reaches here instead of starting a server."""

    def make(self, rng: random.Random) -> list[str]:
        return mutated_argv(rng, self.valid)

    def run(self, case: list[str]) -> str:
        return check_cli(self.call(case))

    def call(self, argv: list[str]) -> Ran:
        out_raw, err_raw = io.BytesIO(), io.BytesIO()
        out = io.TextIOWrapper(out_raw, encoding="utf-8", errors="strict", write_through=True)
        err = io.TextIOWrapper(err_raw, encoding="utf-8", errors="backslashreplace")
        environ = dict(os.environ)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli.main(argv)
            err.flush()
        finally:
            os.environ.clear()
            os.environ.update(environ)
        text_out = out_raw.getvalue().decode("utf-8", "replace")
        text_err = err_raw.getvalue().decode("utf-8", "replace")
        return Ran(status, text_out, text_err)

    def reproduce(self, case: list[str]) -> str:
        return f"gridproof.cli.main({case!r})"

    def close(self) -> None:
        self._uvicorn.run = self._run  # type: ignore[assignment]
        if self._parser is not None:
            cli._parser = self._parser
        self.space.close()


def _targets(genre: Genre[Any]) -> tuple[str, ...]:
    """The formats `convert` writes for `genre`: codes, URLs, JSON and its own."""
    return (*service.FORMATS, *(fmt.name for fmt in genre.formats))
