"""Learning a deck of Slide cards from one photo of its ten numbers laid out in a known order.

Card printings differ (fonts, colours, frames, backs). The bundled cards model reads clear
printed numerals of many designs; a deck unlike them is learnt from one photo of a 4x4 grid
laid out as ``DECK_LAYOUT`` says, in the player's frame (row 1 the far side):

    1     2     3     4
    5     6     7     8
    9     10    down  down
    down  down  down  down

The grid is found as the reader finds it (``vision.card_grid``); which of its two half
turns is the player's is told by the faces where the bundled model reads them upright in one
turn far better than in the other, and else by the six face-down cards, which look alike and
lie in the near rows (a half turn would put them in the far rows), so a deck whose numerals
the bundled model cannot read is learnt all the same. Each slot's features (``vision.cards``) become a
prototype of its label, added to the bundled model's: the deck's own numbers and back are
then the nearest prototypes of its cards, while every other design still reads as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.errors import CalibrationError
from vision.card_grid import CardLattice, locate_cards
from vision.cards import read_slots, slot_features, slot_patches
from vision.profile import ClassModel, Profile

#: the layout a deck is learnt from: 4 rows of 4 labels, row 0 the far side
DECK_LAYOUT: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3", "4"),
    ("5", "6", "7", "8"),
    ("9", "10", "down", "down"),
    ("down", "down", "down", "down"),
)
#: the six face-down cards must lie at most this share as far apart from one another as from
#: the faces (``_backs_alike``; one deck's backs about 0.15-0.55 in the bundled model's space,
#: the six faces of the other half turn 0.45-0.7) ...
MAX_BACKS_ALIKE = 0.6
#: ... and, where the faces do not tell the turn (a deck whose numerals the bundled model
#: cannot read), be this much more alike in the turn chosen than in the other, or the photo is
#: not of the layout
MIN_TURN_RATIO = 1.15
#: the faces tell the turn when they read upright in it this much better (nats, all
#: together: ``vision.cards.read_slots``) than in the other
FACES_TELL = 30.0


@dataclass(frozen=True)
class DeckResult:
    """A learnt deck: the ``profile`` (the bundled model plus the deck's prototypes), how many
    of the ten numbers the bundled model already read as laid out (``familiar``) and the
    lattice in the player's frame."""

    profile: Profile
    familiar: int
    lattice: CardLattice


def _backs_alike(feats: np.ndarray, downs: list, faces: list, model: ClassModel) -> float:
    """How far apart the slots ``downs`` lie from one another in the model's discriminant
    space, as a share of how far they lie from the slots ``faces``: small where they hold
    one deck's backs."""
    zd = model.project(np.array([feats[r, c] for r, c in downs]))
    zf = model.project(np.array([feats[r, c] for r, c in faces]))
    within = np.mean([np.linalg.norm(a - b) for i, a in enumerate(zd) for b in zd[i + 1:]])
    between = np.mean([np.linalg.norm(a - b) for a in zd for b in zf])
    return float(within / max(between, 1e-9))


def _cells(label: str) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(DECK_LAYOUT) for c, lab in enumerate(row) if lab == label]


def learn_deck(image: np.ndarray, base: Profile, name: str) -> DeckResult:
    """The deck in ``image`` (laid out as ``DECK_LAYOUT``) learnt on top of ``base`` (the bundled
    cards profile); raises BoardNotFound (no grid in view) or CalibrationError (the photo is
    not of the layout)."""
    model = base.model("cards")
    lattice = locate_cards(image)
    downs = _cells("down")
    faces = [cell for cell in ((r, c) for r in range(4) for c in range(4)) if cell not in downs]
    turns = []
    for lat in (lattice, lattice.turned()):
        patches = slot_patches(image, lat)
        feats = slot_features(patches.reshape(16, *patches.shape[2:])).reshape(4, 4, -1)
        turns.append((_backs_alike(feats, downs, faces, model), lat, feats))
    read = read_slots(image, lattice, model)
    if read.turn_margin >= FACES_TELL:
        # the faces read upright in one turn far better than in the other: that turn, its
        # backs (alike among themselves) only checked
        if read.lattice is not lattice:  # (read_slots turned it)
            turns.reverse()
        (alike, lat, feats), _ = turns
        told = True  # (the backs in the other turn are faces: how alike they are tells nothing more)
    else:
        turns.sort(key=lambda t: t[0])
        (alike, lat, feats), (other, _, _) = turns
        told = other >= MIN_TURN_RATIO * alike
    # the backs of one deck are one picture, unlike the faces
    if alike > MAX_BACKS_ALIKE or not told:
        raise CalibrationError("the six face-down cards were not found where the layout puts them: lay the grid out "
                               "as docs/games/slide.md shows (1-10 from the far-left corner, row by row, then six cards "
                               "face down) and take the photo again")
    labels, rows = [], []
    for r, row in enumerate(DECK_LAYOUT):
        for c, lab in enumerate(row):
            labels.append(lab)
            rows.append(feats[r, c])
    costs = model.costs(np.array(rows))
    classes = list(model.classes)
    familiar = sum(1 for lab, cost in zip(labels, costs) if lab != "down" and classes[int(np.argmin(cost))] == lab)
    learnt = model.with_prototypes(tuple(labels), np.array(rows, np.float32))
    profile = Profile(game=base.game, name=name, features=dict(base.features), models={"cards": learnt},
                      meta={"made_by": "caller calibrate --game slide", "base": base.name,
                            "familiar_numbers": familiar})
    return DeckResult(profile, familiar, lat)
