"""`gridproof study nondango`: the design note's claims, measured again on our own boards.

`run_study` generates a bank of proven boards per size and variant with the note's own
generator (`generate.generate_dial`: every cell offered, no grade aimed at) and returns
markdown tables beside the note's figures: the dead share of the lines of three, the
screen and the group split checked against the plain backtracker, the certificate lemma
and the budget inequality, the independent groups, the white-circle dial, the two
misreadings, the per-line counts, A181218 by transfer matrix, and the rung each board
needs. The note analyses no-three-black; no-three-same is shown beside it wherever it
changes a result.

Glossary: a `bank` is the generated boards of one (variant, size); `answer` the black
mask of a board's one answer; `LIMIT` caps every enumeration of answers.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections import Counter
from collections.abc import Callable, Sequence

from gridproof.core.contract import Generated, Request
from gridproof.core.deadline import Deadline
from gridproof.core.errors import GenerationError
from gridproof.core.grid import bits
from gridproof.core.outcome import Verdict
from gridproof.core.report import Cell, CellLike, Chart, Report, Table, Tick, no_tick, num, of, pct
from gridproof.core.report import table as make_table
from gridproof.core.rng import Rng
from gridproof.core.search import count_solutions
from gridproof.genres.nondango import generate, search, sequences, solve, theory
from gridproof.genres.nondango.brute import count_brute
from gridproof.genres.nondango.model import Nondango, Variant, make_puzzle
from gridproof.genres.nondango.position import Position, Reading, board_of, build_board, propagate
from gridproof.genres.nondango.rules import LADDER

COUNT_S = 10.0
"""The default budget of one count or one generated board, in seconds."""
LIMIT = 20_000
"""The answer cap for the misreadings (as in the note) and for answer-set checks."""
SIZES = ((8, 8), (12, 12))
DIAL = {(8, 8): (0, 4, 8, 12, 14), (12, 12): (0, 8, 16, 24, 32)}
NOTE_DIAL = {(8, 8): {0: "100.0%", 4: "93.1%", 8: "67.1%", 12: "38.2%", 14: "18.8%"}}
VARIANTS = (Variant.NO_THREE_BLACK, Variant.NO_THREE_SAME)
Bank = dict[tuple[Variant, tuple[int, int]], list[Generated[Nondango]]]


def run(boards: int, seed: int, deadline: Deadline | None, tick: Tick) -> Report:
    """The study as `gridproof study` runs it (`Genre.study`): `run_study` with its own
    limits, cut short by `deadline`."""
    return run_study(boards, seed, deadline=deadline, tick=tick)


def run_study(
    boards: int,
    seed: int,
    deadline_s: float = COUNT_S,
    *,
    sequence_s: float = 60.0,
    sizes: Sequence[tuple[int, int]] = SIZES,
    deadline: Deadline | None = None,
    tick: Tick = no_tick,
) -> Report:
    """The study: `boards` generated boards per size and variant (seeds from `seed`),
    each count and each board under `deadline_s` seconds, and A181218 computed for about
    `sequence_s` seconds. An overall `deadline` cuts everything short: what it stops
    shows up as timeouts and failures in the tables, never as a guess. `tick` is told
    how far it has got (boards made, then tables done)."""
    clock = _Clock(deadline or Deadline.never(), deadline_s)
    made = len(VARIANTS) * len(sizes) * boards
    parts: list[Callable[[], Table | tuple[Table, ...]]] = [
        lambda: dead_table(bank),
        lambda: screen_table(bank, clock),
        lambda: lemma_table(bank, clock),
        lambda: budget_table(bank),
        lambda: groups_table(bank, boards, seed, clock),
        lambda: dial_table(boards, seed, sizes, clock),
        lambda: misreading_table(bank, clock),
        lambda: ladder_table(bank),
        line_table,
        lambda: grid_table(min(sequence_s, clock.overall.remaining())),
    ]
    total = made + len(parts)
    bank, failed = _bank(boards, seed, clock, sizes, lambda done: tick(done, total))
    tables: list[Table] = []
    for number, part in enumerate(parts, 1):
        result = part()
        tables += result if isinstance(result, tuple) else (result,)
        tick(made + number, total)
    return Report(
        "nondango",
        "Nondango study",
        tuple(tables),
        intro=f"{boards} boards per size and variant, seed {seed}; generation failures: "
        f"{failed}. The note analyses no-three-black; no-three-same is shown beside it.",
        level=1,
    )


class _Clock:
    """Per-count deadlines inside one overall deadline."""

    def __init__(self, overall: Deadline, seconds: float) -> None:
        self.overall = overall
        self.seconds = seconds

    def __call__(self) -> Deadline:
        return self.overall.within(self.seconds)


def _bank(
    boards: int,
    seed: int,
    clock: _Clock,
    sizes: Sequence[tuple[int, int]],
    tick: Callable[[int], None] = lambda done: None,
) -> tuple[Bank, int]:
    bank: Bank = {}
    failed = done = 0
    for variant in VARIANTS:
        for width, height in sizes:
            request = Request(width, height, options={"rule": variant.value})
            made = []
            for index in range(boards):
                try:
                    made.append(generate.generate_dial(request, seed * 100_000 + index, clock()))
                except GenerationError:
                    failed += 1
                done += 1
                tick(done)
            bank[variant, (width, height)] = made
    return bank, failed


def _mean(values: Sequence[float]) -> Cell:
    if not values:
        return Cell("-")
    mean = statistics.fmean(values)
    return num(round(mean, 3), f"{mean:.1f}")


def _share(part: int, whole: int) -> Cell:
    return pct(part, whole, 1, "-")


def _size(key: tuple[int, int]) -> str:
    return f"{key[0]}×{key[1]}"


def dead_table(bank: Bank) -> Table:
    """Geometric lines of three, and how many each screen drops."""
    rows = []
    for (variant, size), made in bank.items():
        boards = [build_board(g.puzzle) for g in made]
        geometric = sum(len(b.triples) for b in boards)
        live = sum(len(b.black_nogoods) for b in boards)
        white = sum(len(b.white_nogoods) for b in boards)
        rows.append(
            [
                variant.value,
                _size(size),
                len(made),
                _mean([len(b.triples) for b in boards]),
                _mean([len(b.black_nogoods) for b in boards]),
                _share(geometric - live, geometric),
                _share(geometric - white, geometric) if variant is Variant.NO_THREE_SAME else "-",
            ]
        )
    return make_table(
        "dead",
        "Dead lines of three (note: 34.8% of geometric lines dead)",
        [
            "rule",
            "size",
            "boards",
            "geometric",
            "live (all-black side)",
            "all-black side dead",
            "all-white side dead",
        ],
        rows,
        chart=Chart(("all-black side dead", "all-white side dead"), "% of geometric lines"),
    )


def answer_set(puzzle: Nondango, clock: _Clock, engine: bool) -> frozenset[int] | None:
    """Every answer (None if over `LIMIT` or out of time), by the engine or the plain
    backtracker."""
    counter = solve.count if engine else count_brute
    outcome = counter(puzzle, LIMIT + 1, clock())
    if outcome.verdict is Verdict.TIMEOUT or len(outcome.solutions) > LIMIT:
        return None
    return frozenset(outcome.solutions)


def group_product(puzzle: Nondango, clock: _Clock) -> int | None:
    """The answer count as the product of each independent group counted alone."""
    deadline = clock()
    pos = Position(board_of(puzzle), deadline)
    if board_of(puzzle).circleless or not propagate(pos):
        return 0
    product = 1
    for part in search.independent_parts(pos):
        child = pos.copy()
        child.focus = part
        found = count_solutions(search.NondangoSpace(deadline), child, LIMIT + 1, deadline)
        if found.verdict is Verdict.TIMEOUT:
            return None
        product *= len(found.solutions)
    return product


def screen_table(bank: Bank, clock: _Clock) -> Table:
    """Engine (screen + split) against the plain backtracker, on every board and on its
    twin under the other variant: the same answer set, and the product of the groups."""
    rows = []
    for (variant, size), made in bank.items():
        for rule in VARIANTS:
            same = product = checked = answers = 0
            for generated in made:
                puzzle = dataclasses.replace(generated.puzzle, variant=rule)
                plain = answer_set(puzzle, clock, engine=False)
                if plain is None:
                    continue
                checked += 1
                answers += len(plain)
                same += answer_set(puzzle, clock, engine=True) == plain
                product += group_product(puzzle, clock) == len(plain)
            rows.append([variant.value, _size(size), rule.value, checked, answers, same, product])
    return make_table(
        "screen",
        "The screen and the split, checked (note: 36 of 36 answer sets)",
        [
            "bank",
            "size",
            "counted as",
            "boards decided by the backtracker",
            "answers",
            "same answer set",
            "group product = count",
        ],
        rows,
        before="Each board is also counted under the other rule (its twin), so sets of "
        "several answers and of none are compared too.",
        chart=Chart(
            ("boards decided by the backtracker", "same answer set", "group product = count"),
            "boards",
        ),
    )


def lemma_table(bank: Bank, clock: _Clock) -> Table:
    """Every one-circle move is illegal and certified; uncertified offers really fail."""
    rows = []
    for (variant, size), made in bank.items():
        checks = [theory.check_moves(g.puzzle, g.solution) for g in made]
        offers, seconds = _uncertified_offers(made, clock)
        rows.append(
            [
                variant.value,
                _size(size),
                sum(c.moves for c in checks),
                sum(c.illegal for c in checks),
                sum(c.certified_black for c in checks),
                sum(c.certified_white for c in checks),
                of(seconds, offers),
            ]
        )
    return make_table(
        "lemma",
        "The certificate lemma (note: 2,113 of 2,113 moves illegal and certified)",
        [
            "rule",
            "size",
            "moves",
            "illegal",
            "certified by two blacks",
            "certified by two whites only",
            "uncertified offers with a second answer",
        ],
        rows,
        chart=Chart(
            ("moves", "illegal", "certified by two blacks", "certified by two whites only"),
            "one-circle moves",
            labels=("rule", "size"),
        ),
    )


def _uncertified_offers(made: list[Generated[Nondango]], clock: _Clock) -> tuple[int, int]:
    """Every empty cell whose white circle would have no certificate, offered anyway and
    counted: (offers, of them with a second answer)."""
    offers = second = 0
    for generated in made:
        puzzle, answer = generated.puzzle, generated.solution
        for cell in bits(~puzzle.circles & ((1 << (puzzle.width * puzzle.height)) - 1)):
            if theory.judge_offer(puzzle, answer, cell) != "uncertified":
                continue
            trial = dataclasses.replace(puzzle, circles=puzzle.circles | 1 << cell)
            offers += 1
            second += solve.count(trial, 2, clock()).verdict is Verdict.MULTIPLE
    return offers, second


def budget_table(bank: Bank) -> Table:
    """circles − regions ≤ certifying lines ≤ live lines, board by board."""
    rows = []
    for (variant, size), made in bank.items():
        whites, lines, lives, geometric, slack = [], [], [], [], []
        holds = 0
        for g in made:
            board = build_board(g.puzzle)
            white = g.puzzle.circles.bit_count() - g.puzzle.region_count
            certifying = theory.certifying_lines(board, g.solution)
            whites.append(white)
            lines.append(certifying)
            lives.append(len(board.black_nogoods))
            geometric.append(len(board.triples))
            slack.append(certifying - white)
            holds += white <= certifying <= len(board.black_nogoods)
        rows.append(
            [
                variant.value,
                _size(size),
                _mean(whites),
                _mean(lines),
                _mean(lives),
                _mean(geometric),
                of(holds, len(made)),
                min(slack, default="-"),
                statistics.median(slack) if slack else "-",
            ]
        )
    return make_table(
        "budget",
        "The budget: circles − regions ≤ certifying lines ≤ live lines",
        [
            "rule",
            "size",
            "white circles",
            "certifying lines",
            "live lines",
            "geometric lines",
            "holds",
            "least slack",
            "median slack",
        ],
        rows,
        before="Note (8×8 / 12×12): white circles 15.4 / 43.3, certifying lines 20.3 / 60.4, "
        "live lines 28.3 / 95.3, geometric 43.1 / 146.4; the tightest board has one line to "
        "spare, the median nine. Under no-three-same one line with two white circles can "
        "certify a whole region, so the inequality may fail there.",
        chart=Chart(
            ("white circles", "certifying lines", "live lines", "geometric lines"),
            "mean per board",
            labels=("rule", "size"),
        ),
    )


def groups_table(bank: Bank, boards: int, seed: int, clock: _Clock) -> tuple[Table, Table]:
    """Regions grouped by live lines; and boards without a live line count as products."""
    rows = []
    for (variant, size), made in bank.items():
        groups = [theory.static_groups(build_board(g.puzzle)) for g in made]
        givens = sum(
            _is_given(g.puzzle, group) for g, gs in zip(made, groups, strict=True) for group in gs
        )
        largest = max((len(group) for gs in groups for group in gs), default=0)
        rows.append([variant.value, _size(size), len(made), sum(map(len, groups)), givens, largest])
    products = [_product_check(variant, boards, seed, clock) for variant in VARIANTS]
    grouped = make_table(
        "groups",
        "Independent groups (note: 72 boards, 189 groups, 114 of them one given; "
        "largest 48 regions)",
        ["rule", "size", "boards", "groups", "givens", "largest group (regions)"],
        rows,
        chart=Chart(("groups", "givens", "largest group (regions)"), "groups, or regions"),
    )
    checked = make_table(
        "no-live-line",
        "Random 6×6 boards with no live line, counted by the plain backtracker",
        ["rule", "boards", "count = product of circles per region"],
        products,
        before="Random 6×6 boards with no live line at all, counted by the plain backtracker "
        "(note: 200 of 200 equal the product of the region sizes):",
        heading=False,
        chart=Chart(("boards", "count = product of circles per region"), "boards"),
    )
    return grouped, checked


def _is_given(puzzle: Nondango, group: list[int]) -> bool:
    circles = puzzle.region_circles()
    return len(group) == 1 and circles[group[0]].bit_count() == 1


def _product_check(variant: Variant, boards: int, seed: int, clock: _Clock) -> list[CellLike]:
    rng = Rng(seed).fork(f"no live line {variant.value}")
    exact = drawn = 0
    while drawn < boards:
        region_rows = generate.draw_regions(6, 6, rng)
        density = 0.15 + 0.3 * rng.random()
        circle_rows = [[int(rng.random() < density) for _ in row] for row in region_rows]
        puzzle = make_puzzle(region_rows, circle_rows, variant)
        board = build_board(puzzle)
        if board.circleless or board.black_nogoods or board.white_nogoods:
            continue
        drawn += 1
        product = 1
        for circles in board.region_circles:
            product *= circles.bit_count()
        outcome = count_brute(puzzle, product + 1, clock())
        exact += outcome.verdict is not Verdict.TIMEOUT and len(outcome.solutions) == product
    return [variant.value, drawn, exact]


def dial_board(size: tuple[int, int], variant: Variant, white: int, rng: Rng) -> Nondango | None:
    """A skeleton with `white` certified white circles thrown in at random and no
    uniqueness check (None if the skeleton has room for fewer)."""
    skeleton = generate.draw_skeleton(size[0], size[1], variant, rng.fork("skeleton"))
    if skeleton is None:
        return None
    answer = skeleton.circles
    puzzle = skeleton
    cells = [c for c in range(size[0] * size[1]) if not answer >> c & 1]
    rng.shuffle(cells)
    added = 0
    for cell in cells:
        if added == white:
            break
        if theory.judge_offer(puzzle, answer, cell) == "certified":
            puzzle = dataclasses.replace(puzzle, circles=puzzle.circles | 1 << cell)
            added += 1
    return puzzle if added == white else None


def dial_table(boards: int, seed: int, sizes: Sequence[tuple[int, int]], clock: _Clock) -> Table:
    """Uniqueness rate by the number of certified white circles, with no uniqueness check."""
    rows = []
    for variant in VARIANTS:
        for size in sizes:
            for white in DIAL.get(size, (0, 4, 8)):
                rng = Rng(seed).fork(f"dial {variant.value} {_size(size)} {white}")
                verdicts: Counter[Verdict] = Counter()
                tries = 0
                while sum(verdicts.values()) < boards and tries < 20 * boards:
                    tries += 1
                    puzzle = dial_board(size, variant, white, rng.fork(str(tries)))
                    if puzzle is not None:
                        verdicts[solve.count(puzzle, 2, clock()).verdict] += 1
                drawn = sum(verdicts.values())
                note = NOTE_DIAL.get(size, {}).get(white, "") if variant is VARIANTS[0] else ""
                rows.append(
                    [
                        variant.value,
                        _size(size),
                        white,
                        drawn,
                        verdicts[Verdict.UNIQUE],
                        _share(verdicts[Verdict.UNIQUE], drawn),
                        verdicts[Verdict.NONE],
                        note,
                    ]
                )
    return make_table(
        "dial",
        "The dial: certified white circles, no uniqueness check",
        ["rule", "size", "white circles", "drawn", "unique", "rate", "no answer", "note"],
        rows,
        chart=Chart(("rate",), "% unique", labels=("rule", "size", "white circles")),
    )


def misreading_table(bank: Bank, clock: _Clock) -> Table:
    """Every unique board counted again under the two misreadings of the line rule."""
    rows = []
    for (variant, size), made in bank.items():
        loose = [solve.count(g.puzzle, LIMIT + 1, clock(), Reading.NO_DIAGONALS) for g in made]
        tight = [solve.count(g.puzzle, 2, clock(), Reading.ANYWHERE) for g in made]
        answers = [len(o.solutions) for o in loose if o.verdict is not Verdict.TIMEOUT]
        rows.append(
            [
                variant.value,
                _size(size),
                len(made),
                sum(o.verdict is Verdict.UNIQUE for o in loose),
                _capped_median(answers),
                sum(n > LIMIT for n in answers),
                sum(o.verdict is Verdict.NONE for o in tight),
                sum(o.verdict is Verdict.TIMEOUT for o in loose + tight),
            ]
        )
    return make_table(
        "misreadings",
        "The two misreadings (note: no diagonals, 0 of 72 unique, 8×8 median 1,268 "
        "answers, every 12×12 past 20,000; anywhere in the line, 72 of 72 with no answer)",
        [
            "rule",
            "size",
            "boards",
            "no diagonals: still unique",
            "median answers",
            f"past {LIMIT:,}",
            "anywhere: no answer",
            "timeouts",
        ],
        rows,
        chart=Chart(
            ("boards", "no diagonals: still unique", "anywhere: no answer"),
            "boards",
            labels=("rule", "size"),
        ),
    )


def _capped_median(answers: list[int]) -> Cell:
    if not answers:
        return Cell("-")
    middle = statistics.median(answers)
    if middle > LIMIT:
        return Cell(f"> {LIMIT:,}")
    return num(middle, f"{middle:,.1f}".removesuffix(".0"))


def ladder_table(bank: Bank) -> Table:
    """The rung each board needs, by how many white circles it holds."""
    buckets = ((0, 0), (1, 4), (5, 8), (9, 12), (13, 10**9))
    rows = []
    for (variant, size), made in bank.items():
        for low, high in buckets:
            rungs = Counter(
                str(g.metrics["rung"]) for g in made if low <= int(g.metrics["white"]) <= high
            )
            if rungs:
                label = f"{low}" if low == high else f"{low}+" if high > 99 else f"{low}–{high}"
                rows.append(
                    [variant.value, _size(size), label, sum(rungs.values())]
                    + [rungs[rung] for rung in LADDER.names]
                )
    return make_table(
        "ladder",
        "The ladder (note, 8×8: 1–4 white 92 triple / 1 probe; 13+ white 60 / 50; "
        "nothing in the bank needs search)",
        ["rule", "size", "white circles", "boards", *LADDER.names],
        rows,
        before="The note's `triple` is our `triple` and `confine` together; under "
        "no-three-black `confine` never applies.",
        chart=Chart(LADDER.names, "boards", labels=("rule", "size", "white circles")),
    )


def line_table() -> Table:
    """Legal colourings of one line of L circles under each reading, brute-force checked."""
    rows = []
    for length in (4, 6, 8, 10, 12):
        counts = [
            sequences.strings_without_run(length),
            sequences.lazy_caterer(length),
            sequences.strings_without_same_run(length),
            sequences.at_most_two_of_each(length),
        ]
        brute = [
            sequences.line_count_brute(length, lambda s: "111" not in s),
            sequences.line_count_brute(length, lambda s: s.count("1") <= 2),
            sequences.line_count_brute(length, lambda s: "111" not in s and "000" not in s),
            sequences.line_count_brute(length, lambda s: s.count("1") <= 2 >= s.count("0")),
        ]
        rows.append(
            [length, *(num(n, f"{n:,}") for n in counts), "yes" if counts == brute else "NO"]
        )
    return make_table(
        "line",
        "One line of L circles (note: 13/11, 44/22, 149/37, 504/56, 1,705/79)",
        [
            "L",
            "consecutive, black (A000073)",
            "anywhere, black (A000124)",
            "consecutive, same colour",
            "anywhere, same colour",
            "brute force agrees",
        ],
        rows,
        chart=Chart(
            (
                "consecutive, black (A000073)",
                "anywhere, black (A000124)",
                "consecutive, same colour",
                "anywhere, same colour",
            ),
            "legal colourings",
            log=True,
            labels=("L",),
        ),
    )


def grid_table(budget_s: float) -> Table:
    """A181218 by transfer matrix, exact, as far as `budget_s` seconds go."""
    rows = []
    for n, value, seconds in sequences.grid_terms(budget_s):
        check = ""
        if n <= 4:
            check = "brute force: " + (
                "equal" if sequences.grid_count_brute(n) == value else "DIFFERENT"
            )
        elif n in KNOWN_TERMS:
            check = "OEIS: " + ("equal" if KNOWN_TERMS[n] == value else "DIFFERENT")
        past = "yes" if value > 2**53 else ""
        rows.append(
            [
                n,
                num(value, f"{value:,}"),
                len(str(value)),
                past,
                num(round(seconds, 4), f"{seconds:.2f}"),
                check,
            ]
        )
    return make_table(
        "a181218",
        "A181218: black sets with no three in a line on an n×n grid of circles",
        ["n", "A181218(n)", "digits", "past 2^53", "seconds", "check"],
        rows,
        before=f"Transfer matrix over pairs of rows, exact integers, {budget_s:g} s budget; "
        "the note stops at 8×8 because the 9×9 term is past 2^53.",
        chart=Chart(("A181218(n)",), "black sets", log=True, labels=("n",)),
    )


KNOWN_TERMS = {5: 1_495_392}
