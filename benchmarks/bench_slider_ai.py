"""Slider AI benchmark: the alpha-beta player against a random and a greedy player; prints win rates.

Games mix board sizes (``--sizes``), the AI's side (H on odd game numbers, V on even),
who moves first, and the random blocked squares (drawn from the game's seed). A game
that reaches ``--max-plies`` without a result is counted as unfinished (the rules have
no move limit; a random player can wander for ever).

    .venv/bin/python benchmarks/bench_slider_ai.py --games 200 --time 0.05 --jobs 2

The per-move budget is wall-clock (``--time``), so results depend a little on machine
load; ``--nodes`` gives a machine-independent budget instead (``--time 0 --nodes 4000``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.slider.game import GAME  # noqa: E402
from rules.slider.state import Side  # noqa: E402
from rules.slider.ai import AlphaBetaPlayer, GreedyPlayer, RandomPlayer  # noqa: E402

OPPONENTS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def game_setup(k: int, sizes: list[int], seed: int):
    """Game number ``k``'s board size, the AI's side, who moves first and the game seed."""
    n = sizes[k % len(sizes)]
    ai_side = Side.H if k % 2 else Side.V
    first = Side.H if (k // 2) % 2 else Side.V
    return n, ai_side, first, seed * 100_003 + k


def play_one(task):
    opponent, k, sizes, seed, time_s, nodes, depth, max_plies = task
    n, ai_side, first, game_seed = game_setup(k, sizes, seed)
    state = GAME.setup(seed=game_seed, n=n, first=first)
    ai = AlphaBetaPlayer(time_s=time_s, max_nodes=nodes, max_depth=depth)
    opp = OPPONENTS[opponent](game_seed)
    plies, ai_moves, ai_time = 0, 0, 0.0
    while not state.is_over and plies < max_plies:
        if state.to_move is ai_side:
            t0 = time.perf_counter()
            move = ai.choose(state)
            ai_time += time.perf_counter() - t0
            ai_moves += 1
        else:
            move = opp.choose(state)
        state = state.apply(move)
        plies += 1
    if state.winner is ai_side:
        result = "win"
    elif state.winner is not None:
        result = "loss"
    elif state.is_tie:
        result = "tie"
    else:
        result = "unfinished"
    return opponent, k, n, ai_side.value, result, plies, ai_moves, ai_time


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Slider AI vs random and greedy players: win-rate table.")
    p.add_argument("--games", type=int, default=200, help="games against each opponent (default 200)")
    p.add_argument("--time", type=float, default=0.05, help="AI budget per move in seconds (0 = no clock; default 0.05)")
    p.add_argument("--nodes", type=int, default=None, help="AI node budget per move (default: none)")
    p.add_argument("--depth", type=int, default=None, help="AI depth limit in plies (default: none)")
    p.add_argument("--sizes", default="4,5,6,7,8", help="board sizes to cycle through (default 4,5,6,7,8)")
    p.add_argument("--seed", type=int, default=1, help="benchmark seed (default 1)")
    p.add_argument("--max-plies", type=int, default=600, help="stop a game after this many plies (default 600)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--opponents", default="random,greedy", help="comma-separated: random, greedy")
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    time_s = args.time if args.time > 0 else None
    if time_s is None and args.nodes is None and args.depth is None:
        p.error("--time 0 needs --nodes or --depth")
    opponents = [o.strip() for o in args.opponents.split(",")]
    tasks = [(o, k, sizes, args.seed, time_s, args.nodes, args.depth, args.max_plies)
             for o in opponents for k in range(args.games)]
    t0 = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(play_one, tasks, chunksize=1)
    else:
        results = [play_one(t) for t in tasks]
    wall = time.perf_counter() - t0

    budget = []
    if time_s is not None:
        budget.append(f"{time_s:g} s/move")
    if args.nodes is not None:
        budget.append(f"{args.nodes} nodes/move")
    if args.depth is not None:
        budget.append(f"depth {args.depth}")
    print(f"Slider AI benchmark: budget {', '.join(budget)}; sizes {args.sizes}; seed {args.seed}; "
          f"max {args.max_plies} plies; {args.jobs} job(s); {wall:.0f} s wall")
    print()
    header = f"{'opponent':<9} {'games':>5} {'wins':>5} {'losses':>6} {'ties':>4} {'unfin.':>6} {'win rate':>8} {'as H':>7} {'as V':>7} {'ms/move':>7}"
    print(header)
    print("-" * len(header))
    for o in opponents:
        rs = [r for r in results if r[0] == o]
        count = defaultdict(int)
        for r in rs:
            count[r[4]] += 1
        by_side = {}
        for side in ("H", "V"):
            s = [r for r in rs if r[3] == side]
            by_side[side] = f"{100 * sum(r[4] == 'win' for r in s) / len(s):.1f}%" if s else "-"
        moves = sum(r[6] for r in rs)
        ms = 1000 * sum(r[7] for r in rs) / moves if moves else 0.0
        print(f"{o:<9} {len(rs):>5} {count['win']:>5} {count['loss']:>6} {count['tie']:>4} {count['unfinished']:>6} "
              f"{100 * count['win'] / len(rs):>7.1f}% {by_side['H']:>7} {by_side['V']:>7} {ms:>7.1f}")
    print()
    print("by board size (AI win rate, random / greedy):")
    for n in sizes:
        cells = []
        for o in opponents:
            s = [r for r in results if r[0] == o and r[2] == n]
            cells.append(f"{100 * sum(r[4] == 'win' for r in s) / len(s):.1f}% of {len(s)}" if s else "-")
        print(f"  N={n}: " + " / ".join(cells))
    bad = [r for r in results if r[4] != "win"]
    if bad:
        print()
        print("games not won (opponent, game number, N, AI side, result, plies):")
        for r in bad:
            print(f"  {r[0]} #{r[1]} N={r[2]} AI={r[3]} {r[4]} after {r[5]} plies")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
