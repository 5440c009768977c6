"""What a count says: a verdict, the solutions found, and what it cost."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Verdict(StrEnum):
    NONE = "none"
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    TIMEOUT = "timeout"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of counting solutions up to `limit` under a deadline.

    `solutions` holds at most `limit` solutions as int masks of shaded cells. A count that
    ran out of time is `TIMEOUT` whatever it found so far: never a guess at uniqueness.
    """

    verdict: Verdict
    solutions: tuple[int, ...]
    limit: int
    nodes: int
    propagations: int
    elapsed: float

    @property
    def is_unique(self) -> bool:
        return self.verdict is Verdict.UNIQUE


def verdict_for(found: int, complete: bool) -> Verdict:
    """The verdict for `found` solutions from a search that did or did not finish."""
    if found >= 2:
        return Verdict.MULTIPLE
    if not complete:
        return Verdict.TIMEOUT
    return Verdict.UNIQUE if found == 1 else Verdict.NONE
