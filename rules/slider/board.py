"""Slider's players, squares and moves, shared by the rules (``state``) and their verdicts
(``reasons``), which may not import each other both ways.

A square is ``(i, j)``: ``i`` the column (0 = left), ``j`` the row counted up from the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from rules.errors import NotationError
from rules.grid import Cell, Direction


class Side(Enum):
    """A player: ``H`` (Horizontal) or ``V`` (Vertical); the value is the board letter."""

    H = "H"
    V = "V"

    @property
    def other(self) -> "Side":
        return Side.V if self is Side.H else Side.H

    @property
    def word(self) -> str:
        """The player's name in the rules text: "Horizontal" or "Vertical"."""
        return "Horizontal" if self is Side.H else "Vertical"

    @property
    def directions(self) -> tuple[Direction, ...]:
        """The directions this side may move, forward first (the order of ``legal_moves``)."""
        return _SIDE_DIRECTIONS[self]

    @property
    def forward(self) -> Direction:
        return _SIDE_DIRECTIONS[self][0]

    @classmethod
    def parse(cls, text: Any) -> "Side":
        if isinstance(text, Side):
            return text
        if isinstance(text, str):
            t = text.strip().upper()
            if t in ("H", "HORIZONTAL"):
                return Side.H
            if t in ("V", "VERTICAL"):
                return Side.V
        raise NotationError(f"bad player {text!r}: expected H or V")

    def __str__(self) -> str:
        return self.value


_SIDE_DIRECTIONS = {
    Side.H: (Direction.RIGHT, Direction.UP, Direction.DOWN),
    Side.V: (Direction.UP, Direction.LEFT, Direction.RIGHT),
}

# (di, dj) in Slider coordinates: j grows upwards, unlike rules.grid's rows.
_DELTA = {Direction.UP: (0, 1), Direction.DOWN: (0, -1), Direction.LEFT: (-1, 0), Direction.RIGHT: (1, 0)}
_DIR_BY_DELTA = {v: k for k, v in _DELTA.items()}


def format_square(square: Cell) -> str:
    """(2, 3) -> "(2,3)", as in the move notation."""
    return f"({square[0]},{square[1]})"


def slider_step(square: Cell, direction: Direction) -> Cell:
    """The square one step from ``square`` = (i, j) in ``direction`` (j grows upwards)."""
    di, dj = _DELTA[direction]
    return (square[0] + di, square[1] + dj)


def direction_between(a: Cell, b: Cell) -> Direction | None:
    """The direction of a one-square step from ``a`` to ``b`` (Slider coordinates), or None."""
    return _DIR_BY_DELTA.get((b[0] - a[0], b[1] - a[1]))


@dataclass(frozen=True)
class Move:
    """Move the piece on square ``(col, row)`` one square in ``direction`` (possibly off the board)."""

    col: int
    row: int
    direction: Direction

    @property
    def square(self) -> Cell:
        return (self.col, self.row)

    def target(self) -> Cell:
        """The destination (i, j); it lies off the board when the move takes the piece off."""
        return slider_step(self.square, self.direction)

    def __str__(self) -> str:
        return f"({self.col},{self.row}): {self.direction.name}"


@dataclass(frozen=True)
class Pass:
    """A forced pass (allowed only when the player to move has no legal move)."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()
