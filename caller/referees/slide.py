"""``caller play slide``: a text referee for a table of 2 to 6 Slide players at one terminal.

Each round every player, in turn order, picks a face-down card of their grid to turn face
up (the referee keeps the choices hidden until everyone has chosen, standing in for "at
the same time"); then, from the first player clockwise, each takes a card from the middle
and pushes it in. Turns are read from stdin one line at a time; the board and the
Caller's lines go to stdout. Bad input gets a one-line message and the same prompt again.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, Callable, TextIO

from caller import config, inputs
from caller.inputs import Parser
from caller.referees.textio import HELP_WORDS, RefereeIo, speaker, write_voice_out
from rules.errors import IllegalMove, NotationError, RulesError
from rules.slide.notation import number, parse_move, render_grid
from rules.slide.state import MAX_PLAYERS, MIN_PLAYERS, TOURNAMENT_TARGET, Phase, Push, Reveal, Side, SlideState, Tournament, deal
from voice.phrasebook import slide as phrases

HELP = """\
Commands:
  ROW COL        reveal phase: turn the face-down card at ROW, COL (1-4, from the top left) face up
  CARD SIDE      push phase: take CARD from the middle and push it in from SIDE (top, bottom, left, right;
                 or t, b, l, r), e.g. '7 left'; when one number is left in the middle, SIDE alone is enough
  board          show every grid again
  help           this text
  quit           stop (end of input stops too)
In the grids: '#' is a face-down card, '.' the hole; at the end, [n] marks a card that cancelled."""


class _Quit(Exception):
    """The players typed quit or the input ended."""


class Referee(RefereeIo):
    """One table's session: reads turns from ``inp``, writes to ``out``, keeps every Caller line in
    ``said`` and hands each batch to ``speak`` (when given)."""

    def __init__(self, inp: TextIO, out: TextIO, speak: Callable[[list[str]], None] | None = None):
        # piped turns are echoed after their prompt so that a transcript reads like a session
        super().__init__(inp, out, speak, echo=not _isatty(inp))

    def next_command(self, prompt: str) -> str:
        """The next input line that is not help/board/quit; raises _Quit on quit or end of input."""
        text = self.command(prompt, HELP, lambda: self.show_all(self.state), help_words=HELP_WORDS + ("h",))
        if text is None:
            raise _Quit
        return text

    def show_grid(self, state: SlideState, p: int) -> None:
        self.print(f"{phrases.player(p)}'s grid:")
        self.print(_indent(render_grid(state.grids[p])))

    def show_all(self, state: SlideState) -> None:
        for p in range(state.players):
            self.show_grid(state, p)
        if state.phase is Phase.PLACE:  # during the reveal the middle stays secret until all have chosen
            self.print("Middle: " + " ".join(map(str, state.middle)))

    def play_game(self, state: SlideState) -> SlideState:
        """Referee one game from ``state`` to the end; returns the finished state."""
        self.state = state
        while not state.is_over:
            if state.phase is Phase.REVEAL and state.to_act == state.first:
                self.print()
                self.caller(phrases.round_lines(state))
            p = state.to_act
            if state.phase is Phase.REVEAL:
                self.show_grid(state, p)
                state, _ = self.take_turn(state, f"{phrases.player(p)}, reveal (ROW COL)> ", _as_reveal)
                self.print(f"{phrases.player(p)} has chosen.")
                if state.phase is Phase.PLACE:
                    self.caller([phrases.middle_line(state.middle)])
            else:
                self.show_grid(state, p)
                sides = ", ".join(s.value for s in state.push_sides(p))
                self.print(f"Middle: {' '.join(map(str, state.middle))}   you may push from: {sides}")
                self.caller([phrases.push_prompt(p, state.middle)])
                hole = state.hole(p)
                state, push = self.take_turn(state, f"{phrases.player(p)}, push (CARD SIDE)> ", _as_push)
                move_lines = [phrases.push_line(p, push, hole)]
                if state.phase is not Phase.PLACE:
                    move_lines.append(phrases.counter_line(state))
                self.caller(move_lines)
            self.state = state
        self.print()
        self.print("Final grids:")
        scores = state.scores()
        for p in range(state.players):
            self.print(f"{phrases.player(p)}'s grid:")
            self.print(_indent(render_grid(state.grids[p], cancelled=scores[p].cancelled)))
        lines = phrases.score_lines(scores)
        tie = phrases.tiebreak_line(scores)
        if tie:
            lines.insert(len(lines) - 1, tie)
        if state.players > 2:
            lines.append(phrases.places_line(scores))
        self.caller(lines)
        return state

    def take_turn(self, state: SlideState, prompt: str, read: Callable[[str, SlideState], Any]) -> tuple[SlideState, Any]:
        """Prompt until the input is a legal move for the player to act; returns the new state and the move."""
        while True:
            text = self.next_command(prompt)
            try:
                move = read(text, state)
            except RulesError as exc:
                # a typing slip, not a move: answered on the terminal, not called aloud
                self.print(f"{str(exc)[0].upper()}{str(exc)[1:]}. Type 'help' for the commands.")
                continue
            try:
                return state.apply(move), move
            except IllegalMove as exc:
                # said from the rules' verdict (exc.reason), never from the message's English
                self.caller([phrases.illegal_line(exc.reason)])


def _as_reveal(text: str, state: SlideState) -> Reveal:
    move = parse_move(text)
    if not isinstance(move, Reveal):
        raise NotationError(f"{text!r} is a push, but everyone is revealing: type ROW COL, e.g. '2 3'")
    return move


def _as_push(text: str, state: SlideState) -> Push:
    words = text.split()
    if len(words) == 1 and number(words[0]) is None and len(set(state.middle)) == 1:
        return Push(state.middle[0], Side.parse(words[0]))
    move = parse_move(text)
    if not isinstance(move, Push):
        raise NotationError(f"{text!r} is a reveal, but it is time to push: type CARD SIDE, e.g. '7 left'")
    return move


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="caller play slide",
        description=(
            "Referee a game of Slide (Gigamic) for 2 to 6 players at one terminal. Each round every player "
            "picks a face-down card to reveal (ROW COL), then from the first player clockwise each takes a "
            "card from the middle and pushes it in (CARD SIDE, e.g. '7 left'). Type 'help' during play."
        ),
        epilog=(
            "examples:\n  caller play slide --players 3 --seed 4\n"
            "  caller play slide --tournament --say\n  caller play slide --seed 1 < turns.txt"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--players", type=int, default=2, help=f"number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (default 2)")
    p.add_argument("--seed", type=inputs.seed, default=None, help="shuffle from this seed (same seed, same deal)")
    p.add_argument("--first", type=int, default=None, help="who plays first, 1..PLAYERS (default: drawn from the seed)")
    p.add_argument(
        "--tournament", action="store_true", help=f"play games until someone reaches --target points (default {TOURNAMENT_TARGET})"
    )
    p.add_argument("--target", type=int, default=TOURNAMENT_TARGET, help="tournament points that end the tournament")
    p.add_argument("--say", action="store_true", help="speak the Caller's lines as they are made")
    p.add_argument("--voice-out", metavar="WAV", default=None, help="write all the Caller's lines to this WAV file at the end")
    config.add_argument(p)
    return p


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players {args.players}: Slide is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if args.first is not None and not 1 <= args.first <= args.players:
        parser.error(f"--first {args.first}: expected 1 to {args.players}")
    if args.target < 1:
        parser.error(f"--target {args.target}: expected a positive number of points")
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    from rules.outputs import check_outputs

    check_outputs([args.voice_out])  # before the game, not after it
    ref = Referee(inp, out, speaker(args))
    seeds = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    first = None if args.first is None else args.first - 1
    try:
        if not args.tournament:
            state = deal(args.seed, args.players, first)
            ref.caller(phrases.setup_lines(state))
            ref.print("Type 'help' for the commands.")
            ref.play_game(state)
        else:
            tournament = None
            while tournament is None or not tournament.is_over:
                # each game of a tournament gets its own deal, drawn from the one --seed
                game_seed = seeds.randrange(2**31)
                game_first = first if tournament is None else tournament.first
                state = deal(game_seed, args.players, game_first)
                if tournament is None:
                    tournament = Tournament.start(args.players, state.first, args.target)
                ref.print()
                ref.print(f"Game {tournament.games + 1}")
                ref.caller(phrases.setup_lines(state))
                state = ref.play_game(state)
                tournament = tournament.record(state.scores())
                ref.caller(phrases.tournament_lines(tournament))
    except _Quit:
        ref.print("Game stopped.")
    finally:
        write_voice_out(args, ref.said)
    return 0
