"""What lies on the table in Steppin' Stones (see ``rules.table``).

4x4 tiles of 2x2 squares (8x8 squares): the four ace tiles face up in the corners, the rest
grid side up. The larger-board variant lays 5x5 tiles with the middle one missing (10x10
squares). Coins lie on squares either side up (a coin turned suit side up is a stepping
stone) and pawns stand on squares, on a stone when they step on one. The dice, one per suit
still in play, lie beside the board. The board looks the same turned any quarter turn, so
the player's side is the camera's, fixed once at the start; the home tiles, each its suit's
ace face up (Suns top left, Moons top right, Crowns bottom right, Arms bottom left), tell a
still's quarter turn.
"""

from __future__ import annotations

from typing import Any

from rules.pieces import SUITS
from rules.steppin_stones.state import Options, holes, home_cells
from rules.table import (CoinSide, OffBoard, OnSquares, Piece, Place, PlayerSide, TableDescription, TileLattice,
                         TileSide)

TILE = 2  # squares per tile side


def _tile_of(square: tuple[int, int]) -> tuple[int, int]:
    return (square[0] // TILE, square[1] // TILE)


def table_of_options(options: Options) -> TableDescription:
    """The table of a game played with ``options`` (``large``: 5x5 tiles, the middle one missing)."""
    n = options.size // TILE
    corners = frozenset({(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)})
    missing = frozenset((r // TILE, c // TILE) for r, c in holes(options))
    # each home tile shows its suit's ace: which corner is whose tells the board's quarter turn
    faces = tuple((_tile_of(min(home_cells(suit, options.size))), suit.value + "a") for suit in SUITS)
    return TableDescription(
        board=TileLattice(n, n, TileSide.GRID_UP, squares=(TILE, TILE), face_up=corners, holes=missing, faces=faces),
        on_squares=OnSquares(coins=CoinSide.EITHER, pawns=True, pawn_on_coin=True, name="board"),
        off_board=(
            OffBoard(Piece.DIE, Place.BESIDE_BOARD, 0, most=4, what="the dice, one per suit still in play"),
        ),
        player_side=PlayerSide.CAMERA,
        player_side_how="the camera's side of the table, fixed by the live Caller at the start",
    )


TABLE = table_of_options(Options())


def table_for(state: Any) -> TableDescription:
    """The table of ``state`` (its options say the board's size)."""
    return table_of_options(state.options)
