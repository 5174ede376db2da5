"""Build vision's default model (vision/models/default.json + .npz) from simulator renders.

    python benchmarks/build_default_model.py [--n 960] [--jobs 2] [--out vision/models/default]

Renders ``--n`` scenes with seeds from benchmarks.scenes.TRAIN_SEEDS (disjoint from the
benchmark's), in the standard look and every other look except the held-out ones, across the
simulator's random cameras and lights (one in five with a hand over the board). Each render
is analysed by the reader with the true orientation; the cells, coins and pawns with their
true labels train one linear-discriminant class model each (vision.profile.fit_class_model).
A fifth of the renders is kept aside to set each model's temperature (so confidences are
calibrated) and its outlier threshold (above which a cell is taken as covered).
The same arguments always give the same model.
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

from benchmarks.scenes import TRAIN_SEEDS, render_scene, scene_spec, training_looks, truth_quarter_turn  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.features import FEATURES  # noqa: E402
from vision.profile import Profile, fit_class_model, save_profile  # noqa: E402
from vision.reader import HOLE, analyse  # noqa: E402

TILE_LABELS = tuple(s + r for s in "SMCA" for r in "na2345") + (HOLE,)
COIN_LABELS = ("a", "2", "3", "4", "5")
PAWN_LABELS = ("S", "M", "C", "A")


CACHE: Path | None = None


def _render_cached(seed: int, spec: dict):
    """The render of ``seed`` (from ``--cache`` if it was saved there before: renders are the slow part)."""
    import json
    from types import SimpleNamespace

    import cv2

    if CACHE is not None:
        png, js = CACHE / f"{seed}.png", CACHE / f"{seed}.json"
        if png.exists() and js.exists():
            return SimpleNamespace(image=cv2.imread(str(png)), truth=json.loads(js.read_text()))
    r = render_scene(seed, spec)
    if CACHE is not None:
        CACHE.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(CACHE / f"{seed}.png"), r.image)
        (CACHE / f"{seed}.json").write_text(json.dumps(r.truth))
    return r


def sample(seed: int) -> dict | None:
    import cv2

    cv2.setNumThreads(1)
    looks = training_looks()
    spec = scene_spec(seed, looks, hands_every=5, size=(1280, 720) if seed % 4 else (1920, 1080))
    look = looks.index(spec["look"])
    r = _render_cached(seed, spec)
    try:
        a = analyse(r.image, VisionConfig())
    except VisionError:
        return None
    k, err = truth_quarter_turn(r.truth, a.lattice)
    if err > 0.3:
        return None
    if k != a.k:
        a = analyse(r.image, VisionConfig(), k=k)
    covered = {tuple(c) for c in r.truth["covered"]}
    t = r.truth
    tiles = [TILE_LABELS.index(t["board"][i // 5][i % 5] or HOLE) for i in range(25)]
    return {
        "seed": seed,
        "look": look,
        "tile_feats": a.tile_feats,
        "tile_labels": np.array(tiles),
        "tile_covered": np.array([(i // 5, i % 5) in covered for i in range(25)]),
        "coin_feats": a.coin_feats,
        "coin_labels": np.array([COIN_LABELS.index(c) for c in t["coins"]]),
        "pawn_feats": a.pawn_feats,
        "pawn_labels": np.array([PAWN_LABELS.index(p) for p in t["pawns"]]),
    }


def _set_cache(path) -> None:
    global CACHE
    CACHE = path


def calibrate(model, X, y, covered=None):
    """Temperature minimising the validation log-loss; outlier threshold above the true cells' costs."""
    cost = model.costs(X)
    best_t, best_nll = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.01), np.log(3.0), 40)):
        z = -cost * t
        z -= z.max(1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(1, keepdims=True))
        nll = -logp[np.arange(len(y)), y].mean()
        if nll < best_nll:
            best_t, best_nll = float(t), float(nll)
    ok = cost.min(1) * best_t
    # twice the 99.5th percentile: a higher quantile follows a few odd cells and, the more
    # renders are used, the fewer real outliers (a row of table read as tiles) it flags
    outlier = float(np.quantile(ok, 0.995) * 2.0) if len(ok) else float("inf")
    info = {"temperature": best_t, "val_nll": round(best_nll, 5), "val_err": float((cost.argmin(1) != y).mean())}
    if covered is not None and len(covered):
        c = model.costs(covered).min(1) * best_t
        info["covered_flagged"] = float((c > outlier).mean())
    return model.with_calibration(best_t, outlier), info


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1].strip(), formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=960, help="renders to learn from (default 960)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default="vision/models/default", help="profile path stem")
    ap.add_argument("--cache", default=None, help="folder to keep renders in between runs (PNG + truth JSON)")
    args = ap.parse_args(argv)
    global CACHE
    CACHE = Path(args.cache) if args.cache else None
    seeds = [TRAIN_SEEDS[0] + i for i in range(args.n)]
    t0 = time.time()
    rows = []
    with ProcessPoolExecutor(args.jobs, initializer=_set_cache, initargs=(CACHE,)) as ex:
        for i, row in enumerate(ex.map(sample, seeds, chunksize=4)):
            rows.append(row)
            print(f"\r{i + 1}/{len(seeds)} renders ({time.time() - t0:.0f} s)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    rows = [r for r in rows if r is not None]
    print(f"usable renders: {len(rows)} of {len(seeds)}", file=sys.stderr)
    val = [r for r in rows if r["seed"] % 5 == 1]
    train = [r for r in rows if r["seed"] % 5 != 1]

    n_looks = len(training_looks())

    def stack(rs, key, labels, mask_key=None, keep=True, per_look=0):
        """Features and labels; with ``per_look`` C, one prototype per (label, look): label + C * look."""
        X = np.concatenate([r[key] for r in rs])
        y = np.concatenate([r[labels] + per_look * r["look"] for r in rs])
        if mask_key:
            m = np.concatenate([r[mask_key] for r in rs])
            return (X[~m], y[~m]) if keep else (X[m], y[m])
        return X, y

    models, info = {}, {}
    C = len(TILE_LABELS)
    Xt, yt = stack(train, "tile_feats", "tile_labels", "tile_covered", per_look=C)
    Xv, yv = stack(val, "tile_feats", "tile_labels", "tile_covered")
    Xc, _ = stack(val, "tile_feats", "tile_labels", "tile_covered", keep=False)
    m = fit_class_model(Xt, yt, TILE_LABELS * n_looks, ridge=0.05)
    models["tiles"], info["tiles"] = calibrate(m, Xv, yv, Xc)
    for kind, labels in (("coins", COIN_LABELS), ("pawns", PAWN_LABELS)):
        C = len(labels)
        Xt, yt = stack(train, f"{kind[:-1]}_feats", f"{kind[:-1]}_labels", per_look=C)
        Xv, yv = stack(val, f"{kind[:-1]}_feats", f"{kind[:-1]}_labels")
        m = fit_class_model(Xt, yt, labels * n_looks, ridge=0.05)
        models[kind], info[kind] = calibrate(m, Xv, yv)
    profile = Profile(
        game="easy-slider",
        name="default",
        features=dict(FEATURES),
        models=models,
        meta={
            "made_by": "benchmarks/build_default_model.py",
            "renders": len(rows),
            "seeds": [seeds[0], seeds[-1]],
            "looks": list(training_looks()),
            "validation": info,
        },
    )
    j, n = save_profile(profile, args.out)
    print(f"wrote {j} and {n} ({n.stat().st_size // 1024} KiB)")
    for kind, i in info.items():
        print(f"  {kind}: {i}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
