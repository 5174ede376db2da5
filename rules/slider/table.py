"""What lies on the table in Slider (see ``rules.table``).

An NxN board of squares (3 to 8, 6 by default) made of tiles grid side up, 2x2 squares a
tile: ceil(N/2) tiles a side, an odd board leaving the last row and column of squares
unused. Each player's pieces are coins of one suit, suit side up, on squares; a blocked
square carries a die. Nothing lies off the board. The square board looks the same turned
any quarter turn, so the player's side is the camera's, fixed once at the start.
"""

from __future__ import annotations

from typing import Any

from rules.slider.state import DEFAULT_N
from rules.table import CoinSide, OnSquares, PlayerSide, TableDescription, TileLattice, TileSide

TILE = 2  # squares per tile side


def table_of_size(n: int) -> TableDescription:
    """The table of an NxN Slider board."""
    k = (n + TILE - 1) // TILE
    return TableDescription(
        board=TileLattice(k, k, TileSide.GRID_UP, squares=(TILE, TILE), play_area=(n, n)),
        on_squares=OnSquares(coins=CoinSide.SUIT, dice=True),
        off_board=(),
        player_side=PlayerSide.CAMERA,
        player_side_how="the camera's side of the table, fixed by the live Caller at the start",
    )


TABLE = table_of_size(DEFAULT_N)


def table_for(state: Any) -> TableDescription:
    """The table of ``state`` (its ``n`` says the board's size)."""
    return table_of_size(state.n)
