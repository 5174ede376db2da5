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
