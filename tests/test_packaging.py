"""What a library user depends on: ranges with both bounds in pyproject.toml, and the lock
(`constraints.txt`) that `make` installs inside them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
REQUIREMENTS = [
    Requirement(line)
    for line in PROJECT["dependencies"]
    + [line for lines in PROJECT["optional-dependencies"].values() for line in lines]
]


def _locked() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not an exact pin"
            pins[canonicalize_name(name)] = version.strip()
    return pins


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_every_requirement_is_a_range_with_both_bounds(requirement: Requirement) -> None:
    operators = {spec.operator for spec in requirement.specifier}
    assert operators & {">=", ">"}, f"{requirement} has no lower bound"
    assert operators & {"<", "<="}, f"{requirement} has no upper bound"
    assert "==" not in operators, f"{requirement} pins one version; a library gives a range"


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=str)
def test_the_lock_installs_inside_every_range(requirement: Requirement) -> None:
    locked = _locked().get(canonicalize_name(requirement.name))
    assert locked is not None, f"{requirement.name} is missing from constraints.txt"
    assert requirement.specifier.contains(locked, prereleases=True), (
        f"constraints.txt pins {requirement.name}=={locked}, outside {requirement}"
    )


def test_the_metadata_a_user_reads() -> None:
    assert PROJECT["requires-python"] == ">=3.11"
    classifiers = set(PROJECT["classifiers"])
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert (ROOT / "src" / "gridproof" / "py.typed").exists()
