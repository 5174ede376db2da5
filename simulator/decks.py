"""Card decks: the designs the simulator can print Slide's number cards (1 to 10) in.

A ``Deck`` is a frozen description of one printing: face and ink colours (BGR), the font,
stroke weight and size of the numerals, which corners carry a small index, a printed frame,
a bar under 6 and 9, the back's colours and pattern, and the card stock.

``DECKS`` maps a name to a Deck. ``"classic"`` is the simulator's original card and the
default when a layout names no deck. Decks listed in ``HELD_OUT_DECKS`` must never be used to
train or tune a card reader (nor to choose its thresholds): the benchmark needs a design the
reader has never seen. ``deck_for_seed(seed)`` makes a procedural deck (named
``"deck-<seed>"``) for training on thousands of designs; ``get_deck(name)`` resolves a name
of either kind.

Cards are drawn by ``simulator.looks.sprite(look, "card", code, px_per_mm)`` with ``code``
``"<deck>:<number>"`` or ``"<deck>:back"``; a plain ``"7"`` or ``"back"`` is the classic deck.
"""

from __future__ import annotations

import random
import re
import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from simulator import masks as M
from simulator import painting as P
from simulator.errors import SimulatorError

CARD_W_MM = 44.0
CARD_H_MM = 63.0

BGR = tuple[int, int, int]

CORNERS = ("none", "tl", "tl-br", "all")
BORDERS = ("none", "line", "band")
BORDER_INKS = ("ink", "tint", "hue")
MARKS_69 = ("none", "underline")
BACK_STYLES = ("inset", "stripes", "checks", "ring")
MATERIALS = ("paper", "plastic")
MIN_CONTRAST = 60.0  # least luminance difference (0-255) between any ink and the face


@dataclass(frozen=True)
class Deck:
    """One printing of the Slide cards. Colours are BGR uint8 triples; lengths are mm.

    font: a cv2.FONT_HERSHEY_* id, optionally ``| cv2.FONT_ITALIC``. OpenCV 5 draws every id
    with one sans face: DUPLEX and TRIPLEX bold, SCRIPT_* italic, the others regular; a weight
    under 0.06 draws the light cut of the regular and italic ones (see simulator.looks._text_mask).
    The FONT_ITALIC flag is accepted but draws upright there: an italic deck uses a SCRIPT_* id.
    """

    name: str
    description: str
    face: BGR  # the card's printed face
    inks: tuple  # 10 BGR inks: the ink of numbers 1..10 (one colour repeated for a one-ink deck)
    font: int
    weight: float  # stroke thickness / numeral height
    numeral_mm: float  # height of the centre numeral (the card is 44 x 63 mm)
    corners: str = "tl"  # which corners carry a small index: "none", "tl", "tl-br" (turned 180°), "all"
    border: str = "none"  # "none", "line" (thin frame), "band" (wide frame)
    border_ink: str = "ink"  # "ink" (the number's ink), "tint" (it mixed with the face), "hue" (a hue per number)
    mark_69: str = "none"  # "none" or "underline": a bar under 6 and 9
    back: BGR = (150, 90, 40)  # the back's colour
    back_ink: BGR = (240, 245, 248)  # the back's pattern (unused by the plain "inset" back)
    back_style: str = "inset"  # "inset", "stripes", "checks", "ring"
    material: str = "paper"  # "paper" or "plastic" (see simulator.looks._material)
    index_mm: float = 5.0  # height of a corner index
    back_mm: float = 4.0  # the period of the back's stripes, the side of its checks
    back_angle: float = 45.0  # the stripes' direction, degrees from the card's long side

    def ink(self, number: int) -> BGR:
        return self.inks[number - 1]


def luminance(bgr) -> float:
    """Perceived brightness 0-255 of a BGR colour (Rec. 601 weights)."""
    b, g, r = (float(v) for v in bgr)
    return 0.299 * r + 0.587 * g + 0.114 * b


def contrast(deck: Deck) -> float:
    """The smallest luminance difference between the face and any number's ink."""
    face = luminance(deck.face)
    return min(abs(luminance(ink) - face) for ink in deck.inks)


def _hsv(h: float, s: float, v: float) -> BGR:
    """BGR of an OpenCV HSV colour (h 0-180, s and v 0-255)."""
    px = cv2.cvtColor(np.uint8([[[int(h) % 180, int(s), int(v)]]]), cv2.COLOR_HSV2BGR)[0, 0]
    return tuple(int(v) for v in px)


def _one(ink: BGR) -> tuple:
    return (ink,) * 10


DECKS: dict[str, Deck] = {
    "classic": Deck(
        name="classic",
        description="the simulator's original card: dark ink on white, a rainbow band, one corner index",
        face=(240, 245, 248), inks=_one((60, 40, 30)), font=cv2.FONT_HERSHEY_DUPLEX, weight=0.12,
        numeral_mm=22.0, corners="tl", border="band", border_ink="hue",
        back=(150, 90, 40), back_ink=(240, 245, 248), back_style="inset",
    ),
    "gigamic": Deck(
        name="gigamic",
        description="colourful: each number its own bright ink, big bold numerals, a thin frame, glossy stock",
        face=(250, 250, 252),
        inks=((40, 40, 220), (0, 120, 240), (0, 150, 200), (40, 150, 30), (160, 120, 0),
              (190, 60, 20), (150, 40, 110), (120, 20, 200), (30, 90, 140), (60, 60, 60)),
        font=cv2.FONT_HERSHEY_TRIPLEX, weight=0.14, numeral_mm=27.0, corners="tl-br", border="line",
        border_ink="ink", mark_69="underline", back=(30, 30, 200), back_ink=(240, 240, 250),
        back_style="ring", material="plastic",
    ),
    "cream": Deck(
        name="cream",
        description="plain black on cream paper, regular numerals, indexes in all four corners",
        face=(200, 232, 242), inks=_one((25, 25, 25)), font=cv2.FONT_HERSHEY_SIMPLEX, weight=0.10,
        numeral_mm=20.0, corners="all", border="none", back=(40, 40, 40), back_ink=(200, 232, 242),
        back_style="checks",
    ),
    "midnight": Deck(
        name="midnight",
        description="white numerals on a navy face with a pale band, gold-striped back",
        face=(80, 35, 20), inks=_one((245, 245, 245)), font=cv2.FONT_HERSHEY_SIMPLEX, weight=0.11,
        numeral_mm=24.0, corners="tl-br", border="band", border_ink="tint",
        back=(80, 35, 20), back_ink=(60, 180, 220), back_style="stripes", material="plastic",
    ),
    "italic": Deck(
        name="italic",
        description="italic numerals in a deep green on ivory, a thin frame, one corner index",
        face=(225, 240, 245), inks=_one((50, 90, 20)), font=cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, weight=0.10,
        numeral_mm=23.0, corners="tl", border="line", border_ink="ink", back=(50, 90, 20),
        back_ink=(225, 240, 245), back_style="inset",
    ),
    "bold": Deck(
        name="bold",
        description="heavy numerals in two inks (odd red, even blue) on white, 6 and 9 underlined",
        face=(245, 245, 245), inks=tuple((30, 30, 190) if n % 2 else (150, 60, 20) for n in range(1, 11)),
        font=cv2.FONT_HERSHEY_DUPLEX, weight=0.18, numeral_mm=25.0, corners="tl-br", border="none",
        mark_69="underline", back=(30, 30, 190), back_ink=(245, 245, 245), back_style="checks",
    ),
    "unseen-slate": Deck(
        name="unseen-slate",
        description="held out: serif-less numerals in five muted inks on a grey-green face, a tinted band, four indexes",
        face=(205, 215, 200),
        inks=((40, 40, 130), (20, 80, 120), (30, 95, 60), (110, 70, 20), (100, 30, 90),
              (40, 40, 130), (20, 80, 120), (30, 95, 60), (110, 70, 20), (100, 30, 90)),
        font=cv2.FONT_HERSHEY_COMPLEX, weight=0.09, numeral_mm=18.0, corners="all", border="band",
        border_ink="tint", mark_69="underline", back=(90, 100, 70), back_ink=(205, 215, 200),
        back_style="ring", material="paper",
    ),
}

#: decks that must never be used to train or tune a card reader (the benchmark's unseen design)
HELD_OUT_DECKS: tuple[str, ...] = ("unseen-slate",)

_PROCEDURAL = re.compile(r"deck-(\d+)")
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
          cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX_SMALL, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
          cv2.FONT_HERSHEY_SCRIPT_COMPLEX)


def _readable(ink: BGR, face: BGR, need: float = MIN_CONTRAST + 20) -> BGR:
    """``ink`` moved toward black (light face) or white (dark face) until it stands ``need`` from the face."""
    target = 0.0 if luminance(face) >= 128 else 255.0
    out = ink
    for k in range(21):
        if abs(luminance(out) - luminance(face)) >= need:
            return out
        t = k / 20
        out = tuple(int(round(v * (1 - t) + target * t)) for v in ink)
    return out


def deck_for_seed(seed: int) -> Deck:
    """A procedural deck drawn from ``seed`` (named ``"deck-<seed>"``); every ink is readable on its face."""
    rng = random.Random(f"slide-deck:{seed}")
    dark = rng.random() < 0.2
    if dark:
        face = _hsv(rng.uniform(0, 180), rng.uniform(60, 220), rng.uniform(25, 85))
    else:
        face = _hsv(rng.uniform(0, 180), rng.uniform(0, 35), rng.uniform(220, 252))
    mode = rng.choices(("one", "each", "two"), (0.4, 0.4, 0.2))[0]

    def ink() -> BGR:
        if dark:
            return _hsv(rng.uniform(0, 180), rng.uniform(0, 90), rng.uniform(215, 255))
        if rng.random() < 0.3:
            return _hsv(rng.uniform(0, 180), rng.uniform(0, 60), rng.uniform(10, 60))  # near black
        return _hsv(rng.uniform(0, 180), rng.uniform(150, 255), rng.uniform(110, 230))

    if mode == "one":
        inks = _one(ink())
    elif mode == "two":
        a, b = ink(), ink()
        inks = tuple(a if n % 2 else b for n in range(1, 11))
    else:
        h0, step = rng.uniform(0, 180), rng.choice((17, 23, 37, 53))
        s, v = rng.uniform(150, 255), rng.uniform(120, 220)
        inks = tuple(_hsv(h0 + n * step, s if not dark else s * 0.4, v if not dark else 235) for n in range(10))
    inks = tuple(_readable(i, face) for i in inks)
    font = rng.choice(_FONTS)
    if rng.random() < 0.15:
        font |= cv2.FONT_ITALIC
    weight = rng.uniform(0.04, 0.06) if rng.random() < 0.15 else rng.uniform(0.07, 0.2)
    back = _hsv(rng.uniform(0, 180), rng.uniform(80, 255), rng.uniform(60, 200))
    back_ink = _readable(rng.choice((face, (245, 245, 245), (20, 20, 20))), back, 50)
    deck = Deck(
        name=f"deck-{seed}",
        description=f"procedural deck from seed {seed}",
        face=face, inks=inks, font=font, weight=round(weight, 3), numeral_mm=round(rng.uniform(16, 28), 1),
        corners=rng.choices(CORNERS, (0.15, 0.35, 0.35, 0.15))[0],
        border=rng.choices(BORDERS, (0.4, 0.35, 0.25))[0],
        border_ink=rng.choice(BORDER_INKS),
        mark_69=rng.choice(MARKS_69),
        back=back, back_ink=back_ink, back_style=rng.choice(BACK_STYLES),
        material=rng.choices(MATERIALS, (0.7, 0.3))[0],
        index_mm=round(rng.uniform(4.0, 6.5), 1),
    )
    # (drawn last, so that the rest of a seed's deck stays as it was drawn before backs varied)
    return dataclasses.replace(deck, back_mm=round(rng.uniform(2.5, 7.0), 1),
                               back_angle=rng.choice((45.0, -45.0, 30.0, 60.0, 0.0, 90.0)))


def get_deck(name: str) -> Deck:
    """The deck called ``name``: a name in DECKS or ``"deck-<seed>"``; else SimulatorError."""
    if isinstance(name, str) and name in DECKS:
        return DECKS[name]
    m = _PROCEDURAL.fullmatch(name) if isinstance(name, str) else None
    if m:
        return deck_for_seed(int(m.group(1)))
    raise SimulatorError(f"unknown deck {name!r}: expected one of {', '.join(DECKS)} or deck-<seed>")


def split_code(code: str) -> tuple[Deck, str]:
    """(deck, "1".."10" or "back") of a card sprite code ``"<deck>:<face>"`` (a bare face is classic)."""
    deck_name, _, face = code.rpartition(":")
    deck = get_deck(deck_name or "classic")
    if face != "back" and face not in {str(n) for n in range(1, 11)}:
        raise SimulatorError(f"card code {code!r}: expected <deck>:1 to <deck>:10 or <deck>:back")
    return deck, face


# ---------------------------------------------------------------------------------------------
# drawing


def _numeral(shape, text: str, deck: Deck, cx: float, cy: float, height: float, max_w: float) -> np.ndarray:
    """Mask of a numeral centred at (cx, cy), shrunk if wider than ``max_w`` px; underlined 6 and 9."""
    mask = P.text_mask(shape, text, deck.font, cx, cy, height, deck.weight)
    cols = np.flatnonzero(mask.max(0) > 0.5)
    if cols.size and cols[-1] - cols[0] > max_w:
        height *= max_w / (cols[-1] - cols[0])
        mask = P.text_mask(shape, text, deck.font, cx, cy, height, deck.weight)
    if deck.mark_69 == "underline" and text in ("6", "9"):
        cols = np.flatnonzero(mask.max(0) > 0.5)
        left, right = (cols[0], cols[-1]) if cols.size else (cx - height / 3, cx + height / 3)
        bar = max(1.5, height * max(deck.weight, 0.08))
        y0 = cy + height / 2 + height * 0.14
        quad = np.array([[left, y0], [right, y0], [right, y0 + bar], [left, y0 + bar]])
        mask = np.maximum(mask, M.poly_mask(shape, [quad]))
    return mask


def _border_colour(deck: Deck, number: int) -> BGR:
    ink = deck.ink(number)
    if deck.border_ink == "hue":
        return _hsv(number * 17 % 180, 140, 210)
    if deck.border_ink == "tint":
        return tuple(int(round(0.45 * i + 0.55 * f)) for i, f in zip(ink, deck.face))
    return ink


def card_master(look_name: str, code: str) -> np.ndarray:
    """The BGRA master sprite (at looks.MASTER_PX_PER_MM) of the card ``code`` (see split_code)."""
    deck, face = split_code(code)
    s = P.MASTER_PX_PER_MM
    w, h = int(round(CARD_W_MM * s)), int(round(CARD_H_MM * s))
    shape = (h, w)
    alpha = P.rounded_rect_mask(h, w, 3.0 * s)
    key = f"{look_name}/card/{face}" if deck.name == "classic" else f"{look_name}/card/{deck.name}:{face}"
    img = P.material(shape, deck.face, deck.material, key)
    if face == "back":
        inner = M.inset_mask_rect(h, w, 3.0 * s)
        P.paint(img, inner, deck.back)
        if deck.back_style == "stripes":
            period, width = deck.back_mm * s, 0.35 * deck.back_mm * s
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            a = np.radians(deck.back_angle)
            # (45 degrees as the named decks were always drawn: the period counted along x + y)
            along = xx + yy if deck.back_angle == 45.0 else xx * np.cos(a) + yy * np.sin(a)
            phase = np.mod(along, period)
            stripe = np.clip(np.minimum(phase, period - phase) - (period / 2 - width / 2), -0.5, 0.5) + 0.5
            border = M.inset_mask_rect(h, w, 5.0 * s)
            P.paint(img, stripe * border, deck.back_ink)
        elif deck.back_style == "checks":
            cell = deck.back_mm * s
            yy, xx = np.mgrid[0:h, 0:w]
            checks = ((xx // cell + yy // cell) % 2).astype(np.float32)
            P.paint(img, checks * M.inset_mask_rect(h, w, 5.0 * s), deck.back_ink)
        elif deck.back_style == "ring":
            c = (w / 2, h / 2)
            ring = M.circle_mask(shape, c, 13.0 * s) - M.circle_mask(shape, c, 10.5 * s)
            P.paint(img, ring.clip(0, 1), deck.back_ink)
            P.paint(img, M.circle_mask(shape, c, 4.0 * s), deck.back_ink)
        return P.finish(img, alpha)
    number = int(face)
    ink = deck.ink(number)
    if deck.border == "band":
        band = M.inset_mask_rect(h, w, 3.0 * s) - M.inset_mask_rect(h, w, 5.0 * s)
        P.paint(img, band.clip(0, 1), _border_colour(deck, number))
    elif deck.border == "line":
        line = M.inset_mask_rect(h, w, 3.0 * s) - M.inset_mask_rect(h, w, 3.7 * s)
        P.paint(img, line.clip(0, 1), _border_colour(deck, number))
    P.paint(img, _numeral(shape, face, deck, w / 2, h / 2, deck.numeral_mm * s, w - 12.0 * s), ink)
    if deck.corners != "none":
        idx = _numeral(shape, face, deck, 8.0 * s, 8.0 * s, deck.index_mm * s, 9.0 * s)
        marks = [idx]
        if deck.corners in ("tl-br", "all"):
            marks.append(idx[::-1, ::-1])  # bottom right, turned 180 degrees
        if deck.corners == "all":
            top_right = _numeral(shape, face, deck, w - 8.0 * s, 8.0 * s, deck.index_mm * s, 9.0 * s)
            marks += [top_right, top_right[::-1, ::-1]]  # and bottom left, turned
        for m in marks:
            P.paint(img, m, ink)
    return P.finish(img, alpha)
