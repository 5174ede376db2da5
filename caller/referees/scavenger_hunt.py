"""``caller play scavenger-hunt``: a text referee for Scavenger Hunt in the terminal.

Reads one turn per line from stdin (``R2> 3,7``; ``help`` lists the forms), prints the board
and the Caller's announcements, and quits on EOF or ``quit``. Bad input is one line and a
new prompt, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from typing import Callable, Sequence, TextIO

from caller.errors import CallerError
from caller import inputs
from caller.inputs import Parser
from caller.jsonio import load_json
from rules.errors import IllegalMove, RulesError
from rules.grid import Grid
from rules.pieces import SUITS, Coin
from rules.scavenger_hunt.game import GAME
from rules.scavenger_hunt.state import SHAPE, TILE, State, coin_rank, deal, forget_suits, placement_problem
from rules.scavenger_hunt.notation import TURN_HELP, parse_placement, parse_turn
from caller import config
from caller.referees.textio import RefereeIo, render_tiles, run_spoken
from voice.phrasebook import scavenger_hunt as phrases

HELP = f"""\
Type {TURN_HELP}.
  shift: R1-R4 (tile rows) with < or >, C1-C6 (tile columns) with ^ or v; words work too (row 2 right)
  pawn:  the square row,col after the shift (3,7), a direction and distance (up 3, <2), or stay
  +/-:   the coin the pawn ended on was collected / not (public mode only)
Other commands: board, moves (count the legal turns), json (the position; in referee mode it shows
the suits), help, quit."""


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="caller play scavenger-hunt",
        description=(
            "Referee a game of Scavenger Hunt in the terminal: type each turn (shift, pawn move), "
            "see the board and read the Caller's announcements. Squares are row,col counted from 1, "
            "rows from the far side; the board shows coins by value and pawns by suit letter."
        ),
        epilog=(
            "examples:\n  caller play scavenger-hunt --seed 3\n  caller play scavenger-hunt --players 2 --place\n"
            "  caller play scavenger-hunt --public --position start.json\n\n" + HELP
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seed", type=inputs.seed, default=None, help="deal and place from this seed (same seed, same game)")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="number of players (default 4)")
    p.add_argument(
        "--public",
        action="store_true",
        help="public mode: the Caller knows only coin values; players add + or - to say whether they collected",
    )
    p.add_argument("--allow-stay", action="store_true", help="a pawn may stay put even when it could move")
    p.add_argument("--place", action="store_true", help="players type their own coin placement ('3 4,5') after the deal")
    p.add_argument("--position", metavar="POSITION.json", default=None, help="start from this position instead of a deal")
    p.add_argument("--show-suits", action="store_true", help="show every coin's suit on the board (referee mode; spoils the memory game)")
    p.add_argument("--say", action="store_true", help="speak the Caller's lines on the speaker")
    p.add_argument("--voice-out", metavar="WAV", default=None, help="write all the Caller's lines, spoken, to this WAV file at the end")
    config.add_argument(p)
    return p


def render(state: State, show_suits: bool = False) -> str:
    """The board as text: squares numbered from 1, tile borders every 2 squares, coins by value
    (``3``; ``S3`` with ``show_suits``), pawns by suit letter, ``M:3`` a pawn on a coin."""
    cells: dict = {}
    for cell, mark in state.coins.items():
        if mark is not None:
            cells[cell] = mark.code if (show_suits and isinstance(mark, Coin)) else coin_rank(mark).code
    for suit, cell in zip(state.players, state.pawns):
        cells[cell] = suit.code + (":" + cells[cell] if cell in cells else "")
    width = max([len(str(SHAPE[1]))] + [len(v) for v in cells.values()])
    return render_tiles(SHAPE, TILE, lambda cell: cells.get(cell, "."), lambda c: str(c + 1), width)


def _place(io: RefereeIo, seed: int, players: int, public: bool) -> Grid | None:
    """Players place their dealt coins in turn; returns the coins grid, or None when input ends."""
    suits = SUITS[:players]
    hands = [list(h) for h in deal(suits, random.Random(seed))]
    coins: Grid = Grid.filled(SHAPE)
    io.caller([f"Deal each player six coins, one of each value, suit side down. {suits[0].colour} places first."])
    turn = 0
    while any(hands):
        me = turn % players
        if not hands[me]:
            turn += 1
            continue
        io.caller([phrases.placement_prompt(suits[me], [c.rank for c in hands[me]])])
        while True:
            text = io.ask(f"{suits[me].colour} places> ")
            if text is None or text.lower() in ("quit", "exit"):
                return None
            try:
                rank, cell = parse_placement(text)
                coin = next((c for c in hands[me] if c.rank is rank), None)
                if coin is None:
                    raise RulesError(f"{suits[me].colour} has no {rank.spoken} left to place")
                problem = placement_problem(coins, cell)
                if problem:
                    raise RulesError(problem)
            except RulesError as exc:
                io.print(f"? {exc}")
                continue
            break
        hands[me].remove(coin)
        coins = coins.set(cell, coin_rank(coin) if public else coin)
        io.caller([phrases.placed_line(suits[me], rank, cell)])
        turn += 1
    return coins


def _start(args: argparse.Namespace, io: RefereeIo) -> State | None:
    mode = "public" if args.public else "referee"
    if args.position:
        state = GAME.from_json(load_json(args.position))
        if args.public:
            state = forget_suits(state)
        if args.allow_stay:
            state = replace(state, must_move=False)
        io.caller([f"{GAME.title}, from {args.position}."] + phrases.status_lines(state))
        return state
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.place:
        coins = _place(io, seed, args.players, args.public)
        if coins is None:
            return None
        state = GAME.setup(seed=seed, players=args.players, mode=mode, must_move=not args.allow_stay, coins=coins)
        io.caller([f"All coins are placed. {state.mover.colour} plays first."])
        return state
    state = GAME.setup(seed=seed, players=args.players, mode=mode, must_move=not args.allow_stay)
    io.print(f"{GAME.title} (seed {seed}):")
    io.caller(phrases.setup_lines(state))
    return state


def play(args: argparse.Namespace, inp: TextIO, out: TextIO, speak: Callable[[list[str]], None] | None = None) -> list[str]:
    """Run the referee loop; returns every line the Caller said."""
    io = RefereeIo(inp, out, speak)
    state = _start(args, io)
    if state is None:
        return io.said
    show = args.show_suits

    def board() -> None:
        io.print(render(state, show))
        io.print(phrases.collected_line(state))
        for line in phrases.barred_lines(state):
            io.print(line)

    io.print(render(state, show))
    while not GAME.is_over(state):
        text = io.command(f"{state.mover.colour} ({state.mover.code}) to play> ", HELP, board)
        if text is None:
            break
        command = text.lower()
        if command == "moves":
            io.print(f"{len(GAME.legal_moves(state))} legal turns")
            continue
        if command == "json":
            io.print(json.dumps(GAME.to_json(state)))
            continue
        try:
            turn = parse_turn(text, state)
        except RulesError as exc:
            io.print(f"? {exc}")
            continue
        try:
            after = GAME.apply(state, turn)
        except IllegalMove as exc:
            # said from the rules' verdict (exc.reason), never from the message's English
            io.caller([phrases.illegal_line(exc.reason)])
            continue
        except RulesError as exc:
            io.print(f"? {exc}")
            continue
        io.caller(phrases.turn_lines(state, turn, after))
        state = after
        io.print(render(state, show))
    return io.said


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.show_suits and args.public:
        raise CallerError("--show-suits needs the referee mode: public mode does not know the suits")

    run_spoken(args, play, sys.stdin, sys.stdout)
    return 0
