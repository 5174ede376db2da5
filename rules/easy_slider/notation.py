"""Slides as people type them in Easy Slider.

Every slide moves a tile next to the hole into the hole, so one thing names it:

- the tile's square, ``row,col`` counted from 1 (``2,5``; ``2 5`` works too), row 1 next to the
  coins and column 1 at the player's left;
- the tile, by its code (``S5``, ``Mn``, ``Ca``; case does not matter);
- the way the tile moves: ``up``, ``down``, ``left``, ``right`` (also ``^``, ``v``, ``<``, ``>``):
  ``up`` slides the tile below the hole up into it.

``parse_slide`` reads the text against this position: NotationError when it names no tile,
IllegalMove when the tile it names is not next to the hole; whether the board is done is the
rules' affair.
"""

from __future__ import annotations

import re

from rules.easy_slider.state import SHAPE, EasySliderState, Slide
from rules.errors import IllegalMove, NotationError
from rules.grid import Cell, Direction, in_bounds, neighbours
from rules.pieces import Tile

SLIDE_HELP = "a slide: the tile's square 'row,col' (from 1), the tile ('S5') or the way it moves ('up', 'down', 'left', 'right')"

_SQUARE = re.compile(r"^\s*(\d{1,2})\s*[, ]\s*(\d{1,2})\s*$")
_WORDS = {"up": Direction.UP, "^": Direction.UP, "down": Direction.DOWN, "v": Direction.DOWN,
          "left": Direction.LEFT, "<": Direction.LEFT, "right": Direction.RIGHT, ">": Direction.RIGHT}


def parse_slide(text: str, state: EasySliderState) -> Slide:
    """The slide ``text`` names in ``state``; raises NotationError saying what is wrong."""
    word = text.strip().lower()
    hole = state.hole
    if word in _WORDS:
        direction = _WORDS[word]
        src = (hole[0] - direction.delta[0], hole[1] - direction.delta[1])
        if not in_bounds(src, SHAPE):
            raise NotationError(f"no tile can slide {direction.word}: the hole at {format_square(hole)} is at the edge")
        return Slide(state.board[src], src, hole)
    match = _SQUARE.match(word)
    if match:
        src = (int(match.group(1)) - 1, int(match.group(2)) - 1)
        if not in_bounds(src, SHAPE):
            raise NotationError(f"square {text.strip()!r} is off the board: rows and columns go from 1 to 5")
        if src == hole:
            raise NotationError(f"{format_square(src)} is the hole: name the tile that slides into it")
    else:
        try:
            tile = Tile.parse(text.strip()[:1].upper() + text.strip()[1:].lower())
        except NotationError:
            raise NotationError(f"cannot read {text.strip()!r}: expected {SLIDE_HELP}") from None
        found = state.board.find(tile)
        if not found:
            raise NotationError(f"tile {tile.code} is not on the board")
        src = found[0]
    if src not in {n for _, n in neighbours(hole, SHAPE)}:
        tile = state.board[src]
        raise IllegalMove(f"the {tile.spoken} at {format_square(src)} is not next to the hole at "
                          f"{format_square(hole)}: only a neighbouring tile may slide")
    return Slide(state.board[src], src, hole)


def format_square(cell: Cell) -> str:
    """``(1, 4)`` -> ``"2,5"``: a square as typed, counted from 1."""
    return f"{cell[0] + 1},{cell[1] + 1}"


def format_slide(slide: Slide) -> str:
    """A slide as the referee echoes it: ``"S5 2,5 -> 2,4"``."""
    return f"{slide.tile.code} {format_square(slide.src)} -> {format_square(slide.dst)}"
