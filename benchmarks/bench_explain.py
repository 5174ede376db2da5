"""Speed of explaining an observed Easy Slider change (rules.easy_slider.explain.explain).

For each number of slides k, takes seeded random positions, makes k random slides that
never undo the previous one (what a fast player does between two still frames), and times
``explain(before, after)``: the whole call, classification included. Prints p50/p90/p99 of
the CPU time of the call in milliseconds (``time.process_time``: on a shared, loaded
machine the wall-clock time mostly measures waiting for a core), the wall-clock p99 for
comparison, how often the result is proven shortest (``shortest`` true: the exact search
finished within its budget, or a fallback matched the lower bound it had proven), and the
mean length of the explanation (it can be shorter than k: random slides wander).
The first search of a process loads the compiled search from numba's cache (or compiles
it on a fresh install); that one-time cost is printed on its own line, before the table.

    .venv/bin/python benchmarks/bench_explain.py [--trials 200] [--seed 1] [--exact-budget N]

``--exact-budget`` overrides the exact search's node budget (the trade-off between the
slow tail and how often the result is proven shortest).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules.easy_slider.explain as explaining  # noqa: E402
from rules import exact_search  # noqa: E402
from rules.easy_slider.explain import explain  # noqa: E402
from rules.easy_slider.game import GAME  # noqa: E402


def walk(state, k, rng):
    prev = None
    for _ in range(k):
        moves = [m for m in GAME.legal_moves(state) if m.src != prev]
        move = rng.choice(moves)
        prev = move.dst
        state = GAME.apply(state, move)
    return state


def percentile(sorted_values, q):
    i = min(len(sorted_values) - 1, max(0, round(q / 100 * (len(sorted_values) - 1))))
    return sorted_values[i]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=200, help="changes per row (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slides", type=int, nargs="*", default=[1, 2, 3, 5, 10, 15, 20, 25, 30])
    ap.add_argument("--exact-budget", type=int, default=None,
                    help=f"IDA* node budget (default {explaining.EXPLAIN_EXACT_BUDGET})")
    ap.add_argument("--weighted-budget", type=int, default=None,
                    help=f"weighted A* node budget (default {explaining.EXPLAIN_WEIGHTED_BUDGET})")
    args = ap.parse_args(argv)
    if args.exact_budget is not None:
        explaining.EXPLAIN_EXACT_BUDGET = args.exact_budget
    if args.weighted_budget is not None:
        explaining.EXPLAIN_WEIGHTED_BUDGET = args.weighted_budget
    rng = random.Random(args.seed)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"explain() timing, {args.trials} changes per row, seed {args.seed}, "
          f"{os.cpu_count()} CPUs, load average {load:.1f}, node budgets {explaining.EXPLAIN_EXACT_BUDGET} "
          f"exact, {explaining.EXPLAIN_WEIGHTED_BUDGET} weighted")
    w0 = time.perf_counter()
    exact_search.warm_up()
    backend = "compiled (numba)" if exact_search.COMPILED else "plain Python (CALLER_NO_NUMBA or no numba)"
    print(f"exact search {backend}; loading it took {(time.perf_counter() - w0) * 1000:.0f} ms (once per process)")
    print("CPU time per call; 'wall p99' is the wall-clock p99 of the same calls")
    print(f"{'slides':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'wall p99':>9} "
          f"{'short. %':>8} {'mean len':>8}")
    for k in args.slides:
        times, walls, exact, lengths = [], [], 0, []
        for _ in range(args.trials):
            before = walk(GAME.setup(seed=rng.randrange(2**31)), 8, rng)
            after = walk(before, k, rng)
            w0, t0 = time.perf_counter(), time.process_time()
            result = explain(before, after)
            times.append((time.process_time() - t0) * 1000)
            walls.append((time.perf_counter() - w0) * 1000)
            assert result.legal, result
            exact += result.shortest
            lengths.append(len(result.slides))
        times.sort()
        walls.sort()
        print(f"{k:>6} {percentile(times, 50):8.2f} {percentile(times, 90):8.2f} {percentile(times, 99):8.2f} "
              f"{times[-1]:8.2f} {percentile(walls, 99):9.2f} {100 * exact / args.trials:8.1f} "
              f"{statistics.mean(lengths):8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
