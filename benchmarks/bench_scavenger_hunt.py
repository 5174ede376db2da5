"""Scavenger Hunt rules-engine speed: perft from seeded start positions, and random turns with ``explain``.

    .venv/bin/python benchmarks/bench_scavenger_hunt.py --depth 2 --turns 200

Prints one row per player count: the perft count at ``--depth`` from ``setup(seed)`` (exact)
and the seconds it took, then turns per second through ``legal_moves``/``apply`` and
explained turns per second (each random turn replayed through
``rules.scavenger_hunt.explain.explain`` as the camera would see the board). Wall-clock
figures, so they vary with machine load; counts are exact for a given ``--seed``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.scavenger_hunt.game import GAME  # noqa: E402
from rules.scavenger_hunt.explain import Observed, explain  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=2, help="perft depth")
    ap.add_argument("--turns", type=int, default=200, help="random turns per player count")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"{'players':>7} {'perft':>9} {'perft s':>8} {'turns':>6} {'turns/s':>8} {'explain/s':>9} {'ambiguous':>9}")
    for players in (2, 3, 4):
        start = GAME.setup(seed=args.seed, players=players)
        t0 = time.perf_counter()
        count = GAME.perft(start, args.depth)
        perft_s = time.perf_counter() - t0
        rng = random.Random(args.seed)
        pairs = []
        state = start
        t0 = time.perf_counter()
        while len(pairs) < args.turns:
            if GAME.is_over(state):
                state = start
            after = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            pairs.append((state, after))
            state = after
        play_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        ambiguous = sum(explain(b, Observed(a.pawns, a.coins)).ambiguous for b, a in pairs)
        explain_s = time.perf_counter() - t0
        print(
            f"{players:>7} {count:>9} {perft_s:>8.2f} {len(pairs):>6} {len(pairs) / play_s:>8.0f}"
            f" {len(pairs) / explain_s:>9.0f} {ambiguous:>9}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
