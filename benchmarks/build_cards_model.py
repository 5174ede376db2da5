"""Build the cards model (vision/models/cards.json + .npz) from renders of Slide card grids.

    python benchmarks/build_cards_model.py [--n 1200] [--jobs 2] [--out vision/models/cards]

Renders ``--n`` grids (``benchmarks.slide_scenes``) with seeds from
benchmarks.scenes.TRAIN_SEEDS (disjoint from the read benchmark's and from the seeds the
reader was tuned on), each in a card design of its own drawn from the seed
(``simulator.decks.deck_for_seed``: never a named design, so the named ones and the held-out
one stay unseen), on the tables of the looks not held out. In each, the reader finds the
grid (``vision.card_grid``); where it lies on the truth's slots in one of its two half
turns, each slot's features (``vision.cards.slot_features``) are taken upright in the
truth's frame, labelled ``1``..``10``, ``down``, ``empty`` or, in the renders where a hand
reaches over the grid (one in ``HANDS_EVERY``), ``covered`` where it hides a slot in part. A linear-discriminant class
model with ``PROTOTYPES`` prototypes a label (k-means) is fitted; a fifth of the renders sets
its temperature and outlier threshold. The same arguments always give the same model.
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
from benchmarks.model_fitting import by_seed, gather, refit_calibrated  # noqa: E402
from benchmarks.scenes import TRAIN_SEEDS, training_looks  # noqa: E402
from benchmarks.slide_scenes import lattice_error, render_slide, slide_spec, truth_labels  # noqa: E402
from vision.profile import Profile, fit_class_model, save_profile  # noqa: E402

#: prototypes per label (card designs differ: fonts, weights, corner marks, backs)
PROTOTYPES = 12
#: the first training seed (an offset into TRAIN_SEEDS away from the other models')
FIRST = 90_000
#: a hand reaches over the grid in one training render of this many (its slots: ``covered``)
HANDS_EVERY = 3
#: a found grid lies on the truth's when its slot centres are this close (card widths)
ON_TRUTH = 0.25


def training_deck(seed: int) -> str:
    """The card design of training render ``seed``: a procedural one of its own."""
    return f"deck-{seed}"


def sample(seed: int) -> dict | None:
    """Features and labels of one render's 16 slots, or None when its grid is not found right."""
    from vision.card_grid import locate_cards
    from vision.cards import LABELS, slot_features, slot_patches
    from vision.errors import BoardNotFound

    spec = slide_spec(seed, (training_deck(seed),), training_looks(), hands_every=HANDS_EVERY)
    r = render_slide(seed, spec)
    try:
        lattice = locate_cards(r.image)
    except BoardNotFound:
        return None
    for lat in (lattice, lattice.turned()):
        if lattice_error(r.truth, lat) < ON_TRUTH:
            break
    else:
        return None
    patches = slot_patches(r.image, lat)
    X = slot_features(patches.reshape(16, *patches.shape[2:]))
    y = np.array([LABELS.index(lab) for row in truth_labels(r.truth) for lab in row])
    return {"seed": seed, "X": X, "y": y}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1200, help="renders to learn from (default 1200)")
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
    model, info = refit_calibrated(lambda X, y: fit_class_model(X, split(X, y, PROTOTYPES), names), X, y, Xv, yv,
                                   [LABELS[v] for v in yv])
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
