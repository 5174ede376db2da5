"""A Slider board as the camera reads it: squares of coins and dice, turned into a position.

The camera reader (``vision.table_reader.SquaresReader``) reads the whole lattice of tiles
grid side up, ``2k x 2k`` squares for ``k`` tiles a side, in the camera's frame (row 0 the
board's edge farthest from the camera). Each square's code is ``None`` (empty), a suit
letter (a coin suit side up), a rank (a coin value side up) or ``DIE`` (a die on the
square). The players' frame of a Slider board is one quarter turn of that frame: the one
in which the start position stands as the rules lay it out (H up the left column, V along
the bottom row). On an odd board the last row and column of squares of the players' frame
lie unused.

``board_from_squares`` makes the N x N board (rows from the top, "H"/"V"/"B"/None) of one
quarter turn; ``start_turns`` finds the quarter turns in which a read is a start position.
``read_table`` and ``position_from_read`` are what ``caller read --game slider`` asks of the
game (``GameRecord.observed``): the table to read and the position a read shows, in the
camera's frame (a still has no start to find the players' frame by).
"""

from __future__ import annotations

from typing import Sequence

from rules.errors import MalformedPosition
from rules.slider.state import DEFAULT_N, MAX_N, MIN_N, check_n, start_h, start_v, xy_to_cell
from rules.slider.table import TILE, table_of_size
from rules.table import DIE_ON_SQUARE as DIE
from rules.table import TableDescription

#: the tiles a side of the boards a read tells apart when not told N: 2, 3 and 4 (N 4, 6, 8;
#: an odd N leaves a row and a column of its last tiles unused, which no picture tells from
#: an even board's empty squares)
READ_SIZES = tuple(range((MIN_N + TILE - 1) // TILE, (MAX_N + TILE - 1) // TILE + 1))
#: the suits of H's and V's coins where a read is not told them (the simulator's too)
DEFAULT_H_SUIT = "S"
DEFAULT_V_SUIT = "A"

Squares = Sequence[Sequence[str | None]]


def turned(squares: Squares, turns: int) -> list[list[str | None]]:
    """``squares`` (a square grid) turned ``turns`` quarter turns clockwise: after one turn the
    bottom row (the players' side) is what was the camera's right-hand column, after two the
    far row."""
    grid = [list(row) for row in squares]
    for _ in range(turns % 4):
        grid = [list(row) for row in zip(*grid[::-1])]
    return grid


def board_from_squares(squares: Squares, n: int, h_suit: str, v_suit: str, turns: int = 0) -> list[list[str | None]]:
    """The N x N Slider board (rows from the top; "H", "V", "B" or None) that the read
    ``squares`` show in the players' frame ``turns`` quarter turns from the camera's.

    Raises MalformedPosition naming the square (players' frame, row and column from 1) when
    a square of the board holds something that is no Slider piece (a coin of a third suit,
    a coin value side up) or when the unused row or column of an odd board holds anything."""
    grid = turned(squares, turns)
    size = len(grid)
    if size < n or any(len(row) != size for row in grid):
        raise MalformedPosition(f"a read of {size} x {len(grid[0]) if grid else 0} squares cannot hold an {n} x {n} board")
    pieces = {h_suit: "H", v_suit: "V", DIE: "B"}
    board: list[list[str | None]] = []
    for r in range(size):
        row = []
        for c in range(size):
            code = grid[r][c]
            if code is None:
                row.append(None)
                continue
            where = f"row {r + 1}, column {c + 1}"
            if r >= n or c >= n:
                raise MalformedPosition(f"{where} is outside the {n} x {n} board but holds a piece")
            if code not in pieces:
                what = "a coin value side up" if code not in ("S", "M", "C", "A") else f"a coin of suit {code}"
                raise MalformedPosition(f"{where} holds {what}: Slider uses coins of {h_suit} (H) and {v_suit} (V) "
                                        f"suit side up and dice for blocks")
            row.append(pieces[code])
        if r < n:
            board.append(row[:n])
    return board


def start_turns(squares: Squares, n: int, h_suit: str, v_suit: str) -> list[int]:
    """The quarter turns (0-3, clockwise from the camera's frame) in which ``squares`` show a
    Slider start: every H piece on its starting square up the left column, every V piece on
    its starting square along the bottom row, blocks anywhere else. Usually one; none when
    the pieces are not yet set out."""
    h_cells = {xy_to_cell(xy, n) for xy in start_h(n)}
    v_cells = {xy_to_cell(xy, n) for xy in start_v(n)}
    out = []
    for k in range(4):
        try:
            board = board_from_squares(squares, n, h_suit, v_suit, k)
        except MalformedPosition:
            continue
        h = {(r, c) for r in range(n) for c in range(n) if board[r][c] == "H"}
        v = {(r, c) for r in range(n) for c in range(n) if board[r][c] == "V"}
        if h == h_cells and v == v_cells:
            out.append(k)
    return out


def read_table(n: int | None, h_suit: str | None = None,
               v_suit: str | None = None) -> tuple[TableDescription, tuple[int, ...] | None]:
    """(table, sizes) to read a Slider board with: the table of an N x N board where ``n`` is
    given, else the default board's with ``READ_SIZES``, the tiles a side the picture is to
    tell among. Raises MalformedPosition for a size Slider has not and for suits
    ``position_from_read`` does not take, before any picture is read."""
    _suits(h_suit, v_suit)
    if n is None:
        return table_of_size(DEFAULT_N), READ_SIZES
    return table_of_size(check_n(n)), None


def position_from_read(squares: Squares, n: int | None = None, h_suit: str | None = None,
                       v_suit: str | None = None) -> dict:
    """``{"n": N, "board": N x N}`` of a read's ``squares`` (the camera's frame, row 0 the far
    side): N ``n``, or without it the read's whole lattice (an even N); H's coins of suit
    ``h_suit`` (default ``DEFAULT_H_SUIT``), V's of ``v_suit`` (``DEFAULT_V_SUIT``). Raises
    MalformedPosition for suits that are not two different suit letters and where the read
    holds what no Slider piece is (``board_from_squares``)."""
    h, v = _suits(h_suit, v_suit)
    size = len(squares) if n is None else check_n(n)
    return {"n": size, "board": board_from_squares(squares, size, h, v, 0)}


def _suits(h_suit: str | None, v_suit: str | None) -> tuple[str, str]:
    """(H's suit, V's suit), the defaults where None; raises MalformedPosition unless two
    different suit letters."""
    h = DEFAULT_H_SUIT if h_suit is None else h_suit
    v = DEFAULT_V_SUIT if v_suit is None else v_suit
    if h not in ("S", "M", "C", "A") or v not in ("S", "M", "C", "A") or h == v:
        raise MalformedPosition(f"H suit {h!r} and V suit {v!r}: expected two different suit letters of S, M, C, A")
    return h, v
