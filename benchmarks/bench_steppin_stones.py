"""Steppin' Stones rules-engine speed: perft of the first roll, and seeded random play.

    .venv/bin/python benchmarks/bench_steppin_stones.py --depth 3 --games 20

Prints one row per variant: the perft count at ``--depth`` from ``setup(seed)`` (exact: the
actions of the first roll), the seconds it took, then actions per second through
``legal_moves``/``apply`` over ``--games`` seeded random games of up to ``--actions``
actions, and how those games ended (won / lost / still playing). Wall-clock figures vary
with machine load; counts are exact for a given ``--seed``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.steppin_stones.game import GAME  # noqa: E402

VARIANTS = {
    "standard": {},
    "highest-first": {"highest_first": True},
    "aces 4 + stones": {"aces": 4, "ace_stones": True},
    "large": {"large": True},
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=3, help="perft depth")
    ap.add_argument("--games", type=int, default=20, help="random games per variant")
    ap.add_argument("--actions", type=int, default=400, help="most actions per random game")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"{'variant':>16} {'perft':>9} {'perft s':>8} {'actions':>8} {'actions/s':>10} {'won':>4} {'lost':>5} {'open':>5}")
    for name, options in VARIANTS.items():
        start = GAME.setup(seed=args.seed, **options)
        t0 = time.perf_counter()
        count = GAME.perft(start, args.depth)
        perft_s = time.perf_counter() - t0
        done = 0
        ends = {"won": 0, "lost": 0, "playing": 0}
        t0 = time.perf_counter()
        for g in range(args.games):
            rng = random.Random(args.seed * 1000 + g)
            state = GAME.setup(seed=args.seed * 1000 + g, **options)
            for _ in range(args.actions):
                moves = GAME.legal_moves(state)
                if not moves:
                    break
                state = GAME.apply(state, rng.choice(moves))
                done += 1
            ends[state.status] += 1
        play_s = time.perf_counter() - t0
        print(
            f"{name:>16} {count:>9} {perft_s:>8.2f} {done:>8} {done / play_s:>10.0f} "
            f"{ends['won']:>4} {ends['lost']:>5} {ends['playing']:>5}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
