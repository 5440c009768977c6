"""The `local` rung kept incrementally: one byte per cell, and a queue of the cells that
changed, so closing after a few new marks costs in proportion to what they touch, not to
the board (`rules.close_marks` reads whole-board masks every round: about 90 µs a close
on a 100×100 board, however little changed).

`Marks` holds one closed position; `extend` adds marks and closes again, writing each cell
it decides to a log, and `undo` takes a log back. The fixpoint is the one `close_marks`
reaches from the same marks (a test holds the two to it), because each rule below is one
of the six `local` rules, looked at again only where a change can have made it apply:

- a cell that becomes shaded: its region's quota; the cell and each shaded neighbour may
  now have two shaded neighbours; with one, the domino is complete and its other
  neighbours are empty; an undecided neighbour touching two shaded cells is empty; a
  cell without a partner with one undecided neighbour left shades it, with none dies.
- a cell that becomes empty: its region's quota; a shaded neighbour without a partner
  may have lost its last candidates; an undecided neighbour may have no neighbour left
  that could partner it.

Glossary: `state[cell]` is UNKNOWN, SHADED or EMPTY; a log is the cells decided, in order.
"""

from __future__ import annotations

from gridproof.genres.norinori.position import Board

UNKNOWN, SHADED, EMPTY = 0, 1, 2

_SPREAD_SHADED = bytes.maketrans(b"01", b"\x00\x01")
_SPREAD_EMPTY = bytes.maketrans(b"01", b"\x00\x02")


def cell_states(size: int, shaded: int, empty: int) -> bytearray:
    """One byte per cell for the masks (in time linear in the board, at C speed)."""
    s = format(shaded, "b")[::-1].ljust(size, "0").encode().translate(_SPREAD_SHADED)
    e = format(empty, "b")[::-1].ljust(size, "0").encode().translate(_SPREAD_EMPTY)
    both = int.from_bytes(s, "little") | int.from_bytes(e, "little")
    return bytearray(both.to_bytes(size, "little"))


class Marks:
    """A closed position as a byte per cell, extended and taken back by logs."""

    __slots__ = ("board", "state")

    def __init__(self, board: Board, shaded: int, empty: int) -> None:
        self.board = board
        self.state = cell_states(board.geo.size, shaded, empty)

    def undo(self, log: list[int]) -> None:
        state = self.state
        for cell in log:
            state[cell] = UNKNOWN

    def settle(self, found: set[int]) -> list[int]:
        """Mark the cells of a log read earlier (`cell << 2 | state` each), as `extend`
        decided them from the same cells: the position they leave is closed already.
        Returns their log."""
        state = self.state
        log = []
        for code in found:
            cell = code >> 2
            state[cell] = code & 3
            log.append(cell)
        return log

    def extend(self, shade: list[int], clear: list[int]) -> list[int] | None:
        """Mark the cells of `shade` shaded and those of `clear` empty, and close: the log
        of every cell decided, or None on a contradiction (the state is then as before)."""
        log: list[int] = []
        if self._close(log, shade, clear):
            return log
        self.undo(log)
        return None

    def _close(self, log: list[int], shade: list[int], clear: list[int]) -> bool:
        """Decide the cells given, then run the cell rules from a queue of the cells
        decided; the quotas of the regions they lie in are looked at once the queue is
        empty (each region once), and what they decide goes back on the queue. False on a
        contradiction."""
        state = self.state
        nbrs = self.board.cell_neighbours
        region_of = self.board.region_of
        region_cells = self.board.region_cells
        queue: list[int] = []
        regions: set[int] = set()
        while True:
            for cell in shade:
                v = state[cell]
                if v != SHADED:
                    if v:
                        return False
                    state[cell] = SHADED
                    log.append(cell)
                    queue.append(cell)
            for cell in clear:
                v = state[cell]
                if v != EMPTY:
                    if v:
                        return False
                    state[cell] = EMPTY
                    log.append(cell)
                    queue.append(cell)
            shade, clear = [], []
            while queue and not shade and not clear:
                cell = queue.pop()
                regions.add(region_of[cell])
                around = nbrs[cell]
                if state[cell] == SHADED:
                    mate = -1
                    for n in around:
                        if state[n] == SHADED:
                            if mate >= 0:
                                return False  # two shaded neighbours
                            mate = n
                    if mate >= 0:
                        for n in nbrs[mate]:
                            if n != cell and state[n] == SHADED:
                                return False  # the mate now has two shaded neighbours
                        # domino-complete: the other neighbours of both are empty
                        clear = [n for n in around if not state[n]]
                        clear += [n for n in nbrs[mate] if not state[n]]
                        continue
                    free = -1
                    for n in around:
                        if not state[n]:
                            # two-neighbours: an undecided neighbour touching two shaded
                            for m in nbrs[n]:
                                if m != cell and state[m] == SHADED:
                                    clear.append(n)
                                    break
                            free = n if free == -1 else -2
                    if free == -1:
                        return False  # only-partner: no candidate left
                    if free >= 0:
                        shade.append(free)  # only-partner: one candidate left
                    continue
                for n in around:
                    v = state[n]
                    if v == SHADED:
                        free = -1
                        for m in nbrs[n]:
                            v = state[m]
                            if v == SHADED:
                                break  # it has its partner
                            if not v:
                                free = m if free == -1 else -2
                        else:
                            if free == -1:
                                return False  # only-partner: no candidate left
                            if free >= 0:
                                shade.append(free)
                    elif not v:
                        for m in nbrs[n]:
                            if state[m] != EMPTY:
                                break
                        else:
                            clear.append(n)  # no-partner
            if shade or clear:
                continue
            if not regions:
                return True
            for rid in regions:  # region-full / region-needs
                count = room = 0
                cells = region_cells[rid]
                for c in cells:
                    v = state[c]
                    if v == SHADED:
                        count += 1
                        room += 1
                    elif not v:
                        room += 1
                if count > 2 or room < 2:
                    return False
                if count == 2:
                    if room > 2:
                        clear += [c for c in cells if not state[c]]
                elif room == 2:
                    shade += [c for c in cells if not state[c]]
            regions.clear()

    def ways_at_most(self, rid: int) -> int:
        """`solve.likely_ways` read off the cell states: pairs of the region's undecided
        cells, or those cells when it holds a shaded cell already."""
        state = self.state
        room, have = 0, False
        for cell in self.board.region_cells[rid]:
            v = state[cell]
            if not v:
                room += 1
            elif v == SHADED:
                have = True
        return room if have else room * (room - 1) // 2

    def regions_near(self, cells: list[int]) -> tuple[set[int], set[int]]:
        """The regions whose ways a change of `cells` can have narrowed, with an undecided
        cell left: those within one step of a cell, and the others within two."""
        nbrs, region_of, state = self.board.cell_neighbours, self.board.region_of, self.state
        one = set(cells)
        for cell in cells:
            one.update(nbrs[cell])
        two: set[int] = set()
        for cell in one:
            two.update(nbrs[cell])
        near = {region_of[cell] for cell in one}
        further = {region_of[cell] for cell in two}.difference(near)
        cells_of = self.board.region_cells
        return (
            {rid for rid in near if any(not state[c] for c in cells_of[rid])},
            {rid for rid in further if any(not state[c] for c in cells_of[rid])},
        )

    def ways(self, rid: int) -> list[tuple[list[int], list[int]]]:
        """`solve.region_ways` read off the cell states: the ways region `rid` could still
        complete its pair, as (cells to shade, cells to clear), in the same order."""
        state = self.state
        nbrs = self.board.cell_neighbours
        area = self.board.region_cells[rid]
        inside = set(area)
        room = [c for c in area if not state[c]]
        have = [c for c in area if state[c] == SHADED]

        def is_mate(cell: int) -> bool:  # a partner outside the region for a new cell
            if cell in inside or state[cell] == EMPTY:
                return False
            return all(state[n] != SHADED for n in nbrs[cell])

        if have:
            cell = have[-1]
            around = nbrs[cell]
            if any(state[n] == SHADED for n in around):
                ok = [c for c in room if c not in around and any(map(is_mate, nbrs[c]))]
            elif any(not state[n] and n not in inside for n in around):
                ok = [c for c in room if c in around or any(map(is_mate, nbrs[c]))]
            else:
                ok = [c for c in room if c in around]
            return [([c], [r for r in room if r != c]) for c in ok]
        outside = [{n for n in nbrs[c] if is_mate(n)} for c in room]
        ways = []
        for i, first in enumerate(room):
            for j in range(i + 1, len(room)):
                second = room[j]
                if second in nbrs[first] or (
                    outside[i].difference(nbrs[second]) and outside[j].difference(nbrs[first])
                ):
                    ways.append(([first, second], [c for c in room if c != first and c != second]))
        return ways
