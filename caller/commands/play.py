"""``caller play GAME [OPTIONS]``: a text referee in the terminal for one game.

Each game's referee lives in ``caller/referees/<game>.py`` and exposes ``main(argv) -> int``,
with its own ``--help``.
"""

from __future__ import annotations

import argparse
import importlib

import rules
from caller.errors import CallerError


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
    p.add_argument("game", choices=rules.names())
    p.add_argument("options", nargs=argparse.REMAINDER, help="options for the game's referee")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    module_name = "caller.referees." + args.game.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise CallerError(f"there is no text referee for {args.game!r} yet") from None
    return int(module.main(list(args.options)) or 0)
