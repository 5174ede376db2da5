"""What an observed change of one Slide grid was, or why it is not a legal step, and why a move
is not legal: the codes, what each ``Reason`` holds for them, and their written form.

``text`` is the one place that writes these verdicts (``caller slide explain`` prints them
and its JSON holds them; an ``IllegalMove`` from ``SlideState.apply`` has one as its message).
The Caller's spoken sentences for an illegal move come from the same fields in
``voice.phrasebook.slide``. Cells are 0-based ``(row, col)``, said 1-based.

Legal steps:

* ``REVEALED``: ``cells`` (the cell turned face up,).
* ``PUSHED``: ``cells`` (the hole,), ``pieces`` (the card's number, its ``Side``).

Not legal (``cells`` in row-major order where several):

* ``HOLES``: ``cells`` the holes of grid ``number`` (1: the first, 2: the second).
* ``NOTHING``: nothing changed.
* ``NO_HOLE``: ``cells`` changed though neither grid has a hole.
* ``HOLE_MOVED``: ``cells`` (the hole before, the hole after).
* ``HOLE_STAYED``: ``cells`` (the hole, then the other cells that changed).
* ``REVEAL_AND_MORE``: ``cells`` (the cell a card was taken from, then the others that changed).
* ``FACE_UP_TAKEN``: ``cells`` (the cell,), ``pieces`` (the face-up number taken,).
* ``NOT_IN_MIDDLE``: ``pieces`` (the pushed number,), ``was`` the numbers in the middle.
* ``FACE_DOWN_PUSHED``: ``cells`` (the edge cell where a face-down card came in,).
* ``OUTSIDE``: ``cells`` (the hole, then the changed cells outside its row and column).
* ``PUT_IN_HOLE``: ``cells`` (the hole,).
* ``ROW_AND_COLUMN``: ``cells`` (the hole,): both its row and its column changed.
* ``NOT_ONE_PUSH``: ``cells`` (the hole,), ``pieces`` ("row" or "column",) the line that changed.

An illegal move (``SlideState.apply``; ``MOVE_CODES``). ``number`` is the player to act (0-based,
written "player 1"); ``cells`` are in that player's grid:

* ``GAME_OVER``: ``pieces`` (the ``Reveal`` or ``Push`` tried,); ``number`` None.
* ``MUST_PUSH``: ``pieces`` (the ``Reveal`` tried,): everyone has revealed this round.
* ``MUST_REVEAL``: ``pieces`` (the ``Push`` tried,): the round's reveals are not done.
* ``OFF_GRID``: ``cells`` (the cell asked for,), outside the 4x4 grid.
* ``ALREADY_FACE_UP``: ``cells`` (the cell,), ``pieces`` (the number of the face-up card there,).
* ``NO_SUCH_CARD``: ``pieces`` (the number asked for,), ``was`` the numbers in the middle.
* ``HOLE_ON_EDGE``: ``cells`` (the hole,), ``pieces`` (the ``Side`` tried,): the hole is on that
  edge, so the card would go straight into it.

Not codes: ``apply`` given something that is no ``Reveal`` or ``Push``, a reveal's cell that is
no pair of integers, a push's card that is no integer or its side no ``Side``. Those are
programming errors, not anything a player at the table can do; their ``IllegalMove`` has a
plain message and no reason.
"""

from __future__ import annotations

from rules.grid import Cell
from rules.reasons import Reason
from rules.slide.board import SIZE

REVEALED = "revealed"
PUSHED = "pushed"
HOLES = "holes"
NOTHING = "nothing"
NO_HOLE = "no-hole"
HOLE_MOVED = "hole-moved"
HOLE_STAYED = "hole-stayed"
REVEAL_AND_MORE = "reveal-and-more"
FACE_UP_TAKEN = "face-up-taken"
NOT_IN_MIDDLE = "not-in-middle"
FACE_DOWN_PUSHED = "face-down-pushed"
OUTSIDE = "outside"
PUT_IN_HOLE = "put-in-hole"
ROW_AND_COLUMN = "row-and-column"
NOT_ONE_PUSH = "not-one-push"
GAME_OVER = "game-over"
MUST_PUSH = "must-push"
MUST_REVEAL = "must-reveal"
OFF_GRID = "off-grid"
ALREADY_FACE_UP = "already-face-up"
NO_SUCH_CARD = "no-such-card"
HOLE_ON_EDGE = "hole-on-edge"

MOVE_CODES = (GAME_OVER, MUST_PUSH, MUST_REVEAL, OFF_GRID, ALREADY_FACE_UP, NO_SUCH_CARD, HOLE_ON_EDGE)
CODES = (REVEALED, PUSHED, HOLES, NOTHING, NO_HOLE, HOLE_MOVED, HOLE_STAYED, REVEAL_AND_MORE, FACE_UP_TAKEN,
         NOT_IN_MIDDLE, FACE_DOWN_PUSHED, OUTSIDE, PUT_IN_HOLE, ROW_AND_COLUMN, NOT_ONE_PUSH) + MOVE_CODES


def at(cell: Cell) -> str:
    """A cell as written in the verdicts: "row 2, column 3" (1-based)."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _list(cells) -> str:
    return "; ".join(at(c) for c in cells)


def text(reason: Reason) -> str:
    """The written verdict, e.g. "the 8 was pushed in from the left of row 2"."""
    code, cells, pieces = reason.code, reason.cells, reason.pieces
    hole = cells[0] if cells else None
    who = f"player {reason.number + 1}" if reason.number is not None else None
    if code == REVEALED:
        return f"the card at {at(hole)} was turned face up into the middle"
    if code == PUSHED:
        card, side = pieces
        line = f"row {hole[0] + 1}" if side.axis == "row" else f"column {hole[1] + 1}"
        return f"the {card} was pushed in from the {side.value} of {line}"
    if code == HOLES:
        which = "first" if reason.number == 1 else "second"
        return f"the {which} grid has {len(cells)} holes ({_list(cells)}); a Slide grid has at most one"
    if code == NOTHING:
        return "nothing changed"
    if code == NO_HOLE:
        return f"cards changed at {_list(cells)} with no card revealed and none pushed in"
    if code == HOLE_MOVED:
        return (f"the hole moved from {at(cells[0])} to {at(cells[1])}: cards may not slide inside the grid; "
                "a card from the middle must be pushed in from the edge")
    if code == HOLE_STAYED:
        return f"cards changed at {_list(cells[1:])} while the hole at {at(hole)} stayed empty"
    if code == REVEAL_AND_MORE:
        return f"besides the card taken from {at(hole)}, cards changed at {_list(cells[1:])}; a reveal takes one card away"
    if code == FACE_UP_TAKEN:
        return f"the {pieces[0]} at {at(hole)} was already face up; a player must turn a face-down card"
    if code == NOT_IN_MIDDLE:
        shown = ", ".join(map(str, reason.was)) or "empty"
        return f"the pushed {pieces[0]} is not in the middle (middle: {shown})"
    if code == FACE_DOWN_PUSHED:
        return f"the card pushed in at {at(hole)} is face down; cards from the middle are face up"
    if code == OUTSIDE:
        return (f"cards changed at {_list(cells[1:])}, outside row {hole[0] + 1} and column {hole[1] + 1} of the hole; "
                "a push moves only the hole's row or column (never diagonally)")
    if code == PUT_IN_HOLE:
        return f"a card was put straight into the hole at {at(hole)}; it must be pushed in from the edge of its row or column"
    if code == ROW_AND_COLUMN:
        return f"both row {hole[0] + 1} and column {hole[1] + 1} changed; a push moves only one of them"
    if code == NOT_ONE_PUSH:
        line = f"row {hole[0] + 1}" if pieces[0] == "row" else f"column {hole[1] + 1}"
        return (f"{line} changed, but not as one card pushed in from an end: the cards between that end and the hole "
                "move one step towards the hole and keep their order")
    if code == GAME_OVER:
        return f"the game is over: no more moves ({pieces[0]})"
    if code == MUST_PUSH:
        return f"{who} must push a card from the middle, not {pieces[0]}: everyone has revealed this round"
    if code == MUST_REVEAL:
        return f"{who} must first reveal a face-down card, not {pieces[0]}"
    if code == OFF_GRID:
        return f"{who} cannot reveal cell {hole!r}: expected (row, col) with each 0..{SIZE - 1}"
    if code == ALREADY_FACE_UP:
        return f"{who} cannot reveal the {pieces[0]} at {at(hole)}: it is already face up"
    if code == NO_SUCH_CARD:
        return f"{who} cannot take a {pieces[0]!r}: it is not in the middle ({', '.join(map(str, reason.was))})"
    if code == HOLE_ON_EDGE:
        return (f"{who} cannot push from the {pieces[0].value}: the hole at {at(hole)} is on that edge, "
                "and a card may not go straight into the hole")
    raise ValueError(f"{code!r} is not the code of a Slide step or move: expected one of {', '.join(CODES)}")
