"""Drawing parts of procedural editions that the named looks do not use.

Numeral fonts drawn as strokes in a unit box (``serif``, ``mono``, ``engraved`` outline
letters, ``hand-K`` hand-drawn strokes whose wobble comes from K), more suit symbol designs
(``SYMBOLS``), the spiral ace, printed tile frames and the acrylic and metal materials.
Everything returns float32 masks 0..1 (or a float32 BGR texture) and is deterministic.
``simulator.looks`` calls in here for any font, symbol or material name it does not draw itself.
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np

from simulator import masks as M
from simulator.errors import SimulatorError

#: numeral fonts drawn here (``hand-K`` takes any integer K)
FONTS: tuple[str, ...] = ("serif", "mono", "engraved", "hand")

# serif strokes: the sans skeletons of simulator.looks plus serifs and ball terminals
_SERIFS: dict[str, list[list[tuple[float, float]]]] = {
    "2": [[(0.95, 1.0), (0.95, 0.84)]],
    "3": [],
    "4": [[(0.52, 1.0), (0.92, 1.0)]],
    "5": [[(0.88, 0.0), (0.88, 0.13)]],
    "A": [[(-0.14, 1.0), (0.2, 1.0)], [(0.8, 1.0), (1.14, 1.0)], [(0.4, 0.0), (0.58, 0.0)]],
}
_BALLS: dict[str, list[tuple[float, float]]] = {
    "2": [M.arc(0.5, 0.28, 0.4, 0.28, 200, 201, 1)[0]],
    "3": [M.arc(0.48, 0.25, 0.37, 0.25, 200, 201, 1)[0], M.arc(0.48, 0.73, 0.42, 0.27, 520, 521, 1)[0]],
    "5": [M.arc(0.5, 0.68, 0.4, 0.32, 500, 501, 1)[0]],
}

# squared ("mono", DIN-like) skeletons
_MONO: dict[str, list[list[tuple[float, float]]]] = {
    "2": [[(0.08, 0.18), (0.24, 0.0), (0.76, 0.0), (0.92, 0.16), (0.92, 0.38), (0.08, 1.0), (0.94, 1.0)]],
    "3": [[(0.08, 0.0), (0.9, 0.0), (0.42, 0.42), (0.72, 0.42), (0.92, 0.6), (0.92, 0.84), (0.74, 1.0), (0.24, 1.0), (0.06, 0.86)]],
    "4": [[(0.62, 0.0), (0.05, 0.68), (0.96, 0.68)], [(0.72, 0.36), (0.72, 1.0)]],
    "5": [[(0.88, 0.0), (0.16, 0.0), (0.12, 0.44), (0.7, 0.4), (0.92, 0.58), (0.92, 0.84), (0.72, 1.0), (0.22, 1.0), (0.05, 0.88)]],
    "A": [[(0.05, 1.0), (0.05, 0.3), (0.3, 0.0), (0.7, 0.0), (0.95, 0.3), (0.95, 1.0)], [(0.05, 0.6), (0.95, 0.6)]],
}


def _strokes(font: str, ch: str) -> tuple[list[list[tuple[float, float]]], list[tuple[float, float]]]:
    """(polylines, ball terminals) of glyph ``ch`` in ``font``'s unit box."""
    if ch not in M.STROKES:
        raise SimulatorError(f"no stroke glyph for {ch!r}")
    if font == "mono":
        return _MONO[ch], []
    if font in ("serif", "engraved"):
        return M.STROKES[ch] + _SERIFS[ch], _BALLS.get(ch, [])
    if font.startswith("hand-"):
        rng = np.random.default_rng([_hand_seed(font), ord(ch)])
        out = []
        for stroke in M.STROKES[ch]:
            pts = np.asarray(stroke, np.float64)
            # a smooth wobble along the stroke, plus a slant and size the writer keeps for the glyph
            t = np.linspace(0, 1, len(pts))[:, None]
            wob = np.hstack([np.interp(t[:, 0], np.linspace(0, 1, 4), rng.normal(0, 0.05, 4))[:, None],
                             np.interp(t[:, 0], np.linspace(0, 1, 4), rng.normal(0, 0.05, 4))[:, None]])
            slant = rng.uniform(-0.12, 0.12)
            pts = pts + wob
            pts[:, 0] += slant * (0.5 - pts[:, 1])
            out.append([tuple(p) for p in pts])
        return out, []
    raise SimulatorError(f"unknown font {font!r}: expected a cv2 Hershey font, stroke, stroke-italic, "
                         f"{', '.join(FONTS[:-1])} or hand-K")


def _hand_seed(font: str) -> int:
    try:
        return int(font.split("-", 1)[1])
    except ValueError:
        raise SimulatorError(f"font {font!r}: expected hand-K with an integer K") from None


def text_mask(shape, text: str, font: str, cx: float, cy: float, height: float, weight: float) -> np.ndarray:
    """Mask of ``text`` in one of FONTS, cap height ``height`` px centred at (cx, cy); weight = stroke / height."""
    m = np.zeros(shape, np.uint8)
    width = height * (0.58 if font == "mono" else 0.62)
    thick = max(1.0, height * weight)
    total = len(text) * width + (len(text) - 1) * width * 0.25
    x0 = cx - total / 2
    for k, ch in enumerate(text):
        strokes, balls = _strokes(font, ch)
        ox = x0 + k * width * 1.25

        def px(p):
            p = np.asarray(p, np.float64).reshape(-1, 2)
            return np.stack([ox + p[:, 0] * width, cy - height / 2 + p[:, 1] * height], 1)

        for stroke in strokes:
            cv2.polylines(m, [M.pts(px(stroke))], False, 255, int(round(thick)), M.AA, M.SHIFT)
        for b in balls:
            q = px(b)[0]
            cv2.circle(m, (int(round(q[0] * M.ONE)), int(round(q[1] * M.ONE))), int(round(thick * 0.85 * M.ONE)), 255, -1,
                       M.AA, M.SHIFT)
    out = m.astype(np.float32) / 255.0
    if font == "engraved":
        # outline letters: the stroke with its middle carved out
        inner = cv2.erode(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)), iterations=max(1, int(thick * 0.3)))
        out = (out - inner.astype(np.float32) / 255.0).clip(0, 1)
    return out


# ---------------------------------------------------------------------------------------------
# suit symbols


def _sun_disc(shape, cx, cy, r):
    m = M.circle_mask(shape, (cx, cy), r * 0.45)
    for k in range(12):
        a = k * np.pi / 6
        m = np.maximum(m, M.circle_mask(shape, (cx + r * 0.82 * np.cos(a), cy + r * 0.82 * np.sin(a)), r * 0.11))
    return m


def _moon_outline(shape, cx, cy, r):
    outer = M.circle_mask(shape, (cx, cy), r * 0.92)
    inner = M.circle_mask(shape, (cx + r * 0.42, cy - r * 0.23), r * 0.82)
    crescent = (outer - inner).clip(0, 1)
    star = M.poly_mask(shape, [np.stack([cx + r * 0.45 + np.where(np.arange(10) % 2 == 0, r * 0.3, r * 0.12) * np.cos(-np.pi / 2 + np.arange(10) * np.pi / 5),
                                          cy + r * 0.2 + np.where(np.arange(10) % 2 == 0, r * 0.3, r * 0.12) * np.sin(-np.pi / 2 + np.arange(10) * np.pi / 5)], 1)])
    return np.maximum(crescent, star)


def _crown_flat(shape, cx, cy, r):
    base = np.array([[cx - r * 0.85, cy + r * 0.7], [cx - r * 0.95, cy - r * 0.35], [cx - r * 0.45, cy + r * 0.05],
                     [cx, cy - r * 0.55], [cx + r * 0.45, cy + r * 0.05], [cx + r * 0.95, cy - r * 0.35], [cx + r * 0.85, cy + r * 0.7]])
    m = M.poly_mask(shape, [base])
    for x, y in ((-0.95, -0.35), (0.0, -0.55), (0.95, -0.35)):
        m = np.maximum(m, M.circle_mask(shape, (cx + r * x, cy + r * y - r * 0.12), r * 0.16))
    return m


def _arms_cross(shape, cx, cy, r):
    w = r * 0.26
    bars = [np.array([[cx - w, cy - r], [cx + w, cy - r], [cx + w, cy + r], [cx - w, cy + r]]),
            np.array([[cx - r * 0.8, cy - r * 0.35 - w], [cx + r * 0.8, cy - r * 0.35 - w],
                      [cx + r * 0.8, cy - r * 0.35 + w], [cx - r * 0.8, cy - r * 0.35 + w]])]
    return M.poly_mask(shape, bars)


_SYMBOL_FUNCS = {"sun-disc": _sun_disc, "moon-star": _moon_outline, "crown-flat": _crown_flat, "arms-cross": _arms_cross}
#: symbol styles drawn here, beside those of simulator.looks
SYMBOLS: tuple[str, ...] = tuple(_SYMBOL_FUNCS)


def symbol_mask(shape, style: str, cx: float, cy: float, size: float) -> np.ndarray:
    return _SYMBOL_FUNCS[style](shape, cx, cy, size / 2.0)


def spiral_mask(shape, cx: float, cy: float, radius: float, thick: float) -> np.ndarray:
    """An Archimedean spiral of 2.5 turns out to ``radius`` px: the ace of some editions."""
    t = np.linspace(0, 5 * np.pi, 160)
    rad = radius * t / t[-1]
    pts = np.stack([cx + rad * np.cos(t), cy + rad * np.sin(t)], 1)
    m = np.zeros(shape, np.uint8)
    cv2.polylines(m, [M.pts(pts)], False, 255, int(round(thick)), M.AA, M.SHIFT)
    return m.astype(np.float32) / 255.0


def frame_mask(shape, frame: tuple, px_per_mm: float) -> np.ndarray:
    """A printed frame (style, ink, width mm, inset mm) on a square tile face of ``shape``."""
    style, _, width, inset = frame
    h, w = shape
    a, b = inset * px_per_mm, (inset + width) * px_per_mm
    if style not in ("line", "double", "band"):
        raise SimulatorError(f"unknown frame style {style!r}: expected line, double or band")
    # a band is a wide line from the very edge (inset 0) inwards
    ring = (M.inset_mask_rect(h, w, a) - M.inset_mask_rect(h, w, b)).clip(0, 1)
    if style == "double":
        gap = b + 1.2 * px_per_mm
        ring = np.maximum(ring, (M.inset_mask_rect(h, w, gap) - M.inset_mask_rect(h, w, gap + 0.5 * width * px_per_mm)).clip(0, 1))
    return ring


def material_texture(shape: tuple[int, int], base, material: str, key: str) -> np.ndarray:
    """acrylic: flat colour with a faint sheen gradient; metal: brushed streaks and a broad sheen."""
    h, w = shape
    rng = np.random.default_rng(zlib.crc32(key.encode()))
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    y = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    x = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    a = rng.uniform(0, 2 * np.pi)
    sheen = np.cos(a) * x + np.sin(a) * y
    if material == "acrylic":
        img *= (1.0 + 0.025 * sheen)[..., None]
    else:
        streak = cv2.resize(rng.normal(0, 1, (h, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        img *= (1.0 + 0.12 * sheen + 0.03 * streak)[..., None]
    return img
