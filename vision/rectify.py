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
    return int(round((BOARD + 2 * cfg.rectify.margin_pitches) * cfg.rectify.cell_px))


def rectify(image: np.ndarray, lattice: Lattice, cfg: VisionConfig) -> np.ndarray:
    """The canvas (S x S x 3 uint8, S = canvas_size) sampled from the BGR frame through the lattice."""
    S = canvas_size(cfg)
    # the map from canvas px to image px is smooth: compute it exactly at nodes every 8 px and
    # interpolate. resize's linear interpolation takes output px q from node (q + 0.5) / 8 - 0.5,
    # so with node i at canvas px 8 i - 4.5 the output px q is canvas px q - 8, interpolated
    # between its own neighbouring nodes (one node before the canvas, enough after it)
    step = 8
    first = -(step + 1) / 2.0  # canvas px of node 0
    n = int(np.ceil((S + 2 * step + first) / step))
    g = np.arange(n, dtype=np.float64) * step + first
    X, Y = np.meshgrid(g, g)
    uv = np.stack([X, Y], -1) / cfg.rectify.cell_px - cfg.rectify.margin_pitches
    src = lattice.to_image(uv.reshape(-1, 2)).reshape(n, n, 2).astype(np.float32)
    src_img = image
    # minify in steps so that linear sampling does not alias the strokes
    ratio = lattice.pitch_px() / cfg.rectify.cell_px
    while ratio > 2.0:
        src_img = cv2.pyrDown(src_img)
        src = src * 0.5
        ratio /= 2
    full = cv2.resize(src, (n * step, n * step), interpolation=cv2.INTER_LINEAR)
    # (a view of the grown map: OpenCV takes its row stride as it is, no copy needed)
    return cv2.remap(src_img, full[step : step + S, step : step + S], None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


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


def ring_cells() -> list[tuple[int, int]]:
    """The 24 (row, column) cells just outside the board, corners included: where the table,
    the coins and the pawns show (``cell_crops`` cuts them from the view's margin)."""
    return [(r, c) for r in range(-1, BOARD + 1) for c in range(-1, BOARD + 1) if not (0 <= r < BOARD and 0 <= c < BOARD)]


def cell_crops(view: np.ndarray, cfg: VisionConfig, frac: float, offsets: np.ndarray | None = None,
               cells: list[tuple[int, int]] | None = None) -> np.ndarray:
    """N x s x s x 3 crops (s = frac * cell_px) centred on cells of a player view, moved by
    ``offsets`` (N x 2 px) when given. ``cells``: (row, column) pairs, which may lie in the
    margin around the board (row or column -1 or 5); by default the board's 25, row-major."""
    cp = cfg.rectify.cell_px
    m = cfg.rectify.margin_pitches * cp
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
