"""What lies on the table in Scavenger Hunt (see ``rules.table``).

4 rows of 6 tiles grid side up, each tile 2x2 squares: 8x12 squares. Coins lie value side up
on squares (at most one a tile, the suits hidden underneath) and the players' pawns stand on
squares, on a coin when they stop on one. A collected coin lies off the board, suit side up,
by its owner's starting corner. The oblong board looks the same turned half round, so the
player's side is the camera's, fixed once at the start.
"""

from __future__ import annotations

from typing import Any

from rules.scavenger_hunt.state import MAX_PLAYERS, SHAPE, TILE
from rules.table import (CoinSide, OffBoard, OnSquares, Piece, Place, PlayerSide, TableDescription, TileLattice,
                         TileSide)

TABLE = TableDescription(
    board=TileLattice(SHAPE[0] // TILE, SHAPE[1] // TILE, TileSide.GRID_UP, squares=(TILE, TILE)),
    on_squares=OnSquares(coins=CoinSide.VALUE, pawns=True, pawn_on_coin=True),
    off_board=(
        OffBoard(Piece.COIN, Place.BY_OWN_CORNER, 0, most=6 * MAX_PLAYERS, side=CoinSide.SUIT,
                 what="collected coins, by their owner's starting corner"),
    ),
    player_side=PlayerSide.CAMERA,
    player_side_how="the camera's side of the table, fixed by the live Caller at the start",
)


def table_for(state: Any) -> TableDescription:
    """Every Scavenger Hunt position lies on the same table."""
    return TABLE
