"""The verified fallback bank: boards this project's own generator made, each proven unique
by `tests/genres/nonogram/test_bank.py` (the engine, and the SAT oracle, count each to 2).

The generator returns one of these, under a seed-chosen symmetry, only when its deadline
runs out, and says so with the entry's id in `health.fallback`. Ids are stable: an entry is
never changed in place, only added (or retired with its id left unused).

Grades follow the ladder's scale (`rules.LADDER`): the boards first filed as `medium`
under the old scale (probing finishes them) are `hard` now and were re-filed under new
ids; the `nonogram-bank-*-medium-1` ids are retired, never reused (the medium boards of
the new scale start at `-medium-2`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gridproof.genres.nonogram.codec import parse_code
from gridproof.genres.nonogram.model import Nonogram


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    difficulty: str
    code: str
    seed: int
    """The `generate` seed that first produced the board (size and difficulty as in `id`),
    with the generator of that day: the code, not the seed, is what the bank vouches for."""


ENTRIES: tuple[Entry, ...] = (
    Entry("nonogram-bank-5x5-easy-1", "easy", "nonogram.1.5x5.Sem9JNVe0g", 1),
    Entry("nonogram-bank-10x10-easy-1", "easy", "nonogram.1.10x10.TTRFSdo6OjIyKiIiIioyMmmm", 1),
    Entry(
        "nonogram-bank-15x15-easy-1",
        "easy",
        "nonogram.1.15x15.abtERmQzKVkM5kZCGRsiZaMjtEdpt3SaMhKFoYjoQhbK2Rg",
        1,
    ),
    Entry(
        "nonogram-bank-20x20-easy-1",
        "easy",
        "nonogram.1.20x20.JZSSEJI3RFRE7QhxSFoUzpnbEEYwjGtDkMQxDUNYhtttOds7YhkEIc0ObHNjmx7EmZyoitNsjKVmIA",
        1,
    ),
    Entry(
        "nonogram-bank-25x25-easy-1",
        "easy",
        "nonogram.1.25x25.IiMkhWYUgqgoWQWiWJJR2jNnIQ8hBCIRnYkhEIIRFIyFZCMhGxLIJZCkIRkIiEIilTRSUVFcrI0E0FGYUyCG22iFSIZkY0jGtjGxiYtMWiFIikMpEJREJZGJZW2w",
        1,
    ),
    Entry(
        "nonogram-bank-30x30-easy-1",
        "easy",
        "nonogram.1.30x30.IzHIQ5iEEFKiiWU4lymZkU1Ik7ZyFkRiCkZjSsWyEbZG2yMhCGOQhRDIQRZBDKQhmiGdlKQ7KQWjMaUgohCCWkVkTbIYxCHOVnHEIQcVlYkrNEERjkshZKKyNlMUhCmKRlMxCIVC2UIEKMRDCrcmiJSGRCGFSEFsrMyEZSMxWYo",
        1,
    ),
    Entry("nonogram-bank-5x5-hard-1", "hard", "nonogram.1.5x5.SVU00lSSTA", 1),
    Entry("nonogram-bank-10x10-hard-1", "hard", "nonogram.1.10x10.SRUVMi0VFVNNu2mkiIiaIkmm", 1),
    Entry(
        "nonogram-bank-15x15-hard-1",
        "hard",
        "nonogram.1.15x15.ZUytozRWQraREQlsiTabVGR0clMiTbKyEbZEmRETRGm7TTZGytkI",
        1,
    ),
    Entry(
        "nonogram-bank-20x20-hard-1",
        "hard",
        "nonogram.1.20x20.RHI0RiJDORpEZJWsqaZGikJabMmVEchCSkbMRuSREIRlTUzcklCCkJkLTKYhZ3EojSUiokrabZHbRSMsttETKA",
        1,
    ),
    Entry(
        "nonogram-bank-25x25-hard-1",
        "hard",
        "nonogram.1.25x25.KVKQtshSZiGaPN0dk3OblspynaZBBkQSYxURlLZCFaaK2REZbYhmEM4g1oiKytEaKRORKREZEREZ0yCCsqRiWmRMxbIQ1kJKzOQhW8jZCOdsa44iHspJLbOlLlZpCMxCtuQpGQ5CgA",
        1,
    ),
    Entry(
        "nonogram-bank-30x30-hard-1",
        "hard",
        "nonogram.1.30x30.NREIKiMQZZTERGyFIQkhU2UjEHKSzlZWck5mKKQ8QURiCHEHLEKQRRG0QQVFshyHIctkOQrMS06bRGVER5HEFZEYyayt5ZGyHIQ0xSTSkcpHtyomVsyKmJbQ8jZi2k2ittlOiMxUiEKRFIWzEKma0LIxZiMWRsUyCWQSZkTRG2A",
        1,
    ),
    Entry(
        "nonogram-bank-10x10-medium-2",
        "medium",
        "nonogram.1.10x10.RmkTTtERG5FtJGSRHkykkRESQu9ESA",
        0,
    ),
    Entry(
        "nonogram-bank-15x15-medium-2",
        "medium",
        "nonogram.1.15x15.REZHQhCUchVZSkoqOhKEI6MiKioQhCEISxKZCNCUJQhCEIRV",
        0,
    ),
    Entry(
        "nonogram-bank-20x20-medium-2",
        "medium",
        "nonogram.1.20x20.RERER3M2IJOIIyHIzHIhByHEIhzMhyMgg9iGzUdERERHQgiLc7i3FoeynYhs1zNiGcqHsXYuzySpCEc",
        0,
    ),
    Entry(
        "nonogram-bank-15x15-expert-1",
        "expert",
        "nonogram.1.15x15.SRSOi1lqi3RKleyVKrlVS6kVoqSSkpkeVVKlRVVmMWqKqRaomyNVSA",
        0,
    ),
    Entry(
        "nonogram-bank-20x20-expert-1",
        "expert",
        "nonogram.1.20x20.ITJoiRiWjemWVaaGlScyrNqi2kxqKtOUy8ichkiLJkalpSpOf82sk0t5E5lI2IVU4i1VGbJRLRdyTTaz_ltItK6A",
        0,
    ),
    Entry(
        "nonogram-bank-40x40-easy-1",
        "easy",
        "nonogram.1.40x40.QlCUJQlCUKQpxbYxlHMo9lHso9mCJGYIEMceQogeQg0eyAgZAQsEJGCAhB40hB4gpB5zECBmwiZjyseVjyscVjGxdCkKQlCUJQlCUNQ1DkPaFuMQ1BBBZBZBZBdB9B9AgY8ex45imhCOjoQ2KY4ex49AgQfQfQXQWQWQWQQQ1jLFpD0OQ1DQ",
        0,
    ),
    Entry(
        "nonogram-bank-40x40-hard-1",
        "hard",
        "nonogram.1.40x40.QlCUJQlCUJQpC0MaGsg5lCDME0HHDjYcZA4yB1kBAygiYIisEBGHSMOEYcbDlBxhMzCBWOIxqQxC0KQlCUJQlCUJQ1DUOQ5DEMQ5D0FkFkFkF0HkH0H0HkHUEUPQ9D0PQRQdQeQfQfQeQXQWQWQWQ9DkMQxDkOQ1DQ",
        0,
    ),
)


def puzzle(entry: Entry) -> Nonogram:
    return parse_code(entry.code)


def find(width: int, height: int, difficulty: str | None) -> Entry | None:
    """The first entry of size width × height (or height × width) and of `difficulty` if
    one is asked for."""
    for entry in ENTRIES:
        size = entry.id.split("-")[2]
        w, h = (int(part) for part in size.split("x"))
        if {(w, h), (h, w)} & {(width, height)} and difficulty in (None, entry.difficulty):
            return entry
    return None
