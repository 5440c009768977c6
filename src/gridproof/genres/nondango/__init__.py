"""Nondango, registered as a genre: every piece of the contract in one record.

Paint one circle black in every region; three consecutive circles may never be all the
same colour (`no-three-same`, the janko.at and puzz.link rule and the default) or, in the
`no-three-black` variant, all black. The variant is part of the puzzle value.
"""

from __future__ import annotations

from gridproof.core.contract import Genre, Look, Oracle, later
from gridproof.core.registry import register
from gridproof.genres.nondango import (
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
from gridproof.genres.nondango.model import Nondango, Variant

GENRE: Genre[Nondango] = register(
    Genre(
        name="nondango",
        title="Nondango",
        lessons=(
            "The grid is cut into regions by thick borders, and some cells hold a circle. "
            "Paint exactly one circle black in every region; every other circle is white. "
            "A region with a single circle paints that one.",
            "Three circles in consecutive cells of a line (across, down or on either diagonal) "
            "may never all be black. Two black circles in such a line make the third white. "
            "A cell without a circle breaks the line.",
            "In the usual rule (no-three-same) such a line may not be all white either: when "
            "two of its circles are white, the third is black. In the no-three-black variant "
            "only all black is forbidden.",
            "Such a line also confines a region: when the only circles of the line that can "
            "still be black all belong to one region, that region's black circle is one of "
            "them, so the region's circles outside the line are white.",
            "Stuck? Assume a circle black and follow the consequences: if they end in a "
            "contradiction, that circle is white.",
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
        edits=later("gridproof.genres.nondango.repair", "edits"),
        spares=later("gridproof.genres.nondango.repair", "spares"),
        rivals=later("gridproof.genres.nondango.repair", "rivals"),
        generate=generate.generate,
        generator=generate.GENERATOR_VERSION,
        sizes=generate.SIZES,
        largest=(model.MAX_SIDE, model.MAX_SIDE),
        grades_at=generate.grades_at,
        grades_with=generate.grades_with,
        look=Look(
            layers=("regions", "circles"),
            shaded="black circle",
            empty="white circle",
            options=("rule",),
        ),
        groups=model.groups,
        oracles=(
            Oracle("sat", sat.count_sat, requires="pysat", constraints=sat.constraints),
            # brute force by regions: 20×20 in at most 0.2 s
            Oracle("brute", brute.count_brute, max_cells=400),
        ),
        options=generate.OPTIONS,
        study=later("gridproof.genres.nondango.study", "run"),
        format_grid=codec.format_grid,
        parse_grid=codec.parse_grid,
        format_text=text.format_text,
        formats=codec.FORMATS,
    )
)

__all__ = ["GENRE", "Nondango", "Variant"]
