"""The Scavenger Hunt board's size and how a square is written, shared by the rules (``state``)
and their verdicts (``reasons``), which may not import each other both ways."""

from __future__ import annotations

from rules.grid import Cell

TILE = 2  # squares per tile side
TILE_ROWS, TILE_COLS = 4, 6
SHAPE: tuple[int, int] = (TILE_ROWS * TILE, TILE_COLS * TILE)  # (8, 12) squares


def square_name(cell: Cell) -> str:
    """A square as people say it: 1-based "row 3, column 7" written "3,7"."""
    return f"{cell[0] + 1},{cell[1] + 1}"
