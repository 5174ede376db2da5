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

import cv2
import numpy as np

from vision import features as F
from vision.locate import Lattice

#: the window's side in lattice pitches (a square is about 0.45, a coin about 0.33)
WINDOW = 0.55
#: window px per side
WINDOW_PX = 32
#: the side (pitches) of a second, closer window on the middle of each square: a coin's
#: numeral or suit, sampled finely enough to tell a 3 from a 5 on a small board
DIGIT = 0.2
#: version of the square features, stored with a model
FEATURES_ID = "squares-v2"


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


def read_squares(image: np.ndarray, lattice: Lattice, frame, rows: int, cols: int) -> np.ndarray:
    """N x D features of a board's squares in one frame: ``square_features`` of the square
    windows and the face features of the closer windows on their middles."""
    wide = square_windows(image, lattice, frame, rows, cols)
    close = square_windows(image, lattice, frame, rows, cols, side=DIGIT)
    return np.concatenate([square_features(wide), F.tile_features(close)[0]], 1)


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
