"""``caller setup [GAME] --seed N [--json] [--say]``: the Caller deals and announces a setup."""

from __future__ import annotations

import argparse
import random

from caller import games, inputs
from caller import config as config_mod
from caller.jsonio import dumps_line


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "setup",
        help="deal and announce a random setup",
        description=(
            "Deal a setup the way the Caller does in the rules text and announce it: for Easy Slider "
            "the pawns, then the coins, then the tiles row by row. The same --seed always gives the "
            "same setup; without it the deal uses system randomness."
        ),
        epilog="examples:\n  caller setup --seed 7\n  caller setup --seed 7 --json\n"
        "  caller setup scavenger-hunt --seed 3 --players 4 --json\n  caller setup --seed 7 --say --voice-out setup.wav",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", nargs="?", default="easy-slider", choices=games.names(), help="game (default: easy-slider)")
    p.add_argument("--seed", type=inputs.seed, default=None, help="deal from this seed (same seed, same setup)")
    p.add_argument("--players", type=int, default=None, help="number of players, for games that need it")
    p.add_argument("--json", action="store_true", help="print the layout as one JSON object instead of the announcement")
    p.add_argument("--say", action="store_true", help="speak the announcement (speaker, or --voice-out)")
    p.add_argument("--voice-out", metavar="WAV", default=None, help="write the spoken announcement to this WAV file")
    config_mod.add_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rules.outputs import check_outputs

    check_outputs([args.voice_out], [args.config])
    voice_config = config_mod.load(args.config).voice  # a bad settings file fails before anything is dealt
    entry = games.entry(args.game)
    game = entry.game
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    options = {}
    if args.players is not None:
        options["players"] = args.players
    state = game.setup(seed=seed, **options)
    if args.json:
        print(dumps_line(game.to_json(state)))
    lines = entry.setup_lines(state)
    if not args.json:
        print(f"{game.title} setup (seed {seed}):")
        for line in lines:
            print(line)
    if args.say or args.voice_out:
        from voice import say

        say(lines, voice_out=args.voice_out, speaker=args.say, config=voice_config)
    return 0
