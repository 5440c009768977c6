"""The learning search: the counter's search below the root, conflict-driven.

It assigns cells one at a time on a trail, propagates with the line solver (every line
to a fixpoint, as `engine.Propagator` does) and with the clauses it has learned, and when
a line cannot hold its clue it works out why: each cell a line solve decided is
explained, on demand, by the few known cells of that line that force it alone
(`explain`; an explanation found before serves again wherever its cells hold the same
values). From the explanations it learns a clause (the first unique implication point),
jumps back to the deepest decision the clause still needs, and the clause then forbids
that combination of cells everywhere else in the search.

Decisions may look ahead (`lookahead`): the most active open cells are probed both ways,
the cell whose two values decide the most is branched on, its less constrained value
first. A probe that fails sets its cell the other way at once; why (the cells its failure
leads back to) is worked out only if a conflict analysis asks (`Failed`). Without look-
ahead the most active open cell is branched on, its value taken from the longest trail
without a conflict since the last restart where that trail had it (target phases), else
its last value. The first decision takes the root probing's best cell, which has just
looked ahead at every cell. Search restarts on the Luby sequence, keeping what it
learned, and can be paused between steps and resumed (`run`), which the counter uses to
take turns with the SAT stretch. A solution is
recorded and blocked by a clause over the decisions that led to it (every other cell
followed from them), so the same loop counts to any limit; when the blocked search runs
out of decisions the count is complete. A solution brings along its images under the
clues' symmetries (`symmetric.py`), and pairs of cells can be tied to agree, which makes
it the search of the symmetric solutions only.

Glossary: a `lit` is `cell * 2 + value` (value 1: shaded), true when the cell holds that
value; `level` is the number of decisions on the trail when a cell was decided; a reason
is None (a decision, or a fact of the root), a learned clause (its first lit is the one
it implied), `(line, filled, empty)`: the line's state when its solve decided the cell,
or a `Failed` probe of the other value.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Sequence
from typing import Any

from gridproof.core.deadline import Deadline
from gridproof.genres.nonogram.engine import Board, Grid
from gridproof.genres.nonogram.explain import failed, forced
from gridproof.genres.nonogram.symmetric import CellMap, with_images

Clause = list[int]
LineReason = tuple[int, int, int]


class Failed:
    """The reason of a cell set because a probe of its other value failed: the probe's
    conflict and the cells it had decided, with their values and reasons. The cells that
    force it (the earlier cells the failed probe's implications lead back to) are worked
    out only when a conflict analysis asks for them, which most never do."""

    __slots__ = ("cells", "conflict", "probe", "steps")

    def __init__(
        self, probe: int, conflict: Clause | LineReason, steps: dict[int, tuple[int, Any]]
    ) -> None:
        self.probe = probe
        self.conflict = conflict
        self.steps = steps
        """Per cell the probe decided: its value and its reason (a clause's other cells, or
        a line reason)."""
        self.cells: list[int] | None = None


Reason = Clause | LineReason | Failed | None

_MISS = (-1, -1)
LOOKAHEAD = 16
"""Open cells probed both ways before each decision (the most active first)."""
RESTART_UNIT = 128
"""Conflicts per unit of the Luby restart sequence."""
REDUCE_FIRST = 2000
REDUCE_STEP = 500
"""Conflicts before the first clean-up of learned clauses, and the growth of the interval."""
KEEP_LBD = 3
"""Learned clauses spanning at most this many decision levels are always kept."""
DECAY = 0.95
MINIMISE = 0
"""How learned clauses are minimised: 0 not at all, 1 by each cell's own reason, 2
recursively (MiniSat)."""
EXPLAIN_MEMO = 1 << 16
WINDOWS = 4
"""Explanations kept per line, cell and value for reuse (the latest first): a search
meets the same deduction again and again, from other states of the same line."""


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


class Learner:
    """One count's conflict-driven search from a propagated root grid."""

    def __init__(
        self,
        board: Board,
        root: Grid,
        deadline: Deadline,
        scores: dict[int, int] | None = None,
        phases: dict[int, int] | None = None,
        *,
        lookahead: int | None = None,
        restart_unit: int | None = None,
        reduce_first: int | None = None,
        reduce_step: int | None = None,
        images: Sequence[CellMap] = (),
        ties: Sequence[tuple[int, int]] = (),
        reuse: bool = False,
        defer: bool = False,
    ) -> None:
        """Each solution found brings its `images` (the clues' symmetries, as
        `symmetric.clue_symmetries` gives them) along. With `ties` the search is of the
        solutions in which each pair of cells agree: what it finds is a solution, but its
        end does not finish a count. The tuning arguments default to the module's
        constants. With `reuse`, explanations are reused (`_explain`); with `defer`, a
        failed look-ahead probe sets its cell with a `Failed` reason rather than being
        analysed at once. Both change the search's path, so the counts that take turns
        with the SAT stretch or run under a work budget keep them off."""
        self.board = board
        self.deadline = deadline
        self.lookahead = LOOKAHEAD if lookahead is None else lookahead
        self.reuse, self.defer = reuse, defer
        self.restart_unit = RESTART_UNIT if restart_unit is None else restart_unit
        self.reduce_first = REDUCE_FIRST if reduce_first is None else reduce_first
        self.reduce_step = REDUCE_STEP if reduce_step is None else reduce_step
        w, h = board.width, board.height
        self.w, self.h = w, h
        self.n = n = w * h
        lines = board.line_count
        self.plans = [table.plan for table in board.tables]
        self.filled = [0] * lines
        self.empty = [0] * lines
        self.val = [-1] * n
        self.level = [0] * n
        self.reason: list[Reason] = [None] * n
        self.trail: list[int] = []
        self.trail_lim: list[int] = []
        self.qhead = 0
        self.queue: deque[int] = deque()
        self.queued = [False] * lines
        self.watches: list[list[Clause]] = [[] for _ in range(2 * n)]
        self.learnts: list[Clause] = []
        self.blocking: list[Clause] = []
        """The clauses that block the solutions found (never forgotten)."""
        self.kept: set[int] = set()
        self.lbd: dict[int, int] = {}
        self.activity = [0.0] * n
        self.bump_by = 1.0
        self.phase = [0] * n
        self.target: list[int] = []
        self.target_size = 0
        self.explained: dict[tuple[int, int, int, int], int] = {}
        self.windows: dict[int, list[tuple[int, int, int]]] = {}
        self.stride = 2 * max(w, h) + 2
        self.reused = 0
        self.solves = 0
        self.checks = 0
        self.conflicts = 0
        self.decisions = 0
        self.charged = 0
        self.solutions: list[int] = []
        self.finished = False
        self.restarts = 1
        self.restart_budget = self.restart_unit * luby(1)
        self.since = 0  # conflicts since the last restart
        self.reduce_at = self.reduce_first
        self.images = images
        self._load(root, scores or {}, phases or {})
        self._tie(ties)

    def _load(self, root: Grid, scores: dict[int, int], phases: dict[int, int]) -> None:
        """The root's cells as facts (already propagated: nothing queued), its probe
        scores as the first activities and its less constrained values as phases."""
        w = self.w
        for r in range(self.h):
            f, e = root.filled[r], root.empty[r]
            for c in range(w):
                if f >> c & 1:
                    self._assign(r * w + c, 1, None)
                elif e >> c & 1:
                    self._assign(r * w + c, 0, None)
        self.qhead = len(self.trail)
        self.queue.clear()
        self.queued = [False] * self.board.line_count
        top = max(scores.values(), default=1)
        for cell, score in scores.items():
            self.activity[cell] = score / top
        for cell, value in phases.items():
            self.phase[cell] = value

    def _tie(self, pairs: Sequence[tuple[int, int]]) -> None:
        """Each pair of cells must agree: two clauses each, kept like the blocking ones. A
        pair the root already decides apart leaves nothing to search."""
        val = self.val
        for a, b in pairs:
            if val[a] >= 0 and val[b] >= 0:
                if val[a] != val[b]:
                    self.finished = True
                continue
            if val[a] >= 0 or val[b] >= 0:  # the other follows, as a fact of this search
                known, other = (a, b) if val[a] >= 0 else (b, a)
                self._assign(other, val[known], None)
                continue
            for clause in ([a * 2, b * 2 + 1], [a * 2 + 1, b * 2]):
                self.watches[clause[0]].append(clause)
                self.watches[clause[1]].append(clause)
                self.kept.add(id(clause))
                self.blocking.append(clause)

    @property
    def work(self) -> int:
        """Line solves and explanation checks so far: what the deadline is charged."""
        return self.solves + self.checks

    def _expired(self) -> bool:
        """Charge the work done since the last call, and whether the deadline expired."""
        work = self.solves + self.checks
        self.deadline.charge(work - self.charged)
        self.charged = work
        return self.deadline.expired()

    # ----- the trail -----
    def _assign(self, cell: int, value: int, reason: Reason) -> None:
        w, h = self.w, self.h
        self.val[cell] = value
        self.level[cell] = len(self.trail_lim)
        self.reason[cell] = reason
        self.trail.append(cell * 2 + value)
        r, c = divmod(cell, w)
        if value:
            self.filled[r] |= 1 << c
            self.filled[h + c] |= 1 << r
        else:
            self.empty[r] |= 1 << c
            self.empty[h + c] |= 1 << r
        queued = self.queued
        if not queued[r]:
            queued[r] = True
            self.queue.append(r)
        if not queued[h + c]:
            queued[h + c] = True
            self.queue.append(h + c)

    def _backjump(self, level: int, keep_phases: bool = True) -> None:
        """Undo every decision above `level`; each cell undone keeps its value as the one
        to try first (not after a probe, whose values say nothing about solutions)."""
        if len(self.trail_lim) <= level:
            return
        w, h = self.w, self.h
        stop = self.trail_lim[level]
        trail, val, filled, empty, phase = self.trail, self.val, self.filled, self.empty, self.phase
        for i in range(len(trail) - 1, stop - 1, -1):
            lit = trail[i]
            cell = lit >> 1
            if keep_phases:
                phase[cell] = lit & 1
            val[cell] = -1
            r, c = divmod(cell, w)
            if lit & 1:
                filled[r] &= ~(1 << c)
                filled[h + c] &= ~(1 << r)
            else:
                empty[r] &= ~(1 << c)
                empty[h + c] &= ~(1 << r)
        del trail[stop:]
        del self.trail_lim[level:]
        self.qhead = stop
        for line in self.queue:
            self.queued[line] = False
        self.queue.clear()

    def _decide(self, lit: int) -> None:
        self.trail_lim.append(len(self.trail))
        self._assign(lit >> 1, lit & 1, None)

    # ----- propagation -----
    def _propagate(self) -> Clause | LineReason | None:
        """Clauses and lines to a fixpoint; the conflict (a clause whose lits are all
        false, or a line's state that has no arrangement), or None. Stops early, without
        a conflict, when the deadline expires."""
        trail, val, watches = self.trail, self.val, self.watches
        board = self.board
        w, h = self.w, self.h
        tables, memos, lengths = board.tables, board.memos, board.lengths
        filled, empty, queue, queued = self.filled, self.empty, self.queue, self.queued
        assign = self._assign
        while True:
            while self.qhead < len(trail):
                false_lit = trail[self.qhead] ^ 1
                self.qhead += 1
                conflict = self._watch(false_lit, watches[false_lit], val)
                if conflict is not None:
                    return conflict
            if not queue:
                return None
            line = queue.popleft()
            queued[line] = False
            f, e = filled[line], empty[line]
            self.solves += 1
            found = memos[line].get((f << lengths[line]) | e, _MISS)
            if found is _MISS:
                found = tables[line].settle(f, e)
            if found is None:
                return (line, f, e)
            nf, ne = found
            if nf == f and ne == e:
                continue
            reason = (line, f, e)
            queued[line] = True  # its own cells need not queue it again
            if line < h:
                base = line * w
                for new, value in ((nf ^ f, 1), (ne ^ e, 0)):
                    while new:
                        low = new & -new
                        assign(base + low.bit_length() - 1, value, reason)
                        new ^= low
            else:
                col = line - h
                for new, value in ((nf ^ f, 1), (ne ^ e, 0)):
                    while new:
                        low = new & -new
                        assign((low.bit_length() - 1) * w + col, value, reason)
                        new ^= low
            queued[line] = False
            if self.solves & 255 == 0 and self._expired():
                return None

    def _watch(self, false_lit: int, ws: list[Clause], val: list[int]) -> Clause | None:
        """Visit the clauses watching `false_lit`, which just became false."""
        i = j = 0
        end = len(ws)
        while i < end:
            clause = ws[i]
            i += 1
            if clause[0] == false_lit:
                clause[0], clause[1] = clause[1], false_lit
            first = clause[0]
            first_val = val[first >> 1]
            if first_val == first & 1:  # satisfied by the other watch
                ws[j] = clause
                j += 1
                continue
            for k in range(2, len(clause)):
                other = clause[k]
                if val[other >> 1] != (other & 1) ^ 1:  # not false: watch it instead
                    clause[1], clause[k] = other, false_lit
                    self.watches[other].append(clause)
                    break
            else:
                ws[j] = clause
                j += 1
                if first_val < 0:
                    self._assign(first >> 1, first & 1, clause)
                else:
                    while i < end:
                        ws[j] = ws[i]
                        j += 1
                        i += 1
                    del ws[j:]
                    return clause
        del ws[j:]
        return None

    # ----- explanations -----
    def _line_cells(self, line: int, mask: int) -> list[int]:
        """The cells of `line` at the positions in `mask`."""
        w, h = self.w, self.h
        out = []
        while mask:
            low = mask & -mask
            pos = low.bit_length() - 1
            mask ^= low
            out.append(line * w + pos if line < h else pos * w + line - h)
        return out

    def _because(self, cell: int) -> list[int]:
        """The cells whose values forced `cell` (empty for a decision or a root fact)."""
        reason = self.reason[cell]
        if reason is None:
            return []
        if isinstance(reason, list):
            return [lit >> 1 for lit in reason[1:]]
        if isinstance(reason, Failed):
            return self._failed_cells(reason)
        return self._forcing(cell, reason, self.val[cell])

    def _forcing(self, cell: int, reason: LineReason, value: int) -> list[int]:
        """The cells of a line whose values forced `cell` to `value`."""
        line, f, e = reason
        pos = cell % self.w if line < self.h else cell // self.w
        return self._line_cells(line, self._explain(line, f, e, pos, value))

    def _failed_cells(self, failed: Failed) -> list[int]:
        """The cells, decided before the probe, that its conflict leads back to."""
        if failed.cells is None:
            steps, level = failed.steps, self.level
            seen = {failed.probe >> 1}
            out = []
            stack = self._conflict_cells(failed.conflict)
            while stack:
                cell = stack.pop()
                if cell in seen:
                    continue
                seen.add(cell)
                step = steps.get(cell)
                if step is None:
                    if level[cell] > 0:
                        out.append(cell)
                    continue
                value, reason = step
                if isinstance(reason, list):
                    stack.extend(reason)
                else:
                    stack.extend(self._forcing(cell, reason, value))
            failed.cells = out
        return failed.cells

    def _explain(self, line: int, f: int, e: int, pos: int, value: int) -> int:
        """The known cells (a mask of positions) of the line in state (f, e) that alone
        force `pos` to `value` (`pos` -1: leave the line no arrangement). An explanation
        found before for the same line, cell and value serves again whenever its cells
        hold the same values now (line solving is monotone: they still force it)."""
        key = (line, f, e, pos * 2 + value)
        found = self.explained.get(key)
        if found is not None:
            return found
        where = line * self.stride + pos * 2 + value + 2
        earlier = self.windows.get(where) if self.reuse else None
        if earlier is not None:
            for mask, mf, me in earlier:
                if f & mask == mf and e & mask == me:
                    self.reused += 1
                    return mask
        plan = self.plans[line]
        # about as many line passes as the gallop and the bisection take
        self.checks += 1 + (f | e).bit_count().bit_length()
        found = failed(plan, f, e) if pos < 0 else forced(plan, f, e, pos, bool(value))
        if len(self.explained) >= EXPLAIN_MEMO:
            self.explained.clear()
        self.explained[key] = found
        if self.reuse:
            entry = (found, f & found, e & found)
            if earlier is None:
                self.windows[where] = [entry]
            else:
                earlier.insert(0, entry)
                del earlier[WINDOWS:]
        return found

    def _conflict_cells(self, conflict: Clause | LineReason) -> list[int]:
        if isinstance(conflict, list):
            return [lit >> 1 for lit in conflict]
        line, f, e = conflict
        return self._line_cells(line, self._explain(line, f, e, -1, 0))

    # ----- learning -----
    def _analyse(self, conflict: Clause | LineReason) -> tuple[Clause, int]:
        """The learned clause (first unique implication point; its first lit is the one
        it asserts) and the level to jump back to."""
        level, trail, val = self.level, self.trail, self.val
        current = len(self.trail_lim)
        seen: set[int] = set()
        lower: list[int] = []
        pending = 0
        cells = self._conflict_cells(conflict)
        index = len(trail) - 1
        while True:
            for cell in cells:
                if cell not in seen and level[cell] > 0:
                    seen.add(cell)
                    self._bump(cell)
                    if level[cell] >= current:
                        pending += 1
                    else:
                        lower.append(cell)
            assert pending > 0, "a conflict with no cell of the current level"
            while trail[index] >> 1 not in seen:
                index -= 1
            uip = trail[index] >> 1
            index -= 1
            pending -= 1
            if pending <= 0:
                break
            cells = self._because(uip)
        lower = self._minimise(lower, seen)
        clause = [uip * 2 + 1 - val[uip]] + [c * 2 + 1 - val[c] for c in lower]
        if len(clause) == 1:
            return clause, 0
        deepest = max(range(1, len(clause)), key=lambda i: level[clause[i] >> 1])
        clause[1], clause[deepest] = clause[deepest], clause[1]
        return clause, level[clause[1] >> 1]

    def _minimise(self, lower: list[int], seen: set[int]) -> list[int]:
        """Drop the cells that cells of the clause (or root facts) force, directly or
        through other forced cells (MiniSat's recursive minimisation)."""
        if MINIMISE < 2:
            return [c for c in lower if not MINIMISE or not self._implied(c, seen)]
        level, reason = self.level, self.reason
        levels = 0
        for cell in lower:
            levels |= 1 << (level[cell] & 63)
        out = []
        for cell in lower:
            if reason[cell] is None or not self._redundant(cell, seen, levels):
                out.append(cell)
        return out

    def _implied(self, cell: int, seen: set[int]) -> bool:
        if self.reason[cell] is None:
            return False
        level = self.level
        return all(other in seen or not level[other] for other in self._because(cell))

    def _redundant(self, cell: int, seen: set[int], levels: int) -> bool:
        """Whether `cell` follows from cells in `seen` (which it grows by the cells found
        to follow too); `levels` masks the levels of the clause's cells."""
        level, reason = self.level, self.reason
        stack = [cell]
        added: list[int] = []
        while stack:
            for other in self._because(stack.pop()):
                if other in seen or not level[other]:
                    continue
                if reason[other] is None or not levels >> (level[other] & 63) & 1:
                    for undo in added:
                        seen.discard(undo)
                    return False
                seen.add(other)
                added.append(other)
                stack.append(other)
        return True

    def _bump(self, cell: int) -> None:
        activity = self.activity
        activity[cell] += self.bump_by
        if activity[cell] > 1e100:
            for i in range(self.n):
                activity[i] *= 1e-100
            self.bump_by *= 1e-100

    def _learn(self, clause: Clause, back: int, keep: bool = False) -> None:
        """Jump back and assert the clause's first lit; the clause may be forgotten later
        unless `keep`."""
        self._backjump(back)
        lit = clause[0]
        if len(clause) == 1:
            self._assign(lit >> 1, lit & 1, None)
        else:
            self.watches[clause[0]].append(clause)
            self.watches[clause[1]].append(clause)
            if keep:
                self.kept.add(id(clause))
                self.blocking.append(clause)
            else:
                self.learnts.append(clause)
                self.lbd[id(clause)] = len({self.level[x >> 1] for x in clause})
            self._assign(lit >> 1, lit & 1, clause)
        self.bump_by /= DECAY

    def _aim(self) -> None:
        """Keep the values of the longest trail without a conflict since the last restart
        (the trail below the current decision) as the values to decide first."""
        size = self.trail_lim[-1]
        if size > self.target_size:
            self.target_size = size
            target = [-1] * self.n
            for lit in self.trail[:size]:
                target[lit >> 1] = lit & 1
            self.target = target

    def _conflict(self, conflict: Clause | LineReason) -> bool:
        """Learn from a conflict; False when it holds at the root (no solution left)."""
        self.conflicts += 1
        if not self.trail_lim:
            return False
        if self.lookahead <= 0:
            self._aim()
        clause, back = self._analyse(conflict)
        self._learn(clause, back)
        return True

    def _reduce(self) -> None:
        """Forget the half of the learned clauses that span the most levels, except short
        ones and those that are the reason of a current cell."""
        locked = {id(r) for r in self.reason if isinstance(r, list)}
        ranked = sorted(self.learnts, key=lambda c: (self.lbd[id(c)], len(c)))
        keep = ranked[: len(ranked) // 2]
        keep += [
            c for c in ranked[len(ranked) // 2 :] if self.lbd[id(c)] <= KEEP_LBD or id(c) in locked
        ]
        kept = {id(c) for c in keep} | self.kept
        for c in self.learnts:
            if id(c) not in kept:
                del self.lbd[id(c)]
        self.learnts = keep
        self.watches = [[c for c in ws if id(c) in kept] for ws in self.watches]

    # ----- decisions -----
    def _choose(self) -> int:
        """The lit to decide next; -1 when every cell is decided, -2 after a conflict
        (learned from; propagate again), -3 when a conflict holds at the root (no solution
        left), -4 when failed probes set cells and the chosen one with them (choose
        again)."""
        val, activity = self.val, self.activity
        open_cells = [c for c in range(self.n) if val[c] < 0]
        if not open_cells:
            return -1
        if self.lookahead <= 0 or (not self.conflicts and not self.trail_lim):
            # the first decision: root probing has just looked ahead at every cell
            cell = max(open_cells, key=activity.__getitem__)
            if self.target and self.target[cell] >= 0:
                return cell * 2 + self.target[cell]
            return cell * 2 + self.phase[cell]
        best, best_score = -1, -1
        trail = self.trail
        for cell in heapq.nlargest(self.lookahead, open_cells, key=activity.__getitem__):
            counts = []
            for value in (1, 0):
                if val[cell] >= 0:
                    break  # decided by what an earlier probe's failure implied
                start = len(trail)
                self._decide(cell * 2 + value)
                conflict = self._propagate()
                if conflict is None:
                    counts.append(len(trail) - start)
                    self._backjump(len(self.trail_lim) - 1, keep_phases=False)
                    continue
                if not self.defer:
                    return -2 if self._conflict(conflict) else -3
                if not self._refute(cell * 2 + value, conflict, start):
                    return -3
                conflict = self._propagate()
                if conflict is not None:
                    return -2 if self._conflict(conflict) else -3
            if len(counts) < 2:
                continue
            score = (counts[0] + 1) * (counts[1] + 1)
            if score > best_score:
                best_score = score
                best = cell * 2 + (1 if counts[0] < counts[1] else 0)
        if best < 0 or val[best >> 1] >= 0:
            return -4
        return best

    def _refute(self, probe: int, conflict: Clause | LineReason, start: int) -> bool:
        """A probe failed: take it back and set its cell the other way, for a reason
        worked out only if an analysis asks (`Failed`); False when the probe was at the
        root and its conflict holds there (no solution left)."""
        if len(self.trail_lim) == 1:
            # at the root: the other value is a fact (a conflict with no probe cell in it
            # would mean no solution; the propagation after it finds that)
            self._backjump(0, keep_phases=False)
            self._assign(probe >> 1, (probe & 1) ^ 1, None)
            return True
        trail, reason, val = self.trail, self.reason, self.val
        steps: dict[int, tuple[int, Any]] = {}
        for i in range(start + 1, len(trail)):
            cell = trail[i] >> 1
            why = reason[cell]  # a clause or a line: a probe decides no other way
            if isinstance(why, list):  # its order may change later: keep its cells
                steps[cell] = (val[cell], [lit >> 1 for lit in why[1:]])
            else:
                steps[cell] = (val[cell], why)
        self._backjump(len(self.trail_lim) - 1, keep_phases=False)
        self._assign(probe >> 1, (probe & 1) ^ 1, Failed(probe, conflict, steps))
        return True

    # ----- the count -----
    def count(self, limit: int) -> tuple[list[int], bool]:
        """Up to `limit` solutions, and whether the search finished."""
        finished = self.run(limit)
        return self.solutions, finished

    def run(self, limit: int, pause: int | None = None) -> bool:
        """Search on (from where the last call stopped) until `limit` solutions or the end
        of the search (True); False when the deadline expires, or once `work` reaches
        `pause` (checked between steps, so a paused search goes on exactly as if it had
        not been). The solutions found so far are in `solutions`."""
        if not self.finished:
            self.finished = self._search(limit, pause)
        return self.finished

    def _search(self, limit: int, pause: int | None) -> bool:
        solutions = self.solutions
        while True:
            if pause is not None and self.solves + self.checks >= pause:
                return False
            conflict = self._propagate()
            if self._expired():
                return False
            if conflict is not None:
                if not self._conflict(conflict):
                    return True
                self.since += 1
                continue
            if self.since >= self.restart_budget:
                self.restarts += 1
                self.restart_budget = self.restart_unit * luby(self.restarts)
                self.since = 0
                self._backjump(0)
                self.target_size = 0
                if self.conflicts >= self.reduce_at:
                    step = self.reduce_step * self.restarts
                    self.reduce_at = self.conflicts + self.reduce_first + step
                    self._reduce()
                continue
            lit = self._choose()
            if lit == -3:
                return True
            if lit == -2:
                self.since += 1
                continue
            if lit == -4:  # probes that failed set their cells: propagated, choose again
                continue
            if lit >= 0:
                self.decisions += 1
                self._decide(lit)
                continue
            for shaded in with_images([self._shaded()], self.images):
                if shaded not in solutions:  # an image found before, now found itself
                    solutions.append(shaded)
            if len(solutions) >= limit or not self.trail_lim:
                return True
            self._block()

    def _shaded(self) -> int:
        out = 0
        for cell, value in enumerate(self.val):
            if value == 1:
                out |= 1 << cell
        return out

    def _block(self) -> None:
        """Forbid the solution just found: some decision must differ."""
        decisions = [self.trail[i] ^ 1 for i in reversed(self.trail_lim)]
        back = self.level[decisions[1] >> 1] if len(decisions) > 1 else 0
        self._learn(decisions, back, keep=True)
