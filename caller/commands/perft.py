"""``caller perft GAME POSITION.json --depth N``: count the legal move sequences of a given depth."""

from __future__ import annotations

import argparse

import rules
from caller.errors import CallerError
from caller.jsonio import load_json


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
    p.add_argument("--depth", type=int, required=True, help="number of moves (>= 0)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise CallerError(f"--depth must be 0 or more, got {args.depth}")
    game = rules.get(args.game)
    state = game.from_json(load_json(args.position))
    print(rules.perft(game, state, args.depth))
    return 0
