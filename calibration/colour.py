"""Colour constancy: the tile paper is the white reference in every frame.

A warm lamp or a cold window multiplies each colour channel by its own factor (to a good
approximation for the broad-band light of a room), and exposure multiplies all three. The
paper of the tiles is the one surface whose colour the Caller knows in every frame: it is
most of every tile face. Dividing each channel by the paper's value in that channel (a
diagonal, von Kries, correction) maps the paper to :data:`CANONICAL_WHITE` and every ink to
the colour it would have under that white light, so a profile learnt in one room reads
the same set in another.

Two scopes, same maths:

* per frame: :func:`paper_white` of the pixels of all tile faces gives one white for the
  frame, :func:`white_gains` turns it into B, G, R gains, :func:`apply_gains` applies them;
* per tile: :func:`normalise_face` uses the face's own paper, which also cancels uneven
  light and vignetting (the paper a centimetre away sees the same lamp as the ink).

Colours are BGR throughout (OpenCV's order); values are 8-bit levels (0-255).
"""

from __future__ import annotations

import numpy as np

from calibration.errors import CalibrationError

CANONICAL_WHITE = np.array([225.0, 225.0, 225.0])
"""Where paper is mapped (B, G, R levels): below 255 so glare and a brighter patch of paper keep their detail."""

PAPER_QUANTILES = (0.45, 0.97)
"""Luminance quantiles of the face pixels taken as paper: above the ink (a face is mostly paper,
ink covers well under half of it), below glare and specular highlights."""

MAX_GAIN = 8.0  # a paper darker than 1/8 of the canonical white is not paper; refuse to blow it up


def _pixels(image: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    a = np.asarray(image)
    if a.ndim != 3 or a.shape[-1] != 3:
        raise CalibrationError(f"image of shape {a.shape}: expected H x W x 3 BGR")
    px = a.reshape(-1, 3).astype(np.float32)
    if mask is not None:
        m = np.asarray(mask).reshape(-1)
        if m.shape[0] != px.shape[0]:
            raise CalibrationError(f"mask of {m.shape[0]} pixels for an image of {px.shape[0]} pixels")
        px = px[m.astype(bool)]
    return px


def paper_white(image: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The paper's colour (3,) float64 BGR levels in an H x W x 3 image of tile faces.

    ``mask`` (H x W, nonzero = tile face) limits the pixels considered. The white is the
    per-channel median of the pixels whose luminance lies between the
    :data:`PAPER_QUANTILES`: robust to ink (darker), glare and clipped highlights (brighter).
    """
    px = _pixels(image, mask)
    if px.shape[0] < 16:
        raise CalibrationError(f"only {px.shape[0]} pixels of tile face: expected at least 16 to find the paper white")
    lum = px @ np.array([0.114, 0.587, 0.299], np.float32)
    lo, hi = np.quantile(lum, PAPER_QUANTILES)
    keep = (lum >= lo) & (lum <= hi)
    sel = px[keep] if keep.sum() >= 8 else px
    return np.median(sel, axis=0).astype(np.float64)


def white_gains(white: np.ndarray, target: np.ndarray = CANONICAL_WHITE) -> np.ndarray:
    """Per-channel gains (3,) that map the BGR ``white`` to ``target``; raises for a white that is not paper."""
    w = np.asarray(white, np.float64).reshape(3)
    t = np.asarray(target, np.float64).reshape(3)
    if not np.all(np.isfinite(w)) or np.any(w * MAX_GAIN < t):
        raise CalibrationError(
            f"paper white {np.round(w, 1).tolist()} (B, G, R) is too dark to be a white reference: expected each channel "
            f"above {np.round(t / MAX_GAIN, 1).tolist()} (is the board in view and lit?)"
        )
    return t / w


def apply_gains(image: np.ndarray, gains: np.ndarray, *, out_dtype=np.uint8) -> np.ndarray:
    """``image`` (... x 3 BGR) times per-channel ``gains`` (3,), as uint8 (saturated) or float32 levels."""
    a = np.asarray(image, np.float32) * np.asarray(gains, np.float32).reshape(1, 3)
    if out_dtype == np.uint8:
        return np.clip(a + 0.5, 0, 255).astype(np.uint8)
    return a.astype(out_dtype)


def normalise_frame(image: np.ndarray, face_mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(uint8 image with the paper at :data:`CANONICAL_WHITE`, the gains used) from the tile faces in ``face_mask``."""
    gains = white_gains(paper_white(image, face_mask))
    return apply_gains(image, gains), gains


def normalise_face(face: np.ndarray, fallback_gains: np.ndarray | None = None, *, out_dtype=np.float32) -> np.ndarray:
    """One rectified tile face (h x w x 3 BGR) in canonical light, by its own paper.

    ``fallback_gains`` (the frame's) are used when the face has too little paper to be its
    own reference (the hole shows the table, a hand covers it): that refusal is a
    CalibrationError from :func:`white_gains`, caught here.
    """
    try:
        gains = white_gains(paper_white(face))
    except CalibrationError:
        if fallback_gains is None:
            raise
        gains = np.asarray(fallback_gains, np.float64)
    return apply_gains(face, gains, out_dtype=out_dtype)
