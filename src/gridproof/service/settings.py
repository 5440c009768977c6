"""The settings a player can choose for a genre: the square sizes offered, the choices of
its options, the grade a request without one gets. Plain functions of the genre, so the
bank (`gridproof.bank` re-exports them), the player's catalog and the static site's engine
(whose Python has no SQLite) share them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridproof.core.contract import Genre
from gridproof.core.errors import CodeError, quote
from gridproof.core.ladder import Grade

STANDARD_SIDES = (5, 7, 10, 15, 20, 25, 30)
"""The square sizes the player offers, kept to those inside each genre's range."""


def offered_sizes(genre: Genre[Any]) -> list[tuple[int, int]]:
    """The square sizes a player can pick for `genre`, smallest first."""
    (min_w, min_h), (max_w, max_h) = genre.sizes
    return [
        (side, side) for side in STANDARD_SIDES if min_w <= side <= max_w and min_h <= side <= max_h
    ]


def choices(genre: Genre[Any]) -> list[dict[str, str]]:
    """Every setting of the genre's options a player can pick, as a key names it: the
    defaults (`{}`) first, then each other choice of each option with choices."""
    return [{}] + [
        {option.name: str(choice)}
        for option in genre.options
        if option.choices
        for choice in option.choices
        if choice != option.default
    ]


def check_options(genre: Genre[Any], asked: Mapping[str, str]) -> dict[str, str]:
    """The player's choices among the genre's options, without those at their default;
    `CodeError` naming what the genre offers otherwise."""
    offered = {option.name: option for option in genre.options if option.choices}
    chosen = {}
    for name, value in asked.items():
        option = offered.get(name)
        if option is None:
            names = ", ".join(offered) or "none"
            raise CodeError(f"{genre.name} has no option {quote(name)} to choose; options: {names}")
        by_text = {str(choice): choice for choice in option.choices or ()}  # `stars` is 1, not '1'
        if str(value) not in by_text:
            choices = ", ".join(by_text)
            raise CodeError(f"option {name} is {quote(str(value))}, not one of {choices}")
        if by_text[str(value)] != option.default:
            chosen[name] = str(value)
    return chosen


def default_difficulty(
    genre: Genre[Any], width: int | None = None, height: int | None = None
) -> str:
    """What a player gets without asking: `easy` where the genre offers it (at the size,
    if one is given, else at some size a player can pick), else the easiest grade it
    offers there. Never a grade no size delivers: a genre whose `grades_at` leaves `easy`
    out everywhere gets the easiest grade some size makes."""
    if width is not None and height is not None:
        grades = genre.offered(width, height)
    else:
        made = {grade for w, h in offered_sizes(genre) for grade in genre.offered(w, h)}
        grades = tuple(grade for grade in genre.difficulties if grade in made)
    if not grades:
        grades = genre.difficulties
    return Grade.EASY if Grade.EASY in grades else grades[0]
