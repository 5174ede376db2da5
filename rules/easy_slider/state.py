"""Easy Slider (Ron and Marty Hale-Evans): the position, the goal, slides and "Done!".

Coordinates are ``(row, col)``, 0-based, row 0 next to the coins (the far side from the
player), col 0 at the player's left. The board is 5x5: the 24 tiles of one piecepack and
one hole (``None``). The four pawns lie left of rows 0-3 (top to bottom) and the five
coins (ace to 5 of one suit, value side up) above columns 0-4 (left to right).

The goal a setup defines: the tile at ``(r, c)`` for ``r`` in 0-3 is the tile of the suit
of pawn ``r`` and the rank of coin ``c``; the four nulls fill row 4 in any order, with the
hole anywhere in that row (the "parity sponge", which makes every position solvable).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.easy_slider import reasons
from rules.errors import IllegalMove, MalformedPosition
from rules.grid import Cell, Direction, Grid, in_bounds, neighbours
from rules.pieces import RANKS, SUITS, Pawn, Rank, Tile, all_tiles
from rules.reasons import Reason


SIZE = 5
SHAPE = (SIZE, SIZE)
#: The cell of the hole in a dealt setup: the lower right-hand corner.
SETUP_HOLE: Cell = (SIZE - 1, SIZE - 1)
#: The row that holds the four nulls and the hole when the board is done (the parity sponge).
SPONGE_ROW = SIZE - 1
COIN_RANKS: tuple[Rank, ...] = tuple(r for r in RANKS if r is not Rank.NULL)
TILES: frozenset[Tile] = frozenset(all_tiles())


@dataclass(frozen=True)
class Slide:
    """One slide: ``tile`` moves from ``src`` into the hole at ``dst`` (orthogonal neighbours)."""

    tile: Tile
    src: Cell
    dst: Cell

    @property
    def direction(self) -> Direction | None:
        """The direction the tile moves in (None for a non-adjacent pair)."""
        return Direction.between(self.src, self.dst)

    def to_json(self) -> dict:
        """``{"tile": "S5", "from": [r, c], "to": [r, c]}``."""
        return {"tile": self.tile.code, "from": list(self.src), "to": list(self.dst)}

    def __str__(self) -> str:
        return f"{self.tile.code} {list(self.src)}->{list(self.dst)}"


@dataclass(frozen=True)
class EasySliderState:
    """A position: ``board`` (5x5 Grid of Tile, None for the hole), ``pawns`` (4, rows 0-3 top
    to bottom), ``coins`` (5 ranks ace-5, columns 0-4 left to right).

    The constructor checks the invariants (24 distinct tiles and one hole, four distinct
    pawns, the five coin ranks ace-5 once each) and raises MalformedPosition otherwise.
    """

    board: Grid
    pawns: tuple[Pawn, ...]
    coins: tuple[Rank, ...]

    def __post_init__(self) -> None:
        problems = board_findings(self.board)
        if problems:
            raise MalformedPosition(*problems[0])
        if len(self.pawns) != 4 or not all(isinstance(p, Pawn) for p in self.pawns):
            raise MalformedPosition(f"pawns must be 4 pawns (rows 1-4), got {self.pawns!r}")
        if len({p.suit for p in self.pawns}) != 4:
            raise MalformedPosition(
                f"pawns {[p.code for p in self.pawns]} repeat a colour: expected each of S, M, C, A once",
                Reason(reasons.PAWNS_REPEAT, pieces=self.pawns),
            )
        if len(self.coins) != SIZE or not all(isinstance(c, Rank) for c in self.coins):
            raise MalformedPosition(f"coins must be 5 ranks (columns 1-5), got {self.coins!r}")
        if set(self.coins) != set(COIN_RANKS):
            raise MalformedPosition(
                f"coins {[c.code for c in self.coins]} must be a, 2, 3, 4, 5 once each",
                Reason(reasons.COINS_REPEAT, pieces=self.coins),
            )

    @property
    def hole(self) -> Cell:
        """The cell of the hole."""
        return self.board.find(None)[0]

    def goal_tile(self, cell: Cell) -> Tile | None:
        """The tile that belongs at ``cell`` (None in the sponge row, where any null or the hole may lie)."""
        r, c = cell
        if r == SPONGE_ROW:
            return None
        return Tile(self.pawns[r].suit, self.coins[c])

    def slide(self, src: Cell) -> "EasySliderState":
        """The position after sliding the tile at ``src`` into the hole; raises IllegalMove saying why not."""
        if not in_bounds(src, SHAPE):
            raise IllegalMove(f"cell {list(src)} is off the 5x5 board")
        tile = self.board[src]
        if tile is None:
            raise IllegalMove(f"cell {list(src)} is the hole: there is no tile to slide")
        return apply(self, Slide(tile, src, self.hole))


def board_problems(board: Any) -> list[str]:
    """What makes ``board`` not a 5x5 board of the 24 distinct tiles and one hole (empty when fine)."""
    return [message for message, _ in board_findings(board)]


def board_findings(board: Any) -> list[tuple[str, Reason | None]]:
    """``board_problems`` with each problem's verdict as data (None for a board of the wrong shape)."""
    if not isinstance(board, Grid) or board.shape != SHAPE:
        shape = board.shape if isinstance(board, Grid) else type(board).__name__
        return [(f"board must be a 5x5 grid, got {shape}", None)]
    problems: list[tuple[str, Reason | None]] = []
    seen: dict[Tile, Cell] = {}
    holes = []
    for cell, value in board.items():
        if value is None:
            holes.append(cell)
        elif not isinstance(value, Tile) or value not in TILES:
            problems.append((f"cell {list(cell)} holds {value!r}, which is not a tile of the set",
                             Reason(reasons.FOREIGN, (cell,), (value,))))
        elif value in seen:
            problems.append((f"tile {value.code} is on the board twice, at {list(seen[value])} and {list(cell)}",
                             Reason(reasons.DOUBLED, (seen[value], cell), (value, value))))
        else:
            seen[value] = cell
    missing = sorted((t for t in TILES if t not in seen), key=lambda t: t.code)
    if len(holes) != 1:
        where = ", ".join(str(list(h)) for h in holes)
        problems.append((f"the board has {len(holes)} holes ({where or 'none'}): expected exactly one",
                         Reason(reasons.HOLES, tuple(holes))))
    if missing and len(holes) > 1:
        problems.append((f"tile(s) {', '.join(t.code for t in missing)} missing from the board",
                         Reason(reasons.MISSING, pieces=tuple(missing))))
    return problems


def goal_problems(state: EasySliderState) -> list[Cell]:
    """The cells that are wrong for the goal, row-major (empty when the board is done).

    A cell in rows 0-3 is wrong unless it holds its goal tile; a cell of the sponge row is
    wrong when it holds anything but a null or the hole.
    """
    wrong = []
    for cell, tile in state.board.items():
        goal = state.goal_tile(cell)
        if cell[0] == SPONGE_ROW:
            if tile is not None and tile.rank is not Rank.NULL:
                wrong.append(cell)
        elif tile != goal:
            wrong.append(cell)
    return wrong


def is_done(state: EasySliderState) -> bool:
    """True when the board matches the goal of its pawns and coins."""
    return not goal_problems(state)


def deal(rng: random.Random) -> EasySliderState:
    """The Caller's setup with ``rng``: pawns drawn first, then coins, then the tiles row by row."""
    pawns = [Pawn(s) for s in SUITS]
    rng.shuffle(pawns)
    coins = list(COIN_RANKS)
    rng.shuffle(coins)
    tiles = sorted(TILES, key=lambda t: t.code)
    rng.shuffle(tiles)
    cells: list[Tile | None] = list(tiles) + [None]  # the hole is the 25th cell: lower right
    rows = [cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
    return EasySliderState(Grid.of(rows), tuple(pawns), tuple(coins))


def legal_moves(state: EasySliderState) -> list[Slide]:
    """The slides into the hole, from above, below, left, right (empty once the board is done)."""
    if is_done(state):
        return []
    hole = state.hole
    return [Slide(state.board[n], n, hole) for _, n in neighbours(hole, SHAPE)]


def apply(state: EasySliderState, move: Any) -> EasySliderState:
    """The position after ``move`` (a Slide); raises IllegalMove saying why it is not a legal slide."""
    if not isinstance(move, Slide):
        raise IllegalMove(f"{move!r} is not a slide: expected Slide(tile, src, dst)")
    src, dst = move.src, move.dst
    for cell in (src, dst):
        if not in_bounds(cell, SHAPE):
            raise IllegalMove(f"cell {list(cell)} is off the 5x5 board")
    if state.board[dst] is not None:
        raise IllegalMove(
            f"cannot slide {move.tile.code} to {list(dst)}: that cell holds {state.board[dst].code}, not the hole"
        )
    if state.board[src] != move.tile:
        held = state.board[src].code if state.board[src] is not None else "the hole"
        raise IllegalMove(f"cannot slide {move.tile.code} from {list(src)}: that cell holds {held}")
    dr, dc = abs(src[0] - dst[0]), abs(src[1] - dst[1])
    if dr == 1 and dc == 1:
        raise IllegalMove(f"{move.tile.code} from {list(src)} to {list(dst)} is a diagonal move")
    if dr + dc != 1:
        raise IllegalMove(
            f"{move.tile.code} at {list(src)} is not next to the hole at {list(dst)}: only a neighbouring tile may slide"
        )
    board = state.board.set(dst, move.tile).set(src, None)
    return EasySliderState(board, state.pawns, state.coins)


def slides_of(board: Grid, path: list[int]) -> tuple[Slide, ...]:
    """The Slide values of a path of source cell indices (see rules.sliding) played on ``board``."""
    cells = list(board.values())
    hole = cells.index(None)
    out = []
    for src in path:
        tile = cells[src]
        out.append(Slide(tile, divmod(src, SIZE), divmod(hole, SIZE)))
        cells[hole], cells[src] = tile, None
        hole = src
    return tuple(out)
