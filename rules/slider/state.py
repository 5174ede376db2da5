"""Slider (Leckie & Erfani): positions, moves, passes and the end of the game.

Coordinates follow the course project's move notation: a square is ``(i, j)`` with
``i`` the column (0 = left) and ``j`` the row counted up from the bottom, so (0,0) is
the bottom-left square and (N-1, N-1) the top-right. (The rules text writes cells as
(row, column) in its prose; the issue fixes the move notation as ``(i,j): DIR`` with
i the column, and this module uses that one order everywhere.) Text boards and JSON
list rows from the top, as printed; ``xy_to_cell`` converts.

Horizontal (H) starts in column 0, rows 1..N-1 and moves up, down or right, leaving
off the right edge; Vertical (V) starts in row 0, columns 1..N-1 and moves left, right
or up, leaving off the top edge. A player with no legal move must pass (and may pass
only then); two passes in a row tie the game; the first player with every piece off
the board wins.

``Side``, ``Move``, ``PASS`` and the square helpers live in ``rules.slider.board`` (shared with
``reasons``) and may be imported from here as well.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Iterable

from rules.errors import IllegalMove, MalformedPosition
from rules.grid import Cell, Grid, in_bounds
from rules.reasons import Reason
from rules.slider import reasons
from rules.slider.board import PASS, Move, Pass, Side, format_square

MIN_N = 3
MAX_N = 8
DEFAULT_N = 6


def xy_to_cell(xy: Cell, n_rows: int) -> Cell:
    """A bottom-left-origin point ``(x, y)`` (x = column, y = rows up from the bottom) as a ``(row, col)`` cell.

    For notations such as Slider's, where (0,0) is the bottom-left square, on a grid of
    ``n_rows`` rows whose row 0 is the top row.
    """
    return (n_rows - 1 - xy[1], xy[0])


def cell_to_xy(cell: Cell, n_rows: int) -> Cell:
    """The inverse of ``xy_to_cell``: a ``(row, col)`` cell as ``(x, y)`` with y counted up from the bottom row."""
    return (cell[1], n_rows - 1 - cell[0])


def check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise MalformedPosition(f"board size {n!r} is not a whole number: expected {MIN_N} to {MAX_N}")
    if not MIN_N <= n <= MAX_N:
        raise MalformedPosition(f"board size {n} is out of range: expected {MIN_N} to {MAX_N}")
    return n


@dataclass(frozen=True)
class SliderState:
    """A Slider position: board size, the squares of each side's pieces and of the blocks, whose turn.

    Squares are ``(i, j)`` = (column, row from the bottom). ``passes`` is the number of
    passes made in a row just before this position (2 ends the game in a tie).
    """

    n: int
    h: frozenset[Cell]
    v: frozenset[Cell]
    blocked: frozenset[Cell]
    to_move: Side = Side.H
    passes: int = 0

    def __post_init__(self) -> None:
        check_n(self.n)
        for what, squares in (("H", self.h), ("V", self.v), ("blocked", self.blocked)):
            for sq in squares:
                if not (isinstance(sq, tuple) and len(sq) == 2 and self.on_board(sq)):
                    raise MalformedPosition(f"{what} square {sq!r} is not on a {self.n}x{self.n} board")
        for a, b, what in ((self.h, self.v, "H and V"), (self.h, self.blocked, "H and a block"),
                           (self.v, self.blocked, "V and a block")):
            both = a & b
            if both:
                raise MalformedPosition(f"square {format_square(sorted(both)[0])} holds both {what}")
        for side, squares in ((Side.H, self.h), (Side.V, self.v)):
            if len(squares) > self.n - 1:
                raise MalformedPosition(
                    f"{len(squares)} {side} pieces on a {self.n}x{self.n} board: each player has at most {self.n - 1}"
                )
        if not self.h and not self.v:
            raise MalformedPosition("neither player has a piece on the board: at most one player can have finished")
        if not isinstance(self.to_move, Side):
            raise MalformedPosition(f"bad player to move {self.to_move!r}: expected Side.H or Side.V")
        if self.passes not in (0, 1, 2):
            raise MalformedPosition(f"passes must be 0, 1 or 2, got {self.passes!r}")

    def on_board(self, square: Cell) -> bool:
        return 0 <= square[0] < self.n and 0 <= square[1] < self.n

    def pieces(self, side: Side) -> frozenset[Cell]:
        return self.h if side is Side.H else self.v

    def at(self, square: Cell) -> str | None:
        """``"H"``, ``"V"``, ``"B"`` or None for an empty square."""
        if square in self.h:
            return "H"
        if square in self.v:
            return "V"
        if square in self.blocked:
            return "B"
        return None

    def is_free(self, square: Cell) -> bool:
        return square not in self.h and square not in self.v and square not in self.blocked

    @property
    def winner(self) -> Side | None:
        """The side whose pieces are all off the board, if any."""
        if not self.h:
            return Side.H
        if not self.v:
            return Side.V
        return None

    @property
    def is_tie(self) -> bool:
        return self.winner is None and self.passes >= 2

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.passes >= 2

    def piece_moves(self, side: Side) -> list[Move]:
        """Every one-square move of ``side``'s pieces (ignoring whose turn it is), sorted by square then direction."""
        out = []
        for sq in sorted(self.pieces(side)):
            for d in side.directions:
                if self.move_reason(side, Move(sq[0], sq[1], d)) is None:
                    out.append(Move(sq[0], sq[1], d))
        return out

    def move_reason(self, side: Side, move: Move) -> Reason | None:
        """Why ``side`` may not make ``move`` here, as a ``Reason`` with ``cells`` (from, to) and a
        code of ``rules.slider.reasons``, or None when it may."""
        sq, dest = move.square, move.target()
        if sq not in self.pieces(side):
            if not self.on_board(sq):
                return Reason(reasons.OFF_BOARD, (sq, dest), (side,), number=self.n)
            return Reason(reasons.NO_PIECE, (sq, dest), (side, self._occupant(sq)))
        if move.direction not in side.directions:
            return Reason(reasons.BACKWARDS, (sq, dest), (side,))
        if not self.on_board(dest):
            if move.direction is side.forward:
                return None
            return Reason(reasons.WRONG_EDGE, (sq, dest), (side,))
        if not self.is_free(dest):
            return Reason(reasons.OCCUPIED, (sq, dest), (side, self._occupant(dest)))
        return None

    def _occupant(self, square: Cell) -> Side | str | None:
        """What stands on ``square`` as a ``Reason`` names it: a ``Side``, ``"B"`` for a block, or None."""
        what = self.at(square)
        return Side(what) if what in ("H", "V") else what

    def legal_moves(self) -> list[Move | Pass]:
        """The moves of the player to move; ``[PASS]`` when they have none; ``[]`` once the game is over."""
        if self.is_over:
            return []
        moves = self.piece_moves(self.to_move)
        return list(moves) if moves else [PASS]

    def apply(self, move: Any) -> "SliderState":
        """The position after ``move`` by the player to move; raises IllegalMove saying why it is not
        allowed, with the verdict as data in its ``reason`` (codes in ``rules.slider.reasons``)."""
        if self.is_over:
            why = Reason(reasons.GAME_OVER, pieces=(move,))
            raise IllegalMove(reasons.text(why), why if isinstance(move, (Move, Pass)) else None)
        side = self.to_move
        if isinstance(move, Pass):
            if self.piece_moves(side):
                raise _illegal(Reason(reasons.MUST_MOVE, pieces=(side,)))
            return replace(self, to_move=side.other, passes=self.passes + 1)
        if not isinstance(move, Move):
            raise IllegalMove(f"{move!r} is not a Slider move: expected a Move or PASS")
        why = self.move_reason(side, move)
        if why is not None:
            raise _illegal(why)
        dest = move.target()
        mine = self.pieces(side) - {move.square}
        if self.on_board(dest):
            mine = mine | {dest}
        if side is Side.H:
            return replace(self, h=frozenset(mine), to_move=side.other, passes=0)
        return replace(self, v=frozenset(mine), to_move=side.other, passes=0)

    def count_moves(self) -> tuple[int, int]:
        """The number of legal moves of H and of V (as the course project's count), whoever is to move."""
        return len(self.piece_moves(Side.H)), len(self.piece_moves(Side.V))

    # --- text and grid forms -------------------------------------------------------------

    def grid(self) -> Grid:
        """The board as a ``rules.grid.Grid`` of "H"/"V"/"B"/None, row 0 = the top row (j = N-1)."""
        return Grid.of(
            [[self.at(cell_to_xy((r, c), self.n)) for c in range(self.n)] for r in range(self.n)]
        )

    def to_text(self) -> str:
        """The course project's text format: N on the first line, then N rows from the top."""
        return f"{self.n}\n{self.grid().render(empty='+')}\n"

    def is_start(self) -> bool:
        """True if the pieces stand where the rules start them (blocks may be anywhere)."""
        return self.h == start_h(self.n) and self.v == start_v(self.n)


def _illegal(why: Reason) -> IllegalMove:
    """The IllegalMove of the verdict ``why``, its message written by ``reasons.text``."""
    return IllegalMove(reasons.text(why), why)


def start_h(n: int) -> frozenset[Cell]:
    return frozenset((0, j) for j in range(1, n))


def start_v(n: int) -> frozenset[Cell]:
    return frozenset((i, 0) for i in range(1, n))


def board_from_grid(grid: Grid, to_move: Side, passes: int) -> SliderState:
    n = grid.shape[0]
    squares: dict[str, set[Cell]] = {"H": set(), "V": set(), "B": set()}
    for cell, value in grid.items():
        if value is not None:
            squares[value].add(cell_to_xy(cell, n))
    return SliderState(n, frozenset(squares["H"]), frozenset(squares["V"]), frozenset(squares["B"]), to_move, passes)


def setup(
    seed: int | None = None,
    n: int = DEFAULT_N,
    blocked: Iterable[Cell] | None = None,
    blocks: int | None = None,
    first: Side | str | None = None,
    **options: Any,
) -> SliderState:
    """The start position on an ``n`` x ``n`` board.

    ``blocked`` gives the blocked squares (i, j) explicitly; otherwise ``blocks``
    squares (default: 0 to n-3, drawn from the seed) are chosen at random among the
    squares the pieces do not start on. ``first`` is the player who moves first
    (default: drawn from the seed, as the rules choose "arbitrarily").
    """
    if options:
        raise MalformedPosition(f"unknown Slider option(s) {sorted(options)}: expected n, blocked, blocks, first")
    check_n(n)
    rng = random.Random(seed)
    start = start_h(n) | start_v(n)
    if blocked is not None:
        squares = frozenset(tuple(sq) for sq in blocked)
        for sq in sorted(squares):
            if not in_bounds(sq, (n, n)):
                raise MalformedPosition(f"blocked square {format_square(sq)} is not on a {n}x{n} board")
            if sq in start:
                raise MalformedPosition(f"blocked square {format_square(sq)} is a starting square of a piece")
    else:
        free = sorted((i, j) for i in range(n) for j in range(n) if (i, j) not in start)
        k = rng.randint(0, max(0, n - 3)) if blocks is None else blocks
        if not 0 <= k <= len(free):
            raise MalformedPosition(f"cannot block {k} squares on a {n}x{n} board: expected 0 to {len(free)}")
        squares = frozenset(rng.sample(free, k))
    side = Side.parse(first) if first is not None else rng.choice((Side.H, Side.V))
    return SliderState(n, start_h(n), start_v(n), squares, side, 0)


def perft(state: SliderState, depth: int) -> int:
    """Distinct move sequences of exactly ``depth`` moves (passes included)."""
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply(m), depth - 1) for m in moves)
