"""Many plausible photos from one calibration photo: what other cameras and lights would show.

One photo gives one example of each tile face, coin and pawn; a classifier learnt from
single examples cannot know which differences between two photos matter (a different
digit) and which do not (a little blur, a warmer lamp, a tile seen a little more from the
side). :func:`augment_image` makes a new frame from the photo, varying exactly the nuisances
the reader meets; the caller runs the reader's whole pipeline on it (localisation,
rectification, features), so the learnt spread is the spread the reader will see:

* camera: a homography (another distance, a little more or less tilt, a turn of the camera),
  which also changes how many pixels each tile gets;
* focus and resolution: Gaussian defocus, a shrink-and-grow (a lower resolution sensor);
* light: per-channel gains (white balance), exposure, a gradient across the frame (uneven
  light), a soft glare spot;
* sensor: Gaussian noise and JPEG compression.

All randomness comes from a seeded ``numpy.random.Generator``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


N_AUGMENT = 24  # augmented copies per photo to learn from


@dataclass(frozen=True)
class Nuisance:
    """How strong each variation is (uniform ranges unless stated)."""

    scale: tuple[float, float] = (0.8, 1.2)  # content grows or shrinks about the centre (fewer pixels: downscale)
    rotate_deg: float = 30.0
    perspective: float = 0.07  # corner jitter of the homography, fraction of the frame size
    shift: float = 0.03  # fraction of the frame size
    blur_sigma: tuple[float, float] = (0.0, 2.2)  # px of the new frame
    downscale: tuple[float, float] = (1.0, 2.4)  # shrunk by this then grown back: fewer real pixels
    wb_log_sigma: float = 0.2  # per-channel log-gain (normal): lamp colour
    exposure: tuple[float, float] = (0.65, 1.15)
    gradient: float = 0.35  # gain difference across the frame
    glare: float = 0.4  # chance of a glare spot
    noise_sigma: float = 6.0  # 8-bit levels, upper bound
    jpeg: tuple[int, int] = (40, 95)
    jpeg_chance: float = 0.6


DEFAULT_NUISANCE = Nuisance()


def random_homography(size: tuple[int, int], rng: np.random.Generator, n: Nuisance = DEFAULT_NUISANCE) -> np.ndarray:
    """A 3 x 3 homography of a ``size`` = (W, H) frame onto itself: scale, turn, shift and a mild perspective."""
    w, h = size
    c = np.array([w / 2.0, h / 2.0])
    s = float(rng.uniform(*n.scale))
    ang = np.radians(rng.uniform(-n.rotate_deg, n.rotate_deg))
    R = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]]) * s
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    dst = (src - c) @ R.T + c + rng.uniform(-n.shift, n.shift, 2) * [w, h]
    dst = dst + rng.uniform(-n.perspective, n.perspective, (4, 2)) * [w, h]
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)).astype(np.float64)


def augment_image(image: np.ndarray, rng: np.random.Generator, n: Nuisance = DEFAULT_NUISANCE) -> tuple[np.ndarray, np.ndarray]:
    """(new H x W x 3 uint8 BGR frame, 3 x 3 homography from ``image`` px to the new frame's px)."""
    h, w = image.shape[:2]
    H = random_homography((w, h), rng, n)
    # replicate, not reflect: a mirrored copy of the board at the border would be a second board
    img = cv2.warpPerspective(image, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    img = img.astype(np.float32)
    f = float(rng.uniform(*n.downscale))
    if f > 1.05:
        small = cv2.resize(img, (max(16, int(w / f)), max(16, int(h / f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sigma = float(rng.uniform(*n.blur_sigma))
    if sigma > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    gains = np.exp(rng.normal(0.0, n.wb_log_sigma, 3)) * rng.uniform(*n.exposure)
    ang = rng.uniform(0, 2 * np.pi)
    gw, gh = 32, 18  # the light field is smooth: compute it small
    X, Y = np.meshgrid(np.linspace(-1, 1, gw, dtype=np.float32), np.linspace(-1, 1, gh, dtype=np.float32))
    field = 1.0 + 0.5 * n.gradient * rng.uniform(-1, 1) * (np.cos(ang) * X + np.sin(ang) * Y)
    field = field[..., None] * gains.astype(np.float32)[None, None, :]
    if rng.random() < n.glare:
        cx, cy = rng.uniform(-0.7, 0.7, 2)
        s = rng.uniform(0.06, 0.2)
        blob = np.exp(-((X - cx) ** 2 + (Y - cy) ** 2) / (2 * s * s)) * rng.uniform(0.1, 0.5)
        field = field + blob[..., None]
    img = img * cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    sd = float(rng.uniform(0, n.noise_sigma))
    if sd > 0.3:
        noise = np.empty(img.shape, np.float32)
        cv2.setRNGSeed(int(rng.integers(1 << 31)))  # OpenCV's generator is far faster than numpy's here
        cv2.randn(noise, 0.0, sd)
        img += noise
    out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    if rng.random() < n.jpeg_chance:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(n.jpeg[0], n.jpeg[1] + 1))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out, H


def warp_points(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """N x 2 points through a 3 x 3 homography."""
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.concatenate([p, np.ones((len(p), 1))], 1) @ np.asarray(H, np.float64).T
    return q[:, :2] / q[:, 2:3]
