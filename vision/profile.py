"""Piece-set profiles: what one set of pieces looks like, as learnt from labelled images.

A profile is two files side by side, no pickle:

* ``NAME.json`` -- small and readable: ``format`` ("table-caller-profile"), ``version``,
  ``game``, ``name``, ``features`` (the feature extractor's id and sizes, so a profile is
  never used with features it was not learnt on), and per model (``tiles``, ``coins``,
  ``pawns``) its ``labels`` and ``temperature``; plus free ``meta`` (how it was made).
* ``NAME.npz`` -- the arrays, per model ``<model>_means`` (C x D float32 class means in
  feature space) and ``<model>_projection`` (D x K float32 discriminant projection:
  squared distances in the projected space are Mahalanobis distances under the pooled
  within-class covariance).

The default model (``vision/models/default``) is itself such a profile, built by
``benchmarks/build_default_model.py`` from simulator renders; ``caller calibrate`` writes
the same format for a user's own set.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rules.outputs import OutputFiles
from vision.errors import ProfileError

PROFILE_FORMAT = "table-caller-profile"
PROFILE_VERSION = 1
MODEL_NAMES = ("tiles", "coins", "pawns")
DEFAULT_PROFILE = Path(__file__).resolve().parent / "models" / "default"


@dataclass(frozen=True, eq=False)
class ClassModel:
    """Nearest-prototype classifier in a discriminant space.

    ``labels``: the notation code of each prototype (row of ``means``); a code may have
    several prototypes (one per edition's font, say), and a class's cost is that of its
    nearest prototype. ``means``: P x D prototypes in raw feature space; ``projection``:
    D x K; ``temperature``: nats per half squared projected distance (tuned so that
    confidences are calibrated). ``classes``: the distinct codes, in first-seen order.
    """

    labels: tuple[str, ...]
    means: np.ndarray
    projection: np.ndarray
    temperature: float = 1.0
    outlier: float = float("inf")
    """A cell whose best cost (nats) exceeds this matches no class: something covers it."""
    front: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
    """Learnt layers (weights D_in x D_out, bias D_out), each followed by a ReLU, that the
    features pass through before the projection (``embed``); the prototypes ``means`` live
    in their output. None: the discriminant space is linear in the features."""

    def __post_init__(self) -> None:
        m, p = np.asarray(self.means), np.asarray(self.projection)
        if m.ndim != 2 or m.shape[0] != len(self.labels) or p.ndim != 2 or p.shape[0] != m.shape[1]:
            raise ProfileError(
                f"class model arrays do not fit: means {m.shape}, projection {p.shape}, {len(self.labels)} labels"
            )
        if not (np.isfinite(m).all() and np.isfinite(p).all() and np.isfinite(self.temperature) and self.temperature > 0):
            raise ProfileError("class model holds NaN or infinite numbers (or a temperature that is not above 0)")
        front = tuple((np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in self.front)
        width = m.shape[1]
        for w, b in reversed(front):
            if w.ndim != 2 or b.shape != (w.shape[1],) or w.shape[1] != width:
                raise ProfileError(f"class model layers do not fit: weights {w.shape}, bias {b.shape}, into {width}")
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise ProfileError("class model layers hold NaN or infinite numbers")
            width = w.shape[0]
        object.__setattr__(self, "front", front)
        object.__setattr__(self, "means", m.astype(np.float32))
        object.__setattr__(self, "projection", p.astype(np.float32))
        object.__setattr__(self, "_projected_means", (m @ p).astype(np.float32))
        classes = tuple(dict.fromkeys(self.labels))
        object.__setattr__(self, "classes", classes)
        pc = np.array([classes.index(l) for l in self.labels])
        object.__setattr__(self, "_proto_class", pc)
        # the prototypes grouped by class, and where each class's group starts (for reduceat)
        order = np.argsort(pc, kind="stable")
        object.__setattr__(self, "_by_class", order)
        object.__setattr__(self, "_class_starts", np.searchsorted(pc[order], np.arange(len(classes))))

    @property
    def dim(self) -> int:
        """How many features the model reads."""
        return int(self.front[0][0].shape[0] if self.front else self.means.shape[1])

    def embed(self, features: np.ndarray) -> np.ndarray:
        """N x D features through the learnt layers (``front``): the space of ``means``."""
        return through_layers(self.front, features)

    def project(self, features: np.ndarray) -> np.ndarray:
        """N x D features -> N x K points of the discriminant space."""
        return self.embed(features) @ self.projection

    def costs(self, features: np.ndarray) -> np.ndarray:
        """N x D features -> N x C costs in nats over ``classes`` (negative log-likelihood up to a constant per row)."""
        return self._costs_at(self.project(features))

    def costs_varied(self, features: np.ndarray, first: int, variants: np.ndarray) -> np.ndarray:
        """V x N x C: the costs of N x D ``features`` with their columns from ``first`` on
        replaced by each of V variants (V x N x K: a coin's face read at other turns). Without
        learnt layers the projection is linear, and only the columns replaced are projected
        again."""
        V, N, K = variants.shape
        if self.front:
            x = np.repeat(np.asarray(features, np.float32)[None], V, 0)
            x[:, :, first:first + K] = variants
            return self.costs(x.reshape(V * N, -1)).reshape(V, N, -1)
        part = self.projection[first:first + K]
        z = self.project(features) - np.asarray(features[:, first:first + K], np.float32) @ part
        z = z[None] + (np.asarray(variants, np.float32).reshape(V * N, K) @ part).reshape(V, N, -1)
        return self._costs_at(z.reshape(V * N, -1)).reshape(V, N, -1)

    def _costs_at(self, z: np.ndarray) -> np.ndarray:
        pm = self._projected_means  # type: ignore[attr-defined]
        d2 = (z * z).sum(1)[:, None] - 2.0 * z @ pm.T + (pm * pm).sum(1)[None, :]
        proto = 0.5 * np.maximum(d2, 0.0).astype(np.float64) * self.temperature
        grouped = proto[:, self._by_class]  # type: ignore[attr-defined]
        if proto.shape[1] == len(self.classes):
            return grouped  # one prototype a class
        # each class's cost is its nearest prototype's
        return np.minimum.reduceat(grouped, self._class_starts, axis=1)  # type: ignore[attr-defined]

    def with_means(self, means: np.ndarray) -> "ClassModel":
        """The same discriminant space with new class means (how calibration adapts a set)."""
        return ClassModel(self.labels, means, self.projection, self.temperature, self.outlier, self.front)

    def with_prototypes(self, labels: tuple[str, ...], features: np.ndarray) -> "ClassModel":
        """The model with the examples ``features`` (N x D, the reader's features) added as
        prototypes of ``labels`` (how a calibration photo teaches a set's own look)."""
        means = np.vstack([self.means, self.embed(features)])
        return ClassModel(self.labels + tuple(labels), means, self.projection, self.temperature, self.outlier,
                          self.front)

    def with_calibration(self, temperature: float, outlier: float) -> "ClassModel":
        return ClassModel(self.labels, self.means, self.projection, float(temperature), float(outlier), self.front)

    def with_front(self, front: tuple[tuple[np.ndarray, np.ndarray], ...]) -> "ClassModel":
        """The same prototypes and space read through the layers ``front`` (see ``front``)."""
        return ClassModel(self.labels, self.means, self.projection, self.temperature, self.outlier, front)


def through_layers(layers, features: np.ndarray) -> np.ndarray:
    """N x D features through ``layers`` ((weights, bias) pairs, each followed by a ReLU)."""
    x = np.asarray(features, dtype=np.float32)
    for w, b in layers:
        x = np.maximum(x @ w + b, 0.0)
    return x


@dataclass(frozen=True, eq=False)
class Profile:
    """A piece set's look for one game: a :class:`ClassModel` per kind of piece."""

    game: str
    name: str
    features: dict[str, Any]
    models: dict[str, ClassModel]
    meta: dict[str, Any] = field(default_factory=dict)

    def model(self, kind: str) -> ClassModel:
        try:
            return self.models[kind]
        except KeyError:
            raise ProfileError(f"profile {self.name!r} has no {kind!r} model: expected {', '.join(MODEL_NAMES)}") from None


def _paths(path: str | Path) -> tuple[Path, Path]:
    p = Path(path)
    if p.suffix in (".json", ".npz"):
        p = p.with_suffix("")
    return p.with_name(p.name + ".json"), p.with_name(p.name + ".npz")


def save_profile(profile: Profile, path: str | Path) -> tuple[Path, Path]:
    """Write ``PATH.json`` and ``PATH.npz`` (``path`` may name either or their stem); returns both paths."""
    jpath, npath = _paths(path)
    jpath.parent.mkdir(parents=True, exist_ok=True)
    head = {
        "format": PROFILE_FORMAT,
        "version": PROFILE_VERSION,
        "game": profile.game,
        "name": profile.name,
        "features": profile.features,
        "arrays": npath.name,
        "models": {
            kind: {
                "labels": list(m.labels),
                "temperature": round(float(m.temperature), 6),
                "outlier": None if not np.isfinite(m.outlier) else round(float(m.outlier), 4),
                "dim": m.dim,
                **({"layers": len(m.front)} if m.front else {}),
            }
            for kind, m in profile.models.items()
        },
        "meta": profile.meta,
    }
    arrays = {}
    for kind, m in profile.models.items():
        arrays[f"{kind}_means"] = m.means
        arrays[f"{kind}_projection"] = m.projection
        for i, (w, b) in enumerate(m.front):
            arrays[f"{kind}_layer{i}_weights"] = w
            arrays[f"{kind}_layer{i}_bias"] = b
    # the arrays first and the head that names them last; both appear together or not at all
    with OutputFiles(npath, jpath) as files:
        with files.open(npath, "wb") as fh:
            np.savez_compressed(fh, **arrays)
        with files.open(jpath) as fh:
            fh.write(json.dumps(head, indent=1) + "\n")
    return jpath, npath


def load_profile(path: str | Path | None = None, *, game: str = "easy-slider", kinds: tuple[str, ...] = MODEL_NAMES) -> Profile:
    """Read a profile (``None``: the bundled default); raises ProfileError if it is not a usable
    profile for ``game`` holding a model of each of ``kinds``."""
    jpath, npath = _paths(DEFAULT_PROFILE if path is None else path)
    shown = str(path if path is not None else jpath)
    try:
        head = json.loads(jpath.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProfileError(f"{shown}: no such profile (expected {jpath.name} and {npath.name})") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:  # bad, deeply nested or huge-number JSON
        raise ProfileError(f"{shown}: not a readable profile ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(head, dict) or head.get("format") != PROFILE_FORMAT:
        raise ProfileError(f"{shown}: not a table-caller profile (format {head.get('format') if isinstance(head, dict) else None!r})")
    if head.get("version") != PROFILE_VERSION:
        raise ProfileError(f"{shown}: profile version {head.get('version')!r}, this program reads version {PROFILE_VERSION}")
    if head.get("game") != game:
        raise ProfileError(f"{shown}: profile for game {head.get('game')!r}, expected a profile for {game!r}")
    try:
        with np.load(npath, allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
    except FileNotFoundError:
        raise ProfileError(f"{shown}: its arrays file {npath} is missing") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:  # empty, truncated, not a zip
        raise ProfileError(f"{shown}: arrays file {npath} is damaged ({exc.__class__.__name__}: {exc})") from None
    models = {}
    try:
        for kind, spec in head["models"].items():
            models[kind] = ClassModel(
                tuple(spec["labels"]),
                arrays[f"{kind}_means"],
                arrays[f"{kind}_projection"],
                float(spec.get("temperature", 1.0)),
                float("inf") if spec.get("outlier") is None else float(spec["outlier"]),
                tuple((arrays[f"{kind}_layer{i}_weights"], arrays[f"{kind}_layer{i}_bias"])
                      for i in range(int(spec.get("layers", 0)))),
            )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ProfileError(f"{shown}: profile is incomplete (missing {exc})") from None
    except (ProfileError, ValueError) as exc:  # arrays that do not fit, NaN, not numbers
        raise ProfileError(f"{shown}: {kind!r} model: {exc}") from None
    for kind in kinds:
        if kind not in models:
            raise ProfileError(f"{shown}: profile has no {kind!r} model")
    return Profile(
        game=head["game"],
        name=str(head.get("name", jpath.stem)),
        features=dict(head.get("features", {})),
        models=models,
        meta=dict(head.get("meta", {})),
    )


def load_model(profile: "Profile | str | Path | None", bundled: Path, *, game: str, kind: str,
               features_id: str) -> tuple["Profile", ClassModel]:
    """(profile, its ``kind`` model): ``profile`` as given (a Profile, or a path; None: the
    ``bundled`` one), read for ``game``; raises ProfileError when it was learnt on other
    features than the reader's (``features_id``) or has no ``kind`` model."""
    got = profile if isinstance(profile, Profile) else load_profile(
        bundled if profile is None else profile, game=game, kinds=(kind,))
    if got.features.get("id") != features_id:
        raise ProfileError(f"profile {got.name!r} was learnt on features {got.features.get('id')!r}, "
                           f"this reader computes {features_id!r}: rebuild it")
    return got, got.model(kind)


def fit_class_model(
    features: np.ndarray, labels: np.ndarray, label_names: tuple[str, ...], *, ridge: float = 1e-2, dims: int | None = None
) -> ClassModel:
    """Learn a :class:`ClassModel` from N x D features and N integer labels (indices into ``label_names``).

    Linear discriminant analysis: the projection whitens the pooled within-class covariance
    (plus ``ridge`` times its mean variance, so few examples still give a stable space) and
    keeps the ``dims`` directions that best separate the class means (default C-1).
    """
    X = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels, dtype=np.int64)
    C = len(label_names)
    present = np.unique(y)
    if len(present) < C and set(label_names[i] for i in present) == set(label_names):
        # prototypes without examples are dropped when their code has other prototypes
        keep = [int(i) for i in present]
        remap = {old: new for new, old in enumerate(keep)}
        y = np.array([remap[int(v)] for v in y])
        label_names = tuple(label_names[i] for i in keep)
        C = len(label_names)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"features {X.shape} and labels {y.shape} do not match")
    missing = sorted(set(range(C)) - set(y.tolist()))
    if missing:
        raise ValueError(f"no examples for labels {[label_names[i] for i in missing]}")
    means = np.stack([X[y == c].mean(0) for c in range(C)])
    resid = X - means[y]
    cov = resid.T @ resid / max(1, X.shape[0] - C)
    cov += np.eye(X.shape[1]) * ridge * max(float(np.trace(cov)) / X.shape[1], 1e-12)
    evals, evecs = np.linalg.eigh(cov)
    whiten = evecs / np.sqrt(np.maximum(evals, 1e-12))[None, :]
    mw = (means - means.mean(0)) @ whiten
    _, s, vt = np.linalg.svd(mw, full_matrices=False)
    k = min(dims or (C - 1), vt.shape[0], 60)
    projection = whiten @ vt[:k].T
    return ClassModel(tuple(label_names), means.astype(np.float32), projection.astype(np.float32), 1.0)
