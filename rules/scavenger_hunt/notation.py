"""Scavenger Hunt turns and placements as people type them.

A turn is ``SHIFT [PAWN] [+|-]``:

- SHIFT: a tile line, 1-based, and a direction: ``R2>`` (tile-row 2 right), ``R1<``,
  ``C3^`` (tile-column 3 up), ``C6v``; words work too: ``row 2 right``, ``col 3 up``,
  ``column 3 down``.
- PAWN: the destination square, 1-based ``row,col`` on the board after the shift
  (``3,7``), or a direction and a distance from where the shift left the pawn (``up 3``,
  ``^3``, ``left 2``, ``<2``), or ``stay``; left out, the pawn stays.
- ``+`` the coin the pawn ended on was collected, ``-`` it was not (needed in public mode
  only; the referee mode knows the suits).

A placement is ``VALUE ROW,COL`` (``3 4,5``, also ``3 at 4,5``), squares 1-based.
"""

from __future__ import annotations

import re

from rules.errors import NotationError
from rules.grid import Cell, Direction, step
from rules.pieces import Rank
from rules.scavenger_hunt.state import Shift, State, Turn

_DIR_WORDS = {
    ">": Direction.RIGHT,
    "<": Direction.LEFT,
    "^": Direction.UP,
    "v": Direction.DOWN,
    "right": Direction.RIGHT,
    "left": Direction.LEFT,
    "up": Direction.UP,
    "down": Direction.DOWN,
}
_DIR = r"(?:[<>^v]|right|left|up|down)"
_TURN = re.compile(
    rf"""^\s*(?P<axis>row|r|column|col|c)\s*(?P<index>\d+)\s*(?P<sdir>{_DIR})
    \s*[,;]?\s*
    (?P<pawn>stay|\d+\s*,\s*\d+|{_DIR}\s*\d+)?
    \s*(?P<flag>[+-])?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_PLACE = re.compile(r"^\s*(?P<value>[na2-5])\s*(?:at|on)?\s*(?P<row>\d+)\s*,\s*(?P<col>\d+)\s*$", re.IGNORECASE)

TURN_HELP = "a turn such as 'R2> 3,7' (shift tile-row 2 right, pawn to row 3 column 7), 'C3^ up 2 +' or 'row 1 left stay'"


def parse_shift(axis: str, index: str, direction: str) -> Shift:
    axis_name = "row" if axis.lower() in ("row", "r") else "col"
    return Shift(axis_name, int(index) - 1, _DIR_WORDS[direction.lower()])


def parse_turn(text: str, state: State) -> Turn:
    """The Turn that ``text`` names in ``state`` (relative pawn moves are measured from where
    the shift leaves the pawn). Raises NotationError quoting the text; legality is ``apply``'s job."""
    m = _TURN.match(text) if isinstance(text, str) else None
    if not m:
        raise NotationError(f"cannot read the turn {text!r}: expected {TURN_HELP}")
    try:
        shift = parse_shift(m["axis"], m["index"], m["sdir"])
    except NotationError as exc:
        raise NotationError(f"cannot read the turn {text!r}: {exc} (tile-rows 1-4 go < or >, tile-columns 1-6 ^ or v)") from None
    _, pawns = state.shifted(shift)
    here = pawns[state.to_move]
    pawn = (m["pawn"] or "stay").lower()
    if pawn == "stay":
        to: Cell = here
    elif "," in pawn:
        row, col = (int(x) for x in pawn.split(","))
        to = (row - 1, col - 1)
    else:
        word = re.match(_DIR, pawn, re.IGNORECASE)[0]
        distance = int(pawn[len(word) :])
        if distance < 1:
            raise NotationError(f"cannot read the turn {text!r}: a pawn move is at least 1 square, got {distance}")
        to = step(here, _DIR_WORDS[word.lower()], distance)
    collect = {"+": True, "-": False, None: None}[m["flag"]]
    return Turn(shift, to, collect)


def parse_placement(text: str) -> tuple[Rank, Cell]:
    """``"3 4,5"`` -> (Rank.THREE, (3, 4)): a coin value and its 0-based square."""
    m = _PLACE.match(text) if isinstance(text, str) else None
    if not m:
        raise NotationError(f"cannot read the placement {text!r}: expected a value and a square such as '3 4,5' or 'a at 2,7'")
    return Rank.parse(m["value"].lower()), (int(m["row"]) - 1, int(m["col"]) - 1)


def format_square(cell: Cell) -> str:
    """1-based ``row,col``, as typed."""
    return f"{cell[0] + 1},{cell[1] + 1}"
