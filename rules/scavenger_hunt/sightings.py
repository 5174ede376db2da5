"""What a camera can see wrong on a Scavenger Hunt table that is no turn at all: a start that
breaks the setup rules, a coin turned suit side up, a pawn missing or one not in the game.

The live Caller (``caller.referees.scavenger_hunt_live``) checks a table with these before it
asks the rules (``state``, ``explain``) about a turn. Each verdict is a ``rules.reasons.Reason``
with one of the codes below; ``text`` writes it, and ``voice.phrasebook.scavenger_hunt`` says it
from the same fields. Squares are 0-based ``(row, col)``; a player is a ``Suit``. The placement
rules' own codes (``reasons.EDGE``, ``reasons.TILE_TAKEN``, from ``placement_reason``) appear
among a start's problems too.

* ``NOT_CORNER``: ``cells`` (the pawn's square,), ``pieces`` (the pawn,): at the start every
  pawn stands in a corner square.
* ``PAWN_MISSING``: ``pieces`` (the pawn,): a player's pawn is not on the board.
* ``STRAY_PAWN``: ``cells`` (its square,), ``pieces`` (the pawn,): a pawn of a suit not in the game.
* ``PLAYER_COUNT``: ``number`` (pawns on the board): the game needs 2 to 4.
* ``SUIT_UP``: ``cells`` (the square,), ``pieces`` (the suit it shows,): coins lie value side up.
* ``VALUE_COUNT``: ``pieces`` (the ``Rank``, how many the players need), ``number`` (how many
  are on the board): at the start each value lies once per player.
* ``FOREIGN_COIN``: ``pieces`` (the player, the ``Suit`` the coin shows), ``cells`` (the square
  of that player's pawn when the coin most likely came from under it, else none): a coin of
  another suit laid suit side up among a player's collected coins, by their corner. A player
  collects only coins of their own suit and leaves any other on the board.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from rules.grid import Cell, Grid
from rules.pieces import RANKS, SUITS, Rank, Suit
from rules.reasons import Reason
from rules.scavenger_hunt import reasons
from rules.scavenger_hunt.board import square_name
from rules.scavenger_hunt.state import CORNERS, MAX_PLAYERS, MIN_PLAYERS, SHAPE, placement_reason

NOT_CORNER = "not-corner"
PAWN_MISSING = "pawn-missing"
STRAY_PAWN = "stray-pawn"
PLAYER_COUNT = "player-count"
SUIT_UP = "suit-up"
VALUE_COUNT = "value-count"
FOREIGN_COIN = "foreign-coin"

CODES = (NOT_CORNER, PAWN_MISSING, STRAY_PAWN, PLAYER_COUNT, SUIT_UP, VALUE_COUNT, FOREIGN_COIN)


def pawn_problems(players: Sequence[Suit], pawns: Mapping[Suit, Cell]) -> list[Reason]:
    """Players' pawns not on the board, then pawns on it of suits not in the game (suit order)."""
    out = [Reason(PAWN_MISSING, (), (suit,)) for suit in players if suit not in pawns]
    out += [Reason(STRAY_PAWN, (cell,), (suit,)) for suit, cell in sorted(pawns.items(), key=lambda kv: SUITS.index(kv[0]))
            if suit not in players]
    return out


def turned_coins(coins: Grid) -> list[Reason]:
    """A ``SUIT_UP`` for each coin of ``coins`` (ranks, suits or None) lying suit side up, row by row."""
    return [Reason(SUIT_UP, (cell,), (mark,)) for cell, mark in coins.items() if isinstance(mark, Suit)]


def start_problems(players: Sequence[Suit], pawns: Mapping[Suit, Cell], coins: Grid) -> list[Reason]:
    """Everything that keeps a table from being a Scavenger Hunt start, in the order a player
    fixes it: the number of players, each pawn (missing, not in a corner, not in the game),
    each coin row by row (suit side up, on an outside-edge square, a second coin on a tile),
    then each value that does not lie once per player. ``coins``: 8x12 of a ``Rank`` (value
    side up), a ``Suit`` (suit side up) or None."""
    out: list[Reason] = []
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        out.append(Reason(PLAYER_COUNT, number=len(players)))
    out += [Reason(PAWN_MISSING, (), (suit,)) for suit in players if suit not in pawns]
    out += [Reason(NOT_CORNER, (pawns[suit],), (suit,)) for suit in players
            if suit in pawns and pawns[suit] not in CORNERS]
    out += [r for r in pawn_problems(players, pawns) if r.code == STRAY_PAWN]
    placed: Grid = Grid.filled(SHAPE)
    for cell, mark in coins.items():
        if isinstance(mark, Suit):
            out.append(Reason(SUIT_UP, (cell,), (mark,)))
        elif mark is not None:
            why = placement_reason(placed, cell)
            if why is not None:
                out.append(why)
            placed = placed.set(cell, mark)
    if MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        values = [mark for mark in coins.values() if isinstance(mark, Rank)]
        for rank in RANKS:
            if values.count(rank) != len(players):
                out.append(Reason(VALUE_COUNT, (), (rank, len(players)), number=values.count(rank)))
    return out


def text(reason: Reason) -> str:
    """The written verdict (a placement code is written by ``reasons.text``)."""
    code, cells, pieces = reason.code, reason.cells, reason.pieces
    sq = [square_name(c) for c in cells]
    if code == NOT_CORNER:
        return f"the {pieces[0].colour} pawn on {sq[0]} is not in a corner: pawns start in the corner squares"
    if code == PAWN_MISSING:
        return f"the {pieces[0].colour} pawn is not on the board"
    if code == STRAY_PAWN:
        return f"the {pieces[0].colour} pawn on {sq[0]} is not in this game"
    if code == PLAYER_COUNT:
        return f"{reason.number} pawn(s) on the board: Scavenger Hunt is for {MIN_PLAYERS} to {MAX_PLAYERS} players"
    if code == SUIT_UP:
        return f"the coin on {sq[0]} lies suit side up: coins lie value side up"
    if code == VALUE_COUNT:
        rank, need = pieces
        return f"{reason.number} coin(s) of value {rank.code} on the board: expected {need}, one per player"
    if code == FOREIGN_COIN:
        player, suit = pieces
        where = f" (from under its pawn on {sq[0]})" if sq else ""
        return (f"a {suit.colour} coin lies among {player.colour}'s collected coins{where}: "
                f"{player.colour} collects only {player.colour} coins")
    if code in reasons.CODES:
        return reasons.text(reason)
    raise ValueError(f"{code!r} is not the code of a Scavenger Hunt sighting: expected one of {', '.join(CODES)}")
