"""Antialiased float32 masks (0..1) and the stroke numerals that the looks and the editions
both draw with: combine masks by max (union) and min (cut)."""

from __future__ import annotations

import cv2
import numpy as np

AA = cv2.LINE_AA
SHIFT = 4  # sub-pixel bits for cv2 drawing calls
ONE = 1 << SHIFT


def pts(points: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(points, np.float64) * ONE).astype(np.int32).reshape(-1, 1, 2)


def poly_mask(shape: tuple[int, int], polys: list[np.ndarray]) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    cv2.fillPoly(m, [pts(p) for p in polys], 255, AA, SHIFT)
    return m.astype(np.float32) / 255.0


def circle_mask(shape, center, radius) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    c = (int(round(center[0] * ONE)), int(round(center[1] * ONE)))
    cv2.circle(m, c, int(round(radius * ONE)), 255, -1, AA, SHIFT)
    return m.astype(np.float32) / 255.0


def arc(cx, cy, rx, ry, a0, a1, n=14) -> list[tuple[float, float]]:
    t = np.radians(np.linspace(a0, a1, n))
    return list(zip(cx + rx * np.cos(t), cy + ry * np.sin(t)))


# Stroke glyphs in a unit box (x right, y down, cap height 1): polylines drawn with round joins.
# OpenCV 5 draws every FONT_HERSHEY_* with one built-in sans face, so these give a second design.
STROKES: dict[str, list[list[tuple[float, float]]]] = {
    "2": [arc(0.5, 0.28, 0.4, 0.28, 200, 360) + arc(0.5, 0.28, 0.4, 0.28, 0, 40) + [(0.08, 1.0), (0.95, 1.0)]],
    "3": [arc(0.48, 0.25, 0.37, 0.25, 200, 450), arc(0.48, 0.73, 0.42, 0.27, 270, 520)],
    "4": [[(0.72, 1.0), (0.72, 0.0), (0.05, 0.72), (0.97, 0.72)]],
    "5": [[(0.88, 0.0), (0.22, 0.0), (0.16, 0.46)] + arc(0.5, 0.68, 0.4, 0.32, 235, 500)],
    "A": [[(0.02, 1.0), (0.5, 0.0), (0.98, 1.0)], [(0.22, 0.64), (0.78, 0.64)]],
}


def inset_mask_rect(h: int, w: int, inset: float) -> np.ndarray:
    return poly_mask((h, w), [np.array([[inset, inset], [w - 1 - inset, inset], [w - 1 - inset, h - 1 - inset], [inset, h - 1 - inset]])])
