"""What one frame shows: the reader's result, a frozen value in the player's frame."""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]
Point = tuple[float, float]

# orientation k: the player's "up" (towards row 1 and the coins) points this way in the image
ORIENTATION_WORDS = ("up", "right", "down", "left")


@dataclass(frozen=True)
class Observation:
    """One read of an Easy Slider table.

    ``board``: 5 rows of 5 tile codes (``"S5"``), ``None`` for the hole, row 0 next to the
    coins, column 0 at the player's left. ``pawns``: the 4 pawn suits beside rows 1-4, top
    to bottom; ``coins``: the 5 coin ranks above columns 1-5, left to right.
    ``cell_confidence`` (5x5), ``pawn_confidence`` (4), ``coin_confidence`` (5) are in
    [0, 1]; ``uncertain`` lists the cells below the reader's threshold (covered cells
    always), ``uncertain_pawns``/``uncertain_coins`` the indices of such pawns and coins; the
    labels of uncertain items are the best completion consistent with the game's pieces,
    never to be acted on. ``covered``: cells a hand or other object hides.
    ``orientation`` k in 0..3: the player's up (towards the coins) points up, right, down or
    left in the image. ``board_corners``: the board's outer corners in image pixels (x, y),
    player's-frame order TL, TR, BR, BL. ``timings``: (stage, milliseconds) pairs.
    """

    board: tuple[tuple[str | None, ...], ...]
    pawns: tuple[str, ...]
    coins: tuple[str, ...]
    cell_confidence: tuple[tuple[float, ...], ...]
    pawn_confidence: tuple[float, ...]
    coin_confidence: tuple[float, ...]
    uncertain: tuple[Cell, ...]
    uncertain_pawns: tuple[int, ...]
    uncertain_coins: tuple[int, ...]
    covered: tuple[Cell, ...]
    orientation: int
    board_corners: tuple[Point, Point, Point, Point]
    timings: tuple[tuple[str, float], ...] = field(default=(), compare=False)

    @property
    def confidence(self) -> float:
        """The lowest confidence of any cell, pawn or coin: the read is as sure as its weakest part."""
        values = [c for row in self.cell_confidence for c in row]
        values += list(self.pawn_confidence) + list(self.coin_confidence)
        return float(min(values)) if values else 0.0

    @property
    def confident(self) -> bool:
        return not (self.uncertain or self.uncertain_pawns or self.uncertain_coins)

    @property
    def hole(self) -> Cell:
        for r, row in enumerate(self.board):
            for c, code in enumerate(row):
                if code is None:
                    return (r, c)
        raise ValueError("observation without a hole")

    def cell_labels(self) -> tuple[tuple[str, ...], ...]:
        """What each cell shows, as a person reads it (5 rows of 5): a tile's code, or ``hole``."""
        return tuple(tuple(code or "hole" for code in row) for row in self.board)

    def to_json(self, image: str | None = None, game: str = "easy-slider") -> dict:
        """The ``caller read --json`` object (the schema in docs/architecture.md, with orientation and corners)."""
        out: dict = {}
        if image is not None:
            out["image"] = image
        out["game"] = game
        out["board"] = [list(row) for row in self.board]
        out["pawns"] = list(self.pawns)
        out["coins"] = list(self.coins)
        out["confidence"] = round(self.confidence, 4)
        out["uncertain"] = [list(cell) for cell in self.uncertain]
        out["uncertain_pawns"] = list(self.uncertain_pawns)
        out["uncertain_coins"] = list(self.uncertain_coins)
        out["covered"] = [list(cell) for cell in self.covered]
        out["orientation"] = ORIENTATION_WORDS[self.orientation]
        out["board_corners"] = [[round(x, 1), round(y, 1)] for x, y in self.board_corners]
        return out


@dataclass(frozen=True)
class SquaresObservation:
    """One read of a board of squares (tiles grid side up, 2x2 squares each), in layers.

    ``coins``: rows x cols of what lies on each square: ``None`` (nothing, or only a pawn), a
    rank ``"n" "a" "2".."5"`` (a coin value side up) or a suit letter (a coin suit side up).
    ``pawns``: (suit, (row, col)) for each pawn standing on the board. ``square_confidence``
    (rows x cols, in [0, 1]) is how sure each square's reading is, pawn and coin together;
    ``uncertain`` the squares below the reader's threshold (their labels are a best guess,
    never to be acted on). Row 0 is the board's far side in the frame reported: a still
    cannot tell the two half turns of an oblong board apart by its shape, so the reader
    reports the one its coins read upright in. ``board_corners``: the board's outer
    corners in image px, TL, TR, BR, BL of that frame. ``timings``: (stage, ms) pairs.
    """

    coins: tuple[tuple[str | None, ...], ...]
    pawns: tuple[tuple[str, Cell], ...]
    square_confidence: tuple[tuple[float, ...], ...]
    uncertain: tuple[Cell, ...]
    board_corners: tuple[Point, Point, Point, Point]
    timings: tuple[tuple[str, float], ...] = field(default=(), compare=False)

    @property
    def confidence(self) -> float:
        """The lowest confidence of any square."""
        values = [c for row in self.square_confidence for c in row]
        return float(min(values)) if values else 0.0

    @property
    def confident(self) -> bool:
        return not self.uncertain

    def cell_labels(self) -> tuple[tuple[str, ...], ...]:
        """What each square shows, as a person reads it (rows x cols): a pawn as its suit in
        lower case (whatever it stands on), a coin's rank or suit, ``""`` for an empty square."""
        pawns = {cell: suit for suit, cell in self.pawns}
        return tuple(tuple(pawns[(r, c)].lower() if (r, c) in pawns else (code or "") for c, code in enumerate(row))
                     for r, row in enumerate(self.coins))

    def layers(self) -> dict:
        """The reading as plain data: ``coins`` (rows x cols) and ``pawns`` ({suit: [row, col]})."""
        return {"coins": [list(row) for row in self.coins], "pawns": {s: [r, c] for s, (r, c) in self.pawns}}

    def to_json(self, image: str | None = None, game: str = "") -> dict:
        """The ``caller read --json`` object: the layers, then confidence, uncertain squares and corners."""
        out: dict = {}
        if image is not None:
            out["image"] = image
        out["game"] = game
        out.update(self.layers())
        out["confidence"] = round(self.confidence, 4)
        out["uncertain"] = [list(cell) for cell in self.uncertain]
        out["board_corners"] = [[round(x, 1), round(y, 1)] for x, y in self.board_corners]
        return out
