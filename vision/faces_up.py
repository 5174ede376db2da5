"""A square board's quarter turn, told by the tiles that lie face up among its grid-side tiles.

A board of n x n tiles looks the same turned any quarter turn, so the picture alone leaves
four frames (``quarter_frames``) where an oblong board leaves two (``vision.squares.frames``).
Where the table description fixes what some face-up tiles show (``TileLattice.faces``: a
game's home tiles, each its suit's ace), those tiles tell the frames apart: each is cut
upright in every frame as the face reader cuts a tile (``vision.features.FEATURES``'s
``tile_crop`` of a 48 px pitch), read with the face reader's tile model (the bundled default
profile, a model of every face in several editions), and the frame kept is the one where
the tiles fit the faces it expects there best, all of them together. A coin or a pawn on a
face-up tile hides part of it, but the others still tell (only one frame puts every suit's
tile where it belongs).

The squares of a face-up tile show its print, not a grid: they are read with a model of their
own (``face_up_costs``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from vision import features as F
from vision.locate import Lattice
from vision.squares import windows_at

Cell = tuple[int, int]

#: the face reader's tile crop: its share of a pitch, at its 48 px a pitch (``vision.rectify``)
_CELL_PX = 48
_CROP_PX = int(round(F.FEATURES["tile_crop"] * _CELL_PX))


def quarter_frames(lattice: Lattice, n: int) -> list:
    """The four maps (player tile coords u, v -> lattice x, y) that lay an n x n board on
    ``lattice``'s window, k counter-clockwise quarter turns of the board apart (k = 0..3);
    k = 0 and k = 2 are ``vision.squares.frames``'s two."""
    if lattice.shape != (n, n):
        raise ValueError(f"a lattice window of {lattice.shape} does not hold a board of {n}x{n} tiles")
    return [lambda u, v: (u, v), lambda u, v: (v, n - u), lambda u, v: (n - u, n - v), lambda u, v: (n - v, u)]


@lru_cache(maxsize=1)
def _tile_model():
    from vision.profile import load_profile

    return load_profile(None, game="easy-slider", kinds=("tiles",)).model("tiles")


def face_costs(image: np.ndarray, lattice: Lattice, frames: list, faces: tuple[tuple[Cell, str], ...]) -> np.ndarray:
    """len(frames) costs (nats, summed over ``faces``): how badly the tiles each frame puts at
    the cells of ``faces`` ((tile cell, code) pairs, player frame) fit the faces named there."""
    model = _tile_model()
    labels = list(model.classes)
    cells = [cell for cell, _ in faces]
    want = [labels.index(code) for _, code in faces]
    centres = np.array([[c + 0.5, r + 0.5] for r, c in cells], float)
    crops = np.concatenate([windows_at(image, lattice, frame, centres, px=_CROP_PX, side=_CROP_PX / _CELL_PX)
                            for frame in frames])
    cost = model.costs(F.tile_features(crops)[0]).reshape(len(frames), len(faces), -1)
    return np.array([sum(float(cost[k, i, w]) for i, w in enumerate(want)) for k in range(len(frames))])


#: the bundled model of squares on face-up tiles (``benchmarks/build_faceup_model.py``)
FACE_UP_MODEL = Path(__file__).resolve().parent / "models" / "faceup"


@lru_cache(maxsize=1)
def _face_up_model():
    from vision.profile import load_profile

    return load_profile(FACE_UP_MODEL, game="squares", kinds=("squares",)).model("squares")


def face_up_costs(cost: np.ndarray, labels: tuple[str, ...], features: np.ndarray, squares: list[Cell], cols: int) -> None:
    """Put the face-up squares' model's costs (``FACE_UP_MODEL``) in ``cost`` (N x L over
    ``labels``, the squares model's, rows of ``features`` row-major over squares ``cols``
    wide) for the ``squares`` of face-up tiles, in place. The squares model knows grid-side
    squares only and takes an ace's printed suit symbol for a coin suit side up; this model
    was learnt on face-up tiles' squares. It knows no pawn (none stood on a face-up tile in
    the renders it was learnt from), so a pawn keeps the squares model's cost there."""
    model = _face_up_model()
    rows = np.array([r * cols + c for r, c in squares], np.int64)
    fc = model.costs(features[rows])
    for j, lab in enumerate(model.classes):
        if lab in labels:
            cost[rows, labels.index(lab)] = fc[:, j]
