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
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.build_default_model import calibrate  # noqa: E402
from benchmarks.scenes import (SQUARE_BOARD, TRAIN_SEEDS, render_square_scene, square_scene_spec, square_truth_frame,  # noqa: E402
                               square_truth_labels, training_looks)
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.grid_locate import locate_grid  # noqa: E402
from vision.profile import Profile, fit_class_model, save_profile  # noqa: E402
from vision.squares import FEATURES_ID, WINDOW, WINDOW_PX, frames, read_squares  # noqa: E402

LABELS = ("", "n", "a", "2", "3", "4", "5", "S", "M", "C", "A", "pS", "pM", "pC", "pA")
#: the first training seed of this model (an offset into TRAIN_SEEDS away from the default model's)
FIRST = 60_000


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
    feats = read_squares(r.image, lat, fr[i], rows, cols)
    labels = [LABELS.index(x) for row in square_truth_labels(r.truth) for x in row]
    return {"seed": seed, "X": feats, "y": np.array(labels), "look": spec["look"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=240, help="renders (default 240)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "vision" / "models" / "squares"))
    args = ap.parse_args(argv)
    seeds = [TRAIN_SEEDS[FIRST + i] for i in range(args.n)]
    t0 = time.time()
    samples = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for k, s in enumerate(pool.map(sample, seeds, chunksize=4), 1):
            if s is not None:
                samples.append(s)
            if k % 20 == 0 or k == len(seeds):
                print(f"  {k}/{len(seeds)} renders, {len(samples)} boards used, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    looks = training_looks()
    # a prototype per label and look (a look's numerals and colours are its own); a label is
    # one class whichever look's prototype fits
    names = tuple(lab for lab in LABELS for _ in looks)

    def proto(s: dict) -> np.ndarray:
        return s["y"] * len(looks) + looks.index(s["look"])

    val = [s for s in samples if s["seed"] % 5 == 0]
    train = [s for s in samples if s["seed"] % 5 != 0]
    X = np.concatenate([s["X"] for s in train])
    y = np.concatenate([proto(s) for s in train])
    model = fit_class_model(X, y, names)
    Xv = np.concatenate([s["X"] for s in val])
    yv = np.concatenate([s["y"] for s in val])
    model, info = calibrate(model, Xv, np.array([model.classes.index(LABELS[v]) for v in yv]))
    # refit on every board with the temperature and threshold found
    full = fit_class_model(np.concatenate([X, Xv]), np.concatenate([y, np.concatenate([proto(s) for s in val])]), names)
    model = full.with_calibration(model.temperature, model.outlier)
    every = np.concatenate([s["y"] for s in samples])
    counts = {LABELS[i]: int(c) for i, c in enumerate(np.bincount(every, minlength=len(LABELS)))}
    profile = Profile(game="squares", name="squares", features={"id": FEATURES_ID, "window": WINDOW, "window_px": WINDOW_PX},
                      models={"squares": model},
                      meta={"made_by": "benchmarks/build_squares_model.py", "renders": args.n, "boards": len(samples),
                            "first_seed": seeds[0], "examples": counts, "validation": info})
    paths = save_profile(profile, args.out)
    print(f"boards used {len(samples)} of {args.n}; validation error {info['val_err']:.4f}, temperature "
          f"{info['temperature']:.3f}; wrote {paths[0]} and {paths[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
