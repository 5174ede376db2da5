"""Length and speed of the Easy Slider solver (rules.easy_slider.solver.solve) from random positions.

Positions: seeded deals (the Caller's setups), and deals whose hole was then walked at
random for 100 slides. Prints the solution length (mean, median, min, max) with and
without the improvement pass, and the CPU time of a solve (p50, p90, max, in milliseconds,
``time.process_time``: on a shared machine wall-clock time mostly measures waiting).

    .venv/bin/python benchmarks/bench_solver.py [--positions 50] [--seed 1]
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

from rules.easy_slider.game import GAME  # noqa: E402
from rules.easy_slider.solver import solve  # noqa: E402
from rules.easy_slider.state import is_done  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=50, help="positions per kind (default 50)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"solve() from {args.positions} positions per kind, seed {args.seed}, "
          f"{os.cpu_count()} CPUs, load average {load:.1f}")
    print(f"{'positions':<18} {'pass':<9} {'mean':>6} {'median':>6} {'min':>5} {'max':>5} "
          f"{'p50 ms':>8} {'p90 ms':>8} {'max ms':>8}  (CPU time)")
    for kind in ("deal", "deal+walk100"):
        states = []
        for _ in range(args.positions):
            state = GAME.setup(seed=rng.randrange(2**31))
            if kind != "deal":
                for _ in range(100):
                    state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            states.append(state)
        for improve in (False, True):
            lengths, times = [], []
            for state in states:
                t0 = time.process_time()
                solution = solve(state, improve=improve)
                times.append((time.process_time() - t0) * 1000)
                end = state
                for s in solution:
                    end = GAME.apply(end, s)
                assert is_done(end)
                lengths.append(len(solution))
            times.sort()
            print(f"{kind:<18} {'improved' if improve else 'reduce':<9} {statistics.mean(lengths):6.1f} "
                  f"{statistics.median(lengths):6.1f} {min(lengths):5d} {max(lengths):5d} "
                  f"{times[len(times) // 2]:8.1f} {times[int(len(times) * 0.9)]:8.1f} {times[-1]:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
