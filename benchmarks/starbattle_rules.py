"""Star Battle: how often each rule of the ladder is needed, by size and star count.

    .venv/bin/python benchmarks/starbattle_rules.py [--deadline 20] [--seeds 0] [--json]

For every board of ../shared/corpus/janko-starbattle.json (and, with `--seeds N`, N
generated boards per size the generator offers), finds the cheapest rung that finishes it
(its grade) and solves it with that rung, then counts which rules its steps used. Prints,
per group (side band and stars): boards, the share finished by each rung (`beyond`: none
finishes it within the deadline), and the share of boards whose solve used each rule. A
study, not a test: the deadline (wall seconds per board, a bound on waiting only) makes
the figures of the slowest boards depend on the machine; those are counted as `beyond`.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from gridproof.core.contract import Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.ladder import cheapest_rung
from gridproof.genres.starbattle import codec, generate
from gridproof.genres.starbattle.model import StarBattle
from gridproof.genres.starbattle.position import start
from gridproof.genres.starbattle.rules import LADDER

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"
RULES = [rule.id for rung in LADDER.rungs for rule in rung.rules]


def band(side: int) -> str:
    return "5-7" if side <= 7 else "8-10" if side <= 10 else "11-13" if side <= 13 else "14-15"


def study(puzzle: StarBattle, deadline: float) -> tuple[str, set[str]]:
    """The cheapest finishing rung (or 'beyond') and the rules its solve used."""
    rung, progress = cheapest_rung(LADDER, start, puzzle, Deadline.never().within(deadline))
    return rung or "beyond", {step.rule for step in progress.steps}


def table(rows: dict[str, list[tuple[str, set[str]]]]) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for group in sorted(rows):
        found = rows[group]
        rungs = Counter(rung for rung, _ in found)
        used = Counter(rule for _, rules in found for rule in rules)
        out[group] = {
            "boards": len(found),
            "rung": {name: rungs[name] for name in (*LADDER.names, "beyond")},
            "rule": {rule: used[rule] for rule in RULES},
        }
    return out


def show(title: str, result: dict[str, dict[str, object]]) -> None:
    names = (*LADDER.names, "beyond")
    print(title)
    print(
        f"{'group':14} {'n':>4} | "
        + " ".join(f"{n:>7}" for n in names)
        + " | rules used (% of boards)"
    )
    for group, row in result.items():
        n = int(row["boards"])  # type: ignore[call-overload]
        rung = row["rung"]
        rule = row["rule"]
        assert isinstance(rung, dict)
        assert isinstance(rule, dict)
        shares = " ".join(f"{100 * rung[name] / n:6.0f}%" for name in names)
        used = ", ".join(f"{r} {100 * rule[r] / n:.0f}" for r in RULES if rule[r])
        print(f"{group:14} {n:4} | {shares} | {used}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deadline", type=float, default=20.0)
    parser.add_argument("--seeds", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    janko: dict[str, list[tuple[str, set[str]]]] = defaultdict(list)
    for entry in json.loads((CORPUS / "janko-starbattle.json").read_text())["puzzles"]:
        puzzle = codec.from_json(entry)
        janko[f"{band(puzzle.width)} {puzzle.stars}*"].append(study(puzzle, args.deadline))
    made: dict[str, list[tuple[str, set[str]]]] = defaultdict(list)
    for side in range(generate.MIN_SIDE, generate.MAX_SIDE + 1):
        for seed in range(1, args.seeds + 1):
            try:
                board = generate.generate(Request(side, side), seed, Deadline.never().within(60))
            except GenerationError:
                continue
            made[f"{side}x{side} {board.puzzle.stars}*"].append(study(board.puzzle, args.deadline))
    result = {"janko": table(janko), "generated": table(made)}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    show("janko boards: cheapest finishing rung (share) and rules used", result["janko"])
    if made:
        show("generated boards (default stars, any grade)", result["generated"])


if __name__ == "__main__":
    main()
