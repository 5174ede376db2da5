"""The reader: one camera frame of an Easy Slider table -> an :class:`Observation`.

Stages (each timed): ``locate`` (tile quads -> lattice with lens distortion), ``rectify``
(the canonical top view), ``orient`` (coin row and pawn column -> the player's frame),
``features`` (tile faces, coins, pawns), ``classify`` (joint assignment over the profile's
class costs, confidences from the assignment margins).

``Reader`` holds the profile and config and is cheap to call repeatedly (the live Caller
keeps one).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import features as F
from vision.assign import assign, confidence_from_margin, margins
from vision.colour_hint import ColourHint
from vision.config import VisionConfig, nudges
from vision.errors import BadImage, BoardNotFound, ProfileError, UnreadableImage
from vision.locate import BOARD, Lattice, locate
from vision.observation import Observation
from vision.orientation import foreground, orientation_scores
from vision.profile import Profile, load_profile
from vision.rectify import cell_crops, player_view, rectify, ring_cells, turned

HOLE = "hole"

#: the profile's meta entry saying which way round a calibrated set's faces were learnt
FACES_KEY = "faces"
#: ... its value for faces darker than their inks (measured in the negative); "light" otherwise
DARK_FACES = "dark"
#: the profile's meta entry saying which way round a calibrated set's coin numerals were learnt
COIN_INK_KEY = "coin_ink"
#: ... its value for numerals lighter than their coins (measured in the negative); "dark" otherwise
LIGHT_COIN_INK = "light"


@dataclass
class Analysis:
    """Everything the reader measured in one frame before classifying (also what training uses)."""

    lattice: Lattice
    k: int
    orientation_margin: float
    canvas: np.ndarray
    view: np.ndarray
    view_fg: np.ndarray
    cell_images: np.ndarray
    cell_offsets: np.ndarray
    tile_feats: np.ndarray
    tile_white: np.ndarray
    timings: dict = field(default_factory=dict)
    side_score: float = 0.0
    """How well the coin row and pawn column fit the quarter turn ``k`` (``orientation_scores``)."""
    coin_windows: np.ndarray | None = None
    coin_centres: np.ndarray | None = None
    coin_feats: np.ndarray | None = None
    pawn_feats: np.ndarray | None = None
    """The coins' and pawns' measurements: None until ``measure_pieces`` (a window or side that
    the reader only compares by its faces and its side score never needs them)."""
    negative: bool = False
    """The faces are darker than their inks (``features.faces_negative``): every face crop of
    this board is measured in the negative."""
    coins_negative: bool = False
    """The coins' numerals are lighter than the coins: ``coin_windows`` are kept in the negative
    (after the coins' centres were found), so that their features see dark numerals."""
    side_disputed: bool = False
    """The coin row and pawn column left the side in doubt and the faces, without settling it,
    fit another quarter turn better than ``k``: every cell's label depends on the side."""

    def seen_faces(self) -> np.ndarray:
        """25 bools in the player's reading order: cells where the board search saw a tile face."""
        seen = np.zeros((BOARD, BOARD), bool)
        for r, c in self.lattice.tiles:
            seen[r, c] = True
        return np.rot90(seen, self.k).reshape(-1)


#: the largest photo read (pixels): a 100-megapixel camera; a header promising more is
#: refused before anything is decoded, so that a forged size cannot claim gigabytes
MAX_IMAGE_PIXELS = 100_000_000


def _check_header(path: Path) -> None:
    """Raise UnreadableImage when the file's header states more than MAX_IMAGE_PIXELS pixels.

    Pillow reads only the header here; a file it does not know is left to OpenCV."""
    import warnings

    from PIL import Image

    too_big = f"{path}: the file says the image has more pixels than a camera takes (at most " \
              f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels)"
    try:
        with warnings.catch_warnings():  # the size is judged here, not by Pillow's warning
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                width, height = im.size
    except Image.DecompressionBombError:  # Pillow's own, higher limit
        raise UnreadableImage(too_big) from None
    except Exception:  # noqa: BLE001 - not an image Pillow knows: OpenCV decides
        return
    if width * height > MAX_IMAGE_PIXELS:
        raise UnreadableImage(f"{too_big[:-1]}: {width}x{height})")


def read_image_file(path: str | Path) -> np.ndarray:
    """The BGR image at ``path``; raises UnreadableImage naming the file and the problem."""
    p = Path(path)
    if not p.exists():
        raise UnreadableImage(f"{p}: no such file")
    if p.is_dir():
        raise UnreadableImage(f"{p}: is a folder, expected an image file")
    data = np.fromfile(str(p), dtype=np.uint8)
    _check_header(p)
    try:
        img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error:  # a header OpenCV itself refuses
        img = None
    if img is None:
        raise UnreadableImage(f"{p}: not an image OpenCV can read (expected JPEG, PNG, BMP, TIFF or WebP)")
    return img


def check_image(image: np.ndarray) -> np.ndarray:
    """An HxWx3 uint8 BGR frame (grey HxW is expanded); raises BadImage otherwise."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise BadImage(f"image of type {type(image).__name__}/{getattr(image, 'dtype', None)}: expected a uint8 numpy array")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise BadImage(f"image of shape {image.shape}: expected H x W x 3 (BGR)")
    if image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if min(image.shape[:2]) < 32:
        raise BadImage(f"image of {image.shape[1]}x{image.shape[0]} px is too small: expected a camera frame")
    return image


def analyse(image: np.ndarray, cfg: VisionConfig, k: int | None = None, lattices: list[Lattice] | None = None,
            pieces: bool = True, hint=None, negative: bool | None = None, coins_negative: bool = False) -> Analysis:
    """Locate (unless ``lattices`` are given; ``hint``: the profile's colours for ``locate``), rectify,
    orient (or use the given quarter turn ``k``) and compute features; the coins' and pawns' only with ``pieces``.
    ``negative``: whether the set's faces are darker than their inks (a calibrated profile knows;
    None: judged from this frame's cells, ``features.faces_negative``); ``coins_negative``: whether
    its coins' numerals are lighter than the coins (a calibrated profile knows; see ``measure_pieces``)."""
    image = check_image(image)
    t = {}
    t0 = time.perf_counter()
    if lattices is None:
        lattices = locate(image, cfg, hint)
    t1 = time.perf_counter()
    t["locate"] = t1 - t0
    best = None
    for lat in lattices:
        canvas = rectify(image, lat, cfg)
        fg = foreground(canvas, cfg)
        scores = orientation_scores(fg, cfg)
        order = np.argsort(-scores)
        kk = int(order[0]) if k is None else k
        margin = float(scores[order[0]] - scores[order[1]])
        if best is None or scores[kk] > best[0]:
            best = (float(scores[kk]), lat, canvas, fg, kk, margin)
    side, lat, canvas, fg, kk, margin = best
    t2 = time.perf_counter()
    t["rectify+orient"] = t2 - t1
    view = player_view(canvas, kk)
    view_fg = turned(fg, kk)
    offsets = np.zeros((BOARD * BOARD, 2))
    cells = cell_crops(view, cfg, F.FEATURES["tile_crop"], offsets)
    if negative is None:
        negative = F.faces_negative(cells)
    tile_feats, tile_white = F.tile_features(cells, negative)
    t["features"] = time.perf_counter() - t2
    a = Analysis(lat, kk, margin, canvas, view, view_fg, cells, offsets, tile_feats, tile_white, t, side, negative=negative)
    if pieces:
        measure_pieces(image, a, cfg, coins_negative)
    return a


def measure_pieces(image: np.ndarray, a: Analysis, cfg: VisionConfig, coins_negative: bool = False) -> Analysis:
    """Fill in the coins' windows, centres and features and the pawns' features of an analysis
    (once: an analysis that has them is returned as it is); their time counts as features.
    ``coins_negative``: the coins' numerals are lighter than the coins (white on dark plastic,
    on coloured plastic, on metal); their windows are then kept in the negative once the
    coins' centres are found, so that every coin feature sees a dark numeral on a light coin."""
    if a.coin_feats is not None:
        return a
    t0 = time.perf_counter()
    a.coin_windows = F.coin_windows(image, a.lattice, a.k, cfg)
    a.coin_centres = F.find_coins(a.coin_windows)
    a.coins_negative = coins_negative
    if coins_negative:
        a.coin_windows = 255 - a.coin_windows
    a.pawn_feats = F.pawn_features(a.view, a.view_fg, np.median(a.tile_white, axis=0), cfg)
    a.coin_feats = F.coin_features(a.coin_windows, a.coin_centres)
    a.timings["features"] = a.timings.get("features", 0.0) + time.perf_counter() - t0
    return a


def _lattice_shift(px: int, py: int, k: int) -> tuple[int, int]:
    """A window shift of (px, py) cells in the player's view as a shift in the lattice frame
    (the player's view is the lattice frame turned by k counter-clockwise quarter turns)."""
    dx, dy = px, py
    for _ in range(k):
        dx, dy = -dy, dx
    return dx, dy


def coin_costs(a: Analysis, model, cfg: VisionConfig | None = None) -> np.ndarray:
    """5 x C costs (nats) of the coins of an analysis under a class model.

    The coin's centre is found to a few px: a coin in doubt (its best two values within
    ``features.coin_nudge_gap`` or ``coin_nudge_ratio``) is also cut ``coin_nudge_px`` off each
    way, and each value keeps its best fit. A coin that fits no value well (its best cost over
    ``coin_wide_share`` of the model's outlier cost) was likely found off its centre: it is cut
    over the wider grid (``coin_wide_step_px`` .. ``coin_wide_reach_px``), kept when some place
    there fits a value well. ``cfg``: the reader's config (default: the defaults).
    """
    fc = (cfg or VisionConfig()).features
    cost = model.costs(a.coin_feats)

    def nudged(sel: np.ndarray, offsets) -> np.ndarray:
        """The coins ``sel``'s costs, each value's best over their crops moved by ``offsets``."""
        nudges = np.array(offsets, np.float64)
        feats = F.coin_features(a.coin_windows[np.tile(sel, len(nudges))],
                                (a.coin_centres[sel][None] + nudges[:, None]).reshape(-1, 2))
        return np.minimum(cost[sel], model.costs(feats).reshape(len(nudges), len(sel), -1).min(0))

    srt = np.sort(cost, 1)
    limit = fc.coin_wide_share * model.outlier
    searched = np.zeros(len(cost), bool)
    far = np.nonzero(srt[:, 0] > limit)[0]
    if len(far):
        # kept only where some place of the grid fits a value well: a set the model does not
        # know fits nowhere, and the grid's 48 tries would only add chances of a wrong fit
        wide = nudged(far, nudges(fc.coin_wide_step_px, fc.coin_wide_reach_px))
        good = wide.min(1) <= limit
        cost[far[good]] = wide[good]
        searched[far[good]] = True
    doubt = np.nonzero((srt[:, 1] - srt[:, 0] < np.maximum(fc.coin_nudge_gap, fc.coin_nudge_ratio * srt[:, 0])) & ~searched)[0]
    if len(doubt):
        cost[doubt] = nudged(doubt, nudges(fc.coin_nudge_px, fc.coin_nudge_px))
    return cost


def _free_confidence(cost: np.ndarray, labels: np.ndarray, covered: np.ndarray) -> np.ndarray:
    """Each cell's confidence (N,) with the covered cells free to hide any tile or the hole.

    The assignment's margins let a covered cell give up its label only at a price (its costs
    capped ``assign.covered_cap`` above its best), so a face whose runner-up is the label the
    assignment put under a hand kept a confident reading: a blank null read as the hole while
    the hole lay under the hand, an S4 read as S2 while the S2 was covered. Here the covered
    rows cost nothing whatever they take; a cell keeps its confidence only as far as its own
    face rules out the labels that could be under them (0 where the free reading differs).
    Labels are not changed: freed rows would let unsure cells hand labels on. Tuning editions
    520-551 with a hand over every photo: confidently wrong items after calibration 37 -> 27,
    cells read 64.4 -> 63.0%; on the project's own looks with hands one more cell of 1,500
    flagged."""
    if not covered.any():
        return np.ones(len(cost))
    free = cost.copy()
    free[covered] = 0.0
    free_labels = assign(free)
    return np.where(free_labels == labels, confidence_from_margin(margins(free, free_labels)), 0.0)


def _neighbours(cells: np.ndarray) -> np.ndarray:
    """25 bools in reading order: the cells next to (sharing a side with) any of ``cells``."""
    grid = cells.reshape(BOARD, BOARD)
    near = np.zeros_like(grid)
    near[1:] |= grid[:-1]
    near[:-1] |= grid[1:]
    near[:, 1:] |= grid[:, :-1]
    near[:, :-1] |= grid[:, 1:]
    return near.reshape(-1)


class Reader:
    """Reads Easy Slider tables. ``profile``: a Profile, a path to one, or None for the default set."""

    def __init__(self, profile: Profile | str | Path | None = None, config: VisionConfig | None = None, game: str = "easy-slider"):
        if game != "easy-slider":
            raise ProfileError(f"the reader reads 'easy-slider' boards, not {game!r}")
        self.config = config or VisionConfig()
        self.profile = profile if isinstance(profile, Profile) else load_profile(profile, game=game)
        if self.profile.game != game:
            raise ProfileError(f"profile {self.profile.name!r} is for game {self.profile.game!r}, expected {game!r}")
        if self.profile.features.get("id") != F.FEATURES["id"]:
            raise ProfileError(
                f"profile {self.profile.name!r} was learnt on features {self.profile.features.get('id')!r}, "
                f"this reader computes {F.FEATURES['id']!r}: rebuild or recalibrate it"
            )
        self.game = game
        self.hint = ColourHint.of_profile(self.profile)  # a calibrated set's colours help find its board
        # a calibrated profile learnt its faces one way round, and reads every frame so (one
        # calibrated before faces were told apart learnt them as they are); the default model's
        # frames are judged one by one, and a negative one is read all uncertain
        calibrated = self.profile.meta.get("made_by") == "caller calibrate"
        self.negative = (self.profile.meta.get(FACES_KEY) == DARK_FACES) if calibrated else None
        self.coins_negative = calibrated and self.profile.meta.get(COIN_INK_KEY) == LIGHT_COIN_INK

    # ------------------------------------------------------------------------------------
    def analyse(self, image: np.ndarray, k: int | None = None) -> Analysis:
        """Locate, rectify, orient (or use the given quarter turn ``k``) and compute features."""
        return analyse(image, self.config, k, hint=self.hint, negative=self.negative, coins_negative=self.coins_negative)

    def examine(self, image: np.ndarray) -> Analysis:
        """What ``read`` classifies: the analysis, its side and window re-checked (``recheck``).
        The coins and pawns are measured once, for the window and side kept."""
        t0 = time.perf_counter()
        a = self.recheck(image, analyse(image, self.config, pieces=False, hint=self.hint, negative=self.negative))
        # the time of the windows and sides compared but not kept, and of the comparisons
        spent = time.perf_counter() - t0
        a.timings["recheck"] = max(0.0, spent - sum(v for k, v in a.timings.items() if k != "recheck"))
        return a

    def read(self, image: np.ndarray) -> Observation:
        """Read one BGR frame; raises BoardNotFound / TooManyBoards / BadImage."""
        return self.observe(self.examine(image))

    def orient_by_faces(self, image: np.ndarray, a: Analysis) -> Analysis:
        """When the coin row and pawn column leave the player's side in doubt, let the faces decide.

        The faces are read upright in the player's view, so the quarter turn whose cells fit
        the set's faces best is the player's (by ``orientation.face_turn_ratio`` at least, else nothing
        changes). A wrong side found from the pawns and coins (a coin row half hidden, a pawn
        column on a busy cloth) would otherwise turn every cell. When the faces settle the
        side, the pawns and coins are no longer doubted for it.
        """
        if a.orientation_margin >= self.config.orientation.sure_margin:
            return measure_pieces(image, a, self.config, self.coins_negative)
        return measure_pieces(image, self._settle_side(image, a)[0], self.config, self.coins_negative)

    def _settle_side(self, image: np.ndarray, a: Analysis) -> tuple[Analysis, bool]:
        """(the analysis turned to the quarter turn the faces fit best, whether they settle it)."""
        tiles = self.profile.model("tiles")
        fits = []
        for k in range(4):
            if k == a.k:
                feats = a.tile_feats
            else:
                cells = cell_crops(player_view(a.canvas, k), self.config, F.FEATURES["tile_crop"], a.cell_offsets)
                feats = F.tile_features(cells, a.negative)[0]
            fits.append(float(np.median(tiles.costs(feats).min(1))))
        order = np.argsort(fits)
        best, runner_up = int(order[0]), fits[int(order[1])]
        if runner_up < self.config.orientation.face_turn_ratio * fits[best]:
            a.side_disputed = best != a.k
            return a, False
        if best != a.k:
            turned = analyse(image, self.config, best, lattices=[a.lattice], pieces=False, negative=a.negative)
            turned.timings["locate"] = a.timings["locate"]
            a = turned
        a.orientation_margin = self.config.orientation.sure_margin
        return a, True

    def _oddness(self, cost: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(N bools: cells that look like no tile, N best costs in nats) from N x L tile costs.

        With ``scale`` (a typical best cost), a cell beyond ``recheck.odd_ratio`` times it also
        looks like no tile.
        """
        tiles = self.profile.model("tiles")
        hole = tiles.classes.index(HOLE) if HOLE in tiles.classes else None
        best_tile = np.delete(cost, hole, axis=1).min(1) if hole is not None else cost.min(1)
        limit = tiles.outlier if scale is None else min(tiles.outlier, self.config.recheck.odd_ratio * scale)
        odd = cost.min(1) > limit
        if hole is not None:
            odd |= cost[:, hole] < best_tile
        return odd, cost.min(1)

    def recheck(self, image: np.ndarray, a: Analysis) -> Analysis:
        """The analysis with its side and window re-checked (``_recheck``), its coins and pawns measured."""
        return measure_pieces(image, self._recheck(image, a), self.config, self.coins_negative)

    def _recheck(self, image: np.ndarray, a: Analysis) -> Analysis:
        """The player's side checked by the faces (``orient_by_faces``); then, when the window
        may be one pitch off, try it one pitch off each way.

        A stray tile-like quad (a coin on a tablecloth check) can put the 5x5 window one row
        or column off: then a row of coins or table is read as tiles and a row of tiles lost.
        Suspicious: several cells look like no tile, or one edge row or column of the board
        fits the set's faces far worse than the rest (a row of coins on a plain table can pass
        for faces, just badly). A shifted window is scored by its cells that look like no
        tile, then by the summed best costs (such a cell counts the cap); it must win
        clearly: ``recheck.fewer_odd_cells`` fewer and a lower sum, or no more such cells and ``recheck.gain``
        nats less over the board (a camera the profile fits poorly scatters such cells over
        the board). Both are measured on the found window's scale (its median best cost): a
        calibrated profile's costs on another camera run several times the default model's,
        and its outlier threshold is far out. A plain board is untouched.

        When the faces settle the side, the four shifts are first scored from the ring of
        cells just outside the board, already in the player's view, and only a shift that
        wins there is analysed in full (and kept if it wins again). Otherwise each shift is
        analysed in full: a window one pitch off often misplaces the coin row, and with it
        the side. (A calibrated profile's costs vary more across a board, so its suspicion
        is raised on most frames: the ring keeps that cheap.) A window moved that still looks
        suspect may move once more (``recheck.window_moves``): the search's window can be off along both
        axes. A window found in the frame's negative (``Lattice.dark_faces``) is not moved.
        """
        sure = None
        if a.orientation_margin < self.config.orientation.sure_margin:
            a, sure = self._settle_side(image, a)
        if a.lattice.dark_faces or a.negative:
            # faces darker than their inks (found in the frame's negative): a profile learnt on
            # light faces finds every cell odd, and moving the window would only trade a row of
            # faces for one of coins; the finder's window stands
            return a
        tiles = self.profile.model("tiles")
        cost = tiles.costs(a.tile_feats)
        typical = float(np.median(cost.min(1)))
        cap = max(self.config.recheck.cell_cap, self.config.recheck.cap_ratio * typical)

        def score(c: np.ndarray) -> tuple[int, float]:
            # a cell that looks like no tile (table, a coin) counts the cap, however well the
            # hole's label fits it
            o, b = self._oddness(c, typical)
            return int(o.sum()), float(np.where(o, cap, np.minimum(b, cap)).sum())

        if not self._window_suspect(cost):
            return self._recheck_unseen_edge(image, a, cost, score)
        if sure is None:
            turned, sure = self._settle_side(image, a)
            if turned is not a:
                a, cost = turned, tiles.costs(turned.tile_feats)

        def wins(new: tuple[int, float], old: tuple[int, float]) -> bool:
            rc = self.config.recheck
            return (new[0] <= old[0] - rc.fewer_odd_cells and new[1] < old[1]) or (new[0] <= old[0] and new[1] < old[1] - rc.gain)

        found = score(cost)
        back = None  # the shift that would undo the last move: that window already lost
        for _ in range(self.config.recheck.window_moves):
            shifts = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            if sure:
                shifts = self._ring_shifts(a, cost, found, score, wins)
            best = (a, found, cost, None)
            for dx, dy in shifts:
                if (dx, dy) == back:
                    continue
                alt = analyse(image, self.config, lattices=[a.lattice.shifted(dx, dy)], pieces=False, negative=a.negative)
                alt_cost = tiles.costs(alt.tile_feats)
                alt_score = score(alt_cost)
                if wins(alt_score, best[1]):
                    best = (alt, alt_score, alt_cost, (-dx, -dy))
            best[0].timings["locate"] = a.timings["locate"]
            if best[0] is a:
                break
            # a window moved is checked again: the search's window can be off along both axes
            a, found, cost, back = best
            if not self._window_suspect(cost):
                break
        return self._recheck_unseen_edge(image, a, cost, score)

    def _recheck_unseen_edge(self, image: np.ndarray, a: Analysis, cost: np.ndarray, score) -> Analysis:
        """A window with a whole edge row or column where the board search saw no face may be
        one pitch off: on a solved board the bottom row is the four blank null faces and the
        hole, which the search does not see (no ink in the middle), so the window can take the
        coin row instead, whose coins on a light table pass for blank faces. The window moved
        one pitch away from that edge is kept when the coin row and pawn column fit it
        ``recheck.side_gain`` better (``Analysis.side_score``) and its faces about as well (at
        most one more cell that looks like no tile, the row it brings in may hold the hole, and a
        sum of best costs at most ``recheck.gain`` higher).

        Where the coin row and pawn column fit the window poorly, an edge with a few faces seen
        on cells that fit badly counts as unseen too (coins passed for
        faces, ``recheck.unseen_edge_*``). ``cost``: the window's tile costs.

        A window kept is checked again, once: where the search saw faces in only a corner of
        a light board, the window can be two rows off (seed 905100: the coin row in, the null
        row out, after the faces settled the side)."""
        tiles = self.profile.model("tiles")
        rc = self.config.recheck
        found = score(cost)
        for _ in range(rc.unseen_edge_moves):
            seen = a.seen_faces().reshape(BOARD, BOARD)
            if not seen.any():
                return a
            best = cost.min(1).reshape(BOARD, BOARD)
            typical = float(np.median(best))

            def unseen(edge_seen: np.ndarray, edge_cost: np.ndarray) -> bool:
                # no face seen; or, where the pieces beside the board fit this window poorly, a
                # few (coins that passed for faces) on cells that fit badly
                return not edge_seen.any() or (a.side_score < rc.unseen_edge_side and edge_seen.sum() <= rc.unseen_edge_faces
                                               and edge_cost.mean() >= rc.unseen_edge_cost_ratio * typical)

            moves = [(px, py) for px, py, edge, cost in ((0, 1, seen[0], best[0]), (0, -1, seen[-1], best[-1]),
                                                          (1, 0, seen[:, 0], best[:, 0]), (-1, 0, seen[:, -1], best[:, -1]))
                     if unseen(edge, cost)]
            best_a, best_side, best_score, best_cost = a, a.side_score + rc.side_gain, found, cost
            for px, py in moves:
                alt = analyse(image, self.config, a.k, lattices=[a.lattice.shifted(*_lattice_shift(px, py, a.k))], pieces=False,
                              negative=a.negative)
                alt_cost = tiles.costs(alt.tile_feats)
                alt_score = score(alt_cost)
                if alt.side_score >= best_side and alt_score[0] <= found[0] + 1 and alt_score[1] <= found[1] + rc.gain:
                    best_a, best_side, best_score, best_cost = alt, alt.side_score, alt_score, alt_cost
            if best_a is a:
                return a
            best_a.timings["locate"] = a.timings["locate"]
            best_a.orientation_margin = a.orientation_margin
            a, found, cost = best_a, best_score, best_cost
        return a

    def _window_suspect(self, cost: np.ndarray) -> bool:
        """Whether a board's tile costs suggest its window is one pitch off (see ``recheck``)."""
        odd, best = self._oddness(cost)
        grid = best.reshape(BOARD, BOARD)
        edges = (grid[0].mean(), grid[-1].mean(), grid[:, 0].mean(), grid[:, -1].mean())
        rc = self.config.recheck
        return bool(odd.sum() >= rc.suspect_odd_cells or max(edges) >= max(rc.edge_cost, rc.edge_median_ratio * float(np.median(grid))))

    def _ring_shifts(self, a: Analysis, cost: np.ndarray, found, score, wins) -> list[tuple[int, int]]:
        """The lattice shifts whose window, scored from the cells around the board in the
        player's view (the side taken as right), beats the found one."""
        ring = ring_cells()
        feats, _ = F.tile_features(cell_crops(a.view, self.config, F.FEATURES["tile_crop"], cells=ring), a.negative)
        wide = np.empty((BOARD + 2, BOARD + 2, cost.shape[1]))
        wide[1:-1, 1:-1] = cost.reshape(BOARD, BOARD, -1)
        for (r, c), rc in zip(ring, self.profile.model("tiles").costs(feats)):
            wide[r + 1, c + 1] = rc
        out = []
        for px, py in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            window = wide[1 + py : 1 + py + BOARD, 1 + px : 1 + px + BOARD].reshape(BOARD * BOARD, -1)
            if wins(score(window), found):
                out.append(_lattice_shift(px, py, a.k))
        return out

    def nudged_costs(self, a: Analysis, cost: np.ndarray) -> np.ndarray:
        """25 x L tile costs where each doubtful cell keeps, per label, its best cost over the
        crop nudged ``features.tile_nudge_px`` each way (the face a few px off the lattice's place)."""
        fc = self.config.features
        srt = np.sort(cost, 1)
        sel = np.flatnonzero((srt[:, 1] - srt[:, 0] < fc.tile_nudge_gap) | (srt[:, 0] > fc.tile_nudge_cost))
        if sel.size == 0:
            return cost
        cells = [(int(i) // BOARD, int(i) % BOARD) for i in sel]
        crops = []
        steps = nudges(fc.tile_nudge_px, fc.tile_nudge_px)
        for dx, dy in steps:
            off = a.cell_offsets[sel] + np.array([dx, dy])
            crops.append(cell_crops(a.view, self.config, F.FEATURES["tile_crop"], off, cells=cells))
        feats, _ = F.tile_features(np.concatenate(crops), a.negative)
        moved = self.profile.model("tiles").costs(feats).reshape(len(steps), sel.size, -1).min(0)
        out = cost.copy()
        out[sel] = np.minimum(cost[sel], moved)
        return out

    def read_file(self, path: str | Path) -> Observation:
        return self.read(read_image_file(path))

    # ------------------------------------------------------------------------------------
    def observe(self, a: Analysis) -> Observation:
        """Classify an analysis into an Observation (joint assignment for tiles, coins, pawns)."""
        cfg = self.config
        if a.coin_feats is None:
            raise ValueError("observe() needs an analysis with its coins and pawns measured (measure_pieces)")
        t0 = time.perf_counter()
        tiles = self.profile.model("tiles")
        cost = self.nudged_costs(a, tiles.costs(a.tile_feats))
        outlier = cost.min(1) > tiles.outlier
        if outlier.all():
            raise BoardNotFound("no board in view: no cell looks like a tile of this set")
        hole = tiles.classes.index(HOLE) if HOLE in tiles.classes else -1
        if hole >= 0:
            cost[a.seen_faces(), hole] += cfg.assign.seen_face_hole_cost
        labels = assign(np.where(outlier[:, None], 0.0, cost))
        # ink where no known face has any: something lies over the tile (the hole shows table),
        # unless the face still fits one label clearly (then the ink is shade, not a hand)
        srt = np.sort(cost, 1)
        clear = (srt[:, 0] < cfg.assign.clear_fit_cost) & (srt[:, 1] - srt[:, 0] > cfg.assign.clear_fit_gap)
        # (measured only where it can matter: a face that fits clearly is never covered)
        over = np.zeros(len(cost), bool)
        if not clear.all():
            over[~clear] = F.excess_ink(a.tile_feats[~clear], tiles.means, cfg.assign.covered_ink_tolerance) > cfg.assign.covered_excess_ink
        covered = outlier | (over & (labels != hole))
        # the hole shows table whatever lies over it: next to a covered cell it may be covered too
        covered = covered | ((labels == hole) & _neighbours(covered))
        # a covered cell still shows something of its face: it keeps its own preferences, but
        # no label may cost it more than ``assign.covered_cap`` above its best. (A covered cell free to
        # take any label lets every unsure cell of its suit hand its label on, shifting a row.)
        cost_a = cost.copy()
        cost_a[covered] = np.minimum(cost[covered], cost[covered].min(1, keepdims=True) + cfg.assign.covered_cap)
        labels = assign(cost_a)
        conf = confidence_from_margin(margins(cost_a, labels))
        # A face that fits far worse than the board's typical face (and badly in itself) is
        # covered too: a calibrated profile's outlier threshold lies far out (thousands of
        # nats), and under a hand its cells fit at 4-20 times the board's median yet kept a
        # clear margin. Only its confidence changes: with its costs capped as above, clean
        # faces of a calibrated set that fit poorly changed the labels of others.
        best = cost.min(1)
        odd = best > max(cfg.assign.covered_min_cost, cfg.assign.covered_median_ratio * float(np.median(best)))
        covered = covered | odd | ((labels == hole) & _neighbours(odd))
        conf[covered] = 0.0
        conf = np.minimum(conf, _free_confidence(cost_a, labels, covered))
        # A face that fits its best label only loosely (a hand's edge over it, a set the model
        # knows badly) needs a wider margin to be read; next to a covered cell it is not read at
        # all: a hand covers contiguous cells, and the partly hidden ones at its edge can pass
        # the covered test and still be read wrong. Nor is a loosely fitting hole while any cell
        # is covered: the hole may be under the hand, and a blank null in its shadow fits the
        # hole loosely (tuning editions 520-551 with a hand, after calibration: cells read wrong
        # with confidence 15 -> 11, cells read 1,056 -> 1,033 of 1,675).
        loose = best > max(cfg.assign.loose_fit_cost, cfg.assign.loose_fit_ratio * float(np.median(best)))
        weak = ~covered & loose & (_neighbours(covered) | (conf < cfg.assign.loose_fit_confidence)
                                   | ((labels == hole) & covered.any()))
        conf[weak] = np.minimum(conf[weak], cfg.assign.weak_confidence)
        if a.side_disputed:
            # the side came from the coin row and pawn column, in doubt, and the faces fit another
            # turn better without settling it: a calibrated profile fits every face of another
            # photo loosely, so its faces rarely settle a side, and a board read a quarter turn
            # off was read with 16 of 25 cells sure, 14 of them wrong (report edition 1,000,535)
            conf = np.minimum(conf, cfg.assign.weak_confidence)
        codes = [None if tiles.classes[j] == HOLE else tiles.classes[j] for j in labels]
        board = tuple(tuple(codes[r * BOARD : (r + 1) * BOARD]) for r in range(BOARD))
        cell_conf = tuple(tuple(float(c) for c in conf[r * BOARD : (r + 1) * BOARD]) for r in range(BOARD))
        uncertain = tuple((i // BOARD, i % BOARD) for i in range(BOARD * BOARD) if conf[i] < cfg.assign.confidence_threshold)
        covered_cells = tuple((i // BOARD, i % BOARD) for i in range(BOARD * BOARD) if covered[i])

        side_conf = (confidence_from_margin(a.orientation_margin - cfg.orientation.margin)
                     if a.orientation_margin < cfg.orientation.sure_margin else 1.0)
        coins_m = self.profile.model("coins")
        ccost = coin_costs(a, coins_m, cfg)
        clab = assign(ccost)
        cconf = confidence_from_margin(margins(ccost, clab)) * side_conf
        # a coin that fits no value (a hand or sleeve over it, a coin the model does not know)
        # is uncertain, however far its value is from the others'
        unfit = ccost.min(1) > cfg.assign.coin_unfit_share * coins_m.outlier
        cconf[unfit] = np.minimum(cconf[unfit], cfg.assign.weak_confidence)
        pawns_m = self.profile.model("pawns")
        pcost = pawns_m.costs(a.pawn_feats)
        plab = assign(pcost)
        pmargin = margins(pcost, plab)
        pconf = confidence_from_margin(pmargin) * side_conf
        # a pawn read by less than its own misfit is not read: a calibrated profile's costs on
        # another photo run tens of times those of the copies it was tuned on, and its margins
        # with them; the margin over the fit is the same on any scale
        own = pcost[np.arange(len(plab)), plab]
        faint = pmargin < cfg.assign.pawn_relative_margin * own
        pconf[faint] = np.minimum(pconf[faint], cfg.assign.weak_confidence)
        if (a.lattice.dark_faces or a.negative) and self.profile.meta.get("made_by") != "caller calibrate":
            # faces darker than their inks, read with a model that knows only light faces with
            # dark inks (the bundled default): its labels are a guess, none is to be acted on
            # (a profile calibrated on the set itself has learnt its dark faces)
            conf, cconf, pconf = np.zeros_like(conf), np.zeros_like(cconf), np.zeros_like(pconf)
            cell_conf = tuple(tuple(0.0 for _ in range(BOARD)) for _ in range(BOARD))
            uncertain = tuple((i // BOARD, i % BOARD) for i in range(BOARD * BOARD))
        t1 = time.perf_counter()
        timings = dict(a.timings)
        timings["classify"] = t1 - t0

        lat = a.lattice
        e = (1.0 - lat.face) / 2
        player_corners = np.array([[e, e], [BOARD - e, e], [BOARD - e, BOARD - e], [e, BOARD - e]])
        img_corners = lat.to_image(F._player_to_lattice(player_corners, a.k))
        up = (img_corners[0] + img_corners[1]) / 2 - (img_corners[3] + img_corners[2]) / 2
        ang = np.degrees(np.arctan2(up[0], -up[1])) % 360  # 0 = image up, 90 = image right
        orientation = int(((ang + 45) % 360) // 90)
        return Observation(
            board=board,
            pawns=tuple(pawns_m.classes[j] for j in plab),
            coins=tuple(coins_m.classes[j] for j in clab),
            cell_confidence=cell_conf,
            pawn_confidence=tuple(float(c) for c in pconf),
            coin_confidence=tuple(float(c) for c in cconf),
            uncertain=uncertain,
            uncertain_pawns=tuple(i for i, c in enumerate(pconf) if c < cfg.assign.confidence_threshold),
            uncertain_coins=tuple(i for i, c in enumerate(cconf) if c < cfg.assign.confidence_threshold),
            covered=covered_cells,
            orientation=orientation,
            board_corners=tuple((float(x), float(y)) for x, y in img_corners),
            timings=tuple((name, round(sec * 1000.0, 3)) for name, sec in timings.items()),
        )
