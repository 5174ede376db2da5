"""Build the dice model (vision/models/dice.json + .npz) from renders of dice beside a board.

    python benchmarks/build_dice_model.py [--n 320] [--jobs 2] [--out vision/models/dice]

Renders ``--n`` Steppin' Stones tables (one die per suit beside the board) with seeds from
benchmarks.scenes.TRAIN_SEEDS (disjoint from the read benchmark's and from the seeds the
reader was tuned on), in the looks that are not held out, cameras tilted up to 35 degrees.
In each, the reader finds the board and its frame, proposes places in the band around it and
tries each on a grid of offsets (``vision.dice``); a try within ``ON_DIE`` pitch of a die's
top is that die, a try beyond ``OFF_DIE`` of every die is the table (a share of them), the
tries between are left out. Three linear-discriminant class models are fitted, a prototype
set per label and look: ``faces`` (table, null, suit symbol, 2-5) on the tries' face
features, ``ranks`` (suit symbol, 2-5) on the numerals' features of the marked dice, and
``suits`` on the ink colour of the marked dice (a null die shows no colour). A fifth of the
renders sets each model's temperature and outlier threshold. The same arguments always give
the same model.
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

from benchmarks.bench_read_stones import training_board  # noqa: E402
from benchmarks.model_fitting import by_seed, gather, refit_calibrated  # noqa: E402
from benchmarks.build_squares_model import split  # noqa: E402
from benchmarks.scenes import TRAIN_SEEDS, training_looks  # noqa: E402
from vision.dice import DIE_PX, DIE_WINDOW, FACES, SUIT_LETTERS, die_windows, face_features, propose, rank_features, suit_features, tries  # noqa: E402
from vision.profile import Profile, fit_class_model, save_profile  # noqa: E402

LABELS = ("",) + FACES
SUITS_LABELS = tuple(SUIT_LETTERS)
RANK_LABELS = FACES[1:]
RANK_PROTOTYPES = 10
#: prototypes per label and look: the table's many looks, a die's few
TABLE_PROTOTYPES = 8
DIE_PROTOTYPES = 5
SUIT_PROTOTYPES = 2
#: a window within this many pitches of a die's top is that die; beyond OFF_DIE of every die
#: it is the table, of which a TABLE_SHARE is kept (there are many)
ON_DIE = 0.035
OFF_DIE = 0.12
TABLE_SHARE = 0.15
#: the first training seed (an offset into TRAIN_SEEDS away from the other models')
FIRST = 70_000
BOARD = 4


def sample(seed: int) -> dict | None:
    """Features and labels of one render's proposed places, or None when its board is not found."""
    found = training_board(seed)
    if found is None:
        return None  # the frame or the board is wrong: nothing to learn from it
    r, lat, frame = found
    places = propose(r.image, lat, BOARD, BOARD)
    windows, glyphs, shape, points = die_windows(r.image, lat, frame, places, tries())
    N, T = windows.shape[:2]
    flat = (N * T, DIE_PX, DIE_PX, 3)
    windows, glyphs, shape, points = (windows.reshape(flat), glyphs.reshape(flat), shape.reshape(N * T, -1),
                                      points.reshape(N * T, 2))
    dice = lat.to_lattice(np.array(r.truth["die_points"], float))
    d = np.hypot(*(points[:, None, :] - dice[None]).transpose(2, 0, 1))
    near = d.argmin(1)
    dist = d.min(1)
    # a die where a window lies on its top; the table well away from every die; neither between
    rng = np.random.default_rng([seed, 5])
    pick = (dist < ON_DIE) | ((dist > OFF_DIE) & (rng.random(len(dist)) < TABLE_SHARE))
    y, suit = [], []
    for k in np.flatnonzero(pick):
        die = r.truth["dice"][near[k]] if dist[k] < ON_DIE else None
        y.append(0 if die is None else LABELS.index(die["face"]))
        suit.append(-1 if die is None or die["face"] == "n" else SUIT_LETTERS.index(die["suit"]))
    y = np.array(y, np.int64)
    marked = np.array([LABELS[v] in RANK_LABELS for v in y], bool)
    return {"seed": seed, "X": face_features(windows[pick], glyphs[pick], shape[pick]), "S": suit_features(glyphs[pick]),
            "R": rank_features(glyphs[pick]), "y": y, "suit": np.array(suit, np.int64),
            "rank": np.where(marked, [RANK_LABELS.index(LABELS[v]) if LABELS[v] in RANK_LABELS else -1 for v in y], -1),
            "look": r.truth["look"]}


def fit_calibrated(train: list, val: list, key: str, ykey: str, labels: tuple, per: dict) -> tuple:
    """A class model of ``key`` features over ``labels`` (``ykey``: label indices, -1: not an
    example), ``per[label index]`` prototypes per label and look (default DIE_PROTOTYPES),
    fitted on ``train``, calibrated on ``val``, refitted on both."""
    looks = training_looks()
    most = max([*per.values()]) if len(per) == len(labels) else max([DIE_PROTOTYPES, *per.values()])
    names = tuple(lab for lab in labels for _ in looks for _ in range(most))

    def data(group):
        X = np.concatenate([s[key][s[ykey] >= 0] for s in group])
        y = np.concatenate([s[ykey][s[ykey] >= 0] * len(looks) + looks.index(s["look"]) for s in group])
        return X, y

    def fit(X, y):
        sub = split(X, y, most)
        label = y // len(looks)
        cap = np.array([per.get(int(v), DIE_PROTOTYPES) for v in label])
        sub = y * most + (sub % most) % cap  # a label keeps its own number of prototypes
        return fit_class_model(X, sub, names)

    X, y = data(train)
    Xv, yv = data(val)
    return refit_calibrated(fit, X, y, Xv, yv, [labels[v] for v in yv // len(looks)])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=320, help="renders (default 320)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "vision" / "models" / "dice"))
    args = ap.parse_args(argv)
    seeds = [TRAIN_SEEDS[FIRST + i] for i in range(args.n)]
    samples = gather(sample, seeds, args.jobs, every=40)
    train, val = by_seed(samples)
    faces, info = fit_calibrated(train, val, "X", "y", LABELS, {0: TABLE_PROTOTYPES})
    suits, suit_info = fit_calibrated(train, val, "S", "suit", SUITS_LABELS, {i: SUIT_PROTOTYPES for i in range(4)})
    ranks, rank_info = fit_calibrated(train, val, "R", "rank", RANK_LABELS,
                                      {i: RANK_PROTOTYPES for i in range(len(RANK_LABELS))})
    info["suits"] = suit_info
    info["ranks"] = rank_info
    every = np.concatenate([s["y"] for s in samples])
    counts = {LABELS[i] or "table": int(c) for i, c in enumerate(np.bincount(every, minlength=len(LABELS)))}
    profile = Profile(game="dice", name="dice", features={"id": "dice-v7", "window": DIE_WINDOW, "window_px": DIE_PX},
                      models={"faces": faces, "suits": suits, "ranks": ranks},
                      meta={"made_by": "benchmarks/build_dice_model.py", "renders": args.n, "boards": len(samples),
                            "first_seed": seeds[0], "examples": counts, "validation": info})
    paths = save_profile(profile, args.out)
    print(f"boards used {len(samples)} of {args.n}; validation error {info['val_err']:.4f} (suits "
          f"{suit_info['val_err']:.4f}, marked faces {rank_info['val_err']:.4f}); wrote {paths[0]} and {paths[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
