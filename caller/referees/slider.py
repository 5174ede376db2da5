"""``caller play slider [options]``: the Slider text referee, optionally against the computer.

Also behind ``caller slider play --ai H|V``. Turns are read from stdin, one a line:
``(i,j): DIR`` (i the column, j the row from the bottom, DIR one of UP, DOWN, LEFT,
RIGHT), or ``moves``, ``board``, ``help``, ``quit``. Forced passes are played by the
referee. Bad input gets a one-line message and a new prompt; EOF or ``quit`` ends
cleanly with status 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from caller.errors import CallerError
from caller import inputs
from caller.inputs import Parser
from caller.jsonio import read_text
from caller import config
from caller.referees.textio import RefereeIo, Speak, run_spoken
from rules.errors import IllegalMove, NotationError
from rules.slider.game import GAME
from rules.slider.notation import parse_move, parse_squares, parse_text
from rules.slider.state import DEFAULT_N, MAX_N, MIN_N, PASS, Side, SliderState
from rules.slider.ai import AlphaBetaPlayer
from voice.phrasebook import slider as phrases

DESCRIPTION = """\
Play Slider (Leckie & Erfani) in the terminal with the Caller as referee, two players at
one keyboard or one player against the computer (--ai). Type one move a line:
'(i,j): DIR' with i the column and j the row, (0,0) bottom-left, DIR one of UP, DOWN,
LEFT, RIGHT. H moves up, down or right and leaves off the right edge; V moves left,
right or up and leaves off the top edge. Other inputs: 'moves' lists the legal moves,
'board' shows the board, 'help', 'quit'. A player with no legal move passes
automatically."""

EPILOG = """\
examples:
  caller play slider --n 5 --first H
  caller play slider --ai V --n 6 --seed 3 --time 0.5
  caller slider play --ai H --n 4 --blocked 2,2 --first V
  caller play slider --board board.txt --first V --ai V
"""

HELP_TEXT = (
    "type a move as '(i,j): DIR' (i column, j row from the bottom; DIR UP/DOWN/LEFT/RIGHT), "
    "or 'moves', 'board', 'help', 'quit'"
)


def add_arguments(p: argparse.ArgumentParser, ai_required: bool = False) -> None:
    """The referee's options (shared by ``caller play slider`` and ``caller slider play``)."""
    p.add_argument(
        "--ai",
        choices=["H", "V"],
        type=str.upper,
        required=ai_required,
        default=None,
        help="the side the computer plays" + ("" if ai_required else " (default: none, two humans)"),
    )
    p.add_argument("--n", type=int, default=DEFAULT_N, help=f"board size, {MIN_N} to {MAX_N} (default {DEFAULT_N})")
    p.add_argument("--first", choices=["H", "V"], type=str.upper, default=None,
                   help="who moves first (default: drawn from the seed)")
    p.add_argument("--blocked", nargs="+", default=None, metavar="I,J",
                   help="blocked squares, column,row from the bottom-left (default: drawn from the seed)")
    p.add_argument("--blocks", type=int, default=None, metavar="K",
                   help="number of random blocked squares when --blocked is not given (default: 0 to N-3)")
    p.add_argument("--seed", type=inputs.seed, default=None, help="seed for the random blocks and first player")
    p.add_argument("--board", metavar="BOARD.txt", default=None,
                   help="start from a board in the course text format (then --first is the player to move, default H)")
    p.add_argument("--time", type=inputs.finite_float(0.0, zero_ok=True), default=1.0, metavar="S",
                   help="the computer's budget per move in seconds (default 1; 0 = no clock, give --depth or --nodes)")
    p.add_argument("--depth", type=int, default=None, help="the computer's deepest search in plies (default: no limit)")
    p.add_argument("--nodes", type=int, default=None, help="the computer's node budget per move (default: no limit)")
    p.add_argument("--say", action="store_true", help="speak the Caller's lines on the speaker")
    p.add_argument("--voice-out", metavar="WAV", default=None, help="write every spoken line of the game to this WAV file")
    config.add_argument(p)


def build_parser(prog: str = "caller play slider", ai_required: bool = False) -> argparse.ArgumentParser:
    p = Parser(prog=prog, description=DESCRIPTION, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p, ai_required)
    return p


def render_board(state: SliderState) -> str:
    """The board with row numbers on the left and column numbers below ((0,0) bottom-left)."""
    rows = state.to_text().splitlines()[1:]
    out = [f"{state.n - 1 - k} | {row}" for k, row in enumerate(rows)]
    out.append("    " + "-" * (2 * state.n - 1))
    out.append("    " + " ".join(str(i) for i in range(state.n)))
    return "\n".join(out)


def start_state(args: argparse.Namespace) -> SliderState:
    if args.board is not None:
        return parse_text(read_text(args.board), to_move=args.first or "H", source=str(Path(args.board)))
    blocked = parse_squares(args.blocked) if args.blocked is not None else None
    return GAME.setup(seed=args.seed, n=args.n, blocked=blocked, blocks=args.blocks, first=args.first)


def make_ai(args: argparse.Namespace) -> AlphaBetaPlayer:
    time_s = args.time if args.time and args.time > 0 else None
    if time_s is None and args.depth is None and args.nodes is None:
        raise CallerError("--time 0 needs --depth or --nodes, or the computer would think forever")
    if args.depth is not None and args.depth < 1:
        raise CallerError(f"--depth must be 1 or more, got {args.depth}")
    if args.nodes is not None and args.nodes < 1:
        raise CallerError(f"--nodes must be 1 or more, got {args.nodes}")
    return AlphaBetaPlayer(time_s=time_s, max_depth=args.depth, max_nodes=args.nodes)


def run(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Play one game on ``stdin``/``out`` (default: the process's); 0 when it ends or the user quits.

    Speech (``--say``, ``--voice-out``) goes through the referees' shared ``run_spoken``.
    """
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    state = start_state(args)
    ai_side = Side.parse(args.ai) if args.ai else None
    ai = make_ai(args) if ai_side else None

    def play(_args: argparse.Namespace, inp: TextIO, o: TextIO, speak: Speak | None) -> list[str]:
        io = RefereeIo(inp, o, speak)
        _play(state, ai_side, ai, io)
        return io.said

    run_spoken(args, play, stdin, out)
    return 0


def _play(state: SliderState, ai_side: Side | None, ai: AlphaBetaPlayer | None, io: RefereeIo) -> None:
    """The referee loop: board, turns, the Caller's lines; returns at the end of the game, EOF or quit."""
    io.caller(phrases.setup_lines(state))
    if ai_side:
        io.caller([phrases.computer_plays_line(ai_side)])
    show = True
    while True:
        if show:
            io.print(render_board(state))
        show = True
        if state.is_over:
            io.caller(phrases.result_lines(state))
            return
        side = state.to_move
        if state.legal_moves() == [PASS]:
            io.caller([phrases.pass_line(side)])
            state = state.apply(PASS)
            continue
        if side is ai_side:
            move = ai.choose(state)
            io.print(f"{side}: {move}")
            io.caller([phrases.move_line(side, move, state.n)])
            state = state.apply(move)
            continue
        text = io.command(f"{side.word} ({side})> ", HELP_TEXT, lambda: io.print(render_board(state)))
        if text is None:
            io.print("end of input: bye." if io.at_eof else "bye.")
            return
        if text.lower() == "moves":
            io.print("legal moves: " + ", ".join(str(m) for m in state.legal_moves()))
            show = False
            continue
        try:
            move = parse_move(text)
        except NotationError as exc:
            io.print(f"{exc}; 'help' explains")
            show = False
            continue
        try:
            new_state = state.apply(move)
        except IllegalMove as exc:
            # said from the rules' verdict (exc.reason), never from the message's English
            io.caller([phrases.illegal_line(exc.reason)])
            show = False
            continue
        io.caller([phrases.move_line(side, move, state.n)])
        state = new_state


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run(args)
