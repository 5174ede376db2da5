"""Rectify the board to a canonical top view and cut it into cells, pawn slots and coin slots.

The *canvas* is the lattice frame scaled to ``cell_px`` pixels per pitch with a margin of
``margin_pitches`` around the 5x5 board: canvas px = (lattice units + margin) * cell_px.
The *player view* is the canvas turned by k quarter turns (``np.rot90(canvas, k)``) so that
the coins lie above the board and the pawns to its left.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.locate import BOARD, Lattice


def canvas_size(cfg: VisionConfig) -> int:
    return int(round((BOARD + 2 * cfg.margin_pitches) * cfg.cell_px))


def rectify(image: np.ndarray, lattice: Lattice, cfg: VisionConfig) -> np.ndarray:
    """The canvas (S x S x 3 uint8, S = canvas_size) sampled from the BGR frame through the lattice."""
    S = canvas_size(cfg)
    step = 8
    g = np.arange(0, S + step, step, dtype=np.float64)
    X, Y = np.meshgrid(g, g)
    uv = np.stack([X, Y], -1) / cfg.cell_px - cfg.margin_pitches
    src = lattice.to_image(uv.reshape(-1, 2)).reshape(len(g), len(g), 2).astype(np.float32)
    src_img = image
    # minify in steps so that linear sampling does not alias the strokes
    ratio = lattice.pitch_px() / cfg.cell_px
    while ratio > 2.0:
        src_img = cv2.pyrDown(src_img)
        src = src * 0.5
        ratio /= 2
    mx = cv2.resize(src[..., 0], (len(g) * step, len(g) * step), interpolation=cv2.INTER_LINEAR)
    my = cv2.resize(src[..., 1], (len(g) * step, len(g) * step), interpolation=cv2.INTER_LINEAR)
    # resize puts node i at pixel i*step + (step-1)/2; shift so node i lands on pixel i*step
    shift = (step - 1) / 2.0
    M = np.float32([[1, 0, -shift], [0, 1, -shift]])
    mx = cv2.warpAffine(mx, M, (S, S), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    my = cv2.warpAffine(my, M, (S, S), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.remap(src_img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def player_view(canvas: np.ndarray, k: int) -> np.ndarray:
    """The canvas turned so that the coins are on top (k counter-clockwise quarter turns), contiguous."""
    return turned(canvas, k)


#: ``np.rot90``'s k counter-clockwise quarter turns as OpenCV rotations (several times faster
#: than numpy's strided copy of a turned array)
_ROTATIONS = (None, cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE)


def turned(image: np.ndarray, k: int) -> np.ndarray:
    """``np.rot90(image, k)`` as a new contiguous array (an image of up to 4 channels)."""
    k %= 4
    return image.copy() if k == 0 else cv2.rotate(image, _ROTATIONS[k])


def cell_crops(view: np.ndarray, cfg: VisionConfig, frac: float, offsets: np.ndarray | None = None,
               cells: list[tuple[int, int]] | None = None) -> np.ndarray:
    """N x s x s x 3 crops (s = frac * cell_px) centred on cells of a player view, moved by
    ``offsets`` (N x 2 px) when given. ``cells``: (row, column) pairs, which may lie in the
    margin around the board (row or column -1 or 5); by default the board's 25, row-major."""
    cp = cfg.cell_px
    m = cfg.margin_pitches * cp
    s = int(round(frac * cp))
    if cells is None:
        cells = [(r, c) for r in range(BOARD) for c in range(BOARD)]
    out = np.empty((len(cells), s, s, 3), view.dtype)
    H, W = view.shape[:2]
    for i, (r, c) in enumerate(cells):
        dx, dy = (offsets[i] if offsets is not None else (0.0, 0.0))
        x0 = int(round(m + (c + 0.5) * cp + dx - s / 2))
        y0 = int(round(m + (r + 0.5) * cp + dy - s / 2))
        x0, y0 = min(max(x0, 0), W - s), min(max(y0, 0), H - s)
        out[i] = view[y0 : y0 + s, x0 : x0 + s]
    return out
