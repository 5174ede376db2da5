"""Table surfaces: textures in table-plane millimetres, sampled at ``px_per_mm``.

``simulator.render.TABLES`` are the surfaces the named looks' renders draw from (wood, felt,
cloth, laminate). ``EDITION_TABLES`` are the further surfaces procedural editions stand on:
light and dark woods, slate, glass over a dark floor, gingham, striped and dotted cloths and
a sheet of paper. Patterns with hard edges are drawn with edges one texel soft, so that a far,
tilted table does not alias into moire.
"""

from __future__ import annotations

import cv2
import numpy as np

from simulator.errors import SimulatorError

EDITION_TABLES: tuple[str, ...] = ("wood-light", "wood-dark", "slate", "glass", "gingham", "stripes", "dots", "paper")


def smooth(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency unit noise: a ``cells`` x ``cells`` normal grid stretched over ``shape``."""
    g = rng.standard_normal((cells, cells)).astype(np.float32)
    return cv2.resize(g, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def _grid(shape: tuple[int, int], px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    h, w = shape
    return np.arange(w, dtype=np.float32)[None, :] / px_per_mm, np.arange(h, dtype=np.float32)[:, None] / px_per_mm


def wood(base: np.ndarray, crng: np.random.Generator, rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """Planks of ``base`` colour (float32 BGR) with grain, plank shades and seams (float32 image)."""
    h, w = shape
    y = (np.arange(h, dtype=np.float32)[:, None]) / px_per_mm
    x = (np.arange(w, dtype=np.float32)[None, :]) / px_per_mm
    warp = smooth(rng, shape, 6) * 6.0
    period = float(crng.uniform(3.0, 7.0))
    # grain finer than a few texels would alias into moire: fade it out instead
    grain = np.sin(2 * np.pi * (y + 0.03 * x + warp) / period) * float(np.clip((period * px_per_mm - 2.5) / 3.0, 0, 1))
    fine = smooth(rng, shape, 40) * 0.03
    plank_w = float(crng.uniform(90, 160))
    plank_id = np.floor((y + 1000.0) / plank_w)
    plank_shade = (np.sin(plank_id * 12.9898) * 43758.5453) % 1.0
    seam = (np.abs(((y + 1000.0) % plank_w)) < max(0.8, 1.2 / px_per_mm)).astype(np.float32)
    gain = 1.0 + 0.07 * grain + fine + 0.10 * (plank_shade - 0.5) - 0.35 * seam
    return base[None, None, :] * gain[..., None]


def _square(u: np.ndarray, period: float, duty: float, px_per_mm: float) -> np.ndarray:
    """1 on the first ``duty`` of each ``period`` mm of ``u``, 0 elsewhere, edges one texel soft."""
    f = np.mod(u, period)
    d = np.minimum(f, duty * period - f)  # >0 inside the "on" part: distance to its nearer edge
    d = np.where(f > duty * period, -np.minimum(f - duty * period, period - f), d)
    return np.clip(0.5 + d * px_per_mm, 0.0, 1.0).astype(np.float32)


def _colour(crng: np.random.Generator, lo: tuple, hi: tuple) -> np.ndarray:
    return np.array([crng.uniform(a, b) for a, b in zip(lo, hi)], np.float32)


def _weave(x: np.ndarray, y: np.ndarray, px_per_mm: float, period: float = 1.0) -> np.ndarray:
    fade = float(np.clip((period * px_per_mm - 2.5) / 3.0, 0, 1))
    return 0.05 * fade * np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)


def texture(kind: str, colour_seed: int, rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """A float32 BGR texture (rows, cols) of one of EDITION_TABLES at ``px_per_mm``."""
    crng = np.random.default_rng(colour_seed)
    x, y = _grid(shape, px_per_mm)
    if kind == "wood-light":  # birch, maple, pine, oak
        return wood(_colour(crng, (110, 160, 195), (170, 210, 238)), crng, rng, shape, px_per_mm)
    if kind == "wood-dark":  # walnut, mahogany, wenge
        return wood(_colour(crng, (18, 28, 42), (52, 72, 110)), crng, rng, shape, px_per_mm)
    if kind == "slate":
        v = float(crng.uniform(38, 78))
        base = np.array([v * crng.uniform(1.0, 1.15), v * crng.uniform(0.98, 1.08), v], np.float32)
        layers = cv2.resize(rng.standard_normal((64, 6)).astype(np.float32), (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
        speck = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 0.7)
        return base[None, None, :] * (1.0 + 0.06 * layers + 0.05 * speck + 0.05 * smooth(rng, shape, 6))[..., None]
    if kind == "glass":
        # a glass top over a dark floor: dim, tinted, with soft reflections of the room
        base = _colour(crng, (30, 35, 28), (62, 66, 58))
        ang = float(crng.uniform(0, np.pi))
        u = (np.cos(ang) * x + np.sin(ang) * y) / 400.0
        streaks = np.zeros(shape, np.float32)
        for _ in range(int(crng.integers(1, 4))):
            c, wd = float(crng.uniform(-1.5, 1.5)), float(crng.uniform(0.05, 0.25))
            streaks += float(crng.uniform(0.4, 1.2)) * np.exp(-((u - c) ** 2) / (2 * wd**2))
        img = base[None, None, :] * (1.0 + 0.15 * smooth(rng, shape, 4))[..., None]
        return img + (streaks * 55.0)[..., None]
    if kind == "gingham":
        light = _colour(crng, (225, 225, 225), (252, 252, 252))
        dye = _colour(crng, (20, 20, 20), (200, 160, 200))
        check = float(crng.uniform(8.0, 16.0))
        bx, by = _square(x, 2 * check, 0.5, px_per_mm), _square(y, 2 * check, 0.5, px_per_mm)
        cover = (0.5 * bx + 0.5 * by)[..., None]  # half dyed where one band crosses, full where both do
        img = light * (1 - cover) + dye * cover
        return img * (1.0 + _weave(x, y, px_per_mm) + 0.03 * smooth(rng, shape, 8))[..., None]
    if kind == "stripes":
        c1 = _colour(crng, (150, 150, 150), (245, 245, 245))
        c2 = _colour(crng, (30, 30, 30), (200, 180, 200))
        period, duty = float(crng.uniform(8.0, 40.0)), float(crng.uniform(0.15, 0.5))
        ang = float(crng.choice([0.0, np.pi / 2, np.pi / 4]))
        s = _square(np.cos(ang) * x + np.sin(ang) * y, period, duty, px_per_mm)[..., None]
        img = c1 * (1 - s) + c2 * s
        return img * (1.0 + _weave(x, y, px_per_mm) + 0.03 * smooth(rng, shape, 8))[..., None]
    if kind == "dots":
        ground = _colour(crng, (20, 20, 20), (220, 200, 220))
        dot = np.float32(255.0) - ground * np.float32(crng.uniform(0.1, 0.5))
        pitch = float(crng.uniform(14.0, 30.0))
        rad = pitch * float(crng.uniform(0.12, 0.3))
        fx, fy = np.mod(x, pitch) - pitch / 2, np.mod(y + (np.floor(x / pitch) % 2) * pitch / 2, pitch) - pitch / 2
        d = np.sqrt(fx**2 + fy**2)
        s = np.clip(0.5 + (rad - d) * px_per_mm, 0.0, 1.0)[..., None]
        img = ground * (1 - s) + dot * s
        return img * (1.0 + _weave(x, y, px_per_mm) + 0.03 * smooth(rng, shape, 8))[..., None]
    if kind == "paper":
        base = _colour(crng, (238, 238, 238), (250, 252, 252)) if crng.random() < 0.6 else _colour(crng, (95, 135, 170), (130, 170, 205))
        fibre = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 1.2)
        return base[None, None, :] * (1.0 + 0.02 * fibre + 0.02 * smooth(rng, shape, 10))[..., None]
    raise SimulatorError(f"unknown table {kind!r}: expected one of {', '.join(EDITION_TABLES)}")
