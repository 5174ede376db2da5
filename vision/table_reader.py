"""One entry point for reading a table, driven by the game's table description.

``table_reader(description, profile, config)`` returns the reader for what lies on the table
(``rules.table.TableDescription``), never for a game by name:

* a lattice of tiles face up with the pieces beside it (pawns left of the rows, coins above
  the columns) is read by ``vision.reader.Reader``: tile faces, then the pieces beside the
  board, which also tell the player's side;
* a lattice of tiles grid side up, cut into 2x2 squares, with coins, pawns or dice on the
  squares, is read by :class:`SquaresReader` below; a square lattice whose quarter turn
  nothing on the table tells is read in the camera's frame where the players' side is the
  camera's (``vision.camera_side``), and a part of the squares left unused
  (``TileLattice.play_area``) is read like the rest, the rules judging what lies there;
* a grid of cards (``rules.table.CardGrid``) is read by ``vision.card_reader.CardsReader``:
  each slot's number, a card face down or no card (the cards off the grid are not read).

Any other table (tiles face up with no face fixed on a square board, dice off the board
elsewhere than beside it) raises ProfileError naming what the camera cannot read yet, so the
commands refuse in one line.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from rules.pieces import SUITS
from rules.table import DIE_ON_SQUARE, CardGrid, Piece, Place, PlayerSide, TableDescription, TileLattice, TileSide
from vision.assign import assign, assign_capped, confidence_from_margin
from vision.config import VisionConfig
from vision.dice import DICE_MODEL, DiceMemory, read_dice
from vision.errors import BoardNotFound, ProfileError
from vision.faces_up import face_costs, face_up_costs, quarter_frames
from vision.board_size import MEASURE, config_for_tiles, locate_square_board, tile_gridness
from vision.camera_side import CameraSide
from vision.grid_locate import gridness, lattice_fit, locate_grid
from vision.locate import Lattice, same_board
from vision.observation import SquaresObservation
from vision.offboard import find_by_corners
from vision.profile import Profile, load_model, load_profile
from vision.reach import SAME, Reach
from vision.reader import check_image, read_image_file
from vision import features as F
from vision.config import nudges
from vision.squares import (FEATURES_ID, FrameMemory, SquareMeasures, frames, grid_side, half_turned, look_again,
                            frame_key, measure_squares, turned_coin_features)

Cell = tuple[int, int]

#: the bundled model of grid-side squares (``benchmarks/build_squares_model.py``)
SQUARES_MODEL = Path(__file__).resolve().parent / "models" / "squares"
#: the bundled model of grid-side squares where dice stand on squares, beside coins suit
#: side up (``benchmarks/build_blocks_model.py``): the squares model knows no die
BLOCKS_MODEL = Path(__file__).resolve().parent / "models" / "blocks"


def what_it_reads(table: TableDescription) -> str | None:
    """"faces", "squares" or "cards": the kind of table a reader exists for; None when there is none yet."""
    board = table.board
    if isinstance(board, CardGrid):
        return "cards"
    if not isinstance(board, TileLattice):
        return None
    if board.side is TileSide.FACE_UP and board.squares == (1, 1) and table.player_side is PlayerSide.FROM_PIECES:
        return "faces"
    dice_off = any(off.piece is Piece.DIE and off.place is not Place.BESIDE_BOARD for off in table.off_board)
    # an oblong board's turn is one of two half turns (its coins read upright in one), face-up
    # tiles the game fixes tell a square board's, and so does the camera where the players'
    # side is the camera's
    turn_told = board.faces or board.rows != board.cols or table.player_side is PlayerSide.CAMERA
    if (board.side is TileSide.GRID_UP and board.squares == (2, 2) and not board.holes
            and set(board.face_up) == {cell for cell, _ in board.faces} and turn_told and not dice_off):
        # (tiles face up with no face fixed, a square board with nothing to tell its quarter
        # turn, dice off the board elsewhere than beside it and tiles missing are not read yet)
        return "squares"
    return None


def table_reader(table: TableDescription, profile: Profile | str | Path | None = None, config: VisionConfig | None = None,
                 profile_game: str = "easy-slider", track: bool = False, sizes: tuple[int, ...] | None = None):
    """The reader of ``table``; raises ProfileError when the camera cannot read such a table yet.
    ``profile_game``: the game a face-up profile is learnt for (face profiles name their game);
    ``track``: frames of one fixed camera, as the live Caller reads, and ``sizes``: the tiles a side
    a square board may have where the picture must tell (``SquaresReader``)."""
    kind = what_it_reads(table)
    if kind == "faces":
        from vision.reader import Reader

        return Reader(profile, config, game=profile_game)
    if kind == "squares":
        return SquaresReader(table, profile, config, track=track, sizes=sizes)
    if kind == "cards":
        from vision.card_reader import CardsReader

        return CardsReader(table, profile, config)
    raise ProfileError("the camera cannot read this table yet (only tiles face up with their pieces beside "
                       "them, tiles grid side up with coins and pawns on their squares, and grids of cards)")


#: a kept board (``SquaresReader(track=True)``) is read again while its tiles show their grid at
#: least this share as clearly as when it was found (``_shown``: a quarter of them at least)
KEEP_SHARE = 0.7
#: ... and while something reaches in over it (``vision.reach``), while they show at least this
#: share (a board moved, or the camera, shows next to none of its grid where it lay)
KEEP_REACHED = 0.3


#: a kept board's tile is covered (a hand over it) when its grid shows less than this share
#: as clearly as it did (``SquaresReader`` with ``track``) ...
COVER_SHARE = 0.5
#: ... where "as it did" forgets this share of the difference each read, so that a tile whose
#: cross a pawn now stands on counts as covered for a few reads only ...
COVER_MEMORY = 0.8
#: ... and a tile whose grid shows so much less while its squares are read the same each
#: time, pieces on them and some read sure (``SquaresReader._pieces_held``), for this many
#: reads in a row is not covered: the pieces read on it hide its cross (two coins side by side
#: or corner to corner on one tile hide most of it), and how clearly it did show is forgotten
COVER_HELD = 3
#: ... where a tile whose pieces are read the same but some of its squares in doubt must still
#: show its grid at least this share as clearly as it did: a hand hides a tile's cross
#: altogether (a light disc over a bare tile: none of it; a coin moved onto a tile's cross and
#: read in doubt left a fifth to two fifths), and the squares model guesses at what lies under it
COVER_FLOOR = 0.1


def _shown(gridness: np.ndarray) -> float:
    """How clearly a board's tiles show their grid: the gridness that a quarter of them show at
    least (two at least: on a board of 2 x 2 tiles, two coins on each of two tiles left the
    other two alone to show it). Pieces hide most tiles' crosses on a crowded board (a Steppin'
    Stones board of sixteen tiles, four face up and most of the rest with two coins, showed
    half of them at 0.04: the same board's next frames fell under that by noise alone, were
    searched, and a lattice of squares was taken for the board), while a board that has
    moved, or a camera, shows next to none of it where it lay."""
    values = np.sort(np.asarray(gridness, float).ravel())
    return float(values[min(values.size * 3 // 4, values.size - 2)])


def _doubt_in_front(pawns: dict, coins: list, conf: np.ndarray, lattice: Lattice, frame, threshold: float) -> None:
    """A pawn stands tall: in the picture it rises over the square behind the one it stands on,
    and one stood near the edge between two squares fits the farther of them about as well. A
    pawn read in doubt makes the square in front of it (its neighbour nearest the camera, down
    the picture) as doubtful, when that square is read empty: the pawn may stand there.
    ``conf`` (rows x cols squares) is updated in place."""
    R, C = conf.shape
    on = set(pawns.values())

    def centre(r: int, c: int) -> np.ndarray:
        return lattice.to_image(np.array([frame((c + 0.5) / 2, (r + 0.5) / 2)], np.float64))[0]

    for r, c in pawns.values():
        if conf[r, c] >= threshold:
            continue
        here = centre(r, c)
        steps = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= r + dr < R and 0 <= c + dc < C]
        downs = [(d[1] / (np.hypot(*d) + 1e-9)) for d in (centre(*sq) - here for sq in steps)]
        rr, cc = steps[int(np.argmax(downs))]
        if max(downs) > 0.5 and coins[rr][cc] is None and (rr, cc) not in on:  # (none in front on the near edge)
            conf[rr, cc] = min(conf[rr, cc], conf[r, c])


#: the reading of a coin whose face is blank (a null): only its rim tells it from an empty square
BLANK = "n"


class SquaresReader:
    """Reads a board of tiles grid side up: the coins (value or suit side up) and pawns on its squares.

    ``table``: the game's description (its lattice's rows x cols tiles, 2x2 squares each);
    ``profile``: a squares model (None: the bundled one). ``track``: the frames come from one
    camera that does not move (the live Caller's), so the board found in one frame is read
    again in the next without searching the frame, as long as its cells show their grid at
    least ``KEEP_SHARE`` as clearly as when it was found (the search is half a read's time,
    and the board of a game in play stays where it lies: a tile line shifted or a tile carried
    round leaves the lattice as it was). A frame where they do not (the board moved, a hand
    over it) is searched: a board found where the kept one lies is the kept one, read with
    the tiles whose grid shows less covered (a hand over them); a board found elsewhere is kept
    instead only when its grid shows as clearly as the kept one's did (a hand's frame is read,
    and forgotten). ``searches`` counts the searches made.

    A square board whose turn nothing on it tells is read in the camera's frame (row 0 the
    edge farthest from the camera, ``vision.camera_side``), with ``track`` in the turn chosen
    at the first read. ``sizes``: for such a board, the tiles a side it may have when the
    picture must tell (``vision.board_size``; None: the description's); the read then has
    2k x 2k squares for the k found. Where dice stand on squares the squares are read with
    the blocks model (``BLOCKS_MODEL``), a die on a square as ``rules.table.DIE_ON_SQUARE``."""

    def __init__(self, table: TableDescription, profile: Profile | str | Path | None = None,
                 config: VisionConfig | None = None, track: bool = False, sizes: tuple[int, ...] | None = None):
        if what_it_reads(table) != "squares":
            raise ProfileError("this reader reads tiles grid side up with pieces on their squares")
        self.table = table
        self.config = config or VisionConfig()
        board = table.board
        #: the board's turn is the camera's: a square board with no face fixed on it
        self.camera_side = CameraSide(keep=track) if board.rows == board.cols and not board.faces else None
        #: how a kept board's tiles are checked for their cross (a hand over them): such a board
        #: (a small one, its squares crowded with coins) with ``board_size.MEASURE``, which it is
        #: searched for with (two coins on a small tile's squares spread ``gridness``'s squares
        #: as a hand does), others with ``gridness``
        self.measure = MEASURE if self.camera_side is not None else gridness
        if sizes is not None and (self.camera_side is None or not sizes or min(sizes) < 1):
            raise ProfileError("only a square board whose turn the camera tells may be read at several sizes")
        self.sizes = tuple(sizes) if sizes is not None else None
        bundled = BLOCKS_MODEL if table.on_squares.dice else SQUARES_MODEL
        self.profile, self.model = load_model(profile, bundled, game="squares", kind="squares", features_id=FEATURES_ID)
        labels = self.model.classes
        self._pawns = [i for i, lab in enumerate(labels) if lab.startswith("p")]
        # either side of a coin is read wherever coins may lie: a coin turned over where the game
        # wants its value side up is the rules' to judge, not the camera's to hide
        allowed = ({""} | ({"n", "a", "2", "3", "4", "5", "S", "M", "C", "A"} if table.on_squares.coins is not None else set())
                   | ({DIE_ON_SQUARE} if table.on_squares.dice else set()))
        self._others = [i for i, lab in enumerate(labels) if lab in allowed]
        #: the readings of a coin value side up, read at any turn (``_turned_coins``); a suit
        #: side is read as it lies (turned, the symbols drew an unfamiliar set's numerals: on
        #: eight development boards of the held-out look, 43 values read as the Arms side, 8
        #: of them sure, against 26 and none)
        self._values = np.array([i for i in self._others if labels[i] in {"n", "a", "2", "3", "4", "5"}], int)
        #: coins laid suit side up by the players' corners are read when the game keeps them so
        self.by_corners = any(off.piece is Piece.COIN and off.place is Place.BY_OWN_CORNER for off in table.off_board)
        #: the squares (player frame) of the tiles that lie face up
        self._face_up = frozenset(table.board.face_up)
        self._face_up_squares = [(2 * i + a, 2 * j + b) for i, j in sorted(self._face_up) for a in (0, 1) for b in (0, 1)]
        #: the grid-side squares, that set the board's background (``vision.squares.remeasure``)
        self._ground = grid_side(table.board.rows, table.board.cols, self._face_up)
        #: dice beside the board are read when the game lays them there (``vision.dice``)
        dice = [off for off in table.off_board if off.piece is Piece.DIE and off.place is Place.BESIDE_BOARD]
        self.dice = dice[0].counts if dice else None
        self._dice_models = load_profile(DICE_MODEL, game="dice", kinds=("faces", "suits")) if dice else None
        #: the dice of the last frame, each read from its reads while it lies still (``track``)
        self._dice_memory = DiceMemory() if dice and track else None
        self.track = track
        #: what one frame cut and found, for the next (a camera that does not move)
        self.memory = FrameMemory() if track else None
        self._kept: tuple[Lattice, float] | None = None
        self._clear: np.ndarray | None = None  # each kept cell's grid as it was (``COVER_MEMORY``)
        #: each kept cell's pieces read the same while its grid showed less (``COVER_HELD``): (the
        #: reading of its squares, how many reads in a row)
        self._held: dict[Cell, tuple[tuple, int]] = {}
        #: a hand reaching in over the kept board from the table round it (``vision.reach``)
        self.reach = Reach() if track else None
        self.searches = 0

    def read_file(self, path: str | Path) -> SquaresObservation:
        return self.read(read_image_file(path))

    def read(self, image: np.ndarray) -> SquaresObservation:
        """Read one BGR frame; raises BoardNotFound / BadImage."""
        image = check_image(image)
        cfg = self.config
        rows, cols = self.table.board.rows, self.table.board.cols
        t0 = time.perf_counter()
        lattice, grid = self._board(image, rows, cols)
        if self.camera_side is not None:
            rows = cols = lattice.shape[0]
        t1 = time.perf_counter()
        if self.camera_side is not None:
            turns = quarter_frames(lattice, rows)
            frame = turns[self.camera_side.choose(lattice, turns, rows)]
            measures = measure_squares(image, lattice, frame, rows, cols, self.memory)
            cost = self.model.costs(measures.features)
            measured, flip = frame, False
        elif self.table.board.faces:
            # tiles face up whose faces the game fixes tell the board's turn (a square board
            # has four), not the coins
            turns = quarter_frames(lattice, rows) if rows == cols else frames(lattice, rows, cols)
            frame = turns[int(np.argmin(face_costs(image, lattice, turns, self.table.board.faces)))]
            measures = measure_squares(image, lattice, frame, rows, cols, self.memory, self._ground)
            cost = self.model.costs(measures.features)
            measured, flip = frame, False
            if self._face_up_squares:
                # a face-up tile's print is no grid: its squares are read with a model of their own
                face_up_costs(cost, self.model.classes, measures.features, self._face_up_squares, 2 * cols)
        else:
            best = None
            first, turned = frames(lattice, rows, cols)
            measured = measure_squares(image, lattice, first, rows, cols, self.memory)
            for frame, measures in ((first, measured), (turned, half_turned(measured))):
                cost = self.model.costs(measures.features)
                total = float(cost.min(1).sum())
                if best is None or total < best[0]:
                    best = (total, frame, cost, measures)
            _, frame, cost, measures = best
            measured, flip = first, frame is not first
        # the faces read turned are kept for the ranks below (and, tracking, for the next frames)
        key, turned = frame_key(lattice, frame), self.memory if self.memory is not None else FrameMemory()
        cost = self._turned_coins(measures, cost, turned, key)
        t2 = time.perf_counter()
        coins, pawns, conf = self._label(cost, 2 * rows, 2 * cols, measures.rims)
        self._read_ranks(measures, coins, conf, turned, key)
        threshold = cfg.assign.confidence_threshold
        # a lattice on few tiles (for the board's size), or fitting them loosely, may lie a tile
        # off: the board is read, but nothing of it (on it or beside it) to be acted on
        doubt = self._doubtful(lattice)

        def doubted(confidences) -> tuple[float, ...]:
            return tuple(min(c, 0.5) for c in confidences) if doubt else tuple(confidences)

        if doubt:
            conf = np.minimum(conf, 0.5)
        _doubt_in_front(pawns, coins, conf, lattice, frame, threshold)
        read_sure = conf >= threshold
        covered, settling = self._covered(lattice, grid, frame, rows, cols, coins, pawns, read_sure)
        if self.reach is not None and self._kept is not None and lattice is self._kept[0]:
            reached = self.reach.covered(image, lattice, frame, rows, cols, not covered and bool(read_sure.all()))
            if self.reach.clear(image, lattice):
                # no arm crosses the strip round the board: a tile whose grid shows less with a
                # piece read sure on it is hidden by its pieces, not by a hand, at once (a coin
                # set on a tile's cross, read in doubt beside a sure one, hid most of it; the tile
                # read covered for four reads, and a quick player's move was never seen still);
                # a tile with no piece read sure stays covered (a hand held still long enough is
                # the reach picture's, and only its grid tells it; its guesses are in doubt)
                held = self._pieces_held(coins, pawns, read_sure)
                covered = [(r, c) for r, c in covered
                           if not any(v is not None and ok for v, ok in held[r // 2][c // 2] or ())]
                settling = []
            covered = sorted(set(covered) | set(reached))
        for r, c in covered:
            conf[r, c] = 0.0
        uncertain = tuple((r, c) for r in range(2 * rows) for c in range(2 * cols) if conf[r, c] < threshold)
        if self.memory is not None and uncertain:
            n = 4 * rows * cols
            doubtful = [r * 2 * cols + c for r, c in uncertain]
            look_again(self.memory, lattice, measured, rows, cols, image.shape,
                       [n - 1 - i for i in doubtful] if flip else doubtful)
        corners = lattice.to_image(np.array([frame(u, v) for u, v in ((0, 0), (cols, 0), (cols, rows), (0, rows))], float))
        t3 = time.perf_counter()
        timings = (("locate", (t1 - t0) * 1000), ("features", (t2 - t1) * 1000), ("classify", (t3 - t2) * 1000))
        extra = {}
        if self.by_corners:
            labels = self.model.classes
            found = find_by_corners(image, lattice, frame, rows, cols, measures, self.model,
                                    {s.value: labels.index(s.value) for s in SUITS if s.value in labels}, labels.index(""),
                                    self.memory)
            sure = doubted(found.confidence)
            extra = {"collected": found.suits, "collected_confidence": sure,
                     "uncertain_collected": tuple(i for i, c in enumerate(sure) if c < threshold)}
            timings += (("by the corners", (time.perf_counter() - t3) * 1000),)
        if self.dice is not None:
            t4 = time.perf_counter()
            got = read_dice(image, lattice, frame, rows, cols, self._dice_models.model("faces"),
                            self._dice_models.model("suits"), most=self.dice.stop - 1,
                            ranks_model=self._dice_models.models.get("ranks"), memory=self._dice_memory)
            sure = doubted(got.confidence)
            extra.update(dice=got.dice, dice_confidence=sure,
                         uncertain_dice=tuple(i for i, c in enumerate(sure) if c < threshold))
            timings += (("dice", (time.perf_counter() - t4) * 1000),)
        return SquaresObservation(
            coins=tuple(tuple(row) for row in coins),
            pawns=tuple(sorted(pawns.items(), key=lambda kv: "SMCA".index(kv[0]) if kv[0] in "SMCA" else 9)),
            square_confidence=tuple(tuple(float(v) for v in row) for row in conf),
            uncertain=uncertain,
            board_corners=tuple((float(x), float(y)) for x, y in corners),
            timings=tuple((k, round(v, 3)) for k, v in timings),
            covered=tuple(covered),
            settling=tuple(settling),
            # a still scene is read again until the reach watch has its first picture: taken
            # from the reads that hold still, it would otherwise come from the first hand held
            # still over the board (a Slider board whose block read in doubt never had a read
            # sure enough to take it at once; the live loop read the still board three times
            # and rested, and the first picture, with the first move's hand in it, kept the
            # squares the hand had left covered after it had gone)
            read_again=self.reach is not None and self._kept is not None and not self.reach.has_picture,
            coins_name=self.table.on_squares.name,
            **extra,
        )

    def _board(self, image: np.ndarray, rows: int, cols: int) -> tuple[Lattice, np.ndarray | None]:
        """The board's lattice in ``image`` (the kept one while it still fits, see the class's
        docstring, else found by the search) and, with ``track``, each of its cells' gridness
        in ``image`` (``tile_gridness``, measured once a frame), else None."""
        if self._kept is not None:
            kept, clear = self._kept
            now = tile_gridness(image, kept, self.measure)
            if _shown(now) >= KEEP_SHARE * clear and not self._doubtful(kept):
                return kept, now
            if (self.reach is not None and _shown(now) >= KEEP_REACHED * clear and not self._doubtful(kept)
                    and self.reach.reaching(image, kept)):
                # a hand reaching in over the board hides some of its grid: the board has not moved
                return kept, now
        try:
            if self.camera_side is not None:
                lattice = locate_square_board(image, self.config, self.sizes or (rows,))
            else:
                lattice = locate_grid(image, config_for_tiles(self.config, rows * cols), (rows, cols))
        except BoardNotFound:
            if self._kept is not None and _shown(now) >= KEEP_SHARE * clear:
                return kept, now  # a doubtful kept board, searched for again in vain: read as it is
            raise
        self.searches += 1
        if not self.track:
            return lattice, None
        if self._kept is not None and not self._doubtful(kept) and (
                same_board(lattice, kept)
                or (self.reach is not None and self.reach.reaching(image, kept)
                    and (same_board(lattice, kept, SAME) or self._doubtful(lattice)
                         or lattice_fit(lattice)[0] < lattice_fit(kept)[0]))):
            # the board lies where it lay: its grid shows less because something is over it (a
            # hand), which ``_covered`` tells tile by tile against the kept board's memory; a board
            # found again under a hand, near where it lay, on fewer tiles or in doubt, is never
            # taken for a new one (what the hand hides would become how its tiles look; a 2 x 2
            # board's grid was found a fourth of a pitch smaller round a hand, and its coins read
            # as dice on it; a Steppin' Stones board found on ten tiles of sixteen under a hand
            # lay 45 px off at one corner, and every coin read a square off for the rest of the
            # game)
            return kept, now
        now = tile_gridness(image, lattice, self.measure)
        clear = _shown(now)
        # a kept board in doubt gives way to one found on more tiles, where a quarter of its cells
        # at least show their cross as a tile found must (``grid.min_gridness``): a lattice of
        # two thirds the pitch, found on twelve tiles under a hand and showing no cross at all,
        # replaced a board found in doubt and was kept for a second and a half
        if (self._kept is None or clear >= self._kept[1] * KEEP_SHARE
                or (self._doubtful(self._kept[0]) and lattice_fit(lattice)[0] > lattice_fit(self._kept[0])[0]
                    and clear >= self.config.grid.min_gridness)):
            self._kept = (lattice, clear)
            self._clear = None
            self._held = {}
        return lattice, now

    def _doubtful(self, lattice: Lattice) -> bool:
        """Whether ``lattice`` was found on too few of its tiles, or fits them too loosely, for
        what is read on it to be acted on (``grid.sure_tiles``, ``grid.sure_fit``, scaled to its
        size by ``config_for_tiles``). A kept board in doubt (found while a hand hid some of
        its tiles) is searched for again on the next frames, so that the board is sure again
        once the hand has gone."""
        seen, off = lattice_fit(lattice)
        grid_cfg = config_for_tiles(self.config, lattice.shape[0] * lattice.shape[1]).grid
        return seen < grid_cfg.sure_tiles or off > grid_cfg.sure_fit

    @staticmethod
    def _pieces_held(coins: list, pawns: dict, sure: np.ndarray) -> list[list[tuple | None]]:
        """For each tile (player frame, 2x2 squares each) the reading of its squares (each one's
        code, or the pawn on it, and whether it is read sure: ``sure``, the squares' confidences
        at least the threshold) when some piece is read on them and one of them at least is
        read sure, else None. (A coin moved onto a tile's cross is often read in doubt, read
        after read the same: all four sure kept such a tile covered for seconds.)"""
        on = {square: "p" + suit for suit, square in pawns.items()}
        rows, cols = len(coins) // 2, len(coins[0]) // 2
        out = []
        for i in range(rows):
            line = []
            for j in range(cols):
                squares = [(2 * i + a, 2 * j + b) for a in (0, 1) for b in (0, 1)]
                seen = tuple((on.get(sq, coins[sq[0]][sq[1]]), bool(sure[sq])) for sq in squares)
                line.append(seen if any(ok for _, ok in seen) and any(v is not None for v, _ in seen) else None)
            out.append(line)
        return out

    def _covered(self, lattice: Lattice, now: np.ndarray | None, frame, rows: int, cols: int,
                 coins: list, pawns: dict, sure: np.ndarray) -> tuple[list[Cell], list[Cell]]:
        """The squares (player frame) of the kept board's tiles whose grid now shows less than
        ``COVER_SHARE`` as clearly as it did (``now``: the cells' gridness in this frame): a hand
        held still over the board (the motion gate lets a still hand through) hides what lies
        under it, and the squares model may read a light hand as empty squares with confidence.
        Only tiles that show a cross are judged so: not one the table lays face up, nor one
        whose grid, as it did, shows less than a candidate tile's must (``grid.min_gridness``).
        A tile whose grid shows less while its pieces are read the same (``_pieces_held`` of
        ``coins``, ``pawns`` and the squares read ``sure``; with some square in doubt, only
        while its grid still shows ``COVER_FLOOR`` of what it did) for
        ``COVER_HELD`` reads in a row is not covered while they are (they hide its cross, and how
        clearly it showed before is forgotten), unless it lies next to a covered tile: a hand
        reaches in over tiles side by side, and a sleeve over a tile can read as the same coin
        read after read. Also, of those squares, the ones of covered tiles whose pieces have so
        far read the same for fewer reads (``SquaresObservation.settling``). Nothing without
        ``track``, or for a board not kept."""
        if now is None or self._kept is None or lattice is not self._kept[0]:
            return [], []
        held = self._pieces_held(coins, pawns, sure)
        shows = self.config.grid.min_gridness  # as a candidate tile must (the same for any board size)
        was = now if self._clear is None else np.maximum(now, self._clear * COVER_MEMORY + now * (1 - COVER_MEMORY))
        low, hidden = set(), set()  # tiles (player frame): grid showing less; of those, the pieces' own
        cells = {}
        for i in range(rows):
            for j in range(cols):
                x, y = frame(j + 0.5, i + 0.5)
                cell = cells[i, j] = (int(np.floor(y)), int(np.floor(x)))
                seen, reads = self._held.pop(cell, (None, 0))
                if held[i][j] is None or held[i][j] != seen:
                    seen, reads = held[i][j], 0
                if seen is not None and not all(ok for _, ok in seen) and not now[cell] >= COVER_FLOOR * was[cell]:
                    seen = None  # pieces read in doubt on a tile whose grid shows no more: a hand's guesses
                # (a tile lying face up shows no cross, a pawn's tile or a tile crowded with coins
                # may show too little of one: their gridness wanders round nought from frame to
                # frame, and only the reach watch tells a hand over them)
                if (was[cell] > shows and (i, j) not in self._face_up
                        and now[cell] < COVER_SHARE * was[cell]):
                    low.add((i, j))
                if seen is not None and ((i, j) in low or reads >= COVER_HELD):
                    reads += 1  # its pieces read the same while its grid shows less
                    self._held[cell] = (seen, reads)
                    if reads >= COVER_HELD:
                        hidden.add((i, j))
        # a tile whose pieces seem to hide its cross next to a covered tile is covered too, and
        # so on along the arm (its memory kept: not forgiven)
        covered = low - hidden
        forgiven = hidden & low
        while True:
            near = {(i + di, j + dj) for i, j in covered for di, dj in ((0, 1), (1, 0), (0, -1), (-1, 0))}
            if not (forgiven & near) - covered:
                break
            covered |= forgiven & near
        for tile in hidden - covered:
            was[cells[tile]] = now[cells[tile]]  # the pieces hide its cross: it is not covered
        self._clear = was
        # tiles whose pieces have read the same since their grid showed less, not yet for long enough to tell
        settling = {tile for tile in covered if self._held.get(cells[tile], (None, COVER_HELD))[1] < COVER_HELD}

        def squares(tiles) -> list[Cell]:
            return [(2 * i + a, 2 * j + b) for i, j in sorted(tiles) for a in (0, 1) for b in (0, 1)]

        return squares(covered), squares(settling)

    def _turns(self) -> np.ndarray:
        """The turns (degrees) a coin's face is read at, 0 first (``grid.coin_turns``)."""
        n = self.config.grid.coin_turns
        return np.arange(n) * (360.0 / n)

    def _turned_coins(self, m: SquareMeasures, cost: np.ndarray, memory: FrameMemory | None = None,
                      key=None) -> np.ndarray:
        """N x L square costs with the cost of each value a coin may show the best over the
        coin's face read at each of ``_turns`` (a coin lies at any turn; the models learnt them
        nearly upright). Read so: every square not read as a pawn (a null's face turned far
        from upright fit an empty square best, sure). ``memory``, ``key``: see
        ``vision.squares.turned_coin_features``."""
        turns = self._turns()[1:]
        if not turns.size or not self._values.size:
            return cost
        idx = np.flatnonzero(~np.isin(cost.argmin(1), self._pawns))
        if not idx.size:
            return cost
        turned = self.model.costs_varied(m.features[idx], m.coin_columns[0],
                                         turned_coin_features(m.coin_windows, m.coin_centres, idx, turns, memory,
                                                              key)).min(0)
        out = cost.copy()
        sub = out[idx]
        sub[:, self._values] = np.minimum(sub[:, self._values], turned[:, self._values])
        out[idx] = sub
        return out

    def _read_ranks(self, m: SquareMeasures, coins: list, conf: np.ndarray, memory: FrameMemory | None = None,
                    key=None) -> None:
        """Each coin read value side up gets its rank from the ranks model (the coin features
        alone, as the face-up reader reads its coins), each rank at the turn its face fits best
        (``_turns``; ``memory``, ``key``: see ``_turned_coins``); a rank other than the
        squares model's is in doubt; a coin whose best two ranks are close is cut again
        ``features.coin_nudge_px`` off each way, at its best rank's turn, and each rank keeps
        its best fit; no value is read on more coins than a piecepack has suits
        (``assign_capped``).
        ``coins`` (rows of codes) and ``conf`` (rows x cols) are updated in place."""
        ranks = self.profile.models.get("ranks")
        if ranks is None:
            return
        C = len(coins[0])
        sel = np.array([i for i in range(len(conf.ravel())) if coins[i // C][i % C] in ranks.classes], int)
        if sel.size == 0:
            return
        # each value at the turn its face fits best (``_turns``)
        turns = self._turns()
        cost = ranks.costs(m.coin_features[sel])[None]
        if len(turns) > 1:
            turned = turned_coin_features(m.coin_windows, m.coin_centres, sel, turns[1:], memory, key)
            cost = np.concatenate([cost, ranks.costs(turned.reshape(-1, turned.shape[2])).reshape(len(turns) - 1, len(sel), -1)])
        at = turns[cost.argmin(0)]  # (upright first: a tie keeps it)
        cost = cost.min(0)
        fc = self.config.features
        srt = np.sort(cost, 1)
        srt_arg = cost.argmin(1)
        doubt = (srt[:, 1] - srt[:, 0]) < np.maximum(fc.coin_nudge_gap, fc.coin_nudge_ratio * srt[:, 0])
        if doubt.any():
            steps = np.array(nudges(fc.coin_nudge_px, fc.coin_nudge_px), np.float64)
            idx = sel[doubt]
            # nudged at the turn of the coin's best value
            turn_of = at[doubt, srt_arg[doubt]]
            moved = np.full((len(idx), cost.shape[1]), np.inf)
            for turn in np.unique(turn_of):
                some = np.flatnonzero(turn_of == turn)
                feats = F.coin_features(m.coin_windows[np.tile(idx[some], len(steps))],
                                        (m.coin_centres[idx[some]][None] + steps[:, None]).reshape(-1, 2), float(turn))
                moved[some] = ranks.costs(feats).reshape(len(steps), len(some), -1).min(0)
            cost[doubt] = np.minimum(cost[doubt], moved)
            srt = np.sort(cost, 1)
        # a piecepack has one coin of each value in each suit: no value shows more often than
        # there are suits, so the values are chosen together (more coins than the set holds
        # are read each on its own: something else is wrong there)
        chosen = assign_capped(cost, len(SUITS)) if len(sel) <= len(SUITS) * cost.shape[1] else cost.argmin(1)
        flat = conf.ravel()
        for k, i in enumerate(sel):
            was = coins[i // C][i % C]  # the squares model's value
            coins[i // C][i % C] = ranks.classes[int(chosen[k])]
            flat[i] = min(flat[i], float(confidence_from_margin(srt[k, 1] - srt[k, 0])))
            if coins[i // C][i % C] != was:
                flat[i] = min(flat[i], 0.5)

    def _by_rim(self, cost: np.ndarray, codes: list, conf: np.ndarray, rims: np.ndarray, taken: set[int],
                C: int) -> None:
        """Empty or a blank coin, told by the coin's rim on the board's own scale (see
        ``grid.rim_among``). The scale: the rims of the squares read sure, empty (not a pawn's)
        and holding a coin, at least ``grid.rim_among`` of each; the empty squares' ninetieth
        percentile ``lo`` and the coins' tenth ``hi`` at least ``grid.rim_gap`` apart. A square
        read empty whose rim reaches ``hi`` takes its best coin reading, as sure as that beats
        the next coin reading; one whose rim lies above the middle of the two is in doubt. A
        null whose rim reaches ``hi`` is as sure as it beats the next coin reading (an empty
        square is out of the question); one whose rim is no stronger than ``lo`` is read empty
        (a null read sure by the models saw its dot: a rim a little faint, a coin set on a
        tile's cross, leaves it be). The squares of tiles lying face up take no part (their
        print is no scale of rims). ``codes`` (N, rows of ``C``) and ``conf`` (N) are updated in
        place; a square no reading fits (confidence 0) is left alone."""
        labels = self.model.classes
        if "" not in labels:
            return
        sure = conf >= self.config.assign.confidence_threshold
        face_up = {r * C + c for r, c in self._face_up_squares}  # (a tile's print is no scale of rims)
        empty = np.array([i for i, c in enumerate(codes) if c is None and i not in taken and i not in face_up], int)
        coin = np.array([i for i, c in enumerate(codes) if c is not None and i not in face_up], int)
        ref_empty, ref_coin = rims[empty[sure[empty]]], rims[coin[sure[coin]]]
        among = self.config.grid.rim_among
        if len(ref_empty) < among or len(ref_coin) < among:
            return
        lo, hi = float(np.percentile(ref_empty, 90)), float(np.percentile(ref_coin, 10))
        if hi - lo < self.config.grid.rim_gap:
            return
        mid = (lo + hi) / 2
        # each square's best reading as a piece lying there, and how far it beats the next
        pieces = np.array([k for k in self._others if labels[k] != ""], int)
        fits = cost[:, pieces]
        best = pieces[fits.argmin(1)]
        order = np.sort(fits, 1)
        as_sure = confidence_from_margin(order[:, 1] - order[:, 0]) if len(pieces) > 1 else np.ones(len(cost))
        for i in empty:
            if conf[i] <= 0.0 or rims[i] <= mid:
                continue
            if rims[i] < hi:
                conf[i] = min(conf[i], 0.5)
                continue
            codes[i] = labels[int(best[i])]
            conf[i] = float(as_sure[i])
        if BLANK not in labels:
            return
        for i in coin:
            if codes[i] != BLANK or conf[i] <= 0.0:
                continue
            if rims[i] >= hi:
                # an empty square is out of the question: as sure as the blank beats the next coin
                conf[i] = max(conf[i], float(as_sure[i]))
            elif rims[i] <= lo:
                codes[i] = None

    def _label(self, cost: np.ndarray, R: int, C: int, rims: np.ndarray | None = None) -> tuple[list, dict, np.ndarray]:
        """(coins grid, {suit: square} of the pawns, R x C confidences) from N x L square costs
        (``rims``: N, each square's coin rim strength, for ``_by_rim``; None: not used).

        Each pawn stands on one square at most and each square holds one pawn at most: the
        pawns are placed jointly (an assignment) where they fit best in all, each only on a
        square where it beats the best other reading by ``grid.pawn_fit`` nats or no other
        reading fits well (``grid.pawn_room``), and off the board when it fits nowhere
        (``grid.pawn_reach``). Every other square takes its best coin reading (or empty)."""
        labels = self.model.classes
        others = np.array(self._others)
        other_cost = cost[:, others]
        best_other = other_cost.min(1)
        order = np.sort(other_cost, 1)
        conf = confidence_from_margin(order[:, 1] - order[:, 0]) if other_cost.shape[1] > 1 else np.ones(len(cost))
        is_value = np.isin(others, self._values)
        if self.profile.models.get("ranks") is not None and is_value.any() and (~is_value).any():
            # a square read as a coin value side up: how sure it is a value at all (which value,
            # the ranks model says, and a value it reads otherwise than this model is in doubt:
            # ``_read_ranks``); two values close here are no doubt of their own (turned round,
            # one numeral's face comes close to another's here: on eight boards of coins at any
            # turn 47 squares were in doubt so, 23 not, the same squares read wrong)
            value_best = is_value[other_cost.argmin(1)]
            gap = other_cost[:, ~is_value].min(1) - other_cost[:, is_value].min(1)
            conf = np.where(value_best, confidence_from_margin(gap), conf)
        pawns: dict[str, tuple[int, int]] = {}
        taken: set[int] = set()
        if self.table.on_squares.pawns and self._pawns:
            # one square a pawn, one pawn a square, jointly: each pawn where it fits best in
            # all, among the squares where it beats the best other reading (by
            # ``grid.pawn_fit`` nats) or where no other reading fits well (``grid.pawn_room``:
            # a pawn on a corner square, the board's edge behind it, fits its model loosely);
            # a pawn that fits nowhere (costs above ``grid.pawn_reach`` times the model's
            # outlier threshold) is off the board. The pawn's own cost decides, not its gain
            # over the square's other readings: a square that fits nothing well (a pawn's
            # shadow, a hand) would otherwise draw any pawn to it. A pawn that fits no better
            # than the square's other readings is read with a confidence of one half or less
            P = len(self._pawns)
            pawn_cost = cost[:, self._pawns].T
            gc = self.config.grid
            loose = best_other > gc.pawn_room * self.model.outlier  # no other reading fits well
            may = (pawn_cost < best_other[None, :] - gc.pawn_fit) | loose[None, :]
            place = np.where(may, pawn_cost, 1e6)
            off = np.full((P, P), 1e9)  # another pawn's way off the board: never
            np.fill_diagonal(off, gc.pawn_reach * self.model.outlier)
            placed = assign(np.concatenate([place, off], 1))
            for k, i in enumerate(placed):
                if i >= len(cost):
                    continue
                j = self._pawns[k]
                pawns[labels[j][1:]] = divmod(int(i), C)
                taken.add(int(i))
                # how sure: the pawn against the square's best other reading and the other pawns
                rivals = [cost[i, m] for m in self._pawns if m != j] + [best_other[i]]
                conf[i] = float(confidence_from_margin(min(rivals) - cost[i, j]))
        codes = [labels[others[k]] or None for k in other_cost.argmin(1)]
        gc = self.config.grid
        empty = [i for i, c in enumerate(codes) if c is None and i not in taken]  # (a pawn's square is the pawn's)
        # (measured on boards whose coins tell their turn; the boards whose faces or the
        # camera's side tell it, read with their own grounds and models, are read as before)
        if (gc.empty_loose > 0 and "" in labels and len(empty) >= 4 and self.camera_side is None
                and not self.table.board.faces):
            # an empty square that fits empty loosely may hold a coin that shows little
            # (``grid.empty_loose``, ``grid.empty_loose_ratio``)
            fit = cost[empty, labels.index("")]
            loose = np.array(empty)[fit > max(gc.empty_loose, gc.empty_loose_ratio * float(np.median(fit)))]
            conf[loose] = np.minimum(conf[loose], 0.5)
        for i in taken:
            codes[i] = None
        # a square that fits nothing the model knows (a hand, a sleeve) is not read
        conf[cost.min(1) > self.model.outlier] = 0.0
        if rims is not None and gc.rim_among > 0:
            self._by_rim(cost, codes, conf, np.asarray(rims, np.float64), taken, C)
        grid = [codes[r * C:(r + 1) * C] for r in range(R)]
        return grid, pawns, conf.reshape(R, C)
