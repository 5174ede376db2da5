"""``caller perft GAME POSITION.json --depth N``: count the legal move sequences of a given depth."""

from __future__ import annotations

import argparse

import rules
from caller.errors import CallerError
from caller.jsonio import load_position


#: the deepest count each game allows. Counts grow about geometrically with the depth (from
#: a dealt setup, one more ply multiplies the time by about 3.7 for Easy Slider, 150 for
#: Scavenger Hunt, 40 for Steppin' Stones, 9 for Slider, 6 to 25 for Slide); these depths
#: take at most a few minutes from a setup, one more would take hours, so a deeper request
#: is refused rather than left to run without end


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "perft",
        help="count legal move sequences from a position (a rules self-check)",
        description=(
            "Count the legal move (turn) sequences of exactly DEPTH moves from a position and print the "
            "number as one integer. Used to check a rules engine against hand counts. The position "
            "JSON schema of each game is documented in the README."
        ),
        epilog="example:\n  caller setup scavenger-hunt --seed 1 --json > p.json && caller perft scavenger-hunt p.json --depth 2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", choices=rules.names())
    p.add_argument("position", metavar="POSITION.json")
    p.add_argument("--depth", type=int, required=True, help="number of moves, 0 to a limit per game (" + ", ".join(f"{g} {rules.record(g).max_perft_depth}" for g in rules.names()) + ")")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    limit = rules.record(args.game).max_perft_depth
    if not 0 <= args.depth <= limit:
        raise CallerError(f"--depth {args.depth}: expected 0 to {limit} for {args.game} "
                          "(each move more multiplies the time; deeper counts would not finish)")
    game = rules.get(args.game)
    state = load_position(game, args.position)
    print(rules.perft(game, state, args.depth))
    return 0
