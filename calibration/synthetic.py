"""Synthetic photographs of a calibration pattern through a known lens, for tests and demos.

``pattern_view(pattern, K, dist, rvec, tvec, size)`` renders what a camera with intrinsics
``K`` (3 x 3, px) and OpenCV distortion ``dist`` sees of the flat printed ``pattern`` placed
in the plane z = 0 of its own frame (x right, y down the sheet, mm; origin at the sheet's
top-left square corner) at pose ``rvec``/``tvec`` (pattern frame -> camera frame, mm).
Each output pixel is traced back through the distortion model to the pattern plane, so
the image is exact up to bilinear resampling of the printed sheet.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.camera import Pattern

_PX_PER_SQUARE = 120
_MARGIN_PX = 60
_GRID_STEP = 4  # px between traced pixels; the inverse distortion is smooth enough to interpolate


def look_at_pose(tilt_deg: float, turn_deg: float, distance_mm: float, centre_mm: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """A pose (rvec, tvec) looking at ``centre_mm`` of the pattern from ``distance_mm``, tilted ``tilt_deg`` about the axis at ``turn_deg``."""
    a, t = np.radians(turn_deg), np.radians(tilt_deg)
    axis = np.array([np.cos(a), np.sin(a), 0.0])
    R, _ = cv2.Rodrigues(axis * t)
    c = np.array([centre_mm[0], centre_mm[1], 0.0])
    tvec = np.array([0.0, 0.0, distance_mm]) - R @ c
    rvec, _ = cv2.Rodrigues(R)
    return rvec.reshape(3), tvec.reshape(3)


def _normalised_rays(K: np.ndarray, dist: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(H*W, 2) ideal normalised coordinates (x/z, y/z) of every pixel of a distorted ``size`` frame."""
    w, h = size
    s = _GRID_STEP
    gw, gh = (w - 1) // s + 2, (h - 1) // s + 2
    xs, ys = np.meshgrid(np.arange(gw, dtype=np.float64) * s, np.arange(gh, dtype=np.float64) * s)
    pix = np.stack([xs.ravel(), ys.ravel()], 1).reshape(-1, 1, 2)
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 60, 1e-10)
    coarse = cv2.undistortPoints(pix, np.asarray(K, np.float64), np.asarray(dist, np.float64), None, None, None, crit)
    coarse = coarse.reshape(gh, gw, 2).astype(np.float32)
    mx, my = np.meshgrid(np.arange(w, dtype=np.float32) / s, np.arange(h, dtype=np.float32) / s)
    fine = cv2.remap(coarse, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return fine.reshape(-1, 2).astype(np.float64)


def pattern_view(
    pattern: Pattern,
    K: np.ndarray,
    dist: np.ndarray,
    rvec: np.ndarray,
    tvec: np.ndarray,
    size: tuple[int, int],
    *,
    background: int = 90,
) -> np.ndarray:
    """H x W x 3 uint8 BGR image (``size`` = (W, H)) of the pattern; pixels off the sheet are ``background`` grey."""
    w, h = size
    sheet = pattern.image(_PX_PER_SQUARE, _MARGIN_PX).astype(np.float32)
    px_per_mm = _PX_PER_SQUARE / float(pattern.square_mm)
    norm = _normalised_rays(K, dist, size)
    R, _ = cv2.Rodrigues(np.asarray(rvec, np.float64))
    t = np.asarray(tvec, np.float64).reshape(3)
    d = np.concatenate([norm, np.ones((norm.shape[0], 1))], 1)  # ray directions in the camera frame
    n = R[:, 2]  # the pattern plane's normal in the camera frame; plane: n . X = n . t
    depth = (n @ t) / (d @ n)
    X = (depth[:, None] * d - t[None, :]) @ R  # back to the pattern frame (R^T applied row-wise)
    u = (X[:, 0] * px_per_mm + _MARGIN_PX).reshape(h, w).astype(np.float32)
    v = (X[:, 1] * px_per_mm + _MARGIN_PX).reshape(h, w).astype(np.float32)
    behind = (depth <= 0).reshape(h, w)
    u[behind], v[behind] = -1e4, -1e4
    # the sheet is sampled far finer than the output; pre-blur it so resampling does not alias
    scale = float(np.median(np.abs(np.diff(u, axis=1))))
    if scale > 1.5:
        sheet = cv2.GaussianBlur(sheet, (0, 0), 0.45 * scale)
    out = cv2.remap(sheet, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=float(background))
    out = np.clip(out, 0, 255).astype(np.uint8)
    return cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)


def pattern_views(
    pattern: Pattern,
    K: np.ndarray,
    dist: np.ndarray,
    size: tuple[int, int],
    n: int = 8,
    seed: int = 0,
) -> list[np.ndarray]:
    """``n`` seeded views of the pattern from varied tilts (15-40 degrees) and turns, the sheet filling most of the frame."""
    rng = np.random.default_rng(seed)
    cw, ch = pattern.cols * pattern.square_mm, pattern.rows * pattern.square_mm
    f = float(np.asarray(K)[0, 0])
    base = f * max(cw / (0.8 * size[0]), ch / (0.8 * size[1]))  # distance at which the sheet fills ~80%
    views = []
    for i in range(n):
        tilt = float(rng.uniform(15, 40))
        turn = 360.0 * i / n + float(rng.uniform(-20, 20))
        dist_mm = base * float(rng.uniform(1.0, 1.25))
        centre = (cw / 2 + float(rng.uniform(-0.08, 0.08)) * cw, ch / 2 + float(rng.uniform(-0.08, 0.08)) * ch)
        rvec, tvec = look_at_pose(tilt, turn, dist_mm, centre)
        views.append(pattern_view(pattern, K, dist, rvec, tvec, size))
    return views
