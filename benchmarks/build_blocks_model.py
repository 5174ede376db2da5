"""Build the blocks model of grid-side squares with dice on them (vision/models/blocks.json + .npz).

    python benchmarks/build_blocks_model.py [--n 200] [--jobs 2] [--out vision/models/blocks]

The squares model (``build_squares_model.py``, Scavenger Hunt renders) knows no die: a table
whose description stands dice on squares (Slider's blocks) is read with this model instead,
so that the squares model, and the Scavenger Hunt and Steppin' Stones reads made with it,
stay as they are. Renders ``--n`` Slider tables (``benchmarks.slider_scenes``: N 4 to 8,
coins of any two suits suit side up, dice on a few squares) with seeds from
benchmarks.scenes.TRAIN_SEEDS from ``FIRST`` on (disjoint from every other model's and from
the benchmark's), in the looks that are not held out. Each render's board is found by the
reader (``vision.grid_locate``), its squares cut in the quarter turn that lays the truth on
the board and labelled: empty, a suit letter, or a die (``rules.table.DIE_ON_SQUARE``). One
linear-discriminant class model (a prototype per label and look, ``SQUARE_PROTOTYPES`` of
them) is fitted and calibrated as the squares model is. The same arguments always give the
same model.
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

from benchmarks.build_squares_model import SQUARE_PROTOTYPES, split  # noqa: E402
from benchmarks.model_fitting import build_squares_profile  # noqa: E402
from benchmarks.scenes import TRAIN_SEEDS, training_looks  # noqa: E402
from benchmarks.slider_scenes import render_slider, slider_spec, square_labels  # noqa: E402
from rules.table import DIE_ON_SQUARE  # noqa: E402
from vision.board_size import config_for_tiles  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.faces_up import quarter_frames  # noqa: E402
from vision.grid_locate import locate_grid  # noqa: E402
from vision.squares import measure_squares  # noqa: E402

LABELS = ("", "S", "M", "C", "A", DIE_ON_SQUARE)
#: the first training seed of this model (an offset into TRAIN_SEEDS away from the other models')
FIRST = 80_000


def sample(seed: int) -> dict | None:
    """Features and labels of one render's squares, or None when its board is not found right."""
    spec = slider_spec(seed, training_looks())
    r = render_slider(seed, spec)
    k = (spec["n"] + 1) // 2
    try:
        lat = locate_grid(r.image, config_for_tiles(VisionConfig(), k * k), (k, k))
    except VisionError:
        return None
    tl = lat.to_lattice(np.array(r.truth["board_corners"], float)[:1])[0]
    turns = quarter_frames(lat, k)
    errs = [float(np.hypot(*(tl - np.array(f(0.0, 0.0), float)))) for f in turns]
    i = int(np.argmin(errs))
    if errs[i] > 0.2:
        return None
    m = measure_squares(r.image, lat, turns[i], k, k)
    labels = [LABELS.index(x) for row in square_labels(r.truth) for x in row]
    return {"seed": seed, "X": m.features, "y": np.array(labels), "look": spec["look"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="renders (default 200)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "vision" / "models" / "blocks"))
    args = ap.parse_args(argv)
    seeds = [TRAIN_SEEDS[FIRST + i] for i in range(args.n)]
    build_squares_profile(sample, seeds, args.jobs, LABELS, SQUARE_PROTOTYPES, split, "blocks", "benchmarks/build_blocks_model.py",
                          args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
