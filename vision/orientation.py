"""Which way the player sits: find the coin row and the pawn column around the rectified board.

In the player's frame the five coins lie above columns 1-5 and the four pawns left of rows
1-4. On the canvas (the lattice frame, a rotation of the player's frame) that pattern can
face four ways; for each quarter turn k the canvas is turned so the candidate coin side is on
top and the slots are scored for "something that is not table". The table's colours are
learnt from the outer part of the margin (a colour histogram), so a checked cloth or wood
grain is table, while a cream coin's dark digit, its rim shadow or a coloured pawn are not.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.locate import BOARD

SIDES = ("top", "right", "bottom", "left")


def foreground(canvas: np.ndarray, cfg: VisionConfig) -> np.ndarray:
    """S x S float32 in [0, 1]: how unlike the table each canvas pixel is (1 = a colour the table never shows)."""
    S = canvas.shape[0]
    cp, m = cfg.cell_px, cfg.margin_pitches
    ring = np.ones((S, S), np.uint8)
    inner = int(round((m - 1.25) * cp)) if m > 1.25 else 0
    ring[inner : S - inner, inner : S - inner] = 0
    q = canvas >> 5
    idx = (q[..., 0].astype(np.int32) << 6) | (q[..., 1].astype(np.int32) << 3) | q[..., 2]
    hist = np.bincount(idx[ring > 0], minlength=512)
    # a colour bin holding under 0.3% of the outer margin's pixels is not table
    rare = (hist < 0.003 * float(ring.sum())).astype(np.float32)
    fg = rare[idx]
    return cv2.blur(fg, (3, 3))


def slot_presence(view_fg: np.ndarray, cfg: VisionConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a player-view foreground map: (coin slots 5, pawn slots 5, other sides 10) presence in [0, 1].

    Coin slots: above columns 1-5, the band 0.1..1.0 pitch outside the board. Pawn slots:
    left of rows 1-5 (the fifth should be empty). Other sides: right of rows and below columns.
    """
    cp, m = cfg.cell_px, cfg.margin_pitches
    b0 = int(round(m * cp))
    b1 = int(round((m + BOARD) * cp))
    near, far = int(round(0.12 * cp)), int(round(1.0 * cp))
    pad = int(round(0.15 * cp))

    def band(j: int, side: str) -> float:
        a = b0 + j * cp + pad
        z = b0 + (j + 1) * cp - pad
        if side == "top":
            r = view_fg[b0 - far : b0 - near, a:z]
        elif side == "left":
            r = view_fg[a:z, b0 - far : b0 - near]
        elif side == "right":
            r = view_fg[a:z, b1 + near : b1 + far]
        else:
            r = view_fg[b1 + near : b1 + far, a:z]
        return float(r.mean()) if r.size else 0.0

    coins = np.array([band(j, "top") for j in range(BOARD)])
    pawns = np.array([band(j, "left") for j in range(BOARD)])
    other = np.array([band(j, s) for s in ("right", "bottom") for j in range(BOARD)])
    return coins, pawns, other


def _piece(v: np.ndarray) -> np.ndarray:
    """Presence of a coin or pawn from a slot's foreground fraction: full at 12%."""
    return np.clip(v / 0.12, 0.0, 1.0)


def _solid(v: np.ndarray) -> np.ndarray:
    """How much a slot is filled like a tile (coins and pawns cover well under half of it)."""
    return np.clip((v - 0.55) / 0.2, 0.0, 1.0)


def orientation_scores(fg: np.ndarray, cfg: VisionConfig) -> np.ndarray:
    """Score (higher is better) of each quarter turn k = 0..3 of the canvas as the player view."""
    scores = np.zeros(4)
    for k in range(4):
        view = np.rot90(fg, k)
        coins, pawns, other = slot_presence(view, cfg)
        # pawns (tall, coloured) show far more reliably than cream coins on a light table,
        # and four pawns beside rows 1-4 with the fifth place empty fix the frame on their own
        pawn_term = _piece(pawns[:4]).sum() - _piece(pawns[4:]).sum()
        scores[k] = 2.0 * pawn_term + _piece(coins).sum() - _piece(other).sum() * 0.5
        # a band that is solid foreground is a row of tiles, not coins or pawns: the lattice
        # window would then be one row off
        scores[k] -= 2.0 * (_solid(coins).sum() + _solid(pawns).sum())
    return scores
