"""Same request and seed, same board: codes pinned per genre and generator version.

A change that alters what a seed produces must bump the genre's generator version and
pin the new codes here; a refactor must leave them as they are.
"""

from __future__ import annotations

import pytest

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.registry import genre

PINNED = [
    # (genre, generator version, width, height, difficulty, seed, code, grade)
    ("norinori", "norinori/2", 6, 6, None, 1, "norinori.1.6x6.I7q9lzjeQsA", "hard"),
    ("norinori", "norinori/2", 8, 8, "easy", 2, "norinori.1.8x8.Yvq_SzZa2tZKJc4RaE0", "easy"),
    ("norinori", "norinori/2", 8, 8, "medium", 3, "norinori.1.8x8.xUWOnx02sz5-Xh-vHlQ", "medium"),
    (
        "norinori",
        "norinori/2",
        10,
        10,
        None,
        4,
        "norinori.1.10x10.YUiyVjVN5bbraLIX9_K-fxX-sCLfAfA",
        "medium",
    ),
    ("nonogram", "nonogram/1", 5, 5, None, 1, "nonogram.1.5x5.Sem9JNVe0g", "easy"),
    (
        "nonogram",
        "nonogram/1",
        10,
        10,
        None,
        2,
        "nonogram.1.10x10.REVFRElRHI0k2myJloiaSSImkA",
        "easy",
    ),
    ("nonogram", "nonogram/1", 8, 8, "medium", 3, "nonogram.1.8x8.TRUVFekmioiaTJZKImiA", "medium"),
    (
        "nonogram",
        "nonogram/1",
        12,
        9,
        None,
        4,
        "nonogram.1.12x9.RURERURERUZFRERFREREZSuJQhCGSkA",
        "easy",
    ),
    ("nondango", "nondango/1", 5, 5, None, 1, "nondango.1.5x5-same.ZbRBNt-gUgYA", "trivial"),
    (
        "nondango",
        "nondango/1",
        8,
        8,
        "easy",
        2,
        "nondango.1.8x8-same.bLWe_faYoBLf_AIp3j9VIIUelAqiCg",
        "easy",
    ),
    (
        "nondango",
        "nondango/1",
        8,
        8,
        "medium",
        3,
        "nondango.1.8x8-same.pdt2JM6q0j_TP7_rX35Nv231k72-dw",
        "medium",
    ),
    (
        "nondango",
        "nondango/1",
        10,
        7,
        None,
        4,
        "nondango.1.10x7-same.1t1WvV3h7PRYe9vBr9bwXqV1ynapzYN-gA",
        "medium",
    ),
]


@pytest.mark.parametrize(
    ("name", "version", "width", "height", "difficulty", "seed", "code", "grade"), PINNED
)
def test_a_seed_gives_its_pinned_board(
    name: str,
    version: str,
    width: int,
    height: int,
    difficulty: str | None,
    seed: int,
    code: str,
    grade: str,
) -> None:
    kind = genre(name)
    if kind.generator != version:
        pytest.fail(f"{name} is at generator {kind.generator}: pin its new codes here")
    made = kind.generate(Request(width, height, difficulty), seed, Deadline(120))
    assert kind.format_code(made.puzzle) == code
    assert made.difficulty == grade
    assert made.health.fallback is None
