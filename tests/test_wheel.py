"""The package as a user gets it: a wheel built from this checkout and installed with its
`web` extra in a fresh virtual environment outside the repository, so nothing is read from
`src/` (a file missing from the package data, or a dependency missing from pyproject.toml,
fails here and nowhere else).

It needs the package index, as `make test` itself does; pip's cache makes reruns quick.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import httpx
import pytest

from tests.servers import serving

pytestmark = pytest.mark.wheel

ROOT = Path(__file__).resolve().parents[1]
LEFT_OUT = (
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
)
"""What the wheel is not built from: checkout state, not the project."""
START_S = 60.0
"""How long `gridproof serve` may take to answer its first request."""


def _run(*args: str | Path, cwd: Path, timeout: float = 600) -> str:
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=_clean_env(cwd),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _clean_env(home: Path) -> dict[str, str]:
    """The environment without this checkout's Python settings, with its own data folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["XDG_DATA_HOME"] = str(home / "data")
    env.pop("GRIDPROOF_DB", None)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout."""
    place = tmp_path_factory.mktemp("wheel")
    # built from a copy: setuptools writes build/ into the tree it builds, and files left
    # there by an earlier build would be packed again
    tree = place / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(*LEFT_OUT))
    dist = place / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", dist, tree, cwd=place)
    (built,) = dist.glob("gridproof-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path) -> Path:
    """The `bin` folder of a fresh venv holding the wheel built from this checkout."""
    place = wheel.parent.parent
    _run(sys.executable, "-m", "venv", place / "venv", cwd=place)
    bin_dir = place / "venv" / "bin"
    _run(bin_dir / "python", "-m", "pip", "install", "--quiet", f"{wheel}[web]", cwd=place)
    return bin_dir


def test_the_wheel_is_what_runs(installed: Path) -> None:
    where = _run(
        installed / "python", "-c", "import gridproof; print(gridproof.__file__)", cwd=installed
    )
    assert str(installed.parent) in where, where
    assert str(ROOT / "src") not in where


def test_the_installed_command_counts_a_url(installed: Path) -> None:
    made = _run(
        installed / "gridproof",
        "generate",
        "norinori",
        "--size",
        "6x6",
        "--seed",
        "3",
        "--json",
        cwd=installed.parent,
    )
    code = json.loads(made.splitlines()[0])["code"]
    url = _run(installed / "gridproof", "convert", code, "--to", "url", cwd=installed.parent)
    assert url.startswith("https://puzz.link/p?norinori/6/6/")
    counted = _run(installed / "gridproof", "count", url.strip(), "--json", cwd=installed.parent)
    assert json.loads(counted.splitlines()[0])["outcome"] == "unique"


def test_the_installed_command_renders_svg_without_extras(installed: Path) -> None:
    made = _run(
        installed / "gridproof",
        "generate",
        "nondango",
        "--size",
        "6x6",
        "--seed",
        "2",
        cwd=installed.parent,
    )
    svg = _run(
        installed / "gridproof", "render", made.split()[0], "--to", "svg", cwd=installed.parent
    )
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    assert root.findall(".//{http://www.w3.org/2000/svg}circle")


def test_the_installed_server_serves_the_player(installed: Path) -> None:
    command = [str(installed / "gridproof"), "serve"]
    home = installed.parent
    with serving(command, _clean_env(home), cwd=home, start_s=START_S) as (base, _):
        page = httpx.get(f"{base}/", timeout=10).raise_for_status().text
        assert "<title>" in page
        assert "gridproof" in page.lower()
        scripts = [part.split('"')[0] for part in page.split('src="')[1:]]
        assert scripts, "the page loads no script"
        for script in scripts:
            assert httpx.get(f"{base}{_absolute(script)}", timeout=10).raise_for_status().text
        catalog = httpx.get(f"{base}/api/catalog", timeout=10).raise_for_status().json()
        assert {g["name"] for g in catalog} >= {"norinori", "nonogram", "nondango"}


def _absolute(script: str) -> str:
    return script if script.startswith("/") else "/" + script


def test_every_extra_resolves_beside_a_users_older_pillow(wheel: Path, tmp_path: Path) -> None:
    """A library user who holds `pillow<13` can still add every extra: pip's resolver finds
    versions for all of them together (a dry run: nothing is installed)."""
    extras = ",".join(EXTRAS)
    report = tmp_path / "report.json"
    _run(
        sys.executable,
        "-m",
        "pip",
        "install",
        "--dry-run",
        "--ignore-installed",
        "--quiet",
        "--report",
        report,
        f"{wheel}[{extras}]",
        "pillow<13",
        cwd=tmp_path,
    )
    chosen = {
        item["metadata"]["name"].lower(): item["metadata"]["version"]
        for item in json.loads(report.read_text())["install"]
    }
    assert int(chosen["pillow"].split(".")[0]) < 13
    assert {"reportlab", "python-sat", "matplotlib", "fastapi", "dask"} <= set(chosen)


EXTRAS = ("web", "picture", "render", "sat", "plots", "cluster")
"""The extras a library user may ask for (dev is the developers' own)."""
