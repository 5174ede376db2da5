"""Build the cards model (vision/models/cards.json + .npz) from renders of Slide card grids.

    python benchmarks/build_cards_model.py [--n 2400] [--jobs 2] [--out vision/models/cards]

Renders ``--n`` grids (``benchmarks.slide_scenes``) with seeds from
benchmarks.scenes.TRAIN_SEEDS (disjoint from the read benchmark's and from the seeds the
reader was tuned on), each in a card design of its own drawn from the seed
(``simulator.decks.deck_for_seed``: never a named design, so the named ones and the held-out
one stay unseen), on the tables of the looks not held out, with more empty slots than the
benchmark's grids (``MORE_EMPTY``) and one render in ``STREAMED_EVERY`` compressed as a
webcam's stream (``webcam_frame``). In each, the reader finds the
grid (``vision.card_grid``); where it lies on the truth's slots in one of its two half
turns, each slot's features (``vision.cards.slot_features``) are taken upright in the
truth's frame, labelled ``1``..``10``, ``down``, ``empty`` or, in the renders where a hand
reaches over the grid (one in ``HANDS_EVERY``), ``covered`` where it hides a slot in part;
each slot a second time from a lattice moved a pixel or so (``JITTER``), some of these with a
spot of light over them (``glared``), and the faces of
``vision.cards.TURN_DISTINCT`` once more upside down, labelled ``turned``. A small network
learns to tell the labels apart from the features (``HIDDEN`` units,
``model_fitting.fit_front``, numpy on the CPU); its hidden layer is the model's ``front``,
and in that layer's output a linear-discriminant class model with ``PROTOTYPES`` prototypes
a label (k-means) is fitted; a fifth of the renders sets its temperature and outlier
threshold. The same arguments always give the same model.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.build_squares_model import split  # noqa: E402
from benchmarks.model_fitting import by_seed, fit_front, gather, refit_calibrated  # noqa: E402
from benchmarks.scenes import TRAIN_SEEDS, training_looks  # noqa: E402
from benchmarks.slide_scenes import lattice_error, render_slide, slide_spec, truth_labels  # noqa: E402
from vision.profile import Profile, fit_class_model, save_profile, through_layers  # noqa: E402

#: prototypes per label (card designs differ: fonts, weights, corner marks, backs)
PROTOTYPES = 4
#: the learnt layers the features pass through before the discriminant space (hidden units
#: of the network ``model_fitting.fit_front`` trains) and how many passes it makes
HIDDEN = (256,)
EPOCHS = 30
#: the first training seed (an offset into TRAIN_SEEDS away from the other models')
FIRST = 90_000
#: a hand reaches over the grid in one training render of this many (its slots: ``covered``)
HANDS_EVERY = 3
#: each training grid has up to this many more slots empty than a benchmark grid
#: (``slide_scenes.slide_spec``): the table seen in a gap, on every cloth and under glare
MORE_EMPTY = 2
#: one training render in this many is compressed as a webcam stream would (``webcam_frame``),
#: with a JPEG quality drawn from this range
STREAMED_EVERY = 2
STREAM_QUALITY = (20, 56)
#: the share of the second cuts of the slots given a spot of light (``glared``), and how bright
#: its middle is (8-bit levels added)
GLARE_SHARE = 0.4
GLARE_LIGHT = (30.0, 130.0)
#: a found grid lies on the truth's when its slot centres are this close (card widths)
ON_TRUTH = 0.25
#: each training slot is read a second time from a lattice moved up to this many card units
#: each way and scaled by up to this share (about a pixel and a half on a card 45 px wide)
JITTER = 0.035


def training_deck(seed: int) -> str:
    """The card design of training render ``seed``: a procedural one of its own."""
    return f"deck-{seed}"


def sample(seed: int) -> dict | None:
    """Features and labels of one render's 16 slots, or None when its grid is not found right."""
    from vision.card_grid import locate_cards
    from vision.cards import LABELS, PATCH, TURN_DISTINCT, slot_features, slot_patches
    from vision.errors import BoardNotFound

    spec = slide_spec(seed, (training_deck(seed),), training_looks(), hands_every=HANDS_EVERY, more_empty=MORE_EMPTY)
    r = render_slide(seed, spec)
    image = webcam_frame(r.image, np.random.default_rng([seed, 11]))
    try:
        lattice = locate_cards(image)
    except BoardNotFound:
        return None
    for lat in (lattice, lattice.turned()):
        if lattice_error(r.truth, lat) < ON_TRUTH:
            break
    else:
        return None
    patches = slot_patches(image, lat).reshape(16, *PATCH[::-1], 3)
    shaken = glared(jittered_patches(image, lat, np.random.default_rng([seed, 7])), np.random.default_rng([seed, 13]))
    labels = [lab for row in truth_labels(r.truth) for lab in row]
    # the faces that upside down are no number's, turned: how the wrong half turn looks
    upside = [k for k, lab in enumerate(labels) if lab in TURN_DISTINCT]
    X = slot_features(np.concatenate([patches, shaken, patches[upside, ::-1, ::-1]]))
    y = np.array([LABELS.index(lab) for lab in labels * 2] + [LABELS.index("turned")] * len(upside))
    return {"seed": seed, "X": X, "y": y}


def webcam_frame(image: np.ndarray, rng) -> np.ndarray:
    """``image`` as a webcam's stream may give it, one render in ``STREAMED_EVERY``: compressed
    once more, harder than a still (JPEG quality in ``STREAM_QUALITY``: a webcam's MJPEG at low
    bandwidth, or a video codec's frame), the cards' edges and prints smudged in blocks."""
    import cv2

    if rng.integers(STREAMED_EVERY):
        return image
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*STREAM_QUALITY))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else image


def glared(patches: np.ndarray, rng) -> np.ndarray:
    """``patches`` with a spot of light (``GLARE_SHARE`` of them): a glossy table or card under
    a lamp, the spot anywhere over the slot and of any size up to the whole slot. A gap whose
    table shines in a spot must read as a gap, not as a hand over it."""
    out = patches.copy()
    n, h, w = patches.shape[:3]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for k in np.flatnonzero(rng.random(n) < GLARE_SHARE):
        cy, cx = rng.uniform(0, h), rng.uniform(0, w)
        sy, sx = h * rng.uniform(0.15, 0.6), w * rng.uniform(0.15, 0.6)
        spot = np.exp(-((yy - cy) ** 2 / (2 * sy * sy) + (xx - cx) ** 2 / (2 * sx * sx))) * rng.uniform(*GLARE_LIGHT)
        out[k] = np.clip(out[k] + spot[..., None], 0, 255)
    return out


def jittered_patches(image: np.ndarray, lattice, rng) -> np.ndarray:
    """Each slot's patch once more, cut from a lattice moved and scaled a little
    (``JITTER``) about the slot: a lattice fitted to a photo is off by a pixel or two here
    and there, and the model must read the card all the same."""
    from vision.card_grid import CardLattice
    from vision.cards import MARGIN, PATCH

    out = np.empty((lattice.rows * lattice.cols, PATCH[1], PATCH[0], 3), np.float32)
    for k in range(lattice.rows * lattice.cols):
        r, c = divmod(k, lattice.cols)
        u, v = lattice.slot_origin(r, c)
        du, dv = rng.uniform(-JITTER, JITTER, 2)
        scale = 1 + rng.uniform(-JITTER, JITTER)
        # about the slot's centre: card units -> the same, moved and scaled
        cu, cv = u + 0.5, v + 0.5
        move = np.array([[scale, 0, cu * (1 - scale) + du], [0, scale, cv * (1 - scale) + dv], [0, 0, 1]])
        shaken = CardLattice(lattice.homography @ move, lattice.gap, lattice.rows, lattice.cols, (), ())
        out[k] = shaken.slot_patch(image, r, c, PATCH, MARGIN)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2400, help="renders to learn from (default 2400)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default="vision/models/cards", help="profile path stem")
    args = ap.parse_args(argv)
    from vision.cards import FEATURES_ID, LABELS, MARGIN, PATCH

    seeds = [TRAIN_SEEDS[FIRST + i] for i in range(args.n)]
    samples = gather(sample, seeds, args.jobs, every=50)
    train, val = by_seed(samples)
    names = tuple(lab for lab in LABELS for _ in range(PROTOTYPES))
    X = np.concatenate([s["X"] for s in train])
    y = np.concatenate([s["y"] for s in train])
    Xv = np.concatenate([s["X"] for s in val])
    yv = np.concatenate([s["y"] for s in val])
    # the learnt layers first, on the training renders only (the validation renders then
    # calibrate a model they did not shape)
    front = fit_front(X, y, len(LABELS), HIDDEN, epochs=EPOCHS, seed=FIRST)

    def fit(X, y):
        Z = through_layers(front, X)
        return fit_class_model(Z, split(Z, y, PROTOTYPES), names).with_front(front)

    model, info = refit_calibrated(fit, X, y, Xv, yv, [LABELS[v] for v in yv])
    ys = np.concatenate([s["y"] for s in samples])
    counts = {LABELS[i]: int(c) for i, c in enumerate(np.bincount(ys, minlength=len(LABELS)))}
    profile = Profile(game="cards", name="cards", features={"id": FEATURES_ID, "patch": list(PATCH), "margin": MARGIN},
                      models={"cards": model},
                      meta={"made_by": "benchmarks/build_cards_model.py", "renders": len(seeds), "grids": len(samples),
                            "first_seed": seeds[0], "examples": counts, "validation": info})
    paths = save_profile(profile, args.out)
    print(f"grids used {len(samples)} of {len(seeds)}; validation error {info['val_err']:.4f}, "
          f"temperature {info['temperature']:.3f}; wrote {paths[0]} and {paths[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
