"""Build the squares model of grid-side boards (vision/models/squares.json + .npz) from renders.

    python benchmarks/build_squares_model.py [--n 240] [--jobs 2] [--out vision/models/squares]

Renders ``--n`` Scavenger Hunt tables with seeds from benchmarks.scenes.TRAIN_SEEDS (disjoint
from the read benchmark's), in the looks that are not held out, at 1280x720 and 1920x1080,
over the simulator's random cameras and lights. Each render's board is found by the reader
(``vision.grid_locate``); its squares are cut in the frame that lays the truth on the board
and labelled from the truth: empty, a coin's rank (value side up), a coin's suit (suit side
up), or a pawn of a suit. One linear-discriminant class model is fitted
(``vision.profile.fit_class_model``); a fifth of the renders is kept aside to set its
temperature and outlier threshold, as for the default model. The same arguments always give
the same model.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.model_fitting import by_seed, fit_per_look, gather, refit_calibrated  # noqa: E402
from benchmarks.scenes import (SQUARE_BOARD, TRAIN_SEEDS, render_square_scene, square_scene_spec, square_truth_frame,  # noqa: E402
                               square_truth_labels, training_looks)
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.grid_locate import locate_grid  # noqa: E402
from vision.profile import Profile, fit_class_model, save_profile  # noqa: E402
from vision.squares import FEATURES_ID, WINDOW, WINDOW_PX, frames, measure_squares  # noqa: E402

LABELS = ("", "n", "a", "2", "3", "4", "5", "S", "M", "C", "A", "pS", "pM", "pC", "pA")
RANKS = ("n", "a", "2", "3", "4", "5")
#: prototypes per label and look in the squares model, and per rank and look in the ranks model
SQUARE_PROTOTYPES = 3
RANK_PROTOTYPES = 20
#: the first training seed of this model (an offset into TRAIN_SEEDS away from the default model's)
FIRST = 60_000


def split(X: np.ndarray, y: np.ndarray, per: int) -> np.ndarray:
    """Prototype indices: each label-and-look group of ``y`` cut into ``per`` prototypes by
    k-means (a numeral turned one way or the other, blurred or sharp, is a prototype of its
    own); deterministic."""
    sub = np.zeros(len(y), np.int64)
    for g in np.unique(y):
        idx = np.flatnonzero(y == g)
        k = min(per, len(idx))
        if k > 1:
            cv2.setRNGSeed(int(g))
            _, lab, _ = cv2.kmeans(X[idx].astype(np.float32), k, None,
                                   (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-3), 3, cv2.KMEANS_PP_CENTERS)
            sub[idx] = lab.ravel()
    return y * per + sub


def sample(seed: int) -> dict | None:
    """Features and labels of one render's squares, or None when its board is not found right."""
    spec = square_scene_spec(seed, training_looks())
    r = render_square_scene(seed, spec)
    rows, cols = SQUARE_BOARD
    try:
        lat = locate_grid(r.image, VisionConfig(), SQUARE_BOARD)
    except VisionError:
        return None
    fr = frames(lat, rows, cols)
    i, err = square_truth_frame(r.truth, lat, fr, rows, cols)
    if err > 0.15:
        return None
    m = measure_squares(r.image, lat, fr[i], rows, cols)
    labels = [LABELS.index(x) for row in square_truth_labels(r.truth) for x in row]
    return {"seed": seed, "X": m.features, "C": m.coin_features, "y": np.array(labels), "look": spec["look"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=240, help="renders (default 240)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "vision" / "models" / "squares"))
    args = ap.parse_args(argv)
    seeds = [TRAIN_SEEDS[FIRST + i] for i in range(args.n)]
    samples = gather(sample, seeds, args.jobs)
    looks = training_looks()
    train, val = by_seed(samples)
    # refit on every board with the temperature and threshold found
    model, info = fit_per_look(train, val, LABELS, looks, SQUARE_PROTOTYPES, split)
    # the ranks of coins value side up, from their coin features alone (as the face-up
    # reader's coin model): the squares model tells a coin from the rest, this its value
    ranks = [i for i, lab in enumerate(LABELS) if lab in RANKS]

    def rank_set(group):
        X = np.concatenate([s["C"][np.isin(s["y"], ranks)] for s in group])
        y = np.concatenate([np.array([RANKS.index(LABELS[v]) * len(looks) + looks.index(s["look"])
                                      for v in s["y"][np.isin(s["y"], ranks)]]) for s in group])
        return X, y

    rank_names = tuple(lab for lab in RANKS for _ in looks for _ in range(RANK_PROTOTYPES))
    Xr, yr = rank_set(train)
    Xrv, yrv = rank_set(val)
    rank_model, rank_info = refit_calibrated(lambda X, y: fit_class_model(X, split(X, y, RANK_PROTOTYPES), rank_names),
                                             Xr, yr, Xrv, yrv, [RANKS[v] for v in yrv // len(looks)])
    info["ranks"] = rank_info
    every = np.concatenate([s["y"] for s in samples])
    counts = {LABELS[i]: int(c) for i, c in enumerate(np.bincount(every, minlength=len(LABELS)))}
    profile = Profile(game="squares", name="squares", features={"id": FEATURES_ID, "window": WINDOW, "window_px": WINDOW_PX},
                      models={"squares": model, "ranks": rank_model},
                      meta={"made_by": "benchmarks/build_squares_model.py", "renders": args.n, "boards": len(samples),
                            "first_seed": seeds[0], "examples": counts, "validation": info})
    paths = save_profile(profile, args.out)
    print(f"boards used {len(samples)} of {args.n}; validation error {info['val_err']:.4f} (ranks alone "
          f"{rank_info['val_err']:.4f}), temperature {info['temperature']:.3f}; wrote {paths[0]} and {paths[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
