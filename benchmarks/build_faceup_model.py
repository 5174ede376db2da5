"""Build the model of squares on face-up tiles (vision/models/faceup.json + .npz) from renders.

    python benchmarks/build_faceup_model.py [--n 320] [--jobs 2] [--out vision/models/faceup]

The squares model (``benchmarks/build_squares_model.py``) knows squares of tiles grid side up;
a square of a tile lying face up (Steppin' Stones' home tiles, each its suit's ace) shows a
part of the tile's print instead (the ace's suit symbol, its corner symbol), which that model
takes for a coin suit side up. This model is learnt from those squares alone: ``--n``
Steppin' Stones renders with seeds from benchmarks.scenes.TRAIN_SEEDS (disjoint from the read
benchmark's and from the seeds the reader was tuned on), in the looks that are not held out,
cameras tilted up to 35 degrees. Each render's board is found and framed by the reader
(``vision.grid_locate``, ``vision.faces_up``); the squares of its face-up tiles are measured
as squares are (``vision.squares.measure_squares``) and labelled from the truth: empty, a
coin's rank or suit. One linear-discriminant class model is fitted, a prototype set per
label and look; a fifth of the renders sets its temperature and outlier threshold. The same
arguments always give the same model.
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

from benchmarks.bench_read_stones import labels_of, training_board  # noqa: E402
from benchmarks.model_fitting import build_squares_profile  # noqa: E402
from benchmarks.build_squares_model import split  # noqa: E402
from benchmarks.scenes import TRAIN_SEEDS  # noqa: E402
from vision.squares import grid_side, measure_squares  # noqa: E402

LABELS = ("", "n", "a", "2", "3", "4", "5", "S", "M", "C", "A")
PROTOTYPES = 3
#: the first training seed (an offset into TRAIN_SEEDS away from the other models')
FIRST = 75_000
BOARD = 4
FACES_UP = (((0, 0), "Sa"), ((0, 3), "Ma"), ((3, 3), "Ca"), ((3, 0), "Aa"))
SQUARES = [(2 * i + a, 2 * j + b) for (i, j), _ in FACES_UP for a in (0, 1) for b in (0, 1)]


def sample(seed: int) -> dict | None:
    """Features and labels of one render's face-up squares, or None when its board is not found right."""
    found = training_board(seed)
    if found is None:
        return None  # the frame or the board is wrong: nothing to learn from it
    r, lat, frame = found
    # measured as the reader measures them: against the grid-side squares
    m = measure_squares(r.image, lat, frame, BOARD, BOARD, ground=grid_side(BOARD, BOARD, [tile for tile, _ in FACES_UP]))
    want = labels_of(r.truth["board"], r.truth["pawns"])
    keep = [(row, col) for row, col in SQUARES if want[row][col] in LABELS]  # (no pawn stands there in these layouts)
    idx = np.array([row * 2 * BOARD + col for row, col in keep], np.int64)
    return {"seed": seed, "X": m.features[idx], "y": np.array([LABELS.index(want[row][col]) for row, col in keep]),
            "look": r.truth["look"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=320, help="renders (default 320)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "vision" / "models" / "faceup"))
    args = ap.parse_args(argv)
    seeds = [TRAIN_SEEDS[FIRST + i] for i in range(args.n)]
    build_squares_profile(sample, seeds, args.jobs, LABELS, PROTOTYPES, split, "faceup", "benchmarks/build_faceup_model.py",
                          args.out, every=40, empty="empty")
    return 0


if __name__ == "__main__":
    sys.exit(main())
