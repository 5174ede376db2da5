"""Generic sliding-puzzle search: exact shortest paths and a fast reduction solver.

A board here is a flat, row-major tuple of ``h * w`` hashable labels with ``None`` for the
hole; ``shape`` is ``(h, w)``. A path is a list of *source cell indices*: at each step the
tile at that index slides into the hole (so the hole moves to that index). Labels may
repeat only where the docstring says so (interchangeable pieces such as Easy Slider's
nulls). Nothing here knows a game; ``rules.easy_slider.state.slides_of`` turns paths into ``Slide`` values.

Two tools:

* ``shortest_path``: IDA* with Manhattan distance plus linear conflicts (both admissible,
  so the path is a shortest one) between two boards of distinct labels, under a node
  budget; the explanation of an observed change uses it.
* ``reduce_solve``: a row-by-row reduction. Each step places a small group of tiles with
  an exact A* search in an abstraction where every tile outside the group is an
  anonymous "other", with the tiles already placed locked. The result is legal and
  reasonably short, not shortest; it takes milliseconds on a 5x5 board.
"""

from __future__ import annotations

import heapq
import itertools
from functools import lru_cache
from typing import Hashable, Iterable, Sequence

from rules import exact_search

Board = tuple  # flat row-major labels, None for the hole

#: An anonymous piece in the abstract searches (a tile that the current step does not place).
_OTHER = object()


class SearchBudgetExceeded(Exception):
    """An exact search gave up after its node budget (internal: callers fall back)."""


@lru_cache(maxsize=None)
def neighbour_table(shape: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """For each cell index, the indices of its orthogonal neighbours (up, down, left, right)."""
    h, w = shape
    out = []
    for i in range(h * w):
        r, c = divmod(i, w)
        nbs = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w:
                nbs.append(rr * w + cc)
        out.append(tuple(nbs))
    return tuple(out)


@lru_cache(maxsize=None)
def distance_table(shape: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """Manhattan distance between every two cell indices."""
    h, w = shape
    n = h * w
    return tuple(tuple(abs(i // w - j // w) + abs(i % w - j % w) for j in range(n)) for i in range(n))


def apply_path(board: Board, path: Iterable[int]) -> Board:
    """The board after sliding the tiles at the path's source indices into the hole, one by one."""
    cells = list(board)
    hole = cells.index(None)
    for src in path:
        cells[hole], cells[src] = cells[src], None
        hole = src
    return tuple(cells)


def cancel_reversals(path: Sequence[int], start_hole: int) -> list[int]:
    """``path`` without slides that are immediately undone (the hole going A->B->A), repeatedly."""
    holes = [start_hole]  # hole positions before each kept step
    out: list[int] = []
    for src in path:
        if len(holes) >= 2 and src == holes[-2]:
            out.pop()
            holes.pop()
        else:
            out.append(src)
            holes.append(src)
    return out


def same_parity(start: Board, goal: Board, shape: tuple[int, int]) -> bool:
    """Whether ``goal`` can be reached from ``start`` by slides (distinct labels, same label set).

    A slide is a transposition of the hole with a tile and moves the hole one cell, so the
    parity of the permutation between the boards (hole included) equals the parity of the
    hole's Manhattan distance.
    """
    index_in_goal = {label: i for i, label in enumerate(goal)}
    perm = [index_in_goal[label] for label in start]
    seen = [False] * len(perm)
    transpositions = 0
    for i in range(len(perm)):
        length = 0
        j = i
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        if length:
            transpositions += length - 1
    dist = distance_table(shape)[start.index(None)][goal.index(None)]
    return transpositions % 2 == dist % 2


# ----------------------------------------------------------------------------------------
# exact shortest path: IDA* with Manhattan distance + linear conflicts (rules.exact_search)


def _unwind(parent: dict, state) -> list[int]:
    """The moves (source cells) from the search's root to ``state``, following ``parent`` links."""
    path = []
    while parent[state] is not None:
        state, src = parent[state]
        path.append(src)
    return path[::-1]


def _encode(start: Board, goal: Board, w: int) -> tuple[tuple[int, ...], list[int], list[int], list[int]]:
    """``start`` as piece ids (-1 for the hole), and each piece's goal cell, row and column (width ``w``)."""
    ids = {label: k for k, label in enumerate(x for x in goal if x is not None)}
    b = tuple(-1 if x is None else ids[x] for x in start)
    gpos = [0] * len(ids)
    for i, x in enumerate(goal):
        if x is not None:
            gpos[ids[x]] = i
    return b, gpos, [p // w for p in gpos], [p % w for p in gpos]


def shortest_path(
    start: Board,
    goal: Board,
    shape: tuple[int, int],
    max_length: int | None = None,
    node_budget: int = 200_000,
    stats: dict | None = None,
) -> list[int] | None:
    """A shortest slide path from ``start`` to ``goal`` (distinct labels, one hole each).

    Returns the list of source indices, or None when no path of at most ``max_length``
    slides exists (it is not tried at all when the lower bound already exceeds it).
    Raises ``SearchBudgetExceeded`` after ``node_budget`` expanded nodes. The caller
    must check ``same_parity`` first: with the wrong parity no path exists at all.
    ``stats`` (a dict), when given, receives the number of expanded nodes under
    ``"nodes"`` and the bound being searched under ``"bound"``, also when the budget runs
    out. The search itself is ``rules.exact_search`` (compiled when numba is installed).
    """
    if set(start) != set(goal):
        raise ValueError("start and goal must hold the same pieces")
    b0, gpos, _, _ = _encode(start, goal, shape[1])
    try:
        path, info = exact_search.shortest_moves(list(b0), gpos, shape, node_budget, max_length)
    except exact_search.BudgetExceeded as e:
        if stats is not None:
            stats.update(nodes=e.stats["nodes"], bound=e.stats["bound"])
        raise SearchBudgetExceeded(e.stats["nodes"]) from None
    if stats is not None:
        stats.update(nodes=info["nodes"], bound=info["bound"])
    return path


# ----------------------------------------------------------------------------------------
# reduction solver: place small groups of tiles with exact abstract A* searches


def _place(
    board: Board,
    shape: tuple[int, int],
    targets: dict[int, Hashable],
    locked: frozenset[int],
    hole_ok: frozenset[int] = frozenset(),
    keep_all: bool = False,
    node_budget: int = 400_000,
) -> list[int]:
    """A shortest path that puts ``targets`` (cell index -> label) in place without moving ``locked`` cells.

    Tiles whose label is not a target label are anonymous, which keeps the state space
    small: a state is the hole's cell and the cells of the tracked tiles (sorted among
    copies of one label). ``keep_all`` tracks every label (for the final small region).
    A target cell in ``hole_ok`` may hold the hole instead of its label. Raises
    ``SearchBudgetExceeded`` when it gives up.
    """
    if keep_all:
        labels = sorted({x for i, x in enumerate(board) if x is not None and i not in locked}, key=repr)
    else:
        labels = sorted({lab for lab in targets.values() if lab is not None}, key=repr)
    # slots: one per tracked tile; a label's copies occupy consecutive slots kept sorted
    spans: list[tuple[int, int]] = []
    start_pos: list[int] = []
    for lab in labels:
        cells = sorted(i for i, x in enumerate(board) if x == lab)
        spans.append((len(start_pos), len(start_pos) + len(cells)))
        start_pos.extend(cells)
    slot_span = [span for span in spans for _ in range(span[1] - span[0])]
    label_index = {lab: k for k, lab in enumerate(labels)}
    dist = distance_table(shape)
    nbt = tuple(tuple(j for j in nbs if j not in locked) for nbs in neighbour_table(shape))
    # per target: (cell, span of its label's slots or None for the hole, may it be the hole)
    tlist = [
        (i, spans[label_index[lab]] if lab is not None else None, i in hole_ok or lab is None)
        for i, lab in targets.items()
    ]
    unique = all(b - a == 1 for a, b in spans)
    big = 1 << 30

    def heuristic(hole: int, pos: tuple) -> int:
        total = 0
        approach = big
        for i, span, may_hole in tlist:
            best = dist[hole][i] if may_hole else big
            if span is not None:
                for k in range(span[0], span[1]):
                    d = dist[pos[k]][i]
                    if d < best:
                        best = d
                if unique and best:
                    a = dist[hole][pos[span[0]]] - 1
                    if a < approach:
                        approach = a
            total += best
        if total and approach < big:
            total += approach
        return total

    def is_goal(hole: int, pos: tuple) -> bool:
        for i, span, may_hole in tlist:
            if may_hole and hole == i:
                continue
            if span is None or i not in pos[span[0] : span[1]]:
                return False
        return True

    hole0 = board.index(None)
    pos0 = tuple(start_pos)
    if is_goal(hole0, pos0):
        return []
    counter = itertools.count()
    start = (hole0, pos0)
    open_heap = [(heuristic(hole0, pos0), 0, next(counter), start)]
    parent: dict[tuple, tuple | None] = {start: None}
    best_g = {start: 0}
    expanded = 0
    while open_heap:
        _, neg_g, _, state = heapq.heappop(open_heap)
        g = -neg_g
        if best_g[state] != g:
            continue
        hole, pos = state
        if is_goal(hole, pos):
            return _unwind(parent, state)
        expanded += 1
        if expanded > node_budget:
            raise SearchBudgetExceeded(expanded)
        where = {p: k for k, p in enumerate(pos)}
        ng = g + 1
        for src in nbt[hole]:
            k = where.get(src)
            if k is None:
                npos = pos
            else:
                a, b = slot_span[k]
                seg = list(pos[a:b])
                seg[k - a] = hole
                if b - a > 1:
                    seg.sort()
                npos = pos[:a] + tuple(seg) + pos[b:]
            ns = (src, npos)
            if ng < best_g.get(ns, big):
                best_g[ns] = ng
                parent[ns] = (state, src)
                # ties broken towards deeper nodes: fewer expansions on the last f level
                heapq.heappush(open_heap, (ng + heuristic(src, npos), -ng, next(counter), ns))
    raise ValueError("no sequence of slides places these tiles (wrong parity?)")


def reduce_solve(
    start: Board,
    target: Board,
    shape: tuple[int, int],
    hole_ok: Iterable[int] = (),
    last_rows_budget: int = 1_500,
) -> list[int]:
    """A legal slide path from ``start`` to a board that matches ``target``.

    ``target`` gives the label wanted at each cell: labels may repeat where pieces are
    interchangeable, and a cell may be ``None`` only at the last cell (lower right). The
    cells of ``hole_ok`` (in the last row) may end with the hole instead of their label;
    with ``hole_ok`` empty the target must have its hole in the lower right corner, and
    the caller must make sure the parity is right. Needs ``h >= 2`` and ``w >= 3``.

    Plan: rows 0 .. h-3 left to right in groups (two, one, ..., the last two of a row
    together, since those need the classic detour); then the last two rows in one exact
    search if that stays within ``last_rows_budget`` nodes, else column by column while
    more than three columns remain and an exact search of the final 2x3.
    """
    h, w = shape
    if h < 2 or w < 3:
        raise ValueError(f"reduce_solve needs at least 2 rows and 3 columns, got {shape}")
    hole_ok = frozenset(hole_ok)
    board = tuple(start)
    locked: set[int] = set()
    path: list[int] = []

    def run(cells: list[int], keep_all: bool = False, node_budget: int = 400_000) -> None:
        nonlocal board
        targets = {i: target[i] for i in cells}
        step = _place(
            board, shape, targets, frozenset(locked), hole_ok if keep_all else frozenset(), keep_all, node_budget
        )
        board = apply_path(board, step)
        path.extend(step)
        locked.update(cells)

    for r in range(h - 2):
        for group in _row_groups(w):
            run([r * w + c for c in group])
    # the last two rows: in one exact search when that is cheap (it often is, and then
    # the end is as short as it can be), else column by column down to a 2x3 block
    last_two = [(h - 2) * w + c for c in range(w)] + [(h - 1) * w + c for c in range(w)]
    try:
        run(last_two, keep_all=True, node_budget=last_rows_budget)
    except SearchBudgetExceeded:
        for c in range(w - 3):
            run([(h - 2) * w + c, (h - 1) * w + c])
        run([(h - 2) * w + c for c in range(w - 3, w)] + [(h - 1) * w + c for c in range(w - 3, w)], keep_all=True)
    return cancel_reversals(path, start.index(None))


def _row_groups(w: int) -> list[tuple[int, ...]]:
    """Column groups for placing one row: pairs, and the last two together."""
    groups: list[tuple[int, ...]] = []
    c = 0
    while c < w - 2:
        groups.append(tuple(range(c, min(c + 2, w - 2))))
        c += 2
    groups.append((w - 2, w - 1))
    return groups


def weighted_path(
    start: Board,
    goal: Board,
    shape: tuple[int, int],
    weight: float = 2.0,
    node_budget: int = 20_000,
) -> list[int]:
    """A legal (not necessarily shortest) path by weighted A* on Manhattan + linear conflicts.

    With ``f = g + weight * h`` the path is at most ``weight`` times the shortest one.
    Distinct labels, same parity required. Raises ``SearchBudgetExceeded`` when it gives up.
    """
    h, w = shape
    n = h * w
    b0, gpos, grow, gcol = _encode(start, goal, w)
    dist = distance_table(shape)
    nbt = neighbour_table(shape)

    def row_lc(b: tuple, r: int) -> int:
        return exact_search.line_conflict(tuple(gcol[t] for t in b[r * w : r * w + w] if t >= 0 and grow[t] == r))

    def col_lc(b: tuple, c: int) -> int:
        return exact_search.line_conflict(tuple(grow[t] for t in b[c:n:w] if t >= 0 and gcol[t] == c))

    md0 = sum(dist[i][gpos[t]] for i, t in enumerate(b0) if t >= 0)
    rl0 = tuple(row_lc(b0, r) for r in range(h))
    cl0 = tuple(col_lc(b0, c) for c in range(w))
    hole0 = b0.index(-1)
    counter = itertools.count()
    heap = [(weight * (md0 + sum(rl0) + sum(cl0)), 0, next(counter), b0, hole0, md0, rl0, cl0)]
    parent: dict[tuple, tuple | None] = {b0: None}
    best_g = {b0: 0}
    expanded = 0
    while heap:
        _, neg_g, _, b, hole, md, rl, cl = heapq.heappop(heap)
        g = -neg_g
        if best_g[b] != g:
            continue
        if md == 0:
            return _unwind(parent, b)
        expanded += 1
        if expanded > node_budget:
            raise SearchBudgetExceeded(expanded)
        for src in nbt[hole]:
            t = b[src]
            cells = list(b)
            cells[hole], cells[src] = t, -1
            nb = tuple(cells)
            ng = g + 1
            if ng >= best_g.get(nb, 1 << 30):
                continue
            nmd = md + dist[hole][gpos[t]] - dist[src][gpos[t]]
            if src // w == hole // w:
                c1, c2 = src % w, hole % w
                lst = list(cl)
                lst[c1], lst[c2] = col_lc(nb, c1), col_lc(nb, c2)
                ncl, nrl = tuple(lst), rl
            else:
                r1, r2 = src // w, hole // w
                lst = list(rl)
                lst[r1], lst[r2] = row_lc(nb, r1), row_lc(nb, r2)
                nrl, ncl = tuple(lst), cl
            best_g[nb] = ng
            parent[nb] = (b, src)
            f = ng + weight * (nmd + sum(nrl) + sum(ncl))
            heapq.heappush(heap, (f, -ng, next(counter), nb, src, nmd, nrl, ncl))
    raise ValueError("no sequence of slides leads from start to goal (wrong parity?)")


def path_to(
    start: Board,
    goal: Board,
    shape: tuple[int, int],
    exact_budget: int = 8_000,
    weighted_budget: int = 1_000,
    max_length: int | None = None,
) -> tuple[list[int] | None, bool]:
    """A slide path from ``start`` to ``goal`` (distinct labels, right parity) and whether it is shortest.

    Tries, in order: IDA* (exact) under ``exact_budget`` nodes; weighted A* (w=2, at most
    twice the shortest) under ``weighted_budget`` nodes; the reduction solver (always
    succeeds, legal but long). Returns ``(None, True)`` when even the shortest path is
    longer than ``max_length``.

    A fallback path still counts as shortest when its length equals the lower bound that
    the interrupted IDA* had proven: every iteration below the bound it was searching
    finished without a path, so no path is shorter than that bound.
    """
    stats: dict = {}
    try:
        return shortest_path(start, goal, shape, max_length=max_length, node_budget=exact_budget, stats=stats), True
    except SearchBudgetExceeded:
        pass
    proven = stats.get("bound", 0)
    try:
        path = weighted_path(start, goal, shape, weight=2.0, node_budget=weighted_budget)
    except SearchBudgetExceeded:
        path = solve_between(start, goal, shape)
    return path, len(path) <= proven


def solve_between(start: Board, goal: Board, shape: tuple[int, int]) -> list[int]:
    """A legal path between two boards of distinct labels with the right parity, by reduction.

    The reduction solver wants the goal's hole in the lower right corner, so it solves to
    the goal with its hole walked there, then walks the hole back.
    """
    h, w = shape
    corner = h * w - 1
    z = goal.index(None)
    walk = []  # hole positions from z to the corner: down, then right
    r, c = divmod(z, w)
    while r < h - 1:
        r += 1
        walk.append(r * w + c)
    while c < w - 1:
        c += 1
        walk.append(r * w + c)
    moved_goal = apply_path(goal, walk)
    path = reduce_solve(start, moved_goal, shape)
    back = (walk[:-1][::-1] + [z]) if walk else []
    assert moved_goal.index(None) == corner
    return cancel_reversals(path + back, start.index(None))


def improve_path(
    start: Board,
    path: Sequence[int],
    shape: tuple[int, int],
    windows: Sequence[int] = (14, 22),
    window_budget: int = 2_000,
    total_budget: int = 150_000,
) -> list[int]:
    """``path`` with stretches replaced by shortest ones (distinct labels in ``start``).

    Slides a window of each length in ``windows`` along the path; where an exact search
    (under ``window_budget`` nodes) finds a shorter way between the window's two ends, it
    is spliced in. Deterministic: budgets count nodes, not time.
    """
    path = list(path)
    spent = 0
    for size in windows:
        step = max(1, size // 4)
        i = 0
        board = start  # the board before path[i]
        while i + size <= len(path) and spent < total_budget:
            end = apply_path(board, path[i : i + size])
            better = None
            stats: dict = {}
            try:
                better = shortest_path(
                    board, end, shape, max_length=size - 1, node_budget=window_budget, stats=stats
                )
            except SearchBudgetExceeded as exc:
                spent += exc.args[0]
            else:
                spent += stats.get("nodes", 0)
            if better is not None and len(better) < size:
                path[i : i + size] = better
            board = apply_path(board, path[i : i + step])
            i += step
    return cancel_reversals(path, start.index(None))
