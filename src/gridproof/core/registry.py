"""The genre contract and the registry of genres.

Every genre is one object that implements `Genre`; nothing outside `gridproof.genres`
asks which genre it holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gridproof.core.deadline import Deadline
from gridproof.core.errors import CodeError, quote
from gridproof.core.outcome import Outcome
from gridproof.core.symmetry import Symmetry
from gridproof.core.trace import Step, Violation


class Puzzle(Protocol):
    """What every genre's puzzle value has."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Progress:
    """How far one rung of a genre's ladder gets alone from an empty (or given) grid."""

    rung: str
    shaded: int
    empty: int
    steps: tuple[Step, ...]
    contradiction: str | None = None
    timed_out: bool = False
    size: int = 0

    @property
    def decided_fraction(self) -> float:
        return (self.shaded | self.empty).bit_count() / self.size if self.size else 1.0


@dataclass(slots=True)
class Health:
    """Why a generator's candidates failed, and what the run cost: every generator keeps
    one per call and returns it with the board, or inside the `GenerationError`."""

    attempts: int = 0
    ambiguous: int = 0
    contradiction: int = 0
    timeout: int = 0
    off_grade: int = 0
    """Candidates proven unique but of another difficulty than the one asked for."""
    fallback: str | None = None
    """Set when the board came from a verified fixture bank rather than a fresh build."""
    milliseconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "attempts": self.attempts,
            "ambiguous": self.ambiguous,
            "contradiction": self.contradiction,
            "timeout": self.timeout,
            "off_grade": self.off_grade,
            "fallback": self.fallback,
            "milliseconds": round(self.milliseconds, 1),
        }


@dataclass(frozen=True, slots=True)
class Request:
    """What a caller asks a generator for. `options` holds the genre's own settings,
    named as in its `options` table (for example Nondango's `rule` and `white`)."""

    width: int
    height: int
    difficulty: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Option:
    """A genre-specific generator setting, as the CLI and the web offer it."""

    name: str
    help: str
    kind: type = str
    choices: tuple[Any, ...] | None = None
    default: Any = None


@dataclass(frozen=True, slots=True)
class Generated:
    """A generated puzzle proven unique (counted to 2 by the complete counter), with the
    seed that rebuilds it, its difficulty from the solver's own events, and the evidence."""

    puzzle: Any
    solution: int
    seed: int
    difficulty: str
    metrics: Mapping[str, Any] = field(default_factory=dict)
    health: Health = field(default_factory=Health)


class Genre(Protocol):
    """The contract every genre implements (see STYLE.md)."""

    name: str
    title: str
    rungs: tuple[str, ...]
    """The ladder's rung names, cheapest first."""

    def parse_code(self, text: str) -> Any: ...
    def format_code(self, puzzle: Any) -> str: ...
    def parse_url(self, url: str) -> Any: ...
    def format_url(self, puzzle: Any) -> str: ...
    def from_json(self, obj: Mapping[str, Any]) -> Any: ...
    def to_json(self, puzzle: Any) -> dict[str, Any]: ...

    def format_grid(self, puzzle: Any, shaded: int) -> list[str]:
        """A solution or player grid as rows of text (`#` shaded, `.` not, genre extras)."""

    def parse_grid(self, puzzle: Any, rows: list[str]) -> int:
        """The shaded mask of rows of text; raises `CodeError` on anything else."""

    def validate(self, puzzle: Any, shaded: int) -> list[Violation]:
        """Every rule the grid breaks; empty for a solution. Shares no code with solvers."""

    lessons: tuple[str, ...]
    """The rules taught in layers, one short paragraph each, for the player's onboarding."""

    def solve(
        self,
        puzzle: Any,
        rung: str,
        deadline: Deadline,
        shaded: int = 0,
        empty: int = 0,
        max_steps: int | None = None,
    ) -> Progress:
        """Run the ladder up to `rung` from the given marks (`shaded` and `empty` masks),
        stopping after `max_steps` steps if given: what that rung decides, step by step.
        An unknown rung is a `CodeError`."""

    def count(self, puzzle: Any, limit: int, deadline: Deadline) -> Outcome: ...
    def transform(self, puzzle: Any, symmetry: Symmetry) -> Any: ...

    difficulties: tuple[str, ...]
    """The grades `generate` can be asked for, easiest first."""
    options: tuple[Option, ...]
    """The genre's own generator settings."""
    sizes: tuple[tuple[int, int], tuple[int, int]]
    """The smallest and largest (width, height) the generator supports."""

    def generate(self, request: Request, seed: int, deadline: Deadline) -> Generated:
        """A board proven unique, the same for the same request and seed on any machine;
        raises `GenerationError` (with its health record) when it cannot prove one in time.
        Never returns an unproven board, on any path."""


@runtime_checkable
class Studied(Protocol):
    """A genre that can reproduce its design note's measurements (`gridproof study`)."""

    def study(self, boards: int, seed: int, deadline: Deadline) -> str:
        """Markdown tables, each beside the design note's published figure."""


_GENRES: dict[str, Genre] = {}


def register(genre: Genre) -> Genre:
    if genre.name in _GENRES:
        raise ValueError(f"genre {genre.name!r} is registered twice")
    _GENRES[genre.name] = genre
    return genre


def genres() -> dict[str, Genre]:
    """Every registered genre by name (importing `gridproof.genres` registers them)."""
    import gridproof.genres  # noqa: F401  (registers the built-in genres)

    return dict(_GENRES)


def genre(name: str) -> Genre:
    known = genres()
    if name not in known:
        raise CodeError(f"unknown genre {quote(name)}; known: {', '.join(sorted(known))}")
    return known[name]
