"""Reading the cards of a grid: each slot's card number, a card face down, or no card.

Each slot of a found grid (``vision.card_grid``) is cut upright in the lattice's frame
(``PATCH``), a little beyond the card outline found (outlines sit just inside a card's edge).
The measures (``slot_features``) do not depend on the colours of a printing: the card's
paper is the median colour of a ring inside its edge, and every pixel's *ink* is its
distance from that paper in Lab, scaled by the strongest ink of the card, so that black on
cream, white on navy and a different bright colour for each number look alike. The ink map
gives its coarse picture and its gradient directions (``vision.features.gradient_histograms``),
and the same again, finer, of the card's middle, where a small numeral is (``CENTRE_CUT``);
a few numbers say how the paper stands out from the table around the slot and how much ink
there is, which tell a face-down card (a pattern everywhere) and an empty slot (the table)
from a face.

The cards model (``vision/models/cards``, built by ``benchmarks/build_cards_model.py`` from
renders of many card designs, never the held-out one) is a nearest-prototype model over the
labels ``"1"``..``"10"``, ``"down"``, ``"empty"``, ``"covered"`` (a hand over the slot) and
``"turned"`` (a face upside down: learnt from the numbers whose face turned is no other
number's), several prototypes a label (designs differ). A slot read as covered or turned, or fitting no label at
all (its best cost beyond the model's outlier threshold), has confidence 0: its label is the
best of the others, a guess never to be acted on. A card is read upright: the numerals stand
one way in a grid, and which of the lattice's two half turns that is, is the one under which
the face-up cards fit their best labels best, all together (``read_slots``; only faces read
sure tell): a 6 and a 9 alone cannot tell it, the grid can. The turn chosen is the player's
frame: row 0 the far side, where the numerals' tops point.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import features as F
from vision.assign import confidence_from_margin
from vision.card_grid import CardLattice

#: the bundled cards model
CARDS_MODEL = Path(__file__).resolve().parent / "models" / "cards"
#: the feature extractor's id (a model is only used with the features it was learnt on)
FEATURES_ID = "cards-v3"
#: a slot's patch (w, h px) and how far beyond the found outline it reaches (card units)
PATCH = (40, 56)
MARGIN = 0.06
#: the ring a card's paper colour is taken from, as shares of the patch in from its edges
PAPER_RING = (0.1, 0.2)
#: ink maps are shrunk to this (w, h) for their picture, and to a square for the directions
INK_PICTURE = (8, 11)
INK_SQUARE = 24
#: the middle of the patch, where printings put their numeral, read finer: the share of the
#: patch's width and height cut off each side (the same at either end, so that the patch
#: turned half round has the same middle turned), and the sizes its ink map is shrunk to. A
#: small numeral covers two or three cells of the whole card's picture, too few to tell a 9
#: from a 5 or a 3 on a video frame; in the middle alone it covers a dozen
CENTRE_CUT = (0.22, 0.25)
CENTRE_PICTURE = (10, 12)
CENTRE_SQUARE = 16
LABELS = tuple(str(n) for n in range(1, 11)) + ("down", "empty", "covered", "turned")
#: the labels that are no reading of the slot: a hand over it, a face seen upside down
UNREAD = ("covered", "turned")
#: the numbers whose face upside down is no number's face upright (unlike 6, 9, 8 and 1),
#: learnt as ``"turned"`` so that the grid's two half turns are told apart by the faces
TURN_DISTINCT = ("2", "3", "4", "5", "7", "10")
#: each slot's look (``SlotRead.looks``): its patch shrunk to this (w, h), in Lab. Coarse enough
#: that a lattice found a pixel or two apart from one frame to the next, or a back's fine
#: stripes, change it little; fine enough that a card's border and the table beside it show
LOOK = (8, 11)
#: nats by which a slot's best label, a face, must beat every other label (in one half turn or
#: the other) for the slot to tell the grid's turn: a confidence of 0.9. A back or a hole that
#: only looks a little like a numeral (a striped back seen steeply, smudged by the video's
#: compression) must not turn the grid; with no face read that sure, the camera's frame is kept
TURN_TELL = 2.2


@dataclass(frozen=True)
class SlotRead:
    """The grid as read: ``labels`` rows x cols (a number 1-10, ``"down"`` or None for an empty
    slot) in the player's frame, ``confidence`` the same shape in [0, 1], ``lattice`` turned
    to that frame (row 0 the far side), ``turn_margin`` how much better (nats) the chosen
    half turn fits than the other (0 when no card reads sure face up: the turn is then the
    camera's frame, row 0 the side farther from the camera), and ``looks`` each slot's look
    (``slot_looks``) in that frame: rows x cols x h x w x 3."""

    labels: tuple[tuple[int | str | None, ...], ...]
    confidence: tuple[tuple[float, ...], ...]
    lattice: CardLattice
    turn_margin: float
    looks: np.ndarray | None = None


def slot_patches(image: np.ndarray, lattice: CardLattice) -> np.ndarray:
    """rows x cols x h x w x 3 float32 patches of the slots, upright in the lattice's frame."""
    out = np.empty((lattice.rows, lattice.cols, PATCH[1], PATCH[0], 3), np.float32)
    for r in range(lattice.rows):
        for c in range(lattice.cols):
            out[r, c] = lattice.slot_patch(image, r, c, PATCH, MARGIN)
    return out


def slot_looks(patches: np.ndarray) -> np.ndarray:
    """rows x cols x h x w x 3 BGR patches -> what each slot looks like: the patch shrunk to
    ``LOOK`` in Lab (L 0-100, a and b signed), float32, rows x cols x LOOK[1] x LOOK[0] x 3.

    Not a reading: a record of the slot's picture, for telling whether it still looks as it did
    when it was read sure (``look_distance``), under light that made the model unsure."""
    R, C = patches.shape[:2]
    out = np.empty((R, C, LOOK[1], LOOK[0], 3), np.float32)
    for r in range(R):
        for c in range(C):
            small = cv2.resize(np.clip(patches[r, c], 0, 255).astype(np.uint8), LOOK, interpolation=cv2.INTER_AREA)
            out[r, c] = cv2.cvtColor(small.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
    return out


def look_distance(a: np.ndarray, b: np.ndarray) -> float:
    """How unlike two looks of one slot are (``slot_looks``): the median over the look's cells of
    their Lab distance. A median, so a finger's tip or a glint over a few cells does not
    count, while a card taken away (the table in its place) changes most of them."""
    return float(np.median(np.linalg.norm(np.asarray(a, np.float32) - np.asarray(b, np.float32), axis=-1)))


def _ring(h: int, w: int, inner: float, outer: float) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    d = np.minimum(np.minimum(xx / w, (w - 1 - xx) / w), np.minimum(yy / h, (h - 1 - yy) / h))
    return (d >= inner) & (d < outer)


def slot_features(patches: np.ndarray) -> np.ndarray:
    """N x h x w x 3 BGR patches -> N x D features (see the module docstring)."""
    n, h, w = patches.shape[:3]
    lab = np.stack([cv2.cvtColor(np.clip(p, 0, 255).astype(np.uint8), cv2.COLOR_BGR2LAB) for p in patches])
    lab = lab.astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    ring = _ring(h, w, *PAPER_RING)
    edge = _ring(h, w, 0.0, MARGIN / (1 + 2 * MARGIN) * 0.8)  # the table just outside the card
    inner = _ring(h, w, PAPER_RING[1], 1.0)
    paper = np.median(lab[:, ring], axis=1)  # N x 3
    outside = np.median(lab[:, edge], axis=1)
    dist = np.linalg.norm(lab - paper[:, None, None, :], axis=-1)  # N x h x w
    strong = np.percentile(dist[:, inner], 98, axis=1)
    ink = np.clip(dist / np.maximum(strong, 12.0)[:, None, None], 0, 1).astype(np.float32)
    cx, cy = round(w * CENTRE_CUT[0]), round(h * CENTRE_CUT[1])
    whole = _ink_shapes(ink, INK_PICTURE, INK_SQUARE)
    centre = _ink_shapes(ink[:, cy:h - cy, cx:w - cx], CENTRE_PICTURE, CENTRE_SQUARE)
    inner_ink = ink[:, inner]
    stats = np.stack([
        paper[:, 0] / 100.0, np.hypot(paper[:, 1], paper[:, 2]) / 50.0,
        np.linalg.norm(paper - outside, axis=1) / 50.0,
        inner_ink.mean(1), (inner_ink > 0.5).mean(1), np.minimum(strong, 100.0) / 100.0,
        lab[:, inner, 0].std(1) / 30.0,
    ], 1)
    return np.concatenate([*whole, *centre, stats], 1).astype(np.float32)


def _ink_shapes(ink: np.ndarray, picture: tuple[int, int], square: int) -> tuple[np.ndarray, np.ndarray]:
    """N ink maps -> (their coarse pictures shrunk to ``picture`` (w, h), their gradient
    directions on a ``square`` x ``square`` shrink, 4 x 4 cells of 8), N x D each."""
    small = np.stack([cv2.resize(m, picture, interpolation=cv2.INTER_AREA) for m in ink]).reshape(len(ink), -1)
    sq = np.stack([cv2.resize(m, (square, square), interpolation=cv2.INTER_AREA) for m in ink])
    return small, F.gradient_histograms(sq, 4, 8)


def read_slots(image: np.ndarray, lattice: CardLattice, model) -> SlotRead:
    """Every slot of ``lattice`` read with ``model`` (a ``vision.profile.ClassModel`` over
    ``LABELS``), in the half turn its face-up cards read upright in."""
    patches = slot_patches(image, lattice)
    R, C = lattice.rows, lattice.cols
    flat = patches.reshape(R * C, *patches.shape[2:])
    costs = model.costs(slot_features(flat)).reshape(R, C, -1)
    turned = model.costs(slot_features(flat[:, ::-1, ::-1])).reshape(R, C, -1)[::-1, ::-1]
    classes = list(model.classes)
    faces = [classes.index(lab) for lab in LABELS[:10] if lab in classes]
    # a slot read best as covered, or as a face upside down (the other half turn's), is not read
    hidden = [classes.index(lab) for lab in UNREAD if lab in classes]
    # each card's best face read upright and read half turned, both at the card's own slot of
    # the lattice (``turned`` is in the turned frame: slot (r, c) there is (R-1-r, C-1-c) here)
    up_face, turned_face = costs[..., faces].min(-1), turned[..., faces].min(-1)
    down_face = turned_face[::-1, ::-1]
    # the cards that read sure as a face either way; a down card, an empty or covered slot, or
    # a face read unsure does not tell
    shows = (_sure_face(up_face, costs, model.outlier)
             | _sure_face(turned_face, turned, model.outlier)[::-1, ::-1])
    up, down = float(up_face[shows].sum()), float(down_face[shows].sum())
    if not shows.any():
        # no face tells the far side: the camera's frame, row 0 the side farther from the
        # camera (up in the picture); margin 0
        corners = lattice.board_corners()
        half = corners[:2].mean(0)[1] > corners[2:].mean(0)[1]
        margin = 0.0
    else:
        half, margin = down < up, abs(up - down)
    looks = slot_looks(patches)
    if half:
        cost, lat, looks = turned, lattice.turned(), looks[::-1, ::-1, ::-1, ::-1]
    else:
        cost, lat = costs, lattice
    labels, conf = [], []
    for r in range(R):
        row, crow = [], []
        for c in range(C):
            order = [int(k) for k in np.argsort(cost[r, c]) if k not in hidden]
            lab = classes[order[0]]
            sure = float(confidence_from_margin(cost[r, c, order[1]] - cost[r, c, order[0]]))
            if any(cost[r, c, k] < cost[r, c, order[0]] for k in hidden) or cost[r, c, order[0]] > model.outlier:
                sure = 0.0
            row.append(None if lab == "empty" else ("down" if lab == "down" else int(lab)))
            crow.append(sure)
        labels.append(tuple(row))
        conf.append(tuple(crow))
    return SlotRead(tuple(labels), tuple(conf), lat, float(margin), np.ascontiguousarray(looks))


def _sure_face(face: np.ndarray, cost: np.ndarray, outlier: float) -> np.ndarray:
    """The slots whose best label is a face (cost ``face``), ahead of every other label by
    ``TURN_TELL`` nats and within the model's outlier threshold."""
    second = np.sort(cost, -1)[..., 1]
    return (face <= cost.min(-1) + 1e-9) & (second - face >= TURN_TELL) & (face <= outlier)
