"""The evidence that a banked board is unique and new: which counts proved it, and the
canonical code that tells two copies of one board apart from two boards.

Every generated board is proven by the generator's complete counter. A second count that
adds real evidence, an independent counter sharing no code with the engine (the genre's
`Genre.oracles`: its SAT oracle where `python-sat` is installed, else its brute force on
the boards small enough for it), runs on a sample of the boards chosen by the seed alone
and on every board above the hard grade. A record lists, in `checks`, each count it passed.
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import cache
from typing import Any

from gridproof.core.contract import Genre, Oracle
from gridproof.core.errors import GenerationError, quote
from gridproof.core.ladder import Grade
from gridproof.core.outcome import Outcome, Verdict
from gridproof.core.symmetry import Symmetry

CHECK_EVERY = 100
"""One generated board in this many, chosen by its seed, is counted again by an
independent counter; every board above `ALWAYS_CHECKED_ABOVE` is too."""
ALWAYS_CHECKED_ABOVE = Grade.HARD
GENERATOR_CHECK, RECOUNT_CHECK, COUNT_CHECK = "generator", "recount", "count"
"""Names in a record's `checks` besides its oracles' (`Genre.oracles`): proven unique by the
generator's complete counter; counted again by the same engine (boards banked before schema
3); counted by the engine when imported."""


def canonical_code(genre: Genre[Any], puzzle: Any) -> str:
    """The least code of `puzzle`'s images under the symmetries that keep its size (all
    eight on a square grid, four on an oblong one): one code for every copy of a board."""
    size = (puzzle.width, puzzle.height)
    return min(
        genre.format_code(genre.transform(puzzle, symmetry))
        for symmetry in Symmetry
        if symmetry.shape(*size) == size
    )


def wants_check(genre: Genre[Any], seed: int, grade: str, every: int = CHECK_EVERY) -> bool:
    """Whether a generated board gets the independent check: every board above the hard
    grade, and one in `every` others, chosen by a hash of the seed alone."""
    grades = genre.difficulties
    if ALWAYS_CHECKED_ABOVE in grades and grade in grades[grades.index(ALWAYS_CHECKED_ABOVE) + 1 :]:
        return True
    digest = hashlib.blake2b(f"check {seed}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % max(1, every) == 0


def oracle_for(genre: Genre[Any], width: int, height: int) -> Oracle | None:
    """The first of the genre's oracles that takes a board of this size and can run here
    (its `requires` module is installed); None when none can."""
    for oracle in genre.oracles:
        if oracle.max_cells is not None and width * height > oracle.max_cells:
            continue
        if oracle.requires is not None and not _installed(oracle.requires):
            continue
        return oracle
    return None


def oracle_gap(genre: Genre[Any], width: int, height: int) -> str | None:
    """Why boards of this size get no independent check although the genre has a counter
    for them (its module is not installed, say); None when one runs. Another oracle
    standing in for a missing one (brute force for the SAT oracle on small boards) changes
    nothing a fill promises, so it is not worth a warning."""
    usable = [o for o in genre.oracles if o.max_cells is None or width * height <= o.max_cells]
    if not usable:
        return f"{genre.title} has no independent counter for {width}x{height} boards"
    if oracle_for(genre, width, height) is not None:
        return None
    missing = [o for o in usable if o.requires is not None and not _installed(o.requires)]
    needs = ", ".join(sorted({quote(o.requires or "") for o in missing}))
    return (
        f"the independent counters of {genre.title} {width}x{height} boards need {needs}, "
        "which is not installed (pip install 'gridproof[sat]'): they get no independent check"
    )


def independent_check(genre: Genre[Any], puzzle: Any, solution: int) -> tuple[str, Outcome] | None:
    """Count `puzzle` with the genre's independent counter (`oracle_for`): its name and
    outcome when it confirms exactly `solution`, None when no oracle can run here;
    `GenerationError` when it disagrees."""
    oracle = oracle_for(genre, puzzle.width, puzzle.height)
    if oracle is None:
        return None
    outcome = oracle.count(puzzle, 2)
    if outcome.verdict is not Verdict.UNIQUE or outcome.solutions != (solution,):
        raise GenerationError(
            f"the {oracle.name} oracle says {outcome.verdict} for {genre.format_code(puzzle)}, "
            "not the generator's unique solution",
            {"oracle": oracle.name, "verdict": str(outcome.verdict)},
        )
    return oracle.name, outcome


@cache
def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None
