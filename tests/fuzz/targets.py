"""Every in-process fuzz target by name (see `tests.fuzz.harness` for what each checks)."""

from __future__ import annotations

from collections.abc import Callable

from tests.fuzz.cli_target import CliTarget
from tests.fuzz.harness import (
    GridTarget,
    LoadTarget,
    NonTarget,
    PatternTarget,
    Pzprv3Target,
    Tally,
    Target,
    run_target,
)
from tests.fuzz.picture_target import PictureTarget
from tests.fuzz.web_target import ApiBodiesTarget, ApiTarget

TARGETS: dict[str, Callable[[], Target]] = {
    "load:code": lambda: LoadTarget("code"),
    "load:url": lambda: LoadTarget("url"),
    "load:json": lambda: LoadTarget("json"),
    "nonogram:pattern": PatternTarget,
    "nonogram:non": NonTarget,
    "load:pzprv3": Pzprv3Target,
    "grid:validate": lambda: GridTarget("validate"),
    "grid:marks": lambda: GridTarget("marks"),
    "workshop:keep": lambda: GridTarget("keep"),
    "cli": CliTarget,
    "api": ApiTarget,
    "api:bodies": ApiBodiesTarget,
    "picture": PictureTarget,
}
"""The in-process targets by name, each made fresh for a run."""


def fuzz(
    name: str, inputs: int, seed: int, full: bool = False, shard: tuple[int, int] = (0, 1)
) -> Tally:
    """Run the in-process target `name` on `inputs` mutated inputs from `seed` (`shard`: see
    `run_target`); `full`: the full run's settings (the CLI's parser built once)."""
    target = CliTarget(reuse_parser=True) if full and name == "cli" else TARGETS[name]()
    try:
        return run_target(target, inputs, seed, shard)
    finally:
        target.close()
