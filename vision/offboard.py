"""Coins off the board by its corners: what players lay down beside the board as they collect.

Some games have the players keep what they collect beside the board, suit side up, by their
own starting corner (the table description's ``OffBoard`` coins at ``Place.BY_OWN_CORNER``).
The reader looks for them in a band outside the board's four edges, ``BAND`` tiles wide,
once the board's lattice and frame are known, and tells each coin found to the nearest of the
board's corners. Which player sits by which corner is not the reader's to say (a still cannot
tell the board's half turns apart, nor where anybody sits): the live Caller knows that.

How, and why so:

1. Points ``STEP`` tiles apart cover the band; a coin is looked for around each (within
   ``SEARCH`` pitches) with the squares reader's coin finder (``vision.squares.find_round``):
   a rim of the coin's radius, seen from all round, unlike the table's grain or pattern.
2. A rim counts when its edge pixels' votes gather into one centre (``find_round``'s focus
   at least ``MIN_FOCUS``): felt, wood grain or a cloth's checks have as many edges, which
   reach a coin's share of a rim (``MIN_RIM``) but vote everywhere. The ``MOST`` best
   gathered rims are then read by the squares model: a rim is a coin only if the model reads
   it as a coin suit side up by ``MIN_MARGIN`` nats over an empty square.
3. Two finds closer than ``SAME`` tiles are one coin (the points' windows overlap).

The coins are measured together with the board's own squares, so that the squares model's
features (whose colours are relative to the board's background) mean the same off the board
as on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.assign import confidence_from_margin
from vision.locate import Lattice
from vision.squares import FrameMemory, SquareMeasures, find_round_again, measure_at, windows_at
from vision import features as F

#: the side (px) of the windows rims are looked for in
RIM_PX = 64
#: the band looked in, outside each edge of the board: from this near to this far (tiles)
BAND = (0.1, 0.7)
#: the points looked from lie this far apart (tiles)
STEP = 0.2
#: how far from each point a coin is looked for (pitches): a little over half the step
SEARCH = 0.13
#: the least share of a rim on edges for a coin to be considered
MIN_RIM = 0.12
#: the least gathering of the rim's votes (``find_round``'s focus) for a coin to be considered
MIN_FOCUS = 1.5
#: how much better (nats) the squares model must read a rim as a coin suit side up than as an
#: empty square for it to count as a coin
MIN_MARGIN = 5.0
#: two finds closer than this (tiles) are the same coin
SAME = 0.3
#: the most rims weighed, strongest first (a patterned table gives many; four players
#: collect 24 coins at most)
MOST = 32
#: suits a coin laid by a corner may be read as, by suit letter, measured: the squares model
#: learnt suits upright (within 30 degrees) and players lay collected coins at any turn; a
#: Moons crescent turned round fits the Suns best (every Moons coin laid in the live
#: benchmark's piles, and the Moons coin of ``sample_images/scavenger-hunt_b.jpg`` turned half
#: round, read as Suns). Crowns and Moons coins read as Arms (``bench_read.py --only-squares
#: --squares 200 --first 2000``, the range the reader was developed on: 1 Crowns coin of 546
#: coins in the trained looks, 18 Crowns and 14 Moons of 143 in the held-out look, about half
#: and two fifths of those suits; a Crowns coin read as Arms, sure, in live game 53). A coin
#: read as one of these beside the player's own, or as the first they lay, is no evidence of
#: another suit. (Seen once or twice a hundred and forty coins, not listed: Suns as Moons,
#: Crowns as Suns.)
MISREAD_AS: dict[str, frozenset[str]] = {"M": frozenset({"S", "A"}), "C": frozenset({"A"})}
#: the board's corners in the order ``board_corners`` lists them: top left, top right, bottom
#: right, bottom left (tile units of the player frame, of a board ``rows`` x ``cols``)
CORNER_NAMES = ("top left", "top right", "bottom right", "bottom left")


def band_points(rows: int, cols: int) -> np.ndarray:
    """K x 2 player-frame points (tile units) covering the band outside the board's edges."""
    near, far = BAND
    out = []
    depths = np.arange(near, far + 1e-9, STEP)
    along_x = np.arange(STEP / 2, cols, STEP)
    along_y = np.arange(STEP / 2, rows, STEP)
    for d in depths:
        out += [(u, -d) for u in along_x] + [(u, rows + d) for u in along_x]
        out += [(-d, v) for v in along_y] + [(cols + d, v) for v in along_y]
    return np.array(out, np.float64)


def nearest_corner(points: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """For each player-frame point (tile units), the index in ``CORNER_NAMES`` of the board
    corner nearest to it."""
    corners = np.array([(0, 0), (cols, 0), (cols, rows), (0, rows)], np.float64)
    d = np.linalg.norm(np.asarray(points, np.float64)[:, None, :] - corners[None], axis=-1)
    return d.argmin(1)


@dataclass(frozen=True)
class CornerCoins:
    """The coins found by each corner of the board (``CORNER_NAMES`` order).

    ``suits``: for each corner, the suit letters of the coins by it, nearest the corner first;
    ``confidence``: for each corner, the lowest confidence of its coins (1.0 with none);
    ``points``: every coin's player-frame point (tile units), corner by corner."""

    suits: tuple[tuple[str, ...], ...]
    confidence: tuple[float, ...]
    points: tuple[tuple[tuple[float, float], ...], ...]


def find_by_corners(image: np.ndarray, lattice: Lattice, frame, rows: int, cols: int, board: SquareMeasures,
                    model, suits: dict[str, int], empty: int, memory: FrameMemory | None = None) -> CornerCoins:
    """The coins lying suit side up beside a ``rows`` x ``cols`` board (tiles), by its corners.

    ``board``: the board's squares as measured in ``frame`` (the reference the coins are
    measured against); ``model`` the squares model, ``suits`` its classes of a coin suit side
    up (letter -> class index) and ``empty`` its class of an empty square; ``memory``: what an
    earlier frame of the same camera cut and found (``vision.squares.FrameMemory``)."""
    points = band_points(rows, cols)
    # the rims first, in small windows: most of the band is bare table
    windows = windows_at(image, lattice, frame, points, px=RIM_PX, side=F.FEATURES["coin_window"], memory=memory)
    key = ("band", id(lattice), frame(0.0, 0.0), image.shape)
    centres, rims, focus = find_round_again(windows, SEARCH, memory, key)
    shift = (centres - (windows.shape[1] - 1) / 2) / windows.shape[1] * F.FEATURES["coin_window"]
    found = points + shift
    keep = [i for i in np.argsort(-focus, kind="stable") if focus[i] >= MIN_FOCUS and rims[i] >= MIN_RIM]
    picked: list[int] = []
    for i in keep:
        if len(picked) == MOST:
            break
        if all(np.hypot(*(found[i] - found[j])) > SAME for j in picked):
            picked.append(i)
    per_corner: list[list[tuple[float, str, tuple[float, float], float]]] = [[], [], [], []]
    if picked:
        at = found[picked]
        # measured with the board's squares, in one batch (see the module's docstring)
        m = measure_at(image, lattice, frame, at, search=SEARCH / 2, among=board, memory=memory)
        cost = model.costs(m.features)
        letters = list(suits)
        suit_cost = cost[:, [suits[s] for s in letters]]
        order = np.sort(suit_cost, 1)
        coin = cost[:, empty] - order[:, 0] >= MIN_MARGIN
        conf = confidence_from_margin(order[:, 1] - order[:, 0])
        corner = nearest_corner(at, rows, cols)
        anchor = np.array([(0, 0), (cols, 0), (cols, rows), (0, rows)], np.float64)
        for k in np.flatnonzero(coin):
            c = int(corner[k])
            dist = float(np.hypot(*(at[k] - anchor[c])))
            per_corner[c].append((dist, letters[int(suit_cost[k].argmin())], (float(at[k, 0]), float(at[k, 1])),
                                  float(conf[k])))
    for coins in per_corner:
        coins.sort()
    return CornerCoins(
        suits=tuple(tuple(s for _, s, _, _ in coins) for coins in per_corner),
        confidence=tuple(min((c for *_, c in coins), default=1.0) for coins in per_corner),
        points=tuple(tuple(p for _, _, p, _ in coins) for coins in per_corner),
    )
