"""What one frame shows: the reader's result, a frozen value in the player's frame.

Each reader returns its own observation (``Observation`` for tiles face up with pieces
beside the board, ``SquaresObservation`` for a board of squares), with the attributes its
users (the live referees, calibration) need. Both also give the same layered view,
``layered()``: a ``LayeredObservation`` of ``Layer`` values, one for each kind of piece
read where it may lie (the tiles of the lattice, what stands on each square, the pieces in
each place off the board), each with its labels, confidences and doubtful items. The
``caller read`` outputs (its JSON and its text report) and the preview's labels are made
from that view, so a new kind of table needs a reader and its layers, not a new output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.pieces import SUITS

Cell = tuple[int, int]
Point = tuple[float, float]

#: pieces named by a suit are listed in the suits' order
SUIT_ORDER = "".join(suit.value for suit in SUITS)

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

    def layered(self) -> "LayeredObservation":
        """The read as layers: the tiles (``board``, a hole is empty), the pawns beside rows 1-4
        and the coins above columns 1-5."""
        return LayeredObservation(
            layers=(Layer("board", "tiles", self.board, self.cell_confidence, self.uncertain, empty="hole"),
                    Layer("pawns", "rows 1-4", self.pawns, self.pawn_confidence, self.uncertain_pawns),
                    Layer("coins", "columns 1-5", self.coins, self.coin_confidence, self.uncertain_coins)),
            board_corners=self.board_corners, covered=self.covered, orientation=self.orientation)

    def cell_labels(self) -> tuple[tuple[str, ...], ...]:
        """What each cell shows, as a person reads it (5 rows of 5): a tile's code, or ``hole``."""
        return self.layered().cell_labels()

    def to_json(self, image: str | None = None, game: str = "easy-slider") -> dict:
        """The ``caller read --json`` object (the schema in docs/architecture.md, with orientation and corners)."""
        return self.layered().to_json(image, game)


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
    ``collected`` (where the game lays collected coins by the corners; None otherwise): for
    each corner in that order, the suit letters of the coins lying suit side up beside it,
    nearest the corner first; ``collected_confidence`` the lowest confidence of each corner's
    coins and ``uncertain_collected`` the corners below the reader's threshold. ``covered``:
    squares a hand hides (told only by a reader that follows one camera's frames: its kept
    board's tiles that no longer show their grid; uncertain too), and ``settling`` those of
    them on tiles whose pieces have read the same since their grid began to show less (a
    pawn just set on a tile's cross rather than a hand over it; the reader tells which after
    a few reads, so a frame with such squares is worth reading again soon). ``read_again``: the
    reader asks for the same still scene to be read again (its watch for hands over the board,
    ``vision.reach``, has no picture of the table round it yet). ``coins_name``: the key the
    game's JSON writes the squares' coins under (``rules.table.OnSquares.name``). ``dice``
    (where the game lays dice beside the board; None otherwise): (suit, face) of each die
    found, in the suits' order, face a rank or ``s`` (the suit symbol); ``dice_confidence``
    each die's confidence and ``uncertain_dice`` the dice below the reader's threshold.
    """

    coins: tuple[tuple[str | None, ...], ...]
    pawns: tuple[tuple[str, Cell], ...]
    square_confidence: tuple[tuple[float, ...], ...]
    uncertain: tuple[Cell, ...]
    board_corners: tuple[Point, Point, Point, Point]
    timings: tuple[tuple[str, float], ...] = field(default=(), compare=False)
    collected: tuple[tuple[str, ...], ...] | None = None
    collected_confidence: tuple[float, ...] = ()
    uncertain_collected: tuple[int, ...] = ()
    covered: tuple[Cell, ...] = ()
    settling: tuple[Cell, ...] = field(default=(), compare=False)
    read_again: bool = field(default=False, compare=False)
    coins_name: str = "coins"
    dice: tuple[tuple[str, str], ...] | None = None
    dice_confidence: tuple[float, ...] = ()
    uncertain_dice: tuple[int, ...] = ()

    @property
    def confidence(self) -> float:
        """The lowest confidence of any square."""
        values = [c for row in self.square_confidence for c in row]
        return float(min(values)) if values else 0.0

    @property
    def confident(self) -> bool:
        return not self.uncertain

    def layered(self) -> "LayeredObservation":
        """The read as layers: the coins on the squares and the pawns on them (one confidence
        and one doubt for each square, pawn and coin together)."""
        rows, cols = len(self.coins), len(self.coins[0])
        where = {cell: suit for suit, cell in self.pawns}
        pawns = tuple(tuple(where.get((r, c)) for c in range(cols)) for r in range(rows))
        layers = (Layer(self.coins_name, "squares", self.coins, self.square_confidence, self.uncertain),
                  Layer("pawns", "squares", pawns, self.square_confidence, self.uncertain, unique=True))
        if self.collected is not None:
            layers += (Layer("collected", "by the corners TL TR BR BL", self.collected, self.collected_confidence,
                             self.uncertain_collected),)
        if self.dice is not None:
            layers += (Layer("dice", "beside the board", self.dice, self.dice_confidence, self.uncertain_dice,
                             fields=("suit", "face")),)
        return LayeredObservation(layers=layers, board_corners=self.board_corners)

    def cell_labels(self) -> tuple[tuple[str, ...], ...]:
        """What each square shows, as a person reads it (rows x cols): a pawn as its suit in
        lower case (whatever it stands on), a coin's rank or suit, ``""`` for an empty square."""
        return self.layered().cell_labels()

    def to_json(self, image: str | None = None, game: str = "") -> dict:
        """The ``caller read --json`` object: the layers, then confidence, uncertain squares and corners."""
        return self.layered().to_json(image, game)


@dataclass(frozen=True)
class CardsObservation:
    """One read of a grid of cards.

    ``grid``: rows x cols of each slot's card: its number 1-10, ``"down"`` (face down) or
    None (no card), row 0 the player's far side. ``slot_confidence`` the same shape in
    [0, 1]; ``uncertain`` the slots below the reader's threshold (their labels a best guess,
    never to be acted on). ``board_corners``: the grid's outer corners in image px, TL, TR,
    BR, BL of the player's frame. ``timings``: (stage, ms) pairs. ``looks``: what each slot
    looked like (``vision.cards.slot_looks``, rows x cols x h x w x 3, in the player's frame),
    for a live referee to tell a slot that still looks as it did when it was read sure; not
    part of the read (never compared, never in the JSON)."""

    grid: tuple[tuple[int | str | None, ...], ...]
    slot_confidence: tuple[tuple[float, ...], ...]
    uncertain: tuple[Cell, ...]
    board_corners: tuple[Point, Point, Point, Point]
    timings: tuple[tuple[str, float], ...] = field(default=(), compare=False)
    looks: Any = field(default=None, compare=False, repr=False)

    @property
    def confidence(self) -> float:
        """The lowest confidence of any slot."""
        return float(min(v for row in self.slot_confidence for v in row))

    @property
    def confident(self) -> bool:
        return not self.uncertain

    def cell_labels(self) -> tuple[tuple[str, ...], ...]:
        """What each slot shows, as a person reads it: a number, ``down``, or ``""`` for no card."""
        return self.layered().cell_labels()

    def layered(self) -> "LayeredObservation":
        """The read as one layer: the cards of the grid's slots."""
        return LayeredObservation(layers=(Layer("grid", "cards", self.grid, self.slot_confidence, self.uncertain),),
                                  board_corners=self.board_corners)

    def to_json(self, image: str | None = None, game: str = "") -> dict:
        """The ``caller read --json`` object: ``grid``, then confidence, uncertain slots and corners."""
        return self.layered().to_json(image, game)


@dataclass(frozen=True)
class Layer:
    """One kind of piece as read, where it may lie.

    ``name`` is its key in the game's JSON (``board``, ``coins``, ``pawns``). ``where``:
    ``"tiles"`` (a label per tile cell of the lattice), ``"squares"`` (a label per square),
    ``"cards"`` (a label per card slot of a grid) or, off the board, the place in words for people (``"rows 1-4"``: one label per place,
    in order). ``labels``: rows x cols of labels on the board (None: nothing there), a
    sequence off it; ``confidence`` the same shape, in [0, 1]; ``uncertain`` the cells (on
    the board) or indices (off it) below the reader's threshold. ``unique``: each label
    names one piece (a pawn of each suit), so the JSON maps label -> [row, col]. ``empty``:
    the word for an empty cell where people see one (``"hole"``), "" when an empty square
    is just the board. ``fields``: off the board, each label is a tuple of these fields (a
    die's suit and face), written in the JSON as an object with these keys.
    """

    name: str
    where: str
    labels: tuple
    confidence: tuple
    uncertain: tuple
    unique: bool = False
    empty: str = ""
    fields: tuple[str, ...] = ()

    @property
    def on_board(self) -> bool:
        return self.where in ("tiles", "squares", "cards")

    def flat_confidence(self) -> list[float]:
        if self.on_board:
            return [float(v) for row in self.confidence for v in row]
        return [float(v) for v in self.confidence]

    def json_labels(self) -> Any:
        """The labels as the game's JSON writes them."""
        if not self.on_board:
            if self.fields:
                return [dict(zip(self.fields, label)) for label in self.labels]
            return [list(label) if isinstance(label, tuple) else label for label in self.labels]
        if self.unique:
            found = {label: [r, c] for r, row in enumerate(self.labels) for c, label in enumerate(row) if label is not None}
            return dict(sorted(found.items(), key=lambda kv: (SUIT_ORDER.find(kv[0]) % (len(SUIT_ORDER) + 1), kv[0])))
        return [list(row) for row in self.labels]


@dataclass(frozen=True)
class LayeredObservation:
    """A read as layers (see ``Layer``): what each game's ``caller read`` output is made of.

    ``board_corners``: the board's outer corners in image px, TL, TR, BR, BL of the frame
    reported. ``covered``: board cells a hand hides (None: the reader does not tell covered
    cells from doubtful ones). ``orientation``: the quarter turn k of the player's far side
    in the image (``ORIENTATION_WORDS``; None: the reader does not tell it, only a frame its
    shape allows)."""

    layers: tuple[Layer, ...]
    board_corners: tuple[Point, Point, Point, Point]
    covered: tuple[Cell, ...] | None = None
    orientation: int | None = None

    def layer(self, name: str) -> Layer:
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise KeyError(name)

    @property
    def confidence(self) -> float:
        """The lowest confidence of anything read: the read is as sure as its weakest part."""
        values = [v for layer in self.layers for v in layer.flat_confidence()]
        return float(min(values)) if values else 0.0

    @property
    def board_layers(self) -> tuple[Layer, ...]:
        return tuple(layer for layer in self.layers if layer.on_board)

    def uncertain_cells(self) -> list[Cell]:
        """The doubtful cells of the board, every board layer's together, each once."""
        cells: list[Cell] = []
        for layer in self.board_layers:
            cells += [tuple(c) for c in layer.uncertain if tuple(c) not in cells]
        return cells

    def cell_labels(self, empty: str | None = None) -> tuple[tuple[str, ...], ...]:
        """What each cell of the board shows, as a person reads it: a unique piece (a pawn) as
        its label in lower case over whatever it stands on, else the other layers' label, else
        ``empty`` (None: the layers' word for an empty cell, such as ``hole``)."""
        layers = sorted(self.board_layers, key=lambda layer: not layer.unique)
        blank = layers[-1].empty if empty is None else empty
        out = []
        for r in range(len(layers[0].labels)):
            row = []
            for c in range(len(layers[0].labels[r])):
                text = next((lab.lower() if layer.unique else lab for layer in layers
                             if (lab := layer.labels[r][c]) is not None), None)
                row.append(blank if text is None else str(text))
            out.append(tuple(row))
        return tuple(out)

    def to_json(self, image: str | None = None, game: str = "") -> dict:
        """The ``caller read --json`` object: the layers under their names, ``confidence``, the
        board's ``uncertain`` cells, ``uncertain_<name>`` for each place off the board, then
        ``covered`` and ``orientation`` where the reader tells them, and ``board_corners``."""
        out: dict = {}
        if image is not None:
            out["image"] = image
        out["game"] = game
        for layer in self.layers:
            out[layer.name] = layer.json_labels()
        out["confidence"] = round(self.confidence, 4)
        out["uncertain"] = [list(cell) for cell in self.uncertain_cells()]
        for layer in self.layers:
            if not layer.on_board:
                out[f"uncertain_{layer.name}"] = list(layer.uncertain)
        if self.covered is not None:
            out["covered"] = [list(cell) for cell in self.covered]
        if self.orientation is not None:
            out["orientation"] = ORIENTATION_WORDS[self.orientation]
        out["board_corners"] = [[round(x, 1), round(y, 1)] for x, y in self.board_corners]
        return out

    def report(self, name: str) -> str:
        """The text report of ``caller read``: a line of the board a row (labels padded alike,
        ``-`` for an empty cell, a unique piece in lower case), ``?`` after what is doubtful,
        then a line for the pieces off the board (or a unique layer's places)."""
        head = f"{name}: confidence {self.confidence:.2f}"
        if self.orientation is not None:
            head += f", the player's far side is towards the image's {ORIENTATION_WORDS[self.orientation]}"
        lines = [head]
        doubt = set(self.uncertain_cells())
        grid = self.cell_labels(empty="")
        width = max(1, max(len(text) for row in grid for text in row))
        for r, row in enumerate(grid):
            cells = [(text or "-" * width).ljust(width) + ("?" if (r, c) in doubt else " ") for c, text in enumerate(row)]
            lines.append("  " + " ".join(cells).rstrip())
        parts = []
        for layer in self.layers:
            if layer.on_board and layer.unique:
                found = layer.json_labels()
                parts.append(f"{layer.name} (lower case): "
                             + (", ".join(f"{s} at {cell}" for s, cell in found.items()) or "none on the board"))
            elif not layer.on_board:
                items = " ".join(_shown(lab) + ("?" if i in layer.uncertain else "") for i, lab in enumerate(layer.labels))
                parts.append(f"{layer.name} ({layer.where}): {items}")
        if parts:
            lines.append("  " + "    ".join(parts))
        if doubt or any(layer.uncertain for layer in self.layers):
            lines.append(f"  uncertain (marked ?): cells {[list(c) for c in self.uncertain_cells()]}"
                         + (f", covered {[list(c) for c in self.covered]}" if self.covered else ""))
        return "\n".join(lines)


def _shown(label) -> str:
    """An off-board place's label in the text report: several pieces in one place as their
    labels run together (``MM``), none as ``-``."""
    if isinstance(label, tuple):
        return "".join(label) or "-"
    return str(label)
