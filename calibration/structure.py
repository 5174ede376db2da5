"""Whether a layout fits the photo of a set that no model knows: the set's own suit x rank structure.

The default model reads sets like the ones it was built from; on an unfamiliar set (dark
plastic, dark wood, light inks, its own emblems) its reading says nothing about whether the
layout given is the one in the photo. What every set has is its structure: each face is one
suit and one rank, six faces share a suit (its ink and emblem) and four a rank (its numeral).

For each cell a suit discriminant and a rank discriminant are learnt from the *other* cells
(``vision.profile.fit_class_model``; the augmented copies of the photo give each cell its
cloud), and the cell is scored under both: leave-one-out. A cell whose label is wrong is
scored as its real suit and rank. Two mistakes are looked for:

* **two tiles swapped**, the commonest when a known layout is laid out by hand: two cells each
  of which fits the other's label better than its own. The gain of the exchange is put in
  calibrated nats (``StructureFit.temperature``: the scale under which the labels given are
  likeliest, so that it does not matter how far apart this set's faces lie in feature space)
  and compared with ``CalibrationConfig.swap_gap``;
* **another layout**: more than ``CalibrationConfig.structure_misread`` of the cells read with
  another suit or rank than the layout gives (a layout file of another photo, a board found a
  row off, or faces this photo does not tell apart).

An honest layout of a hard set (one ink for every suit, faint emblems) has cells that the
leave-one-out reading gets wrong too; those are single cells, not pairs that explain each
other, and not most of the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from vision.profile import fit_class_model

#: the features are first cut down to this many principal directions of the photo's own cells
#: and copies: 25 faces span at most 24 directions between them, and the rest is the copies'
#: nuisance; it makes the 48 leave-one-out discriminants cheap (561 features: about 10 times faster)
PRINCIPAL_DIMS = 64

SUITS = ("S", "M", "C", "A")
RANKS = ("n", "a", "2", "3", "4", "5")
NULL = "n"


@dataclass(frozen=True)
class StructureFit:
    """Leave-one-out costs of every labelled cell: ``suit`` (N x 4) and ``rank`` (N x 6) nats,
    NaN rows for cells not scored (the hole, covered cells)."""

    suit: np.ndarray
    rank: np.ndarray

    def cost(self, i: int, code: str) -> float:
        """Cell ``i`` read as tile ``code``: its suit's cost plus its rank's."""
        return float(self.suit[i, SUITS.index(code[0])] + self.rank[i, RANKS.index(code[1])])

    def misread(self, labels: Sequence[str | None]) -> list[int]:
        """Cells whose best suit or best rank is not the label's."""
        out = []
        for i, code in enumerate(labels):
            if code is None or not np.isfinite(self.suit[i, 0]):
                continue
            if SUITS[int(np.argmin(self.suit[i]))] != code[0] or RANKS[int(np.argmin(self.rank[i]))] != code[1]:
                out.append(i)
        return out

    def swaps(self, labels: Sequence[str | None]) -> list[tuple[float, int, int]]:
        """(gain, i, j) for every pair of scored cells, best first: how much cheaper the two cells
        are with their labels exchanged (positive: the exchange fits better).

        Two null faces are never paired: a null shows a dot, a ring or nothing, and its suit only
        in a small mark, so the suit read from the other faces (their inks and emblems) fits
        one null about as badly as another. On report editions 1,000,396-1,000,419 every honest
        layout refused as a swap was two nulls (gains 5.2 to 8.5 calibrated nats, the same in
        every copy), while a swap of a null and another face also differs in rank."""
        cells = [i for i, code in enumerate(labels) if code is not None and np.isfinite(self.suit[i, 0])]
        out = []
        for n, i in enumerate(cells):
            for j in cells[n + 1:]:
                if labels[i] == labels[j] or labels[i][1] == labels[j][1] == NULL:
                    continue
                keep = self.cost(i, labels[i]) + self.cost(j, labels[j])
                out.append((keep - self.cost(i, labels[j]) - self.cost(j, labels[i]), i, j))
        return sorted(out, reverse=True)

    def temperature(self, labels: Sequence[str | None]) -> float:
        """The factor that turns this photo's costs into calibrated nats: the one under which the
        labels given are likeliest as a whole (most of them are right even in a wrong layout)."""
        rows, want = [], []
        for i, code in enumerate(labels):
            if code is not None and np.isfinite(self.suit[i, 0]):
                rows += [self.suit[i], self.rank[i]]
                want += [SUITS.index(code[0]), RANKS.index(code[1])]
        best_t, best_nll = 1.0, np.inf
        for t in np.exp(np.linspace(np.log(1e-4), np.log(3.0), 80)):
            nll = sum(_nll(-t * row, k) for row, k in zip(rows, want))
            if nll < best_nll:
                best_t, best_nll = float(t), nll
        return best_t


def _nll(z: np.ndarray, k: int) -> float:
    z = z - z.max()
    return float(np.log(np.exp(z).sum()) - z[k])


def structure_fit(copies: np.ndarray, labels: Sequence[str | None], skip: Sequence[bool], ridge: float) -> StructureFit:
    """Leave-one-out suit and rank costs of each cell from ``copies`` (n x cells x D tile features:
    the photo and its augmented copies), the cells labelled ``labels`` (None: the hole)."""
    T = np.asarray(copies, np.float64)
    T = _principal(T, PRINCIPAL_DIMS)
    cells = [i for i, code in enumerate(labels) if code is not None and not skip[i]]
    suit = np.full((T.shape[1], len(SUITS)), np.nan)
    rank = np.full((T.shape[1], len(RANKS)), np.nan)
    for i in cells:
        others = [j for j in cells if j != i]
        X = T[:, others].reshape(-1, T.shape[2])
        ys = np.tile([SUITS.index(labels[j][0]) for j in others], T.shape[0])
        yr = np.tile([RANKS.index(labels[j][1]) for j in others], T.shape[0])
        if len(set(ys.tolist())) < len(SUITS) or len(set(yr.tolist())) < len(RANKS):
            continue  # a suit or rank with no other cell: nothing to compare this one with
        suit[i] = fit_class_model(X, ys, SUITS, ridge=ridge).costs(T[:, i]).mean(0)
        rank[i] = fit_class_model(X, yr, RANKS, ridge=ridge).costs(T[:, i]).mean(0)
    return StructureFit(suit, rank)


def _principal(T: np.ndarray, dims: int) -> np.ndarray:
    """``T`` (n x cells x D) in its ``dims`` principal directions (fewer when D is smaller)."""
    X = T.reshape(-1, T.shape[2])
    X = X - X.mean(0)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    return (X @ vt[:dims].T).reshape(T.shape[0], T.shape[1], -1)
