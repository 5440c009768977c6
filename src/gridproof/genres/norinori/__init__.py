"""Norinori, registered as a genre: every piece of the contract in one record."""

from __future__ import annotations

from gridproof.core.contract import Genre, Look, Oracle, later
from gridproof.core.registry import register
from gridproof.genres.norinori import (
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
from gridproof.genres.norinori.model import Norinori

GENRE: Genre[Norinori] = register(
    Genre(
        name="norinori",
        title="Norinori",
        lessons=(
            "Shade cells in pairs: every shaded cell touches exactly one other shaded cell, "
            "side by side, so shaded cells form dominoes. A lone shaded cell asks: where can "
            "its partner go?",
            "Every region (the areas inside thick borders) holds exactly two shaded cells. "
            "A domino may cross a border, so its two cells can count for two regions.",
            "Dominoes never touch each other side by side (corners are fine): once a domino "
            "is complete, every cell around it stays empty.",
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
        edits=later("gridproof.genres.norinori.repair", "edits"),
        spares=later("gridproof.genres.norinori.repair", "spares"),
        rivals=later("gridproof.genres.norinori.repair", "rivals"),
        generate=generate.generate,
        generator=generate.GENERATOR_VERSION,
        sizes=((generate.MIN_SIDE, generate.MIN_SIDE), (generate.MAX_SIDE, generate.MAX_SIDE)),
        largest=(model.MAX_SIDE, model.MAX_SIDE),
        study=later("gridproof.genres.norinori.study", "run_study"),
        grades_at=generate.grades_at,
        quick_with=generate.quick_with,
        look=Look(layers=("regions",)),
        groups=model.groups,
        oracles=(
            Oracle("sat", sat.count_sat, requires="pysat", constraints=sat.constraints),
            # brute force by regions: 10×10 in at most 0.3 s, 12×12 up to 7 s
            Oracle("brute", brute.count_by_regions, max_cells=100),
        ),
        format_text=text.format_text,
        formats=codec.FORMATS,
    )
)

__all__ = ["GENRE", "Norinori"]
