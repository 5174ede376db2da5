"""Cut a grid-side board into its squares and measure what stands on each.

The *player frame* counts tiles (u across, v down, the board ``rows`` x ``cols`` tiles) from
the far-left corner; a tile is cut into 2 x 2 squares, square (r, c) lying in tile
(r // 2, c // 2). A lattice (``vision.locate.Lattice``) found either way round maps onto the
player frame by one of two half turns (``frames``): which one the picture alone cannot
always say, so the reader measures both and keeps the one whose coins read upright.

Each square is sampled straight from the frame (no intermediate top view) into an upright
window ``WINDOW`` pitches wide, centred where the square's middle lies: a quarter of a
face in from the tile's centre. ``square_features`` turns the windows into feature vectors:
the face features of ``vision.features`` (ink maps, ink colour, gradient histograms: a
coin's numeral or suit, a pawn's bulk) and the colour of the window's middle against the
board's own background (a pawn's colour, a coin's rim).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import features as F
from vision.locate import Lattice

#: the window's side in lattice pitches (a square is about 0.45, a coin about 0.33)
WINDOW = 0.55
#: window px per side
WINDOW_PX = 32
#: a coin's window: the face-up reader's (``vision.features``: one pitch wide, 128 px), so
#: that its coin finder and coin features apply as they are
COIN_WINDOW_PX = 128
#: how far (pitches) from a square's middle its coin is looked for
COIN_SEARCH = 0.12
#: version of the square features, stored with a model
FEATURES_ID = "squares-v8"


def frames(lattice: Lattice, rows: int, cols: int) -> list:
    """The maps (player tile coords u, v -> lattice x, y) that lay a ``rows`` x ``cols`` board
    on ``lattice``'s window: two half turns apart (proper rotations, no mirror)."""
    if lattice.shape == (rows, cols):
        return [lambda u, v: (u, v), lambda u, v: (cols - u, rows - v)]
    if lattice.shape == (cols, rows):
        return [lambda u, v: (v, cols - u), lambda u, v: (rows - v, u)]
    raise ValueError(f"a lattice window of {lattice.shape} does not hold a board of {rows}x{cols} tiles")


def square_centres(rows: int, cols: int, face: float) -> np.ndarray:
    """(2 rows) x (2 cols) x 2 player-frame centres (tile units) of the squares."""
    off = face / 4
    r = np.arange(2 * rows)
    c = np.arange(2 * cols)
    v = r // 2 + 0.5 + np.where(r % 2, off, -off)
    u = c // 2 + 0.5 + np.where(c % 2, off, -off)
    U, V = np.meshgrid(u, v)
    return np.stack([U, V], -1)


def square_windows(image: np.ndarray, lattice: Lattice, frame, rows: int, cols: int, px: int = WINDOW_PX,
                   side: float = WINDOW) -> np.ndarray:
    """N x px x px x 3 windows ``side`` pitches wide (N = 4 rows cols, row-major over squares),
    upright in the player frame."""
    centres = square_centres(rows, cols, lattice.face).reshape(-1, 2)
    t = (np.arange(px) + 0.5) / px - 0.5
    du, dv = np.meshgrid(t * side, t * side)
    u = centres[:, 0, None, None] + du[None]
    v = centres[:, 1, None, None] + dv[None]
    x, y = frame(u, v)
    pts = lattice.to_image(np.stack([np.broadcast_to(x, u.shape), np.broadcast_to(y, u.shape)], -1).reshape(-1, 2))
    src = image
    # minify in steps so that the numerals are not aliased: a window px covers this many image px
    ratio = lattice.pitch_px() * side / px
    while ratio > 2.0:
        src = cv2.pyrDown(src)
        pts = pts * 0.5
        ratio /= 2
    mx = pts[:, 0].reshape(-1, px).astype(np.float32)
    my = pts[:, 1].reshape(-1, px).astype(np.float32)
    out = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(len(centres), px, px, 3)


def _disc(px: int, radius: float) -> np.ndarray:
    yy, xx = np.mgrid[0:px, 0:px]
    return ((xx - (px - 1) / 2) ** 2 + (yy - (px - 1) / 2) ** 2) <= (radius * px) ** 2


@dataclass
class SquareMeasures:
    """What the reader measured of a board's squares in one frame (N = 4 rows cols squares).

    ``features``: N x D, the square windows' ``square_features``, the face reader's coin
    features (``vision.features.coin_features``) at each square's middle, and ``_reach``; ``coin_windows`` and ``coin_centres`` are kept so that a coin in doubt can
    be cut again a few px off (its numeral's features shift with its place)."""

    features: np.ndarray
    coin_windows: np.ndarray
    coin_centres: np.ndarray
    coin_columns: tuple[int, int]
    """The columns of ``features`` that are the coin features (first, past the last)."""

    @property
    def coin_features(self) -> np.ndarray:
        """N x K: the coin features alone (the part of ``features`` a rank model reads)."""
        return self.features[:, self.coin_columns[0]:self.coin_columns[1]]


def measure_squares(image: np.ndarray, lattice: Lattice, frame, rows: int, cols: int) -> SquareMeasures:
    """The squares of a board in one frame, measured (see ``SquareMeasures``)."""
    wide = square_features(square_windows(image, lattice, frame, rows, cols))
    coins = square_windows(image, lattice, frame, rows, cols, px=COIN_WINDOW_PX, side=F.FEATURES["coin_window"])
    # the coin lies within about a tenth of a pitch of the square's middle as the lattice puts
    # it (the tiles' margins, the lens); searched no further, the face reader's ring finder
    # cannot lock onto the crossings of the grid's lines around the square
    rims: list[float] = []
    centres = F.find_coins(coins, COIN_SEARCH, rims)
    coin = F.coin_features(coins, centres)
    # how clearly a coin's rim shows, wherever it lies near the middle (a coin off its
    # square's middle keeps its rim, not its place in the windows)
    feats = np.concatenate([wide, coin, _reach(coins), 4.0 * np.array(rims, np.float32)[:, None]], 1)
    return SquareMeasures(feats, coins, centres, (wide.shape[1], wide.shape[1] + coin.shape[1]))


def _reach(windows: np.ndarray) -> np.ndarray:
    """N x 16: how far a square's colour reaches beyond a coin's rim, each way: a pawn stands
    up and its body leans over the next square (away from the camera), a coin lies flat inside
    its rim. Per quarter of the ring from 0.2 to 0.45 pitches around the middle (up, right,
    down, left): the share of pixels much darker than the board, their mean chroma, and the
    same two inside the coin's disc (0.15 pitch)."""
    N, px = windows.shape[:2]
    small = np.stack([cv2.resize(w, (32, 32), interpolation=cv2.INTER_AREA) for w in windows]).astype(np.float32)
    ref = np.maximum(np.median(np.percentile(small.reshape(N, -1, 3), 75, axis=1), axis=0), 8.0)
    rel = small / ref
    lum = rel.mean(-1)
    chroma = np.abs(rel - lum[..., None]).sum(-1)
    yy, xx = np.mgrid[0:32, 0:32] - 15.5
    rad = np.hypot(xx, yy) / 32
    ang = np.arctan2(yy, xx)
    ring = (rad >= 0.2) & (rad <= 0.45)
    parts = [ring & (np.abs(ang - a) <= np.pi / 4) for a in (-np.pi / 2, 0.0, np.pi / 2)]
    parts.append(ring & (np.abs(ang) >= 3 * np.pi / 4))
    parts.append(rad <= 0.15)
    out = []
    for m in parts:
        out.append((lum[:, m] < 0.6).mean(1))
        out.append(chroma[:, m].mean(1))
    out.append(lum[:, rad <= 0.15].mean(1))
    out.append(lum[:, ring].mean(1))
    out.append(np.percentile(chroma[:, ring], 90, axis=1))
    out.append((chroma[:, ring] > 0.3).mean(1))
    out.append((lum[:, ring] < 0.4).mean(1))
    out.append(((lum[:, rad <= 0.15] < 0.4)).mean(1))
    return np.stack(out, 1).astype(np.float32) * 4.0


def square_features(windows: np.ndarray) -> np.ndarray:
    """N x D features of N square windows (see the module's docstring)."""
    N, px = windows.shape[:2]
    faces, _ = F.tile_features(windows)
    # the board's background: the typical bright level of all its squares (most are empty)
    ref = np.maximum(np.median(np.percentile(windows.reshape(N, -1, 3), 75, axis=1), axis=0), 8.0).astype(np.float32)
    rel = windows.astype(np.float32) / ref
    lum = rel.mean(-1)
    chroma = rel - lum[..., None]
    out = [faces]
    for radius in (0.22, 0.36):
        disc = _disc(px, radius)
        out.append(rel[:, disc].mean(1))
        out.append(np.abs(chroma[:, disc]).mean(1) * 4.0)
        out.append(chroma[:, disc].mean(1) * 4.0)
        out.append(rel[:, disc].std(1))
        out.append(np.stack([(lum[:, disc] < t).mean(1) for t in (0.35, 0.6, 0.85)], 1))
    half = px // 2
    # a standing pawn leans away from the camera: its colour runs into one half of the window
    for part in (np.s_[:, :half, :], np.s_[:, half:, :], np.s_[:, :, :half], np.s_[:, :, half:]):
        out.append(chroma[part].reshape(N, -1, 3).mean(1) * 4.0)
        out.append(lum[part].reshape(N, -1).mean(1, keepdims=True))
    return np.concatenate(out, 1).astype(np.float32)
