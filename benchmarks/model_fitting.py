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


def fit_front(X: np.ndarray, y: np.ndarray, classes: int, hidden: Sequence[int], *, epochs: int = 30,
              batch: int = 128, rate: float = 1e-3, decay: float = 1e-4, drop: float = 0.2,
              seed: int = 0) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Layers (weights, bias; each followed by a ReLU) learnt as the hidden layers of a small
    network that tells the ``classes`` labels ``y`` of the features ``X`` apart (softmax
    cross-entropy, Adam with a cosine-falling rate, weight decay, dropout on the hidden
    layers); the features' standardisation is folded into the first layer. A
    ``vision.profile.ClassModel`` then reads through them (its ``front``): its prototypes lie
    in the last hidden layer, where the network made the labels apart. Deterministic for a
    given ``seed`` (numpy only, run on one thread by the builders)."""
    rng = np.random.default_rng(seed)
    mu, sd = X.mean(0), X.std(0) + 1e-6
    Xn = ((X - mu) / sd).astype(np.float32)
    sizes = [X.shape[1], *hidden, classes]
    W = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in zip(sizes[:-1], sizes[1:])]
    B = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = W + B
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        lr = rate * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        order = rng.permutation(len(Xn))
        for k in range(0, len(order), batch):
            idx = order[k:k + batch]
            acts = [Xn[idx]]
            for i in range(len(W)):
                z = acts[-1] @ W[i] + B[i]
                if i < len(W) - 1:
                    z = np.maximum(z, 0.0) * (rng.random(z.shape) > drop) / (1 - drop)
                acts.append(z)
            z = acts[-1] - acts[-1].max(1, keepdims=True)
            g = np.exp(z)
            g /= g.sum(1, keepdims=True)
            g[np.arange(len(idx)), y[idx]] -= 1.0
            g /= len(idx)
            grads_w, grads_b = [None] * len(W), [None] * len(W)
            for i in range(len(W) - 1, -1, -1):
                grads_w[i] = acts[i].T @ g + decay * W[i]
                grads_b[i] = g.sum(0)
                if i:
                    g = (g @ W[i].T) * (acts[i] > 0)
            step += 1
            for j, (p, gr) in enumerate(zip(params, grads_w + grads_b)):
                m1[j] = 0.9 * m1[j] + 0.1 * gr
                m2[j] = 0.999 * m2[j] + 0.001 * gr * gr
                p -= lr * (m1[j] / (1 - 0.9 ** step)) / (np.sqrt(m2[j] / (1 - 0.999 ** step)) + 1e-8)
    first_w = W[0] / sd[:, None].astype(np.float32)
    first_b = B[0] - (mu / sd).astype(np.float32) @ W[0]
    layers = [(first_w, first_b)] + list(zip(W[1:-1], B[1:-1]))
    return tuple((w.astype(np.float32), b.astype(np.float32)) for w, b in layers)
