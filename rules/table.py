"""What lies on the table for a game, and where: the type of a game's table description.

Each game package holds its value in ``rules/<game>/table.py`` (``TABLE`` for the usual
setup, ``table_for(state)`` for a given position, since some games change size with their
options) and its record (``rules.record.GameRecord``) carries it. The description is data
only, so that a reader of camera pictures can be driven by it without knowing any game's
name: what lattice to look for, how many squares to cut each tile into, which pieces may
stand on a square, what lies off the board and where, which rotations of the board look
alike, and how the player's side of the table is told.

Coordinates are ``(row, col)``, 0-based, row 0 on the player's far side and column 0 on the
player's left, as everywhere in the project. Tile cells count tiles (or cards); square cells
count squares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

Cell = tuple[int, int]


class TileSide(Enum):
    """Which side of a tile shows."""

    FACE_UP = "face up"  # the suit and value show (Easy Slider's tiles, Steppin' Stones' home tiles)
    GRID_UP = "grid side up"  # the back, a 2x2 grid of squares
    EITHER = "either side up"


class CardSide(Enum):
    """Which side of a card shows."""

    FACE_UP = "face up"
    FACE_DOWN = "face down"
    EITHER = "either side up"


class CoinSide(Enum):
    """Which side of a coin may show where it lies."""

    VALUE = "value side up"
    SUIT = "suit side up"
    EITHER = "either side up"


class Piece(Enum):
    """The kinds of piece a description names."""

    TILE = "tile"
    COIN = "coin"
    PAWN = "pawn"
    DIE = "die"
    CARD = "card"


class Place(Enum):
    """Where pieces lie off the board, relative to the board as the player sees it."""

    LEFT_OF_ROWS = "left of the rows, one beside each row"
    ABOVE_COLUMNS = "above the columns (the far side), one beyond each column"
    BESIDE_BOARD = "beside the board"
    BY_OWN_CORNER = "by the owner's starting corner"
    MIDDLE = "in the middle of the table"


class PlayerSide(Enum):
    """How the player's side of the table (and so the board's orientation) is found."""

    FROM_PIECES = "from the pieces off the board"
    CAMERA = "the camera's side, fixed once at the start"


@dataclass(frozen=True)
class TileLattice:
    """A board of ``rows`` x ``cols`` tiles laid edge to edge, each cut into ``squares`` squares.

    ``side`` is the side every tile shows, except the tiles in ``face_up`` (shown face up on a
    board otherwise grid side up). ``holes`` are tile cells where no tile lies, for good;
    ``moving_holes`` is how many further tile cells are empty and move as tiles slide (Easy
    Slider's one hole, anywhere). ``play_area`` (rows, cols of squares), when given, is the
    part of the squares the game uses, from the far-left corner (Slider's odd boards leave the
    last row and column of squares unused). ``faces``: the face each face-up tile shows where
    the game fixes it, as (cell, tile code) pairs (Steppin' Stones' home tiles are the suits'
    aces): they tell apart the turns of a board its outline alone cannot (``rotations``).
    """

    rows: int
    cols: int
    side: TileSide
    squares: tuple[int, int] = (1, 1)  # squares per tile: (1, 1) reads a tile as one square
    face_up: frozenset[Cell] = frozenset()
    holes: frozenset[Cell] = frozenset()
    moving_holes: int = 0
    play_area: tuple[int, int] | None = None
    faces: tuple[tuple[Cell, str], ...] = ()

    def __post_init__(self) -> None:
        if any(cell not in self.face_up for cell, _ in self.faces):
            raise ValueError(f"faces {self.faces} name tiles that are not face up")
        if self.rows < 1 or self.cols < 1 or min(self.squares) < 1:
            raise ValueError(f"a lattice needs at least one tile and one square per tile, got {self}")
        if self.play_area is not None:
            full = (self.rows * self.squares[0], self.cols * self.squares[1])
            if not all(0 < used <= whole for used, whole in zip(self.play_area, full)):
                raise ValueError(f"play area {self.play_area} does not fit the {full[0]}x{full[1]} squares")
        for cell in self.face_up | self.holes:
            if not (0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols):
                raise ValueError(f"tile cell {list(cell)} is off the {self.rows}x{self.cols} lattice")

    @property
    def square_shape(self) -> tuple[int, int]:
        """(rows, cols) of squares: the shape of the game's square grid."""
        if self.play_area is not None:
            return self.play_area
        return (self.rows * self.squares[0], self.cols * self.squares[1])

    @property
    def tiles(self) -> int:
        """How many tiles lie on the board."""
        return self.rows * self.cols - len(self.holes) - self.moving_holes

    def tile_of(self, square: Cell) -> Cell:
        """The tile cell that holds ``square``."""
        return (square[0] // self.squares[0], square[1] // self.squares[1])

    def has_square(self, square: Cell) -> bool:
        """True when ``square`` is on the board and a tile lies under it for good."""
        rows, cols = self.square_shape
        return 0 <= square[0] < rows and 0 <= square[1] < cols and self.tile_of(square) not in self.holes


@dataclass(frozen=True)
class CardGrid:
    """A grid of ``rows`` x ``cols`` cards, each card one square; ``gaps`` cells may be empty."""

    rows: int
    cols: int
    side: CardSide
    gaps: int = 0

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"a card grid needs at least one card, got {self}")

    @property
    def square_shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)


#: the code a camera read gives a square with a die on it (where ``OnSquares.dice``), beside the
#: suit letters of coins suit side up and the ranks of coins value side up
DIE_ON_SQUARE = "die"


@dataclass(frozen=True)
class OnSquares:
    """What may stand on one square of the board: one piece a square, except that a pawn may
    stand on a coin when ``pawn_on_coin``. ``name``: the key the game's JSON writes the
    squares' coins under."""

    coins: CoinSide | None = None
    pawns: bool = False
    dice: bool = False
    pawn_on_coin: bool = False
    name: str = "coins"

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return tuple(p for p, yes in ((Piece.COIN, self.coins is not None), (Piece.PAWN, self.pawns),
                                      (Piece.DIE, self.dice)) if yes)


@dataclass(frozen=True)
class OffBoard:
    """Pieces that lie off the board in a known place: ``count`` of them, ``most`` at most when
    the number varies (None: exactly ``count``)."""

    piece: Piece
    place: Place
    count: int
    most: int | None = None
    side: CoinSide | CardSide | None = None  # for coins and cards
    what: str = ""  # in words, for people

    @property
    def counts(self) -> range:
        """Every number of these pieces the table may show."""
        return range(self.count, (self.most if self.most is not None else self.count) + 1)


@dataclass(frozen=True)
class TableDescription:
    """What lies on the table for one game, and where.

    ``board`` is the lattice of tiles or the grid of cards; ``on_squares`` what may stand on a
    square; ``off_board`` what lies off it in known places; ``rotations`` the quarter turns
    (0, 90, 180, 270 degrees, counter-clockwise) that leave the board's shape unchanged, so
    that a reader knows which orientations its picture alone cannot tell apart; ``player_side``
    how the player's side is told among those.
    """

    board: TileLattice | CardGrid
    on_squares: OnSquares = field(default_factory=OnSquares)
    off_board: tuple[OffBoard, ...] = ()
    player_side: PlayerSide = PlayerSide.CAMERA
    player_side_how: str = ""

    @property
    def square_shape(self) -> tuple[int, int]:
        """(rows, cols) of the squares the game's positions are written in."""
        return self.board.square_shape

    @property
    def rotations(self) -> tuple[int, ...]:
        """The quarter turns (in degrees) that map the board's shape onto itself."""
        return rotations_of(self.board)


def rotations_of(board: TileLattice | CardGrid) -> tuple[int, ...]:
    """The rotations (degrees) that leave ``board``'s outline, and its fixed holes and face-up
    tiles, where they were: all four for a square board, 0 and 180 for an oblong one."""
    rows, cols = board.rows, board.cols
    marks = [getattr(board, "holes", frozenset()), getattr(board, "face_up", frozenset())]

    def turn(cell: Cell, k: int) -> Cell:
        r, c = cell
        n_rows, n_cols = rows, cols
        for _ in range(k):  # a quarter turn counter-clockwise
            r, c = n_cols - 1 - c, r
            n_rows, n_cols = n_cols, n_rows
        return (r, c)

    out = []
    for k in range(4):
        if k % 2 and rows != cols:
            continue
        if all(frozenset(turn(cell, k) for cell in mark) == mark for mark in marks):
            out.append(90 * k)
    return tuple(out)
