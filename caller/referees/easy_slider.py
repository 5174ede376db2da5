"""``caller play easy-slider``: a text referee for Easy Slider in the terminal.

The Caller deals (or takes ``--position``), announces the setup and says "Go!"; the player
types one slide a line (``rules.easy_slider.notation``) and ``done`` to call "Done!", which
the Caller checks against the goal of the pawns and coins. Bad input is one line and a new
prompt; EOF or ``quit`` ends cleanly with status 0.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Sequence, TextIO

from caller import config, inputs
from caller.inputs import Parser
from caller.jsonio import dumps_line, load_json
from caller.referees.textio import RefereeIo, Speak, run_spoken
from rules.easy_slider.game import GAME
from rules.easy_slider.notation import SLIDE_HELP, format_slide, parse_slide
from rules.easy_slider.state import EasySliderState, goal_problems, is_done
from rules.errors import IllegalMove, NotationError
from voice.phrasebook import easy_slider as phrases

DONE_WORDS = ("done", "done!")

HELP = f"""\
Type {SLIDE_HELP}.
  2,5     the tile on row 2, column 5 slides into the hole (rows from the coins' side, columns from the left)
  S5      the Red 5 slides into the hole (it must be next to it)
  up      the tile below the hole slides up into it (also down, left, right, ^ v < >)
Other commands: done (call "Done!"), moves (the slides there are), board, json (the position), help, quit."""


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="caller play easy-slider",
        description=(
            "Play Easy Slider in the terminal with the Caller as referee: the Caller deals and announces "
            "the setup, you type each slide, and call done when the board matches the pawns and coins; "
            "the Caller checks your \"Done!\"."
        ),
        epilog="examples:\n  caller play easy-slider --seed 7\n  caller play easy-slider --position start.json\n\n" + HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seed", type=inputs.seed, default=None, help="deal from this seed (same seed, same setup)")
    p.add_argument("--position", metavar="POSITION.json", default=None,
                   help="start from this position ('caller setup --json') instead of a deal")
    p.add_argument("--say", action="store_true", help="speak the Caller's lines on the speaker")
    p.add_argument("--voice-out", metavar="WAV", default=None, help="write every spoken line of the game to this WAV file")
    config.add_argument(p)
    return p


def render(state: EasySliderState) -> str:
    """The board as text: the coins above the columns, the pawns left of rows 1-4, ``..`` the hole."""
    lines = ["         " + " ".join(f"{c + 1:>3}" for c in range(len(state.coins))),
             "  coins  " + " ".join(f"{coin.code:>3}" for coin in state.coins)]
    for r, row in enumerate(state.board.rows):
        pawn = state.pawns[r].code if r < len(state.pawns) else " "
        cells = " ".join(f"{(tile.code if tile is not None else '..'):>3}" for tile in row)
        lines.append(f"  {r + 1} {pawn}    {cells}")
    return "\n".join(lines)


def _start(args: argparse.Namespace, io: RefereeIo) -> EasySliderState:
    if args.position:
        state = GAME.from_json(load_json(args.position))
        io.print(f"{GAME.title}, from {args.position}:")
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        state = GAME.setup(seed=seed)
        io.print(f"{GAME.title} (seed {seed}):")
    io.caller(phrases.setup_lines(state) + [phrases.go()])
    return state


def play(args: argparse.Namespace, inp: TextIO, out: TextIO, speak: Speak | None = None) -> list[str]:
    """Run the referee loop; returns every line the Caller said."""
    io = RefereeIo(inp, out, speak)
    state = _start(args, io)
    slides = 0
    show = True
    while True:
        if show:
            io.print(render(state))
        show = False
        text = io.command("slide> ", HELP, lambda: io.print(render(state)))
        if text is None:
            io.print("end of input: bye." if io.at_eof else "bye.")
            return io.said
        word = text.lower()
        if word in DONE_WORDS:
            if is_done(state):
                io.caller([phrases.done(True)])
                io.print(f"solved in {slides} slide{'s' if slides != 1 else ''}.")
                return io.said
            io.caller([phrases.done(False, wrong=goal_problems(state))])
            continue
        if word == "moves":
            io.print("slides: " + ", ".join(format_slide(m) for m in GAME.legal_moves(state)))
            continue
        if word == "json":
            io.print(dumps_line(GAME.to_json(state)))
            continue
        try:
            move = parse_slide(text, state)
            state = GAME.apply(state, move)
        except NotationError as exc:
            io.print(f"{exc}; 'help' explains")
            continue
        except IllegalMove as exc:
            io.caller([f"Illegal move: {exc}."])
            continue
        slides += 1
        io.print(format_slide(move))
        show = True


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run_spoken(args, play, sys.stdin, sys.stdout)
    return 0
