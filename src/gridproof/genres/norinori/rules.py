"""The Norinori rule ladder: every deduction the solver makes, cheapest first, and the one
table, `LADDER` at the end, that names the rungs, their grades and their rules.

Rungs (each includes the ones before it):
- `local`: what a solver that only counts regions and looks at a cell's four neighbours sees.
- `pairs`: regions lifted to variables whose values are the pairs they may shade, kept
  arc consistent with their neighbouring regions (AC-3) and written back to cells.
- `probe`: singleton consistency: assume a cell one way, run `pairs`; if that dies, the
  cell is the other way.

Each rule returns the steps it can take now, or a `Violation` (the contradiction it found).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations

from gridproof.core.grid import Geometry, bits, low_bit
from gridproof.core.ladder import (
    Found,
    Ladder,
    LadderRun,
    Rule,
    Rung,
    chain_parts,
    chain_said,
    needed_steps,
    parts_cited,
    rule,
    run_ladder,
)
from gridproof.core.trace import Step, Violation
from gridproof.genres.norinori.position import Board, Domains, Position, Trials
from gridproof.genres.norinori.view import enough_and_fewest


def _are(mask: int) -> str:
    return "are" if mask & (mask - 1) else "is"


def _s(mask: int) -> str:
    return "s" if mask & (mask - 1) else ""


def _fewer_free(pos: Position, step: Step, keep: int) -> Step:
    """A Completed domino step said of only the neighbours `keep` (`Rule.narrow`)."""
    domino = sum(1 << cell for cell in step.cells)
    return _domino_step(pos.board, domino, keep & step.empty)


@rule(
    "domino-complete",
    "Completed domino",
    "{domino} form a domino, so its other neighbour{s} {free} {are} empty",
    conflict="{cell} has more than one shaded neighbour",
    salience=1,
    narrow=_fewer_free,
)
def domino_complete(pos: Position) -> Found:
    """A shaded cell with a shaded neighbour is a finished domino: its other neighbours are
    empty. A shaded cell with two shaded neighbours is a contradiction."""
    board, geo, shaded = pos.board, pos.board.geo, pos.shaded
    crowded = shaded & geo.spread_twice(shaded)
    if crowded:
        cell = low_bit(crowded)
        crowd = geo.neighbours[cell] & shaded
        return domino_complete.violation(cells=(cell, *bits(crowd)), cell=board.name(cell))
    unknown = pos.unknown
    paired = shaded & geo.spread(shaded) & geo.spread(unknown)
    steps: list[Step] = []
    nbrs = geo.neighbours
    while paired:
        cell = low_bit(paired)
        mate = nbrs[cell] & shaded
        domino = (1 << cell) | mate
        paired &= ~domino
        free = (nbrs[cell] | nbrs[low_bit(mate)]) & unknown
        if free:
            steps.append(_domino_step(board, domino, free))
    return steps


def _domino_step(board: Board, domino: int, free: int) -> Step:
    """The Completed domino step: the cells of `domino` shaded, so `free` is empty."""
    return domino_complete.step(
        empty=free,
        cells=bits(domino),
        domino=board.names(domino),
        free=board.names(free),
        s=_s(free),
        are=_are(free),
    )


@rule(
    "region-full",
    "Region full",
    "region {region} already holds two shaded cells, so the rest are empty",
    conflict="region {region} holds {count} shaded cells",
)
def region_full(pos: Position) -> Found:
    """A region that holds two shaded cells has no room for more."""
    board, shaded, empty = pos.board, pos.shaded, pos.empty
    steps: list[Step] = []
    for rid in sorted(board.regions_touching(pos.changed_since(region_full.id))):
        area = board.region_mask[rid]
        inside = shaded & area
        count = inside.bit_count()
        if count > 2:
            return region_full.violation(
                cells=bits(inside), regions=(rid,), region=rid + 1, count=count
            )
        rest = area & ~inside & ~empty
        if count == 2 and rest:
            steps.append(
                region_full.step(empty=rest, cells=bits(inside), regions=(rid,), region=rid + 1)
            )
    return steps


@rule(
    "only-partner",
    "Only partner",
    "{cell} is shaded and its only possible partner is {partner}",
    conflict="{cell} is shaded but no neighbour can partner it",
)
def only_partner(pos: Position) -> Found:
    """A shaded cell without a partner yet, and one undecided neighbour: that is its partner."""
    board, geo, shaded, unknown = pos.board, pos.board.geo, pos.shaded, pos.unknown
    single = shaded & ~geo.spread(shaded)
    stranded = single & ~geo.spread(unknown)
    if stranded:
        cell = low_bit(stranded)
        return only_partner.violation(
            cells=(cell, *bits(geo.neighbours[cell])), cell=board.name(cell)
        )
    steps: list[Step] = []
    for cell in bits(single & ~geo.spread_twice(unknown)):
        partner = geo.neighbours[cell] & unknown
        ruled_out = geo.neighbours[cell] & pos.empty
        steps.append(
            only_partner.step(
                shaded=partner,
                cells=(cell, *bits(ruled_out)),
                cell=board.name(cell),
                partner=board.names(partner),
            )
        )
    return steps


@rule(
    "region-needs",
    "Region needs its last cells",
    "region {region} needs two shaded cells and only {room} can hold them",
    conflict="region {region} has no room left for two shaded cells",
)
def region_needs(pos: Position) -> Found:
    """A region whose undecided cells are exactly the shaded cells it still needs."""
    board, shaded, empty = pos.board, pos.shaded, pos.empty
    steps: list[Step] = []
    for rid in sorted(board.regions_touching(pos.changed_since(region_needs.id))):
        area = board.region_mask[rid]
        open_cells = area & ~empty
        rest = open_cells & ~shaded
        if open_cells.bit_count() < 2:
            return region_needs.violation(cells=bits(area), regions=(rid,), region=rid + 1)
        if rest and open_cells.bit_count() == 2:
            steps.append(
                region_needs.step(
                    shaded=rest,
                    cells=bits(open_cells),
                    regions=(rid,),
                    region=rid + 1,
                    room=board.names(open_cells),
                )
            )
    return steps


@rule(
    "two-neighbours",
    "Would touch two shaded cells",
    "{cell} touches {touching}: shading it would give it two shaded neighbours, so it is empty",
    salience=-2,
)
def two_neighbours(pos: Position) -> Found:
    """An undecided cell next to two shaded cells would get two shaded neighbours (two of
    them cited: a third says nothing more)."""
    board, geo = pos.board, pos.board.geo
    steps: list[Step] = []
    for cell in bits(pos.unknown & geo.spread_twice(pos.shaded)):
        around = geo.neighbours[cell] & pos.shaded
        first = around & -around
        rest = around ^ first
        touching = first | rest & -rest
        steps.append(
            two_neighbours.step(
                empty=1 << cell,
                cells=(cell, *bits(touching)),
                cell=board.name(cell),
                touching=board.names(touching),
            )
        )
    return steps


@rule(
    "no-partner",
    "No possible partner",
    "every neighbour of {cell} is empty, so it can have no partner and is empty",
    salience=-1,
)
def no_partner(pos: Position) -> Found:
    """An undecided cell whose neighbours are all empty could never have a partner."""
    board, geo = pos.board, pos.board.geo
    unknown = pos.unknown
    lonely = unknown & ~geo.spread(unknown | pos.shaded)
    return [
        no_partner.step(
            empty=1 << cell, cells=(cell, *bits(geo.neighbours[cell])), cell=board.name(cell)
        )
        for cell in bits(lonely)
    ]


LOCAL: tuple[Rule[Position], ...] = (
    domino_complete,
    region_full,
    only_partner,
    region_needs,
    two_neighbours,
    no_partner,
)
"""The `local` rung's rules, cheapest first (`close_local` is their fixpoint in bulk)."""


def close_local(board: Board, shaded: int, empty: int, changed: int) -> tuple[int, int] | None:
    """The `local` rung in bulk: the six rules above on whole-board masks, repeated until
    nothing changes, with no steps written; None on a contradiction. This is the counter's
    propagation (a test holds it to the same fixpoint as the named rules).

    `changed` are the cells decided since the marks were last closed: only their regions
    can have new quotas to check.
    """
    return close_marks(board.geo, board.region_of, board.region_mask, shaded, empty, changed)


def close_marks(
    geo: Geometry,
    region_of: Sequence[int],
    region_mask: Sequence[int],
    shaded: int,
    empty: int,
    changed: int,
    loose: int = 0,
) -> tuple[int, int] | None:
    """`close_local` on bare region tables, for callers that try many layouts (a
    generator steering towards an easier grade) and would waste time building a `Board`
    for each. `loose`: whole regions whose quotas are left out (the rest of the rules'
    fixpoint holds for any layout that differs from this one only inside them). Each
    round, `a b c d` say which cells have a west, east, north or south neighbour in the
    mask being looked at. A shift north (`<< w`) may carry bits past the board's last
    cell: every such mask is read only through one within the board."""
    w, full, has_west, has_east = geo.width, geo.full, geo.not_first_col, geo.not_last_col
    if not shaded | empty and changed == full:
        # from nothing the cell rules decide nothing and a region's quota decides only
        # when it has two cells or fewer: no region need be looked up cell by cell
        for area in region_mask:
            if area and area.bit_count() <= 2 and not area & loose:
                if area.bit_count() < 2:  # region-needs: no room for two
                    return None
                shaded |= area  # region-needs
        changed = 0
    while True:
        a, b, c, d = (shaded << 1) & has_west, (shaded >> 1) & has_east, shaded << w, shaded >> w
        ab, cd = a | b, c | d
        crowded = (a & b) | (ab & cd) | (c & d)  # two or more shaded neighbours
        if shaded & crowded:  # domino-complete: a shaded cell with two shaded neighbours
            return None
        unknown = full & ~(shaded | empty)
        paired = shaded & (ab | cd)
        single = shaded ^ paired
        # domino-complete (next to a finished domino) and two-neighbours
        clear = unknown & (
            crowded
            | ((paired << 1) & has_west)
            | ((paired >> 1) & has_east)
            | (paired << w)
            | (paired >> w)
        )
        free = unknown ^ clear
        a, b, c, d = (free << 1) & has_west, (free >> 1) & has_east, free << w, free >> w
        ab, cd = a | b, c | d
        reach = ab | cd  # cells with an undecided neighbour that may still be shaded
        shade = 0
        if single:
            if single & ~reach:  # only-partner: a lonely shaded cell with no candidate left
                return None
            forced = single & ~((a & b) | (ab & cd) | (c & d))
            if forced:  # only-partner: exactly one candidate
                shade = free & (
                    ((forced << 1) & has_west)
                    | ((forced >> 1) & has_east)
                    | (forced << w)
                    | (forced >> w)
                )
            reach |= ((single << 1) & has_west) | ((single >> 1) & has_east)
            reach |= (single << w) | (single >> w)
        clear |= free & ~reach  # no-partner
        if shade & clear:
            return None
        now_shaded, now_empty = shaded | shade, empty | clear
        todo = changed | shade | clear  # the regions holding these cells, each once
        if loose:
            todo &= ~loose
        # a region's quota reads and marks its own cells alone: the cells not empty as the
        # look at the regions starts are those not empty as each region's look starts
        open_ = full & ~now_empty
        while todo:
            area = region_mask[region_of[todo.bit_length() - 1]]
            todo &= ~area
            count = (now_shaded & area).bit_count()
            room = area & open_
            places = room.bit_count()
            if count > 2 or places < 2:  # region-full / region-needs
                return None
            if count == 2:
                if places > 2:
                    now_empty |= room & ~now_shaded  # region-full
            elif places == 2:
                now_shaded |= room  # region-needs
        if now_shaded & now_empty:
            return None
        if now_shaded == shaded and now_empty == empty:
            return shaded, empty
        # a region's own quota rule leaves it settled, so only the cell rules look again
        shaded, empty, changed = now_shaded, now_empty, 0


def checker(pos: Position, area: int, halo: int) -> Callable[[int], bool]:
    """A test of whether the cells of `area` could be shaded exactly as a given mask, with
    every other cell as it is now (see `checker_at`)."""
    return checker_at(pos.board.geo, pos.shaded, pos.empty, area, halo)


def checker_at(
    geo: Geometry, shaded_now: int, empty_now: int, area: int, halo: int
) -> Callable[[int], bool]:
    """A test of whether the cells of `area` could be shaded exactly as a given mask, with
    every other cell as the marks `shaded_now` and `empty_now` have it.

    It looks at each cell the mask shades and each shaded cell in `halo` (the cells touching
    the area) that touches an undecided area cell: none may get two shaded neighbours, one
    without a partner must keep an undecided neighbour outside the area, and a partner must
    have no other shaded neighbour. Cells it does not look at cannot change.
    """
    nbrs = geo.neighbours
    unknown = geo.full & ~(shaded_now | empty_now)
    blocked = empty_now
    required = shaded_now & area
    outside = shaded_now & ~area
    room = unknown & ~area
    watch = outside & halo & geo.spread(area & unknown)

    def fits(shade: int) -> bool:
        if shade & blocked or required & ~shade:
            return False
        shaded = outside | shade
        todo = shade | watch
        while todo:
            low = todo & -todo
            todo ^= low
            cell = low.bit_length() - 1
            mates = nbrs[cell] & shaded
            if not mates:
                if not nbrs[cell] & room:
                    return False
            elif mates & (mates - 1) or nbrs[mates.bit_length() - 1] & shaded != low:
                return False
        return True

    return fits


Domain = tuple[int, ...]
"""A lifted region's possible pairs."""
ArcKey = tuple[int, int, int, int, int]
"""What a verdict reads: the board's width and height, the cells of the arc's regions, and
the shaded and empty cells of its zone."""


class Verdicts:
    """`checker`'s verdicts on two pairs side by side (AC-3's) and on a region's pair alone
    (the region as its own arc: `sieve`, for Region options and the explanations), kept
    across runs and boards. A verdict reads only the cells of the arc's regions and the
    marks in its zone (`Board.arc_zone`), never a region's number, so each table is keyed
    by the board's size, those cells and those marks, and holds wherever they recur: a
    probe's trial changes the marks around a few arcs only, the next hint around fewer, an
    explanation's next try at a set of regions (`_pairs_support`) around the regions it
    adds or leaves out, and a generator's climb tries layouts that differ from the last in
    a region or two (their solves from the empty grid mark the rest alike for a while).
    Beside each table, what AC-3's revisions of the arc found (`revisions`): a revision
    reads only the two domains and the arc's verdicts. At most `limit` bytes of verdicts
    (a verdict is keyed by a board-sized mask) and a sixteenth of that of revisions, each
    counted apart; past either, that one starts afresh (a board whose revisions seldom
    recur does not cost its verdicts)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.tables: dict[ArcKey, dict[int, bool]] = {}
        self.revised: dict[ArcKey, dict[tuple[Domain, Domain], Domain]] = {}
        self.size = 0
        self.revised_size = 0

    def table(self, pos: Position, i: int, j: int, key: ArcKey | None = None) -> dict[int, bool]:
        """The verdicts known on pairs of regions i and j side by side (of region i alone
        when j is i) at `pos`'s marks (`key`: their `key_of`, when the caller has it)."""
        if key is None:
            key = self.key_of(pos, i, j)
        known = self.tables.get(key)
        if known is None:
            if self.size >= self.limit:
                self.tables = {}  # a table in use stays right for its marks
                self.size = 0
            known = self.tables[key] = {}
        return known

    def revisions(
        self, pos: Position, i: int, j: int, key: ArcKey | None = None
    ) -> dict[tuple[Domain, Domain], Domain]:
        """What revising the arc of regions i and j at `pos`'s marks kept, by the two
        domains it was revised from: (the region's, its neighbour's) → the region's pairs
        that some pair of the neighbour's supports (the same either way round, as the
        verdicts are); `key` as for `table`."""
        if key is None:
            key = self.key_of(pos, i, j)
        found = self.revised.get(key)
        if found is None:
            if self.revised_size >= self.limit // 16:
                self.revised = {}  # as the verdicts, each stays right for its marks
                self.revised_size = 0
            found = self.revised[key] = {}
        return found

    def key_of(self, pos: Position, i: int, j: int) -> ArcKey:
        """What the verdicts and revisions of the arc of regions i and j read at `pos`."""
        board = pos.board
        arc = (i, j) if i < j else (j, i)
        zone = board.arc_zone.get(arc)
        if zone is None:
            spread = board.geo.spread
            zone = spread(spread(spread(board.region_mask[i] | board.region_mask[j])))
            board.arc_zone[arc] = zone
        geo, area = board.geo, board.region_mask[i] | board.region_mask[j]
        return (geo.width, geo.height, area, pos.shaded & zone, pos.empty & zone)

    def sieve(self, pos: Position, rid: int, pairs: Sequence[int]) -> tuple[int, ...]:
        """The pairs of region `rid` that suit the cells around it at `pos`'s marks (the
        region as its own arc), from the verdicts kept where they are known."""
        board = pos.board
        known = self.table(pos, rid, rid)
        before = len(known)
        fits: Callable[[int], bool] | None = None
        kept = []
        for p in pairs:
            verdict = known.get(p)
            if verdict is None:
                if fits is None:
                    fits = checker(pos, board.region_mask[rid], board.region_halo[rid])
                verdict = known[p] = fits(p)
            if verdict:
                kept.append(p)
        if fits is not None:
            self.added(board, len(known) - before)
        return tuple(kept)

    def added(self, board: Board, entries: int) -> None:
        """Count `entries` new verdicts on `board` against the limit."""
        self.size += entries * (board.geo.full.bit_length() // 8 + 120)


VERDICTS = Verdicts(limit=64 * 2**20)
"""The process's verdicts: about 290,000 on a 30×30 board, 155,000 on a 50×50, what a
generator's climb at 50×50 reads again (a medium easing climb, seeds 1-2, 2026-12-04:
10.7 / 31.5 s CPU with 16 MiB, which it outgrew and started afresh, 5.8 / 18.6 with 64)."""


class _Arcs:
    """The binary checks of one AC-3 run, through `VERDICTS` (the marks do not change
    during a run: each arc's table is looked up once); the residual supports on the board
    remember which partner last worked."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.tables: dict[tuple[int, int], dict[int, bool]] = {}
        self.revised: dict[tuple[int, int], dict[tuple[Domain, Domain], Domain]] = {}
        self.skipped = False
        """Whether some arc was too costly to revise."""

    def note_skipped(self) -> None:
        if self.skipped:
            self.pos.deadline.note(
                f"the pairs rule skipped neighbouring regions with more than {ARC_LIMIT:,} "
                "ways to compare side by side"
            )

    def revise(self, i: int, j: int) -> tuple[int, ...] | None:
        """The pairs of region i that some pair of region j supports; None when the
        deadline passes meanwhile. An arc that would compare more than `ARC_LIMIT` pairs
        of pairs is left as it is (noted on the deadline): pruning less is sound."""
        pos = self.pos
        domains = pos.domains
        assert domains is not None
        partners = _lifted(domains, j)
        mine = _lifted(domains, i)
        if len(mine) * len(partners) > ARC_LIMIT:
            self.skipped = True
            return mine
        board = pos.board
        support = board.support.get(j)
        if support is None:
            support = board.support[j] = {}
        known = self.tables.get((i, j))
        if known is None:
            key = VERDICTS.key_of(pos, i, j)
            known = self.tables[i, j] = self.tables[j, i] = VERDICTS.table(pos, i, j, key)
            self.revised[i, j] = self.revised[j, i] = VERDICTS.revisions(pos, i, j, key)
        revised = self.revised[i, j]
        found = revised.get((mine, partners))
        if found is not None:  # revised from these domains before, at these marks
            return found
        verdict_of = known.get
        check: Callable[[int], bool] | None = None
        before = len(known)

        def fits(shade: int) -> bool:  # a verdict not known yet
            nonlocal check
            if check is None:
                check = self._checker(i, j)
            verdict = known[shade] = check(shade)
            return verdict

        kept = []
        deadline = pos.deadline
        for index, p in enumerate(mine):
            if index % 32 == 31 and deadline.expired():
                return None
            q = support.get(p)  # the partner that last worked
            if q is not None and q in partners:
                verdict = verdict_of(p | q)
                if verdict or (verdict is None and fits(p | q)):
                    kept.append(p)
                    continue
            for q in partners:
                verdict = verdict_of(p | q)
                if verdict or (verdict is None and fits(p | q)):
                    support[p] = q
                    kept.append(p)
                    break
        if check is not None:
            VERDICTS.added(board, len(known) - before)
        found = mine if len(kept) == len(mine) else tuple(kept)
        revised[mine, partners] = found
        VERDICTS.revised_size += REVISION_BYTES
        return found

    def _checker(self, i: int, j: int) -> Callable[[int], bool]:
        """`checker` of regions i and j side by side."""
        board = self.pos.board
        area = board.region_mask[i] | board.region_mask[j]
        halo = (board.region_halo[i] | board.region_halo[j]) & ~area
        return checker(self.pos, area, halo)


REVISION_BYTES = 200
"""What `Verdicts.revisions` keeps for one revision, about: its key holds the two domains
already listed, and the pairs kept are those of the region's domain."""
ARC_LIMIT = 250_000
"""An arc between two regions compares at most this many pairs of their pairs (two regions
of about 30 cells); larger arcs are skipped, so one arc never outlasts a deadline check."""
LIFT_TOTAL = 60_000
"""The pairs listed over the whole board at most (see `lifted_domains`)."""
LIFT_LIMIT = 5000
"""Regions with more pairs than this (more than 100 cells) are not lifted: `pairs` leaves
them to the local rules. Listing the pairs of one huge region (a pasted board of two
halves, say) would take longer than any deadline a caller can wait for."""


def _dirty_regions(pos: Position, rule_id: str) -> list[int]:
    """Lifted regions within two steps of a cell decided since rule `rule_id` last looked:
    the only ones whose possible pairs can have changed (what a pair needs lies within two
    steps)."""
    board, geo = pos.board, pos.board.geo
    if pos.domains is None:
        pos.domains = lifted_domains(pos)
    changed = pos.changed_since(rule_id)
    near = changed | geo.spread(changed)
    touched = board.regions_touching(near | geo.spread(near))
    return sorted(rid for rid in touched if pos.domains[rid] is not None)


def lifted_domains(pos: Position) -> list[tuple[int, ...] | None]:
    """The pairs of every region small enough to lift, smallest regions first until
    `LIFT_TOTAL` pairs are listed; the rest are left to the local rules, noted on the
    deadline (each pair is a board-sized mask, so this bounds the memory as well)."""
    masks = pos.board.region_mask
    lifted, skipped = liftable(masks)
    if skipped is not None:
        pos.deadline.note(
            f"the pairs rule was skipped for region {skipped + 1} and every larger one: "
            f"region {skipped + 1} has {_ways(masks[skipped]):,} pairs"
        )
    return [region_pairs(masks[rid]) if rid in lifted else None for rid in range(len(masks))]


def _ways(area: int) -> int:
    size = area.bit_count()
    return size * (size - 1) // 2


def liftable(masks: Sequence[int]) -> tuple[set[int], int | None]:
    """The regions `lifted_domains` lists the pairs of, smallest first until `LIFT_TOTAL`,
    and the first region it skips (None: none)."""
    ways = [_ways(m) for m in masks]
    lifted: set[int] = set()
    total = 0
    for rid in sorted(range(len(masks)), key=lambda r: (ways[r], r)):
        if ways[rid] > LIFT_LIMIT or total + ways[rid] > LIFT_TOTAL:
            return lifted, rid
        lifted.add(rid)
        total += ways[rid]
    return lifted, None


def region_pairs(area: int) -> tuple[int, ...] | None:
    """Every pair of cells of a region: the domain of its lifted variable at the start
    (None for a region too big to lift, see `LIFT_LIMIT`)."""
    size = area.bit_count()
    if size * (size - 1) // 2 > LIFT_LIMIT:
        return None
    return tuple((1 << a) | (1 << b) for a, b in combinations(bits(area), 2))


NO_PAIR_LEFT = "region {region} has no way left to place its two shaded cells"


def _decision(board: Board, shade: int, clear: int) -> str:
    """What a region's ways agree on, in words: "shade r1c2 and leave r3c4 empty"."""
    parts = []
    if shade:
        parts.append(f"shade {board.names(shade)}")
    if clear:
        parts.append(f"leave {board.names(clear)} empty")
    return " and ".join(parts)


def _fewer_decided(pos: Position, step: Step, keep: int) -> Step:
    """A Region options or Region pairs step said of only the cells `keep` of those its
    ways agree on (`Rule.narrow`): the sentence's ending names them."""
    board = pos.board
    whole = _decision(board, step.shaded, step.empty)
    if not step.text.endswith(whole):  # not a sentence this rule wrote: said whole
        return step
    shaded, empty = step.shaded & keep, step.empty & keep
    text = step.text.removesuffix(whole) + _decision(board, shaded, empty)
    return replace(step, text=text, shaded=shaded, empty=empty)


@rule(
    "region-options",
    "Region options",
    "region {region}: {ways} to place its two shaded cells that suit the cells around it {decide}",
    conflict=NO_PAIR_LEFT,
    narrow=_fewer_decided,
)
def region_options(pos: Position) -> Found:
    """Each region's possible pairs, kept only if they suit the cells around the region; a
    cell every remaining pair shades is shaded, one that no pair uses is empty."""
    dirty = _dirty_regions(pos, region_options.id)
    domains = pos.domains
    assert domains is not None
    for rid in dirty:
        if pos.deadline.expired():
            return []
        live = VERDICTS.sieve(pos, rid, _lifted(domains, rid))
        if not live:
            return _no_pair_left(pos, rid, region_options)
        domains[rid] = live
    return _write_back(pos, dirty, region_options, explain=_cells_around)


EXPLAIN_LIMIT = 20_000
"""How many placements times marks `_cells_around` tests at most to leave out the marks a
Region options step does not need; beyond it the step cites every mark it might read."""


def _cells_around(pos: Position, rid: int, shade: int, clear: int) -> int:
    """The marks near region `rid` that a Region options step (shading `shade`, leaving
    `clear` empty) rests on: those that rule out every placement of the region's pair that
    would contradict it, none idle (left out one at a time, farthest first, while the rest
    still rule them all out). When the marks alone do not rule them out (an earlier `pairs`
    step narrowed the region's placements), or testing would exceed `EXPLAIN_LIMIT`, every
    mark within two cells of the region."""
    board, geo = pos.board, pos.board.geo
    area = board.region_mask[rid]
    halo = board.region_halo[rid]
    near = geo.spread(area)
    reach = (pos.shaded | pos.empty) & geo.spread(near) & ~area
    every = region_pairs(area) or ()
    against = [p for p in every if p & clear or shade & ~p]

    def rules_out(kept: int) -> bool:
        marks = area | kept
        fits = checker_at(geo, pos.shaded & marks, pos.empty & marks, area, halo)
        return not any(fits(p) for p in against)

    if len(against) * reach.bit_count() > EXPLAIN_LIMIT or not rules_out(reach):
        return reach
    kept = reach
    for cell in [*bits(reach & ~near), *bits(reach & near)]:
        if rules_out(kept & ~(1 << cell)):
            kept &= ~(1 << cell)
    return kept


EXPLAIN_WORK = 2000
"""How much `_pairs_cited` spends at most on leaving out the regions and marks a step
does not need, in pairs listed by its arc consistency runs (counted, so the same step is
always explained alike); what it has not tried to leave out by then stays cited."""


def _explain_pairs(pos: Position, step: Step) -> Step:
    """A Region pairs step citing what it rests on (`_pairs_cited`), then none of it idle
    (`_without_idle`)."""
    return _without_idle(pos, _pairs_cited(pos, step), step)


def _pairs_cited(
    pos: Position, step: Step, spent: list[int] | None = None, limit: int = EXPLAIN_WORK
) -> Step:
    """A Region pairs step citing what it rests on: the fewest regions around its own
    whose pairs, kept arc consistent among themselves alone, still decide it, and the marks
    near them that this needs (`_pairs_support`). The step as it is when none do."""
    (rid,) = step.regions

    def decided(live: tuple[int, ...] | None) -> bool:
        if not live:
            return False
        agreed, used = -1, 0
        for p in live:
            agreed &= p
            used |= p
        return not (step.shaded & ~agreed or step.empty & used)

    support = _pairs_support(pos, rid, decided, spent, limit)
    if support is None:
        return step
    regions, cells = support
    return Step(step.rule, step.text, step.shaded, step.empty, cells=cells, regions=regions)


def _without_idle(pos: Position, step: Step, found: Step, short: list[bool] | None = None) -> Step:
    """`step`, an explanation of `found`, citing only what its view needs to imply what it
    decides (`view.enough_and_fewest`: the exact reading of the cells in view, which the
    explanation's own reasoning only approaches). Where the explanation's view does not
    imply it (the reasoning read a rule the view does not show), the step as found, or
    else the explanation with the cells around it, is cited instead; where the check
    cannot tell within its work, or none of those implies it (then `short[0]`, when
    given, is set), `step` as it is."""
    known = pos.shaded | pos.empty
    decided = dict.fromkeys(bits(step.shaded & ~known), 1)
    decided.update(dict.fromkeys(bits(step.empty & ~known), 0))
    if not decided:
        return step
    tries = [(step.cells, step.regions), (found.cells, found.regions)]
    cited = enough_and_fewest(pos.board, tries, pos.shaded, pos.empty, decided, short)
    if cited is None:
        return step
    cells, regions = cited
    return Step(step.rule, step.text, step.shaded, step.empty, cells=cells, regions=regions)


def _explain_dead_end(pos: Position, why: Violation, spent: list[int]) -> Violation:
    """A region's "no way left" citing what it rests on, as `_pairs_cited` does: the
    regions whose pairs, arc consistent among themselves, leave it none, and their marks."""
    (rid,) = why.regions
    support = _pairs_support(pos, rid, lambda live: not live, spent)
    if support is None:
        return why
    regions, cells = support
    return Violation(why.rule, why.text, cells=cells, regions=regions)


def _pairs_support(
    pos: Position,
    rid: int,
    settled: Callable[[tuple[int, ...] | None], bool],
    spent: list[int] | None = None,
    limit: int = EXPLAIN_WORK,
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The regions (`rid` first) and cells a conclusion about region `rid` rests on: the
    fewest regions around it whose pairs, kept arc consistent among themselves alone with
    the marks near them, leave `rid` pairs that `settled` accepts (None: a region among
    them has no pair left), grown ring by ring, then left out a block at a time, farthest
    first; then the marks near them that this needs, none idle, left out the same way.
    Within `limit` pairs listed over the runs, added to `spent[0]` when given. None when no
    set of regions settles it, or growing them takes all the work. (Arc consistency can
    need a mark that exact reasoning over the same cells does without: the explanation
    leaves those out last, `_without_idle`.)"""
    board, geo = pos.board, pos.board.geo
    lifted, _ = liftable(board.region_mask)
    if rid not in lifted:
        return None
    count = len(board.region_mask)
    listed: dict[int, tuple[int, ...]] = {}

    def pairs_of(each: int) -> tuple[int, ...]:
        if each not in listed:
            listed[each] = region_pairs(board.region_mask[each]) or ()
        return listed[each]

    marked = pos.shaded | pos.empty
    runs = 0

    def area_of(regions: list[int]) -> int:
        area = 0
        for each in regions:
            area |= board.region_mask[each]
        return area

    def reach(regions: list[int]) -> int:
        area = area_of(regions)
        return marked & geo.spread(geo.spread(area)) & ~area

    def decides(regions: list[int], kept: int) -> bool:
        nonlocal runs
        work = sum(len(pairs_of(each)) for each in regions)
        runs += work
        if spent is not None:
            spent[0] += work
        trial = pos.copy()
        marks = area_of(regions) | kept
        trial.shaded, trial.empty = pos.shaded & marks, pos.empty & marks
        domains: list[tuple[int, ...] | None] = [None] * count
        for each in regions:
            domains[each] = VERDICTS.sieve(trial, each, pairs_of(each))
        if not all(domains[each] for each in regions):
            return settled(None)
        trial.domains = domains
        around = _Around(board, domains)
        queue = [(i, j) for i in regions for j in around[i]]
        arcs = _Arcs(trial)
        found = _arc_consistent(trial, queue, set(queue), around, arcs)
        if isinstance(found, Violation):
            return settled(None)
        return settled(domains[rid] or None)

    def without(have: list[int], order: list[int], regions: bool = False) -> list[int]:
        """`have` less those of `order` (tried farthest first, a block at a time, halving
        a block that cannot go) the conclusion still holds without: none left is idle,
        unless the work ran out."""
        left = set(have)

        def still(dropped: set[int]) -> bool:
            rest = sorted(left - dropped)
            if regions:
                return decides([rid, *rest], reach([rid, *rest]))
            return decides(chosen, sum(1 << c for c in rest))

        def drop(block: list[int]) -> None:
            if not block or runs >= limit:
                return
            if still(set(block)):
                left.difference_update(block)
            elif len(block) > 1:
                half = len(block) // 2
                drop(block[:half])
                drop(block[half:])

        drop(order)
        return [each for each in have if each in left]

    rings = [[rid]]
    chosen = [rid]
    while not decides(chosen, reach(chosen)):
        ring = sorted(
            {j for i in rings[-1] for j in board.region_neighbours[i] if j in lifted} - set(chosen)
        )
        if not ring or runs >= limit:
            return None
        rings.append(ring)
        chosen += ring
    chosen = [rid, *without(chosen[1:], [r for ring in rings[:0:-1] for r in ring], regions=True)]
    near = geo.spread(area_of(chosen))
    kept = reach(chosen)
    order = [*bits(kept & ~near), *bits(kept & near)]
    kept = sum(1 << c for c in without(list(bits(kept)), order))
    return tuple(chosen), tuple(bits(area_of(chosen) | kept))


@rule(
    "pairs",
    "Region pairs",
    "region {region}: {ways} to place its two shaded cells that every neighbouring region "
    "allows {decide}",
    conflict=NO_PAIR_LEFT,
    explain=_explain_pairs,
    salience=-1,
    narrow=_fewer_decided,
)
def pairs(pos: Position) -> Found:
    """Regions as variables over their possible pairs, made arc consistent (AC-3): a pair
    survives only if every neighbouring region has a pair that fits beside it."""
    board = pos.board
    dirty = _dirty_regions(pos, pairs.id)
    domains = pos.domains
    assert domains is not None
    around = _Around(board, domains)
    queue = [(i, j) for i in dirty for j in around[i]]
    looked = set(dirty)
    queue += [(j, i) for i in dirty for j in around[i] if j not in looked]
    queued = set(queue)
    arcs = _Arcs(pos)
    try:
        return _arc_consistent(pos, queue, queued, around, arcs)
    finally:
        arcs.note_skipped()


class _Around(dict[int, list[int]]):
    """Each region's lifted neighbours (the others are left to the local rules), listed
    when first asked for: an AC-3 run reads those of the regions near what changed."""

    def __init__(self, board: Board, domains: Domains) -> None:
        super().__init__()
        self.board = board
        self.domains = domains

    def __missing__(self, rid: int) -> list[int]:
        domains = self.domains
        found = self[rid] = [j for j in self.board.region_neighbours[rid] if domains[j] is not None]
        return found


def _arc_consistent(
    pos: Position,
    queue: list[tuple[int, int]],
    queued: set[tuple[int, int]],
    around: _Around,
    arcs: _Arcs,
) -> Found:
    """AC-3 over the queued arcs, then the steps the narrowed domains give."""
    domains = pos.domains
    assert domains is not None
    narrowed: set[int] = set()
    popped = 0
    while queue:
        popped += 1
        if popped % 16 == 1 and pos.deadline.expired():  # the clock, now and then
            return []
        arc = queue.pop()
        queued.discard(arc)
        i, j = arc
        if len(_lifted(domains, i)) == 1:  # nothing to prune: the arc back to i tests it
            continue
        live = arcs.revise(i, j)
        if live is None:
            return []
        if len(live) == len(_lifted(domains, i)):
            continue
        domains[i] = live
        narrowed.add(i)
        if not live:
            return _no_pair_left(pos, i, pairs)
        for k in around[i]:
            if k != j and (k, i) not in queued:
                queued.add((k, i))
                queue.append((k, i))
    return _write_back(pos, sorted(narrowed), pairs)


def _lifted(domains: list[tuple[int, ...] | None], rid: int) -> tuple[int, ...]:
    domain = domains[rid]
    assert domain is not None, f"region {rid + 1} is not lifted"
    return domain


def _no_pair_left(pos: Position, rid: int, found_by: Rule[Position]) -> Violation:
    return found_by.violation(
        cells=bits(pos.board.region_mask[rid]), regions=(rid,), region=rid + 1
    )


def _write_back(
    pos: Position,
    regions: list[int],
    found_by: Rule[Position],
    explain: Callable[[Position, int, int, int], int] | None = None,
) -> list[Step]:
    """Steps for the cells that the remaining pairs of each region agree on, each citing
    the region and the marks `explain(pos, region, shade, clear)` names."""
    board = pos.board
    assert pos.domains is not None
    steps: list[Step] = []
    for rid in regions:
        live = _lifted(pos.domains, rid)
        every, some = -1, 0
        for p in live:
            every &= p
            some |= p
        area = board.region_mask[rid]
        shade = every & ~pos.shaded
        clear = area & ~some & ~pos.empty
        if not (shade or clear):
            continue
        steps.append(
            found_by.step(
                shaded=shade,
                empty=clear,
                cells=bits(area | (explain(pos, rid, shade, clear) if explain else 0)),
                regions=(rid,),
                region=rid + 1,
                ways=_all_ways(len(live)),
                decide=_decision(board, shade, clear),
            )
        )
    return steps


PAIRS: tuple[Rule[Position], ...] = (*LOCAL, region_options, pairs)
"""The rules up to the `pairs` rung, which `probe` runs on each assumption."""


def partner_candidates(pos: Position) -> int:
    """Undecided cells next to a shaded cell that has no partner yet: where probing pays."""
    geo = pos.board.geo
    single = pos.shaded & ~geo.spread(pos.shaded)
    return geo.spread(single) & pos.unknown


def refutation(
    pos: Position, cell: int, shade: bool, rules: tuple[Rule[Position], ...]
) -> tuple[Violation | None, list[Step]]:
    """The contradiction `rules` reach if `cell` is assumed shaded (or empty), if any,
    with the steps that lead to it (`core.ladder.needed_steps`)."""
    return _refuted(pos, cell, run_ladder(rules, _assumed(pos, cell, shade), pos.deadline))


def _refuted(
    pos: Position, cell: int, run: LadderRun[Position]
) -> tuple[Violation | None, list[Step]]:
    """`refutation` of the trial on `cell` that ran as `run`."""
    if run.contradiction is None:
        return None, []
    return run.contradiction, needed_steps(
        run.steps, run.contradiction, 1 << cell, pos.board.region_mask.__getitem__
    )


def _assumed(pos: Position, cell: int, shade: bool) -> Position:
    """A copy of `pos` with `cell` assumed shaded (or empty): a probe's trial."""
    trial = pos.copy()
    bit = 1 << cell
    trial.apply(Step(probe.id, "assumption", shaded=bit if shade else 0, empty=0 if shade else bit))
    return trial


def _probe_step(pos: Position, cell: int, shade: bool, chain: list[Step], why: Violation) -> Step:
    """The Probe step that assuming `cell` shaded (or empty) leads through `chain` to the
    contradiction `why`: the cell is the other way; it cites the whole chain."""
    was, now = ("shaded", "empty") if shade else ("empty", "shaded")
    parts = chain_parts(chain, why, 1 << cell, pos.board.region_mask.__getitem__)
    then = "".join(f"then {each.text}; " for each in chain_said(PAIRS, pos, parts))
    cited, regions = parts_cited(cell, parts, why)
    return probe.step(
        shaded=0 if shade else 1 << cell,
        empty=1 << cell if shade else 0,
        cells=cited,
        regions=regions,
        cell=pos.board.name(cell),
        was=was,
        chain=then,
        why=("and then " if then else "then ") + why.text,
        now=now,
    )


PROBE_EXPLAIN_WORK = (4000, 8000)
"""How much `_explain_probe` spends at most on the Region pairs steps of one chain, counted
as `EXPLAIN_WORK` is (each step at most that): the first, and the next when what it cites
is found not to imply the step (`_without_idle`'s `short`); the steps it does not reach
cite what they cite in a solve."""


def _explain_probe(pos: Position, step: Step) -> Step:
    """A Probe step citing what its chain rests on: the trial run again, each Region pairs
    step the chain needs and a dead end of Region pairs explained at the marks it was
    taken from (`_pairs_support`), the chain then walked back again over what those cite,
    until no needed step is left unexplained, within the first of `PROBE_EXPLAIN_WORK`;
    when the cells that cites are found not to imply the step, again within the next.
    The step as it is when the trial finds no contradiction (it always does, as arc
    consistency's fixpoint is the same)."""
    cell = low_bit(step.shaded | step.empty)
    shade = bool(step.empty)
    bit = 1 << cell
    region = pos.board.region_mask.__getitem__
    trial = _assumed(pos, cell, shade)
    shaded, empty = trial.shaded, trial.empty
    run = run_ladder(PAIRS, trial, pos.deadline)
    if run.contradiction is None:
        return step
    before = []
    for each in run.steps:
        before.append((shaded, empty))
        shaded |= each.shaded
        empty |= each.empty

    def at(marks: tuple[int, int]) -> Position:
        there = pos.copy()
        there.shaded, there.empty = marks
        return there

    why = run.contradiction
    dead_end = [0]  # the work its explanation took, which each pass below counts first
    if why.rule in (pairs.id, region_options.id) and len(why.regions) == 1:
        why = _explain_dead_end(at((shaded, empty)), why, dead_end)

    def explained(work: int) -> Step:
        steps = list(run.steps)
        spent = [dead_end[0]]
        done: set[int] = set()
        while True:
            needed = {id(each) for each in needed_steps(steps, why, bit, region)}
            todo = [
                i
                for i, each in enumerate(steps)
                if id(each) in needed and each.rule == pairs.id and i not in done
            ][::-1]  # nearest the contradiction first, while the work lasts
            if not todo:
                break
            for i in todo:
                # found at the marks before its batch: try back to the first of the run of
                # Region pairs steps it belongs to (later marks of a trial may contradict)
                first = i
                while first > 0 and steps[first - 1].rule == pairs.id:
                    first -= 1
                found = steps[i]
                for start in range(i, first - 1, -1):
                    left = min(EXPLAIN_WORK, work - spent[0])
                    if left <= 0:
                        break
                    steps[i] = _pairs_cited(at(before[start]), found, spent, left)
                    if steps[i] is not found:
                        break
                done.add(i)
        return _probe_step(pos, cell, shade, needed_steps(steps, why, bit, region), why)

    for work in PROBE_EXPLAIN_WORK:
        short = [False]
        cited = _without_idle(pos, explained(work), step, short)
        if not short[0]:
            break
    return cited


@rule(
    "probe",
    "Probe",
    "if {cell} were {was}, {chain}{why}; so {cell} is {now}",
    explain=_explain_probe,
)
def probe(pos: Position) -> Found:
    """Assume an undecided cell shaded (then empty) and run the `pairs` ladder; a value
    that leads to a contradiction is wrong, so the cell takes the other. Cells next to a
    shaded cell still looking for its partner are tried first. A trial that found none
    at an earlier probe of this position runs again only if it could now end otherwise
    (`position.Trials`)."""
    frontier = partner_candidates(pos)
    known = pos.solution
    cells = [*bits(frontier), *bits(pos.unknown & ~frontier)]
    if pos.prefer is not None:
        cells.sort(key=pos.prefer)  # a hint's order; the usual one among cells alike
    if pos.trials is None:
        pos.trials = Trials(pos.board)
    trials = pos.trials
    trials.look(pos)
    for cell in cells:
        for shade in (True, False):
            if known is not None and bool(known >> cell & 1) == shade:
                continue  # the solution's own way: nothing refutes it
            if trials.idle(pos, cell, shade):
                continue  # no contradiction before, and it would end as it did
            if pos.deadline.expired():
                return []
            run = run_ladder(PAIRS, _assumed(pos, cell, shade), pos.deadline)
            why, steps = _refuted(pos, cell, run)
            if why is not None:
                return [_probe_step(pos, cell, shade, steps, why)]
            if not run.timed_out:
                trials.keep(cell, shade, run.position)
    return []


LADDER: Ladder[Position] = Ladder(
    (
        Rung("local", "easy", "region quotas and a cell's four neighbours", LOCAL),
        Rung(
            "pairs",
            "medium",
            "regions as variables over their pairs, arc consistent with their neighbours",
            (region_options, pairs),
        ),
        Rung(
            "probe", "hard", "assume a cell one way and run pairs; a dead end decides it", (probe,)
        ),
    ),
    beyond="expert",
)
"""The Norinori ladder: rung, grade, what it adds, its rules (each with id, title, text).
A board that `probe` cannot finish needs search: it is graded `expert`."""


def _all_ways(n: int) -> str:
    """How a sentence names `n` ways: "the only way", "both ways", "all 5 ways"."""
    return "the only way" if n == 1 else "both ways" if n == 2 else f"all {n} ways"
