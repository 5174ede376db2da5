"""The exact slide search (rules.exact_search): shortest against breadth-first truth, compiled
and plain Python giving the same paths, budgets and limits."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest

from rules import exact_search, sliding

ROOT = Path(__file__).resolve().parents[1]


def test_numba_is_used():
    # numba is a dependency: the search must run compiled, or the 5 ms bar is out of reach
    assert exact_search.COMPILED
    assert exact_search._search_function() is not exact_search._ida


def _code(digits):
    """A line's code from its digits, first cell first (see exact_search.conflict_table)."""
    base = len(digits) + 1
    return sum(d * base**k for k, d in enumerate(digits))


@pytest.mark.parametrize(
    "digits, conflict",
    [
        ((0, 0, 0, 0, 0), 0),  # no tile of this line
        ((1, 2, 3, 4, 5), 0),  # all in order
        ((2, 1, 0, 0, 0), 2),  # one pair swapped: one tile steps out and back
        ((0, 3, 0, 2, 1), 4),  # three reversed: two must step out
        ((5, 4, 3, 2, 1), 8),
        ((2, 3, 4, 5, 1), 2),  # one tile at the wrong end
    ],
)
def test_conflict_table(digits, conflict):
    assert exact_search.conflict_table(5)[_code(digits)] == conflict
    assert exact_search.line_conflict([d for d in digits if d]) == conflict


def _bfs_distances(goal, shape):
    """Every board reachable from ``goal`` with its exact slide distance (small boards only)."""
    nbs = sliding.neighbour_table(shape)
    seen = {goal: 0}
    queue = deque([goal])
    while queue:
        b = queue.popleft()
        hole = b.index(None)
        for src in nbs[hole]:
            cells = list(b)
            cells[hole], cells[src] = cells[src], None
            nb = tuple(cells)
            if nb not in seen:
                seen[nb] = seen[b] + 1
                queue.append(nb)
    return seen


def test_shortest_on_every_2x3_board():
    # all 360 boards of a 2x3 puzzle: the search's length is the breadth-first distance
    shape = (2, 3)
    goal = (1, 2, 3, 4, 5, None)
    truth = _bfs_distances(goal, shape)
    assert len(truth) == 360
    assert max(truth.values()) == 21
    for start, distance in truth.items():
        path = sliding.shortest_path(start, goal, shape, node_budget=1_000_000)
        assert len(path) == distance, start
        assert sliding.apply_path(start, path) == goal


def test_shortest_on_3x3_boards_against_breadth_first():
    shape = (3, 3)
    goal = (1, 2, 3, 4, None, 5, 6, 7, 8)  # the hole in the middle: no corner symmetry to lean on
    truth = _bfs_distances(goal, shape)
    assert len(truth) == 181_440
    rng = random.Random(7)
    boards = rng.sample(sorted(truth, key=repr), 150)
    for start in boards:
        path = sliding.shortest_path(start, goal, shape, node_budget=5_000_000)
        assert len(path) == truth[start], start
        assert sliding.apply_path(start, path) == goal


def _random_changes(count, slides, seed):
    """(start, goal) 5x5 boards of distinct labels, ``slides`` random non-reversing slides apart."""
    rng = random.Random(seed)
    nbs = sliding.neighbour_table((5, 5))
    out = []
    for _ in range(count):
        labels = list(range(24))
        rng.shuffle(labels)
        start = tuple(labels) + (None,)
        board, hole, prev = list(start), 24, -1
        for _ in range(slides):
            src = rng.choice([j for j in nbs[hole] if j != prev])
            board[hole], board[src] = board[src], None
            prev, hole = hole, src
        out.append((start, tuple(board)))
    return out


def test_compiled_and_plain_python_find_the_same_paths():
    changes = _random_changes(12, 22, seed=3)
    compiled = [sliding.shortest_path(s, g, (5, 5), node_budget=10_000_000) for s, g in changes]
    script = (
        "import json, sys\n"
        "from rules import exact_search, sliding\n"
        "assert not exact_search.COMPILED\n"
        "changes = json.load(sys.stdin)\n"
        "print(json.dumps([sliding.shortest_path(tuple(s), tuple(g), (5, 5), node_budget=10_000_000)"
        " for s, g in changes]))\n"
    )
    env = dict(os.environ, CALLER_NO_NUMBA="1")
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(changes), capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == compiled
    for (start, goal), path in zip(changes, compiled):
        assert sliding.apply_path(start, path) == goal
        assert len(path) <= 22


def test_budget_and_length_limit():
    start, goal = _random_changes(1, 30, seed=11)[0]
    stats: dict = {}
    path = sliding.shortest_path(start, goal, (5, 5), node_budget=10_000_000, stats=stats)
    full_nodes = stats["nodes"]
    assert stats["bound"] == len(path)
    assert full_nodes > 50
    # one node short of what it needed: gives up, saying how far it got
    with pytest.raises(sliding.SearchBudgetExceeded):
        sliding.shortest_path(start, goal, (5, 5), node_budget=full_nodes - 1, stats=stats)
    assert stats["nodes"] == full_nodes
    assert stats["bound"] <= len(path)
    # a limit below the shortest length: no path, and the board is untouched for the next call
    assert sliding.shortest_path(start, goal, (5, 5), max_length=len(path) - 1, node_budget=10_000_000) is None
    assert sliding.shortest_path(start, goal, (5, 5), max_length=len(path), node_budget=10_000_000) == path
    # the start already is the goal: no slides, no nodes
    assert sliding.shortest_path(goal, goal, (5, 5), stats=stats) == []
    assert stats["nodes"] == 0


def test_warm_up_runs_the_search():
    exact_search.warm_up()
    assert exact_search.shortest_moves([0, 1, -1, 2], [0, 1, 2], (2, 2), budget=100)[0] == [3]
