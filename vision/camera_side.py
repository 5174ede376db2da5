"""A square board's quarter turn told by the camera: its far side is the edge highest in the picture.

A board of n x n tiles grid side up with nothing fixed on it (no face-up tile, no piece off
the board) looks the same turned any quarter turn; where the table description says the
players' side is the camera's (``rules.table.PlayerSide.CAMERA``), row 0 of the board is the
edge farthest from the camera. A camera looks down at the table from its own side, so that
edge is the one the picture shows highest (the smallest image y), whichever way the board
lies under it.

A camera that does not move (the live Caller's) must not see the board flip between two
turns when the board lies about diagonally under it: ``CameraSide`` remembers the far
edge's direction in the picture at the first read and afterwards keeps the turn whose far
edge points that way.
"""

from __future__ import annotations

import numpy as np

from vision.locate import Lattice


def far_edges(lattice: Lattice, turns: list, n: int) -> np.ndarray:
    """len(turns) x 2: for each map (player tile coords u, v -> lattice x, y, as
    ``vision.faces_up.quarter_frames`` gives them), the image point (px) of the middle of the
    edge it puts at row 0 of an n x n board."""
    pts = []
    for frame in turns:
        x, y = frame(np.array([0.0, n / 2, n]), np.array([0.0, 0.0, 0.0]))
        pts.append(np.stack([np.broadcast_to(x, (3,)), np.broadcast_to(y, (3,))], 1))
    return lattice.to_image(np.concatenate(pts).astype(np.float64)).reshape(len(turns), 3, 2)[:, 1]


class CameraSide:
    """Chooses the quarter turn of a square board as the camera sees it (see the module).

    ``keep``: remember the far edge's direction in the picture from the first choice on
    (one fixed camera), so that later reads keep the turn that points the same way."""

    def __init__(self, keep: bool = False):
        self.keep = keep
        self.direction: np.ndarray | None = None

    def choose(self, lattice: Lattice, turns: list, n: int) -> int:
        """The index into ``turns`` of the board's turn in the camera's frame."""
        edges = far_edges(lattice, turns, n)
        centre = lattice.to_image(np.array([[n / 2, n / 2]], np.float64))[0]
        out = edges - centre
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
        if self.direction is not None:
            return int(np.argmax(out @ self.direction))
        k = int(np.argmin(edges[:, 1]))
        if self.keep:
            self.direction = out[k]
        return k
