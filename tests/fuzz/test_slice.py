"""The CI slice of the fuzz harness: a few thousand mutated inputs per target from a fixed
seed (the full run, 100,000 and more per target, is `benchmarks/fuzz.py`). Anything but
an acceptance or a clean rejection fails the test, listing every kind of failure with the
shortest input that shows it."""

from __future__ import annotations

import pytest

from tests.fuzz import harness
from tests.fuzz.targets import TARGETS, fuzz

SEED = 17
INPUTS = {"cli": 1000, "api": 1000, "api:bodies": 300, "picture": 1000}
"""Inputs per target (2,000 unless named here: a CLI call or an HTTP request costs several
milliseconds, a parse a fraction of one)."""


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fuzz_slice(name: str) -> None:
    tally = fuzz(name, INPUTS.get(name, 2000), SEED)
    assert tally.accepted > 0, f"{name}: no input was accepted; the mutations miss the parser"
    assert tally.rejected > 0
    assert not tally.other, "\n" + harness.report([tally])
