"""Drawing a piece's printed face: masks of text, paint on a material, a rounded outline.

The primitives ``simulator.looks`` draws piecepack sprites with and ``simulator.decks``
draws cards with. Faces are drawn at ``MASTER_PX_PER_MM``; masks are float32 0..1, faces
float32 BGR, finished sprites premultiplied BGRA uint8.
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np

from simulator import masks as M

BGR = tuple[int, int, int]

MASTER_PX_PER_MM = 8.0


def text_mask(shape, text: str, font, cx: float, cy: float, height: float, weight: float) -> np.ndarray:
    """Mask of ``text`` whose cap height is ``height`` px, centred at (cx, cy).

    font: a cv2.FONT_HERSHEY_* id (OpenCV 5 draws them with a sans face whose weight follows
    the thickness: a weight under 0.06 draws the light cut), or "stroke" / "stroke-italic"
    for the stroke glyphs of ``simulator.masks`` (weight = stroke width / cap height).
    """
    if isinstance(font, str) and font not in ("stroke", "stroke-italic"):
        from simulator import glyphs

        return glyphs.text_mask(shape, text, font, cx, cy, height, weight)
    m = np.zeros(shape, np.uint8)
    if isinstance(font, str):
        italic = font.endswith("italic")
        width = height * 0.62
        thick = max(1.0, height * weight)
        total = len(text) * width + (len(text) - 1) * width * 0.25
        x0 = cx - total / 2
        for k, ch in enumerate(text):
            for stroke in M.STROKES[ch]:
                pts = np.array(stroke, np.float64)
                ox = x0 + k * width * 1.25
                px = ox + pts[:, 0] * width + (0.18 * height * (0.5 - pts[:, 1]) if italic else 0.0)
                py = cy - height / 2 + pts[:, 1] * height
                cv2.polylines(m, [M.pts(np.stack([px, py], 1))], False, 255, int(round(thick)), M.AA, M.SHIFT)
        return m.astype(np.float32) / 255.0
    thick = 1 if weight < 0.06 else max(1, int(round(height * weight)))
    (w0, h0), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = height / max(h0, 1)
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (int(round(cx - w / 2)), int(round(cy + h / 2)))
    cv2.putText(m, text, org, font, scale, 255, thick, M.AA)
    return m.astype(np.float32) / 255.0


def paint(img: np.ndarray, mask: np.ndarray, colour: BGR) -> None:
    m = mask[..., None]
    img[..., :3] = img[..., :3] * (1 - m) + np.asarray(colour, np.float32) * m


def material(shape: tuple[int, int], base: BGR, material: str, key: str, grain_amp: float = 0.035) -> np.ndarray:
    """A face background of ``material`` (float32 BGR), deterministic for ``key``.

    wood, paper and (any other name) plastic-like; "acrylic" and "metal" are edition materials
    (see simulator.glyphs.material_texture)."""
    if material in ("acrylic", "metal"):
        from simulator import glyphs

        return glyphs.material_texture(shape, base, material, key)
    h, w = shape
    rng = np.random.default_rng(zlib.crc32(key.encode()))
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    if material == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        wobble = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        phase = rng.uniform(0, 6.28)
        period = rng.uniform(1.2, 2.4) * MASTER_PX_PER_MM
        grain = np.sin(2 * np.pi * (y + 0.06 * x + wobble * 2.5 * MASTER_PX_PER_MM) / period + phase)
        img *= (1.0 + grain_amp * grain + 0.015 * wobble)[..., None]
    elif material == "paper":
        img *= 1.0 + rng.normal(0, 0.012, (h, w, 1)).astype(np.float32)
    else:
        shade = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        img *= (1.0 + 0.01 * shade)[..., None]
    return img


def rounded_rect_mask(h: int, w: int, radius_px: float) -> np.ndarray:
    r = max(radius_px, 0.5)
    t = np.linspace(0, np.pi / 2, 8)
    corners = []
    for (ox, oy, a0) in ((w - 0.5 - r, h - 0.5 - r, 0.0), (r - 0.5, h - 0.5 - r, np.pi / 2),
                         (r - 0.5, r - 0.5, np.pi), (w - 0.5 - r, r - 0.5, 1.5 * np.pi)):
        corners.append(np.stack([ox + r * np.cos(a0 + t), oy + r * np.sin(a0 + t)], 1))
    return M.poly_mask((h, w), [np.vstack(corners)])


def finish(img: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """Premultiplied BGRA uint8: colour already multiplied by alpha, so resampling never darkens edges."""
    out = np.empty(img.shape[:2] + (4,), np.uint8)
    out[..., :3] = np.clip(img * alpha[..., None], 0, 255).astype(np.uint8)
    out[..., 3] = np.clip(alpha * 255, 0, 255).astype(np.uint8)
    return out
