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
    return np.ascontiguousarray(np.rot90(canvas, k))


def cell_crops(view: np.ndarray, cfg: VisionConfig, frac: float, offsets: np.ndarray | None = None) -> np.ndarray:
    """25 x s x s x 3 crops (s = frac * cell_px) centred on each cell of a player view, row-major,
    moved by ``offsets`` (25 x 2 px, see :func:`face_offsets`) when given."""
    cp = cfg.cell_px
    m = cfg.margin_pitches * cp
    s = int(round(frac * cp))
    out = np.empty((BOARD * BOARD, s, s, 3), view.dtype)
    H, W = view.shape[:2]
    for r in range(BOARD):
        for c in range(BOARD):
            i = r * BOARD + c
            dx, dy = (offsets[i] if offsets is not None else (0.0, 0.0))
            x0 = int(round(m + (c + 0.5) * cp + dx - s / 2))
            y0 = int(round(m + (r + 0.5) * cp + dy - s / 2))
            x0, y0 = min(max(x0, 0), W - s), min(max(y0, 0), H - s)
            out[i] = view[y0 : y0 + s, x0 : x0 + s]
    return out


def face_offsets(view: np.ndarray, cfg: VisionConfig) -> tuple[np.ndarray, float]:
    """Where each tile face really is in a player view: (25 x 2 offsets (dx, dy) px from the
    cell centres, face side px).

    The lattice is one homography plus a radial lens term; tiles also lie a little askew.
    Each face's two vertical (horizontal) edges show as a pair of peaks, one face width
    apart, in the summed horizontal (vertical) gradient over the cell's middle band; the
    offset and width that best fit the peaks win. Cells without a clear pair (the hole, a
    hand) take the median offset of their neighbours.
    """
    cp = cfg.cell_px
    m = cfg.margin_pitches * cp
    g = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))
    reach = int(round(0.22 * cp))
    widths = np.arange(int(round(0.80 * cp)), int(round(0.97 * cp)) + 1)
    ds = np.arange(-reach, reach + 1)
    off = np.zeros((BOARD * BOARD, 2))
    strength = np.zeros((BOARD * BOARD, 2))
    width_votes = []
    band_lo, band_hi = int(round(0.22 * cp)), int(round(0.78 * cp))
    for axis, grad in ((0, gx), (1, gy)):
        for i in range(BOARD):  # the band: a row (axis 0) or a column (axis 1)
            a = int(round(m + i * cp))
            if axis == 0:
                prof = grad[a + band_lo : a + band_hi, :].sum(0)
            else:
                prof = grad[:, a + band_lo : a + band_hi].sum(1)
            prof = np.convolve(prof, np.array([0.5, 1.0, 0.5], np.float32), mode="same")
            for j in range(BOARD):
                centre = m + (j + 0.5) * cp
                lo = (centre + ds[:, None] - widths[None, :] / 2).round().astype(int)
                hi = (centre + ds[:, None] + widths[None, :] / 2).round().astype(int)
                lo = np.clip(lo, 0, len(prof) - 1)
                hi = np.clip(hi, 0, len(prof) - 1)
                score = np.minimum(prof[lo], prof[hi])  # both edges must be there
                di, wi = np.unravel_index(int(np.argmax(score)), score.shape)
                cell = i * BOARD + j if axis == 0 else j * BOARD + i
                off[cell, axis] = ds[di]
                strength[cell, axis] = score[di, wi] / (np.median(prof) + 1e-3)
                width_votes.append(widths[wi])
    weak = strength.min(1) < 3.0
    grid = off.reshape(BOARD, BOARD, 2)
    fixed = off.copy()
    for cell in np.nonzero(weak)[0]:
        r, c = divmod(int(cell), BOARD)
        nb = [grid[rr, cc] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
              if 0 <= rr < BOARD and 0 <= cc < BOARD and not weak[rr * BOARD + cc]]
        fixed[cell] = np.median(nb, axis=0) if nb else 0.0
    return fixed, float(np.median(width_votes))
