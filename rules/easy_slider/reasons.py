"""Why an observed Easy Slider change is not legal, or why a seen board is not a position: the codes,
what each ``Reason`` holds for them, and their written form.

``text`` is the one place that writes a verdict of ``explain`` as ``caller explain`` prints
it and its JSON holds it (tile codes, 0-based ``[row, col]`` cells); the Caller's spoken
sentences come from the same fields in ``voice.phrasebook.easy_slider``.

The codes and their fields (cells are 0-based ``(row, col)``; "parallel" means one piece
per cell):

* ``PAWNS_CHANGED`` / ``COINS_CHANGED``: ``was`` the pawns (rows 1-4) or coins (columns 1-5)
  before, ``pieces`` as seen now.
* ``FOREIGN``: ``cells`` holding something not of the set, ``pieces`` what was seen there.
* ``DOUBLED``: ``cells`` of each tile seen more than once, grouped by tile; ``pieces`` parallel.
* ``LIFTED``: ``cells`` the tiles were lifted from, ``pieces`` parallel, ``number`` the holes seen.
* ``SWAPPED``: the two ``cells`` and their tiles before, parallel.
* ``DIAGONAL`` / ``JUMPED``: ``cells`` (from, to), ``pieces`` the one tile.
* ``NO_SLIDES``: ``cells`` that changed (no sequence of slides leads there).
* ``TOO_MANY``: ``cells`` that changed, ``number`` the most slides allowed.
* ``PUSHED``: ``cells`` (far, near, hole) of two tiles pushed along a line into the hole at
  once, ``pieces`` (far tile, near tile).
* ``HOLES``: a seen board without exactly one hole: ``cells`` the holes.
* ``MISSING``: ``pieces`` the tiles of the set not on the board.
* ``PAWNS_REPEAT`` / ``COINS_REPEAT``: ``pieces`` the pawns or coins seen, one repeated.
"""

from __future__ import annotations

from rules.grid import Cell
from rules.reasons import Reason

PAWNS_CHANGED = "pawns-changed"
COINS_CHANGED = "coins-changed"
FOREIGN = "foreign"
DOUBLED = "doubled"
LIFTED = "lifted"
SWAPPED = "swapped"
DIAGONAL = "diagonal"
JUMPED = "jumped"
NO_SLIDES = "no-slides"
TOO_MANY = "too-many"
PUSHED = "pushed"
HOLES = "holes"
MISSING = "missing"
PAWNS_REPEAT = "pawns-repeat"
COINS_REPEAT = "coins-repeat"

#: The codes ``explain`` and the live Caller give for a change (``text`` writes these).
CHANGE_CODES = (
    PAWNS_CHANGED, COINS_CHANGED, FOREIGN, DOUBLED, LIFTED, SWAPPED, DIAGONAL, JUMPED, NO_SLIDES, TOO_MANY, PUSHED,
)
#: The codes of a seen board that is no position (carried by ``MalformedPosition.reason``).
POSITION_CODES = (HOLES, MISSING, DOUBLED, FOREIGN, PAWNS_REPEAT, COINS_REPEAT)


def cell_text(cell: Cell) -> str:
    """A cell as the reports write it: ``[row, col]``, 0-based."""
    return f"[{cell[0]}, {cell[1]}]"


def groups(reason: Reason) -> list[tuple[object, list]]:
    """``(piece, [cells])`` for each piece of a reason whose pieces run parallel to its cells, in order."""
    out: list[tuple[object, list]] = []
    for cell, piece in zip(reason.cells, reason.pieces):
        if out and out[-1][0] == piece:
            out[-1][1].append(cell)
        else:
            out.append((piece, [cell]))
    return out


def text(reason: Reason) -> str:
    """The written verdict of a change, e.g. "Green 3 and Blue 5 changed places: tiles must slide
    into the hole, not swap" (raises ValueError for a code that is not a change's)."""
    code, cells, pieces = reason.code, reason.cells, reason.pieces
    if code in (PAWNS_CHANGED, COINS_CHANGED):
        what = "pawns" if code == PAWNS_CHANGED else "coins"
        return f"the {what} changed: " + " ".join(p.code for p in reason.was) + " became " + " ".join(
            p.code for p in pieces
        )
    if code == FOREIGN:
        return "not a tile of the set: " + ", ".join(f"{v!r} at {cell_text(c)}" for c, v in zip(cells, pieces))
    if code == DOUBLED:
        return "; ".join(
            f"{t.spoken} ({t.code}) is on the board twice, at " + " and ".join(cell_text(c) for c in where)
            for t, where in groups(reason)
        )
    if code == LIFTED:
        names = ", ".join(f"{t.spoken} ({t.code}) from {cell_text(c)}" for c, t in zip(cells, pieces))
        verb = "was" if len(pieces) == 1 else "were"
        return f"{names} {verb} lifted off the board: {reason.number} holes"
    if code == SWAPPED:
        return f"{pieces[0].spoken} and {pieces[1].spoken} changed places: tiles must slide into the hole, not swap"
    if code == DIAGONAL:
        return (f"{pieces[0].spoken} moved diagonally from {cell_text(cells[0])} to {cell_text(cells[1])}: "
                "tiles slide along rows and columns only")
    if code == JUMPED:
        return (f"{pieces[0].spoken} jumped from {cell_text(cells[0])} to {cell_text(cells[1])}: it was lifted or "
                "moved past other tiles")
    if code == NO_SLIDES:
        return "no sequence of slides leads to this board: tiles were swapped, or lifted and put back elsewhere"
    if code == TOO_MANY:
        return f"the board changed too much to be {reason.number} slides or fewer"
    if code == PUSHED:
        return "two tiles moved at once"
    raise ValueError(f"{code!r} is not the code of an Easy Slider change: expected one of {', '.join(CHANGE_CODES)}")
