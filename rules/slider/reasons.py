"""Why an observed change between two Slider boards is not one legal move: the codes, what each
``Reason`` holds for them, and their written form.

``text`` is the one place that writes these verdicts (``caller slider explain`` prints
them). Squares are Slider's ``(i, j)`` (column, row from the bottom); a piece is its
``Side``.

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
"""

from __future__ import annotations

from rules.reasons import Reason
from rules.slider.state import Side, direction_between, format_square

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

CODES = (SIZE_CHANGED, BLOCKS_CHANGED, GAME_OVER, APPEARED, MANY_MOVED, WRONG_TURN, LEFT_BOARD, DIAGONAL, JUMPED,
         WRONG_DIRECTION)


def a_piece(side: Side) -> str:
    """ "an H" (aitch) but "a V"."""
    return f"an {side}" if side is Side.H else f"a {side}"


def text(reason: Reason) -> str:
    """The written verdict, e.g. "the H piece moved diagonally from (1,2) to (2,3)"."""
    code, sq = reason.code, [format_square(s) for s in reason.cells]
    side = reason.pieces[0] if reason.pieces else None
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
    raise ValueError(f"{code!r} is not the code of a Slider change: expected one of {', '.join(CODES)}")
