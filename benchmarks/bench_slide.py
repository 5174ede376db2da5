"""Slide rules-engine speed: seeded random games per player count, and ``explain`` calls on their steps.

    .venv/bin/python benchmarks/bench_slide.py --games 50

Prints one row per player count: moves per second through ``legal_moves``/``apply``, and
explained grid changes per second (each step of those games replayed through
``rules.slide.explain.explain`` as the camera would see it). Wall-clock figures, so they
vary with machine load; the move and step counts are exact for a given ``--seed``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.slide.state import deal  # noqa: E402
from rules.slide.explain import explain, observe  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=50, help="games per player count")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"{'players':>7} {'games':>5} {'moves':>7} {'moves/s':>9} {'explained':>9} {'explain/s':>9} {'unexplained':>11}")
    for players in range(2, 7):
        rng = random.Random(args.seed * 1000 + players)
        steps = []
        moves = 0
        t0 = time.perf_counter()
        for g in range(args.games):
            state = deal(args.seed * 1000 + g, players)
            while not state.is_over:
                move = rng.choice(state.legal_moves())
                after = state.apply(move)
                steps.append((state, after, state.to_act, move))
                state = after
                moves += 1
        t_play = time.perf_counter() - t0
        bad = 0
        t0 = time.perf_counter()
        for before, after, p, move in steps:
            result = explain(observe(before.grids[p]), observe(after.grids[p]), before.middle)
            bad += not (result.move == move or move in result.alternatives)
        t_explain = time.perf_counter() - t0
        print(
            f"{players:>7} {args.games:>5} {moves:>7} {moves / t_play:>9.0f} {len(steps):>9} "
            f"{len(steps) / t_explain:>9.0f} {bad:>11}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
