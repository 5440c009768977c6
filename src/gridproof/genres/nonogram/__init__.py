"""Nonogram, registered as a genre: every piece of the contract in one record."""

from __future__ import annotations

from gridproof.core.contract import Genre, Look, Oracle, later
from gridproof.core.registry import register
from gridproof.genres.nonogram import (
    brute,
    codec,
    draw,
    formats,
    generate,
    lines,
    model,
    position,
    rules,
    sat,
    solve,
    text,
)
from gridproof.genres.nonogram.model import Nonogram

GENRE: Genre[Nonogram] = register(
    Genre(
        name="nonogram",
        title="Nonogram",
        lessons=(
            "The numbers beside a row, read left to right, are the lengths of its runs of "
            "shaded cells, in order; the numbers above a column do the same top to bottom. "
            "An empty clue means the whole line stays empty.",
            "Runs are separated by at least one empty cell. A clue 3 1 in ten cells can sit "
            "in several places, but wherever the 3 goes in a short line, its middle overlaps: "
            "shade the cells every placement covers.",
            "Mark cells no run can reach as empty, and put an empty cell on each side of a run "
            "that is already complete. Every row you settle tells the columns something new.",
            "When the lines stall, suppose a cell is shaded and follow the lines: if some row "
            "or column can no longer hold its clue, the cell must be empty.",
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
        count_pure=solve.count_pure,
        transform=model.transform,
        draw=draw.draw,
        edits=later("gridproof.genres.nonogram.repair", "edits"),
        spares=later("gridproof.genres.nonogram.repair", "spares"),
        from_picture=model.clues_of,
        generate=generate.generate,
        generator=generate.GENERATOR_VERSION,
        sizes=generate.SIZES,
        largest=(model.MAX_SIDE, model.MAX_SIDE),
        grades_at=generate.grades_at,
        quick_with=generate.quick_with,
        look=Look(layers=("line-clues",)),
        groups=model.groups,
        settled=lines.clue_settled,
        oracles=(
            Oracle("sat", sat.count_sat, requires="pysat", constraints=sat.constraints),
            # brute force by row patterns: 10×10 in at most 0.15 s
            Oracle("brute", brute.count_by_rows, max_cells=100),
        ),
        options=generate.OPTIONS,
        study=later("gridproof.genres.nonogram.study", "run_study"),
        formats=formats.FORMATS,
        format_text=text.format_text,
    )
)

__all__ = ["GENRE", "Nonogram"]
