"""Lights, a test-only genre: the smallest genre that fills the whole contract, and the
template a new genre starts from (copy this package into `src/gridproof/genres/<name>/`).

Some cells hold a digit from 0 to 4 and are never shaded; shade other cells so that every
digit counts exactly its shaded orthogonal neighbours. The files are those every genre
has: `model` (the value and a validator sharing no code with the solvers), `codec`
(codes, URLs, JSON), `position` (what rules read), `rules` (the `LADDER` table: the only
place a rung or rule name is spelled), `solve` (the complete counter), `generate`; and,
`brute`, the independent counter its record declares among its `oracles`; and for people
`text` (the text picture), `draw` (the printed sheet) and `repair` (the workshop's edits).

A built-in genre wraps its record in `core.registry.register(...)` here, so importing
`gridproof.genres` registers it; Lights is registered only by the tests that use it, so
the real registry stays as it is for every other test (see `registered`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from gridproof.core import registry
from gridproof.core.contract import Genre, Look, Oracle
from tests.toygenre import (
    brute,
    codec,
    draw,
    generate,
    model,
    position,
    repair,
    rules,
    solve,
    text,
)
from tests.toygenre.model import Lights

GENRE: Genre[Lights] = Genre(
    name="lights",
    title="Lights",
    lessons=(
        "Some cells hold a digit and are never shaded. Every digit counts the shaded cells "
        "next to it, above, below, left and right.",
        "A digit that already sees enough shaded cells leaves its other neighbours empty; "
        "one that needs every open neighbour shades them all.",
    ),
    parse_code=codec.parse_code,
    format_code=codec.format_code,
    parse_url=codec.parse_url,
    format_url=codec.format_url,
    from_json=codec.from_json,
    to_json=codec.to_json,
    validate=model.validate,
    ladder=rules.LADDER,
    position=position.start,
    count=solve.count,
    propagate=solve.propagate_marks,
    transform=model.transform,
    generate=generate.generate,
    generator=generate.GENERATOR_VERSION,
    sizes=((generate.MIN_SIDE, generate.MIN_SIDE), (generate.MAX_SIDE, generate.MAX_SIDE)),
    largest=(model.MAX_SIDE, model.MAX_SIDE),
    # the independent counters the bank's check and tests/test_contract.py ask
    look=Look(layers=("cell-clues",)),
    draw=draw.draw,
    format_text=text.format_text,
    edits=repair.edits,
    oracles=(Oracle("brute", brute.count_brute, max_cells=36),),
)


@contextmanager
def registered() -> Iterator[Genre[Lights]]:
    """Lights in the registry for the duration of the block (for tests only)."""
    registry.register(GENRE)
    try:
        yield GENRE
    finally:
        registry.unregister(GENRE.name)


__all__ = ["GENRE", "Lights", "registered"]
