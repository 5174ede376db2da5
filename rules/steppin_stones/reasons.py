"""Why a Steppin' Stones action is not legal: the codes, what each ``Reason`` holds for them, and
their written form.

``text`` is the one place that writes these verdicts (the message of ``IllegalMove``); the
Caller's spoken sentences come from the same fields in ``voice.phrasebook.steppin_stones``.
Squares are 0-based ``(row, col)``, written as a column letter and a row number ("c2",
``cell_name``). A pawn is its ``Suit``; a coin a ``Coin`` (a fixed ace is ``Rank.ACE``), a
stepping stone a ``Stone``. A move's ``cells`` are always (from, to).

* ``WON`` / ``LOST``: the game is over (all pawns home / no move is left for any roll).
* ``FLIP_OWED``: ``pieces`` (the suit whose die shows its suit,): EndTurn before that flip.
* ``DICE_COUNT``: ``pieces`` the suits in play (one die each), ``number`` the faces given.
* ``OFF_BOARD``: ``cells`` (the square,), ``number`` the board's size (8 or 10).

A flip (``cells`` (the square,)):

* ``ALREADY_STONE``: ``pieces`` (the ``Stone``,).
* ``NO_COIN``: nothing there.
* ``ACE_FLIP``: ``pieces`` (the ace,), which is never flipped.
* ``FLIP_NO_DIE``: ``pieces`` (the coin,): its suit's die does not show the suit (or is used).
* ``NOT_HIGHEST``: ``pieces`` (the coin,): highest_first asks for a higher coin of its suit.

A move (``cells`` (from, to)):

* ``NOTHING_THERE``: no piece on the from square.
* ``STONE_TOO_EARLY``: ``pieces`` (the ``Stone``,): its suit's die is not a phase-2 die.
* ``STONE_DIE_SPENT``: ``pieces`` (the ``Stone``,): its suit's phase-2 die has no squares left.
* ``STONE_OUT_OF_REACH``: ``pieces`` (the ``Stone``,), ``number`` the squares left on its die.
* ``ACE_MOVE``: ``pieces`` (the ace,), which never moves.
* ``NULL_MOVE``: ``pieces`` (the Null coin,), which moves zero squares.
* ``NO_DIE``: ``pieces`` (the coin,), ``number`` its value: no phase-1 die shows it.
* ``COIN_OUT_OF_REACH``: ``pieces`` (the coin,), ``number`` its value (the exact squares).
* ``PAWN_HOME``: ``pieces`` (the pawn's suit,): a pawn home stays there.
* ``PAWN_TOO_EARLY``: ``pieces`` (the pawn's suit,): not all its coins are stepping stones.
* ``PAWN_DIE_SPENT``: ``pieces`` (the pawn's suit,): its phase-2 die has no squares left.
* ``PAWN_OUT_OF_REACH``: ``pieces`` (the pawn's suit,), ``number`` the squares left on its die.

Not codes: ``apply`` given something that is no ``Move``, ``Flip`` or ``EndTurn``, or a
square that is no pair of integers. Those are programming errors, not anything a player at
the table can do; their ``IllegalMove`` has a plain message and no reason.
"""

from __future__ import annotations

from rules.grid import Cell
from rules.reasons import Reason

WON = "won"
LOST = "lost"
FLIP_OWED = "flip-owed"
DICE_COUNT = "dice-count"
OFF_BOARD = "off-board"
ALREADY_STONE = "already-stone"
NO_COIN = "no-coin"
ACE_FLIP = "ace-flip"
FLIP_NO_DIE = "flip-no-die"
NOT_HIGHEST = "not-highest"
NOTHING_THERE = "nothing-there"
STONE_TOO_EARLY = "stone-too-early"
STONE_DIE_SPENT = "stone-die-spent"
STONE_OUT_OF_REACH = "stone-out-of-reach"
ACE_MOVE = "ace-move"
NULL_MOVE = "null-move"
NO_DIE = "no-die"
COIN_OUT_OF_REACH = "coin-out-of-reach"
PAWN_HOME = "pawn-home"
PAWN_TOO_EARLY = "pawn-too-early"
PAWN_DIE_SPENT = "pawn-die-spent"
PAWN_OUT_OF_REACH = "pawn-out-of-reach"

CODES = (WON, LOST, FLIP_OWED, DICE_COUNT, OFF_BOARD, ALREADY_STONE, NO_COIN, ACE_FLIP, FLIP_NO_DIE, NOT_HIGHEST,
         NOTHING_THERE, STONE_TOO_EARLY, STONE_DIE_SPENT, STONE_OUT_OF_REACH, ACE_MOVE, NULL_MOVE, NO_DIE,
         COIN_OUT_OF_REACH, PAWN_HOME, PAWN_TOO_EARLY, PAWN_DIE_SPENT, PAWN_OUT_OF_REACH)


def cell_name(cell: Cell) -> str:
    """``(0, 2)`` -> ``"c1"``: column letter from the left, row number from the far side (docs/architecture.md)."""
    return f"{chr(ord('a') + cell[1])}{cell[0] + 1}"


def text(reason: Reason) -> str:
    """The written verdict, e.g. "the Red Null on c3 may not move at all (a Null moves zero squares)"."""
    code, cells, pieces, n = reason.code, reason.cells, reason.pieces, reason.number
    where = [cell_name(c) for c in cells]
    piece = pieces[0] if pieces else None
    if code == WON:
        return "the game is over: all four pawns are home"
    if code == LOST:
        return "the game is over: no legal move is left"
    if code == FLIP_OWED:
        return f"the {piece.colour} die shows the {piece.plural}: flip a {piece.colour} coin before ending the turn"
    if code == DICE_COUNT:
        names = " ".join(s.value for s in pieces)
        return f"expected {len(pieces)} die faces, one for each of {names}, got {n}"
    if code == OFF_BOARD:
        return f"square {cells[0]!r} is not on the {n}x{n} board"
    if code == ALREADY_STONE:
        return f"the coin on {where[0]} is already a stepping stone"
    if code == NO_COIN:
        return f"there is no coin on {where[0]} to flip"
    if code == ACE_FLIP:
        return f"the {piece.spoken} on {where[0]} may never be flipped"
    if code == FLIP_NO_DIE:
        return f"the {piece.spoken} may be flipped only when the {piece.suit.colour} die shows the {piece.suit.plural}"
    if code == NOT_HIGHEST:
        return f"stepping stones go highest first: flip the highest {piece.suit.colour} coin, not the {piece.spoken}"
    if code == NOTHING_THERE:
        return f"there is nothing on {where[0]} to move"
    if code in (STONE_TOO_EARLY, STONE_DIE_SPENT):
        return (f"a {piece.spoken} moves only with the {piece.suit.colour} die once all its coins are stepping stones"
                + (", and that die is spent" if code == STONE_DIE_SPENT else ""))
    if code == STONE_OUT_OF_REACH:
        return (f"the {piece.spoken} on {where[0]} cannot reach {where[1]} within {n} square(s): it ends on an empty "
                "square and passes over Null coins only")
    if code == ACE_MOVE:
        return f"the {piece.spoken} on {where[0]} never moves"
    if code == NULL_MOVE:
        return f"the {piece.spoken} on {where[0]} may not move at all (a Null moves zero squares)"
    if code == NO_DIE:
        return f"the {piece.spoken} moves only when a phase-1 die shows {n}, and none is left in this roll"
    if code == COIN_OUT_OF_REACH:
        return (f"the {piece.spoken} on {where[0]} cannot reach {where[1]} in exactly {n} squares: it must end on an "
                "empty square and may pass only over coins of lower value (a stepping stone counts 1)")
    if code == PAWN_HOME:
        return f"the {piece.colour} pawn is home and stays there"
    if code == PAWN_TOO_EARLY:
        return f"the {piece.colour} pawn may move only once all the {piece.colour} coins are stepping stones"
    if code == PAWN_DIE_SPENT:
        return f"the {piece.colour} die is spent for this turn"
    if code == PAWN_OUT_OF_REACH:
        return (f"the {piece.colour} pawn cannot reach {where[1]} within {n} square(s): it steps only on "
                f"{piece.colour} stepping stones and ends on one or on the first square of its home tile it reaches")
    raise ValueError(f"{code!r} is not the code of a Steppin' Stones verdict: expected one of {', '.join(CODES)}")
