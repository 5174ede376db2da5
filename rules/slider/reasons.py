"""Why an observed change between two Slider boards is not one legal move, and why a move is not
legal: the codes, what each ``Reason`` holds for them, and their written form.

``text`` is the one place that writes these verdicts (``caller slider explain`` prints
them; an ``IllegalMove`` from ``SliderState.apply`` has one as its message). The Caller's
spoken sentences for an illegal move come from the same fields in ``voice.phrasebook.slider``.
Squares are Slider's ``(i, j)`` (column, row from the bottom); a piece is its ``Side``, a
block the letter ``"B"``.

An observed change (``explain_change``):

* ``SIZE_CHANGED``: ``was`` the board size before, ``number`` the size seen.
* ``BLOCKS_CHANGED``: ``cells`` the squares whose block came or went, sorted.
* ``GAME_OVER``: the game had ended; nothing may move.
* ``APPEARED``: ``cells`` the square a piece of side ``pieces[0]`` appeared on.
* ``MANY_MOVED``: ``cells`` the squares pieces left, ``pieces`` their sides, parallel (H first).
* ``WRONG_TURN``: ``cells`` (from,), ``pieces`` (the side that moved,), ``was`` (the side to move,).
* ``LEFT_BOARD``: ``cells`` (from,), ``pieces`` (side,), ``number`` the column (H) or row (V)
  it may leave from.
* ``DIAGONAL`` / ``WRONG_DIRECTION``: ``cells`` (from, to), ``pieces`` (side,).
* ``JUMPED``: ``cells`` (from, to), ``pieces`` (side,), ``number`` the squares between them.

An illegal move or pass (``SliderState.apply``; ``MOVE_CODES``). A move's ``cells`` are
(from, to), ``to`` one square away (off the board for a move that leaves it), and its text
starts "illegal move (i,j): DIR: "; ``SliderState.move_reason`` gives the same verdicts:

* ``GAME_OVER`` (as above, from ``apply`` with ``pieces`` (the move or pass tried,)).
* ``MUST_MOVE``: ``pieces`` (side,): a pass while that side has a legal move.
* ``OFF_BOARD``: ``cells`` (from, to), ``pieces`` (side,), ``number`` the board size: from is off it.
* ``NO_PIECE``: ``cells`` (from, to), ``pieces`` (side, what is on from: the other ``Side``,
  ``"B"``, or None when it is empty).
* ``BACKWARDS``: ``cells`` (from, to), ``pieces`` (side,): Horizontal left or Vertical down
  (``WRONG_DIRECTION`` is the same verdict for a change seen on the table).
* ``WRONG_EDGE``: ``cells`` (from, to), ``pieces`` (side,): off an edge that is not the side's own.
* ``OCCUPIED``: ``cells`` (from, to), ``pieces`` (side, what is on to: a ``Side`` or ``"B"``).

Not codes: ``apply`` given something that is no ``Move`` or ``Pass`` (when the game is not
over). That is a programming error, not anything a player at the table can do; its
``IllegalMove`` has a plain message and no reason.
"""

from __future__ import annotations

from rules.reasons import Reason
from rules.slider.board import Move, Side, direction_between, format_square

SIZE_CHANGED = "size-changed"
BLOCKS_CHANGED = "blocks-changed"
GAME_OVER = "game-over"
APPEARED = "appeared"
MANY_MOVED = "many-moved"
WRONG_TURN = "wrong-turn"
LEFT_BOARD = "left-board"
DIAGONAL = "diagonal"
JUMPED = "jumped"
WRONG_DIRECTION = "wrong-direction"
MUST_MOVE = "must-move"
OFF_BOARD = "off-board"
NO_PIECE = "no-piece"
BACKWARDS = "backwards"
WRONG_EDGE = "wrong-edge"
OCCUPIED = "occupied"

MOVE_CODES = (GAME_OVER, MUST_MOVE, OFF_BOARD, NO_PIECE, BACKWARDS, WRONG_EDGE, OCCUPIED)
CODES = (SIZE_CHANGED, BLOCKS_CHANGED, GAME_OVER, APPEARED, MANY_MOVED, WRONG_TURN, LEFT_BOARD, DIAGONAL, JUMPED,
         WRONG_DIRECTION, MUST_MOVE, OFF_BOARD, NO_PIECE, BACKWARDS, WRONG_EDGE, OCCUPIED)


def a_piece(side: Side) -> str:
    """ "an H" (aitch) but "a V"."""
    return f"an {side}" if side is Side.H else f"a {side}"


def move_of(reason: Reason) -> Move:
    """The move a move code's ``cells`` (from, to) stand for, e.g. ``(1,2): UP``."""
    frm, to = reason.cells
    return Move(frm[0], frm[1], direction_between(frm, to))


def text(reason: Reason) -> str:
    """The written verdict, e.g. "the H piece moved diagonally from (1,2) to (2,3)"."""
    code, sq = reason.code, [format_square(s) for s in reason.cells]
    side = reason.pieces[0] if reason.pieces else None
    if code in (OFF_BOARD, NO_PIECE, BACKWARDS, WRONG_EDGE, OCCUPIED):
        return f"illegal move {move_of(reason)}: {_problem(reason)}"
    if code == GAME_OVER and reason.pieces:
        return f"the game is over; no move {reason.pieces[0]!s} is possible"
    if code == MUST_MOVE:
        return f"{side.word} may pass only when they have no legal move"
    if code == SIZE_CHANGED:
        return f"the board size changed from {reason.was[0]} to {reason.number}"
    if code == BLOCKS_CHANGED:
        return f"blocked squares changed at {', '.join(sq)}"
    if code == GAME_OVER:
        return "the game is already over"
    if code == APPEARED:
        return f"{a_piece(side)} piece appeared on {sq[0]}; pieces never come back onto the board"
    if code == MANY_MOVED:
        what = " and ".join(f"{reason.pieces.count(s)} {s}" for s in Side if s in reason.pieces)
        return f"{len(reason.pieces)} pieces moved ({what}); a turn moves one piece"
    if code == WRONG_TURN:
        return f"it is {reason.was[0].word}'s turn, but {a_piece(side)} piece moved from {sq[0]}"
    if code == LEFT_BOARD:
        edge = "right edge from column" if side is Side.H else "top edge from row"
        return f"the {side} piece on {sq[0]} left the board; {side.word} may leave only off the {edge} {reason.number}"
    if code == DIAGONAL:
        return f"the {side} piece moved diagonally from {sq[0]} to {sq[1]}"
    if code == JUMPED:
        return f"the {side} piece jumped from {sq[0]} to {sq[1]} ({reason.number} squares); pieces move one square at a time"
    if code == WRONG_DIRECTION:
        d = direction_between(*reason.cells)
        return f"wrong direction: {side.word} may not move {d.word} ({sq[0]} to {sq[1]})"
    raise ValueError(f"{code!r} is not the code of a Slider change or move: expected one of {', '.join(CODES)}")


def _problem(reason: Reason) -> str:
    """What is wrong with a move, after its "illegal move (i,j): DIR: "."""
    code, side = reason.code, reason.pieces[0]
    frm, to = (format_square(s) for s in reason.cells)
    if code == OFF_BOARD:
        return f"{side.word} has no piece on {frm} (off the board)"
    if code == NO_PIECE:
        what = reason.pieces[1]
        return f"{side.word} has no piece on {frm} ({'empty' if what is None else f'holds {what}'})"
    if code == BACKWARDS:
        return f"{side.word} may not move {direction_between(*reason.cells).word}"
    if code == WRONG_EDGE:
        return f"{side.word} may leave the board only off the {'right' if side is Side.H else 'top'} edge"
    what = reason.pieces[1]
    return f"square {to} is {'blocked' if what == 'B' else f'taken by {what}'}"
