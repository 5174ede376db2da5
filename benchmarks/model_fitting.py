"""What the model builders share: gathering training samples from renders in worker
processes, and a class model fitted on the training renders, calibrated on the validation
renders and fitted again on both with that calibration (``refit_calibrated``)."""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Sequence

import numpy as np

from benchmarks.build_default_model import calibrate
from vision.profile import fit_class_model


def gather(sample: Callable, seeds: Sequence[int], jobs: int, every: int = 20) -> list:
    """``sample(seed)`` of every seed, in ``jobs`` processes, in seed order; a None (a render
    that cannot be used) is left out. Progress every ``every`` renders on stderr."""
    t0 = time.time()
    samples = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for k, s in enumerate(pool.map(sample, seeds, chunksize=4), 1):
            if s is not None:
                samples.append(s)
            if k % every == 0 or k == len(seeds):
                print(f"  {k}/{len(seeds)} renders, {len(samples)} boards used, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    return samples


def refit_calibrated(fit: Callable, X: np.ndarray, y: np.ndarray, Xv: np.ndarray, yv: np.ndarray,
                     val_labels: Sequence[str]) -> tuple:
    """(model, calibration info): ``fit(X, y)`` (y: prototype groups) calibrated on the
    validation rows ``Xv`` (their class names ``val_labels``), then ``fit`` on the training and
    validation rows together (``yv`` their groups), keeping that calibration."""
    first = fit(X, y)
    model, info = calibrate(first, Xv, np.array([first.classes.index(lab) for lab in val_labels]))
    full = fit(np.concatenate([X, Xv]), np.concatenate([y, yv]))
    return full.with_calibration(model.temperature, model.outlier), info


def by_seed(samples: list) -> tuple[list, list]:
    """(training, validation) samples: every fifth seed validates."""
    return [s for s in samples if s["seed"] % 5 != 0], [s for s in samples if s["seed"] % 5 == 0]


def fit_per_look(train: list, val: list, labels: Sequence[str], looks: Sequence[str], prototypes: int,
                 split: Callable) -> tuple:
    """(model, calibration info) of the samples' ``X`` rows over ``labels`` (``y``: label
    indices): a prototype per label and look (a look's numerals and colours are its own) cut
    into ``prototypes`` by ``split``, a label being one class whichever look's prototype fits;
    ``refit_calibrated`` on ``train`` and ``val``."""
    names = tuple(lab for lab in labels for _ in looks for _ in range(prototypes))

    def proto(s: dict) -> np.ndarray:
        return s["y"] * len(looks) + looks.index(s["look"])

    X = np.concatenate([s["X"] for s in train])
    y = np.concatenate([proto(s) for s in train])
    Xv = np.concatenate([s["X"] for s in val])
    yv = np.concatenate([s["y"] for s in val])
    return refit_calibrated(lambda X, y: fit_class_model(X, split(X, y, prototypes), names), X, y, Xv,
                            np.concatenate([proto(s) for s in val]), [labels[v] for v in yv])


def build_squares_profile(sample: Callable, seeds: Sequence[int], jobs: int, labels: Sequence[str], prototypes: int,
                          split: Callable, name: str, made_by: str, out: str, every: int = 20,
                          empty: str = "") -> None:
    """Build and save a squares model of one class model (``fit_per_look`` over the looks not
    held out, ``prototypes`` a label and look cut by ``split``) from ``sample(seed)`` of each
    seed (``gather``: ``X`` features of the squares, ``y`` label indices, ``look``), as the
    profile ``name`` at ``out``; its meta counts the examples of each label (the empty label
    written ``empty``). Prints what it used and wrote."""
    from benchmarks.scenes import training_looks
    from vision.profile import Profile, save_profile
    from vision.squares import FEATURES_ID, WINDOW, WINDOW_PX

    samples = gather(sample, seeds, jobs, every=every)
    train, val = by_seed(samples)
    model, info = fit_per_look(train, val, labels, training_looks(), prototypes, split)
    ys = np.concatenate([s["y"] for s in samples])
    counts = {labels[i] or empty: int(c) for i, c in enumerate(np.bincount(ys, minlength=len(labels)))}
    profile = Profile(game="squares", name=name, features={"id": FEATURES_ID, "window": WINDOW, "window_px": WINDOW_PX},
                      models={"squares": model},
                      meta={"made_by": made_by, "renders": len(seeds), "boards": len(samples),
                            "first_seed": seeds[0], "examples": counts, "validation": info})
    paths = save_profile(profile, out)
    print(f"boards used {len(samples)} of {len(seeds)}; validation error {info['val_err']:.4f}, "
          f"temperature {info['temperature']:.3f}; wrote {paths[0]} and {paths[1]}")
