"""Piece-set looks: how one edition of the piecepack draws its tiles, coins, pawns and dice.

A ``Look`` is a frozen description (colours in BGR, fonts, symbol styles, materials, sizes in mm).
``sprite(look, kind, code, px_per_mm)`` draws the top face of one flat piece as a BGRA uint8
image (alpha 255 inside the piece, 0 outside, antialiased edge); sprites are drawn once at
``MASTER_PX_PER_MM`` and cached at a few power-of-1.4 levels so the renderer can pick one
that is never magnified much and never minified by more than ~1.4x (no aliasing of strokes).

``LOOKS`` maps a name to a Look: ``"standard"`` (the standard piecepack look of the brief)
and other editions with other symbols, fonts, inks within each suit's colour family and
materials. Looks listed in ``HELD_OUT_LOOKS`` must never be used to build vision's default
model: the calibration benchmark needs a look it has never seen. Procedural editions
(``simulator.editions``) are Looks outside ``LOOKS``, made drawable by ``register_look``; the
parts only they use (more fonts, symbols, frames, materials) are drawn in ``simulator.glyphs``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from simulator import masks as M
from simulator import decks
from simulator.decks import CARD_H_MM, CARD_W_MM  # noqa: F401 (the cards' size, beside the pieces')
from simulator.errors import SimulatorError
from simulator.painting import MASTER_PX_PER_MM
from simulator.painting import finish as _finish
from simulator.painting import material as _material
from simulator.painting import paint as _paint
from simulator.painting import rounded_rect_mask as _rounded_rect_mask
from simulator.painting import text_mask as _text_mask

BGR = tuple[int, int, int]

LEVELS: tuple[float, ...] = (1.0, 1.4, 2.0, 2.8, 4.0, 5.6, 8.0)

TILE_MM = 50.8  # 2 inch
COIN_MM = 19.05  # 3/4 inch diameter
PAWN_DIAMETER_MM = 12.7  # 1/2 inch
PAWN_HEIGHT_MM = 22.2  # 7/8 inch
DIE_MM = 12.7  # 1/2 inch


@dataclass(frozen=True)
class Look:
    """One edition's appearance. Colours are BGR uint8 triples; lengths are mm."""

    name: str
    description: str
    inks: dict  # suit code -> BGR ink of that suit
    symbols: dict  # suit code -> symbol style name (see _SYMBOLS)
    font: int | str  # cv2.FONT_HERSHEY_* for the digits, "stroke" / "stroke-italic" (drawn glyphs), or a glyphs.FONTS name
    digit_weight: float  # stroke thickness as a fraction of the digit height
    material: str  # "wood" | "paper" | "plastic": face texture and gloss
    face: BGR  # tile face background
    back: BGR  # tile back background
    back_ink: BGR  # the 2x2 grid lines of the back
    side: BGR  # tile edge (thickness) colour
    tile_thickness_mm: float
    corner_radius_mm: float
    coin_face: BGR
    coin_edge: BGR
    coin_thickness_mm: float
    null_mark: str = "blank"  # "blank" | "ring" | "dot": what a null tile shows in the centre
    ace_mark: str = "symbol"  # "symbol" | "A" | "spiral"
    coin_value_ink: BGR = (25, 25, 25)
    pawn_shape: str = "pawn"  # "pawn" | "cylinder" | "cone"
    pawn_inks: dict = field(default_factory=dict)  # suit -> BGR (default: the suit ink)
    die_face: BGR = (235, 235, 235)
    card_face: BGR = (240, 245, 248)
    card_ink: BGR = (60, 40, 30)
    gloss: float = 0.2  # 0 matte .. 1 glossy: how strong glare gets on the pieces
    frame: tuple | None = None  # printed tile frame: (style "line"|"double"|"band", BGR ink, width mm, inset mm)
    grain: float = 0.035  # wood only: how strongly the grain shades the face
    coin_material: str | None = None  # coins' own material (None: the tiles' material)
    digit_mm: float = 23.0  # cap height of a tile's numeral
    corner_mm: float = 11.0  # size of the suit symbol in a tile's corner

    def ink(self, suit: str) -> BGR:
        return self.inks[suit]

    def pawn_ink(self, suit: str) -> BGR:
        return self.pawn_inks.get(suit, self.inks[suit])


def _hex(text: str) -> BGR:
    text = text.lstrip("#")
    r, g, b = (int(text[i : i + 2], 16) for i in (0, 2, 4))
    return (b, g, r)


LOOKS: dict[str, Look] = {
    "standard": Look(
        name="standard",
        description="standard piecepack: cream tiles, sans digits, suns/moons/crowns/arms in the brief's colours",
        inks={"S": _hex("#D55E00"), "M": _hex("#1E1E1E"), "C": _hex("#009E73"), "A": _hex("#0072B2")},
        symbols={"S": "sun-rays", "M": "moon-crescent", "C": "crown-three", "A": "arms-fleur"},
        font=cv2.FONT_HERSHEY_SIMPLEX,
        digit_weight=0.11,
        material="plastic",
        face=_hex("#F3EFE4"),
        back=_hex("#F3EFE4"),
        back_ink=_hex("#3A3A3A"),
        side=_hex("#C9C2B0"),
        tile_thickness_mm=3.2,
        corner_radius_mm=1.5,
        coin_face=_hex("#EDE6D2"),
        coin_edge=_hex("#B9AE93"),
        coin_thickness_mm=3.2,
        gloss=0.35,
    ),
    "wood-classic": Look(
        name="wood-classic",
        description="laser-etched birch: engraved stroke digits, star suns, five-point crowns, shield arms",
        inks={"S": _hex("#B3261E"), "M": _hex("#2A2522"), "C": _hex("#2E7D32"), "A": _hex("#1A3F8F")},
        symbols={"S": "sun-star", "M": "moon-slim", "C": "crown-five", "A": "arms-shield"},
        font="stroke",
        digit_weight=0.11,
        material="wood",
        face=_hex("#E2C79A"),
        back=_hex("#D8BC8C"),
        back_ink=_hex("#6B4A2B"),
        side=_hex("#B08A5A"),
        tile_thickness_mm=4.8,
        corner_radius_mm=0.8,
        coin_face=_hex("#DDBF8E"),
        coin_edge=_hex("#A37E4E"),
        coin_thickness_mm=4.0,
        pawn_shape="cylinder",
        gloss=0.1,
    ),
    "paper-print": Look(
        name="paper-print",
        description="print-and-play on card stock: white paper, bright inks, ring nulls, crossed-sword arms",
        inks={"S": _hex("#F05A28"), "M": _hex("#101010"), "C": _hex("#2DA44E"), "A": _hex("#1F8FE0")},
        symbols={"S": "sun-ring", "M": "moon-crescent", "C": "crown-three", "A": "arms-crossed"},
        font=cv2.FONT_HERSHEY_DUPLEX,
        digit_weight=0.05,
        material="paper",
        face=_hex("#FAFAF7"),
        back=_hex("#FAFAF7"),
        back_ink=_hex("#7A7A7A"),
        side=_hex("#D9D6CF"),
        tile_thickness_mm=1.6,
        corner_radius_mm=2.5,
        coin_face=_hex("#F7F5EE"),
        coin_edge=_hex("#CFCBC0"),
        coin_thickness_mm=1.6,
        null_mark="ring",
        ace_mark="A",
        pawn_shape="cone",
        gloss=0.05,
    ),
    "plastic-bold": Look(
        name="plastic-bold",
        description="injection-moulded plastic: grey-white, heavy digits, glossy",
        inks={"S": _hex("#E0301E"), "M": _hex("#262626"), "C": _hex("#3A9A1E"), "A": _hex("#0050C8")},
        symbols={"S": "sun-star", "M": "moon-half", "C": "crown-five", "A": "arms-fleur"},
        font=cv2.FONT_HERSHEY_SIMPLEX,
        digit_weight=0.17,
        material="plastic",
        face=_hex("#E9EBEC"),
        back=_hex("#2F4F7F"),
        back_ink=_hex("#E9EBEC"),
        side=_hex("#B8BCC0"),
        tile_thickness_mm=3.0,
        corner_radius_mm=3.0,
        coin_face=_hex("#E4E6E8"),
        coin_edge=_hex("#9EA3A8"),
        coin_thickness_mm=2.5,
        gloss=0.6,
    ),
    "unseen-ivory": Look(
        name="unseen-ivory",
        description="held out: ivory tiles on walnut edges, slanted stroke digits, teal crowns",
        inks={"S": _hex("#C8501A"), "M": _hex("#3C3C44"), "C": _hex("#1B7F6A"), "A": _hex("#23448C")},
        symbols={"S": "sun-ring", "M": "moon-slim", "C": "crown-five", "A": "arms-crossed"},
        font="stroke-italic",
        digit_weight=0.085,
        material="wood",
        face=_hex("#F1E6CC"),
        back=_hex("#5A3B24"),
        back_ink=_hex("#E8D8B8"),
        side=_hex("#5A3B24"),
        tile_thickness_mm=4.0,
        corner_radius_mm=1.0,
        coin_face=_hex("#EADCBC"),
        coin_edge=_hex("#5A3B24"),
        coin_thickness_mm=3.5,
        ace_mark="A",
        pawn_shape="cone",
        gloss=0.15,
    ),
}

HELD_OUT_LOOKS: tuple[str, ...] = ("unseen-ivory",)


def get_look(name: str | None) -> Look:
    """The look called ``name`` (None means "standard"); raises SimulatorError listing the names."""
    if name is None:
        return LOOKS["standard"]
    if name not in LOOKS:
        raise SimulatorError(f"unknown look {name!r}: expected one of {', '.join(LOOKS)}")
    return LOOKS[name]


# ---------------------------------------------------------------------------------------------
# symbols and numerals as masks (simulator.masks draws the primitives)


def _ngon(cx, cy, r, n, start=-np.pi / 2) -> np.ndarray:
    a = start + np.arange(n) * 2 * np.pi / n
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)


def _symbol_mask(shape: tuple[int, int], style: str, cx: float, cy: float, size: float) -> np.ndarray:
    """Mask of one suit symbol of ``style`` fitting a ``size`` px box centred at (cx, cy)."""
    r = size / 2.0
    if style == "sun-rays":
        m = M.circle_mask(shape, (cx, cy), r * 0.52)
        rays = []
        for k in range(8):
            a = k * np.pi / 4
            d = np.array([np.cos(a), np.sin(a)])
            n = np.array([-d[1], d[0]])
            base = np.array([cx, cy]) + d * r * 0.62
            rays.append(np.stack([base + n * r * 0.16, np.array([cx, cy]) + d * r, base - n * r * 0.16]))
        return np.maximum(m, M.poly_mask(shape, rays))
    if style == "sun-star":
        a = -np.pi / 2 + np.arange(24) * np.pi / 12
        rad = np.where(np.arange(24) % 2 == 0, r, r * 0.62)
        return M.poly_mask(shape, [np.stack([cx + rad * np.cos(a), cy + rad * np.sin(a)], 1)])
    if style == "sun-ring":
        outer = M.circle_mask(shape, (cx, cy), r * 0.72)
        inner = M.circle_mask(shape, (cx, cy), r * 0.50)
        dot = M.circle_mask(shape, (cx, cy), r * 0.26)
        ticks = []
        for k in range(12):
            a = k * np.pi / 6
            d = np.array([np.cos(a), np.sin(a)])
            n = np.array([-d[1], d[0]]) * r * 0.06
            p0, p1 = np.array([cx, cy]) + d * r * 0.78, np.array([cx, cy]) + d * r
            ticks.append(np.stack([p0 + n, p1 + n, p1 - n, p0 - n]))
        return np.maximum(np.maximum(outer - inner, dot), M.poly_mask(shape, ticks)).clip(0, 1)
    if style in ("moon-crescent", "moon-slim"):
        off = 0.42 if style == "moon-crescent" else 0.30
        outer = M.circle_mask(shape, (cx, cy), r * 0.92)
        inner = M.circle_mask(shape, (cx + r * off, cy - r * off * 0.55), r * 0.82)
        return (outer - inner).clip(0, 1)
    if style == "moon-half":
        outer = M.circle_mask(shape, (cx, cy), r * 0.9)
        inner = M.circle_mask(shape, (cx + r * 0.55, cy), r * 0.75)
        return (outer - inner).clip(0, 1)
    if style in ("crown-three", "crown-five"):
        k = 3 if style == "crown-three" else 5
        left, right, top, band, bottom = cx - r * 0.9, cx + r * 0.9, cy - r * 0.8, cy + r * 0.1, cy + r * 0.7
        pts = [(left, bottom), (left, top)]
        for i in range(k):
            x_peak = left + (right - left) * (i / (k - 1))
            if i > 0:
                pts.append(((x_peak + left + (right - left) * ((i - 1) / (k - 1))) / 2, band - r * 0.1))
            pts.append((x_peak, top))
        pts += [(right, top), (right, bottom)]
        m = M.poly_mask(shape, [np.array(pts)])
        if k == 3:
            for i in range(3):
                m = np.maximum(m, M.circle_mask(shape, (left + (right - left) * i / 2, top), r * 0.14))
        return m
    if style == "arms-fleur":
        petal = np.array([[cx, cy - r], [cx + r * 0.28, cy - r * 0.45], [cx + r * 0.16, cy + r * 0.1],
                          [cx - r * 0.16, cy + r * 0.1], [cx - r * 0.28, cy - r * 0.45]])
        side_l = np.array([[cx - r * 0.12, cy + r * 0.05], [cx - r * 0.55, cy - r * 0.5], [cx - r * 0.95, cy - r * 0.2],
                           [cx - r * 0.7, cy + r * 0.15], [cx - r * 0.45, cy + r * 0.05], [cx - r * 0.3, cy + r * 0.3]])
        side_r = side_l.copy()
        side_r[:, 0] = 2 * cx - side_r[:, 0]
        bar = np.array([[cx - r * 0.55, cy + r * 0.12], [cx + r * 0.55, cy + r * 0.12],
                        [cx + r * 0.55, cy + r * 0.32], [cx - r * 0.55, cy + r * 0.32]])
        foot = np.array([[cx - r * 0.14, cy + r * 0.3], [cx + r * 0.14, cy + r * 0.3],
                         [cx + r * 0.3, cy + r * 0.95], [cx - r * 0.3, cy + r * 0.95]])
        return M.poly_mask(shape, [petal, side_l, side_r, bar, foot])
    if style == "arms-shield":
        t = np.linspace(0, np.pi / 2, 10)
        right = np.stack([cx + r * 0.8 * np.cos(t), cy + r * 0.1 + r * 0.85 * np.sin(t)], 1)
        left = right[::-1].copy()
        left[:, 0] = 2 * cx - left[:, 0]
        outline = np.vstack([[[cx - r * 0.8, cy - r * 0.9], [cx + r * 0.8, cy - r * 0.9]], right,
                             [[cx, cy + r * 0.95]], left])
        m = M.poly_mask(shape, [outline])
        stripe = np.array([[cx - r * 0.8, cy - r * 0.25], [cx + r * 0.8, cy - r * 0.25],
                           [cx + r * 0.8, cy - r * 0.1], [cx - r * 0.8, cy - r * 0.1]])
        return (m - 0.85 * M.poly_mask(shape, [stripe])).clip(0, 1)
    if style == "arms-crossed":
        polys = []
        for sgn in (-1, 1):
            d = np.array([sgn * 0.7071, -0.7071])
            n = np.array([-d[1], d[0]])
            p0, p1 = np.array([cx, cy]) - d * r * 0.95, np.array([cx, cy]) + d * r * 0.95
            polys.append(np.stack([p0 + n * r * 0.09, p1 + n * r * 0.05, p1 + d * r * 0.12, p1 - n * r * 0.05, p0 - n * r * 0.09]))
            g = np.array([cx, cy]) - d * r * 0.55
            polys.append(np.stack([g + n * r * 0.3 + d * r * 0.06, g - n * r * 0.3 + d * r * 0.06,
                                   g - n * r * 0.3 - d * r * 0.06, g + n * r * 0.3 - d * r * 0.06]))
        return M.poly_mask(shape, polys)
    from simulator import glyphs

    if style in glyphs.SYMBOLS:
        return glyphs.symbol_mask(shape, style, cx, cy, size)
    raise SimulatorError(f"unknown symbol style {style!r}")


def _master(look: Look, kind: str, code: str) -> np.ndarray:
    """The BGRA master sprite at MASTER_PX_PER_MM of one flat piece's top face."""
    s = MASTER_PX_PER_MM
    if kind in ("tile", "back"):
        n = int(round(TILE_MM * s))
        shape = (n, n)
        alpha = _rounded_rect_mask(n, n, look.corner_radius_mm * s)
        if kind == "back":
            img = _material(shape, look.back, look.material, f"{look.name}/back", look.grain)
            w = max(2, int(round(1.1 * s)))
            inset = 2.5 * s
            lines = [np.array([[n / 2 - w / 2, inset], [n / 2 + w / 2, inset], [n / 2 + w / 2, n - inset], [n / 2 - w / 2, n - inset]]),
                     np.array([[inset, n / 2 - w / 2], [n - inset, n / 2 - w / 2], [n - inset, n / 2 + w / 2], [inset, n / 2 + w / 2]])]
            _paint(img, M.poly_mask(shape, lines), look.back_ink)
            border = M.inset_mask_rect(n, n, inset - w) - M.inset_mask_rect(n, n, inset)
            _paint(img, border.clip(0, 1), look.back_ink)
            return _finish(img, alpha)
        suit, rank = code[0], code[1]
        img = _material(shape, look.face, look.material, f"{look.name}/{code}", look.grain)
        if look.frame is not None:
            from simulator import glyphs

            _paint(img, glyphs.frame_mask(shape, look.frame, s), look.frame[1])
        ink = look.ink(suit)
        corner = look.corner_mm * s
        _paint(img, _symbol_mask(shape, look.symbols[suit], 4.0 * s + corner / 2, 4.0 * s + corner / 2, corner), ink)
        c = n / 2
        if rank == "a" and look.ace_mark == "symbol":
            _paint(img, _symbol_mask(shape, look.symbols[suit], c, c + 1.5 * s, 25.0 * s), ink)
        elif rank == "a" and look.ace_mark == "spiral":
            from simulator import glyphs

            _paint(img, glyphs.spiral_mask(shape, c, c + 1.5 * s, 11.0 * s, max(1.0, look.digit_weight * look.digit_mm * s)), ink)
        elif rank == "n":
            if look.null_mark == "ring":
                ring = M.circle_mask(shape, (c, c + 1.5 * s), 5.0 * s) - M.circle_mask(shape, (c, c + 1.5 * s), 3.6 * s)
                _paint(img, ring.clip(0, 1), ink)
            elif look.null_mark == "dot":
                _paint(img, M.circle_mask(shape, (c, c + 1.5 * s), 2.6 * s), ink)
        else:
            text = "A" if rank == "a" else rank
            _paint(img, _text_mask(shape, text, look.font, c, c + 1.5 * s, look.digit_mm * s, look.digit_weight), ink)
        return _finish(img, alpha)
    if kind in ("coin-value", "coin-suit"):
        n = int(round(COIN_MM * s))
        shape = (n, n)
        c = (n - 1) / 2
        alpha = M.circle_mask(shape, (c, c), n / 2 - 0.5)
        img = _material(shape, look.coin_face, look.coin_material or look.material, f"{look.name}/coin/{code}", look.grain)
        if kind == "coin-suit":
            _paint(img, _symbol_mask(shape, look.symbols[code], c, c, 12.5 * s), look.ink(code))
        else:
            _paint(img, M.circle_mask(shape, (c, 2.6 * s), 0.9 * s), look.coin_value_ink)
            if code != "n":
                text = "A" if code == "a" else code
                _paint(img, _text_mask(shape, text, look.font, c, c + 0.8 * s, 8.5 * s, look.digit_weight), look.coin_value_ink)
        return _finish(img, alpha)
    if kind == "die":
        # code: suit + face ("Sn", "Ss", "S2"...): the rank in the suit's ink, the suit face its symbol
        n = int(round(DIE_MM * s))
        shape = (n, n)
        c = (n - 1) / 2
        alpha = _rounded_rect_mask(n, n, 1.2 * s)
        img = _material(shape, look.die_face, "plastic", f"{look.name}/die/{code}")
        suit, face = code[0], code[1]
        if face == "s":
            _paint(img, _symbol_mask(shape, look.symbols[suit], c, c, 9.0 * s), look.ink(suit))
        elif face != "n":
            _paint(img, _text_mask(shape, face, look.font, c, c, 7.0 * s, look.digit_weight), look.ink(suit))
        return _finish(img, alpha)
    if kind == "card":
        return decks.card_master(look.name, code)
    raise SimulatorError(f"unknown sprite kind {kind!r}")


#: looks that are not in LOOKS (procedural editions) but can be drawn: name -> Look
_EXTRA_LOOKS: dict[str, Look] = {}


def register_look(look: Look) -> None:
    """Make ``look`` drawable by :func:`sprite` (its name must not be one of LOOKS).

    Sprites are cached by look name, so a name is bound to one Look for the process's life."""
    if look.name in LOOKS:
        raise SimulatorError(f"look name {look.name!r} is taken by a named look")
    known = _EXTRA_LOOKS.get(look.name)
    if known is not None and known != look:
        raise SimulatorError(f"look name {look.name!r} is already bound to another look")
    _EXTRA_LOOKS[look.name] = look


@lru_cache(maxsize=512)
def _master_cached(look_name: str, kind: str, code: str) -> np.ndarray:
    look = LOOKS.get(look_name) or _EXTRA_LOOKS.get(look_name)
    if look is None:
        raise SimulatorError(f"look {look_name!r} is neither named nor registered")
    return _master(look, kind, code)


@lru_cache(maxsize=2048)
def _level_cached(look_name: str, kind: str, code: str, level: float) -> np.ndarray:
    master = _master_cached(look_name, kind, code)
    if level >= MASTER_PX_PER_MM:
        return master
    f = level / MASTER_PX_PER_MM
    h, w = master.shape[:2]
    small = cv2.resize(master, (max(2, int(round(w * f))), max(2, int(round(h * f)))), interpolation=cv2.INTER_AREA)
    return small


def sprite(look: Look, kind: str, code: str, px_per_mm: float) -> tuple[np.ndarray, float]:
    """(premultiplied BGRA uint8 sprite, its px/mm) of a piece's top face, at the smallest level >= px_per_mm.

    kind: "tile" (code "S5"), "back" (code ""), "coin-value" (code a rank "3"), "coin-suit"
    (code a suit "S"), "die" (code suit+face "Ss", "M4"), "card" (code "<deck>:<face>", face "1".."10" or "back", deck a
    simulator.decks name such as "classic" or "deck-12"; a bare "7" or "back" is the classic deck).
    """
    level = LEVELS[-1]
    for lv in LEVELS:
        if lv >= px_per_mm:
            level = lv
            break
    img = _level_cached(look.name, kind, code, level)
    real = img.shape[1] / (_master_cached(look.name, kind, code).shape[1] / MASTER_PX_PER_MM)
    return img, real
