"""Star Battle, registered as a genre: every piece of the contract in one record.

Its one-star form (`--stars 1`) is the game sold as "Queens"."""

from __future__ import annotations

from gridproof.core.contract import Genre, Look, Oracle, later
from gridproof.core.registry import register
from gridproof.genres.starbattle import (
    brute,
    codec,
    draw,
    generate,
    model,
    position,
    rules,
    sat,
    solve,
    text,
)
from gridproof.genres.starbattle.model import StarBattle

GENRE: Genre[StarBattle] = register(
    Genre(
        name="starbattle",
        title="Star Battle",
        lessons=(
            "Place stars so that every row, every column and every region (the areas inside "
            "thick borders) holds the same number of them: the number the puzzle states.",
            "Stars never touch, not even at a corner: each star keeps its eight neighbours empty.",
            "Look for a row, column or region that can hold its stars in only one way, and "
            "for k regions squeezed into k rows: the stars of those rows are theirs.",
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
        draw=draw.draw,
        edits=later("gridproof.genres.starbattle.repair", "edits"),
        rivals=later("gridproof.genres.starbattle.repair", "rivals"),
        generate=generate.generate,
        generator=generate.GENERATOR_VERSION,
        sizes=((generate.MIN_SIDE, generate.MIN_SIDE), (generate.MAX_SIDE, generate.MAX_SIDE)),
        largest=(model.MAX_SIDE, model.MAX_SIDE),
        options=generate.OPTIONS,
        grades_at=generate.grades_at,
        grades_with=generate.grades_with,
        quick_with=generate.quick_with,
        oracles=(
            Oracle("sat", sat.count_sat, requires="pysat", constraints=sat.constraints),
            Oracle("brute", brute.count_by_rows, max_cells=64),
        ),
        format_text=text.format_text,
        formats=codec.FORMATS,
        look=Look(layers=("regions",), shaded="star", options=("stars",)),
        groups=model.groups,
    )
)

__all__ = ["GENRE", "StarBattle"]
