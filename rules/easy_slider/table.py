"""What lies on the table in Easy Slider (see ``rules.table``).

A 5x5 lattice of the 24 tiles face up and one hole that moves as tiles slide, each tile one
square; nothing stands on the tiles. The four pawns lie in a column left of rows 1-4 and the
five coins, value side up, in a row beyond columns 1-5 on the far side. The board alone looks
the same turned any quarter turn; the pawns (on the player's left) and the coins (on the far
side) tell the player's side, so the camera may sit on any side of the table.
"""

from __future__ import annotations

from typing import Any

from rules.easy_slider.state import SIZE
from rules.table import (CoinSide, OffBoard, OnSquares, Piece, Place, PlayerSide, TableDescription, TileLattice,
                         TileSide)

TABLE = TableDescription(
    board=TileLattice(SIZE, SIZE, TileSide.FACE_UP, squares=(1, 1), moving_holes=1),
    on_squares=OnSquares(),
    off_board=(
        OffBoard(Piece.PAWN, Place.LEFT_OF_ROWS, 4, what="the pawns, one left of each of rows 1-4 (the goal's suits)"),
        OffBoard(Piece.COIN, Place.ABOVE_COLUMNS, SIZE, side=CoinSide.VALUE,
                 what="the coins ace to 5, one beyond each column on the far side (the goal's values)"),
    ),
    player_side=PlayerSide.FROM_PIECES,
    player_side_how="the pawns lie on the player's left and the coins on the far side",
)


def table_for(state: Any) -> TableDescription:
    """Every Easy Slider position lies on the same table."""
    return TABLE
