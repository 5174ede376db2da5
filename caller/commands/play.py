"""``caller play GAME [OPTIONS]``: a text referee in the terminal for one game.

Each game's referee is named in its entry in ``caller.games`` (a module of
``caller/referees/``) and exposes ``main(argv) -> int``, with its own ``--help``.
"""

from __future__ import annotations

import argparse

from caller import games


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal with the Caller as referee",
        description=(
            "Start a text referee for GAME: type turns, see the board, hear or read the Caller's "
            "announcements. Options after GAME belong to that game's referee: "
            "'caller play GAME --help' lists them."
        ),
        epilog="examples:\n  caller play steppin-stones --seed 4\n  caller play slide --players 3",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", choices=games.names())
    p.add_argument("options", nargs=argparse.REMAINDER, help="options for the game's referee")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    entry = games.entry(args.game)
    entry.require("referee", f"play {args.game}")
    return int(entry.referee.main(list(args.options)) or 0)
