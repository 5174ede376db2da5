"""What lies on the table in Slide (see ``rules.table``).

Each player's 4x4 grid of cards, face down until turned, with one gap while a turned card
waits in the middle; the cards turned this round lie face up in the middle of the table.
Nothing stands on the cards. The square grid looks the same turned any quarter turn, so the
player's side is the camera's, fixed once at the start (the camera watches one player's grid).
"""

from __future__ import annotations

from typing import Any

from rules.slide.state import MAX_PLAYERS, SIZE
from rules.table import CardGrid, CardSide, OffBoard, OnSquares, Piece, Place, PlayerSide, TableDescription


TABLE = TableDescription(
    board=CardGrid(SIZE, SIZE, CardSide.EITHER, gaps=1),
    on_squares=OnSquares(),
    off_board=(
        OffBoard(Piece.CARD, Place.MIDDLE, 0, most=MAX_PLAYERS, side=CardSide.FACE_UP,
                 what="the cards turned this round, waiting to be pushed in"),
    ),
    player_side=PlayerSide.CAMERA,
    player_side_how="the camera's side of the table, fixed by the live Caller at the start",
)


def table_for(state: Any) -> TableDescription:
    """Every Slide position lies on the same table (one player's grid)."""
    return TABLE
