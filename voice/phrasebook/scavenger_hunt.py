"""Every sentence the Caller says in Scavenger Hunt.

Pieces are named as in the rules texts ("Red 5", "Blue Ace"; pawns by colour). Squares are
said 1-based, "row 3, column 7", rows from the far side and columns from the left; tile
lines are "tile row 1-4" and "tile column 1-6" so they are never confused with squares.
"""

from __future__ import annotations

from typing import Sequence

from rules.grid import Cell
from rules.pieces import RANKS, Coin, Rank, Suit
from rules.scavenger_hunt.state import State, Turn, coin_rank
from voice.phrasebook.common import cell as square
from voice.phrasebook.common import join_and, number_word


def shift_words(shift) -> str:
    """ "tile row 2 right", "tile column 3 up"."""
    return f"tile {'row' if shift.axis == 'row' else 'column'} {shift.index + 1} {shift.direction.word}"


def value_words(rank: Rank) -> str:
    """ "a 3", "an Ace", "a Null": a coin seen by its value only."""
    return f"{'an' if rank is Rank.ACE else 'a'} {rank.spoken}"


def setup_lines(state: State) -> list[str]:
    """The setup announcement: board, pawns, the deal, each coin's square (row by row), first player."""
    lines = [
        f"Scavenger Hunt for {number_word(len(state.players))} players: {join_and(s.colour for s in state.players)}.",
        "Build a board of four rows of six tiles, grid side up.",
    ]
    for suit, cell in zip(state.players, state.pawns):
        lines.append(f"{suit.colour} pawn in the corner at {square(cell)}.")
    lines.append("Deal each player six coins, one of each value, suit side down.")
    for cell, mark in state.coins.items():
        if mark is not None:
            lines.append(f"Place {value_words(coin_rank(mark))} on {square(cell)}.")
    lines.append(f"{state.mover.colour} plays first.")
    return lines


def turn_lines(before: State, turn: Turn, after: State) -> list[str]:
    """What the Caller says after a legal turn: the shift, the pawn move, the peek, then who plays next or who won."""
    me = before.to_move
    who = before.mover.colour
    lines = [f"{who} shifts {shift_words(turn.shift)}."]
    _, pawns = before.shifted(turn.shift)
    if turn.to == pawns[me]:
        lines.append(f"{who} stays on {square(turn.to)}.")
    else:
        lines.append(f"{who} moves to {square(turn.to)}.")
        mark = before.shifted(turn.shift)[0][turn.to]
        got = after.collected[me]
        if mark is not None:
            if len(got) > len(before.collected[me]):
                lines.append(f"{who} collects the {Coin(before.mover, coin_rank(mark)).spoken}: {len(got)} of 6.")
            else:
                lines.append(f"{who} peeks at {value_words(coin_rank(mark))} and leaves it.")
    lines.extend(status_lines(after))
    return lines


def status_lines(state: State) -> list[str]:
    """Who won, or who plays next."""
    if state.winner is not None:
        return [f"{state.winner.colour} wins with all six {state.winner.colour} coins!"]
    return [f"{state.mover.colour} to play."]


def illegal_line(reason: str) -> str:
    return f"Illegal move: {reason}."


def barred_lines(state: State) -> list[str]:
    """One line per shift nobody may make now."""
    return [
        f"No {shift_words(shift)} until {owner.colour} has played again."
        for shift, owner in state.barred_shifts().items()
    ]


def collected_line(state: State) -> str:
    return "Collected: " + ", ".join(f"{s.colour} {len(got)} of {len(RANKS)}" for s, got in zip(state.players, state.collected)) + "."


def placement_prompt(suit: Suit, hand: Sequence[Rank]) -> str:
    return f"{suit.colour}, place one of your coins: {', '.join(r.spoken for r in hand)}."


def placed_line(suit: Suit, rank: Rank, cell: Cell) -> str:
    return f"{suit.colour} places {value_words(rank)} on {square(cell)}."
