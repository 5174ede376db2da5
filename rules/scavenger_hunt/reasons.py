"""Why a Scavenger Hunt turn, an observed change or a coin's placement is not legal: the codes,
what each ``Reason`` holds for them, and their written form.

``text`` is the one place that writes these verdicts (the message of ``IllegalMove``, and of
``MalformedPosition`` for a placement); the Caller's spoken sentences come from the same
fields in ``voice.phrasebook.scavenger_hunt``. Squares are 0-based ``(row, col)``, written
1-based "3,7". Players (pawns) are ``Suit``s; a coin is a ``Coin`` in referee mode and a
``Rank`` (its value) in public mode.

A turn (``apply``; ``explain`` gives the same verdicts for the turns it tries):

* ``GAME_OVER``: ``pieces`` (the winner,).
* ``REVERSED``: ``pieces`` (the ``Shift`` tried, the player whose latest shift it reverses).
* ``OFF_BOARD``: ``cells`` (the square,), off the 8x12 board (also for a placement).
* ``DIAGONAL``: ``cells`` (the pawn's square after the shift, the square it was moved to).
* ``PAST_PAWN``: ``cells`` (the square passed,), ``pieces`` (the pawn standing there,).
* ``PAST_COIN``: ``cells`` (the square passed,), ``pieces`` (the coin on it,): the pawn must
  stop on the first coin in its way.
* ``ONTO_PAWN``: ``cells`` (the square,), ``pieces`` (the pawn standing there,).
* ``MUST_MOVE``: ``cells`` (the pawn's square, a square it could move to), ``pieces`` (the mover,).
* ``NO_COIN``: ``cells`` (the pawn's square after the shift, the square it ends on; the same
  square when it stays): a collect was claimed with no coin under the pawn.
* ``WRONG_PEEK``: ``cells`` (the square,), ``pieces`` (the ``Coin`` there, the mover): the
  claimed outcome of the peek is wrong (referee mode; the mover collects a coin of its suit).
* ``SAY_PEEK``: ``cells`` (the square,), ``pieces`` (the coin's ``Rank``,): public mode needs
  the peek's outcome told.
* ``ALREADY_HELD``: ``cells`` (the square,), ``pieces`` (the mover, the ``Rank`` it already holds).

An observed change (``explain``):

* ``WRONG_PAWN``: ``cells`` (from, to) of the pawn that moved, ``pieces`` (the mover, that pawn).
* ``NO_SHIFT``: no shift of one tile line by one tile explains the board.

A coin's placement at setup (``placement_reason``; ``OFF_BOARD`` too):

* ``EDGE``: ``cells`` (the square,), an outside-edge square.
* ``TILE_TAKEN``: ``cells`` (the square, the square of the coin already on its tile),
  ``pieces`` (that coin,).

Not codes: ``apply`` given something that is no ``Turn``, a ``Turn`` whose shift is no
``Shift`` or whose square is no pair of integers. Those are programming errors, not anything
a player at the table can do; their ``IllegalMove`` has a plain message and no reason.
"""

from __future__ import annotations

from rules.reasons import Reason
from rules.scavenger_hunt.board import SHAPE, square_name

GAME_OVER = "game-over"
REVERSED = "reversed"
OFF_BOARD = "off-board"
DIAGONAL = "diagonal"
PAST_PAWN = "past-pawn"
PAST_COIN = "past-coin"
ONTO_PAWN = "onto-pawn"
MUST_MOVE = "must-move"
NO_COIN = "no-coin"
WRONG_PEEK = "wrong-peek"
SAY_PEEK = "say-peek"
ALREADY_HELD = "already-held"
WRONG_PAWN = "wrong-pawn"
NO_SHIFT = "no-shift"
EDGE = "edge"
TILE_TAKEN = "tile-taken"

CODES = (GAME_OVER, REVERSED, OFF_BOARD, DIAGONAL, PAST_PAWN, PAST_COIN, ONTO_PAWN, MUST_MOVE, NO_COIN,
         WRONG_PEEK, SAY_PEEK, ALREADY_HELD, WRONG_PAWN, NO_SHIFT, EDGE, TILE_TAKEN)


def text(reason: Reason) -> str:
    """The written verdict, e.g. "the pawn may not pass the Red pawn on 3,4"."""
    code, cells, pieces = reason.code, reason.cells, reason.pieces
    sq = [square_name(c) for c in cells]
    if code == GAME_OVER:
        return f"the game is over: {pieces[0].colour} has collected all six coins"
    if code == REVERSED:
        shift, owner = pieces
        return (f"shift {shift} reverses {owner.colour}'s shift {shift.reverse}; "
                f"not allowed until {owner.colour} has completed another turn")
    if code == OFF_BOARD:
        return f"square {sq[0]} is off the board (rows 1-{SHAPE[0]}, columns 1-{SHAPE[1]})"
    if code == DIAGONAL:
        return f"the pawn moves like a rook, in a straight line; {sq[0]} to {sq[1]} is diagonal"
    if code == PAST_PAWN:
        return f"the pawn may not pass the {pieces[0].colour} pawn on {sq[0]}"
    if code == PAST_COIN:
        return f"the pawn stops on the first coin it passes: the coin on {sq[0]}"
    if code == ONTO_PAWN:
        return f"square {sq[0]} holds the {pieces[0].colour} pawn"
    if code == MUST_MOVE:
        return f"the {pieces[0].colour} pawn on {sq[0]} can move (for example to {sq[1]}), so it must move"
    if code == NO_COIN:
        verb = "stays" if cells[0] == cells[1] else "ends"
        return f"there is no coin to collect: the pawn {verb} on {sq[1]} without peeking"
    if code == WRONG_PEEK:
        coin, mover = pieces
        return (f"the coin on {sq[0]} is the {coin.spoken}: {mover.colour} "
                f"{'collects' if coin.suit == mover else 'cannot collect'} it")
    if code == SAY_PEEK:
        return f"the pawn ends on the {pieces[0].spoken} coin on {sq[0]}: say whether it was collected (+) or not (-)"
    if code == ALREADY_HELD:
        return f"{pieces[0].colour} already holds a {pieces[1].spoken}; a second one cannot match"
    if code == WRONG_PAWN:
        mover, other = pieces
        return f"it is {mover.colour}'s turn, but the {other.colour} pawn moved from {sq[0]} to {sq[1]}"
    if code == NO_SHIFT:
        return "no shift of one row or column of tiles by one tile explains where the coins and pawns went"
    if code == EDGE:
        return f"square {sq[0]} is an outside-edge square; coins go on inner squares only"
    if code == TILE_TAKEN:
        return f"the tile of square {sq[0]} already holds the coin on {sq[1]}; one coin per tile"
    raise ValueError(f"{code!r} is not the code of a Scavenger Hunt verdict: expected one of {', '.join(CODES)}")
