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
    from vision import kernels

    cp, m = cfg.rectify.cell_px, cfg.rectify.margin_pitches
    inner = int(round((m - 1.25) * cp)) if m > 1.25 else 0
    fg = kernels.colour_rarity(np.ascontiguousarray(canvas), inner)
    return cv2.blur(fg, (3, 3))


def side_bands(fg: np.ndarray, cfg: VisionConfig) -> dict[str, np.ndarray]:
    """Foreground fraction of the five slots along each side of the board ("top", "right",
    "bottom", "left") of a canvas or view foreground map.

    A side's slots are the band ``orientation.band_near``..``band_far`` pitch outside the board,
    one a column or row wide less ``band_pad`` each end, numbered left to right (top and bottom)
    or top to bottom (left and right).
    """
    cp, m = cfg.rectify.cell_px, cfg.rectify.margin_pitches
    oc = cfg.orientation
    b0 = int(round(m * cp))
    b1 = int(round((m + BOARD) * cp))
    near, far = int(round(oc.band_near * cp)), int(round(oc.band_far * cp))
    pad = int(round(oc.band_pad * cp))
    spans = [(b0 + j * cp + pad, b0 + (j + 1) * cp - pad) for j in range(BOARD)]
    cut = {
        "top": lambda a, z: fg[b0 - far : b0 - near, a:z],
        "left": lambda a, z: fg[a:z, b0 - far : b0 - near],
        "right": lambda a, z: fg[a:z, b1 + near : b1 + far],
        "bottom": lambda a, z: fg[b1 + near : b1 + far, a:z],
    }
    out = {}
    for side, f in cut.items():
        vals = []
        for a, z in spans:
            r = f(a, z)
            vals.append(float(r.mean()) if r.size else 0.0)
        out[side] = np.array(vals)
    return out


def _turned(bands: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The side bands of ``np.rot90`` of the map (a counter-clockwise quarter turn): its right
    side comes to the top, its top to the left (in reverse order), and so on."""
    return {"top": bands["right"], "left": bands["top"][::-1], "right": bands["bottom"][::-1], "bottom": bands["left"]}


def _slots(bands: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A player view's (coin slots 5, pawn slots 5, other sides 10) from its side bands: coins
    above columns 1-5, pawns left of rows 1-5 (the fifth should be empty), the others right of
    the rows and below the columns."""
    return bands["top"], bands["left"], np.concatenate([bands["right"], bands["bottom"]])


def _piece(v: np.ndarray, full: float) -> np.ndarray:
    """Presence of a coin or pawn from a slot's foreground fraction: full at ``full``."""
    return np.clip(v / full, 0.0, 1.0)


def _solid(v: np.ndarray, oc) -> np.ndarray:
    """How much a slot is filled like a tile (coins and pawns cover well under half of it)."""
    return np.clip((v - oc.solid_from) / oc.solid_span, 0.0, 1.0)


def _turn_indices() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each quarter turn k = 0..3, the places of its view's coin slots (4 x 5), pawn slots
    (4 x 5) and other slots (4 x 10) among the canvas's twenty (in SIDES order)."""
    bands = {side: np.arange(BOARD) + BOARD * i for i, side in enumerate(SIDES)}
    coins, pawns, other = [], [], []
    for _ in range(4):
        c, p, o = _slots(bands)
        coins.append(c)
        pawns.append(p)
        other.append(o)
        bands = _turned(bands)
    return np.array(coins), np.array(pawns), np.array(other)


_COINS, _PAWNS, _OTHER = _turn_indices()


def orientation_scores(fg: np.ndarray, cfg: VisionConfig) -> np.ndarray:
    """Score (higher is better) of each quarter turn k = 0..3 of the canvas as the player view."""
    # the four views share the canvas's twenty slots: measure them once and turn them
    bands = side_bands(fg, cfg)
    slots = np.concatenate([bands[side] for side in SIDES])
    coins, pawns, other = slots[_COINS], slots[_PAWNS], slots[_OTHER]
    oc, full = cfg.orientation, cfg.orientation.piece_full
    # pawns (tall, coloured) show far more reliably than cream coins on a light table,
    # and four pawns beside rows 1-4 with the fifth place empty fix the frame on their own
    pawn_term = _piece(pawns[:, :4], full).sum(1) - _piece(pawns[:, 4:], full).sum(1)
    scores = oc.pawn_weight * pawn_term + _piece(coins, full).sum(1) - _piece(other, full).sum(1) * oc.other_weight
    # a band that is solid foreground is a row of tiles, not coins or pawns: the lattice
    # window would then be one row off
    return scores - oc.solid_weight * (_solid(coins, oc).sum(1) + _solid(pawns, oc).sum(1))
