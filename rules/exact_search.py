"""The exact slide search (IDA*) between two boards of distinct tiles, compiled when numba is there.

``rules.sliding.shortest_path`` calls it. The search is one function, written so that the
same source runs as plain Python (over lists) and, when numba is installed (it is a
dependency, so normally it is), as machine code (over int64 arrays). Compiled, a node
costs about 0.1 microseconds instead of about 5, which is what makes a 30-slide change
explainable, shortest, in a few milliseconds.
Set ``CALLER_NO_NUMBA=1`` in the environment to run the plain-Python version (the tests
check that both give the same paths); ``rules.compiled`` says how it is compiled and cached.

The heuristic is Manhattan distance plus linear conflicts, both admissible, so the first
path found at the final bound is a shortest one. Linear conflicts are looked up, not
computed: a row is coded as a base-(w+1) number whose digit at each cell is 1 + the goal
column of the tile there if the tile's goal row is this row, else 0 (columns alike); the
conflict of every possible code is tabulated once per line length (``conflict_table``),
and a slide changes three codes by plain arithmetic.

Children are tried in the order (change of Manhattan distance, source cell), tiles that
come closer first, so that the last iteration reaches the goal with little wasted work.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rules import compiled as _compiled

#: Whether the search runs compiled (``rules.compiled``).
COMPILED = _compiled.COMPILED

#: The longest path the search can hold (a bound beyond it counts as the budget running out).
MAX_DEPTH = 1024

# the counters array the search fills: expanded nodes, the bound being searched, the first bound
NODES, BOUND, LOWER = 0, 1, 2
# outcomes besides a path length
NO_PATH, GAVE_UP = -1, -2
# fields of one depth's record on the explicit stack
_HOLE, _PREV, _MD, _LC, _SLOT, _BEST, _X1, _X2, _A, _OLD1, _OLD2, _OLD3 = range(12)
_FIELDS = 12
_WAITING = 100  # added to a slot while the child it chose is being searched
_INF = 1 << 30


def line_conflict(order) -> int:
    """2 x (tiles to take out of a line so that the rest keep their goal order).

    ``order`` lists the goal positions, along the line, of the tiles that are in their goal
    line, in the order they stand: the linear-conflict term of that line.
    """
    best = 0
    lis = [1] * len(order)
    for i in range(len(order)):
        for j in range(i):
            if order[j] < order[i] and lis[j] + 1 > lis[i]:
                lis[i] = lis[j] + 1
        best = max(best, lis[i])
    return 2 * (len(order) - best)


@lru_cache(maxsize=None)
def conflict_table(length: int) -> tuple[int, ...]:
    """The linear conflict of every code of a line of ``length`` cells (digits base length+1, first cell lowest)."""
    base = length + 1
    out = []
    for code in range(base**length):
        digits = []
        for _ in range(length):
            code, d = divmod(code, base)
            if d:
                digits.append(d)
        out.append(line_conflict(digits))
    return tuple(out)


def _ida(b, gpos, tabs, work, stk, path, counters, w, h, budget, max_length):
    """IDA* from board ``b`` (tile ids, -1 for the hole; restored on return) to goal cells ``gpos``.

    Returns the length of the shortest path (its moves in ``path``), ``NO_PATH`` when none
    is at most ``max_length`` long (-1: no limit) or none exists, or ``GAVE_UP`` after
    ``budget`` expanded nodes. ``counters`` receives the nodes, the bound and the first
    bound. ``tabs`` are the shape's tables (``_shape_tables``), ``work`` and ``stk``
    scratch space. Depth-first with an explicit stack (no recursion: cheaper compiled).

    Lines are numbered rows first (0..h-1), then columns (h..h+w-1); ``code[line]`` is the
    line's code, ``ltab[toff[line] + code]`` its conflict, ``lpow[line * L + k]`` the weight
    of its k-th cell, ``val[t * (h+w) + line]`` tile t's digit in it.
    """
    dist, nbs, rows, cols, ltab, toff, lpow = tabs
    val, code = work
    n = h * w
    nl = h + w
    big = max(h, w)
    for t in range(n - 1):
        gr = gpos[t] // w
        gc = gpos[t] % w
        for r in range(h):
            val[t * nl + r] = gc + 1 if gr == r else 0
        for c in range(w):
            val[t * nl + h + c] = gr + 1 if gc == c else 0
    for x in range(nl):
        code[x] = 0
    md0 = 0
    hole0 = -1
    for i in range(n):
        t = b[i]
        if t < 0:
            hole0 = i
            continue
        r = rows[i]
        c = h + cols[i]
        code[r] += val[t * nl + r] * lpow[r * big + cols[i]]
        code[c] += val[t * nl + c] * lpow[c * big + r]
        md0 += dist[i * n + gpos[t]]
    lc0 = 0
    for x in range(nl):
        lc0 += ltab[toff[x] + code[x]]
    bound = md0 + lc0
    counters[LOWER] = bound
    nodes = 0
    maxd = len(path)
    while True:
        counters[BOUND] = bound
        counters[NODES] = nodes
        if max_length >= 0 and bound > max_length:
            return NO_PATH
        stk[_HOLE] = hole0
        stk[_PREV] = -1
        stk[_MD] = md0
        stk[_LC] = lc0
        stk[_SLOT] = -1
        d = 0
        ret = _INF
        outcome = NO_PATH  # until the goal is found or the budget runs out
        while d >= 0:
            base = d * _FIELDS
            hole = stk[base + _HOLE]
            md = stk[base + _MD]
            lc = stk[base + _LC]
            slot = stk[base + _SLOT]
            if slot < 0:  # entering the node
                if md == 0:
                    outcome = d
                    break
                nodes += 1
                if nodes > budget or d >= maxd:
                    outcome = GAVE_UP
                    break
                slot = 0
                stk[base + _BEST] = _INF
            elif slot >= _WAITING:  # back from the child: undo its slide
                slot -= _WAITING
                src = path[d]
                b[src] = b[hole]
                b[hole] = -1
                code[stk[base + _X1]] = stk[base + _OLD1]
                code[stk[base + _X2]] = stk[base + _OLD2]
                code[stk[base + _A]] = stk[base + _OLD3]
                if ret < stk[base + _BEST]:
                    stk[base + _BEST] = ret
            best = stk[base + _BEST]
            prev = stk[base + _PREV]
            g1 = d + 1
            hr = rows[hole]
            hc = cols[hole]
            pushed = False
            # slots 0-3: the neighbours whose tile comes closer to its goal, 4-7 the others
            while slot < 8:
                k = slot
                slot += 1
                src = nbs[hole * 4 + (k & 3)]
                if src < 0 or src == prev:
                    continue
                t = b[src]
                gp = gpos[t]
                dmd = dist[hole * n + gp] - dist[src * n + gp]
                if (dmd < 0) != (k < 4):
                    continue
                # a slide lowers the conflicts of the line the tile leaves by at most 2
                # and cannot lower those of the line it enters: prune before looking up
                low = g1 + md + dmd + lc - 2
                if low > bound:
                    if low < best:
                        best = low
                    continue
                # the tile leaves line x1 for line x2 across its move, at cell xk of both
                # (their conflicts may change), and moves along line a from cell a1 to a2
                sr = rows[src]
                sc = cols[src]
                if sr == hr:  # it changes column
                    x1, x2, xk, a, a1, a2 = h + sc, h + hc, sr, hr, sc, hc
                else:  # it changes row
                    x1, x2, xk, a, a1, a2 = sr, hr, sc, h + hc, sr, hr
                o1 = code[x1]
                o2 = code[x2]
                n1 = o1 - val[t * nl + x1] * lpow[x1 * big + xk]
                n2 = o2 + val[t * nl + x2] * lpow[x2 * big + xk]
                nlc = lc - ltab[toff[x1] + o1] - ltab[toff[x2] + o2] + ltab[toff[x1] + n1] + ltab[toff[x2] + n2]
                f = g1 + md + dmd + nlc
                if f > bound:
                    if f < best:
                        best = f
                    continue
                o3 = code[a]
                code[a] = o3 + val[t * nl + a] * (lpow[a * big + a2] - lpow[a * big + a1])
                code[x1] = n1
                code[x2] = n2
                b[hole] = t
                b[src] = -1
                path[d] = src
                stk[base + _X1] = x1
                stk[base + _X2] = x2
                stk[base + _A] = a
                stk[base + _OLD1] = o1
                stk[base + _OLD2] = o2
                stk[base + _OLD3] = o3
                stk[base + _SLOT] = slot + _WAITING
                stk[base + _BEST] = best
                cb = base + _FIELDS
                stk[cb + _HOLE] = src
                stk[cb + _PREV] = hole
                stk[cb + _MD] = md + dmd
                stk[cb + _LC] = nlc
                stk[cb + _SLOT] = -1
                pushed = True
                break
            if pushed:
                d += 1
                continue
            ret = best  # the node is done: its least f beyond the bound goes to the parent
            d -= 1
        if outcome != NO_PATH:
            counters[NODES] = nodes
            for k in range(d - 1, -1, -1):  # put the board back as it came
                kh = stk[k * _FIELDS + _HOLE]
                b[path[k]] = b[kh]
                b[kh] = -1
            return outcome
        if ret >= _INF:
            counters[NODES] = nodes
            return NO_PATH
        bound = ret


def _search_function():
    """``_ida`` compiled (loaded from numba's cache after the first time), or as it is."""
    return _compiled.compiled(_ida)


def warm_up() -> None:
    """Load (or, on a fresh install, compile) the search now, not at the first real change."""
    shortest_moves([0, 1, -1, 2], [0, 1, 2], (2, 2), budget=100)


def _as_arrays(values: list) -> tuple:
    """``values`` as the search wants them: int64 arrays when compiled, lists otherwise."""
    if COMPILED:
        return tuple(np.asarray(v, dtype=np.int64) for v in values)
    return tuple(list(v) for v in values)


def _zeros(size: int):
    """Scratch space of ``size`` integers, in the form the search wants."""
    return np.zeros(size, dtype=np.int64) if COMPILED else [0] * size


@lru_cache(maxsize=None)
def _shape_tables(shape: tuple[int, int]) -> tuple:
    """What depends on the shape only: distances, neighbours, rows, columns, the lines' tables."""
    h, w = shape
    n = h * w
    big = max(h, w)
    dist = [abs(i // w - j // w) + abs(i % w - j % w) for i in range(n) for j in range(n)]
    nbs = []
    for i in range(n):
        r, c = divmod(i, w)
        near = sorted(j for j, ok in ((i - w, r > 0), (i - 1, c > 0), (i + 1, c < w - 1), (i + w, r < h - 1)) if ok)
        nbs.extend(near + [-1] * (4 - len(near)))
    rows = [i // w for i in range(n)]
    cols = [i % w for i in range(n)]
    row_table, col_table = conflict_table(w), conflict_table(h)
    ltab = row_table + col_table
    toff = [0] * h + [len(row_table)] * w
    lpow = [0] * ((h + w) * big)
    for line in range(h + w):
        length = w if line < h else h
        for k in range(length):
            lpow[line * big + k] = (length + 1) ** k
    return _as_arrays([dist, nbs, rows, cols, ltab, toff, lpow])


def shortest_moves(b: list[int], gpos: list[int], shape: tuple[int, int], budget: int,
                   max_length: int | None = None) -> tuple[list[int] | None, dict]:
    """A shortest path (source cells) from ``b`` (tile ids, -1 hole) to goal cells ``gpos``.

    Returns ``(path, stats)``: ``path`` is None when no path of at most ``max_length``
    slides exists; ``stats`` has ``nodes``, ``bound`` (the bound reached) and ``lower``
    (the heuristic at the start). Raises ``BudgetExceeded`` after ``budget`` nodes, its
    ``stats`` attribute filled the same way.
    """
    h, w = shape
    n = h * w
    tabs = _shape_tables(shape)
    board, goal = _as_arrays([b, gpos])
    work = (_zeros((n - 1) * (h + w)), _zeros(h + w))
    stk, path, counters = _zeros((MAX_DEPTH + 1) * _FIELDS), _zeros(MAX_DEPTH), _zeros(3)
    length = int(_search_function()(board, goal, tabs, work, stk, path, counters, w, h, budget,
                      -1 if max_length is None else max_length))
    stats = {"nodes": int(counters[NODES]), "bound": int(counters[BOUND]), "lower": int(counters[LOWER])}
    if length == GAVE_UP:
        raise BudgetExceeded(stats)
    if length == NO_PATH:
        return None, stats
    return [int(x) for x in path[:length]], stats


class BudgetExceeded(Exception):
    """The search expanded its budget of nodes; ``stats`` says how far it got."""

    def __init__(self, stats: dict):
        super().__init__(f"gave up after {stats['nodes']} nodes at bound {stats['bound']}")
        self.stats = stats
