"""``caller play steppin-stones``: a text referee for Steppin' Stones in the terminal.

The Caller rolls the dice (seeded) or takes the player's own rolls (``--dice manual``),
lists and checks every action typed on stdin (``c2 a4``, ``flip c4``, ``end``; ``help``
lists the forms), prints the board and the Caller's lines, ends the turn by itself when the
dice can do nothing more, announces a win or a loss, and quits on EOF or ``quit``. Bad
input is one line and a new prompt, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Sequence, TextIO

from caller import inputs
from caller.inputs import Parser
from caller.jsonio import load_json
from caller import config
from caller.referees.textio import RefereeIo, Speak, render_tiles, run_spoken
from rules.errors import IllegalMove, RulesError
from rules.pieces import SUITS, Coin
from rules.steppin_stones.game import GAME
from rules.steppin_stones.state import EndTurn, State, Stone, active_suits, holes, home_cells, with_roll
from rules.steppin_stones.notation import ACTION_HELP, DICE_HELP, format_action, parse_action, parse_faces
from voice.phrasebook import steppin_stones as phrases

HELP = f"""\
Type {ACTION_HELP}.
  squares: column letter from the left, row number from the far side (c2), or row,col from 1 (2,3)
  a move names the square a piece leaves and the square it ends on; the path is found for you
  a pawn moves when you name its square (a pawn on a stepping stone moves, not the stone)
With --dice manual, type your roll when asked: {DICE_HELP}, in S M C A order.
Other commands: board, moves (list the legal actions), json (the position), help, quit.
Board: S5 a coin showing its value, S* a stepping stone, Sa a fixed ace, @S a pawn
(@S* on its stepping stone), ~ an empty square of a home tile, . an empty square."""


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="caller play steppin-stones",
        description=(
            "Referee a game of Steppin' Stones (solitaire) in the terminal: the Caller rolls the four dice "
            "(or you type your own rolls), you type each action, and the Caller checks it, moves the board "
            "and announces phase changes, pawns coming home, the win or the loss."
        ),
        epilog=(
            "examples:\n  caller play steppin-stones --seed 4\n  caller play steppin-stones --dice manual\n"
            "  caller play steppin-stones --seed 4 --highest-first --aces 2 --ace-stones\n"
            "  caller play steppin-stones --position p.json --say\n\n" + HELP
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seed", type=inputs.seed, default=None, help="roll (and place aces) from this seed: same seed, same game")
    p.add_argument(
        "--dice",
        choices=("auto", "manual"),
        default="auto",
        help="auto: the Caller rolls; manual: type your own roll each turn, e.g. '0 4 2 *' (default auto)",
    )
    p.add_argument("--highest-first", action="store_true", help="variant: stepping stones from the highest value down")
    p.add_argument("--aces", type=int, choices=(0, 2, 4), default=0, help="variant: 2 or 4 fixed aces near their home tiles")
    p.add_argument("--ace-stones", action="store_true", help="variant: any pawn may step on the aces")
    p.add_argument("--large", action="store_true", help="variant: all 24 tiles, 5x5 with the middle empty")
    p.add_argument("--position", metavar="POSITION.json", default=None, help="start from this position instead of a setup")
    p.add_argument("--say", action="store_true", help="speak the Caller's lines on the speaker")
    p.add_argument("--voice-out", metavar="WAV", default=None, help="write all the Caller's lines, spoken, to this WAV file at the end")
    config.add_argument(p)
    return p


def _mark(state: State, cell) -> str:
    piece = state.board[cell]
    pawn = state.pawn_on(cell)
    if pawn is not None:
        if isinstance(piece, Stone):
            return f"@{pawn.code}*"
        return f"@{pawn.code}" + ("a" if isinstance(piece, Coin) else "")
    if isinstance(piece, Stone):
        return f"{piece.code}*"
    if isinstance(piece, Coin):
        return piece.code
    if cell in holes(state.options):
        return ""
    if any(cell in home_cells(s, state.size) for s in SUITS):
        return "~"
    return "."


def render(state: State) -> str:
    """The board as text: columns a.. from the left, rows 1.. from the far side, tile borders every 2 squares."""
    n = state.size
    return render_tiles((n, n), 2, lambda cell: _mark(state, cell), lambda c: chr(ord("a") + c), 3)


def _ask_dice(io: RefereeIo, state: State) -> State | None:
    """Ask for the player's own roll until it reads; None when input ends or the player quits."""
    suits = active_suits(state)
    names = " ".join(s.code for s in suits)
    while True:
        text = io.ask(f"Roll your dice and type them ({names})> ")
        if text is None or text.lower() in ("quit", "exit", "q"):
            return None
        try:
            return with_roll(state, parse_faces(text, len(suits)))
        except RulesError as exc:
            io.print(f"? {exc}")


def _start(args: argparse.Namespace, io: RefereeIo) -> State:
    if args.position:
        state = GAME.from_json(load_json(args.position))
        io.caller([f"{GAME.title}, from {args.position}."])
        return state
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    state = GAME.setup(
        seed=seed, highest_first=args.highest_first, aces=args.aces, ace_stones=args.ace_stones, large=args.large
    )
    io.print(f"{GAME.title} (seed {seed}):")
    # The roll is announced by the loop, after a manual roll may have replaced the seeded one.
    io.caller(phrases.layout_lines(state))
    return state


def play(args: argparse.Namespace, inp: TextIO, out: TextIO, speak: Speak | None = None) -> list[str]:
    """Run the referee loop; returns every line the Caller said."""
    io = RefereeIo(inp, out, speak)
    manual = args.dice == "manual"
    state: State | None = _start(args, io)
    if manual and not args.position:
        state = _ask_dice(io, state)
        if state is None:
            return io.said
    io.caller(phrases.roll_lines(state))
    io.print(render(state))

    def board() -> None:
        io.print(render(state))
        line = phrases.dice_left_line(state)
        if line:
            io.print(line)

    while True:
        if GAME.is_over(state):
            io.caller(phrases.end_lines(state))
            break
        legal = GAME.legal_moves(state)
        if legal == [EndTurn()]:
            io.caller([phrases.nothing_to_do_line()])
            state = _next_turn(io, state, manual)
            if state is None:
                break
            continue
        text = io.command(f"Turn {state.turn}> ", HELP, board)
        if text is None:
            break
        command = text.lower()
        if command == "moves":
            io.print(" ".join(format_action(a) for a in legal))
            continue
        if command == "json":
            io.print(json.dumps(GAME.to_json(state)))
            continue
        try:
            action = parse_action(text, state.size)
        except RulesError as exc:
            io.print(f"? {exc}")
            continue
        try:
            after = GAME.apply(state, action)
        except IllegalMove as exc:
            # said from the rules' verdict (exc.reason), never from the message's English
            io.caller([phrases.illegal_line(exc.reason)])
            continue
        except RulesError as exc:
            io.print(f"? {exc}")
            continue
        if isinstance(action, EndTurn):
            # _next_turn announces the end and the new roll (typed by the player with --dice manual)
            state = _next_turn(io, state, manual)
            if state is None:
                break
            continue
        io.caller([phrases.action_line(state, action)])
        state = after
        io.print(render(state))
        line = phrases.dice_left_line(state)
        if line and not GAME.is_over(state):
            io.print(line)
    return io.said


def _next_turn(io: RefereeIo, state: State, manual: bool) -> State | None:
    """End the turn: the Caller's seeded roll, or the player's typed roll; None when input ends."""
    io.caller([phrases.action_line(state, EndTurn())])
    state = GAME.apply(state, EndTurn())
    if manual:
        state = _ask_dice(io, state)
        if state is None:
            return None
    io.caller(phrases.roll_lines(state))
    io.print(render(state))
    return state


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run_spoken(args, play, sys.stdin, sys.stdout)
    return 0
