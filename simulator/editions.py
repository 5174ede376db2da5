"""Procedural piecepack editions: a whole set, its table and its light, sampled from one seed.

The five named looks (simulator.looks.LOOKS) are fixtures; real piecepacks are far more
varied. ``edition(seed)`` draws an :class:`Edition`:

- tiles: material (paper, plastic, acrylic, wood), face colour from near-black to white
  (wood species from birch to wenge, with grain), thickness, corner radius, edge colour,
  a printed frame (line, double line, band) or none, a back;
- inks: a palette per suit (classic red/black/green/blue, bright, gold crowns, light inks on
  dark tiles, one ink for all suits, burnt into wood), kept readable against the face;
- suit symbols (one design per suit out of several), numeral font (cv2 Hershey sans, mono
  or script, drawn serif, mono, engraved outline or hand-drawn strokes), numeral size and
  weight, ace as spiral / suit symbol / "A", null as blank / dot / ring;
- coins (the tiles' material, wood, plastic, metal, with their own face and value ink),
  pawns (shape and colours), dice;
- the table it stands on (simulator.render.ALL_TABLES) and the kind of light (LIGHTS).

Every edition belongs to families (``Edition.families``): tiles light / mid / dark (face
luma), material, framed / unframed, table kind and light kind, so results can be grouped.
``edition_conditions(ed, seed)`` turns the edition's table and light into render conditions
for one photo: the light kind fixes the range, the photo's seed picks within it.

The same seed always gives the same edition (``Edition.look.name`` is ``"edition-SEED"``).
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

import cv2
import numpy as np

from simulator import looks as L
from simulator.errors import SimulatorError

BGR = tuple[int, int, int]
SUITS = ("S", "M", "C", "A")

MATERIALS = ("paper", "plastic", "acrylic", "wood")
_MATERIAL_P = (0.25, 0.3, 0.15, 0.3)
TONES = ("light", "mid", "dark")
#: face luma (0-255, BT.601) at or above which tiles are "light", below which "dark"
LIGHT_LUMA, DARK_LUMA = 165.0, 95.0
TABLE_KINDS = ("wood-light", "wood-dark", "felt", "slate", "glass", "gingham", "stripes", "dots", "paper", "laminate", "cloth")
LIGHTS = ("neutral", "warm", "cool", "dim", "spot", "window", "hard")
PALETTES = ("classic", "bright", "gold-crowns", "light-on-dark", "mono", "burnt")
FRAMES = ("none", "line", "double", "band")
SYMBOL_STYLES = {
    "S": ("sun-rays", "sun-star", "sun-ring", "sun-disc"),
    "M": ("moon-crescent", "moon-slim", "moon-half", "moon-star"),
    "C": ("crown-three", "crown-five", "crown-flat"),
    "A": ("arms-fleur", "arms-shield", "arms-crossed", "arms-cross"),
}
#: numeral fonts: name -> (Look.font value or None for "hand-K", stroke weight range)
FONTS = {
    "sans": (cv2.FONT_HERSHEY_DUPLEX, (0.05, 0.16)),
    "mono": (cv2.FONT_HERSHEY_SIMPLEX, (0.08, 0.15)),
    "script": (cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, (0.08, 0.14)),
    "stroke": ("stroke", (0.07, 0.14)),
    "italic": ("stroke-italic", (0.07, 0.12)),
    "serif": ("serif", (0.07, 0.12)),
    "square": ("mono", (0.07, 0.13)),
    "engraved": ("engraved", (0.12, 0.18)),
    "hand": (None, (0.06, 0.12)),
}
ACES = ("spiral", "symbol", "A")
NULLS = ("blank", "dot", "ring")
COIN_MATERIALS = ("same", "wood", "plastic", "metal")
PAWN_SHAPES = ("pawn", "cylinder", "cone")

# wood species, light to dark (BGR): birch, maple, beech, oak, cherry, teak, mahogany, walnut, wenge
_WOODS: tuple[BGR, ...] = (
    L._hex("#EBD9B4"), L._hex("#E2C79A"), L._hex("#D6B283"), L._hex("#C49A62"), L._hex("#B07A4F"),
    L._hex("#9A6A3E"), L._hex("#7A3F28"), L._hex("#5A3B26"), L._hex("#3A2A20"),
)


@dataclass(frozen=True)
class Edition:
    """One sampled piecepack edition with the table and light it is photographed in."""

    seed: int
    look: L.Look
    table: str  # a simulator.render.ALL_TABLES kind
    table_colour: int  # seed of the table's colours
    light: str  # one of LIGHTS
    families: dict  # axis -> value: tiles, material, frame, table, light
    params: dict  # the sampled choices in words and numbers (JSON-ready)

    def summary(self) -> dict:
        """JSON-ready description (the render truth's ``edition``)."""
        return {"seed": self.seed, "look": self.look.name, "families": dict(self.families), "params": dict(self.params)}


def luma(bgr) -> float:
    b, g, r = (float(v) for v in bgr)
    return 0.114 * b + 0.587 * g + 0.299 * r


def tone_of(face: BGR) -> str:
    y = luma(face)
    return "light" if y >= LIGHT_LUMA else "dark" if y < DARK_LUMA else "mid"


def _bgr(h: float, l: float, s: float) -> BGR:
    """HLS (each 0..1) -> a BGR uint8 triple."""
    r, g, b = colorsys.hls_to_rgb(h % 1.0, float(np.clip(l, 0, 1)), float(np.clip(s, 0, 1)))
    return (int(round(b * 255)), int(round(g * 255)), int(round(r * 255)))


def _scale(c: BGR, f: float) -> BGR:
    return tuple(int(np.clip(round(v * f), 0, 255)) for v in c)


def _readable(ink: BGR, face: BGR, min_diff: float = 60.0) -> BGR:
    """``ink`` made lighter or darker (keeping its hue) until its luma differs from the face's by ``min_diff``."""
    fy = luma(face)
    b, g, r = (v / 255.0 for v in ink)
    h, l, s = colorsys.rgb_to_hls(r, g, b)
    darker = fy >= 128
    for _ in range(40):
        cand = _bgr(h, l, s)
        if abs(luma(cand) - fy) >= min_diff:
            return cand
        l = l - 0.03 if darker else l + 0.03
        if not 0.0 <= l <= 1.0:
            break
    return (20, 20, 20) if darker else (240, 240, 240)


def _pick(rng: np.random.Generator, options, p=None):
    return options[int(rng.choice(len(options), p=p))]


def _face(rng: np.random.Generator, material: str) -> tuple[BGR, float, str]:
    """(face colour, wood grain strength, words for it)."""
    if material == "wood":
        t = float(rng.uniform(0, len(_WOODS) - 1))
        i = min(int(t), len(_WOODS) - 2)
        a, b = np.array(_WOODS[i], float), np.array(_WOODS[i + 1], float)
        c = a + (b - a) * (t - i)
        c *= rng.uniform(0.95, 1.05)
        return tuple(int(np.clip(v, 0, 255)) for v in c), float(rng.uniform(0.025, 0.06)), f"wood {t / (len(_WOODS) - 1):.2f} dark"
    if material == "paper":
        kind = _pick(rng, ("white", "cream", "grey", "kraft", "pastel", "black"), (0.3, 0.25, 0.1, 0.1, 0.15, 0.1))
        h = float(rng.uniform(0, 1))
        c = {"white": _bgr(0.1, rng.uniform(0.95, 0.99), 0.1), "cream": _bgr(rng.uniform(0.1, 0.14), rng.uniform(0.86, 0.93), rng.uniform(0.3, 0.6)),
             "grey": _bgr(h, rng.uniform(0.7, 0.85), 0.03), "kraft": _bgr(rng.uniform(0.07, 0.1), rng.uniform(0.55, 0.68), rng.uniform(0.3, 0.45)),
             "pastel": _bgr(h, rng.uniform(0.78, 0.88), rng.uniform(0.35, 0.7)), "black": _bgr(h, rng.uniform(0.06, 0.14), 0.05)}[kind]
        return c, 0.0, f"{kind} paper"
    if material == "plastic":
        kind = _pick(rng, ("white", "ivory", "grey", "black", "colour", "dark colour"), (0.2, 0.15, 0.15, 0.2, 0.1, 0.2))
        h = float(rng.uniform(0, 1))
        c = {"white": _bgr(0.6, rng.uniform(0.9, 0.96), 0.05), "ivory": _bgr(rng.uniform(0.1, 0.14), rng.uniform(0.85, 0.92), rng.uniform(0.3, 0.6)),
             "grey": _bgr(h, rng.uniform(0.35, 0.7), 0.04), "black": _bgr(h, rng.uniform(0.05, 0.12), 0.05),
             "colour": _bgr(h, rng.uniform(0.4, 0.6), rng.uniform(0.5, 0.8)), "dark colour": _bgr(h, rng.uniform(0.12, 0.25), rng.uniform(0.4, 0.7))}[kind]
        return c, 0.0, f"{kind} plastic"
    if material == "acrylic":
        kind = _pick(rng, ("white", "black", "tinted", "frosted"), (0.3, 0.3, 0.25, 0.15))
        h = float(rng.uniform(0, 1))
        c = {"white": _bgr(0.6, rng.uniform(0.92, 0.97), 0.05), "black": _bgr(h, rng.uniform(0.03, 0.08), 0.05),
             "tinted": _bgr(h, rng.uniform(0.2, 0.45), rng.uniform(0.5, 0.9)), "frosted": _bgr(h, rng.uniform(0.78, 0.88), rng.uniform(0.05, 0.25))}[kind]
        return c, 0.0, f"{kind} acrylic"
    raise SimulatorError(f"unknown material {material!r}")


def _inks(rng: np.random.Generator, palette: str, face: BGR) -> dict:
    dark_face = luma(face) < 128
    j = lambda: float(rng.normal(0, 0.025))  # noqa: E731 - a small hue jitter per ink
    if palette == "mono":
        c = _bgr(rng.uniform(0, 1), 0.92 if dark_face else 0.1, rng.uniform(0, 0.3)) if rng.random() < 0.7 else _bgr(0.12, 0.55, 0.75)
        inks = {s: c for s in SUITS}
    elif palette == "burnt":
        c = _bgr(rng.uniform(0.05, 0.08), rng.uniform(0.1, 0.22), rng.uniform(0.3, 0.6))
        inks = {s: c for s in SUITS}
    elif palette == "light-on-dark":
        inks = {"S": _bgr(0.03 + j(), rng.uniform(0.6, 0.7), 0.9), "M": _bgr(0.6, rng.uniform(0.85, 0.97), 0.05),
                "C": _bgr(0.14 + j(), 0.55, 0.9) if rng.random() < 0.6 else _bgr(0.33 + j(), 0.62, 0.7),
                "A": _bgr(0.57 + j(), rng.uniform(0.62, 0.72), 0.85)}
    else:
        inks = {"S": _bgr((0.0 if palette == "classic" else 0.055) + j(), rng.uniform(0.38, 0.5), rng.uniform(0.75, 1.0)),
                "M": _bgr(rng.uniform(0, 1), rng.uniform(0.05, 0.16), rng.uniform(0, 0.25)),
                "C": _bgr(0.38 + j(), rng.uniform(0.25, 0.4), rng.uniform(0.6, 1.0)),
                "A": _bgr(0.6 + j(), rng.uniform(0.3, 0.45), rng.uniform(0.7, 1.0))}
        if palette == "gold-crowns":
            inks["C"] = _bgr(0.12 + j(), rng.uniform(0.4, 0.5), 0.85)
        if dark_face:  # a dark face with a dark-ink palette: the moon ink turns light, as real dark sets do
            inks["M"] = _bgr(0.6, 0.9, 0.05)
    return {s: _readable(c, face) for s, c in inks.items()}


def _palette_for(rng: np.random.Generator, material: str, face: BGR) -> str:
    if luma(face) < 110:
        return _pick(rng, ("light-on-dark", "mono", "gold-crowns"), (0.7, 0.2, 0.1))
    if material == "wood":
        return _pick(rng, ("classic", "burnt", "mono", "gold-crowns"), (0.35, 0.3, 0.15, 0.2))
    return _pick(rng, ("classic", "bright", "gold-crowns", "mono"), (0.4, 0.25, 0.2, 0.15))


def edition(seed: int) -> Edition:
    """The edition of ``seed`` (any int >= 0): deterministic, and registered for drawing."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise SimulatorError(f"edition seed {seed!r}: expected an integer >= 0")
    seed = int(seed)
    rng = np.random.default_rng([seed, 0xED17])
    material = _pick(rng, MATERIALS, _MATERIAL_P)
    face, grain, face_words = _face(rng, material)
    tone = tone_of(face)
    palette = _palette_for(rng, material, face)
    inks = _inks(rng, palette, face)
    symbols = {s: _pick(rng, SYMBOL_STYLES[s]) for s in SUITS}
    font_name = _pick(rng, tuple(FONTS))
    font, (w0, w1) = FONTS[font_name]
    if font is None:
        font = f"hand-{int(rng.integers(1 << 20))}"
    weight = float(rng.uniform(w0, w1))
    frame_style = _pick(rng, FRAMES, (0.45, 0.25, 0.1, 0.2))
    frame = None
    if frame_style != "none":
        frame_ink = _pick(rng, (inks["M"], _readable(_bgr(0.12, 0.5, 0.8), face, 40), _readable(_scale(face, 0.6), face, 50)))
        width = float(rng.uniform(0.4, 1.2)) if frame_style != "band" else float(rng.uniform(1.5, 3.0))
        inset = 0.0 if frame_style == "band" else float(rng.uniform(1.0, 2.2))
        frame = (frame_style, frame_ink, round(width, 2), round(inset, 2))
    thick = {"paper": (1.0, 2.0), "plastic": (2.0, 4.0), "acrylic": (2.5, 5.0), "wood": (3.0, 6.0)}[material]
    tile_thickness = float(rng.uniform(*thick))
    side = {"paper": _bgr(0.1, rng.uniform(0.75, 0.9), 0.1), "wood": _scale(face, rng.uniform(0.75, 0.9)),
            "plastic": _scale(face, 0.85), "acrylic": _scale(face, 0.7)}[material]
    back = face if rng.random() < 0.6 else _bgr(rng.uniform(0, 1), rng.uniform(0.15, 0.8), rng.uniform(0.2, 0.8))
    back_ink = _readable(inks["M"], back, 50)
    gloss = float(rng.uniform(*{"paper": (0.02, 0.1), "plastic": (0.2, 0.6), "acrylic": (0.6, 0.9), "wood": (0.05, 0.2)}[material]))
    # coins
    coin_material = _pick(rng, COIN_MATERIALS, (0.5, 0.2, 0.15, 0.15))
    if coin_material == "same":
        coin_face, coin_mat = _scale(face, rng.uniform(0.95, 1.03)), material
    elif coin_material == "wood":
        coin_face, coin_mat = _WOODS[int(rng.integers(len(_WOODS)))], "wood"
    elif coin_material == "metal":
        coin_face, coin_mat = _pick(rng, (L._hex("#C9A449"), L._hex("#C0C0C4"), L._hex("#B87333"))), "metal"
    else:
        coin_face, coin_mat = _bgr(rng.uniform(0, 1), rng.uniform(0.1, 0.9), rng.uniform(0, 0.5)), "plastic"
    coin_ink = _readable(_pick(rng, ((25, 25, 25), (240, 240, 240), inks["M"])), coin_face, 70)
    # pawns: the suit inks, or the classic colours when the inks are one colour, kept off pure black
    if palette in ("mono", "burnt"):
        pawn_inks = {"S": L._hex("#C0392B"), "M": L._hex("#202020"), "C": L._hex("#2E8B57"), "A": L._hex("#1F4E9A")}
    else:
        pawn_inks = dict(inks)
    # dice: white or black, whichever the suit inks show on
    die_face = (235, 235, 235) if np.mean([luma(c) for c in inks.values()]) < 128 else (30, 30, 30)
    look = L.Look(
        name=f"edition-{seed}",
        description=f"edition {seed}: {face_words}, {palette} inks, {font_name} numerals, frame {frame_style}",
        inks=inks, symbols=symbols, font=font, digit_weight=weight, material=material,
        face=face, back=back, back_ink=back_ink, side=side,
        tile_thickness_mm=tile_thickness, corner_radius_mm=float(rng.uniform(0.5, 4.0)),
        coin_face=coin_face, coin_edge=_scale(coin_face, 0.75), coin_thickness_mm=float(rng.uniform(1.6, 4.5)),
        null_mark=_pick(rng, NULLS), ace_mark=_pick(rng, ACES), coin_value_ink=coin_ink,
        pawn_shape=_pick(rng, PAWN_SHAPES), pawn_inks=pawn_inks,
        die_face=die_face,
        gloss=gloss, frame=frame, grain=grain if material == "wood" else 0.035, coin_material=coin_mat,
        digit_mm=float(rng.uniform(17.0, 26.0)), corner_mm=float(rng.uniform(8.0, 12.0)),
    )
    table = _pick(rng, TABLE_KINDS)
    light = _pick(rng, LIGHTS)
    families = {"tiles": tone, "material": material, "frame": "framed" if frame else "unframed", "table": table, "light": light}
    params = {"face": face_words, "face_bgr": list(face), "palette": palette, "font": font_name, "frame": frame_style,
              "ace": look.ace_mark, "null": look.null_mark, "symbols": symbols, "coins": coin_material,
              "pawns": look.pawn_shape, "table": table, "light": light}
    L.register_look(look)
    return Edition(seed, look, table, int(rng.integers(1 << 16)), light, families, params)


def edition_conditions(ed: Edition, seed: int) -> dict:
    """Render-condition overrides for one photo of ``ed``: its table, and its light drawn from the photo's seed."""
    rng = np.random.default_rng([seed, ed.seed, 0x11])
    c: dict = {"table": ed.table, "table_colour": ed.table_colour}
    if ed.light == "warm":
        c.update(white_balance=float(rng.uniform(-1.0, -0.55)), exposure=float(rng.uniform(0.85, 1.05)))
    elif ed.light == "cool":
        c.update(white_balance=float(rng.uniform(0.5, 1.0)), exposure=float(rng.uniform(0.9, 1.1)))
    elif ed.light == "dim":
        c.update(exposure=float(rng.uniform(0.45, 0.65)), noise=float(rng.uniform(4.0, 8.0)), white_balance=float(rng.uniform(-0.8, 0.2)))
    elif ed.light == "spot":
        c.update(spot=float(rng.uniform(0.5, 0.9)), uneven=0.0, white_balance=float(rng.uniform(-0.9, -0.2)))
    elif ed.light == "window":
        c.update(window=float(rng.uniform(0.5, 1.0)), white_balance=float(rng.uniform(0.2, 0.8)),
                 light_elevation=float(rng.uniform(20, 40)), shadow=float(rng.uniform(0.4, 0.6)))
    elif ed.light == "hard":
        c.update(shadow=float(rng.uniform(0.55, 0.75)), shadow_soft=float(rng.uniform(0.15, 0.4)),
                 light_elevation=float(rng.uniform(25, 45)))
    return c
